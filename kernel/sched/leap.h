/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * LEAP scheduler: what kernel/sched/ shares with kernel/sched/leap.c, and
 * the ordering-key arithmetic (pure functions, tested by leap_test.c).
 *
 * The key: smaller runs first. Every policy LEAP owns shares it:
 *
 *	SCHED_FIFO, SCHED_RR, PI-boosted	p->prio, 0 .. 99
 *	SCHED_ISO, not refractory		100 (LEAP_ISO_KEY)
 *	SCHED_NORMAL, SCHED_BATCH, refractory ISO	virtual deadline
 *	SCHED_IDLE				virtual deadline, idle span
 *
 * where the virtual deadline is
 *
 *	deadline = niffies + leap_prio_ratios[nice + 20] * rr_interval / 128
 *
 * niffies is LEAP's monotonic nanosecond clock and the ratio grows by 10%
 * a nice level from 128 at nice -20, so that a nice 0 task's deadline is
 * 6.5 rr_intervals away and a nice 19 task's 40. A NORMAL or refractory
 * ISO task that wakes while it uses no more than its share of the CPUs
 * it may use (leap_light()) gets niffies - leap_light_lead() plus the
 * span of its average run instead (if earlier), while its run since it
 * woke is under three slices or four times its average run
 * (leap_run_light(); a stall counts two ticks: leap_run_counted()):
 * before every busy task a round robin leaves behind, and among light
 * tasks in the order of wakeup plus expected run. Every deadline is above
 * LEAP_ISO_KEY, so after every realtime key. A SCHED_IDLE task's
 * deadline lies twice the nice 19 span ahead (leap_idle_span()): it
 * sorts after every task that renewed its deadline since, so it runs
 * only when nothing else wants the CPU, except for a short turn once its
 * deadline is the earliest; that turn is what keeps an IDLE task that
 * holds a lock from hanging the tasks waiting for it.
 * niffies counts from boot and stays below 2^60 for 36 years.
 *
 * Cost: every helper here is O(1) and does no division but by 128 and 4.
 *
 * Locking: struct leap_rq is protected by the global runqueue lock
 * (leap_rq_lock); curr_key is also read without it, as a hint, by
 * select_task_rq. The key helpers take no lock.
 */
#ifndef _KERNEL_SCHED_LEAP_H
#define _KERNEL_SCHED_LEAP_H

#ifdef CONFIG_SCHED_LEAP

#include <linux/hrtimer.h>
#include <linux/list.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/sched/prio.h>
#include <linux/skiplist.h>
#include <linux/time64.h>
#include <uapi/linux/sched.h>

struct rq;
struct task_struct;

/* Default, lowest and highest kernel.rr_interval, in ms. */
#define LEAP_RR_INTERVAL_DEF	6
#define LEAP_RR_INTERVAL_MIN	1
#define LEAP_RR_INTERVAL_MAX	1000

/* A slice with less than this left counts as used up. */
#define LEAP_RESCHED_NS		(100 * NSEC_PER_USEC)

/*
 * A task with a deadline key runs at least this long once picked before
 * a waking task with a deadline key preempts it; the preemption waits
 * for the tick after that (or for the task to sleep first).
 */
#define LEAP_WAKEUP_GRAN_NS	NSEC_PER_MSEC

/*
 * A waker that went on running past the holds of its wakees
 * LEAP_PAIR_STRIKES times in a row, with no hold in between that ended
 * in its wakee's pick, has a wakee that takes turns with it held only as
 * others (no CPU idle) for LEAP_PAIR_BACKOFF_MS: a waker that does not
 * block costs an idle CPU at most two ticks of it, and two holds of two
 * ticks once a hold worked (leap_pair_here()). One overrun alone is no
 * evidence: an emulated CPU that its host stops for a tick makes one out
 * of a ping-pong round.
 */
#define LEAP_PAIR_BACKOFF_MS	250
#define LEAP_PAIR_STRIKES	2

/*
 * A SCHED_IDLE task picked while other work waits runs this long, not a
 * whole slice: enough to release a lock or handle a signal.
 */
#define LEAP_IDLE_RUN_NS	NSEC_PER_MSEC

/*
 * The run and sleep lengths that leap_light() averages are capped at
 * this: one long spell moves the averages, and their products with a
 * task count cannot overflow.
 */
#define LEAP_LIGHT_CAP_NS	NSEC_PER_SEC

/*
 * A light task's run since it woke may reach this many slices before a
 * renewal makes it busy (leap_run_light()): under a host that
 * deschedules vCPUs, a 0.2 ms run is charged 5-12 ms now and then.
 */
#define LEAP_LIGHT_RUN_SLICES	3

/*
 * A light task keeps its light key at a renewal while its run since it
 * woke is under LEAP_LIGHT_RUN_SLICES slices or this many of its average
 * bursts, whichever is longer. Four, not two: under an overcommitted
 * host a 60 Hz frame thread that works 4 ms a frame, preempted past its
 * next boundary, ran two or three frames without sleeping (9-20 ms
 * against 4.5-6 ms), and with two it turned busy in the middle of them.
 */
#define LEAP_LIGHT_RUN_BURSTS	4

/**
 * leap_run_light - may a light task keep its light key at a renewal?
 * @awake:	its run since it woke, ns (leap_run_counted() of each charge)
 * @slice:	its slice, ns, at most LEAP_RR_INTERVAL_MAX ms
 * @burst:	its average burst, ns, at most LEAP_LIGHT_CAP_NS
 *
 * A run longer than a few of the task's own bursts and a few slices is
 * not the short run its light key was given for. No overflow, by the
 * bounds of @slice and @burst.
 *
 * Return: true while @awake is under LEAP_LIGHT_RUN_SLICES times @slice
 * or LEAP_LIGHT_RUN_BURSTS times @burst, whichever is longer.
 */
