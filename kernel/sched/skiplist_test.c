// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for the intrusive skip list (include/linux/skiplist.h).
 *
 * Every test checks the whole structure after it changes it: each level
 * sorted, prev mirroring next, each link's copy of the next key
 * right, every node on exactly its levels, the
 * count and the top level right.
 */
#include <kunit/test.h>
#include <linux/skiplist.h>
#include <linux/minmax.h>
#include <linux/slab.h>
#include <linux/string.h>

#define SEED	0x5eed1eafULL

struct item {
	unsigned long		id;
	struct skiplist_node	node;
};

/* Check every invariant of @sl; return the number of queued nodes. */
static unsigned int check_list(struct kunit *test, struct skiplist *sl)
{
	unsigned int hist[SKIPLIST_LEVELS] = { };
	unsigned int n0 = 0, above, i, l;
	struct skiplist_node *pos;

	KUNIT_ASSERT_EQ(test, sl->head.key, ~0ULL);
	KUNIT_ASSERT_LE(test, sl->level, (unsigned int)SKIPLIST_MAX_LEVEL);

	for (i = 0; i < SKIPLIST_LEVELS; i++) {
		struct skiplist_node *prev = &sl->head;
		unsigned int n = 0;

		for (pos = sl->head.link[i].next; pos != &sl->head;
		     pos = pos->link[i].next) {
			KUNIT_ASSERT_PTR_EQ(test, pos->link[i].prev, prev);
			KUNIT_ASSERT_EQ(test, prev->link[i].next_key, pos->key);
			KUNIT_ASSERT_GE(test, pos->level, i);
			KUNIT_ASSERT_LE(test, pos->key, SKIPLIST_KEY_MAX);
			if (prev != &sl->head)
				KUNIT_ASSERT_LE(test, prev->key, pos->key);
			if (!i) {
				KUNIT_ASSERT_TRUE(test, skiplist_node_queued(pos));
				KUNIT_ASSERT_LE(test, pos->level, sl->level);
				hist[pos->level]++;
			}
			prev = pos;
			KUNIT_ASSERT_LE(test, ++n, sl->count);
		}
		KUNIT_ASSERT_PTR_EQ(test, sl->head.link[i].prev, prev);
		KUNIT_ASSERT_EQ(test, prev->link[i].next_key, ~0ULL);
		if (!i) {
			n0 = n;
			KUNIT_ASSERT_EQ(test, n, sl->count);
			continue;
		}
		/* Level i holds exactly the nodes whose level is >= i. */
		for (above = 0, l = i; l < SKIPLIST_LEVELS; l++)
			above += hist[l];
		KUNIT_ASSERT_EQ(test, n, above);
	}
	/* The top level is the highest level in use. */
	if (sl->level)
		KUNIT_ASSERT_PTR_NE(test, sl->head.link[sl->level].next,
				    &sl->head);
	KUNIT_ASSERT_EQ(test, skiplist_empty(sl), n0 == 0);
	KUNIT_ASSERT_EQ(test, skiplist_count(sl), n0);
	return n0;
}

static struct item *alloc_items(struct kunit *test, unsigned int n)
{
	struct item *items = kunit_kcalloc(test, n, sizeof(*items), GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, items);
	for (i = 0; i < n; i++) {
		items[i].id = i;
		skiplist_node_init(&items[i].node);
	}
	return items;
}

/* Insert @n items with keys[i], checking the list after each one. */
static void insert_keys(struct kunit *test, struct skiplist *sl,
			struct item *items, const u64 *keys, unsigned int n,
			u64 *rnd)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		KUNIT_ASSERT_TRUE(test, skiplist_insert(sl, &items[i].node,
							keys[i],
							skiplist_rand_next(rnd)));
		KUNIT_ASSERT_TRUE(test, skiplist_node_queued(&items[i].node));
		check_list(test, sl);
	}
}

/* Assert that level 0 holds exactly the items with the ids in @ids. */
static void expect_ids(struct kunit *test, struct skiplist *sl,
		       const unsigned long *ids, unsigned int n)
{
	struct skiplist_node *pos;
	unsigned int i = 0;

	skiplist_for_each(pos, sl) {
		KUNIT_ASSERT_LT(test, i, n);
		KUNIT_EXPECT_EQ(test, skiplist_entry(pos, struct item, node)->id,
				ids[i]);
		i++;
	}
	KUNIT_EXPECT_EQ(test, i, n);
	KUNIT_EXPECT_EQ(test, check_list(test, sl), n);
}

