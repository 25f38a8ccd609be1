// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for LEAP.
 *
 * Suite leap_key: the ordering-key arithmetic (kernel/sched/leap.h): the
 * deadline span of every nice level, no overflow at the largest
 * rr_interval, how realtime, SCHED_ISO, SCHED_BATCH, SCHED_IDLE and
 * sticky keys sort against SCHED_NORMAL, the iso_cpu cap test, and how
 * long a light task's run may last and what of a charge counts in it.
 * Pure arithmetic: no scheduler state is touched, no lock is taken.
 *
 * Suite leap_live: class hooks with no user-space entry point, driven on
 * the live scheduler from the test's kthread: yield_to() (KVM's
 * pause-loop exits). Each case pins itself and a kthread of its own to
 * the CPU it runs on for a few microseconds, and takes no lock itself.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/sched.h>

#include <linux/mmu_context.h>
#include <linux/cpumask_api.h>
#include <linux/spinlock_api.h>

#include "sched.h"

/* From nice -20 (128) up, each level's ratio is the last one's, +10%. */
static void leap_test_ratios(struct kunit *test)
{
	int i;

	KUNIT_EXPECT_EQ(test, leap_prio_ratios[0], 128);
	for (i = 1; i < NICE_WIDTH; i++) {
		u32 prev = leap_prio_ratios[i - 1];

		KUNIT_EXPECT_EQ_MSG(test, (u32)leap_prio_ratios[i], prev * 11 / 10,
				    "nice %d", i - 20);
	}
}

/* The span of each nice level, rr_interval 6 ms: exact values. */
static void leap_test_span_each_nice(struct kunit *test)
{
	int nice;

	for (nice = MIN_NICE; nice <= MAX_NICE; nice++) {
		u64 want = (u64)leap_prio_ratios[nice + 20] * 6 * NSEC_PER_MSEC / 128;
		u64 got = leap_deadline_span(NICE_TO_PRIO(nice), 6);

		KUNIT_EXPECT_EQ_MSG(test, got, want, "nice %d", nice);
		if (nice > MIN_NICE)
			KUNIT_EXPECT_GT(test, got,
					leap_deadline_span(NICE_TO_PRIO(nice - 1), 6));
	}
	/* nice 0 is 6.5 rr_intervals away, nice -20 exactly one. */
	KUNIT_EXPECT_EQ(test, leap_deadline_span(NICE_TO_PRIO(-20), 6), 6 * NSEC_PER_MSEC);
	KUNIT_EXPECT_EQ(test, leap_deadline_span(NICE_TO_PRIO(0), 6), 39187500ULL);
}

/* rr_interval 1000 ms at nice 19: no overflow, and linear in rr_interval. */
static void leap_test_no_overflow(struct kunit *test)
{
	u64 max = leap_deadline_span(MAX_PRIO - 1, LEAP_RR_INTERVAL_MAX);
	u64 one = leap_deadline_span(MAX_PRIO - 1, LEAP_RR_INTERVAL_MIN);

	KUNIT_EXPECT_EQ(test, max, 5089ULL * 1000 * NSEC_PER_MSEC / 128);
	KUNIT_EXPECT_GE(test, max, one * 1000);
	KUNIT_EXPECT_LT(test, max, (one + 1) * 1000);
	KUNIT_EXPECT_EQ(test, max, 2 * leap_deadline_span(MAX_PRIO - 1, 500));
	/* 18 years of niffies plus the largest idle span: a valid key. */
	KUNIT_EXPECT_LT(test, (1ULL << 59) + leap_idle_span(LEAP_RR_INTERVAL_MAX),
			SKIPLIST_KEY_MAX);
	/* Out-of-range prio is clamped, not an out-of-bounds read. */
	KUNIT_EXPECT_EQ(test, leap_deadline_span(MAX_PRIO + 5, 6),
			leap_deadline_span(MAX_PRIO - 1, 6));
	KUNIT_EXPECT_EQ(test, leap_deadline_span(0, 6),
			leap_deadline_span(MAX_RT_PRIO, 6));
}

/* An overrun moves the deadline like a span of that length; clamped. */
static void leap_test_run_span(struct kunit *test)
{
	int prio;

	for (prio = MAX_RT_PRIO; prio < MAX_PRIO; prio++)
		KUNIT_EXPECT_EQ(test, leap_run_span(prio, 6 * NSEC_PER_MSEC),
				leap_deadline_span(prio, 6));
	KUNIT_EXPECT_EQ(test, leap_run_span(NICE_TO_PRIO(0), 0), 0ULL);
	KUNIT_EXPECT_EQ(test, leap_run_span(MAX_PRIO - 1, ~0ULL),
			leap_deadline_span(MAX_PRIO - 1, 8 * LEAP_RR_INTERVAL_MAX));
}

#define N	NICE_TO_PRIO(0)
#define KEY(pol, d)	leap_key(N, pol, true, d)

/*
 * BATCH sorts like NORMAL. IDLE, whose deadline lies leap_idle_span()
 * ahead, sorts after every NORMAL deadline of any nice set at the same
 * time and up to a nice 19 span later, and before a nice 0 deadline set
 * an idle span later (its wait is bounded). All keys are above 100.
 */