static inline bool leap_run_light(u64 awake, u64 slice, u64 burst)
{
	return awake < max(LEAP_LIGHT_RUN_SLICES * slice,
			   LEAP_LIGHT_RUN_BURSTS * burst);
}

/*
 * The most of one charge a task's run since it woke counts, in ticks
 * (leap_run_counted()).
 */
#define LEAP_RUN_CHARGE_TICKS	2

/**
 * leap_run_counted - what of one charge counts in a task's run
 * @delta:	the charge: CPU time since the task's last charge, ns
 * @tick:	a tick, ns
 * @tick_stops:	its CPU's tick may stop while one task runs (nohz_full)
 *
 * While a task runs, the tick charges it at least once a tick; a longer
 * charge is mostly time in which its CPU did not run at all - a vCPU
 * the host descheduled, whose clock jumped over the gap. The slice is
 * charged all of it, as mainline's vruntime is; the run since waking
 * (leap_run_light()) and the burst average count at most
 * LEAP_RUN_CHARGE_TICKS ticks of it, so that one stall does not make a
 * task of short runs busy. Not where the tick may stop.
 *
 * Return: @delta if @tick_stops, else at most LEAP_RUN_CHARGE_TICKS
 * times @tick of it.
 */
static inline u64 leap_run_counted(u64 delta, u64 tick, bool tick_stops)
{
	if (tick_stops)
		return delta;
	return min(delta, LEAP_RUN_CHARGE_TICKS * tick);
}

/* The most leap_light_lead() gives, with thousands of tasks a CPU. */
#define LEAP_LIGHT_LEAD_MAX_NS	(10 * NSEC_PER_SEC)

/* The key of a SCHED_ISO task that is not refractory: after every RT prio. */
#define LEAP_ISO_KEY		((u64)MAX_RT_PRIO)

/* Default, lowest and highest kernel.iso_cpu, in percent. */
#define LEAP_ISO_CPU_DEF	70
#define LEAP_ISO_CPU_MIN	0
#define LEAP_ISO_CPU_MAX	100

/* ISO+RT CPU use is summed over LEAP_ISO_BUCKETS buckets: 5 s. */
#define LEAP_ISO_BUCKETS	10
#define LEAP_ISO_BUCKET_NS	(500 * NSEC_PER_MSEC)
#define LEAP_ISO_WINDOW_NS	((u64)LEAP_ISO_BUCKETS * LEAP_ISO_BUCKET_NS)

/**
 * struct leap_rq - LEAP's per-CPU state, in struct rq
 * @curr:	the LEAP task running on this CPU, or NULL
 * @sticky:	a task preempted here with slice left, queued with its key
 *		offset so that other CPUs leave it to this one; or NULL
 * @sync_hint:	the task select_task_rq_leap() sent here for a synchronous
 *		wakeup by this CPU's only task; written and read by this
 *		CPU only, with interrupts off, between the two
 * @sync_wait:	that task, queued here with no other CPU kicked, until this
 *		CPU picks it, picks another or ticks twice; or NULL. Written
 *		under the lock with WRITE_ONCE(): other CPUs read it without
 *		(leap_only_held_queued())
 * @sync_ticked: this CPU ticked once since it began to hold @sync_wait
 * @ttwu_task:	a synchronous wakee that this CPU's only task woke with no
 *		runqueue lock taken, left for this CPU's next schedule
 *		(leap_ttwu_defer()) or its second tick; or NULL. Written and
 *		read by this CPU only, with interrupts off
 * @ttwu_flags:	the wake flags of @ttwu_task's wakeup
 * @ttwu_ticked: this CPU ticked once since it took @ttwu_task
 * @ttwu_defers: wakeups deferred so since boot; incremented by this CPU
 *		without the lock, summed by debugfs under it
 * @curr_key:	@curr's key, 0 when @curr is NULL (a CPU running a
 *		higher class, or idle, is never preempted by LEAP's choice)
 * @nr_running:	LEAP tasks accounted to this CPU (queued or running)
 * @renewed:	@curr's slice ran out (or it yielded) while it ran: it goes
 *		behind the tasks with its key (RR rotation)
 * @rt_throttled: realtime and ISO keys used up this period's runtime
 *		here (sched_rt_runtime_us): this CPU runs other work first
 * @rt_time:	realtime and ISO run time here in the current period, ns
 * @rt_period_start: when the current period began, rq clock ns
 * @picked:	when @curr was picked, niffies
 * @wake_pending: a waking task with an earlier deadline key waits for
 *		@curr's LEAP_WAKEUP_GRAN_NS to pass: reschedule at the tick
 * @iso_time:	this CPU's ISO and realtime run time, ns, per
 *		LEAP_ISO_BUCKET_NS bucket of the last LEAP_ISO_BUCKETS
 * @iso_next:	niffies at which the current bucket ends
 * @iso_cur:	index of the current bucket
 * @iso_refractory: this CPU's ISO use went over iso_cpu: the ISO tasks
 *		accounted to it sort as NORMAL
 * @iso_queued:	the queued SCHED_ISO tasks accounted to this CPU, for a
 *		re-key when @iso_refractory changes
 * @saved_curr:	@curr was put for a change of its parameters, not a
 *		switch: set_next_task keeps @renewed, @wake_pending, @picked
 * @pinned:	the queued tasks that may run on this CPU only, by key:
 *		only this CPU's pick looks at them
 * @frontier:	how late this CPU picks busy tasks against their
 *		deadlines, ns (negative: early): a moving average
 *		(leap_frontier_avg()) over the first pick after each busy
 *		renewal, while tasks wait for CPUs; group spans follow
 *		from it
 * @switch_unlocked: this CPU let go of the lock before its context switch
 *		(leap_switch_unlock()); finish_task_switch() does not unlock.
 *		Written and read by this CPU only, with interrupts off
 * @unlocked_switches: context switches made so since boot; incremented
 *		under the lock, summed by debugfs under it
 * @passed_over: a pick on another CPU skipped this CPU's previous task,
 *		queued but still switching out here (leap_switching_out()):
 *		finish_task_switch() finds a CPU for it (leap_switch_finish()).
 *		Set under the lock, read and cleared by this CPU after its
 *		switch, ordered by full barriers on both sides
 * @pair_overruns: holds released at this CPU's tick since boot
 *		(leap_pair_backoff(); debugfs). Under the lock
 * @pair_backoffs: wakers backed off at this CPU's tick since boot
 *		(leap_pair_backoff(); debugfs). Under the lock
 */
