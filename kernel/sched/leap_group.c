// SPDX-License-Identifier: GPL-2.0-only
/*
 * LEAP: cgroup cpu group shares (cpu.weight, cpu.weight.nice, cpu.idle)
 * and autogroup, inside the one queue and the one key.
 *
 * LEAP has no per-group runqueue to pick a group from. A task of a group
 * other than the root gets a rate instead: how often it should get a
 * slice, relative to a nice-0 task of the root group. The entities of a
 * group (its runnable tasks by their nice weights, its child groups that
 * hold runnable tasks by their cpu.weight) share the group's rate by
 * weight, and a group under the root has its weight over a nice-0 task's
 * (cpu.weight 100 is nice 0):
 *
 *	rho(task) = w(task) / load(G) * w(G) / load(P) * ... * w(top) / 1024
 *
 * leap.c turns the rate into the span of the task's deadline
 * (leap_group_span(), kernel/sched/leap.h), so that its slices come rho
 * times as often as a nice-0 root task's, whatever the other tasks'
 * spans: two groups of weight 100 with one and eight busy tasks get half
 * the CPU each. The tasks of the root group keep the plain LEAP spans,
 * nice table and all: a system that does not use the cpu controller
 * schedules as before. cpu.idle gives a group the weight 3 among its
 * siblings, as mainline does; a task such a weight leaves a long span
 * is lifted to a nice-0 span while others may wait for it (leap.c).
 *
 * Each group keeps the weight of what it holds runnable (struct
 * leap_group, in struct task_group); a group counts in its parent only
 * while it holds a runnable task. The root's load counts each of its own
 * tasks as a nice-0 task and each busy top group by its weight: divided
 * by 1024, it is the number of nice-0 tasks the root round robin holds,
 * which the light-task rule takes as its task count
 * (leap_group_runnable()).
 *
 * Cost: enqueue and dequeue O(1), plus O(depth of the group) when a group
 * starts or stops holding runnable tasks; a rate O(depth), at each slice
 * renewal of a group task; the CPU use of the groups above a running
 * task O(depth) at each charge, and the over-share test O(depth) at a
 * group task's wakeup. No allocation: the state lives in the task and
 * in the task group.
 *
 * Locking: every field is under leap_rq_lock (the rq lock of every CPU):
 * enqueue, dequeue and renewal hold it already; a weight written through
 * the cgroup files takes it, after leap_shares_mutex, which orders the
 * writers.
 *
 * Copyright (C) 2026 LEAP developers
 */
#include <linux/mmu_context.h>
#include <linux/cpumask_api.h>
#include <linux/spinlock_api.h>

#include "sched.h"

/* cpu.weight as scaled load; NICE_0_LOAD (cpu.weight 100) if never set. */
static unsigned long leap_shares(struct task_group *tg)
{
	return READ_ONCE(tg->leap.shares) ?: ROOT_TASK_GROUP_LOAD;
}

/* The weight of @tg among its siblings, unscaled (cpu.weight 100: 1024). */
static unsigned long leap_group_weight(struct task_group *tg)
{
	return max(scale_load_down(leap_shares(tg)), 1UL);
}

/* What @p weighs in @tg: its nice weight, or 3 for SCHED_IDLE, as mainline. */
static unsigned long leap_task_weight(struct task_struct *p,
				      struct task_group *tg)
{
	if (tg == &root_task_group)
		return LEAP_ROOT_TASK_WEIGHT;
	if (p->policy == SCHED_IDLE)
		return WEIGHT_IDLEPRIO;
	return sched_prio_to_weight[clamp(p->static_prio - MAX_RT_PRIO, 0,
					   NICE_WIDTH - 1)];
}

/*
 * Add @delta to @tg's load, and carry the change of what @tg adds to its
 * parent up the tree: a group counts in its parent while its load is not
 * 0. Stops at the first level whose contribution stays the same.
 */
static void leap_group_add(struct task_group *tg, long delta)
{
	while (delta) {
		unsigned long c;

		tg->leap.load += delta;
		if (!tg->parent)
			return;
		c = tg->leap.load ? leap_group_weight(tg) : 0;
		delta = (long)c - (long)tg->leap.contrib;
		tg->leap.contrib = c;
		tg = tg->parent;
	}
}