static void skiplist_test_empty(struct kunit *test)
{
	struct skiplist sl;
	struct skiplist_node *pos;
	unsigned int n = 0;

	skiplist_init(&sl);
	KUNIT_EXPECT_TRUE(test, skiplist_empty(&sl));
	KUNIT_EXPECT_EQ(test, skiplist_count(&sl), 0U);
	KUNIT_EXPECT_EQ(test, sl.level, 0U);
	KUNIT_EXPECT_NULL(test, skiplist_first(&sl));
	KUNIT_EXPECT_NULL(test, skiplist_first_entry(&sl, struct item, node));
	skiplist_for_each(pos, &sl)
		n++;
	KUNIT_EXPECT_EQ(test, n, 0U);
	KUNIT_EXPECT_NULL(test, pos);
	check_list(test, &sl);
}

static void skiplist_test_ordering(struct kunit *test)
{
	static const u64 keys[] = { 50, 10, 40, 20, 30, 60, 5, 1000, 1, 45 };
	static const unsigned long ids[] = { 8, 6, 1, 3, 4, 2, 9, 0, 5, 7 };
	unsigned int n = ARRAY_SIZE(keys);
	struct item *items = alloc_items(test, n);
	struct skiplist_node *pos;
	struct skiplist sl;
	u64 rnd = SEED;

	skiplist_init(&sl);
	insert_keys(test, &sl, items, keys, n, &rnd);
	expect_ids(test, &sl, ids, n);
	KUNIT_EXPECT_PTR_EQ(test, skiplist_first(&sl), &items[8].node);
	KUNIT_EXPECT_PTR_EQ(test, skiplist_first_entry(&sl, struct item, node),
			    &items[8]);

	/* skiplist_next() walks the same order and ends with NULL. */
	pos = skiplist_first(&sl);
	for (n = 1; (pos = skiplist_next(&sl, pos)); n++)
		KUNIT_EXPECT_PTR_EQ(test, pos, &items[ids[n]].node);
	KUNIT_EXPECT_EQ(test, n, (unsigned int)ARRAY_SIZE(keys));
}

static void skiplist_test_fifo_ties(struct kunit *test)
{
	static const u64 keys[] = { 7, 3, 7, 3, 7, 1, 7, 3, 9, 7 };
	static const unsigned long ids[] = { 5, 1, 3, 7, 0, 2, 4, 6, 9, 8 };
	unsigned int n = ARRAY_SIZE(keys);
	struct item *items = alloc_items(test, 64);
	unsigned long *all = kunit_kcalloc(test, 64, sizeof(*all), GFP_KERNEL);
	struct skiplist sl;
	u64 rnd = SEED;
	unsigned int i;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, all);
	skiplist_init(&sl);
	insert_keys(test, &sl, items, keys, n, &rnd);
	expect_ids(test, &sl, ids, n);

	/* 64 equal keys, whatever their levels: insertion order. */
	skiplist_init(&sl);
	for (i = 0; i < 64; i++) {
		skiplist_node_init(&items[i].node);
		KUNIT_ASSERT_TRUE(test, skiplist_insert(&sl, &items[i].node, 42,
							skiplist_rand_next(&rnd)));
		all[i] = i;
	}
	expect_ids(test, &sl, all, 64);

	/* A deleted and re-inserted node goes to the back of its key. */
	KUNIT_ASSERT_TRUE(test, skiplist_del(&sl, &items[0].node));
	KUNIT_ASSERT_TRUE(test, skiplist_insert(&sl, &items[0].node, 42,
						skiplist_rand_next(&rnd)));
	for (i = 0; i < 63; i++)
		all[i] = i + 1;
	all[63] = 0;
	expect_ids(test, &sl, all, 64);
}

/* skiplist_insert_head(): before equal keys, after smaller ones. */
static void skiplist_test_insert_head(struct kunit *test)
{
	static const u64 keys[] = { 5, 7, 7, 7, 9 };
	struct item *items = alloc_items(test, ARRAY_SIZE(keys) + 2);
	struct skiplist sl;
	u64 rnd = SEED;

	skiplist_init(&sl);
	insert_keys(test, &sl, items, keys, ARRAY_SIZE(keys), &rnd);
	skiplist_node_init(&items[5].node);
	KUNIT_ASSERT_TRUE(test, skiplist_insert_head(&sl, &items[5].node, 7,
						     skiplist_rand_next(&rnd)));
	expect_ids(test, &sl, (unsigned long[]){ 0, 5, 1, 2, 3, 4 }, 6);

	/* A key no node has: the same place as skiplist_insert() gives. */
	skiplist_node_init(&items[6].node);
	KUNIT_ASSERT_TRUE(test, skiplist_insert_head(&sl, &items[6].node, 8, 0));
	expect_ids(test, &sl, (unsigned long[]){ 0, 5, 1, 2, 3, 6, 4 }, 7);
	check_list(test, &sl);
}