struct leap_rq {
	struct task_struct	*curr;
	struct task_struct	*sticky;
	struct task_struct	*sync_hint;
	struct task_struct	*sync_wait;
	u64			curr_key;
	unsigned int		nr_running;
	bool			sync_ticked;
	bool			ttwu_ticked;
	struct task_struct	*ttwu_task;
	int			ttwu_flags;
	unsigned long		ttwu_defers;
	bool			renewed;
	bool			rt_throttled;
	u64			rt_time;
	u64			rt_period_start;
	u64			picked;
	bool			wake_pending;
	bool			iso_refractory;
	unsigned int		iso_cur;
	u64			iso_next;
	u64			iso_time[LEAP_ISO_BUCKETS];
	struct list_head	iso_queued;
	bool			saved_curr;
	struct skiplist		pinned;
	s64			frontier;
	bool			switch_unlocked;
	bool			passed_over;
	unsigned long		unlocked_switches;
	unsigned long		pair_overruns;
	unsigned long		pair_backoffs;
};

extern const u16 leap_prio_ratios[NICE_WIDTH];

/**
 * leap_deadline_span - how far in the future a new deadline lies
 * @prio:	the task's prio, MAX_RT_PRIO .. MAX_PRIO - 1
 * @rr_ms:	rr_interval in ms, LEAP_RR_INTERVAL_MIN .. _MAX
 *
 * Return: leap_prio_ratios[nice + 20] * rr_ms ms / 128, in ns; at most
 * 5089 * 10^9 / 128, about 4 * 10^10: no overflow.
 */
static inline u64 leap_deadline_span(int prio, unsigned int rr_ms)
{
	int i = clamp(prio - MAX_RT_PRIO, 0, NICE_WIDTH - 1);

	return (u64)leap_prio_ratios[i] * rr_ms * NSEC_PER_MSEC / 128;
}

/**
 * leap_idle_span - how far ahead a SCHED_IDLE task's new deadline lies
 * @rr_ms:	rr_interval in ms, LEAP_RR_INTERVAL_MIN .. _MAX
 *
 * Twice the nice 19 span (480 ms at rr_interval 6): after every deadline
 * a NORMAL or BATCH task sets meanwhile, so an IDLE task waits about that
 * long, less a nice 0 span, for a LEAP_IDLE_RUN_NS turn under any load.
 *
 * Return: 2 * leap_deadline_span(MAX_PRIO - 1, @rr_ms), in ns.
 */
static inline u64 leap_idle_span(unsigned int rr_ms)
{
	return 2 * leap_deadline_span(MAX_PRIO - 1, rr_ms);
}

/**
 * leap_run_span - how much later a deadline moves for CPU time used
 * @prio:	the task's prio, MAX_RT_PRIO .. MAX_PRIO - 1
 * @ns:		CPU time, at most 8 * LEAP_RR_INTERVAL_MAX ms (clamped)
 *
 * A slice that overran by @ns (a late tick) pushes the next deadline
 * back by this much more, so that overruns are paid for and CPU shares
 * hold over time.
 *
 * Return: leap_prio_ratios[nice + 20] * @ns / 128; at most about 3 * 10^11.
 */
static inline u64 leap_run_span(int prio, u64 ns)
{
	int i = clamp(prio - MAX_RT_PRIO, 0, NICE_WIDTH - 1);

	ns = min_t(u64, ns, 8ULL * LEAP_RR_INTERVAL_MAX * NSEC_PER_MSEC);
	return (u64)leap_prio_ratios[i] * ns / 128;
}

/**
 * leap_key - the ordering key of a task
 * @prio:	the task's prio: below MAX_RT_PRIO for realtime (or boosted)
 * @policy:	its policy
 * @iso_ok:	false while SCHED_ISO tasks are refractory (run as NORMAL)
 * @deadline:	its virtual deadline
 *
 * Return: @prio for a realtime prio; LEAP_ISO_KEY for SCHED_ISO when
 * @iso_ok; else @deadline, kept above LEAP_ISO_KEY and at most
 * SKIPLIST_KEY_MAX (SCHED_IDLE differs by its deadline, not its key).
 */
static inline u64 leap_key(int prio, unsigned int policy, bool iso_ok,
			   u64 deadline)
{
	if (prio < MAX_RT_PRIO)
		return max(prio, 0);
	if (policy == SCHED_ISO && iso_ok)
		return LEAP_ISO_KEY;
	return clamp_t(u64, deadline, LEAP_ISO_KEY + 1, SKIPLIST_KEY_MAX);
}