static void leap_test_key_order(struct kunit *test)
{
	u64 now = 5 * NSEC_PER_SEC, early = now + 1000, late = now + 40 * NSEC_PER_SEC;
	u64 idle = now + leap_idle_span(6), n19 = leap_deadline_span(MAX_PRIO - 1, 6);

	KUNIT_EXPECT_EQ(test, KEY(SCHED_BATCH, early), KEY(SCHED_NORMAL, early));
	KUNIT_EXPECT_LT(test, KEY(SCHED_BATCH, early), KEY(SCHED_NORMAL, late));
	KUNIT_EXPECT_GT(test, KEY(SCHED_IDLE, idle), KEY(SCHED_NORMAL, now + n19));
	KUNIT_EXPECT_GT(test, KEY(SCHED_IDLE, idle), KEY(SCHED_NORMAL, now + 2 * n19 - 1));
	KUNIT_EXPECT_LT(test, KEY(SCHED_IDLE, idle),
			KEY(SCHED_NORMAL, now + leap_idle_span(6) +
			    leap_deadline_span(NICE_TO_PRIO(0), 6)));
	KUNIT_EXPECT_EQ(test, leap_idle_span(6), 2 * 5089ULL * 6 * NSEC_PER_MSEC / 128);
	KUNIT_EXPECT_LT(test, KEY(SCHED_IDLE, early), KEY(SCHED_IDLE, late));
	KUNIT_EXPECT_LE(test, KEY(SCHED_IDLE, ~0ULL), SKIPLIST_KEY_MAX);
	/* A deadline is at least the nice -20 span of 1 ms: above RT/ISO keys. */
	KUNIT_EXPECT_GT(test, KEY(SCHED_NORMAL,
				  leap_deadline_span(NICE_TO_PRIO(-20), 1)), 100ULL);
	/* Even a deadline of 0 stays above LEAP_ISO_KEY. */
	KUNIT_EXPECT_GT(test, KEY(SCHED_NORMAL, 0), LEAP_ISO_KEY);
}

/* RT prio is the key; ISO is 100, after RT, before every deadline. */
static void leap_test_rt_iso_keys(struct kunit *test)
{
	u64 soon = 1;
	int prio;

	for (prio = 0; prio < MAX_RT_PRIO; prio++) {
		KUNIT_EXPECT_EQ(test, leap_key(prio, SCHED_FIFO, true, soon), (u64)prio);
		KUNIT_EXPECT_EQ(test, leap_key(prio, SCHED_RR, false, soon), (u64)prio);
		/* A boosted NORMAL or IDLE task sorts by its boosted prio. */
		KUNIT_EXPECT_EQ(test, leap_key(prio, SCHED_IDLE, true, soon), (u64)prio);
		KUNIT_EXPECT_LT(test, leap_key(prio, SCHED_FIFO, true, soon),
				leap_key(N, SCHED_ISO, true, soon));
	}
	KUNIT_EXPECT_EQ(test, leap_key(N, SCHED_ISO, true, 12345), LEAP_ISO_KEY);
	KUNIT_EXPECT_LT(test, leap_key(N, SCHED_ISO, true, 12345),
			KEY(SCHED_NORMAL, 0));
	/* Refractory ISO is a NORMAL task with the same deadline. */
	KUNIT_EXPECT_EQ(test, leap_key(N, SCHED_ISO, false, 12345 * NSEC_PER_MSEC),
			KEY(SCHED_NORMAL, 12345 * NSEC_PER_MSEC));
}

/* The iso_cpu cap: percent of all CPUs over the 5 s window. */
static void leap_test_iso_cap(struct kunit *test)
{
	u64 win = LEAP_ISO_BUCKETS * LEAP_ISO_BUCKET_NS;

	KUNIT_EXPECT_EQ(test, win, 5 * NSEC_PER_SEC);
	KUNIT_EXPECT_TRUE(test, leap_iso_over(win * 70 / 100, 1, 70, 100));
	KUNIT_EXPECT_FALSE(test, leap_iso_over(win * 70 / 100 - 1, 1, 70, 100));
	/* On 4 CPUs, one CPU's worth is 25%. */
	KUNIT_EXPECT_FALSE(test, leap_iso_over(win, 4, 70, 100));
	KUNIT_EXPECT_TRUE(test, leap_iso_over(3 * win, 4, 70, 100));
	/* Recovery at 90% of the cap: 63% of one CPU. */
	KUNIT_EXPECT_TRUE(test, leap_iso_over(win * 63 / 100, 1, 70, 90));
	KUNIT_EXPECT_FALSE(test, leap_iso_over(win * 62 / 100, 1, 70, 90));
	/* 0 makes ISO always refractory, 100 never. */
	KUNIT_EXPECT_TRUE(test, leap_iso_over(0, 1, 0, 100));
	KUNIT_EXPECT_FALSE(test, leap_iso_over(64 * win, 64, 100, 100));
	/* No overflow with many CPUs. */
	KUNIT_EXPECT_TRUE(test, leap_iso_over(4096 * win, 4096, 99, 100));
}

