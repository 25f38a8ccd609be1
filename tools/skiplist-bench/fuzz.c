// SPDX-License-Identifier: GPL-2.0-only
/*
 * Differential fuzz test of include/linux/skiplist.h + kernel/sched/skiplist.c,
 * compiled unchanged in user space through shim/. Every operation is applied
 * to the skip list and to a reference model (an array of the queued nodes in
 * order, FIFO among equal keys, or LIFO for skiplist_insert_head()) and the
 * two are compared.
 *
 *   fuzz [-q] [-o OPS] [SEED POOL] ...
 *
 * Prints one TAP line per (seed, pool) run; exits 1 at the first run that
 * fails (the oracle's verdict: a list found broken is not used further,
 * so a broken list ends in this exit, not in a crash later).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/skiplist.h>

unsigned long shim_warnings;

struct owner {
	unsigned long id;
	unsigned long cpus;		/* predicate data, as a task's affinity */
	struct skiplist_node node;
	char tail[24];			/* memcheck catches overruns of node */
};

static struct skiplist sl;
static struct owner **pool;
static struct skiplist_node **ref;	/* reference: queued nodes in order */
static unsigned int npool, nref;
static unsigned long long ops_done;
static const char *failure;
static char failbuf[256];

static u64 rng;

static u64 rnd64(void)
{
	/* splitmix64: independent of the list's own xorshift */
	u64 z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

#define FAIL(...) do {							\
	snprintf(failbuf, sizeof(failbuf), __VA_ARGS__);		\
	failure = failbuf;						\
	return -1;							\
} while (0)

/* Every invariant of the list, O(n * levels in use). */
static int full_check(void)
{
	unsigned int hist[SKIPLIST_LEVELS] = { 0 };
	unsigned int i, l;

	if (sl.head.key != ~0ULL)
		FAIL("head key changed");
	if (sl.level > SKIPLIST_MAX_LEVEL)
		FAIL("top level %u", sl.level);
	if (sl.count != nref)
		FAIL("count %u, reference %u", sl.count, nref);

	for (i = 0; i < SKIPLIST_LEVELS; i++) {
		struct skiplist_node *prev = &sl.head, *pos;
		unsigned int n = 0, above = 0;

		for (pos = sl.head.link[i].next; pos != &sl.head; pos = pos->link[i].next) {
			if (pos->link[i].prev != prev)
				FAIL("level %u: prev does not mirror next", i);
			if (prev->link[i].next_key != pos->key)
				FAIL("level %u: stale next_key", i);
			if (pos->level < i || pos->level > sl.level)
				FAIL("level %u: node of level %u (top %u)", i,
				     pos->level, sl.level);
			if (prev != &sl.head && prev->key > pos->key)
				FAIL("level %u: keys out of order", i);
			if (pos->key > SKIPLIST_KEY_MAX)
				FAIL("node with the sentinel's key");
			if (!i) {
				if (n >= nref || ref[n] != pos)
					FAIL("level 0 differs from the reference at %u", n);
				hist[pos->level]++;
			}
			if (++n > nref)
				FAIL("level %u: loop or extra nodes", i);
			prev = pos;
		}
		if (sl.head.link[i].prev != prev)
			FAIL("level %u: head.prev is not the last node", i);
		if (prev->link[i].next_key != ~0ULL)
			FAIL("level %u: last link's next_key is not the head's", i);
		for (l = i; l < SKIPLIST_LEVELS; l++)
			above += hist[l];
		if (n != above)
			FAIL("level %u holds %u nodes, %u have that level", i, n, above);
		if (i > sl.level && n)
			FAIL("nodes above the top level %u", sl.level);
	}
	if (sl.level && sl.head.link[sl.level].next == &sl.head)
		FAIL("top level %u is empty", sl.level);
	for (i = 0; i < npool; i++) {
		struct skiplist_node *n = &pool[i]->node;

		if (skiplist_node_queued(n) != (n->link[0].next != NULL))
			FAIL("is_queued");
	}
	return 0;
}