static void skiplist_test_delete(struct kunit *test)
{
	static const u64 keys[] = { 10, 20, 30, 40, 50 };
	struct item *items = alloc_items(test, ARRAY_SIZE(keys));
	struct skiplist_node *pos;
	struct skiplist sl;
	u64 rnd = SEED;
	unsigned int i;

	skiplist_init(&sl);
	insert_keys(test, &sl, items, keys, ARRAY_SIZE(keys), &rnd);

	/* first */
	KUNIT_ASSERT_TRUE(test, skiplist_del(&sl, &items[0].node));
	KUNIT_EXPECT_FALSE(test, skiplist_node_queued(&items[0].node));
	expect_ids(test, &sl, (unsigned long[]){ 1, 2, 3, 4 }, 4);
	KUNIT_EXPECT_PTR_EQ(test, skiplist_first(&sl), &items[1].node);

	/* last */
	KUNIT_ASSERT_TRUE(test, skiplist_del(&sl, &items[4].node));
	expect_ids(test, &sl, (unsigned long[]){ 1, 2, 3 }, 3);
	KUNIT_EXPECT_NULL(test, skiplist_next(&sl, &items[3].node));

	/* middle */
	KUNIT_ASSERT_TRUE(test, skiplist_del(&sl, &items[2].node));
	expect_ids(test, &sl, (unsigned long[]){ 1, 3 }, 2);
	KUNIT_EXPECT_PTR_EQ(test, skiplist_next(&sl, &items[1].node),
			    &items[3].node);

	KUNIT_ASSERT_TRUE(test, skiplist_del(&sl, &items[1].node));
	expect_ids(test, &sl, (unsigned long[]){ 3 }, 1);

	/* only */
	KUNIT_ASSERT_TRUE(test, skiplist_del(&sl, &items[3].node));
	KUNIT_EXPECT_TRUE(test, skiplist_empty(&sl));
	KUNIT_EXPECT_NULL(test, skiplist_first(&sl));
	KUNIT_EXPECT_EQ(test, sl.level, 0U);
	check_list(test, &sl);

	/* all of them, from inside skiplist_for_each() */
	for (i = 0; i < ARRAY_SIZE(keys); i++)
		KUNIT_ASSERT_TRUE(test, skiplist_insert(&sl, &items[i].node,
							keys[i],
							skiplist_rand_next(&rnd)));
	i = 0;
	skiplist_for_each(pos, &sl) {
		KUNIT_EXPECT_PTR_EQ(test, pos, &items[i++].node);
		KUNIT_ASSERT_TRUE(test, skiplist_del(&sl, pos));
		check_list(test, &sl);
	}
	KUNIT_EXPECT_EQ(test, i, (unsigned int)ARRAY_SIZE(keys));
	KUNIT_EXPECT_TRUE(test, skiplist_empty(&sl));
}

static void skiplist_test_reinsert(struct kunit *test)
{
	struct item *items = alloc_items(test, 3);
	struct skiplist sl;
	u64 rnd = SEED;
	int round;

	skiplist_init(&sl);
	insert_keys(test, &sl, items, (u64[]){ 5, 6, 7 }, 3, &rnd);
	for (round = 0; round < 100; round++) {
		KUNIT_ASSERT_TRUE(test, skiplist_del(&sl, &items[1].node));
		check_list(test, &sl);
		/* alternately before, between and after the others */
		KUNIT_ASSERT_TRUE(test, skiplist_insert(&sl, &items[1].node,
							4 + (round % 3) * 2,
							skiplist_rand_next(&rnd)));
		check_list(test, &sl);
	}
	/* the last round (99) put key 4 before 5 and 7 */
	expect_ids(test, &sl, (unsigned long[]){ 1, 0, 2 }, 3);
}

