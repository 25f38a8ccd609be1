// SPDX-License-Identifier: GPL-2.0-only
/*
 * Runqueue-structure microbenchmark: LEAP's skip list (include/linux/skiplist.h
 * + kernel/sched/skiplist.c, unchanged) against
 *   array  - sorted array of pointers (descending, so the first is at the end)
 *   rbtree - the kernel's rbtree (lib/rbtree.c of the 6.12 tree), leftmost cached
 *   bfs    - BFS 0.406: one list per priority + bitmap, O(n) deadline search
 *   list   - plain doubly linked list kept sorted
 *
 * Operations, each on a structure holding n entries whose owners ("tasks",
 * SLOT bytes each) are scattered at random over an arena 4 times larger:
 *   insert - insert an entry with a random key (FIFO among equal keys)
 *   delete - delete a random queued entry
 *   pick   - return the first entry (BFS: the earliest deadline, O(n))
 *   scan   - walk in key order to the first entry passing a predicate
 *            (a bit in the owner's cpus word, as an affinity check); only the
 *            last entry passes, so scan cost / (n - 1) = cost per skipped entry
 *
 *   bench [-r REPS] [-n N,N,...] [-s STRUCT,...] [--node-off B] [--cpus-off B]
 *         [--no-thp] [--sl-walk] [--callgrind]
 *
 * --sl-walk scans the skip list with skiplist_for_each() instead of
 * skiplist_find_first().
 *
 * Prints one JSON object per (structure, n): median TSC ticks and ns per op
 * over REPS phases. With --callgrind, every phase runs once and the
 * per-phase op counts are printed; run it under
 *   valgrind --tool=callgrind --cache-sim=yes --collect-atstart=no
 *            --toggle-collect='run_*'
 * and divide the inclusive costs of run_<struct>_<op> by them (bench.py).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <x86intrin.h>
#include <linux/skiplist.h>
#include <linux/rbtree.h>
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#else
#define CALLGRIND_TOGGLE_COLLECT
#define CALLGRIND_DUMP_STATS_AT(s)
#endif

unsigned long shim_warnings;

#define SLOT		576	/* bytes per owner: "64-byte-plus", 9 cache lines */
#define ARENA_SPREAD	4	/* arena holds this many slots per owner */
#define PRIO_LIMIT	103	/* BFS 0.406: 100 RT + ISO? + NORMAL + IDLE levels */
#define NORMAL_PRIO	100

static unsigned int node_off;		/* where the structure's node sits */
static unsigned int cpus_off = 512;	/* where the predicate word sits */
static int callgrind_mode;
static int use_thp = 1;
#define HPAGE		(2UL << 20)

/* ---- minimal doubly linked list (list+bitmap and plain list) ---- */
struct lh {
	struct lh *next, *prev;
};

static inline void lh_init(struct lh *h)
{
	h->next = h->prev = h;
}

static inline void lh_add_between(struct lh *n, struct lh *prev, struct lh *next)
{
	next->prev = n;
	n->next = next;
	n->prev = prev;
	prev->next = n;
}

static inline void lh_del(struct lh *n)
{
	n->next->prev = n->prev;
	n->prev->next = n->next;
}

/* ---- the owner ("task"): a SLOT-byte block; node and cpus at offsets ---- */
struct lnode {			/* node for bfs and list */
	struct lh lh;
	u64 key;
};

struct rnode {			/* node for rbtree */
	struct rb_node rb;
	u64 key;
};

struct task {
	u64 key;		/* the key as the benchmark knows it */
	unsigned int prio;
	unsigned int queued;
	/* the rest of the SLOT bytes: node and cpus at their offsets */
};

#define T_NODE(t, type)	((type *)((char *)(t) + 64 + node_off))
#define T_CPUS(t)	(*(u64 *)((char *)(t) + cpus_off))
#define NODE_T(p)	((struct task *)((char *)(p) - 64 - node_off))