/**
 * leap_group_enqueue - count a task that became runnable in its group
 * @p:	the task, being enqueued; leap_rq_lock held
 *
 * Its group is task_group(@p) now; the dequeue takes the weight back from
 * the same group, whatever task_group(@p) is by then.
 */
void leap_group_enqueue(struct task_struct *p)
{
	struct task_group *tg = task_group(p);

	lockdep_assert_held(&leap_rq_lock);
	if (WARN_ON_ONCE(p->leap.tg))
		return;
	p->leap.tg = tg;
	p->leap.weight = leap_task_weight(p, tg);
	p->leap.kthread = !tg->parent && (p->flags & PF_KTHREAD);
	tg->leap.kthreads += p->leap.kthread;
	leap_group_add(tg, p->leap.weight);
}

/**
 * leap_group_dequeue - take a task that stops being runnable off its group
 * @p:	the task, being dequeued; leap_rq_lock held
 */
void leap_group_dequeue(struct task_struct *p)
{
	lockdep_assert_held(&leap_rq_lock);
	if (WARN_ON_ONCE(!p->leap.tg))
		return;
	leap_group_add(p->leap.tg, -(long)p->leap.weight);
	p->leap.tg->leap.kthreads -= p->leap.kthread;
	p->leap.kthread = false;
	p->leap.tg = NULL;
	p->leap.weight = 0;
}

/**
 * leap_group_rho - the rate of a runnable task of a group
 * @p:	the task, counted in its group (leap_group_enqueue()); the lock held
 *
 * Return: how often @p should get a slice, against a nice-0 task of the
 * root group, in fixed point (LEAP_RHO_ONE is 1); LEAP_RHO_ONE for a task
 * of the root group, which is keyed by its nice instead. O(depth).
 */
u64 leap_group_rho(struct task_struct *p)
{
	struct task_group *tg = p->leap.tg;
	u64 rho = LEAP_RHO_ONE, w = p->leap.weight;

	lockdep_assert_held(&leap_rq_lock);
	if (!tg || !tg->parent)
		return LEAP_RHO_ONE;
	for (; tg->parent; tg = tg->parent) {
		rho = leap_rho_step(rho, w, tg->leap.load);
		w = leap_group_weight(tg);
	}
	/*
	 * @tg is the root: a top group against a nice-0 task of the root;
	 * if all the root holds weighs less than one (only light groups),
	 * against that, so that the rates on the CPUs add up to a task's.
	 */
	return leap_rho_step(rho, w, clamp_t(u64, tg->leap.load, 1,
					     LEAP_ROOT_TASK_WEIGHT));
}

/**
 * leap_group_runnable - the root round robin's length in nice-0 tasks
 *
 * The root group's tasks count one each, each top group with runnable
 * tasks by its weight over a nice-0 task's. Without groups in use it is
 * the number of runnable LEAP tasks. The lock held.
 *
 * Return: that number, rounded up, at least 1.
 */
unsigned int leap_group_runnable(void)
{
	u64 load = root_task_group.leap.load;

	lockdep_assert_held(&leap_rq_lock);
	return max_t(u64, DIV_ROUND_UP_ULL(load, LEAP_ROOT_TASK_WEIGHT), 1);
}

/* Bring @lg's CPU use up to window @now / LEAP_USE_WINDOW_NS. */
static void leap_use_roll(struct leap_group *lg, u64 now)
{
	u64 win = now >> LEAP_USE_SHIFT, n;

	if (win <= lg->use_win)
		return;
	n = win - lg->use_win;
	lg->use_avg = (lg->use_avg + lg->use_cur) >> 1;
	lg->use_avg = n > 64 ? 0 : lg->use_avg >> (n - 1);
	lg->use_cur = 0;
	lg->use_win = win;
}

/**
 * leap_group_use - count CPU time in the groups above a task
 * @p:		the running task, counted in its group; leap_rq_lock held
 * @delta:	CPU time it ran since the last charge, ns
 * @now:	LEAP's clock
 *
 * Every group above @p but the root adds @delta to its use
 * (leap_group_over() reads it). O(depth).
 */