/**
 * leap_iso_over - is ISO+RT CPU use at or above the iso_cpu cap?
 * @used:	ns of ISO and RT run time in the last LEAP_ISO_BUCKETS buckets
 * @ncpus:	the CPUs @used was summed over (LEAP: 1, each CPU's own)
 * @iso_cpu:	the cap, percent of all CPUs, 0 .. 100
 * @pct:	percent of the cap to compare with (100 to turn refractory,
 *		90 to recover)
 *
 * 100% never turns ISO refractory. No overflow: @used is at most about
 * 5 * 10^9 * @ncpus, times at most 10^4.
 *
 * Return: true if @used >= @iso_cpu * @pct / 100 percent of the window.
 */
static inline bool leap_iso_over(u64 used, unsigned int ncpus,
				 unsigned int iso_cpu, unsigned int pct)
{
	u64 window = LEAP_ISO_WINDOW_NS * ncpus;

	if (iso_cpu >= LEAP_ISO_CPU_MAX)
		return false;
	return used * 100 * 100 >= window * iso_cpu * pct;
}

/**
 * leap_sticky_key - the key a task preempted with slice left queues at
 * @key:	its real key
 * @rr_ms:	rr_interval in ms
 *
 * One rr_interval later than its real key: another CPU takes the task
 * only once it has waited a slice longer than that CPU's own work would,
 * so that near ties keep a warm cache, but a task never waits on one CPU
 * for long while another runs later deadlines (a larger offset, such as a
 * nice-19 span, left three hogs on two CPUs at 50%, 50% and 97%).
 *
 * Return: @key plus rr_interval, at most SKIPLIST_KEY_MAX.
 */
static inline u64 leap_sticky_key(u64 key, unsigned int rr_ms)
{
	u64 off = (u64)rr_ms * NSEC_PER_MSEC;

	return key > SKIPLIST_KEY_MAX - off ? SKIPLIST_KEY_MAX : key + off;
}

/**
 * leap_avg - the moving average of run or sleep lengths
 * @avg:	the average so far, ns; 0 before the first sample
 * @sample:	the new length, ns
 *
 * Each new length weighs a quarter: a task that changes its habits is
 * judged by its new ones after a few sleeps.
 *
 * Return: @sample if @avg is 0, else (3 * @avg + @sample) / 4, with
 * @sample capped at LEAP_LIGHT_CAP_NS.
 */
static inline u64 leap_avg(u64 avg, u64 sample)
{
	sample = min_t(u64, sample, LEAP_LIGHT_CAP_NS);
	if (!avg)
		return sample;
	return (3 * avg + sample) / 4;
}

/*
 * leap_light()'s two sides: a task's use, @burst * @nr * its prio ratio,
 * against its share, (@burst + @sleep) * @ncpus * nice 0's ratio. The
 * bounds are leap_light()'s.
 */
static inline void leap_light_terms(u64 burst, u64 sleep, unsigned int nr,
				    unsigned int ncpus, int prio, u64 *use,
				    u64 *share)
{
	int i = clamp(prio - MAX_RT_PRIO, 0, NICE_WIDTH - 1);

	*use = burst * min(nr, 1U << 20) * leap_prio_ratios[i];
	*share = (burst + sleep) * ncpus * leap_prio_ratios[NICE_WIDTH / 2];
}

/**
 * leap_light - does a task use less than its share of the CPUs?
 * @burst:	its average CPU time from a wakeup to a sleep, ns
 * @sleep:	its average sleep, ns (0: it has not slept yet)
 * @nr:		the LEAP tasks runnable, this one included
 * @ncpus:	the CPUs it may run on (the active ones in its affinity)
 * @prio:	its prio, MAX_RT_PRIO .. MAX_PRIO - 1
 *
 * A task that runs @burst and sleeps @sleep in turn uses the fraction
 * @burst / (@burst + @sleep) of a CPU. Its share, with @nr runnable
 * tasks on @ncpus CPUs, is @ncpus / @nr for nice 0 (all of a CPU while
 * there are no more tasks than CPUs), and smaller by its prio ratio for
 * a higher nice level: 836 / leap_prio_ratios[nice + 20] of that. No
 * overflow: both averages are at most LEAP_LIGHT_CAP_NS (10^9), @nr is
 * taken as at most 2^20, ratios are below 2^13, @ncpus below 2^16.
 *
 * Return: true if it has slept and its fraction is at most its share.
 */
static inline bool leap_light(u64 burst, u64 sleep, unsigned int nr,
			      unsigned int ncpus, int prio)
{
	u64 use, share;

	if (!sleep)
		return false;
	if (nr <= ncpus)
		return true;
	leap_light_terms(burst, sleep, nr, ncpus, prio, &use, &share);
	return use <= share;
}

/* leap_light_part()'s unit: a task that uses all of its share. */
#define LEAP_PART_ONE		1024U

/**
 * leap_light_part - how much of its share a light task uses
 * @burst:	its average CPU time from a wakeup to a sleep, ns
 * @sleep:	its average sleep, ns
 * @nr:		the LEAP tasks runnable, this one included
 * @ncpus:	the CPUs it may run on
 * @prio:	its prio, MAX_RT_PRIO .. MAX_PRIO - 1
 *
 * The fraction @burst / (@burst + @sleep) of a CPU over the share
 * leap_light() tests it against (a whole CPU while there are no more
 * tasks than CPUs). A light key's run span is scaled by it: among light
 * tasks, the one furthest below its share goes first, whatever its
 * burst; a task near its share keeps its burst's whole span. No
 * overflow, by leap_light()'s bounds.
 *
 * Return: that ratio in units of LEAP_PART_ONE, at most LEAP_PART_ONE;
 * LEAP_PART_ONE if the task has not slept.
 */