/*
 * The first 64 bytes of a slot hold struct task (benchmark bookkeeping),
 * the node starts at 64 + node_off, so with node_off = 0 it starts a cache
 * line. cpus_off counts from the slot start; the default 512 puts the
 * predicate word in a line of its own, as a task's affinity mask is.
 */

/* ---- structures ---- */
static struct skiplist sl;
static u64 sl_rand = 0x1234567887654321ULL;
static struct rb_root_cached rbt;
static struct task **arr;
static unsigned int arr_n;
static struct lh bfs_q[PRIO_LIMIT];
static unsigned long bfs_bitmap[2];
static struct lh plist;

enum { S_SKIPLIST, S_ARRAY, S_RBTREE, S_BFS, S_LIST, NSTRUCT };
static const char *const sname[NSTRUCT] = {
	"skiplist", "array", "rbtree", "bfs", "list",
};

/* skiplist */
static inline void sl_insert(struct task *t)
{
	skiplist_insert(&sl, T_NODE(t, struct skiplist_node), t->key,
			skiplist_rand_next(&sl_rand));
}

static inline void sl_delete(struct task *t)
{
	skiplist_del(&sl, T_NODE(t, struct skiplist_node));
}

static inline struct task *sl_first(void)
{
	struct skiplist_node *n = skiplist_first(&sl);

	return n ? NODE_T(n) : NULL;
}

static int sl_walk;	/* --sl-walk: scan with skiplist_for_each() */

static bool sl_pred(const struct skiplist_node *n, void *mask)
{
	return T_CPUS(NODE_T(n)) & *(u64 *)mask;
}

static inline struct task *sl_scan(u64 mask)
{
	struct skiplist_node *n;

#ifdef SKIPLIST_FIND_PREFIX	/* (older skiplist.h, for comparisons: walk) */
	if (!sl_walk) {
		n = skiplist_find_first(&sl, sl_pred, &mask);
		return n ? NODE_T(n) : NULL;
	}
#endif
	skiplist_for_each(n, &sl)
		if (T_CPUS(NODE_T(n)) & mask)
			return NODE_T(n);
	return NULL;
}