static void skiplist_test_extreme_keys(struct kunit *test)
{
	struct item *items = alloc_items(test, 5);
	struct skiplist sl;
	u64 rnd = SEED;

	skiplist_init(&sl);
	insert_keys(test, &sl, items,
		    (u64[]){ SKIPLIST_KEY_MAX, 0, SKIPLIST_KEY_MAX, 0, 1 },
		    4, &rnd);
	expect_ids(test, &sl, (unsigned long[]){ 1, 3, 0, 2 }, 4);
	KUNIT_EXPECT_EQ(test, items[0].node.key, SKIPLIST_KEY_MAX);
	KUNIT_EXPECT_EQ(test, items[1].node.key, 0ULL);

	/* ~0ULL is the sentinel's: it is clamped, and queues last (FIFO). */
	KUNIT_ASSERT_TRUE(test, skiplist_insert(&sl, &items[4].node, ~0ULL,
						skiplist_rand_next(&rnd)));
	KUNIT_EXPECT_EQ(test, items[4].node.key, SKIPLIST_KEY_MAX);
	expect_ids(test, &sl, (unsigned long[]){ 1, 3, 0, 2, 4 }, 5);
}

static void skiplist_test_top_level_shrinks(struct kunit *test)
{
	const unsigned int n = 512;
	struct item *items = alloc_items(test, n);
	unsigned int i, top;
	struct skiplist sl;
	u64 rnd = SEED;

	skiplist_init(&sl);
	for (i = 0; i < n; i++)
		KUNIT_ASSERT_TRUE(test, skiplist_insert(&sl, &items[i].node, i,
							skiplist_rand_next(&rnd)));
	check_list(test, &sl);
	top = sl.level;
	KUNIT_EXPECT_GE(test, top, 2U);

	/* A node on level top + 1 or higher is impossible: the cap. */
	for (i = 0; i < 4096; i++)
		KUNIT_EXPECT_LE(test, skiplist_random_level(&sl, i << 1),
				top + 1);
	KUNIT_EXPECT_EQ(test, skiplist_random_level(&sl, 0), top + 1);

	/* Delete the tallest nodes first: the top level must follow. */
	while (sl.level) {
		unsigned int cur = sl.level;

		for (i = 0; i < n; i++) {
			if (skiplist_node_queued(&items[i].node) &&
			    items[i].node.level == cur)
				KUNIT_ASSERT_TRUE(test,
						  skiplist_del(&sl, &items[i].node));
		}
		check_list(test, &sl);
		KUNIT_ASSERT_LT(test, sl.level, cur);
	}
	KUNIT_EXPECT_GT(test, skiplist_count(&sl), 0U);

	for (i = 0; i < n; i++)
		if (skiplist_node_queued(&items[i].node))
			KUNIT_ASSERT_TRUE(test, skiplist_del(&sl, &items[i].node));
	KUNIT_EXPECT_TRUE(test, skiplist_empty(&sl));
	KUNIT_EXPECT_EQ(test, sl.level, 0U);
	check_list(test, &sl);
}

/*
 * Level distribution: P(level >= i) must be 4^-i. 2^20 draws from the
 * level function with no cap in the way, then a real list of 2048 nodes.
 * Tolerance: 5 standard deviations of the binomial count (the seed is
 * fixed, so the test is deterministic; the bound says how far from
 * p = 1/4 it would still pass).
 */
static bool within_5_sigma(u64 count, u64 trials, unsigned int level)
{
	/* expected = trials / 4^level, variance ~ expected */
	u64 expect = trials >> (2 * level);
	u64 diff = count > expect ? count - expect : expect - count;

	return diff * diff <= 25 * expect + 1;
}

static void skiplist_test_level_distribution(struct kunit *test)
{
	const unsigned int draws = 1U << 20, n = 2048;
	u64 hist[SKIPLIST_LEVELS] = { }, ge;
	struct skiplist sl;
	struct item *items;
	u64 rnd = SEED;
	unsigned int i;
	int l;

	skiplist_init(&sl);
	sl.level = SKIPLIST_MAX_LEVEL;	/* no cap from the top level */
	for (i = 0; i < draws; i++)
		hist[skiplist_random_level(&sl, skiplist_rand_next(&rnd))]++;
	for (ge = 0, l = SKIPLIST_MAX_LEVEL; l >= 0; l--) {
		ge += hist[l];
		if (l <= 8)
			KUNIT_EXPECT_TRUE_MSG(test, within_5_sigma(ge, draws, l),
					      "level >= %d: %llu of %u", l, ge,
					      draws);
	}

	items = kunit_kmalloc_array(test, n, sizeof(*items), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, items);
	skiplist_init(&sl);
	memset(hist, 0, sizeof(hist));
	for (i = 0; i < n; i++) {
		skiplist_node_init(&items[i].node);
		KUNIT_ASSERT_TRUE(test, skiplist_insert(&sl, &items[i].node,
							(u32)rnd % 100000,
							skiplist_rand_next(&rnd)));
		hist[items[i].node.level]++;
	}
	check_list(test, &sl);
	for (ge = 0, l = SKIPLIST_MAX_LEVEL; l >= 0; l--) {
		ge += hist[l];
		if (l <= 4)
			KUNIT_EXPECT_TRUE_MSG(test, within_5_sigma(ge, n, l),
					      "list level >= %d: %llu of %u", l,
					      ge, n);
	}
	/* log4(2048) = 5.5: the top level is 5 or 6 give or take. */
	KUNIT_EXPECT_GE(test, sl.level, 4U);
	KUNIT_EXPECT_LE(test, sl.level, 9U);
}