/* A sticky key lies one rr_interval later, and saturates. */
static void leap_test_sticky(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, leap_sticky_key(1000, 6), 1000 + 6 * NSEC_PER_MSEC);
	/* Less than a nice-0 span: not held back a whole deadline. */
	KUNIT_EXPECT_LT(test, leap_sticky_key(1000, 6) - 1000,
			leap_deadline_span(NICE_TO_PRIO(0), 6));
	KUNIT_EXPECT_EQ(test, leap_sticky_key(SKIPLIST_KEY_MAX - 1, 6), SKIPLIST_KEY_MAX);
	/* A sticky key still sorts before an idle deadline set at once. */
	KUNIT_EXPECT_LT(test, leap_sticky_key(KEY(SCHED_NORMAL, 1000 +
						  leap_deadline_span(N, 6)), 6),
			KEY(SCHED_IDLE, 1000 + leap_idle_span(6)));
}

/* The moving average: the first sample, then a quarter's weight; capped. */
static void leap_test_avg(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, leap_avg(0, 1000), 1000ULL);
	KUNIT_EXPECT_EQ(test, leap_avg(1000, 2000), 1250ULL);
	KUNIT_EXPECT_EQ(test, leap_avg(1000, 0), 750ULL);
	KUNIT_EXPECT_EQ(test, leap_avg(0, ~0ULL), LEAP_LIGHT_CAP_NS);
	KUNIT_EXPECT_EQ(test, leap_avg(LEAP_LIGHT_CAP_NS, ~0ULL), LEAP_LIGHT_CAP_NS);
}

/*
 * Light: it has slept, and its fraction of a CPU is at most its share,
 * which is smaller at a higher nice level.
 */
static void leap_test_light(struct kunit *test)
{
	int p0 = NICE_TO_PRIO(0), p19 = NICE_TO_PRIO(19), pm20 = NICE_TO_PRIO(-20);
	u64 cap = LEAP_LIGHT_CAP_NS;

	KUNIT_EXPECT_FALSE(test, leap_light(100, 0, 40, 2, p0));
	/* No more tasks than CPUs: all light. */
	KUNIT_EXPECT_TRUE(test, leap_light(cap, 1, 2, 2, p19));
	/* 50 us a 10 ms sleep (0.5%), share 2 / 40 (5%). */
	KUNIT_EXPECT_TRUE(test, leap_light(50000, 10000000, 40, 2, p0));
	/* 1 / (1 + 19) is exactly 2 / 40; 1 / (1 + 18) is more. */
	KUNIT_EXPECT_TRUE(test, leap_light(1, 19, 40, 2, p0));
	KUNIT_EXPECT_FALSE(test, leap_light(1, 18, 40, 2, p0));
	/* Nice 19's share is 836 / 5089 of that: 0.82%. */
	KUNIT_EXPECT_TRUE(test, leap_light(8, 992, 40, 2, p19));
	KUNIT_EXPECT_FALSE(test, leap_light(9, 991, 40, 2, p19));
	/* Nice -20's is 836 / 128 times: 32.7%. */
	KUNIT_EXPECT_TRUE(test, leap_light(32, 68, 40, 2, pm20));
	KUNIT_EXPECT_FALSE(test, leap_light(33, 67, 40, 2, pm20));
	/* A hog that sleeps a little is not light under load. */
	KUNIT_EXPECT_FALSE(test, leap_light(6000000, 100000, 3, 2, p0));
	/* The largest values: no overflow either way. */
	KUNIT_EXPECT_TRUE(test, leap_light(1, cap, ~0U, 1, p19));
	KUNIT_EXPECT_FALSE(test, leap_light(cap, cap, ~0U, 8192, p19));
	KUNIT_EXPECT_TRUE(test, leap_light(cap, cap, 16384, 8192, p0));
	KUNIT_EXPECT_FALSE(test, leap_light(cap, cap, 16384, 8192, p19));
}

/*
 * The part of its share a light task uses: its fraction of a CPU over
 * its share, at most all of it.
 */
static void leap_test_light_part(struct kunit *test)
{
	int p0 = NICE_TO_PRIO(0), p19 = NICE_TO_PRIO(19);
	u64 cap = LEAP_LIGHT_CAP_NS;

	/* Not slept: all of it. */
	KUNIT_EXPECT_EQ(test, leap_light_part(100, 0, 40, 2, p0), 1024ULL);
	/* No more tasks than CPUs: a whole CPU is the share; 1 / 4 of it. */
	KUNIT_EXPECT_EQ(test, leap_light_part(1, 3, 1, 2, p0), 256ULL);
	/* 1 / 40 of a CPU against 2 / 40: half; exactly the share: all. */
	KUNIT_EXPECT_EQ(test, leap_light_part(1, 39, 40, 2, p0), 512ULL);
	KUNIT_EXPECT_EQ(test, leap_light_part(1, 19, 40, 2, p0), 1024ULL);
	/* Over its share: all, not more. */
	KUNIT_EXPECT_EQ(test, leap_light_part(1, 18, 40, 2, p0), 1024ULL);
	/* Nice 19: 8 * 40 * 5089 / (1000 * 2 * 836) of it. */
	KUNIT_EXPECT_EQ(test, leap_light_part(8, 992, 40, 2, p19), 997ULL);
	/* The largest values: no overflow either way. */
	KUNIT_EXPECT_EQ(test, leap_light_part(cap, cap, ~0U, 1, p19), 1024ULL);
	KUNIT_EXPECT_EQ(test, leap_light_part(1, cap, 1U << 20, 8192, p0), 0ULL);
	KUNIT_EXPECT_EQ(test, leap_light_part(cap, cap, 16384, 8192, p0), 1024ULL);
}