static inline u64 leap_light_part(u64 burst, u64 sleep, unsigned int nr,
				  unsigned int ncpus, int prio)
{
	u64 use, share;

	ncpus = clamp(ncpus, 1U, 1U << 16);
	leap_light_terms(burst, sleep, max(nr, ncpus), ncpus, prio, &use,
			 &share);
	if (!sleep || use >= share)
		return LEAP_PART_ONE;
	return mul_u64_u64_div_u64(use, LEAP_PART_ONE, share);
}

/**
 * leap_lead_load - the load term of the light lead
 * @nr:		the LEAP tasks runnable
 * @rr_ms:	rr_interval in ms, LEAP_RR_INTERVAL_MIN .. _MAX
 *
 * Two round robins of @nr busy tasks on one CPU. No overflow: @nr is
 * taken as at most 2^20, @rr_ms is at most 1000.
 *
 * Return: 2 * @nr * @rr_ms ms, in ns.
 */
static inline u64 leap_lead_load(unsigned int nr, unsigned int rr_ms)
{
	return 2ULL * min(nr, 1U << 20) * rr_ms * NSEC_PER_MSEC;
}

/**
 * leap_lead_follow - the lead's load term, one step nearer its target
 * @load:	its value so far, ns
 * @want:	leap_lead_load() now, ns
 * @dt:		LEAP's clock's advance since @load was set, ns
 *
 * The load term rises toward @want at most as fast as the clock and
 * falls to it at once. Rising so, the lead (the load term over
 * the CPUs plus a span, leap_light_lead()) grows by at most the time
 * that passes: of two light tasks that wake in turn, the later one's key
 * is not earlier, save by a shorter burst's span, however the queue grew
 * between the wakeups (on one CPU the keys may tie; on c CPUs the later
 * is later by at least (c - 1) / c of the time between). A lead that
 * followed the queue's length at once put a task that woke into a
 * longer queue 2 * rr_interval per extra task per CPU ahead of every
 * light task that woke before it: a task that wakes ten others in turn
 * queued them last woken, first run. Falling, the keys of later
 * wakeups only move later, so it falls at once: a lead longer than the
 * queue needs would keep busy tasks behind light ones for longer than
 * the round robin leaves them. A queue that grows to its length
 * reaches its load within the load's difference. O(1).
 *
 * Return: @load moved up toward @want by at most @dt, or @want if that
 * is not more.
 */
static inline u64 leap_lead_follow(u64 load, u64 want, u64 dt)
{
	if (want > load)
		return load + min(want - load, dt);
	return want;
}

/**
 * leap_light_lead - how far before LEAP's clock a light task's key lies
 * @load:	the load term: leap_lead_load() of the runnable tasks, as
 *		leap_lead_follow() follows it
 * @ncpus:	the CPUs it may run on, at least 1
 * @rr_ms:	rr_interval in ms, LEAP_RR_INTERVAL_MIN .. _MAX
 *
 * A busy task whose slice renews waits for the slices of the others,
 * about rr_interval for each runnable task per CPU, so its deadline, one
 * span after the renewal, lies at most that much in the past when its
 * turn comes. A light key lies twice that plus a nice-0 span before the
 * clock, once the load term has followed the queue's length
 * (leap_lead_follow()): before every busy deadline a round robin leaves
 * behind, so light tasks go first under any load of busy tasks. A busy
 * task kept from its CPUs longer than that (by light tasks that together
 * want more than the CPUs) goes before the light tasks that wake after:
 * that bounds what light tasks can take from busy ones. No overflow:
 * @load is at most leap_lead_load()'s largest value.
 *
 * Return: @load / @ncpus plus leap_deadline_span() at nice 0, at most
 * LEAP_LIGHT_LEAD_MAX_NS.
 */
static inline u64 leap_light_lead(u64 load, unsigned int ncpus,
				  unsigned int rr_ms)
{
	u64 lead = load / max(ncpus, 1U) +
		   leap_deadline_span(NICE_TO_PRIO(0), rr_ms);

	return min_t(u64, lead, LEAP_LIGHT_LEAD_MAX_NS);
}

/**
 * leap_rekey - a NORMAL task's deadline at a wakeup, under the light rule
 * @dl:		its deadline, a light key if *@light_key; set to the new one
 * @busy_dl:	while *@light_key, the deadline that the first light key of
 *		its slice replaced (set then)
 * @light_key:	*@dl is a light key; updated
 * @key:	this wakeup's light key: with the span of its burst scaled by
 *		the part of its share it uses if @light, else the whole span
 * @light:	it uses at most its share (leap_light())
 * @near:	it uses at most twice its share
 * @by_task:	a task woke it, not an interrupt (a timer, a device)
 *
 * A light task takes @key if that is earlier than its deadline. A light
 * key it holds from an earlier wakeup is the exception when a task woke
 * it: then @key replaces it, earlier or not, so that light tasks woken
 * by tasks sort by this wakeup, not by the first of their slice, which
 * may lie hundreds of ms back (a task that runs 100 us a wakeup uses a 6
 * ms slice in 60 of them). An interrupt's wakeup (a periodic timer) keeps
 * the older key. A task that is no longer light but holds a light key
 * and was woken by a task takes @key if it uses at most twice its share
 * or if @key is later than *@busy_dl, else its busy deadline back. Any
 * other wakeup keeps the deadline. O(1).
 */
