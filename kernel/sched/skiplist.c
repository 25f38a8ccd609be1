// SPDX-License-Identifier: GPL-2.0-only
/*
 * Intrusive skip list: the out-of-line operations.
 *
 * See include/linux/skiplist.h for what the list is, its costs and its
 * locking rule (the caller serialises).
 */
#include <linux/bitops.h>
#include <linux/build_bug.h>
#include <linux/skiplist.h>
#include <linux/stddef.h>

/*
 * The layout the header promises on 64-bit: key, level, link[0] and
 * link[1] in the first 64 bytes of a node.
 */
static_assert(!IS_ENABLED(CONFIG_64BIT) ||
	      offsetof(struct skiplist_node, link[2]) == 64);

static inline bool skiplist_misuse(bool cond)
{
	if (IS_ENABLED(CONFIG_DEBUG_LIST))
		return WARN_ON_ONCE(cond);
	return unlikely(cond);
}

/**
 * skiplist_random_level - level for a new node
 * @sl:		the list the node goes on
 * @rand:	random bits, e.g. from skiplist_rand_next()
 *
 * Each pair of low zero bits in @rand climbs one level, so level i is
 * chosen with probability (3/4) * (1/4)^i. The result is capped at
 * SKIPLIST_MAX_LEVEL (bit 30 is forced on) and at one above the list's
 * current top level.
 *
 * Return: a level in 0 .. min(@sl->level + 1, SKIPLIST_MAX_LEVEL).
 */
unsigned int skiplist_random_level(const struct skiplist *sl, u32 rand)
{
	unsigned int level = __ffs(rand | (1U << (2 * SKIPLIST_MAX_LEVEL))) / 2;

	if (level > sl->level + 1)
		level = sl->level + 1;
	return level;
}

/*
 * Link @node in before the first queued node whose key is at least
 * @bound: @bound = key + 1 queues it after equal keys, @bound = key
 * before them. key is at most SKIPLIST_KEY_MAX, so key + 1 cannot wrap,
 * and the head's ~0ULL still ends every walk.
 */
static __always_inline bool __skiplist_insert(struct skiplist *sl,
					      struct skiplist_node *node,
					      u64 key, u32 rand, bool head)
{
	struct skiplist_node *cur = &sl->head;
	struct skiplist_link *link;
	unsigned long i, level;
	u64 bound;

	if (skiplist_misuse(skiplist_node_queued(node)))
		return false;
	if (unlikely(key > SKIPLIST_KEY_MAX))
		key = SKIPLIST_KEY_MAX;
	bound = head ? key : key + 1;

	level = skiplist_random_level(sl, rand);
	node->key = key;
	node->level = level;
	if (level > sl->level)
		sl->level = level;

	/*
	 * Descend from the top. Each link carries a copy of its target's
	 * key, so a step that does not move on never touches the next node.
	 * Above the new node's level only search; from there down, link it
	 * in on the way.
	 */
	for (i = sl->level; i > level; i--) {
		link = &cur->link[i];
		while (link->next_key < bound) {
			cur = link->next;
			link = &cur->link[i];
		}
	}
	for (;;) {
		link = &cur->link[i];
		while (link->next_key < bound) {
			cur = link->next;
			link = &cur->link[i];
		}
		node->link[i].next = link->next;
		node->link[i].next_key = link->next_key;
		node->link[i].prev = cur;
		link->next->link[i].prev = node;
		link->next = node;
		link->next_key = key;
		if (!i--)
			break;
	}
	sl->count++;
	return true;
}

/**
 * skiplist_insert - queue a node in key order
 * @sl:		the list
 * @node:	a node that is not queued
 * @key:	its key, at most SKIPLIST_KEY_MAX (larger keys are clamped)
 * @rand:	random bits for the node's level, e.g. skiplist_rand_next()
 *
 * The node goes after every queued node with the same key. O(log n)
 * expected; no allocation.
 *
 * Return: true, or false (and nothing changed) if @node was queued.
 */
bool skiplist_insert(struct skiplist *sl, struct skiplist_node *node,
		     u64 key, u32 rand)
{
	return __skiplist_insert(sl, node, key, rand, false);
}

/**
 * skiplist_insert_head - queue a node before the nodes with its key
 * @sl:		the list
 * @node:	a node that is not queued
 * @key:	its key, at most SKIPLIST_KEY_MAX (larger keys are clamped)
 * @rand:	random bits for the node's level, e.g. skiplist_rand_next()
 *
 * As skiplist_insert(), but the node goes before every queued node with
 * the same key (LIFO among equals): a realtime task preempted by a higher
 * priority one goes back to the head of its priority. O(log n) expected;
 * no allocation.
 *
 * Return: true, or false (and nothing changed) if @node was queued.
 */
bool skiplist_insert_head(struct skiplist *sl, struct skiplist_node *node,
			  u64 key, u32 rand)
{
	return __skiplist_insert(sl, node, key, rand, true);
}

/**
 * skiplist_del - unqueue a node
 * @sl:		the list @node is on
 * @node:	a queued node
 *
 * O(level of @node), no search. Lowers the list's top level if @node
 * was the last node on it. @node is left not queued.
 *
 * Return: true, or false (and nothing changed) if @node was not queued.
 */
bool skiplist_del(struct skiplist *sl, struct skiplist_node *node)
{
	unsigned int i;

	if (skiplist_misuse(!skiplist_node_queued(node)))
		return false;

	for (i = 0; i <= node->level; i++) {
		struct skiplist_node *prev = node->link[i].prev;
		struct skiplist_node *next = node->link[i].next;

		prev->link[i].next = next;
		prev->link[i].next_key = node->link[i].next_key;
		next->link[i].prev = prev;
	}
	node->link[0].next = NULL;
	node->link[0].prev = NULL;

	if (node->level == sl->level) {
		while (sl->level && sl->head.link[sl->level].next == &sl->head)
			sl->level--;
	}
	sl->count--;
	return true;
}