/*
 * A light key lasts a renewal while the run since waking is under three
 * slices or four average bursts, whichever is longer: a run of short
 * bursts that a stall stretched keeps it up to three slices, a frame
 * thread whose 5 ms bursts ran into the next frame up to four of them
 * (with three bursts, or two, it turns busy at 19 ms; with five it
 * stays light at 20).
 */
static void leap_test_run_light(struct kunit *test)
{
	u64 ms = NSEC_PER_MSEC, slice = 6 * ms, cap = LEAP_LIGHT_CAP_NS;

	KUNIT_EXPECT_TRUE(test, leap_run_light(0, slice, 0));
	KUNIT_EXPECT_TRUE(test, leap_run_light(18 * ms - 1, slice, 200000));
	KUNIT_EXPECT_FALSE(test, leap_run_light(18 * ms, slice, 200000));
	KUNIT_EXPECT_TRUE(test, leap_run_light(19 * ms, slice, 5 * ms));
	KUNIT_EXPECT_TRUE(test, leap_run_light(20 * ms - 1, slice, 5 * ms));
	KUNIT_EXPECT_FALSE(test, leap_run_light(20 * ms, slice, 5 * ms));
	/* Both sides the same: 4.5 ms bursts. */
	KUNIT_EXPECT_FALSE(test, leap_run_light(18 * ms, slice, 4500000));
	/* The largest slice and burst: no overflow. */
	KUNIT_EXPECT_TRUE(test, leap_run_light(4 * cap - 1,
					       LEAP_RR_INTERVAL_MAX * ms, cap));
	KUNIT_EXPECT_FALSE(test, leap_run_light(4 * cap,
						LEAP_RR_INTERVAL_MAX * ms, cap));
}

/*
 * One charge counts at most two ticks in the run since waking, unless
 * the tick may stop: a 0.2 ms run charged 23 ms by a stalled vCPU stays
 * light, and would not if all of the charge counted.
 */
static void leap_test_run_counted(struct kunit *test)
{
	u64 ms = NSEC_PER_MSEC, slice = 6 * ms, burst = 200000;

	KUNIT_EXPECT_EQ(test, leap_run_counted(burst, ms, false), burst);
	KUNIT_EXPECT_EQ(test, leap_run_counted(2 * ms, ms, false), 2 * ms);
	KUNIT_EXPECT_EQ(test, leap_run_counted(23 * ms, ms, false), 2 * ms);
	KUNIT_EXPECT_EQ(test, leap_run_counted(23 * ms, 4 * ms, false), 8 * ms);
	KUNIT_EXPECT_EQ(test, leap_run_counted(23 * ms, ms, true), 23 * ms);
	KUNIT_EXPECT_EQ(test, leap_run_counted(~0ULL, 4 * ms, false), 8 * ms);
	KUNIT_EXPECT_TRUE(test, leap_run_light(burst +
			  leap_run_counted(23 * ms, ms, false), slice, burst));
	KUNIT_EXPECT_FALSE(test, leap_run_light(burst +
			   leap_run_counted(23 * ms, ms, true), slice, burst));
}

/*
 * The light lead: two round robins of the runnable tasks per CPU plus a
 * nice-0 span, at most LEAP_LIGHT_LEAD_MAX_NS.
 */
static void leap_test_light_lead(struct kunit *test)
{
	u64 span = leap_deadline_span(NICE_TO_PRIO(0), 6);
	u64 l21 = leap_lead_load(21, 6), l40 = leap_lead_load(40, 6);
	u64 huge = leap_lead_load(~0U, LEAP_RR_INTERVAL_MAX);

	/* 21 tasks on 1 CPU at 6 ms: 252 ms + 39.1875 ms. */
	KUNIT_EXPECT_EQ(test, span, 39187500ULL);
	KUNIT_EXPECT_EQ(test, l21, 252000000ULL);
	KUNIT_EXPECT_EQ(test, leap_light_lead(l21, 1, 6), 291187500ULL);
	/* 40 tasks on 2 CPUs: 240 ms + the span. */
	KUNIT_EXPECT_EQ(test, leap_light_lead(l40, 2, 6), 240000000ULL + span);
	/* More tasks a CPU, a longer lead; more CPUs, a shorter one. */
	KUNIT_EXPECT_LT(test, leap_light_lead(l40, 2, 6),
			leap_light_lead(leap_lead_load(41, 6), 2, 6));
	KUNIT_EXPECT_GT(test, leap_light_lead(l40, 2, 6),
			leap_light_lead(l40, 4, 6));
	/* No CPU count is taken as one; the largest values are capped. */
	KUNIT_EXPECT_EQ(test, leap_light_lead(l21, 0, 6),
			leap_light_lead(l21, 1, 6));
	KUNIT_EXPECT_EQ(test, huge, 2ULL * (1U << 20) * 1000 * NSEC_PER_MSEC);
	KUNIT_EXPECT_EQ(test, leap_light_lead(huge, 1, LEAP_RR_INTERVAL_MAX),
			(u64)LEAP_LIGHT_LEAD_MAX_NS);
	KUNIT_EXPECT_EQ(test, leap_light_lead(leap_lead_load(1U << 20, 6), 1, 6),
			(u64)LEAP_LIGHT_LEAD_MAX_NS);
}