struct find_arg {
	const bool *match;	/* by item id */
	struct item *items;
	unsigned int calls;
};

static bool find_pred(const struct skiplist_node *node, void *arg)
{
	struct find_arg *fa = arg;

	fa->calls++;
	return fa->match[skiplist_entry(node, struct item, node)->id];
}

/*
 * skiplist_find_first() must return the first match in key order wherever
 * the matches are: in the sequential prefix, in any of the segments it
 * walks in parallel, several of them, or none.
 */
static void skiplist_test_find_first(struct kunit *test)
{
	const unsigned int n = 600;
	struct item *items = alloc_items(test, n);
	bool *match = kunit_kcalloc(test, n, sizeof(*match), GFP_KERNEL);
	struct find_arg fa = { .match = match, .items = items };
	unsigned int i, a, b;
	struct skiplist *sl = kunit_kzalloc(test, sizeof(*sl), GFP_KERNEL);
	u64 rnd = SEED;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, match);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, sl);
	skiplist_init(sl);
	KUNIT_EXPECT_NULL(test, skiplist_find_first(sl, find_pred, &fa));
	/* keys = id / 2: pairs of equal keys, id order = key order */
	for (i = 0; i < n; i++)
		KUNIT_ASSERT_TRUE(test, skiplist_insert(sl, &items[i].node, i / 2,
							skiplist_rand_next(&rnd)));
	check_list(test, sl);

	fa.calls = 0;
	KUNIT_EXPECT_NULL(test, skiplist_find_first(sl, find_pred, &fa));
	KUNIT_EXPECT_EQ(test, fa.calls, n);	/* each node tested once */

	for (a = 0; a < n; a += 7) {
		/* one match at a */
		match[a] = true;
		KUNIT_EXPECT_PTR_EQ(test, skiplist_find_first(sl, find_pred, &fa),
				    &items[a].node);
		/* and a second one, after a or before it */
		for (b = 0; b < n; b += 37) {
			if (b == a)
				continue;
			match[b] = true;
			KUNIT_EXPECT_PTR_EQ(test,
					    skiplist_find_first(sl, find_pred, &fa),
					    &items[min(a, b)].node);
			match[b] = false;
		}
		match[a] = false;
	}

	/* every node from a on matches */
	for (a = 0; a < n; a += 13) {
		for (i = a; i < n; i++)
			match[i] = true;
		KUNIT_EXPECT_PTR_EQ(test, skiplist_find_first(sl, find_pred, &fa),
				    &items[a].node);
		memset(match, 0, n * sizeof(*match));
	}

	/* a short list is walked in order */
	for (i = 50; i < n; i++)
		KUNIT_ASSERT_TRUE(test, skiplist_del(sl, &items[i].node));
	for (a = 0; a < 50; a += 7) {
		match[a] = true;
		match[49] = true;
		KUNIT_EXPECT_PTR_EQ(test, skiplist_find_first(sl, find_pred, &fa),
				    &items[a].node);
		memset(match, 0, n * sizeof(*match));
	}
	fa.calls = 0;
	KUNIT_EXPECT_NULL(test, skiplist_find_first(sl, find_pred, &fa));
	KUNIT_EXPECT_EQ(test, fa.calls, 50U);
}