void leap_group_use(struct task_struct *p, u64 delta, u64 now)
{
	struct task_group *tg;

	lockdep_assert_held(&leap_rq_lock);
	for (tg = p->leap.tg; tg && tg->parent; tg = tg->parent) {
		leap_use_roll(&tg->leap, now);
		tg->leap.use_cur += delta;
	}
}

/* leap_group_over()'s shares are kept in ns << this, for precision. */
#define LEAP_USE_FRAC	16

/*
 * The load of @tg's parent, at least 1: what @tg's weight is a part of.
 * In the root's, kernel threads do not count: their short runs are the
 * system's, and a group alone with one of them is not over its share.
 */
static u64 leap_use_load(struct task_group *tg)
{
	struct task_group *parent = tg->parent;
	u64 load = parent->leap.load;

	if (!parent->parent)
		load -= min_t(u64, load, (u64)parent->leap.kthreads *
					 LEAP_ROOT_TASK_WEIGHT);
	return max_t(u64, load, 1);
}

/**
 * leap_group_over - does a group above a task use more than its share?
 * @p:		a runnable task of a group, counted in it; leap_rq_lock held
 * @ncpus:	the CPUs @p may run on, at least 1
 * @now:	LEAP's clock
 *
 * A group's share of a window is @ncpus windows times its weight over
 * its parent's load, times its parent's share: the root's share is all
 * @ncpus. Only runnable entities count in a load (and in the root's, no
 * kernel thread), so a group that is alone takes all of them; once
 * another group (or a task of the root) wakes, both have their weight's
 * part. A group is over its share when its average use a window
 * (or its use in the current window, if more) exceeds the share by an
 * eighth. The light rule (leap.c) gives no light key to a task of such a
 * group: the group's own rate, not the short bursts of its many tasks,
 * bounds what it gets while others want the CPUs, as a group entity that
 * ran ahead of its lag does in mainline's fair class. O(depth).
 *
 * Return: true if @p's group or one above it (not the root) is over its
 * share.
 */
bool leap_group_over(struct task_struct *p, unsigned int ncpus, u64 now)
{
	u64 share = ((u64)max(ncpus, 1U) << LEAP_USE_SHIFT) << LEAP_USE_FRAC;
	struct task_group *tg;

	lockdep_assert_held(&leap_rq_lock);
	/* @p's group's share, from the root's @ncpus down. */
	for (tg = p->leap.tg; tg && tg->parent; tg = tg->parent)
		share = mul_u64_u64_div_u64(share, leap_group_weight(tg),
					    leap_use_load(tg));
	/* Each group's use against its share, from @p's group up. */
	for (tg = p->leap.tg; tg && tg->parent; tg = tg->parent) {
		struct leap_group *lg = &tg->leap;
		u64 use;

		leap_use_roll(lg, now);
		use = max(lg->use_avg, lg->use_cur) << LEAP_USE_FRAC;
		if (use > share + (share >> 3))
			return true;
		share = mul_u64_u64_div_u64(share, leap_use_load(tg),
					    leap_group_weight(tg));
	}
	return false;
}

/*
 * cgroup cpu.weight, cpu.weight.nice, cpu.idle (and v1 cpu.shares), with
 * the fair class's checks and errors; written under leap_shares_mutex,
 * applied under leap_rq_lock. A group with runnable tasks changes what it
 * adds to its parent at once; its tasks' deadlines follow at their next
 * renewal.
 */
static DEFINE_MUTEX(leap_shares_mutex);

static void leap_group_store(struct task_group *tg, unsigned long shares)
{
	unsigned long flags;
	long delta;

	shares = clamp(shares, scale_load(MIN_SHARES), scale_load(MAX_SHARES));
	raw_spin_lock_irqsave(&leap_rq_lock, flags);
	WRITE_ONCE(tg->leap.shares, shares);
	if (tg->leap.contrib) {
		delta = (long)leap_group_weight(tg) - (long)tg->leap.contrib;
		tg->leap.contrib = leap_group_weight(tg);
		leap_group_add(tg->parent, delta);
	}
	raw_spin_unlock_irqrestore(&leap_rq_lock, flags);
}