/*
 * The lead's load term follows its target up at most as fast as the
 * clock and down at once; so a light key taken later is
 * not earlier, save by a shorter span, however the queue grew between.
 */
static void leap_test_lead_follow(struct kunit *test)
{
	const u64 ms = NSEC_PER_MSEC, us = NSEC_PER_USEC;
	u64 load, key, prev, at_target;
	int i;

	/* Within reach: the target itself, either way. */
	KUNIT_EXPECT_EQ(test, leap_lead_follow(100 * ms, 104 * ms, 10 * ms),
			104 * ms);
	KUNIT_EXPECT_EQ(test, leap_lead_follow(104 * ms, 100 * ms, 10 * ms),
			100 * ms);
	/* Beyond it: up by the time that passed; down to it at once. */
	KUNIT_EXPECT_EQ(test, leap_lead_follow(100 * ms, 300 * ms, 10 * ms),
			110 * ms);
	KUNIT_EXPECT_EQ(test, leap_lead_follow(300 * ms, 100 * ms, 10 * ms),
			100 * ms);
	KUNIT_EXPECT_EQ(test, leap_lead_follow(U64_MAX, 0, 0), 0ULL);
	/* No time, no rise; a long quiet spell reaches any target. */
	KUNIT_EXPECT_EQ(test, leap_lead_follow(100 * ms, 300 * ms, 0), 100 * ms);
	KUNIT_EXPECT_EQ(test, leap_lead_follow(0, 1ULL << 62, U64_MAX),
			1ULL << 62);
	/*
	 * A task wakes ten others 10 us apart, the queue one longer at each.
	 * With the lead at its target each time, each key is 2 * 6 ms / c -
	 * 10 us earlier than the one before (last woken, first run).
	 * Following it, each is 5 us later on two CPUs, and ties on one
	 * (equal keys keep their order on the list).
	 */
	load = leap_lead_load(1, 6);
	prev = 1000 * ms - leap_light_lead(load, 2, 6);
	at_target = prev;
	for (i = 2; i <= 11; i++) {
		u64 now = 1000 * ms + (i - 1) * 10 * us;
		u64 was = load;

		load = leap_lead_follow(load, leap_lead_load(i, 6), 10 * us);
		key = now - leap_light_lead(load, 2, 6);
		KUNIT_EXPECT_EQ(test, key, prev + 5 * us);
		KUNIT_EXPECT_EQ(test, now - leap_light_lead(load, 1, 6),
				now - 10 * us - leap_light_lead(was, 1, 6));
		prev = key;
		key = now - leap_light_lead(leap_lead_load(i, 6), 2, 6);
		KUNIT_EXPECT_EQ(test, at_target - key, 6 * ms - 10 * us);
		at_target = key;
	}
	/*
	 * The queue shortens to one task: the load falls by the 100 us it
	 * rose at once, so the next key is later by the time and 100 us / c.
	 */
	load = leap_lead_follow(load, leap_lead_load(1, 6), 10 * us);
	KUNIT_EXPECT_EQ(test, load, leap_lead_load(1, 6));
	key = 1000 * ms + 110 * us - leap_light_lead(load, 2, 6);
	KUNIT_EXPECT_EQ(test, key, prev + 10 * us + 100 * us / 2);
}

/* A rate one level down: a share of the parent's by weight. */
static void leap_test_rho_step(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, leap_rho_step(LEAP_RHO_ONE, 1024, 8 * 1024),
			LEAP_RHO_ONE / 8);
	KUNIT_EXPECT_EQ(test, leap_rho_step(LEAP_RHO_ONE, 300, 400),
			LEAP_RHO_ONE * 3 / 4);
	/* A top group against a nice-0 task of the root: its weight / 1024. */
	KUNIT_EXPECT_EQ(test, leap_rho_step(LEAP_RHO_ONE, 3072, 1024),
			3 * LEAP_RHO_ONE);
	/* No load: unchanged; never 0. */
	KUNIT_EXPECT_EQ(test, leap_rho_step(12345, 1, 0), 12345ULL);
	KUNIT_EXPECT_EQ(test, leap_rho_step(1, 3, 1000000), 1ULL);
	/* No overflow at the largest rate and weights. */
	KUNIT_EXPECT_EQ(test, leap_rho_step(100 * LEAP_RHO_ONE, 102400, 102400),
			100 * LEAP_RHO_ONE);
}

/*
 * The period a span gives (a slice, the span, the lateness) is P0 / rho:
 * rates hold whatever the lateness, and a rate of one is a nice-0 root
 * task's span.
 */
