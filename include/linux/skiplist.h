/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Intrusive skip list, sorted by a 64-bit key, smallest first.
 *
 * A skip list is a sorted doubly linked list (level 0) with up to
 * SKIPLIST_LEVELS - 1 sparser express lists stacked on top of it. A node
 * on level i is also on every level below i; a node reaches level i with
 * probability (1/4)^i, so level i holds about n / 4^i of the n nodes and a
 * search walks about two nodes a level before it steps down.
 *
 * The node is embedded in its owner (struct task_struct for the LEAP
 * scheduler): nothing is ever allocated, so insert and delete cannot fail
 * and may run under a raw spinlock with interrupts off.
 *
 * Costs, n = number of queued nodes, k = level of the node (k < 16,
 * on average 1/3):
 *
 *   skiplist_insert()   O(log n) expected: one descent from the top level
 *   skiplist_insert_head() the same, before equal keys instead of after
 *   skiplist_del()      O(k): unlinks through link[].prev, no search
 *   skiplist_first()    O(1): one load, head.link[0].next
 *   skiplist_next()     O(1): one load, node->link[0].next
 *   skiplist_node_queued() O(1)
 *
 * Equal keys are kept in FIFO order: a new node goes after every queued
 * node with the same key (skiplist_insert_head(): before them). Key
 * ~0ULL belongs to the head sentinel and closes every search, so no key
 * comparison ever checks for the end of a level; a node's key is at most
 * SKIPLIST_KEY_MAX (~0ULL - 1), and a larger key is clamped to it.
 *
 * Simple ASCII art, a list with five nodes, the head drawn twice:
 *
 *   level
 *     2   HEAD ------------------------> 17 --------------------> HEAD
 *     1   HEAD --------> 12 -----------> 17 ---------> 30 ------> HEAD
 *     0   HEAD -> 5 ---> 12 ---> 12 ---> 17 ---> 23 -> 30 ------> HEAD
 *                        (a)     (b)                        key ~0ULL
 *
 * Every arrow is doubly linked (link[i].next forward, link[i].prev back),
 * and each level is a ring through the head. The two nodes with key 12 are in
 * insertion order: (a) was queued before (b).
 *
 * The level of a new node is chosen from random bits the caller passes
 * in: two bits a level (p = 1/4), at most SKIPLIST_MAX_LEVEL and at most
 * one above the list's current top level. skiplist_rand_next() is a cheap
 * generator for a per-list or per-CPU state; no global state is touched.
 *
 * Layout: a link is the next node, a copy of the next node's key and the
 * previous node. A search compares against the copy and touches a node's
 * cache line only when it moves onto the node: a third fewer lines and
 * half the dependent loads of comparing through the pointer. key, level,
 * link[0] and link[1] fill the node's first 64 bytes, so when the node
 * starts a cache line, a node of level 0 or 1 (15 in 16) is one line for
 * search, insert and delete. tools/skiplist-bench measured the
 * alternatives (README there).
 *
 * Locking: none. The caller serialises every operation on a list and on
 * its nodes (LEAP holds its global runqueue lock).
 *
 * Misuse, inserting a node that is queued or deleting one that is not,
 * leaves the list untouched and returns false; with CONFIG_DEBUG_LIST it
 * also triggers a WARN_ON_ONCE.
 */
#ifndef _LINUX_SKIPLIST_H
#define _LINUX_SKIPLIST_H

#include <linux/bug.h>
#include <linux/compiler.h>
#include <linux/container_of.h>
#include <linux/array_size.h>
#include <linux/types.h>

/* Number of levels; a node's level is 0 .. SKIPLIST_MAX_LEVEL. */
#define SKIPLIST_LEVELS		16
#define SKIPLIST_MAX_LEVEL	(SKIPLIST_LEVELS - 1)

/* Largest key a node may carry: ~0ULL is the head sentinel's key. */
#define SKIPLIST_KEY_MAX	(~0ULL - 1)

struct skiplist_node;

/**
 * struct skiplist_link - a node's links on one level
 * @next:	the next node on this level (the head closes the ring)
 * @next_key:	a copy of @next's key, so that a search compares without
 *		touching @next's cache line until it moves to @next
 * @prev:	the previous node on this level
 */