/**
 * sched_group_set_shares - set a task group's CPU weight
 * @tg:		the group
 * @shares:	the weight (scaled load), clamped to MIN_SHARES..MAX_SHARES
 *
 * Return: 0; -EINVAL for the root group or an idle group (as fair's).
 */
int sched_group_set_shares(struct task_group *tg, unsigned long shares)
{
	int ret = 0;

	if (tg == &root_task_group)
		return -EINVAL;
	mutex_lock(&leap_shares_mutex);
	if (tg->idle > 0)
		ret = -EINVAL;
	else
		leap_group_store(tg, shares);
	mutex_unlock(&leap_shares_mutex);
	return ret;
}

/**
 * sched_group_set_idle - make a task group idle, or not
 * @tg:		the group
 * @idle:	1 for an idle group, 0 for a normal one
 *
 * As with the fair class, an idle group has the lowest weight among its
 * siblings (WEIGHT_IDLEPRIO) and refuses another; a group that leaves
 * idle gets the default weight.
 *
 * Return: 0; -EINVAL for the root group or an @idle other than 0 or 1.
 */
int sched_group_set_idle(struct task_group *tg, long idle)
{
	if (tg == &root_task_group || idle < 0 || idle > 1)
		return -EINVAL;
	mutex_lock(&leap_shares_mutex);
	if (tg->idle != idle) {
		WRITE_ONCE(tg->idle, idle);
		leap_group_store(tg, idle ? scale_load(WEIGHT_IDLEPRIO) :
					    NICE_0_LOAD);
	}
	mutex_unlock(&leap_shares_mutex);
	return 0;
}

/**
 * leap_group_shares - a task group's CPU weight
 * @tg:	the group
 *
 * Return: the weight as scaled load; NICE_0_LOAD (cpu.weight 100) for a
 * group whose weight was never written.
 */
unsigned long leap_group_shares(struct task_group *tg)
{
	return leap_shares(tg);
}

/*
 * cpu.max: a group that used its quota in a period is throttled until
 * the period renews. Its tasks then leave the queue for its list of
 * parked tasks: at the next pick that meets them, or when they would be
 * queued (leap.c, leap_park()); none is parked while it holds what others
 * may wait for (a fatal signal, exiting, frozen, boosted, in an RCU
 * read-side section, woken from an uninterruptible sleep), nor on a CPU
 * going down. The period timer gives the quota back and requeues them.
 *
 * The quota is the group's own, global, under the one lock: charged at
 * each update of a running task's time to every group above it that has
 * one (O(depth)); throttling costs O(CPUs) to stop the group's running
 * tasks, unthrottling O(parked tasks) to requeue them, once a period.
 * Nothing is walked while no group has a quota.
 */

/* Groups with a quota; with none, nothing is charged or parked. */
static unsigned int leap_bw_groups;
/* The throttled groups, for CPU hotplug (leap_group_offline()). */
static LIST_HEAD(leap_bw_throttled);

static u64 leap_bw_period(struct leap_group *lg)
{
	return lg->period ?: LEAP_BW_PERIOD_DEF_NS;
}

/* Is @p counted in @tg or in a group below it? */
static bool leap_task_under(struct task_struct *p, struct task_group *tg)
{
	struct task_group *g;

	for (g = p->leap.tg; g; g = g->parent)
		if (g == tg)
			return true;
	return false;
}

/* Throttle @tg: its running tasks stop at their next schedule. */
static void leap_bw_throttle(struct task_group *tg)
{
	struct leap_group *lg = &tg->leap;
	int cpu;

	lg->throttled = true;
	lg->throttled_at = ktime_get_ns();
	lg->nr_throttled++;
	list_add_tail(&lg->throttled_node, &leap_bw_throttled);
	for_each_online_cpu(cpu) {
		struct rq *rq = cpu_rq(cpu);

		if (rq->leap.curr && leap_task_under(rq->leap.curr, tg))
			resched_curr(rq);
	}
}