static inline void leap_rekey(u64 *dl, u64 *busy_dl, bool *light_key, u64 key,
			      bool light, bool near, bool by_task)
{
	bool renew = *light_key && by_task;

	if (light) {
		if (renew || key < *dl) {
			if (!*light_key)
				*busy_dl = *dl;
			*dl = key;
			*light_key = true;
		}
	} else if (renew) {
		if (near || key > *busy_dl) {
			*dl = key;
		} else {
			*dl = *busy_dl;
			*light_key = false;
		}
	}
}

/*
 * Group shares (kernel/sched/leap_group.c). A task of a cgroup cpu group
 * other than the root runs at a rate: how often it gets a slice, relative
 * to a nice-0 task of the root group, in fixed point (LEAP_RHO_ONE is 1).
 */
#define LEAP_RHO_SHIFT		32
#define LEAP_RHO_ONE		BIT_ULL(LEAP_RHO_SHIFT)
/* What a task of the root group weighs in the root's load, whatever its nice. */
#define LEAP_ROOT_TASK_WEIGHT	1024UL
/* A group task's deadline lies at most this far from the clock. */
#define LEAP_GROUP_SPAN_MAX_NS	(10 * NSEC_PER_SEC)
/* A frontier sample counts as at most this far either way. */
#define LEAP_FRONTIER_MAX_NS	(10 * NSEC_PER_SEC)
/*
 * A CPU's frontier averages over 64 samples: slowly enough that the
 * sample a task's own pick adds just before its renewal does not move
 * its period (an eighth did: 4.2 times, not 2.7, between rates 1/4 and
 * 3/32). A task's own lateness averages over 8 of its samples.
 */
#define LEAP_FRONTIER_SHIFT	6
#define LEAP_LATE_SHIFT		3
/* The shortest period leap_group_span() takes for a nice-0 root task. */
#define LEAP_GROUP_P0_MIN_NS	NSEC_PER_USEC

/*
 * A group's CPU use is averaged over windows of 2^24 ns (16.8 ms), each
 * window counting half as much as the next: over the last 30-50 ms.
 */
#define LEAP_USE_SHIFT		24
#define LEAP_USE_WINDOW_NS	BIT_ULL(LEAP_USE_SHIFT)

/* cpu.max's default period, and its bounds (mainline's, for CFS). */
#define LEAP_BW_PERIOD_DEF_NS	(100 * NSEC_PER_MSEC)
#define LEAP_BW_PERIOD_MIN_NS	NSEC_PER_MSEC
#define LEAP_BW_PERIOD_MAX_NS	NSEC_PER_SEC

/**
 * struct leap_group - LEAP's part of a cgroup cpu task group
 * @shares:	cpu.weight as scaled load (0 until written: NICE_0_LOAD)
 * @load:	the weight of what the group holds runnable: each runnable
 *		task by its nice weight (in the root group each task
 *		LEAP_ROOT_TASK_WEIGHT), each child group with runnable tasks
 *		by its weight
 * @contrib:	the weight this group adds to its parent's @load now: its
 *		weight while it holds a runnable task, else 0
 * @kthreads:	the root group only: the runnable kernel threads its @load
 *		counts (leap_group_over() leaves them out)
 * @quota:	cpu.max: CPU time a period, ns; 0 for none ("max")
 * @period:	cpu.max's period, ns; 0 until set (LEAP_BW_PERIOD_DEF_NS)
 * @burst:	cpu.max.burst: unused quota a period may carry, ns
 * @runtime:	what is left of this period's quota, ns (negative: the
 *		overrun, paid from the next periods', at most one quota)
 * @used:	CPU time charged in this period, ns
 * @throttled:	the quota ran out: the group's tasks are off the queue,
 *		on @parked, until the period renews
 * @throttled_at: when it was throttled, LEAP's clock
 * @throttled_time: time throttled, ns, in all
 * @burst_time:	CPU time over the quota taken from bursts, ns, in all
 * @nr_periods:	periods in which the group used CPU time
 * @nr_throttled: periods in which it was throttled
 * @nr_burst:	periods in which it used more than its quota
 * @timer_on:	@period_timer is running (it stops after an idle period)
 * @parked:	the group's tasks taken off the queue while it (or a task's
 *		group below it) is throttled
 * @throttled_node: on the list of throttled groups
 * @period_timer: renews the quota every period
 * @use_avg:	CPU time the group's tasks used a window
 *		(LEAP_USE_WINDOW_NS), a decaying average over the windows
 *		before @use_win: each older window counts half as much
 * @use_cur:	CPU time they used in window @use_win so far
 * @use_win:	the current window, LEAP's clock / LEAP_USE_WINDOW_NS
 *
 * In struct task_group. Protected by leap_rq_lock; the cpu.max fields
 * are written under leap_shares_mutex too.
 */
struct leap_group {
	unsigned long	shares;
	u64		load;
	unsigned long	contrib;
	unsigned int	kthreads;
	u64		quota;
	u64		period;
	u64		burst;
	s64		runtime;
	u64		used;
	bool		throttled;
	bool		timer_on;
	u64		throttled_at;
	u64		throttled_time;
	u64		burst_time;
	unsigned int	nr_periods;
	unsigned int	nr_throttled;
	unsigned int	nr_burst;
	struct list_head parked;
	struct list_head throttled_node;
	struct hrtimer	period_timer;
	u64		use_avg;
	u64		use_cur;
	u64		use_win;
};