struct skiplist_link {
	struct skiplist_node	*next;
	u64			next_key;
	struct skiplist_node	*prev;
};

/**
 * struct skiplist_node - a node, embedded in its owner
 * @key:	sort key, smallest first; valid while queued
 * @level:	highest level the node is linked on while queued
 * @link:	links on levels 0 .. @level; @link[0].next is NULL while
 *		the node is not queued
 *
 * @key, @level, @link[0] and @link[1] fill the first 64 bytes: a node of
 * level 0 or 1 (15 in 16) is one cache line for search, insert and
 * delete. Keep it that way (see the layout note at the top of this file).
 */
struct skiplist_node {
	u64			key;
	unsigned int		level;
	struct skiplist_link	link[SKIPLIST_LEVELS];
};

/**
 * struct skiplist - the list
 * @head:	sentinel, key ~0ULL; every level is a ring through it
 * @level:	highest level any queued node is on, 0 when empty
 * @count:	number of queued nodes
 */
struct skiplist {
	struct skiplist_node	head;
	unsigned int		level;
	unsigned int		count;
};

/**
 * skiplist_init - initialise an empty skip list
 * @sl:	the list
 */
static inline void skiplist_init(struct skiplist *sl)
{
	int i;

	sl->head.key = ~0ULL;
	sl->head.level = SKIPLIST_MAX_LEVEL;
	for (i = 0; i < SKIPLIST_LEVELS; i++) {
		sl->head.link[i].next = &sl->head;
		sl->head.link[i].next_key = ~0ULL;
		sl->head.link[i].prev = &sl->head;
	}
	sl->level = 0;
	sl->count = 0;
}

/**
 * skiplist_node_init - initialise a node as not queued
 * @node:	the node
 *
 * Must be called once before the first skiplist_insert() of @node, and
 * again on any copy of a node (a forked task's, say).
 */
static inline void skiplist_node_init(struct skiplist_node *node)
{
	node->key = 0;
	node->level = 0;
	node->link[0].next = NULL;
	node->link[0].prev = NULL;
}

/**
 * skiplist_node_queued - whether a node is on a list
 * @node:	the node
 *
 * Return: true if @node is queued.
 */
static inline bool skiplist_node_queued(const struct skiplist_node *node)
{
	return node->link[0].next;
}

/**
 * skiplist_empty - whether a list has no nodes
 * @sl:	the list
 *
 * Return: true if @sl is empty.
 */
static inline bool skiplist_empty(const struct skiplist *sl)
{
	return sl->head.link[0].next == &sl->head;
}

/**
 * skiplist_count - number of nodes on a list
 * @sl:	the list
 *
 * Return: the number of queued nodes.
 */
static inline unsigned int skiplist_count(const struct skiplist *sl)
{
	return sl->count;
}

/**
 * skiplist_first - the node with the smallest key
 * @sl:	the list
 *
 * Return: the first node (the earliest queued of the smallest key), or
 * NULL if the list is empty. One load.
 */
static inline struct skiplist_node *skiplist_first(const struct skiplist *sl)
{
	struct skiplist_node *node = sl->head.link[0].next;

	return node == &sl->head ? NULL : node;
}

/**
 * skiplist_next - the node after a queued node, in key order
 * @sl:		the list @node is on
 * @node:	a queued node
 *
 * Return: the next node on level 0, or NULL if @node is the last one.
 */
static inline struct skiplist_node *skiplist_next(const struct skiplist *sl,
						  const struct skiplist_node *node)
{
	struct skiplist_node *next = node->link[0].next;

	return next == &sl->head ? NULL : next;
}

/**
 * skiplist_entry - the struct a node is embedded in
 * @ptr:	the &struct skiplist_node pointer
 * @type:	the type of the struct it is embedded in
 * @member:	the name of the skiplist_node within the struct
 */
#define skiplist_entry(ptr, type, member) container_of(ptr, type, member)

/**
 * skiplist_first_entry - the owner of the first node, or NULL if empty
 * @sl:		the list
 * @type:	the type of the struct the nodes are embedded in
 * @member:	the name of the skiplist_node within the struct
 */