/* Unthrottle @tg: its parked tasks go back on the queue. */
static void leap_bw_unthrottle(struct task_group *tg)
{
	struct leap_group *lg = &tg->leap;
	LIST_HEAD(todo);

	lg->throttled = false;
	lg->throttled_time += ktime_get_ns() - lg->throttled_at;
	list_del_init(&lg->throttled_node);
	list_splice_init(&lg->parked, &todo);
	while (!list_empty(&todo)) {
		struct task_struct *p = list_first_entry(&todo, struct task_struct,
							 leap.park_node);

		list_del_init(&p->leap.park_node);
		p->leap.parked_on = NULL;
		leap_requeue(p, true);
	}
}

static void leap_bw_start(struct leap_group *lg)
{
	lg->timer_on = true;
	hrtimer_start(&lg->period_timer, ns_to_ktime(leap_bw_period(lg)),
		      HRTIMER_MODE_REL_PINNED_HARD);
}

/*
 * The period ends: the quota comes back (unused quota carried up to the
 * burst), the group unthrottles if it has runtime again, and the timer
 * stops after a period in which the group neither ran nor waited.
 */
static enum hrtimer_restart leap_bw_timer(struct hrtimer *timer)
{
	struct task_group *tg = container_of(timer, struct task_group,
					     leap.period_timer);
	struct leap_group *lg = &tg->leap;
	enum hrtimer_restart ret = HRTIMER_NORESTART;
	unsigned long flags;
	bool idle;

	raw_spin_lock_irqsave(&leap_rq_lock, flags);
	if (!lg->quota) {
		lg->runtime = 0;
		lg->used = 0;
		if (lg->throttled)
			leap_bw_unthrottle(tg);
		lg->timer_on = false;
		goto out;
	}
	if (lg->used)
		lg->nr_periods++;
	if (lg->used > lg->quota) {
		lg->nr_burst++;
		lg->burst_time += lg->used - lg->quota;
	}
	lg->runtime = min_t(s64, lg->runtime + lg->quota, lg->quota + lg->burst);
	idle = !lg->used && !lg->throttled;
	lg->used = 0;
	if (lg->throttled && lg->runtime > 0)
		leap_bw_unthrottle(tg);
	if (idle) {
		lg->timer_on = false;
	} else {
		hrtimer_forward_now(timer, ns_to_ktime(leap_bw_period(lg)));
		ret = HRTIMER_RESTART;
	}
out:
	raw_spin_unlock_irqrestore(&leap_rq_lock, flags);
	return ret;
}

/**
 * leap_group_charge - charge CPU time to the quotas above a task
 * @p:		the running task, counted in its group; leap_rq_lock held
 * @delta:	CPU time it ran since the last charge, ns
 *
 * Every group above @p with a quota pays @delta (its runtime goes no
 * lower than minus its quota); one whose runtime runs out is throttled.
 *
 * Return: true if a group above @p is throttled: @p must stop.
 */
bool leap_group_charge(struct task_struct *p, u64 delta)
{
	struct task_group *tg;
	bool throttled = false;

	lockdep_assert_held(&leap_rq_lock);
	if (!leap_bw_groups && list_empty(&leap_bw_throttled))
		return false;
	for (tg = p->leap.tg; tg && tg->parent; tg = tg->parent) {
		struct leap_group *lg = &tg->leap;

		if (lg->quota) {
			/*
			 * An overrun is paid from the next periods, up to one
			 * quota: tasks that ran on past the throttle (held
			 * locks, a CPU going down) do not keep the group, and
			 * a task killed while parked, throttled for long.
			 */
			lg->runtime = max_t(s64, lg->runtime - (s64)delta,
					    -(s64)lg->quota);
			lg->used += delta;
			if (!lg->timer_on)
				leap_bw_start(lg);
			if (lg->runtime <= 0 && !lg->throttled)
				leap_bw_throttle(tg);
		}
		throttled |= lg->throttled;
	}
	return throttled;
}

/**
 * leap_group_bw_limited - does a quota above a task limit it?
 * @p:	a task counted in its group; leap_rq_lock held
 *
 * A CPU running such a task keeps its tick on nohz_full, as the fair
 * class keeps it for a task with CFS bandwidth: the quota is charged
 * at the tick.
 *
 * Return: true if @p's group or one above it has a quota. O(depth), and
 * O(1) while no group has one.
 */