static void leap_test_group_span(struct kunit *test)
{
	s64 rr = 6 * NSEC_PER_MSEC, s0 = leap_deadline_span(NICE_TO_PRIO(0), 6);
	s64 late[] = { -45 * (s64)NSEC_PER_MSEC, -33 * (s64)NSEC_PER_MSEC,
		       -27 * (s64)NSEC_PER_MSEC, 0, 200 * (s64)NSEC_PER_MSEC };
	int i;

	for (i = 0; i < ARRAY_SIZE(late); i++) {
		s64 l = late[i], p0 = max_t(s64, s0 + rr + l, LEAP_GROUP_P0_MIN_NS);

		KUNIT_EXPECT_EQ_MSG(test, leap_group_span(LEAP_RHO_ONE, l, rr, 6) + rr + l,
				    p0, "late %lld", l);
		KUNIT_EXPECT_EQ_MSG(test, leap_group_span(LEAP_RHO_ONE / 8, l, rr, 6) + rr + l,
				    8 * p0, "late %lld", l);
		KUNIT_EXPECT_EQ_MSG(test, leap_group_span(3 * LEAP_RHO_ONE, l, rr, 6) + rr + l,
				    p0 / 3, "late %lld", l);
		/* A slice that ran twice as long pays twice the period. */
		KUNIT_EXPECT_EQ(test, leap_group_span(LEAP_RHO_ONE / 8, l, 2 * rr, 6) + 2 * rr + l,
				16 * p0);
	}
	/* Picked on time, a rate of one is nice 0's span. */
	KUNIT_EXPECT_EQ(test, leap_group_span(LEAP_RHO_ONE, 0, rr, 6), s0);
	/* A heavy group under overload: the deadline lies before the clock. */
	KUNIT_EXPECT_LT(test, leap_group_span(3 * LEAP_RHO_ONE, 200 * NSEC_PER_MSEC, rr, 6), 0LL);
	/* P0 has a floor. */
	KUNIT_EXPECT_EQ(test, leap_group_span(LEAP_RHO_ONE, -s0 - rr - 5 * (s64)NSEC_PER_MSEC,
					      rr, 6),
			LEAP_GROUP_P0_MIN_NS + s0 + 5 * NSEC_PER_MSEC);
	/* The smallest rate, the largest rr_interval and run: capped, no overflow. */
	KUNIT_EXPECT_EQ(test, leap_group_span(1, 0, rr, 6), (s64)LEAP_GROUP_SPAN_MAX_NS);
	KUNIT_EXPECT_EQ(test, leap_group_span(1, LEAP_FRONTIER_MAX_NS,
					      8ULL * LEAP_RR_INTERVAL_MAX * NSEC_PER_MSEC,
					      LEAP_RR_INTERVAL_MAX),
			(s64)LEAP_GROUP_SPAN_MAX_NS);
	KUNIT_EXPECT_GE(test, leap_group_span(100 * LEAP_RHO_ONE, LEAP_FRONTIER_MAX_NS,
					      rr, 6), -(s64)LEAP_GROUP_SPAN_MAX_NS);
	KUNIT_EXPECT_LE(test, leap_group_span(LEAP_RHO_ONE / 1000, -LEAP_FRONTIER_MAX_NS,
					      rr, 6), (s64)LEAP_GROUP_SPAN_MAX_NS);
	/* A lateness beyond its bound counts as the bound. */
	KUNIT_EXPECT_EQ(test, leap_group_span(LEAP_RHO_ONE, S64_MAX, rr, 6),
			leap_group_span(LEAP_RHO_ONE, LEAP_FRONTIER_MAX_NS, rr, 6));
}

/* A deadline before the clock stays after every realtime and ISO key. */
static void leap_test_add_span(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, leap_add_span(1000000, 5), 1000005ULL);
	KUNIT_EXPECT_EQ(test, leap_add_span(1000000, -5), 999995ULL);
	KUNIT_EXPECT_EQ(test, leap_add_span(1000000, -2000000), LEAP_ISO_KEY + 1);
	KUNIT_EXPECT_EQ(test, leap_add_span(0, S64_MIN + 1), LEAP_ISO_KEY + 1);
}

/* The lateness averages: 1 / 2^shift a sample, samples clamped. */
static void leap_test_frontier_avg(struct kunit *test)
{
	s64 avg = 0;
	int i;

	KUNIT_EXPECT_EQ(test, leap_frontier_avg(0, 800, 3), 100LL);
	KUNIT_EXPECT_EQ(test, leap_frontier_avg(0, -800, 3), -100LL);
	KUNIT_EXPECT_EQ(test, leap_frontier_avg(0, 6400, LEAP_FRONTIER_SHIFT), 100LL);
	for (i = 0; i < 100; i++)
		avg = leap_frontier_avg(avg, -27 * (s64)NSEC_PER_MSEC, 3);
	KUNIT_EXPECT_LT(test, abs(avg + 27 * (s64)NSEC_PER_MSEC), (s64)NSEC_PER_MSEC);
	KUNIT_EXPECT_EQ(test, leap_frontier_avg(0, S64_MAX, 3), LEAP_FRONTIER_MAX_NS / 8);
	KUNIT_EXPECT_EQ(test, leap_frontier_avg(0, S64_MIN, 3), -LEAP_FRONTIER_MAX_NS / 8);
}