/**
 * leap_rho_step - a rate, one level down the group tree
 * @rho:	the rate of the group, LEAP_RHO_ONE for a nice-0 task of the
 *		root group
 * @weight:	the weight of an entity in the group (a task or a child)
 * @load:	the group's load: the weights of its runnable entities
 *
 * The entities of a group share its rate by weight, as mainline's group
 * scheduling shares a group's CPU time. No overflow: the product is taken
 * in 128 bits, and the result is at most @rho when @weight <= @load.
 *
 * Return: @rho * @weight / @load, at least 1; @rho if @load is 0.
 */
static inline u64 leap_rho_step(u64 rho, u64 weight, u64 load)
{
	if (!load)
		return rho;
	return max_t(u64, mul_u64_u64_div_u64(rho, weight, load), 1);
}

/**
 * leap_frontier_avg - a moving average of pick lateness (a frontier)
 * @avg:	the average so far, ns
 * @sample:	how late a busy task was picked against its deadline, ns
 * @shift:	each sample weighs 1 / 2^@shift (LEAP_FRONTIER_SHIFT for a
 *		CPU's, LEAP_LATE_SHIFT for a task's own)
 *
 * Samples are clamped to +-LEAP_FRONTIER_MAX_NS.
 *
 * Return: the new average.
 */
static inline s64 leap_frontier_avg(s64 avg, s64 sample, unsigned int shift)
{
	sample = clamp_t(s64, sample, -LEAP_FRONTIER_MAX_NS, LEAP_FRONTIER_MAX_NS);
	return avg + (sample - avg) / (1LL << shift);
}

/**
 * leap_frontier_clamp - a frontier within what the runnable load allows
 * @late:	a frontier (a CPU's, or a task's own lateness), ns
 * @nr:		the root round robin's length in nice-0 tasks
 *		(leap_group_runnable()); 0 counts as 1
 * @rr_ms:	rr_interval in ms
 *
 * Busy tasks whose rates add up to R on a CPU each run once a period
 * P0 / rho, and the CPU's time is theirs: P0 = R * rr_interval, so the
 * frontier is R * rr_interval - rr_interval - s0 (leap_group_span()).
 * That is at least -(rr_interval + s0), and, as the rates of all
 * runnable tasks add up to @nr, at most @nr rr_intervals; twice either
 * bound leaves room for the time that realtime tasks, interrupts and
 * late ticks take. A frontier outside is left from another load: the
 * average forgets it only as new samples come, 64 of them, and none
 * comes while the CPU idles. A crowd of 1000 busy loops pinned to a CPU
 * left it picking them 8.9 s before their deadlines; the spans of the
 * group tasks that came next then no longer followed their rates.
 *
 * Return: @late, within [-2 * (rr_interval + s0), 2 * @nr * rr_interval].
 */
static inline s64 leap_frontier_clamp(s64 late, unsigned int nr,
				      unsigned int rr_ms)
{
	s64 rr = (s64)rr_ms * NSEC_PER_MSEC;

	return clamp_t(s64, late,
		       -2 * (rr + (s64)leap_deadline_span(NICE_TO_PRIO(0), rr_ms)),
		       2 * (s64)max(nr, 1U) * rr);
}

/**
 * leap_rebase_due - are group deadlines left from a heavier load?
 * @late:	the largest frontier a group task's span took since the
 *		last rebase began, ns (S64_MIN: none)
 * @nr:		the root round robin's length in nice-0 tasks now
 * @rr_ms:	rr_interval in ms
 *
 * Such a span took at most leap_frontier_clamp()'s upper bound of its
 * time; one more than twice that bound now came from a load at least
 * twice today's, and its deadline may lie seconds behind the ones
 * renewed since (leap.c, leap_rebase()).
 *
 * Return: true if @late is more than twice what @nr allows.
 */
static inline bool leap_rebase_due(s64 late, unsigned int nr,
				   unsigned int rr_ms)
{
	return late / 2 > leap_frontier_clamp(S64_MAX, nr, rr_ms);
}

/**
 * leap_group_span - how far from the clock a group task's deadline lies
 * @rho:	the task's rate, at least 1 (LEAP_RHO_ONE: a nice-0 task of
 *		the root group)
 * @late:	its CPU's frontier (leap_frontier_avg()): how late busy
 *		tasks are picked there against their deadlines, ns
 * @run:	the CPU time the deadline pays for: a slice, plus any overrun
 * @rr_ms:	rr_interval in ms, LEAP_RR_INTERVAL_MIN .. _MAX
 *
 * Busy tasks that compete on a CPU are picked when the clock has passed
 * their deadlines by about the same amount, @late, whatever their spans:
 * a task whose slice of rr_interval renews with a deadline s ahead runs
 * again s + @late later, once in every rr_interval + s + @late. A nice-0
 * task of the root group (span s0) so runs a slice every
 * P0 = rr_interval + s0 + @late; a task of rate @rho must run every
 * P0 / @rho, which the span P0 / @rho - rr_interval - @late gives. A
 * slice that ran @run pays @run / rr_interval times that period, less
 * @run. P0 falls below rr_interval when the rates on a CPU add up to less
 * than its time (few tasks, or light groups): every task then runs more
 * often than its rate says, in the same proportions.
 * No overflow: every product is taken in 128 bits, and the quotient by
 * @rho only below the cap.
 *
 * Return: the span, ns, in [-LEAP_GROUP_SPAN_MAX_NS, LEAP_GROUP_SPAN_MAX_NS]
 * (a negative span puts the deadline before the clock).
 */