/* O(1) checks after each step, around the node that changed. */
static int quick_check(struct skiplist_node *node, unsigned int at, int queued)
{
	struct skiplist_node *first = skiplist_first(&sl);

	if (sl.count != nref || skiplist_count(&sl) != nref)
		FAIL("count %u, reference %u", sl.count, nref);
	if (first != (nref ? ref[0] : NULL))
		FAIL("first differs from the reference");
	if (skiplist_empty(&sl) != !nref)
		FAIL("empty");
	if (skiplist_node_queued(node) != queued)
		FAIL("is_queued %d, expected %d", skiplist_node_queued(node), queued);
	if (queued) {
		if (skiplist_next(&sl, node) != (at + 1 < nref ? ref[at + 1] : NULL))
			FAIL("next after inserted node");
		if (node->link[0].prev != (at ? ref[at - 1] : &sl.head))
			FAIL("prev of inserted node");
	} else if (at < nref && at && ref[at]->link[0].prev != ref[at - 1]) {
		FAIL("neighbours not joined after delete");
	}
	if (sl.level && sl.head.link[sl.level].next == &sl.head)
		FAIL("top level %u is empty", sl.level);
	return 0;
}

static u64 random_key(void)
{
	u64 r = rnd64();

	switch (rnd64() % 8) {
	case 0:
		return r % 4;				/* heavy ties */
	case 1:
		return r % 100;				/* RT-like prios */
	case 2:
		return SKIPLIST_KEY_MAX - r % 3;	/* top of the range */
	case 3:
		return ~0ULL;				/* clamped */
	case 4:
		return ops_done * 1000 + r % 5000;	/* deadlines */
	default:
		return r;
	}
}

static u32 random_levelbits(void)
{
	switch (rnd64() % 16) {
	case 0:
		return 0;			/* tallest: hits the caps */
	case 1:
		return ~0U;			/* level 0 */
	default:
		return skiplist_rand_next(&rng);
	}
}

/* One insert in four goes to the head of its equal keys. */
static int do_insert(struct owner *o)
{
	u64 key = random_key();
	u64 stored = key > SKIPLIST_KEY_MAX ? SKIPLIST_KEY_MAX : key;
	unsigned int top = sl.level, i;
	bool head = rnd64() % 4 == 0, ok;

	if (head)
		ok = skiplist_insert_head(&sl, &o->node, key, random_levelbits());
	else
		ok = skiplist_insert(&sl, &o->node, key, random_levelbits());
	if (!ok)
		FAIL("insert of an unqueued node refused");
	if (o->node.key != stored)
		FAIL("stored key");
	if (o->node.level > top + 1 || o->node.level > SKIPLIST_MAX_LEVEL)
		FAIL("level %u above cap (top %u)", o->node.level, top);
	for (i = 0; i < nref && (ref[i]->key < stored ||
				 (!head && ref[i]->key == stored)); i++)
		;
	memmove(&ref[i + 1], &ref[i], (nref - i) * sizeof(*ref));
	ref[i] = &o->node;
	nref++;
	return quick_check(&o->node, i, 1);
}

static int do_delete(struct owner *o)
{
	unsigned int i;

	for (i = 0; i < nref && ref[i] != &o->node; i++)
		;
	if (i == nref)
		FAIL("deleting a node the reference does not have");
	if (!skiplist_del(&sl, &o->node))
		FAIL("delete of a queued node refused");
	memmove(&ref[i], &ref[i + 1], (nref - i - 1) * sizeof(*ref));
	nref--;
	return quick_check(&o->node, i, 0);
}

static int do_misuse(struct owner *o)
{
	unsigned long w = shim_warnings;
	struct skiplist_node copy = o->node;
	unsigned int level = sl.level, count = sl.count;
	bool queued = skiplist_node_queued(&o->node);
	bool ret;

	if (queued)
		ret = skiplist_insert(&sl, &o->node, random_key(), 0);
	else
		ret = skiplist_del(&sl, &o->node);
	if (ret)
		FAIL("misuse (%s) not refused", queued ? "insert" : "delete");
	if (shim_warnings != w + 1)
		FAIL("misuse did not WARN");
	if (memcmp(&copy, &o->node, sizeof(copy)) || sl.level != level ||
	    sl.count != count)
		FAIL("misuse changed something");
	return 0;
}

static bool cpu_pred(const struct skiplist_node *n, void *cpu)
{
	return container_of(n, struct owner, node)->cpus & *(unsigned long *)cpu;
}