#define skiplist_first_entry(sl, type, member)				\
({									\
	struct skiplist_node *__sl_first = skiplist_first(sl);		\
									\
	__sl_first ? skiplist_entry(__sl_first, type, member) : NULL;	\
})

/**
 * struct skiplist_iter - the cursor of skiplist_for_each()
 * @sl:		the list
 * @next:	the node the next step returns; the head when done
 */
struct skiplist_iter {
	const struct skiplist	*sl;
	struct skiplist_node	*next;
};

/**
 * skiplist_iter_start - a cursor before the first node of a list
 * @sl:	the list
 *
 * Return: the cursor, for skiplist_iter_step().
 */
static inline struct skiplist_iter skiplist_iter_start(const struct skiplist *sl)
{
	return (struct skiplist_iter){ .sl = sl, .next = sl->head.link[0].next };
}

/**
 * skiplist_iter_step - the next node in key order, and step past it
 * @it:	the cursor
 *
 * The cursor moves past the node before returning it, so the caller may
 * delete the returned node (but no other) before the next step.
 *
 * Return: the next node, or NULL when there is none.
 */
static inline struct skiplist_node *skiplist_iter_step(struct skiplist_iter *it)
{
	struct skiplist_node *node = it->next;

	if (node == &it->sl->head)
		return NULL;
	it->next = node->link[0].next;
	return node;
}

/**
 * skiplist_for_each - iterate over the nodes in key order
 * @pos:	the &struct skiplist_node * to use as a cursor; NULL after
 *		the loop has run to its end
 * @sl:		the list
 *
 * The body may delete @pos (and no other node). Use skiplist_entry() for
 * the owner of @pos.
 */
#define skiplist_for_each(pos, sl)					\
	for (struct skiplist_iter __sl_iter = skiplist_iter_start(sl);	\
	     ((pos) = skiplist_iter_step(&__sl_iter));)

/*
 * skiplist_find_first(): nodes first tried one by one, or all of them in a
 * list of up to SKIPLIST_FIND_SERIAL nodes; and the lane level.
 */
#define SKIPLIST_FIND_PREFIX	8
#define SKIPLIST_FIND_SERIAL	64
#define SKIPLIST_FIND_LANE	2

/* The segments of level 0 that skiplist_find_first() hands out, in order. */
struct __skiplist_find {
	struct skiplist_node	*head;
	struct skiplist_node	*next_start;	/* the next segment: from here */
	struct skiplist_node	*next_stop;	/* up to, not including, here */
	struct skiplist_node	*found;
	unsigned int		next_seq;
	unsigned int		found_seq;	/* segment of @found, or ~0U */
};

/* A walker of skiplist_find_first(): its segment runs from @cur to @stop. */
struct __skiplist_walker {
	struct skiplist_node	*cur;
	struct skiplist_node	*stop;	/* not included; idle if cur == stop */
	unsigned int		seq;	/* the segment's place in key order */
};

/*
 * One step of a walker: test its node, or take the next segment if its
 * own is done. False if it has nothing left to do.
 */
static __always_inline bool
__skiplist_find_step(struct __skiplist_find *f, struct __skiplist_walker *w,
		     bool (*pred)(const struct skiplist_node *node, void *arg),
		     void *arg)
{
	if (w->cur == w->stop) {
		if (f->next_start == f->head || f->next_seq >= f->found_seq)
			return false;
		w->cur = f->next_start;
		w->stop = f->next_stop;
		w->seq = f->next_seq++;
		f->next_start = f->next_stop;
		if (f->next_stop != f->head)
			f->next_stop = f->next_stop->link[SKIPLIST_FIND_LANE].next;
		return true;
	}
	if (unlikely(pred(w->cur, arg))) {
		if (w->seq < f->found_seq) {
			f->found_seq = w->seq;
			f->found = w->cur;
		}
		w->stop = w->cur;
		return true;
	}
	w->cur = w->cur->link[0].next;
	return true;
}