static inline s64 leap_group_span(u64 rho, s64 late, u64 run,
				  unsigned int rr_ms)
{
	u64 rr = (u64)rr_ms * NSEC_PER_MSEC, period, cap;
	s64 p0;

	late = clamp_t(s64, late, -LEAP_FRONTIER_MAX_NS, LEAP_FRONTIER_MAX_NS);
	p0 = max_t(s64, leap_deadline_span(NICE_TO_PRIO(0), rr_ms) + rr + late,
		   LEAP_GROUP_P0_MIN_NS);
	run = clamp_t(u64, run, 1, 8ULL * LEAP_RR_INTERVAL_MAX * NSEC_PER_MSEC);
	period = mul_u64_u64_div_u64(p0, run, rr);
	cap = LEAP_GROUP_SPAN_MAX_NS + run + max_t(s64, late, 0);
	rho = max_t(u64, rho, 1);
	if (period >= mul_u64_u64_div_u64(cap, rho, LEAP_RHO_ONE))
		return LEAP_GROUP_SPAN_MAX_NS;
	return clamp_t(s64, (s64)mul_u64_u64_div_u64(period, LEAP_RHO_ONE, rho) -
		       (s64)run - late, -LEAP_GROUP_SPAN_MAX_NS, LEAP_GROUP_SPAN_MAX_NS);
}

/**
 * leap_add_span - a deadline a span away from the clock
 * @now:	LEAP's clock, ns
 * @span:	the span, ns; negative for a deadline before @now
 *
 * Return: @now + @span, at least LEAP_ISO_KEY + 1 (after every realtime
 * and ISO key, however early in boot).
 */
static inline u64 leap_add_span(u64 now, s64 span)
{
	if (span >= 0)
		return now + span;
	if (now <= LEAP_ISO_KEY + 1 + (u64)-span)
		return LEAP_ISO_KEY + 1;
	return now - (u64)-span;
}

#define normal_sched_class	leap_sched_class
#define rt_prio_sched_class	leap_sched_class

void init_leap_rq(struct rq *rq);
bool leap_rq_has_work(struct rq *rq);
bool leap_needs_tick(struct rq *rq);
bool leap_ttwu_defer(struct task_struct *p, int cpu, int wake_flags);
struct task_struct *leap_ttwu_take(struct rq *rq, bool tick, int *wake_flags);
bool leap_switch_may_unlock(struct rq *rq);
void leap_switch_unlock(struct rq *rq);
bool leap_switch_finish(struct rq *rq, struct task_struct *prev);

#ifdef CONFIG_CGROUP_SCHED
struct task_group;
struct seq_file;
void leap_group_enqueue(struct task_struct *p);
void leap_group_dequeue(struct task_struct *p);
u64 leap_group_rho(struct task_struct *p);
unsigned int leap_group_runnable(void);
bool leap_group_charge(struct task_struct *p, u64 delta);
void leap_group_use(struct task_struct *p, u64 delta, u64 now);
bool leap_group_over(struct task_struct *p, unsigned int ncpus, u64 now);
struct task_group *leap_group_throttled(struct task_struct *p);
bool leap_group_bw_limited(struct task_struct *p);
void leap_group_park(struct task_struct *p, struct task_group *tg);
void leap_group_unpark(struct task_struct *p);
void leap_group_offline(int cpu);
void leap_group_bandwidth(struct task_group *tg, u64 *period_us,
			  u64 *quota_us, u64 *burst_us);
int leap_group_set_bandwidth(struct task_group *tg, u64 period, u64 quota,
			     u64 burst);
void leap_group_bandwidth_stat(struct seq_file *sf, struct task_group *tg);
void leap_group_release(struct task_group *tg);
void leap_requeue(struct task_struct *p, bool may_park);
#else
static inline void leap_group_enqueue(struct task_struct *p) { }
static inline void leap_group_dequeue(struct task_struct *p) { }
static inline u64 leap_group_rho(struct task_struct *p) { return LEAP_RHO_ONE; }
static inline bool leap_group_charge(struct task_struct *p, u64 delta) { return false; }
static inline void leap_group_use(struct task_struct *p, u64 delta, u64 now) { }
static inline bool leap_group_over(struct task_struct *p, unsigned int ncpus,
				   u64 now) { return false; }
static inline struct task_group *leap_group_throttled(struct task_struct *p) { return NULL; }
static inline bool leap_group_bw_limited(struct task_struct *p) { return false; }
static inline void leap_group_park(struct task_struct *p, struct task_group *tg) { }
static inline void leap_group_unpark(struct task_struct *p) { }
static inline void leap_group_offline(int cpu) { }
#endif

#else /* !CONFIG_SCHED_LEAP */

#define normal_sched_class	fair_sched_class
#define rt_prio_sched_class	rt_sched_class

static inline void init_leap_rq(struct rq *rq) { }
static inline bool leap_rq_has_work(struct rq *rq) { return false; }
static inline bool leap_needs_tick(struct rq *rq) { return false; }
static inline bool leap_ttwu_defer(struct task_struct *p, int cpu,
				   int wake_flags) { return false; }
static inline struct task_struct *leap_ttwu_take(struct rq *rq, bool tick,
						 int *wake_flags) { return NULL; }
static inline bool leap_switch_may_unlock(struct rq *rq) { return false; }
static inline void leap_switch_unlock(struct rq *rq) { }
static inline bool leap_switch_finish(struct rq *rq,
				      struct task_struct *prev) { return false; }

#endif /* CONFIG_SCHED_LEAP */
#endif /* _KERNEL_SCHED_LEAP_H */