/* First entry passing a predicate, against the reference. */
static int do_scan(void)
{
	unsigned long cpu = 1UL << (rnd64() % 12);
	struct owner *o, *want = NULL;
	struct skiplist_node *pos;
	unsigned int i;

	for (i = 0; i < nref && !want; i++) {
		o = container_of(ref[i], struct owner, node);
		if (o->cpus & cpu)
			want = o;
	}
	skiplist_for_each(pos, &sl) {
		o = skiplist_entry(pos, struct owner, node);
		if (o->cpus & cpu)
			break;
	}
	if ((pos ? o : NULL) != want)
		FAIL("predicate scan");
	pos = skiplist_find_first(&sl, cpu_pred, &cpu);
	if (pos != (want ? &want->node : NULL))
		FAIL("skiplist_find_first (cpu bit %lu, %u queued)", cpu, nref);
	i = 0;
	skiplist_for_each(pos, &sl)
		if (pos != ref[i++])
			FAIL("for_each order");
	if (i != nref)
		FAIL("for_each count");
	return 0;
}

static int run(u64 seed, unsigned int size, unsigned long long nops)
{
	unsigned int i, check_every;
	unsigned long long op;

	rng = seed;
	npool = size;
	nref = 0;
	ops_done = 0;
	failure = NULL;
	pool = calloc(npool, sizeof(*pool));
	ref = calloc(npool, sizeof(*ref));
	if (!pool || !ref)
		return -1;
	for (i = 0; i < npool; i++) {
		pool[i] = malloc(sizeof(**pool));
		if (!pool[i])
			return -1;
		memset(pool[i], 0x5a, sizeof(**pool));
		pool[i]->id = i;
		/* bits 0-7 common, 8-11 rare: scans that go deep */
		pool[i]->cpus = rnd64() & 0xff;
		if (rnd64() % 64 == 0)
			pool[i]->cpus |= 1UL << (8 + rnd64() % 4);
		skiplist_node_init(&pool[i]->node);
	}
	skiplist_init(&sl);
	/* full check after every op for small pools, about O(1) amortised above */
	check_every = npool <= 64 ? 1 : npool / 16;

	for (op = 0; op < nops; op++, ops_done++) {
		struct owner *o = pool[rnd64() % npool];
		unsigned int r = rnd64() % 100;
		int err;

		/* bias towards a target fill that drifts, so sizes vary */
		unsigned int target = (op / 4096) % 2 ? npool * 3 / 4 : npool / 4;

		if (r < 2) {
			err = do_misuse(o);
		} else if (r < 4 || (r < 6 && npool >= 512)) {
			err = do_scan();
		} else if (r < 14 && nref) {
			/* pick: pop the first, as a scheduler does */
			o = container_of(skiplist_first(&sl), struct owner, node);
			err = do_delete(o);
			if (!err && rnd64() % 2)
				err = do_insert(o);	/* requeue */
		} else if (skiplist_node_queued(&o->node)) {
			if (nref < target && rnd64() % 4)
				continue;
			err = do_delete(o);
		} else {
			if (nref > target && rnd64() % 4)
				continue;
			err = do_insert(o);
		}
		if (!err && op % check_every == 0)
			err = full_check();
		if (err) {
			fprintf(stderr, "# seed %llu pool %u: op %llu: %s\n",
				(unsigned long long)seed, size, op, failure);
			return -1;
		}
	}
	/* drain in key order, then everything must be empty */
	while (nref) {
		struct owner *o = container_of(skiplist_first(&sl), struct owner, node);

		if (do_delete(o) || (nref % 64 == 0 && full_check())) {
			fprintf(stderr, "# seed %llu pool %u: drain: %s\n",
				(unsigned long long)seed, size, failure);
			return -1;
		}
	}
	if (full_check() || sl.level || !skiplist_empty(&sl)) {
		fprintf(stderr, "# seed %llu pool %u: not empty at the end\n",
			(unsigned long long)seed, size);
		return -1;
	}
	for (i = 0; i < npool; i++)
		free(pool[i]);
	free(pool);
	free(ref);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long long nops = 1000000;
	int i = 1, n = 0, failed = 0;

	if (i + 1 < argc && !strcmp(argv[i], "-o")) {
		nops = strtoull(argv[i + 1], NULL, 0);
		i += 2;
	}
	for (; i + 1 < argc; i += 2) {
		u64 seed = strtoull(argv[i], NULL, 0);
		unsigned int size = strtoul(argv[i + 1], NULL, 0);
		int err = run(seed, size, nops);

		n++;
		printf("%sok %d - fuzz seed %llu pool %u: %llu ops vs reference\n",
		       err ? "not " : "", n, (unsigned long long)seed, size, nops);
		if (err) {
			failed = 1;
			break;
		}
	}
	printf("# %lu misuse warnings (expected)\n", shim_warnings);
	return failed;
}