bool leap_group_bw_limited(struct task_struct *p)
{
	struct task_group *tg;

	lockdep_assert_held(&leap_rq_lock);
	if (!leap_bw_groups)
		return false;
	for (tg = p->leap.tg; tg && tg->parent; tg = tg->parent)
		if (tg->leap.quota)
			return true;
	return false;
}

/**
 * leap_group_throttled - the throttled group a task must wait for
 * @p:	a runnable task, counted in its group; leap_rq_lock held
 *
 * Return: the first throttled group from @p's up, or NULL. O(depth), and
 * O(1) while no group is throttled.
 */
struct task_group *leap_group_throttled(struct task_struct *p)
{
	struct task_group *tg;

	lockdep_assert_held(&leap_rq_lock);
	if (list_empty(&leap_bw_throttled))
		return NULL;
	for (tg = p->leap.tg; tg && tg->parent; tg = tg->parent)
		if (tg->leap.throttled)
			return tg;
	return NULL;
}

/**
 * leap_group_park - keep a runnable task off the queue until @tg renews
 * @p:	the task, runnable, on no run list and not running
 * @tg:	the throttled group (leap_group_throttled())
 */
void leap_group_park(struct task_struct *p, struct task_group *tg)
{
	lockdep_assert_held(&leap_rq_lock);
	list_add_tail(&p->leap.park_node, &tg->leap.parked);
	p->leap.parked_on = tg;
}

/**
 * leap_group_unpark - take a task off its group's parked list, if on one
 * @p:	the task, being dequeued; leap_rq_lock held
 */
void leap_group_unpark(struct task_struct *p)
{
	lockdep_assert_held(&leap_rq_lock);
	if (!p->leap.parked_on)
		return;
	list_del_init(&p->leap.park_node);
	p->leap.parked_on = NULL;
}

/**
 * leap_group_offline - requeue the parked tasks accounted to a dying CPU
 * @cpu:	the CPU going down; leap_rq_lock held
 *
 * The CPU's offline moves its runnable tasks' accounting away. A parked
 * task is not counted in the CPU's nr_running (leap.c, leap_park()), so
 * the offline would not wait for it, and it would stay accounted to the
 * dead CPU until its group renews: it goes back on the queue, counted
 * again, from where the offline moves it, and a pick on a CPU that stays
 * parks it again. O(parked tasks).
 */
void leap_group_offline(int cpu)
{
	struct task_struct *p, *n;
	struct leap_group *lg;
	LIST_HEAD(todo);

	lockdep_assert_held(&leap_rq_lock);
	list_for_each_entry(lg, &leap_bw_throttled, throttled_node)
		list_for_each_entry_safe(p, n, &lg->parked, leap.park_node)
			if (task_cpu(p) == cpu)
				list_move_tail(&p->leap.park_node, &todo);
	while (!list_empty(&todo)) {
		p = list_first_entry(&todo, struct task_struct, leap.park_node);
		list_del_init(&p->leap.park_node);
		p->leap.parked_on = NULL;
		leap_requeue(p, false);
	}
}

/**
 * leap_group_bandwidth - a task group's cpu.max and cpu.max.burst
 * @tg:		the group
 * @period_us:	its period, us
 * @quota_us:	its quota, us; RUNTIME_INF for none ("max")
 * @burst_us:	its burst, us
 */
void leap_group_bandwidth(struct task_group *tg, u64 *period_us,
			  u64 *quota_us, u64 *burst_us)
{
	struct leap_group *lg = &tg->leap;

	mutex_lock(&leap_shares_mutex);
	*period_us = div_u64(leap_bw_period(lg), NSEC_PER_USEC);
	*quota_us = lg->quota ? div_u64(lg->quota, NSEC_PER_USEC) : RUNTIME_INF;
	*burst_us = div_u64(lg->burst, NSEC_PER_USEC);
	mutex_unlock(&leap_shares_mutex);
}

/**
 * leap_group_set_bandwidth - set a task group's cpu.max and cpu.max.burst
 * @tg:		the group
 * @period:	the period, ns: 1 ms .. 1 s
 * @quota:	the quota, ns: at least 1 ms; RUNTIME_INF for none ("max")
 * @burst:	the burst, ns: at most the quota
 *
 * The checks and errors are those of the fair class's
 * tg_set_cfs_bandwidth(), whose bounds the LEAP_BW_* constants repeat. A
 * new quota takes effect at once: the runtime is the full quota, and a
 * group throttled under the old one is unthrottled.
 *
 * Return: 0; -EINVAL for the root group or a value out of range.
 */