static void skiplist_test_misuse(struct kunit *test)
{
	struct item *items = alloc_items(test, 3);
	struct skiplist sl;
	u64 rnd = SEED;

	if (IS_ENABLED(CONFIG_DEBUG_LIST))
		kunit_skip(test, "would WARN with CONFIG_DEBUG_LIST");

	skiplist_init(&sl);
	insert_keys(test, &sl, items, (u64[]){ 1, 2 }, 2, &rnd);

	/* Inserting a queued node is refused and changes nothing. */
	KUNIT_EXPECT_FALSE(test, skiplist_insert(&sl, &items[0].node, 3,
						 skiplist_rand_next(&rnd)));
	KUNIT_EXPECT_EQ(test, items[0].node.key, 1ULL);
	expect_ids(test, &sl, (unsigned long[]){ 0, 1 }, 2);

	/* Deleting a node that is not queued, twice or never queued. */
	KUNIT_EXPECT_FALSE(test, skiplist_del(&sl, &items[2].node));
	KUNIT_ASSERT_TRUE(test, skiplist_del(&sl, &items[1].node));
	KUNIT_EXPECT_FALSE(test, skiplist_del(&sl, &items[1].node));
	expect_ids(test, &sl, (unsigned long[]){ 0 }, 1);
}

/*
 * 100k random inserts and deletes on a pool of nodes, checked after every
 * step against a reference: an array of the queued nodes in order.
 */
#define RANDOM_POOL	192
#define RANDOM_OPS	100000

static void skiplist_test_random(struct kunit *test)
{
	struct item *items = alloc_items(test, RANDOM_POOL);
	struct skiplist_node **ref;
	unsigned int n = 0, op;
	struct skiplist sl;
	u64 rnd = SEED;

	ref = kunit_kcalloc(test, RANDOM_POOL, sizeof(*ref), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ref);
	skiplist_init(&sl);

	for (op = 0; op < RANDOM_OPS; op++) {
		u32 r = skiplist_rand_next(&rnd);
		struct item *it = &items[r % RANDOM_POOL];
		struct skiplist_node *pos;
		unsigned int i, j;

		if (skiplist_node_queued(&it->node)) {
			/* delete, or sometimes pop the first */
			if ((r >> 8) % 4 == 0)
				it = skiplist_first_entry(&sl, struct item, node);
			KUNIT_ASSERT_TRUE(test, skiplist_del(&sl, &it->node));
			for (i = 0; ref[i] != &it->node; i++)
				KUNIT_ASSERT_LT(test, i, n);
			memmove(&ref[i], &ref[i + 1], (n - i - 1) * sizeof(*ref));
			n--;
		} else {
			/* small key ranges for ties, or the full range */
			u64 key = ((u64)skiplist_rand_next(&rnd) << 32) |
				  skiplist_rand_next(&rnd);

			switch ((r >> 8) % 4) {
			case 0:
				key %= 8;
				break;
			case 1:
				key %= 1024;
				break;
			case 2:
				key = SKIPLIST_KEY_MAX - key % 4;
				break;
			}
			KUNIT_ASSERT_TRUE(test, skiplist_insert(&sl, &it->node, key,
								skiplist_rand_next(&rnd)));
			for (i = 0; i < n && ref[i]->key <= key; i++)
				;
			memmove(&ref[i + 1], &ref[i], (n - i) * sizeof(*ref));
			ref[i] = &it->node;
			n++;
		}

		KUNIT_ASSERT_EQ(test, check_list(test, &sl), n);
		j = 0;
		skiplist_for_each(pos, &sl)
			KUNIT_ASSERT_PTR_EQ(test, pos, ref[j++]);
	}
}

static struct kunit_case skiplist_test_cases[] = {
	KUNIT_CASE(skiplist_test_empty),
	KUNIT_CASE(skiplist_test_ordering),
	KUNIT_CASE(skiplist_test_fifo_ties),
	KUNIT_CASE(skiplist_test_insert_head),
	KUNIT_CASE(skiplist_test_delete),
	KUNIT_CASE(skiplist_test_reinsert),
	KUNIT_CASE(skiplist_test_extreme_keys),
	KUNIT_CASE(skiplist_test_top_level_shrinks),
	KUNIT_CASE(skiplist_test_level_distribution),
	KUNIT_CASE(skiplist_test_find_first),
	KUNIT_CASE(skiplist_test_misuse),
	KUNIT_CASE(skiplist_test_random),
	{}
};

static struct kunit_suite skiplist_test_suite = {
	.name = "skiplist",
	.test_cases = skiplist_test_cases,
};

kunit_test_suite(skiplist_test_suite);

MODULE_DESCRIPTION("KUnit tests for the intrusive skip list");
MODULE_LICENSE("GPL");