/*
 * A frontier left from another load is cut to what the current one
 * allows; one the current load explains stays.
 */
static void leap_test_frontier_clamp(struct kunit *test)
{
	s64 ms = NSEC_PER_MSEC, sec = NSEC_PER_SEC;

	/* After a crowd, 5 tasks: at most 60 ms, at least -90 ms. */
	KUNIT_EXPECT_EQ(test, leap_frontier_clamp(6 * sec, 5, 6), 60 * ms);
	KUNIT_EXPECT_EQ(test, leap_frontier_clamp(-9 * sec, 5, 6),
			-2 * (6 * ms + (s64)leap_deadline_span(NICE_TO_PRIO(0), 6)));
	/* What 1000 tasks on one CPU give stays while they run. */
	KUNIT_EXPECT_EQ(test, leap_frontier_clamp(6 * sec, 1000, 6), 6 * sec);
	KUNIT_EXPECT_EQ(test, leap_frontier_clamp(-43 * ms, 5, 6), -43 * ms);
	KUNIT_EXPECT_EQ(test, leap_frontier_clamp(18 * ms, 0, 6), 12 * ms);
	KUNIT_EXPECT_EQ(test, leap_frontier_clamp(S64_MAX, 1U << 20, 6),
			2LL * (1 << 20) * 6 * ms);
}

/*
 * A rebase is due once a span took more than twice the frontier that the
 * load of now allows: 3 s under a crowd, 4 tasks after it (48 ms).
 */
static void leap_test_rebase_due(struct kunit *test)
{
	s64 ms = NSEC_PER_MSEC, sec = NSEC_PER_SEC;

	KUNIT_EXPECT_TRUE(test, leap_rebase_due(3 * sec, 4, 6));
	KUNIT_EXPECT_FALSE(test, leap_rebase_due(3 * sec, 1000, 6));
	KUNIT_EXPECT_FALSE(test, leap_rebase_due(96 * ms, 4, 6));
	KUNIT_EXPECT_TRUE(test, leap_rebase_due(96 * ms + 2, 4, 6));
	KUNIT_EXPECT_FALSE(test, leap_rebase_due(-90 * ms, 1, 6));
	KUNIT_EXPECT_FALSE(test, leap_rebase_due(S64_MIN, 1, 6));
	KUNIT_EXPECT_TRUE(test, leap_rebase_due(S64_MAX, 1U << 20, 6));
}

/*
 * The light rule at a wakeup (leap_rekey()): a light key lasts until a
 * task wakes its holder again; a timer's wakeup keeps an older one; a task
 * no longer light keeps one while near its share, else gets its busy
 * deadline back unless that is earlier than the key.
 */
static void leap_test_rekey(struct kunit *test)
{
	const u64 ms = NSEC_PER_MSEC;
	u64 dl, busy;
	bool lk;

	/* Light, a busy deadline: the earlier key, the busy one kept aside. */
	dl = 500 * ms, busy = 0, lk = false;
	leap_rekey(&dl, &busy, &lk, 100 * ms, true, true, true);
	KUNIT_EXPECT_EQ(test, dl, 100 * ms);
	KUNIT_EXPECT_EQ(test, busy, 500 * ms);
	KUNIT_EXPECT_TRUE(test, lk);
	/* A busy deadline earlier than the key stays, light key or not. */
	dl = 50 * ms, busy = 0, lk = false;
	leap_rekey(&dl, &busy, &lk, 100 * ms, true, true, true);
	KUNIT_EXPECT_EQ(test, dl, 50 * ms);
	KUNIT_EXPECT_FALSE(test, lk);
	/*
	 * A light key from an earlier wakeup: a task's wakeup replaces it
	 * with this one's, later or not; the busy deadline stays aside.
	 */
	dl = 100 * ms, busy = 500 * ms, lk = true;
	leap_rekey(&dl, &busy, &lk, 300 * ms, true, true, true);
	KUNIT_EXPECT_EQ(test, dl, 300 * ms);
	KUNIT_EXPECT_EQ(test, busy, 500 * ms);
	KUNIT_EXPECT_TRUE(test, lk);
	dl = 300 * ms;
	leap_rekey(&dl, &busy, &lk, 200 * ms, true, true, true);
	KUNIT_EXPECT_EQ(test, dl, 200 * ms);
	/* An interrupt's wakeup keeps the older light key. */
	dl = 100 * ms, busy = 500 * ms, lk = true;
	leap_rekey(&dl, &busy, &lk, 300 * ms, true, true, false);
	KUNIT_EXPECT_EQ(test, dl, 100 * ms);
	KUNIT_EXPECT_TRUE(test, lk);
	/* No longer light, within twice its share: the key, still light. */
	dl = 100 * ms, busy = 500 * ms, lk = true;
	leap_rekey(&dl, &busy, &lk, 300 * ms, false, true, true);
	KUNIT_EXPECT_EQ(test, dl, 300 * ms);
	KUNIT_EXPECT_TRUE(test, lk);
	/* Beyond it: the busy deadline back, unless the key is later. */
	dl = 100 * ms, busy = 500 * ms, lk = true;
	leap_rekey(&dl, &busy, &lk, 300 * ms, false, false, true);
	KUNIT_EXPECT_EQ(test, dl, 500 * ms);
	KUNIT_EXPECT_FALSE(test, lk);
	dl = 100 * ms, busy = 200 * ms, lk = true;
	leap_rekey(&dl, &busy, &lk, 300 * ms, false, false, true);
	KUNIT_EXPECT_EQ(test, dl, 300 * ms);
	KUNIT_EXPECT_TRUE(test, lk);
	/* Not light, woken by an interrupt, or holding no light key: kept. */
	dl = 100 * ms, busy = 500 * ms, lk = true;
	leap_rekey(&dl, &busy, &lk, 300 * ms, false, false, false);
	KUNIT_EXPECT_EQ(test, dl, 100 * ms);
	KUNIT_EXPECT_TRUE(test, lk);
	dl = 100 * ms, busy = 0, lk = false;
	leap_rekey(&dl, &busy, &lk, 30 * ms, false, true, true);
	KUNIT_EXPECT_EQ(test, dl, 100 * ms);
	KUNIT_EXPECT_FALSE(test, lk);
}