/* sorted array of pointers, descending by key; FIFO: pick takes the end */
static inline unsigned int arr_lower(u64 key)
{
	/* first index whose key is <= key */
	unsigned int lo = 0, hi = arr_n;

	while (lo < hi) {
		unsigned int mid = (lo + hi) / 2;

		if (arr[mid]->key > key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static inline void arr_insert(struct task *t)
{
	unsigned int p = arr_lower(t->key);

	memmove(&arr[p + 1], &arr[p], (arr_n - p) * sizeof(*arr));
	arr[p] = t;
	arr_n++;
}

static inline void arr_delete(struct task *t)
{
	unsigned int p = arr_lower(t->key);

	while (arr[p] != t)
		p++;
	memmove(&arr[p], &arr[p + 1], (arr_n - p - 1) * sizeof(*arr));
	arr_n--;
}

static inline struct task *arr_first(void)
{
	return arr_n ? arr[arr_n - 1] : NULL;
}

static inline struct task *arr_scan(u64 mask)
{
	unsigned int i;

	for (i = arr_n; i-- > 0;)
		if (T_CPUS(arr[i]) & mask)
			return arr[i];
	return NULL;
}

/* rbtree, leftmost cached, as CFS keeps it */
static inline void rbt_insert(struct task *t)
{
	struct rnode *n = T_NODE(t, struct rnode);
	struct rb_node **link = &rbt.rb_root.rb_node, *parent = NULL;
	bool leftmost = true;

	n->key = t->key;
	while (*link) {
		parent = *link;
		if (n->key < rb_entry(parent, struct rnode, rb)->key) {
			link = &parent->rb_left;
		} else {
			link = &parent->rb_right;
			leftmost = false;
		}
	}
	rb_link_node(&n->rb, parent, link);
	rb_insert_color_cached(&n->rb, &rbt, leftmost);
}

static inline void rbt_delete(struct task *t)
{
	rb_erase_cached(&T_NODE(t, struct rnode)->rb, &rbt);
}

static inline struct task *rbt_first(void)
{
	struct rb_node *n = rb_first_cached(&rbt);

	return n ? NODE_T(n) : NULL;
}

static inline struct task *rbt_scan(u64 mask)
{
	struct rb_node *n;

	for (n = rb_first_cached(&rbt); n; n = rb_next(n))
		if (T_CPUS(NODE_T(n)) & mask)
			return NODE_T(n);
	return NULL;
}

/* BFS 0.406: list per priority, bitmap, earliest deadline by O(n) search */
static inline void bfs_insert(struct task *t)
{
	struct lnode *n = T_NODE(t, struct lnode);

	n->key = t->key;
	lh_add_between(&n->lh, bfs_q[t->prio].prev, &bfs_q[t->prio]);
	bfs_bitmap[t->prio / 64] |= 1UL << (t->prio % 64);
}

static inline void bfs_delete(struct task *t)
{
	struct lnode *n = T_NODE(t, struct lnode);

	lh_del(&n->lh);
	if (bfs_q[t->prio].next == &bfs_q[t->prio])
		bfs_bitmap[t->prio / 64] &= ~(1UL << (t->prio % 64));
}

static inline unsigned int bfs_first_prio(void)
{
	if (bfs_bitmap[0])
		return __builtin_ctzl(bfs_bitmap[0]);
	if (bfs_bitmap[1])
		return 64 + __builtin_ctzl(bfs_bitmap[1]);
	return PRIO_LIMIT;
}

/* earliest_deadline_task(): the whole queue of the first prio is searched */
static inline struct task *bfs_pick(u64 mask)
{
	unsigned int idx = bfs_first_prio();
	struct lnode *best = NULL;
	struct lh *p;

	if (idx >= PRIO_LIMIT)
		return NULL;
	for (p = bfs_q[idx].next; p != &bfs_q[idx]; p = p->next) {
		struct lnode *n = (struct lnode *)p;

		if (!(T_CPUS(NODE_T(n)) & mask))
			continue;
		if (idx < NORMAL_PRIO)
			return NODE_T(n);	/* RT: FIFO within a prio */
		if (!best || n->key < best->key)
			best = n;
	}
	/* (BFS would go on to the next set bit if nothing was allowed) */
	return best ? NODE_T(best) : NULL;
}

/* plain sorted list */
static inline void list_insert(struct task *t)
{
	struct lnode *n = T_NODE(t, struct lnode);
	struct lh *p;

	n->key = t->key;
	for (p = plist.next; p != &plist; p = p->next)
		if (((struct lnode *)p)->key > n->key)
			break;
	lh_add_between(&n->lh, p->prev, p);
}

static inline void list_delete(struct task *t)
{
	lh_del(&T_NODE(t, struct lnode)->lh);
}

static inline struct task *list_first(void)
{
	return plist.next == &plist ? NULL : NODE_T(plist.next);
}

static inline struct task *list_scan(u64 mask)
{
	struct lh *p;

	for (p = plist.next; p != &plist; p = p->next)
		if (T_CPUS(NODE_T(p)) & mask)
			return NODE_T(p);
	return NULL;
}

/* ---- the timed phases, one noinline function per structure and op ---- */
struct phase {
	struct task **batch;	/* insert / delete: these */
	unsigned int nbatch;
	unsigned int reps;	/* pick / scan: this many times */
	u64 sink;
};

#define SCAN_MASK	2ULL	/* only the marked entry has it */
#define ALL_MASK	1ULL	/* every entry has it */

#define DEFINE_RUNS(S, INS, DEL, FIRST, SCAN)				\
__attribute__((noinline)) void run_##S##_insert(struct phase *ph)	\
{									\
	unsigned int i;							\
	for (i = 0; i < ph->nbatch; i++)				\
		INS(ph->batch[i]);					\
}									\
__attribute__((noinline)) void run_##S##_delete(struct phase *ph)	\
{									\
	unsigned int i;							\
	for (i = 0; i < ph->nbatch; i++)				\
		DEL(ph->batch[i]);					\
}									\
__attribute__((noinline)) void run_##S##_pick(struct phase *ph)	\
{									\
	unsigned int i;							\
	for (i = 0; i < ph->reps; i++) {				\
		struct task *t = FIRST;					\
		ph->sink += t->key;					\
		asm volatile("" ::: "memory");				\
	}								\
}									\
__attribute__((noinline)) void run_##S##_scan(struct phase *ph)	\
{									\
	unsigned int i;							\
	for (i = 0; i < ph->reps; i++) {				\
		struct task *t = SCAN(SCAN_MASK);			\
		ph->sink += t->key;					\
		asm volatile("" ::: "memory");				\
	}								\
}

DEFINE_RUNS(skiplist, sl_insert, sl_delete, sl_first(), sl_scan)
DEFINE_RUNS(array, arr_insert, arr_delete, arr_first(), arr_scan)
DEFINE_RUNS(rbtree, rbt_insert, rbt_delete, rbt_first(), rbt_scan)
DEFINE_RUNS(bfs, bfs_insert, bfs_delete, bfs_pick(ALL_MASK), bfs_pick)
DEFINE_RUNS(list, list_insert, list_delete, list_first(), list_scan)

typedef void (*run_fn)(struct phase *);
static const run_fn runs[NSTRUCT][4] = {
	{ run_skiplist_insert, run_skiplist_delete, run_skiplist_pick, run_skiplist_scan },
	{ run_array_insert, run_array_delete, run_array_pick, run_array_scan },
	{ run_rbtree_insert, run_rbtree_delete, run_rbtree_pick, run_rbtree_scan },
	{ run_bfs_insert, run_bfs_delete, run_bfs_pick, run_bfs_scan },
	{ run_list_insert, run_list_delete, run_list_pick, run_list_scan },
};

enum { OP_INSERT, OP_DELETE, OP_PICK, OP_SCAN, NOPS };

/* ---- driver ---- */
static u64 rng = 42;

static u64 rnd64(void)
{
	u64 z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static u64 new_key(void)
{
	return rnd64() >> 24;	/* 40-bit deadlines, distinct in practice */
}

static void reset_structure(int s)
{
	unsigned int i;

	switch (s) {
	case S_SKIPLIST:
		skiplist_init(&sl);
		break;
	case S_ARRAY:
		arr_n = 0;
		break;
	case S_RBTREE:
		rbt = RB_ROOT_CACHED;
		break;
	case S_BFS:
		for (i = 0; i < PRIO_LIMIT; i++)
			lh_init(&bfs_q[i]);
		bfs_bitmap[0] = bfs_bitmap[1] = 0;
		break;
	case S_LIST:
		lh_init(&plist);
		break;
	}
}

static int cmp_key_desc(const void *a, const void *b)
{
	u64 ka = (*(struct task *const *)a)->key, kb = (*(struct task *const *)b)->key;

	return ka < kb ? 1 : ka > kb ? -1 : 0;
}

/* fill with tasks[0..n-1]; sorted structures are built directly */
static void fill(int s, struct task **tasks, unsigned int n)
{
	unsigned int i;

	if (s == S_ARRAY || s == S_LIST) {
		struct task **tmp = malloc(n * sizeof(*tmp));

		memcpy(tmp, tasks, n * sizeof(*tmp));
		qsort(tmp, n, sizeof(*tmp), cmp_key_desc);
		for (i = 0; i < n; i++) {
			if (s == S_ARRAY) {
				arr[arr_n++] = tmp[i];
			} else {
				struct lnode *ln = T_NODE(tmp[i], struct lnode);

				ln->key = tmp[i]->key;
				lh_add_between(&ln->lh, &plist, plist.next);
			}
		}
		free(tmp);
	} else {
		for (i = 0; i < n; i++) {
			if (s == S_SKIPLIST)
				skiplist_node_init(T_NODE(tasks[i], struct skiplist_node));
			runs[s][OP_INSERT](&(struct phase){ .batch = &tasks[i], .nbatch = 1 });
		}
	}
	for (i = 0; i < n; i++)
		tasks[i]->queued = 1;
}

static inline u64 tsc_begin(void)
{
	_mm_lfence();
	return __rdtsc();
}

static inline u64 tsc_end(void)
{
	unsigned int aux;
	u64 t = __rdtscp(&aux);

	_mm_lfence();
	return t;
}

static double tsc_ghz;
volatile u64 bench_sink;

static void calibrate(void)
{
	struct timespec a, b;
	u64 t0, t1;

	clock_gettime(CLOCK_MONOTONIC, &a);
	t0 = __rdtsc();
	do {
		clock_gettime(CLOCK_MONOTONIC, &b);
	} while ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec) < 2e8);
	t1 = __rdtsc();
	tsc_ghz = (t1 - t0) / ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec));
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, unsigned int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

__attribute__((noinline)) void run_empty(struct phase *ph)
{
	asm volatile("" ::: "memory");
}

static double timer_overhead(void)
{
	double v[101];
	unsigned int i;

	for (i = 0; i < 101; i++) {
		u64 t0 = tsc_begin();

		run_empty(NULL);
		v[i] = tsc_end() - t0;
	}
	return median(v, 101);
}

/* Run one phase; return its end TSC and its start in *t0. */
static u64 timed(int s, int op, unsigned int n, struct phase *ph, u64 *t0)
{
	static const char *const opname[NOPS] = {
		"insert", "delete", "pick", "scan",
	};
	char label[64];
	u64 t1;

	if (callgrind_mode) {
		CALLGRIND_TOGGLE_COLLECT;
		runs[s][op](ph);
		CALLGRIND_TOGGLE_COLLECT;
		snprintf(label, sizeof(label), "phase %s %s %u", sname[s],
			 opname[op], n);
		CALLGRIND_DUMP_STATS_AT(label);
		*t0 = 0;
		return 0;
	}
	*t0 = tsc_begin();
	runs[s][op](ph);
	t1 = tsc_end();
	return t1;
}

static void bench_one(int s, unsigned int n, unsigned int reps)
{
	unsigned int batch = n >= 64 ? 16 : n / 4;
	unsigned int total = n + batch, nslots = total * ARENA_SPREAD, i, r;
	unsigned int pick_reps, scan_reps;
	double *v[NOPS], med[NOPS], ovh = timer_overhead();
	struct task **tasks, **queued, **spare, *marked = NULL;
	unsigned int *slot;
	struct phase ph = { 0 };
	size_t arena_size;
	char *arena;

	if (node_off + 64 + sizeof(struct skiplist_node) > SLOT ||
	    cpus_off + 8 > SLOT || cpus_off < 64 ||
	    (cpus_off + 8 > 64 + node_off &&
	     cpus_off < 64 + node_off + sizeof(struct skiplist_node))) {
		fprintf(stderr, "node or cpus offsets overlap or do not fit in a %d-byte slot\n",
			SLOT);
		exit(2);
	}
	/*
	 * Tasks live in the kernel's direct map, which uses 2M/1G pages: give
	 * the arena transparent huge pages so the TLB does not dominate.
	 */
	arena_size = ((size_t)nslots * SLOT + HPAGE - 1) & ~(HPAGE - 1);
	if (posix_memalign((void **)&arena, HPAGE, arena_size))
		exit(1);
	if (use_thp)
		madvise(arena, arena_size, MADV_HUGEPAGE);
	memset(arena, 0, (size_t)nslots * SLOT);
	slot = malloc(nslots * sizeof(*slot));
	tasks = malloc(total * sizeof(*tasks));
	arr = malloc((total + 1) * sizeof(*arr));
	for (i = 0; i < nslots; i++)
		slot[i] = i;
	for (i = 0; i < total; i++) {	/* random distinct slots */
		unsigned int j = i + rnd64() % (nslots - i), tmp = slot[i];

		slot[i] = slot[j];
		slot[j] = tmp;
		tasks[i] = (struct task *)(arena + (size_t)slot[i] * SLOT);
		tasks[i]->key = new_key();
		tasks[i]->prio = NORMAL_PRIO;
		T_CPUS(tasks[i]) = ALL_MASK;
		if (s == S_SKIPLIST)
			skiplist_node_init(T_NODE(tasks[i], struct skiplist_node));
	}
	reset_structure(s);
	fill(s, tasks, n);
	queued = tasks;		/* tasks[0..n-1] queued, tasks[n..] spare */
	spare = tasks + n;

	pick_reps = s == S_BFS ? (n >= 4096 ? 4 : 16384 / n) : 256;
	scan_reps = n >= 4096 ? 1 : 4096 / n;
	if (callgrind_mode) {
		reps = 1;
		printf("{\"callgrind_counts\": 1, \"struct\": \"%s\", \"n\": %u, "
		       "\"insert\": %u, \"delete\": %u, \"pick\": %u, \"scan\": %u, "
		       "\"scan_skipped\": %u}\n", sname[s], n, batch, batch,
		       pick_reps, scan_reps, scan_reps * (n - 1));
	}
	for (i = 0; i < NOPS; i++)
		v[i] = malloc(reps * sizeof(double));

	for (r = 0; r < reps; r++) {
		u64 t0, t1;

		/*
		 * Insert batch spares with fresh keys. Their nodes are not
		 * touched here (skiplist_del() left them unqueued), so every
		 * structure pays for bringing its node's lines in.
		 */
		for (i = 0; i < batch; i++)
			spare[i]->key = new_key();
		ph.batch = spare;
		ph.nbatch = batch;
		t1 = timed(s, OP_INSERT, n, &ph, &t0);
		v[OP_INSERT][r] = (t1 - t0 - ovh) / batch;
		/* now all total are queued: choose batch random victims */
		for (i = 0; i < total; i++)
			tasks[i]->queued = 1;
		for (i = 0; i < batch; i++) {
			unsigned int j = i + rnd64() % (total - i);
			struct task *tmp = tasks[i];

			tasks[i] = tasks[j];
			tasks[j] = tmp;
		}
		/* victims are tasks[0..batch-1]; rotate them to the spare end */
		ph.batch = tasks;
		t1 = timed(s, OP_DELETE, n, &ph, &t0);
		v[OP_DELETE][r] = (t1 - t0 - ovh) / batch;
		for (i = 0; i < batch; i++) {
			struct task *tmp = tasks[i];

			tasks[i] = tasks[n + i];
			tasks[n + i] = tmp;
			tasks[n + i]->queued = 0;
		}
		queued = tasks;
		spare = tasks + n;

		ph.reps = pick_reps;
		t1 = timed(s, OP_PICK, n, &ph, &t0);
		v[OP_PICK][r] = (t1 - t0 - ovh) / pick_reps;

		/* mark the last queued entry in key order (largest key, FIFO) */
		if (marked)
			T_CPUS(marked) = ALL_MASK;
		marked = NULL;
		for (i = 0; i < n; i++)
			if (!marked || queued[i]->key >= marked->key)
				marked = queued[i];
		/* equal keys: the latest queued is last; keys are distinct anyway */
		T_CPUS(marked) = ALL_MASK | SCAN_MASK;
		ph.reps = scan_reps;
		t1 = timed(s, OP_SCAN, n, &ph, &t0);
		v[OP_SCAN][r] = (t1 - t0 - ovh) / scan_reps / (n > 1 ? n - 1 : 1);
	}
	for (i = 0; i < NOPS; i++)
		med[i] = median(v[i], reps);
	if (!callgrind_mode)
		printf("{\"struct\": \"%s\", \"n\": %u, \"reps\": %u, \"tsc_ghz\": %.4f, "
		       "\"node_off\": %u, \"cpus_off\": %u, \"thp\": %d, "
		       "\"insert_tsc\": %.2f, \"delete_tsc\": %.2f, \"pick_tsc\": %.2f, "
		       "\"scan_tsc_per_skipped\": %.3f, "
		       "\"insert_ns\": %.2f, \"delete_ns\": %.2f, \"pick_ns\": %.3f, "
		       "\"scan_ns_per_skipped\": %.3f}\n",
		       sname[s], n, reps, tsc_ghz, node_off, cpus_off, use_thp,
		       med[0], med[1], med[2], med[3],
		       med[0] / tsc_ghz, med[1] / tsc_ghz, med[2] / tsc_ghz,
		       med[3] / tsc_ghz);
	fflush(stdout);
	bench_sink += ph.sink;
	for (i = 0; i < NOPS; i++)
		free(v[i]);
	free(arr);
	free(tasks);
	free(slot);
	free(arena);
}

/* whether the comma-separated list @l contains @w */
static int has_word(const char *l, const char *w)
{
	size_t len = strlen(w);

	for (; l; l = strchr(l, ',') ? strchr(l, ',') + 1 : NULL)
		if (!strncmp(l, w, len) && (l[len] == ',' || !l[len]))
			return 1;
	return 0;
}

int main(int argc, char **argv)
{
	static const unsigned int default_n[] = { 16, 64, 256, 1024, 4096, 16384, 65536 };
	unsigned int ns[32], nn = 0, reps = 31, i;
	int want[NSTRUCT] = { 1, 1, 1, 1, 1 }, s;

	for (i = 1; i < (unsigned int)argc; i++) {
		if (!strcmp(argv[i], "-r") && i + 1 < (unsigned int)argc) {
			reps = strtoul(argv[++i], NULL, 0);
		} else if (!strcmp(argv[i], "-n") && i + 1 < (unsigned int)argc) {
			char *p = argv[++i];

			while (*p && nn < 32) {
				ns[nn++] = strtoul(p, &p, 0);
				if (*p == ',')
					p++;
			}
		} else if (!strcmp(argv[i], "-s") && i + 1 < (unsigned int)argc) {
			memset(want, 0, sizeof(want));
			for (s = 0; s < NSTRUCT; s++)
				want[s] = has_word(argv[i + 1], sname[s]);
			i++;
		} else if (!strcmp(argv[i], "--node-off") && i + 1 < (unsigned int)argc) {
			node_off = strtoul(argv[++i], NULL, 0);
		} else if (!strcmp(argv[i], "--cpus-off") && i + 1 < (unsigned int)argc) {
			cpus_off = strtoul(argv[++i], NULL, 0);
		} else if (!strcmp(argv[i], "--sl-walk")) {
			sl_walk = 1;
		} else if (!strcmp(argv[i], "--no-thp")) {
			use_thp = 0;
		} else if (!strcmp(argv[i], "--callgrind")) {
			callgrind_mode = 1;
		} else {
			fprintf(stderr, "usage: see the comment at the top of bench.c\n");
			return 2;
		}
	}
	if (!nn)
		for (nn = 0; nn < sizeof(default_n) / sizeof(*default_n); nn++)
			ns[nn] = default_n[nn];
	if (reps < 1)
		reps = 1;
	calibrate();
	for (i = 0; i < nn; i++)
		for (s = 0; s < NSTRUCT; s++)
			if (want[s])
				bench_one(s, ns[i], reps);
	return 0;
}