/**
 * skiplist_find_first - the first node, in key order, that passes a test
 * @sl:		the list
 * @pred:	the test; called at most once per node, in no particular
 *		order, and must not change the list
 * @arg:	passed to @pred
 *
 * The first SKIPLIST_FIND_PREFIX nodes are tried in order, as a walk over
 * level 0 would (all of them in a list of up to SKIPLIST_FIND_SERIAL
 * nodes, where the walkers below would not pay for themselves). Past
 * them, level 0 is cut into segments at the nodes of level
 * SKIPLIST_FIND_LANE or more (about 16 nodes apart) and eight walkers
 * take segments in order and step in lockstep, so that eight
 * cache misses are in flight instead of one: a scan past many failing
 * nodes becomes bandwidth-bound instead of latency-bound. A match ends
 * the scan once every segment before its own is done.
 *
 * Inline, so that a @pred known at compile time is inlined too (no
 * indirect call).
 *
 * Return: the first node for which @pred returned true, or NULL.
 */
static __always_inline struct skiplist_node *
skiplist_find_first(const struct skiplist *sl,
		    bool (*pred)(const struct skiplist_node *node, void *arg),
		    void *arg)
{
	struct skiplist_node *head = (struct skiplist_node *)&sl->head;
	struct skiplist_node *pos = head->link[0].next, *lane = head;
	struct __skiplist_walker w[8];
	unsigned int i, serial = SKIPLIST_FIND_PREFIX;
	struct __skiplist_find f;
	bool busy;

	if (sl->count <= SKIPLIST_FIND_SERIAL)
		serial = SKIPLIST_FIND_SERIAL;
	for (i = 0; i < serial; i++) {
		if (pos == head)
			return NULL;
		if (pred(pos, arg))
			return pos;
		if (pos->level >= SKIPLIST_FIND_LANE)
			lane = pos;
		pos = pos->link[0].next;
	}
	if (pos == head)
		return NULL;

	/*
	 * pos: the first node not tried yet; lane: the last node of level
	 * SKIPLIST_FIND_LANE or more before pos, or the head. The first
	 * segment runs from pos to the next such node; each later one from
	 * there to the next. Walkers start idle (cur == stop).
	 */
	f.head = head;
	f.next_start = pos;
	f.next_stop = lane->link[SKIPLIST_FIND_LANE].next;
	f.found = NULL;
	f.next_seq = 0;
	f.found_seq = ~0U;
	for (i = 0; i < ARRAY_SIZE(w); i++) {
		w[i].cur = head;
		w[i].stop = head;
		w[i].seq = 0;
	}

	/* Unrolled by hand, so that the walkers live in registers. */
	do {
		busy = __skiplist_find_step(&f, &w[0], pred, arg);
		busy |= __skiplist_find_step(&f, &w[1], pred, arg);
		busy |= __skiplist_find_step(&f, &w[2], pred, arg);
		busy |= __skiplist_find_step(&f, &w[3], pred, arg);
		busy |= __skiplist_find_step(&f, &w[4], pred, arg);
		busy |= __skiplist_find_step(&f, &w[5], pred, arg);
		busy |= __skiplist_find_step(&f, &w[6], pred, arg);
		busy |= __skiplist_find_step(&f, &w[7], pred, arg);
		if (unlikely(f.found_seq == 0))
			break;
	} while (busy);
	return f.found;
}

/**
 * skiplist_rand_next - advance a cheap pseudo-random state
 * @state:	the caller's state (per list or per CPU), any value but 0
 *
 * xorshift64* (Vigna): good enough for level choice, a few cycles, and
 * lock-free because the caller owns @state.
 *
 * Return: 32 pseudo-random bits for skiplist_insert().
 */
static inline u32 skiplist_rand_next(u64 *state)
{
	u64 x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return (x * 0x2545f4914f6cdd1dULL) >> 32;
}

unsigned int skiplist_random_level(const struct skiplist *sl, u32 rand);
bool skiplist_insert(struct skiplist *sl, struct skiplist_node *node,
		     u64 key, u32 rand);
bool skiplist_insert_head(struct skiplist *sl, struct skiplist_node *node,
			  u64 key, u32 rand);
bool skiplist_del(struct skiplist *sl, struct skiplist_node *node);

#endif /* _LINUX_SKIPLIST_H */