int leap_group_set_bandwidth(struct task_group *tg, u64 period, u64 quota,
			     u64 burst)
{
	struct leap_group *lg = &tg->leap;
	u64 max = MAX_BW * NSEC_PER_USEC;
	unsigned long flags;
	int cpu;

	if (tg == &root_task_group)
		return -EINVAL;
	if (quota < LEAP_BW_PERIOD_MIN_NS || period < LEAP_BW_PERIOD_MIN_NS ||
	    period > LEAP_BW_PERIOD_MAX_NS)
		return -EINVAL;
	if (quota != RUNTIME_INF && (quota > max || burst > quota ||
				     burst + quota > max))
		return -EINVAL;
	if (quota == RUNTIME_INF)
		quota = 0;

	mutex_lock(&leap_shares_mutex);
	if (!lg->parked.next) {
		INIT_LIST_HEAD(&lg->parked);
		INIT_LIST_HEAD(&lg->throttled_node);
		hrtimer_init(&lg->period_timer, CLOCK_MONOTONIC,
			     HRTIMER_MODE_REL_PINNED_HARD);
		lg->period_timer.function = leap_bw_timer;
	}
	raw_spin_lock_irqsave(&leap_rq_lock, flags);
	if (quota && !lg->quota)
		leap_bw_groups++;
	else if (!quota && lg->quota)
		leap_bw_groups--;
	lg->period = period;
	lg->quota = quota;
	lg->burst = burst;
	lg->runtime = quota;
	if (lg->throttled)
		leap_bw_unthrottle(tg);
	/* A nohz_full CPU running one of its tasks decides on its tick again. */
	for_each_online_cpu(cpu) {
		struct rq *rq = cpu_rq(cpu);

		if (rq->leap.curr && leap_task_under(rq->leap.curr, tg))
			sched_update_tick_dependency(rq);
	}
	raw_spin_unlock_irqrestore(&leap_rq_lock, flags);
	mutex_unlock(&leap_shares_mutex);
	return 0;
}

/**
 * leap_group_bandwidth_stat - cpu.stat's throttling lines, as the fair
 * class prints them
 * @sf:	the cpu.stat file
 * @tg:	the group
 */
void leap_group_bandwidth_stat(struct seq_file *sf, struct task_group *tg)
{
	struct leap_group *lg = &tg->leap;
	unsigned int periods, throttled, bursts;
	u64 throttled_ns, burst_ns;
	unsigned long flags;

	raw_spin_lock_irqsave(&leap_rq_lock, flags);
	periods = lg->nr_periods;
	throttled = lg->nr_throttled;
	bursts = lg->nr_burst;
	throttled_ns = lg->throttled_time;
	if (lg->throttled)
		throttled_ns += ktime_get_ns() - lg->throttled_at;
	burst_ns = lg->burst_time;
	raw_spin_unlock_irqrestore(&leap_rq_lock, flags);
	seq_printf(sf, "nr_periods %u\nnr_throttled %u\nthrottled_usec %llu\n"
		   "nr_bursts %u\nburst_usec %llu\n", periods, throttled,
		   div_u64(throttled_ns, NSEC_PER_USEC), bursts,
		   div_u64(burst_ns, NSEC_PER_USEC));
}

/**
 * leap_group_release - a task group goes away: stop its period timer
 * @tg:	the group, with no task left in it; no lock held
 */
void leap_group_release(struct task_group *tg)
{
	struct leap_group *lg = &tg->leap;
	unsigned long flags;

	if (!lg->parked.next)
		return;
	raw_spin_lock_irqsave(&leap_rq_lock, flags);
	if (lg->quota)
		leap_bw_groups--;
	lg->quota = 0;
	if (lg->throttled) {
		lg->throttled = false;
		list_del_init(&lg->throttled_node);
	}
	WARN_ON_ONCE(!list_empty(&lg->parked));
	raw_spin_unlock_irqrestore(&leap_rq_lock, flags);
	hrtimer_cancel(&lg->period_timer);
}