static struct kunit_case leap_test_cases[] = {
	KUNIT_CASE(leap_test_ratios),
	KUNIT_CASE(leap_test_span_each_nice),
	KUNIT_CASE(leap_test_no_overflow),
	KUNIT_CASE(leap_test_run_span),
	KUNIT_CASE(leap_test_key_order),
	KUNIT_CASE(leap_test_rt_iso_keys),
	KUNIT_CASE(leap_test_iso_cap),
	KUNIT_CASE(leap_test_sticky),
	KUNIT_CASE(leap_test_avg),
	KUNIT_CASE(leap_test_light),
	KUNIT_CASE(leap_test_light_part),
	KUNIT_CASE(leap_test_run_light),
	KUNIT_CASE(leap_test_run_counted),
	KUNIT_CASE(leap_test_light_lead),
	KUNIT_CASE(leap_test_lead_follow),
	KUNIT_CASE(leap_test_rho_step),
	KUNIT_CASE(leap_test_group_span),
	KUNIT_CASE(leap_test_add_span),
	KUNIT_CASE(leap_test_frontier_avg),
	KUNIT_CASE(leap_test_frontier_clamp),
	KUNIT_CASE(leap_test_rebase_due),
	KUNIT_CASE(leap_test_rekey),
	{}
};

static struct kunit_suite leap_test_suite = {
	.name = "leap_key",
	.test_cases = leap_test_cases,
};

/* The yield_to() target: count each run, then sleep until woken or stopped. */
static int leap_test_yield_target(void *arg)
{
	int *ran = arg;

	for (;;) {
		WRITE_ONCE(*ran, READ_ONCE(*ran) + 1);
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop())
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

/* Let @p run until it sleeps again (at most about 100 ms). */
static void leap_test_let_sleep(struct task_struct *p)
{
	int i;

	for (i = 0; i < 100 && !wait_task_inactive(p, TASK_INTERRUPTIBLE); i++)
		usleep_range(1000, 2000);
}

/*
 * yield_to(): a nice-19 kthread queued behind this nice-0 one on the same
 * CPU would wait for this one's slice and more; yield_to() hands it the
 * CPU at once. Without a yield_to_task hook yield_to() returns 0 and the
 * target has not run when it returns. Up to three tries: under TCG a
 * stalled vCPU can charge the target its whole slice in its first
 * microseconds, and then this task's renewed deadline is the earlier one.
 */
static void leap_test_yield_to(struct kunit *test)
{
	struct task_struct *p;
	int cpu, ran = 0, before, seen = 0, yielded, i;

	cpu = get_cpu();
	put_cpu();
	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(current, cpumask_of(cpu)), 0);
	p = kthread_create(leap_test_yield_target, &ran, "leap-yield-to");
	KUNIT_ASSERT_FALSE(test, IS_ERR(p));
	kthread_bind(p, cpu);
	set_user_nice(p, MAX_NICE);
	set_user_nice(current, 0);
	wake_up_process(p);
	for (i = 0; i < 3 && !seen; i++) {
		leap_test_let_sleep(p);
		before = READ_ONCE(ran);
		/* A fresh slice for this task: the target cannot win on its own. */
		schedule_timeout_uninterruptible(1);
		wake_up_process(p);
		yielded = yield_to(p, true);
		seen = READ_ONCE(ran) != before;
		KUNIT_EXPECT_GT(test, yielded, 0);
	}
	KUNIT_EXPECT_TRUE_MSG(test, seen, "the target did not run in %d tries", i);
	kthread_stop(p);
	set_cpus_allowed_ptr(current, cpu_possible_mask);
}

static struct kunit_case leap_live_cases[] = {
	KUNIT_CASE(leap_test_yield_to),
	{}
};

static struct kunit_suite leap_live_suite = {
	.name = "leap_live",
	.test_cases = leap_live_cases,
};

kunit_test_suites(&leap_test_suite, &leap_live_suite);

MODULE_DESCRIPTION("KUnit tests for LEAP's ordering key");
MODULE_LICENSE("GPL");
