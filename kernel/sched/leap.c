// SPDX-License-Identifier: GPL-2.0-only
/*
 * LEAP: a BFS-style scheduling class with one global runqueue.
 *
 * LEAP owns every SCHED_FIFO, SCHED_RR, SCHED_ISO, SCHED_NORMAL,
 * SCHED_BATCH and SCHED_IDLE task from fork on, in place of the rt and
 * fair classes, which stay built but never own a task (their balancing is
 * switched off in core.c and sched.h). It sits between the deadline and
 * rt classes. Every task that is runnable and not running is on one skip
 * list, ordered by one 64-bit key (kernel/sched/leap.h): the realtime
 * prio, 100 for SCHED_ISO, else the virtual deadline, BFS style.
 *
 * What holds of the order: a task queued with a smaller key than a
 * running task it may replace makes that CPU reschedule at once, except
 * (a) between two deadline keys, less than LEAP_WAKEUP_GRAN_NS after the
 * running task was picked (then at that CPU's first tick after it),
 * unless the queued task is light and was woken by an interrupt;
 * (b) on a CPU with a reschedule already pending, which picks the best
 * task anyway; (c) against a sticky task or a synchronous wakee, which
 * other CPUs compare by its offset key, the latter until its CPU picks
 * or ticks; (d) when the queued task is BATCH or IDLE, which never
 * preempt. Up to those, the N smallest keys that may run are running.
 *
 *  - pick: the first task on level 0 that may run on this CPU. A task
 *    preempted here with slice left is "sticky": it is queued with its
 *    key pushed back one rr_interval (leap_sticky_key()), so other CPUs
 *    prefer other work, while this CPU compares it by its real key.
 *    The running task is not on the list; its key is kept per CPU
 *    (leap_rq.curr_key) for preemption.
 *  - wakeup: the task goes to the best idle CPU it may use, ranked by
 *    cache distance from where it last ran, a fully idle SMT core first;
 *    with none idle, the CPU
 *    running the latest key is preempted if the new key is earlier.
 *    Between two deadline keys the preemption waits until the running
 *    task has had LEAP_WAKEUP_GRAN_NS since it was picked: without that,
 *    every message in a pipe or socket storm (hackbench) cost two
 *    context switches. A light task (below) woken by an interrupt (its
 *    timer, a device: no waker that is about to block) preempts at
 *    once. A synchronous wakeup (WF_SYNC: a pipe or socket write) by
 *    the only task of its CPU, with no task waiting on the queue, stays
 *    on that CPU, queued at its sticky key, with no other CPU kicked,
 *    until the waker blocks and the CPU picks it; if the CPU picks
 *    another task or ticks first, it gets its key back and a CPU as at
 *    any wakeup (leap_sync_release()). A pipe's pair shares one warm
 *    CPU instead of waking an idle one for every message. Such a
 *    wakeup takes no lock: the wakee waits in a slot of its CPU
 *    (leap_ttwu_defer()) for the waker's schedule(), which holds the
 *    lock anyway and queues it, or for the CPU's second tick. A wakeup
 *    without WF_SYNC (a futex's) is held so too if the waker's runs are
 *    short and the wakee either last woke its waker (the two take
 *    turns) or last ran there with no other CPU idle (leap_pair_here()):
 *    a futex pair shares a CPU, and two pairs on two CPUs keep theirs.
 *    A waker that ran on past two holds in a row has a turn-taking
 *    wakee held beside an idle CPU again only LEAP_PAIR_BACKOFF_MS
 *    later.
 *  - light wakeup: a NORMAL (or refractory ISO) task that wakes while
 *    its average run between sleeps, against its average sleep, is no
 *    more than its nice-weighted share of the CPUs it may use
 *    (leap_light()) is queued at the start of its burst -
 *    leap_light_lead() plus the span of its average run (at its group's
 *    rate, for a group task), scaled by the part of its share it uses
 *    (leap_light_part()): before every busy task a round robin leaves
 *    behind, and among light tasks by wakeup plus expected run.
 *    So it waits for the wakeup granularity and the light tasks ahead,
 *    not for the busy ones, however many; those keep what the light
 *    tasks leave, shared by deadline as before, and one that light
 *    tasks kept waiting longer than the lead goes first. The averages
 *    cost four u64 a task.
 *  - realtime: FIFO never expires, RR rotates every sched_rr_timeslice
 *    (kernel.sched_rr_timeslice_ms, as on mainline), ISO every
 *    rr_interval; a realtime task preempted by a smaller key goes back to
 *    the head of its key. Per CPU, realtime keys get sched_rt_runtime_us
 *    of every sched_rt_period_us while other work waits (mainline's
 *    throttling), less the time mainline's fair server keeps for fair
 *    tasks even with throttling off (leap_rt_runtime()), and
 *    RLIMIT_RTTIME is enforced as by the rt class.
 *  - SCHED_ISO: unprivileged soft realtime at key 100, while ISO+RT use
 *    of its CPU over 5 s stays under kernel.iso_cpu percent; above it,
 *    the ISO tasks on that CPU are refractory and sort as NORMAL until
 *    its use drops under 90% of the cap. ISO does not spend the CPU's
 *    realtime runtime, and the cap holds with sched_rt_runtime_us -1.
 *  - SCHED_IDLE: runs when nothing else wants the CPU, but never hangs
 *    others: one held for others (fatal signal, exit, freezer, RCU
 *    read side, woken from an uninterruptible sleep) sorts as NORMAL,
 *    and any other gets a LEAP_IDLE_RUN_NS turn once its deadline,
 *    leap_idle_span() ahead, is the earliest.
 *  - cgroup cpu groups and autogroup: a task of a group other than the
 *    root gets a rate from the weights up its group tree
 *    (leap_group.c), and its deadline the span that gives it slices at
 *    that rate, given how late the CPU picks busy tasks against their
 *    deadlines (its frontier; leap_frontier_sample()). Root
 *    tasks keep their nice spans. While its group is over its share
 *    (leap_group_over()), a group task gets no light key, and one it
 *    holds lapses, at its wakeup or renewal or when a pick meets it
 *    (leap_light_lapse()), as does a deadline older than the lead; a
 *    busy deadline that passed moves to the clock at its wakeup or
 *    when a pick meets it, once until it runs (leap_dl_hold()).
 *    When the load falls, so that the frontier a group task's span took
 *    is more than twice what the load allows now, the runnable group
 *    tasks' deadlines are pulled back to their spans of now
 *    (leap_rebase()).
 *  - no load balancer: a global queue has nothing to balance.
 *  - cpufreq: a CPU's LEAP busy time feeds its PELT rt signal
 *    (rq->avg_rt), which schedutil reads as it reads rt's; a busy CPU's
 *    tick decays the idle CPUs' signal every LEAP_SWEEP_NS.
 *  - NO_HZ_FULL: the tick stays on while the list holds a task, on every
 *    nohz_full CPU (leap_nohz_full_update()), and while a CPU runs a
 *    realtime task with an RLIMIT_RTTIME or another task under a cpu.max
 *    quota (leap_needs_tick()).
 *
 * A task is accounted (rq->nr_running, loadavg, PSI, sched_info) to
 * task_cpu()'s rq whether queued or running; one parked by cpu.max is
 * out of rq->nr_running (and loadavg) until requeued. A CPU that picks a task
 * accounted elsewhere moves the accounting with deactivate_task(),
 * set_task_cpu() and activate_task() inside one critical section, so
 * core's invariants (TASK_ON_RQ_MIGRATING never seen unlocked, PSI
 * state per CPU) hold as they do for rt's pull.
 *
 * Cost: enqueue O(log n), n = queued tasks; dequeue O(1) expected
 * (O(level of the node)); pick O(1) when the first task may run here,
 * else O(k) for k tasks skipped (tasks that may not run on this CPU;
 * twice that on a realtime-throttled CPU); wakeup placement O(number of
 * CPUs), to which the light test adds O(1). A CPU's ISO refractory change
 * re-keys the queued ISO tasks accounted to it, through its own list:
 * O(those tasks), a few times in a 5 s window. The idle sweep is O(CPUs)
 * every LEAP_SWEEP_NS. A rebase of the group tasks' deadlines sees at
 * most LEAP_REBASE_BATCH of them a tick, O(log n) each it moves.
 * Nothing allocates on enqueue, dequeue or pick: the list node is in
 * task_struct.
 *
 * Locking: one raw spinlock, leap_rq_lock, is every rq's lock
 * (rq_lockp(), sched.h). It protects the list, niffies, and every
 * struct leap_rq and sched_leap_entity. Class hooks are called with it
 * held and never drop it; they never take another rq lock, wake a task
 * or sleep. select_task_rq reads curr_key and idle state without it, as
 * hints that the enqueue under the lock then corrects. A CPU's slot for
 * a deferred synchronous wakee (leap_rq.ttwu_task) is that CPU's own:
 * filled with interrupts off in try_to_wake_up(), emptied under the lock
 * by its schedule() or tick. Unlike mainline, a CPU lets go of the lock
 * before its context switch, not after (leap_switch_unlock()), unless a
 * balance callback is queued: until the previous task's on_cpu clears,
 * other CPUs' picks skip it if it is queued (leap_switching_out()), and
 * the switching CPU finds it a CPU afterwards if one did.
 *
 * Copyright (C) 2026 LEAP developers
 */
#include <linux/debugfs.h>
#include <linux/freezer.h>
#include <linux/kthread.h>
#include <linux/posix-timers.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sysctl.h>

#include <linux/mmu_context.h>
#include <linux/cpumask_api.h>
#include <linux/spinlock_api.h>

#include "sched.h"
#include "pelt.h"

/* The lock of every runqueue (see rq_lockp()); static, from boot on. */
DEFINE_RAW_SPINLOCK(leap_rq_lock);

/*
 * prio_ratio: 128 for nice -20, then 10% more a nice level, rounded
 * down at each step. Index nice + 20.
 */
const u16 leap_prio_ratios[NICE_WIDTH] = {
	 128,  140,  154,  169,  185,  203,  223,  245,  269,  295,
	 324,  356,  391,  430,  473,  520,  572,  629,  691,  760,
	 836,  919, 1010, 1111, 1222, 1344, 1478, 1625, 1787, 1965,
	2161, 2377, 2614, 2875, 3162, 3478, 3825, 4207, 4627, 5089,
};

/* kernel.rr_interval, in ms. */
static int sysctl_leap_rr_interval = LEAP_RR_INTERVAL_DEF;

/* kernel.iso_cpu, percent of all CPUs that ISO+RT tasks may use. */
static int sysctl_leap_iso_cpu = LEAP_ISO_CPU_DEF;

/* How often a busy CPU's tick brings the idle CPUs' state up to date. */
#define LEAP_SWEEP_NS		(32 * NSEC_PER_MSEC)

/* Added to an idle CPU's rank when an SMT sibling of it is busy. */
#define LEAP_DIST_BUSY_CORE	5

/**
 * struct leap_queue - the global runqueue
 * @list:	runnable, not running LEAP tasks, by key
 * @niffies:	LEAP's clock: the latest rq clock seen, ns, monotonic
 * @rand:	state for the skip list's level choice
 * @swept:	niffies of the last leap_sweep_idle()
 * @saved:	the list a task was on when a change kept it queued
 *		(dequeue_task_leap() with DEQUEUE_SAVE): its restore may need
 *		another list if its affinity changed
 * @moving:	leap_move() is moving a queued task's accounting: its
 *		enqueue needs no CPU found for it
 * @nr:		LEAP tasks runnable (queued or running), for leap_light()
 * @lead_load:	the light lead's load term (leap_lead())
 * @lead_at:	niffies when @lead_load was last set
 * @groups:	the runnable tasks of groups other than the root, oldest
 *		first once a rebase has seen them (leap_rebase())
 * @nr_groups:	how many tasks @groups holds
 * @group_late:	the largest frontier a group task's span took
 *		(leap_span()) since the last rebase began
 * @rebase_left: group tasks that the rebase under way has still to see
 * @rebases:	rebases begun since boot (debugfs)
 * @passes:	picks that skipped a task still switching out on another
 *		CPU (leap_switching_out()), since boot (debugfs)
 */
static struct leap_queue {
	struct skiplist	list;
	u64		niffies;
	u64		rand;
	u64		swept;
	struct skiplist	*saved;
	bool		moving;
	unsigned int	nr;
	u64		lead_load;
	u64		lead_at;
	struct list_head groups;
	unsigned int	nr_groups;
	s64		group_late;
	unsigned int	rebase_left;
	unsigned int	rebases;
	unsigned long	passes;
} leap_q = {
	.groups		= LIST_HEAD_INIT(leap_q.groups),
	.group_late	= S64_MIN,
};

static inline struct task_struct *leap_task_of(const struct skiplist_node *node)
{
	return skiplist_entry(node, struct task_struct, leap.node);
}

static inline unsigned int leap_rr_ms(void)
{
	return READ_ONCE(sysctl_leap_rr_interval);
}

static inline bool leap_queued(struct task_struct *p)
{
	return skiplist_node_queued(&p->leap.node);
}

/* Advance niffies to @rq's clock (which the caller has updated). */
static u64 leap_clock(struct rq *rq)
{
	u64 now = rq_clock(rq);

	if (now > leap_q.niffies)
		leap_q.niffies = now;
	return leap_q.niffies;
}

/* An ISO task's key follows the refractory state of the CPU it is on. */
static inline u64 leap_task_key(struct task_struct *p)
{
	return leap_key(p->prio, p->policy,
			!cpu_rq(task_cpu(p))->leap.iso_refractory,
			p->leap.deadline);
}

/* A realtime key: FIFO, RR or PI-boosted. */
static inline bool leap_rt(struct task_struct *p)
{
	return p->prio < MAX_RT_PRIO;
}

/* Does @p's slice run out? Not for FIFO, nor a boosted non-RR task. */
static inline bool leap_has_slice(struct task_struct *p)
{
	return !leap_rt(p) || p->policy == SCHED_RR;
}

/* A SCHED_IDLE task that nobody waits for (not lifted, not boosted). */
static inline bool leap_idle(struct task_struct *p)
{
	return p->policy == SCHED_IDLE && !p->leap.lifted && !leap_rt(p);
}

/* May @p preempt a running task? BATCH and IDLE never do (unless boosted). */
static inline bool leap_may_preempt(struct task_struct *p)
{
	return leap_rt(p) || (p->policy != SCHED_BATCH && !leap_idle(p));
}

/* Is @p counted in a cgroup cpu group other than the root? */
static inline bool leap_in_group(struct task_struct *p)
{
#ifdef CONFIG_CGROUP_SCHED
	return p->leap.tg && p->leap.tg->parent;
#else
	return false;
#endif
}

/*
 * The runnable count the light rule and leap_frontier_clamp() take: the
 * root round robin's length in nice-0 tasks (leap_group_runnable());
 * without the cgroup cpu controller, every runnable LEAP task.
 */
static unsigned int leap_runnable(void)
{
#ifdef CONFIG_CGROUP_SCHED
	return leap_group_runnable();
#else
	return leap_q.nr;
#endif
}

/*
 * The span of @p's deadline for @run ns of CPU time: by its rate in its
 * group (leap_group_span(), from its CPU's frontier,
 * leap_frontier_clamp()), or by its nice.
 */
static s64 leap_span(struct task_struct *p, u64 run)
{
	u64 rr = (u64)leap_rr_ms() * NSEC_PER_MSEC;

	if (leap_in_group(p)) {
		unsigned int nr = leap_runnable(), rr_ms = leap_rr_ms();
		s64 late = leap_frontier_clamp(task_rq(p)->leap.frontier, nr,
					     rr_ms), own;

		/*
		 * Its period from the CPU's frontier; the part of its span
		 * that waits out its lateness from its own: tasks with
		 * short spans are picked earlier against their deadlines
		 * than those with long ones.
		 */
		own = p->leap.late_set ?
		      leap_frontier_clamp(p->leap.late, nr, rr_ms) : late;
		leap_q.group_late = max(leap_q.group_late, late);
		return clamp_t(s64, leap_group_span(leap_group_rho(p), late, run,
						    rr_ms) +
			       clamp_t(s64, late, -LEAP_FRONTIER_MAX_NS,
				       LEAP_FRONTIER_MAX_NS) - own,
			       -LEAP_GROUP_SPAN_MAX_NS, LEAP_GROUP_SPAN_MAX_NS);
	}
	return leap_deadline_span(p->prio, leap_rr_ms()) +
	       (run > rr ? leap_run_span(p->prio, run - rr) : 0);
}

/*
 * A new deadline from now, for the task's current prio (or its rate in
 * its group) and a slice of @run; an IDLE task's lies leap_idle_span()
 * ahead.
 */
static void __leap_new_deadline(struct task_struct *p, u64 now, u64 run)
{
	u64 rr = (u64)leap_rr_ms() * NSEC_PER_MSEC;

	if (leap_idle(p))
		p->leap.deadline = now + leap_idle_span(leap_rr_ms()) +
				   (run > rr ? leap_run_span(p->prio, run - rr) : 0);
	else
		p->leap.deadline = leap_add_span(now, leap_span(p, run));
	p->leap.prio = p->prio;
	p->leap.light_key = false;
}

static void leap_new_deadline(struct task_struct *p, u64 now)
{
	__leap_new_deadline(p, now, (u64)leap_rr_ms() * NSEC_PER_MSEC);
}

/*
 * The slice: kernel.sched_rr_timeslice_ms for SCHED_RR (mainline's knob,
 * which sched_rr_get_interval() reports), rr_interval for every other.
 */
static inline s64 leap_slice_ns(struct task_struct *p)
{
	if (p->policy == SCHED_RR)
		return jiffies_to_nsecs(READ_ONCE(sched_rr_timeslice));
	return (s64)leap_rr_ms() * NSEC_PER_MSEC;
}

/*
 * A full slice and a new deadline: the slice ran out. If it overran (the
 * tick came late), the new deadline moves back by the overrun too.
 */
static void leap_renew(struct task_struct *p, u64 now)
{
	s64 over = -p->leap.time_slice;
	u64 rr = (u64)leap_rr_ms() * NSEC_PER_MSEC;

	p->leap.woke_held = false;
	p->leap.sample_ok = false;
	p->leap.time_slice = leap_slice_ns(p);
	__leap_new_deadline(p, now, over > 0 ? rr + over : rr);
}

/*
 * Must SCHED_IDLE task @p run soon because others wait for it? With a
 * fatal signal pending, exiting or being frozen it must run to finish;
 * preempted inside an RCU read-side section it holds up every grace
 * period; woken from an uninterruptible sleep (a lock, I/O) it likely
 * holds what it slept for. MuQSS's idleprio_suitable() is the precedent.
 * A lock taken without sleeping is invisible here: leap_idle_span()
 * bounds that case.
 */
static bool leap_held(struct task_struct *p)
{
	if (p->leap.woke_held || (p->flags & PF_EXITING) ||
	    fatal_signal_pending(p) || freezing(p))
		return true;
#ifdef CONFIG_PREEMPT_RCU
	if (p->rcu_read_lock_nesting > 0)
		return true;
#endif
	return false;
}

static bool leap_idle_must_run(struct task_struct *p)
{
	return p->policy == SCHED_IDLE && !leap_rt(p) && leap_held(p);
}

/*
 * Before @p is keyed: lift a SCHED_IDLE task others wait for to NORMAL,
 * with the deadline of a NORMAL task of its nice from @now; drop the lift
 * once the reason is gone (its next deadline is an idle one again). A
 * task of a group whose small weight (cpu.idle, or a low cpu.weight
 * among busy siblings) puts its deadline further away than an IDLE
 * task's gets one a nice-0 span away while others may wait for it, for
 * the same reasons.
 */
static void leap_lift(struct task_struct *p, u64 now)
{
	bool lift = leap_idle_must_run(p);

	if (leap_in_group(p) && !leap_rt(p) && !leap_idle(p) &&
	    p->leap.deadline > now + leap_idle_span(leap_rr_ms()) && leap_held(p))
		p->leap.deadline = now + leap_deadline_span(NICE_TO_PRIO(0),
							     leap_rr_ms());
	if (lift == p->leap.lifted)
		return;
	p->leap.lifted = lift;
	if (lift)
		p->leap.deadline = now + leap_deadline_span(p->prio, leap_rr_ms());
}

/*
 * NO_HZ_FULL: sched_can_stop_tick() keeps the tick while the global list
 * holds a task. When the list gains its first task or loses its last,
 * every nohz_full CPU decides again, not only the CPU the task is
 * accounted to: a CPU whose tick stopped would otherwise run its task
 * past its slice while others wait. O(nohz_full CPUs), at those two
 * transitions only.
 */
static void leap_nohz_full_update(void)
{
#ifdef CONFIG_NO_HZ_FULL
	int cpu;

	if (!tick_nohz_full_enabled())
		return;
	for_each_cpu_and(cpu, tick_nohz_full_mask, cpu_online_mask)
		sched_update_tick_dependency(cpu_rq(cpu));
#endif
}

/*
 * The list @p queues on: the global one, or, when it may run on one CPU
 * only (pinned, or migration disabled), that CPU's own, so that no other
 * CPU's pick ever walks past it. A queued task's affinity changes only
 * inside a dequeue/enqueue (or a save/restore, see leap_q.saved), so it
 * is on this list for as long as it is queued.
 */
static struct skiplist *leap_list_of(struct task_struct *p)
{
	if (p->nr_cpus_allowed == 1)
		return &cpu_rq(cpumask_first(p->cpus_ptr))->leap.pinned;
	return &leap_q.list;
}

/*
 * @sl gained its first task or lost its last: the tick-stop decision
 * changes for every nohz_full CPU (the global list) or for the one CPU
 * whose pinned list it is.
 */
static void leap_list_changed(struct skiplist *sl)
{
	struct leap_rq *lr;

	if (sl == &leap_q.list) {
		leap_nohz_full_update();
		return;
	}
	lr = container_of(sl, struct leap_rq, pinned);
	sched_update_tick_dependency(container_of(lr, struct rq, leap));
}

/* A queued ISO task is on its CPU's list too, for leap_iso_rekey(). */
static void leap_linked(struct task_struct *p, struct skiplist *sl,
			bool was_empty)
{
	if (p->policy == SCHED_ISO && !leap_rt(p))
		list_add_tail(&p->leap.iso_node, &task_rq(p)->leap.iso_queued);
	if (was_empty)
		leap_list_changed(sl);
}

static void leap_insert(struct task_struct *p, u64 key)
{
	struct skiplist *sl = leap_list_of(p);
	bool was_empty = skiplist_empty(sl);

	skiplist_insert(sl, &p->leap.node, key, skiplist_rand_next(&leap_q.rand));
	leap_linked(p, sl, was_empty);
}

/* Before the tasks with the same key: a preempted realtime task. */
static void leap_insert_head(struct task_struct *p, u64 key)
{
	struct skiplist *sl = leap_list_of(p);
	bool was_empty = skiplist_empty(sl);

	skiplist_insert_head(sl, &p->leap.node, key,
			     skiplist_rand_next(&leap_q.rand));
	leap_linked(p, sl, was_empty);
}

/* Off list @sl, which @p is on. */
static void __leap_unlink(struct task_struct *p, struct skiplist *sl)
{
	skiplist_del(sl, &p->leap.node);
	list_del_init(&p->leap.iso_node);
	if (skiplist_empty(sl))
		leap_list_changed(sl);
}

static void leap_unlink(struct task_struct *p)
{
	if (leap_queued(p))
		__leap_unlink(p, leap_list_of(p));
}

/*
 * Queued @p back at its own key: a sticky task or a synchronous wakee
 * that its CPU no longer holds (both are queued later for other CPUs).
 */
static void leap_requeue_own(struct task_struct *p)
{
	leap_unlink(p);
	leap_insert(p, leap_task_key(p));
}

/*
 * May @p run on @cpu, which it is allowed on? The same rules as core's
 * is_cpu_allowed(), plus a migration-disabled task only where it is:
 * set_task_cpu() must never move it.
 */
static bool __leap_cpu_allowed(struct task_struct *p, int cpu)
{
	if (is_migration_disabled(p))
		return task_cpu(p) == cpu && cpu_online(cpu);
	if (!(p->flags & PF_KTHREAD))
		return cpu_active(cpu);
	if (kthread_is_per_cpu(p))
		return cpu_online(cpu);
	if (cpu_dying(cpu))
		return false;
	return cpu_online(cpu);
}

/*
 * May @p run on @cpu now? Usually __leap_cpu_allowed(). But a task whose
 * every allowed CPU is going down (pinned to the CPU being offlined) runs
 * on its own CPU while that is still online, as it would on mainline's
 * per-CPU queue: balance_push() then moves it with select_fallback_rq().
 * Otherwise no CPU would ever take it, and the offline would wait for it
 * forever in sched_cpu_wait_empty().
 */
static bool leap_cpu_allowed(struct task_struct *p, int cpu)
{
	int other;

	if (!cpumask_test_cpu(cpu, p->cpus_ptr))
		return false;
	if (likely(__leap_cpu_allowed(p, cpu)))
		return true;
	if (task_cpu(p) != cpu || !cpu_online(cpu))
		return false;
	for_each_cpu(other, p->cpus_ptr)
		if (other != cpu && __leap_cpu_allowed(p, other))
			return false;
	return true;
}

/* 0 same CPU, 1 SMT sibling, 2 shared LLC, 3 same node, 4 other. */
static int leap_cpu_distance(int from, int to)
{
	if (from == to)
		return 0;
#ifdef CONFIG_SCHED_SMT
	if (cpumask_test_cpu(to, cpu_smt_mask(from)))
		return 1;
#endif
	if (cpus_share_cache(from, to))
		return 2;
	if (cpu_to_node(from) == cpu_to_node(to))
		return 3;
	return 4;
}

/* Is an SMT sibling of @cpu running something? */
static bool leap_core_busy(int cpu)
{
#ifdef CONFIG_SCHED_SMT
	int sib;

	if (!sched_smt_active())
		return false;
	for_each_cpu(sib, cpu_smt_mask(cpu))
		if (sib != cpu && !idle_cpu(sib))
			return true;
#endif
	return false;
}

/*
 * The rank of idle CPU @cpu for a task that last ran on @from, lower is
 * better: the cache distance, after every CPU of a fully idle core (two
 * threads of one core share its execution units; MuQSS ranks so too).
 */
static int leap_idle_rank(int from, int cpu)
{
	return leap_cpu_distance(from, cpu) +
	       (leap_core_busy(cpu) ? LEAP_DIST_BUSY_CORE : 0);
}

/* Move @p's accounting from @src to @dst; @p stays runnable, not running. */
static void leap_move(struct task_struct *p, struct rq *src, struct rq *dst,
		      int enqueue_flags)
{
	deactivate_task(src, p, 0);
	set_task_cpu(p, cpu_of(dst));
	leap_q.moving = true;
	activate_task(dst, p, enqueue_flags);
	leap_q.moving = false;
	/*
	 * A CPU going down waits for its nr_running to drop; only its own
	 * schedule() notices (balance_push()). Make it look.
	 */
	if (unlikely(!cpu_active(cpu_of(src))) && src != this_rq())
		resched_curr(src);
}

/*
 * Does a waking task with key @key wait for @rq's task, key @ck, to have
 * run LEAP_WAKEUP_GRAN_NS? Only between two deadline keys: a realtime or
 * ISO key, or a CPU whose realtime runtime is used up (@ck U64_MAX),
 * preempts at once.
 */
static bool leap_wake_defers(struct rq *rq, u64 key, u64 ck)
{
	return key > LEAP_ISO_KEY && ck != U64_MAX &&
	       leap_q.niffies - rq->leap.picked < LEAP_WAKEUP_GRAN_NS;
}

/*
 * Is the task being queued woken by an interrupt (a timer, a device), not
 * by a task? A task's wakeup sent to this CPU from another (the wakelist:
 * this rq's ttwu_pending) also arrives in an interrupt, and counts as a
 * task's.
 */
static bool leap_woken_by_irq(void)
{
	return !in_task() && !READ_ONCE(this_rq()->ttwu_pending);
}

/* At the tick: a waking task waited for this CPU's granularity; now go. */
static void leap_wake_tick(struct rq *rq)
{
	if (rq->leap.wake_pending &&
	    leap_q.niffies - rq->leap.picked >= LEAP_WAKEUP_GRAN_NS) {
		rq->leap.wake_pending = false;
		resched_curr(rq);
	}
}

/*
 * @p has just been queued: find it a CPU, under the lock, so that no
 * queued task waits while a CPU it may use idles. Prefer an idle CPU
 * close to where @p last ran; else, if @preempt and @p may preempt
 * (BATCH and IDLE never do), the CPU running the latest key, if later
 * than @p's. A CPU whose realtime runtime is used up is no victim for a
 * realtime or ISO task, and the first victim for any other if it runs a
 * realtime or ISO one: it runs other work first. Idle CPUs rank by
 * leap_idle_rank().
 * A CPU with a reschedule already pending is left out: it will pick the
 * best task anyway, and a second task needs a second CPU.
 * Between deadline keys, a CPU whose task was picked less than
 * LEAP_WAKEUP_GRAN_NS ago is preempted only if no other CPU will do,
 * and then at its next tick after that (leap_wake_tick()), unless
 * @prompt: a light task woken by an interrupt has no waker about to
 * block, and preempts at once.
 */
static void leap_find_cpu(struct task_struct *p, bool preempt, bool prompt)
{
	int from = task_cpu(p), idle = -1, victim = -1, best = INT_MAX, cpu;
	u64 key = leap_task_key(p), latest = key, latest_new = key;
	int fresh = -1;
	bool rt = key <= LEAP_ISO_KEY;

	preempt = preempt && leap_may_preempt(p);

	for_each_cpu(cpu, p->cpus_ptr) {
		struct rq *rq = cpu_rq(cpu);
		int d;

		if (!leap_cpu_allowed(p, cpu) || test_tsk_need_resched(rq->curr))
			continue;
		if (rq->curr == rq->idle) {
			d = leap_idle_rank(from, cpu);
			if (d < best) {
				best = d;
				idle = cpu;
				if (!d)
					break;
			}
		} else if (rq->leap.curr) {
			u64 ck = rq->leap.curr_key;

			/*
			 * A CPU past its realtime runtime takes no realtime
			 * or ISO task from another, and runs any other before
			 * its own. If it runs one anyway (nothing else wants
			 * it), keys compare as usual between them.
			 */
			if (rq->leap.rt_throttled) {
				if (rt && ck > LEAP_ISO_KEY)
					continue;
				if (!rt && ck <= LEAP_ISO_KEY)
					ck = U64_MAX;
			}
			if (!(preempt || ck == U64_MAX))
				continue;
			if (!prompt && leap_wake_defers(rq, key, ck)) {
				if (ck > latest_new) {
					latest_new = ck;
					fresh = cpu;
				}
			} else if (ck > latest) {
				latest = ck;
				victim = cpu;
			}
		}
	}
	if (idle >= 0)
		resched_curr(cpu_rq(idle));
	else if (victim >= 0)
		resched_curr(cpu_rq(victim));
	else if (fresh >= 0)
		cpu_rq(fresh)->leap.wake_pending = true;
}

/*
 * Does no task wait on the global list but the synchronous wakees that
 * CPUs other than @this_cpu hold? Those are not waiting for a CPU: each
 * runs where it is held once its waker blocks, an instant later, so a
 * wakee held here too takes no CPU from them (two ping-pong pairs on
 * two CPUs each keep theirs). A hint, read without the lock: O(1) with
 * the list empty, else O(CPUs), and only while the list is shorter than
 * the number of CPUs. The task pointers are read in the caller's
 * interrupts-off section, an RCU read side: a held task seen here is not
 * freed before it ends.
 */
static bool leap_only_held_queued(int this_cpu)
{
	unsigned int n = skiplist_count(&leap_q.list), held = 0;
	int cpu;

	if (!n)
		return true;
	if (n >= num_online_cpus())
		return false;
	for_each_online_cpu(cpu) {
		struct task_struct *t = READ_ONCE(cpu_rq(cpu)->leap.sync_wait);

		/* One pinned is on its CPU's own list, not this one. */
		if (cpu != this_cpu && t && READ_ONCE(t->nr_cpus_allowed) > 1)
			held++;
	}
	return held >= n;
}

/*
 * May @p be held on @cpu as a synchronous wakee? Not realtime or ISO
 * (those keep their prompt placement), and allowed there.
 */
static bool leap_sync_wakee_ok(struct task_struct *p, int cpu)
{
	return !leap_rt(p) && p->policy != SCHED_ISO &&
	       cpumask_test_cpu(cpu, p->cpus_ptr) && leap_cpu_allowed(p, cpu);
}

/*
 * Is a wakeup without WF_SYNC (a futex's) of @p, by the task running on
 * @cpu, one of a pair that takes turns on @cpu? The waker's runs between
 * sleeps are short (it blocks soon, as a synchronous waker says it
 * will), and either @p's own last wakeup was of its waker (the two take
 * turns: a futex ping-pong, a handoff through a condition variable) or
 * @p last ran here and no other CPU @p may use is idle. Then @p waits
 * for its waker here, on a warm cache, as a synchronous wakee does: a
 * pair shares one CPU instead of sending every turn to an idle one (an
 * IPI and an idle exit a turn), and two pairs on two CPUs keep theirs
 * instead of each taking the other's CPU when that pair's task blocks.
 * A waker that does not block holds it at most two ticks; after
 * LEAP_PAIR_STRIKES such holds in a row, its wakees are held beside an
 * idle CPU again only once LEAP_PAIR_BACKOFF_MS have passed
 * (leap_pair_backoff()), so a waker that wakes and works on (a mutex's
 * unlock) keeps an idle CPU from its wakee for at most two ticks in that
 * time, or twice that if a hold worked in between. The backoff is the
 * waker's own: other tasks' holds on its CPU go on. O(1), and O(CPUs)
 * for the idle scan.
 */
static bool leap_pair_here(struct task_struct *p, int cpu)
{
	int other;

	if (current->leap.burst >= LEAP_WAKEUP_GRAN_NS ||
	    current->leap.awake >= LEAP_WAKEUP_GRAN_NS)
		return false;
	if (READ_ONCE(p->last_wakee) == current &&
	    time_after_eq64(get_jiffies_64(),
			    READ_ONCE(current->leap.pair_retry)))
		return true;
	if (task_cpu(p) != cpu)
		return false;
	for_each_cpu_and(other, p->cpus_ptr, cpu_active_mask)
		if (other != cpu && available_idle_cpu(other))
			return false;
	return true;
}

/*
 * The waker running on @rq, its only task, went on running past the
 * hold of its wakee. Its LEAP_PAIR_STRIKES-th such hold in a row, with
 * none between that ended in its wakee's pick (pick_task_leap()), backs
 * it off: a wakee that takes turns with it is then held only as any
 * other, with no CPU idle, for LEAP_PAIR_BACKOFF_MS (leap_pair_here()).
 * The count is not reset by the backoff, so a waker that never blocks
 * backs off again at its first overrun after it. The waker's own, not
 * its CPU's: a task that writes and then exits, or a pair that the
 * emulator stalls once, stops no other pair on that CPU. Called under
 * the lock, from @rq's tick.
 */
static void leap_pair_backoff(struct rq *rq)
{
	struct task_struct *waker = rq->curr;

	rq->leap.pair_overruns++;
	if (is_idle_task(waker) ||
	    ++waker->leap.pair_strikes < LEAP_PAIR_STRIKES)
		return;
	waker->leap.pair_strikes = LEAP_PAIR_STRIKES;
	WRITE_ONCE(waker->leap.pair_retry,
		   get_jiffies_64() + msecs_to_jiffies(LEAP_PAIR_BACKOFF_MS));
	rq->leap.pair_backoffs++;
}

/*
 * A synchronous wakeup (a pipe or socket write: WF_SYNC) by a task that
 * runs alone on its CPU, in task context, says that the waker is about
 * to block: the wakee runs best here, next, on a warm cache, and an idle
 * CPU woken for it (an IPI, an idle exit) would only take turns with
 * this one, the pair bouncing between them. Only while no task waits on
 * the queue (leap_only_held_queued()): otherwise the CPU the waker
 * leaves belongs to the earliest of them, and holding it for the wakee
 * would reorder the queue (in pipe and socket storms that cost up to
 * 9 % of their time, as measured in sched-leap.rst). Only NORMAL, BATCH
 * and IDLE wakers and wakees: realtime and ISO ones keep their prompt
 * placement. A wakeup without WF_SYNC qualifies too when it looks like
 * a pair's turn (leap_pair_here()). Hints read without the lock
 * (select_task_rq_leap()).
 */
static bool leap_sync_here(struct task_struct *p, int cpu, int wake_flags)
{
	struct rq *rq = cpu_rq(cpu);

	/* The pair's test, with its scan of CPUs, only once the rest hold. */
	return in_task() &&
	       !(current->flags & PF_EXITING) &&
	       current->sched_class == &leap_sched_class &&
	       rq->curr == current && rq->nr_running == 1 &&
	       !rq->leap.ttwu_task && leap_only_held_queued(cpu) &&
	       skiplist_empty(&rq->leap.pinned) &&
	       !leap_rt(current) && current->policy != SCHED_ISO &&
	       cpu_active(cpu) && leap_sync_wakee_ok(p, cpu) &&
	       ((wake_flags & WF_SYNC) || leap_pair_here(p, cpu));
}

/**
 * leap_ttwu_defer - leave a synchronous wakee for this CPU's next schedule
 * @p:		the task being woken, TASK_WAKING, not on a runqueue
 * @cpu:	the CPU select_task_rq() chose for it
 * @wake_flags:	the wakeup's WF_* flags
 *
 * ttwu_queue() asks, with @p->pi_lock held and interrupts off, before it
 * takes the runqueue lock. A wakee that leap_sync_here() sent to this
 * CPU (its waker, the CPU's only task, is about to block) needs the lock
 * only when this CPU picks it, and the waker's schedule() takes the lock
 * anyway: so it is left in this CPU's slot with no lock taken, and that
 * schedule() activates it (leap_ttwu_take()), held here as a synchronous
 * wakee. A waker that does not block has it activated at its CPU's second
 * tick, as a held wakee is released (leap_sync_tick()). One slot a CPU;
 * not on a nohz_full CPU, whose tick may be off while its one task runs.
 * With one lock for every CPU, this halves the times that a pipe's
 * ping-pong pair takes it, and its wakeups no longer wait for another
 * CPU's context switch to drop it.
 *
 * Return: true if @p was left in the slot: ttwu_queue() is done.
 */
bool leap_ttwu_defer(struct task_struct *p, int cpu, int wake_flags)
{
	struct rq *rq = cpu_rq(cpu);

	if (cpu != smp_processor_id() || rq->leap.sync_hint != p ||
	    rq->leap.ttwu_task || p->sched_class != &leap_sched_class ||
	    tick_nohz_full_cpu(cpu))
		return false;
	rq->leap.sync_hint = NULL;
	rq->leap.ttwu_task = p;
	rq->leap.ttwu_flags = wake_flags;
	rq->leap.ttwu_ticked = false;
	WRITE_ONCE(rq->leap.ttwu_defers, rq->leap.ttwu_defers + 1);
	return true;
}

/**
 * leap_ttwu_take - the wakee that leap_ttwu_defer() left, to be activated
 * @rq:		this CPU's runqueue, locked, its clock up to date
 * @tick:	called from the tick, not from schedule()
 * @wake_flags:	set to the wakeup's WF_* flags
 *
 * __schedule() asks before it blocks or picks, and sched_tick() at each
 * tick; either then activates the task (ttwu_do_activate()). From
 * schedule() it is held here as a synchronous wakee (enqueue_task_leap());
 * from the tick it is woken as any task, but only at the second tick since
 * it was left: a tick that falls between a wakeup and its waker's block
 * would send it away from its pair (leap_sync_tick()). O(1).
 *
 * Return: the task, or NULL if there is none or it is not yet due.
 */
struct task_struct *leap_ttwu_take(struct rq *rq, bool tick, int *wake_flags)
{
	struct task_struct *p = rq->leap.ttwu_task;

	lockdep_assert_rq_held(rq);
	if (!p)
		return NULL;
	if (tick && !rq->leap.ttwu_ticked) {
		rq->leap.ttwu_ticked = true;
		return NULL;
	}
	if (tick)
		leap_pair_backoff(rq);
	rq->leap.ttwu_task = NULL;
	*wake_flags = rq->leap.ttwu_flags;
	/*
	 * Held only if it still may be (leap_sync_here()): its policy or
	 * affinity may have changed while it waited.
	 */
	if (!tick && p->sched_class == &leap_sched_class &&
	    leap_sync_wakee_ok(p, cpu_of(rq)))
		rq->leap.sync_hint = p;
	return p;
}

/*
 * The synchronous wakee @rq holds, if it is still queued here: back at
 * its own key, and a CPU found for it now, as at any wakeup. Called when
 * @rq picks another task, at its tick (the waker did not block: at most
 * a tick late), and before @rq holds another. O(1) with none held, else
 * O(log n) and leap_find_cpu().
 */
static void leap_sync_release(struct rq *rq)
{
	struct task_struct *p = rq->leap.sync_wait;

	if (!p)
		return;
	WRITE_ONCE(rq->leap.sync_wait, NULL);
	if (!leap_queued(p) || task_rq(p) != rq)
		return;
	leap_requeue_own(p);
	leap_find_cpu(p, true, false);
}

/*
 * The tick of a CPU that holds a synchronous wakee: the second since the
 * hold began releases it (leap_sync_release()), so that a waker that did
 * not block keeps it at most two ticks. Not the first: that one falls
 * between the wakeup and the waker's block in a share of ping-pong
 * rounds that grows with the round trip, and released there the wakee
 * moves to another pair's CPU and the pair follows it.
 */
static void leap_sync_tick(struct rq *rq)
{
	if (!rq->leap.sync_wait)
		return;
	if (rq->leap.sync_ticked) {
		leap_pair_backoff(rq);
		leap_sync_release(rq);
	} else {
		rq->leap.sync_ticked = true;
	}
}

/* Start @lr's ISO bucket that holds @now, clearing those skipped. */
static void leap_iso_roll(struct leap_rq *lr, u64 now)
{
	unsigned int i;

	for (i = 0; now >= lr->iso_next && i < LEAP_ISO_BUCKETS; i++) {
		lr->iso_cur = (lr->iso_cur + 1) % LEAP_ISO_BUCKETS;
		lr->iso_time[lr->iso_cur] = 0;
		lr->iso_next += LEAP_ISO_BUCKET_NS;
	}
	/* Idle for a whole window or more: start afresh at @now. */
	if (now >= lr->iso_next)
		lr->iso_next = now + LEAP_ISO_BUCKET_NS;
}

/* ISO and RT run time on @lr's CPU in the last LEAP_ISO_BUCKETS buckets. */
static u64 leap_iso_used(const struct leap_rq *lr)
{
	u64 sum = 0;
	unsigned int i;

	for (i = 0; i < LEAP_ISO_BUCKETS; i++)
		sum += lr->iso_time[i];
	return sum;
}

/*
 * Realtime time counts against this CPU's sched_rt_runtime_us in the
 * current sched_rt_period_us (root's realtime budget: ISO does not spend
 * it). Realtime and ISO time count against this CPU's iso_cpu cap.
 * Refractory ISO time counts too: otherwise an ISO hog would take
 * iso_cpu percent at key 100 plus its share of the rest as NORMAL, and a
 * normal task beside it would get well under 100 - iso_cpu percent.
 */
static void leap_account(struct rq *rq, struct task_struct *curr, u64 delta)
{
	if (leap_rt(curr))
		rq->leap.rt_time += delta;
	if (leap_rt(curr) || curr->policy == SCHED_ISO) {
		leap_iso_roll(&rq->leap, leap_clock(rq));
		rq->leap.iso_time[rq->leap.iso_cur] += delta;
	}
}

/*
 * An IDLE task picked while another task that is not IDLE waits runs
 * LEAP_IDLE_RUN_NS, not a whole slice: its turn exists so that a lock it
 * holds or a signal it must handle cannot hang others, not to give it a
 * share. O(1): the first queued task (of the global list and of this
 * CPU's) is the one that waits longest.
 */
static bool leap_idle_turn_over(struct rq *rq, struct task_struct *curr)
{
	/* This CPU's clock: leap_q.niffies may be a tick old here. */
	u64 now = max(leap_q.niffies, rq_clock(rq));
	struct skiplist_node *first;

	if (!leap_idle(curr) || now - rq->leap.picked < LEAP_IDLE_RUN_NS)
		return false;
	first = skiplist_first(&leap_q.list);
	if (first && !leap_idle(leap_task_of(first)))
		return true;
	first = skiplist_first(&rq->leap.pinned);
	return first && !leap_idle(leap_task_of(first));
}

/*
 * @rq's CPU picked @p (or kept it running). If this is the first pick
 * since @p's slice renewed with a busy deadline, it has not slept since,
 * and more LEAP tasks are runnable than there are CPUs, how late the pick
 * comes against that deadline (negative: early) is a sample of this
 * CPU's frontier (struct leap_rq): the lateness leap_group_span() needs.
 * Without tasks waiting, a task runs whatever its deadline: no sample.
 */
static void leap_frontier_sample(struct rq *rq, struct task_struct *p)
{
	if (!p->leap.sample_ok)
		return;
	p->leap.sample_ok = false;
	if (leap_q.nr > num_active_cpus()) {
		s64 late = (s64)(leap_q.niffies - p->leap.deadline), avg;
		unsigned int nr = leap_runnable(), rr_ms = leap_rr_ms();

		/* Each average from within what this load allows. */
		avg = leap_frontier_clamp(rq->leap.frontier, nr, rr_ms);
		rq->leap.frontier = leap_frontier_avg(avg, late,
						      LEAP_FRONTIER_SHIFT);
		avg = p->leap.late_set ? p->leap.late : rq->leap.frontier;
		avg = leap_frontier_clamp(avg, nr, rr_ms);
		p->leap.late = leap_frontier_avg(avg, late, LEAP_LATE_SHIFT);
		p->leap.late_set = true;
	}
}

/*
 * The light lead at @now for a task on @ncpus CPUs with @nr LEAP tasks
 * runnable (leap_light_lead()), its load term following @nr's up at
 * most as fast as LEAP's clock and down at once
 * (leap_lead_follow()). One load term for all tasks, under the global
 * lock. O(1).
 */
static u64 leap_lead(unsigned int nr, unsigned int ncpus, u64 now)
{
	unsigned int rr_ms = leap_rr_ms();

	leap_q.lead_load = leap_lead_follow(leap_q.lead_load,
					    leap_lead_load(nr, rr_ms),
					    now - min(leap_q.lead_at, now));
	leap_q.lead_at = max(leap_q.lead_at, now);
	return leap_light_lead(leap_q.lead_load, ncpus, rr_ms);
}

/* @p's slice renewed at @now: with a busy deadline if @busy (not light). */
static void leap_renewed(struct task_struct *p, u64 now, bool busy)
{
	p->leap.renew_span = (s64)(p->leap.deadline - now);
	p->leap.sample_ok = busy && leap_task_key(p) > LEAP_ISO_KEY &&
			    !leap_idle(p);
}

/*
 * A busy deadline is a claim on the CPUs from when it was set; a task
 * of a group over its share that holds one that passed (set before the
 * group ran over, or kept across sleeps: a BFS deadline stays until its
 * slice is used) has it moved to @now, the slice kept, so that it sorts
 * after the light tasks and the deadlines that passed before it. Once
 * until it runs (@dl_held): a pick does not keep moving it behind the
 * clock. leap_dl_hold() returns true if it moved, leap_dl_may_hold()
 * whether it would. O(1).
 */
static bool leap_dl_may_hold(struct task_struct *p, u64 now)
{
	return !p->leap.dl_held && !p->leap.light_key && !leap_rt(p) &&
	       p->policy == SCHED_NORMAL && (s64)(p->leap.deadline - now) < 0;
}

static bool leap_dl_hold(struct task_struct *p, u64 now)
{
	if (!leap_dl_may_hold(p, now))
		return false;
	p->leap.deadline = now;
	/* Its next pick's lateness says nothing of the CPU's frontier. */
	p->leap.sample_ok = false;
	p->leap.dl_held = true;
	return true;
}

/*
 * @p woke, or its slice renewed, at @now with @nr LEAP tasks runnable (it
 * included): if it uses no more than its share of the CPUs it may run on
 * (leap_light(), over the active CPUs in its affinity mask: a task pinned
 * to one CPU of several shares it with the tasks accounted to it: as
 * much as an unpinned task's share of all, when the others spread out;
 * with its run since
 * it woke as its burst if that is longer), its deadline becomes the
 * start of its burst (@now less its run since it woke) -
 * leap_light_lead() plus the span of its burst (leap_run_span(), as a
 * busy task's deadline is the span of a slice; for a task of a group,
 * at its rate, at most the lead) times the part of its share it uses
 * (leap_light_part()), unless it is earlier already and not a light
 * key of an earlier wakeup by a task (leap_rekey()): before the
 * deadline of every busy task that a round robin of
 * the runnable tasks left behind, so that it runs at the next preemption
 * point however many busy tasks are queued, and among light tasks by
 * wakeup time plus expected run, so that the shortest runs go first. A
 * busy task that light tasks kept waiting longer than the lead goes
 * first: together they cannot starve it. At a renewal only while its
 * run since it woke is less than LEAP_LIGHT_RUN_SLICES slices or
 * LEAP_LIGHT_RUN_BURSTS times its average burst, whichever is longer (a
 * frame thread's 8 ms burst outlasts a 6 ms slice; a 0.2 ms run that a
 * stall stretched, a vCPU the host descheduled, a lock or an interrupt
 * storm charged as its CPU time, outlasts four bursts and a slice), and
 * counted from at most a slice before @now,
 * so that no light key lies further back than a slice's worth. A task that
 * sleeps little or runs long is not light: its share, not its habits,
 * bounds what it gets; nor is a task of a group that uses more than the
 * group's share (leap_group_over()): its group's rate bounds it, and a
 * light key or a deadline older than the lead that it holds goes, and
 * at a wakeup (@wake) a busy deadline that passed moves to @now
 * (leap_dl_hold()). NORMAL
 * (and ISO, which runs as NORMAL when refractory) only: BATCH and IDLE
 * keep their rules. A task woken by a task that holds a light key but is
 * light no longer keeps one, with the whole span of its burst, while it
 * uses at most twice its share, for the rest of its slice
 * (leap_rekey()). O(1), O(depth) for a task of a group. Return true if
 * @p is light: its deadline is then at most that key.
 */
static bool leap_place_light(struct task_struct *p, u64 now, bool wake)
{
	u64 burst = max(p->leap.burst, p->leap.awake), key, lead, span, start;
	unsigned int ncpus, nr = leap_runnable(), gate = nr;
	u64 rho = LEAP_RHO_ONE, part = LEAP_PART_ONE;
	bool light, by_task;
	int prio = p->prio;

	if (leap_rt(p) || (p->policy != SCHED_NORMAL && p->policy != SCHED_ISO))
		return false;
	if (!leap_run_light(p->leap.awake, leap_slice_ns(p), p->leap.burst))
		return false;
	ncpus = min_t(unsigned int, num_active_cpus(), p->nr_cpus_allowed);
	/* A group task's share: its rate times a nice-0 root task's. */
	if (leap_in_group(p)) {
		rho = max_t(u64, leap_group_rho(p), 1);
		gate = min_t(u64, mul_u64_u64_div_u64(nr, LEAP_RHO_ONE, rho),
			     1U << 20);
		prio = NICE_TO_PRIO(0);
		/*
		 * A task of a group over its share is not light, and the
		 * light key it may still hold from before goes, as does a
		 * deadline older than the lead (it would sort before every
		 * light key): a new slice, at its group's rate.
		 */
		if (leap_group_over(p, ncpus, now)) {
			lead = leap_lead(nr, ncpus, now);
			if (p->leap.light_key ||
			    p->leap.deadline + lead < max(now, lead))
				leap_renew(p, now);
			else if (wake)
				leap_dl_hold(p, now);
			return false;
		}
	}
	/*
	 * Allowed on one CPU of several, it competes with the tasks of that
	 * CPU, not with all: the tasks that may run anywhere spread over
	 * the CPUs, so its share of its CPU is an unpinned task's share of
	 * all of them, and a crowd pinned beside it counts in full.
	 */
	if (ncpus == 1 && num_active_cpus() > 1 && leap_q.nr > 1)
		gate = div_u64((u64)gate * task_rq(p)->leap.nr_running,
			       leap_q.nr);
	light = leap_light(burst, p->leap.sleep, max(gate, 1U), ncpus, prio);
	/* A renewal comes at a tick, or with no light key: not by a task. */
	by_task = !leap_woken_by_irq();
	if (!light && !(p->leap.light_key && by_task))
		return false;
	lead = leap_lead(nr, ncpus, now);
	/*
	 * A group task's burst at its rate, as its busy span is a slice's:
	 * the light tasks of a crowded group do not go before a lighter
	 * group's by their short bursts alone.
	 */
	span = leap_run_span(prio, burst);
	if (rho != LEAP_RHO_ONE)
		span = min_t(u64, mul_u64_u64_div_u64(span, LEAP_RHO_ONE, rho),
			     lead);
	/* The further below its share, the sooner, whatever its burst. */
	if (light)
		part = leap_light_part(burst, p->leap.sleep, max(gate, 1U),
				       ncpus, prio);
	span = span * part / LEAP_PART_ONE;
	/*
	 * From the start of its burst, at most a slice back: a slice that
	 * renews within the burst does not put it behind the light tasks
	 * that woke after it.
	 */
	start = now - min3(p->leap.awake, (u64)leap_slice_ns(p), now);
	key = max_t(u64, start, lead + LEAP_ISO_KEY + 1) - lead + span;
	leap_rekey(&p->leap.deadline, &p->leap.busy_dl, &p->leap.light_key,
		   key, light,
		   light || leap_light(burst, p->leap.sleep,
				       max(gate / 2, 1U), ncpus, prio),
		   by_task);
	return light;
}

/*
 * Charge the running task for the time since the last update. Return
 * true if its slice ran out, and so it got a new one and a new deadline
 * (a later one, unless it is light).
 */
static bool leap_charge(struct rq *rq)
{
	struct task_struct *curr = rq->curr;
	s64 delta;
	u64 now, run;

	if (curr->sched_class != &leap_sched_class)
		return false;
	delta = update_curr_common(rq);
	if (delta <= 0)
		return false;
	leap_account(rq, curr, delta);
	if (leap_in_group(curr))
		leap_group_use(curr, delta, leap_clock(rq));
	/* cpu.max: a task of a group that is throttled stops. */
	if (leap_task_key(curr) > LEAP_ISO_KEY && leap_group_charge(curr, delta))
		resched_curr(rq);
	run = leap_run_counted(delta, TICK_NSEC, tick_nohz_full_cpu(cpu_of(rq)));
	curr->leap.awake = min_t(u64, curr->leap.awake + run, LEAP_LIGHT_CAP_NS);
	if (!leap_has_slice(curr))
		return false;
	curr->leap.time_slice -= delta;
	if (curr->leap.time_slice >= LEAP_RESCHED_NS &&
	    !leap_idle_turn_over(rq, curr))
		return false;
	now = leap_clock(rq);
	leap_renew(curr, now);
	leap_renewed(curr, now, !leap_place_light(curr, now, false));
	if (rq->leap.curr == curr) {
		rq->leap.renewed = true;
		WRITE_ONCE(rq->leap.curr_key, leap_task_key(curr));
	}
	return true;
}

/*
 * Charge the running task; at the end of its slice, let the pick decide.
 * With nothing queued it runs on, and has no one to rotate behind.
 */
static void leap_update_curr(struct rq *rq)
{
	lockdep_assert_rq_held(rq);
	if (!leap_charge(rq))
		return;
	if (!leap_rq_has_work(rq))
		rq->leap.renewed = false;
	else
		resched_curr(rq);
}

/*
 * The CPU's utilization signal for cpufreq (schedutil reads it with
 * cpu_util_rt()): LEAP's busy time goes into rq->avg_rt, with rt's own,
 * as the fair class that would otherwise track it owns no task. @running
 * says whether a LEAP or rt task ran since the last update; the rq clock
 * must be up to date.
 */
static void leap_update_util(struct rq *rq, bool running)
{
	update_rt_rq_load_avg(rq_clock_pelt(rq), rq, running);
}

static bool leap_class_running(struct rq *rq)
{
	const struct sched_class *class = rq->curr->sched_class;

	return class == &leap_sched_class || class == &rt_sched_class;
}

static void leap_iso_check(struct rq *rq, u64 now);

/*
 * Off list @sl, which @p is on, and no longer its CPU's sticky task nor
 * the synchronous wakee it waits for.
 */
static void __leap_unqueue(struct task_struct *p, struct skiplist *sl)
{
	struct leap_rq *lr = &task_rq(p)->leap;

	__leap_unlink(p, sl);
	if (lr->sticky == p)
		lr->sticky = NULL;
	if (lr->sync_wait == p)
		WRITE_ONCE(lr->sync_wait, NULL);
}

/* Off its list, if queued, and no longer held for its CPU (above). */
static void leap_unqueue(struct task_struct *p)
{
	if (leap_queued(p))
		__leap_unqueue(p, leap_list_of(p));
}

/*
 * The key @p is queued at: its own, or its sticky key while its CPU
 * holds it (its sticky task, or its synchronous wakee).
 */
static u64 leap_queued_key(struct task_struct *p)
{
	struct leap_rq *lr = &task_rq(p)->leap;
	u64 key = leap_task_key(p);

	if (lr->sticky == p || lr->sync_wait == p)
		key = leap_sticky_key(key, leap_rr_ms());
	return key;
}

/* Is @p parked by cpu.max (runnable, on no list)? */
static inline bool leap_parked(struct task_struct *p)
{
#ifdef CONFIG_CGROUP_SCHED
	return p->leap.parked_on;
#else
	return false;
#endif
}

/*
 * cpu.max: the throttled group @p must wait for, if it may be parked on
 * @rq's CPU: a task with a deadline key that holds nothing others may
 * wait for (leap_held()), not running, on a CPU that stays up (a CPU
 * going down must be able to run its tasks away). Else NULL.
 */
static struct task_group *leap_park_on(struct rq *rq, struct task_struct *p)
{
#ifdef CONFIG_CGROUP_SCHED
	if (leap_task_key(p) <= LEAP_ISO_KEY || leap_held(p) ||
	    !cpu_active(cpu_of(rq)))
		return NULL;
	return leap_group_throttled(p);
#else
	return NULL;
#endif
}

/*
 * Park @p, queued or just switched out, on throttled group @tg. A parked
 * task leaves its CPU's nr_running, as a throttled fair task does: the
 * CPU idles while it waits, and idle_cpu() must say so (the nohz idle
 * accounting and its clock refresh at irq exit ask it).
 */
static void leap_park(struct task_struct *p, struct task_group *tg)
{
	leap_group_park(p, tg);
	sub_nr_running(task_rq(p), 1);
}

#ifdef CONFIG_CGROUP_SCHED
/**
 * leap_requeue - queue a task that was parked by cpu.max
 * @p:		the task, runnable, on no list and off its group's parked
 *		list, not counted in its CPU's nr_running; leap_rq_lock held
 * @may_park:	park it again if a group above it is still throttled
 *
 * Queued at its key and counted on its CPU again, with a CPU found for
 * it, as at a wakeup.
 */
void leap_requeue(struct task_struct *p, bool may_park)
{
	struct task_group *tg = may_park ? leap_park_on(task_rq(p), p) : NULL;

	lockdep_assert_held(&leap_rq_lock);
	if (tg) {
		leap_group_park(p, tg);
		return;
	}
	leap_insert(p, leap_task_key(p));
	add_nr_running(task_rq(p), 1);
	leap_find_cpu(p, true, false);
}
#endif

#ifdef CONFIG_CGROUP_SCHED
/* How many group tasks one tick's share of a rebase sees at most. */
#define LEAP_REBASE_BATCH	32

/* @p, being enqueued or dequeued, joins or leaves leap_q.groups. */
static void leap_groups_track(struct task_struct *p, bool runnable)
{
	if (runnable && leap_in_group(p)) {
		list_add_tail(&p->leap.group_node, &leap_q.groups);
		leap_q.nr_groups++;
	} else if (!runnable && !list_empty(&p->leap.group_node)) {
		list_del_init(&p->leap.group_node);
		leap_q.nr_groups--;
		leap_q.rebase_left = min(leap_q.rebase_left, leap_q.nr_groups);
	}
}

/*
 * Group task @p's deadline no later than a slice's span from @now under
 * the load of now (the busy deadline a light key replaced, too); queued
 * again at its key if that moved. Its next pick takes no frontier
 * sample: this deadline came from no renewal. O(depth + log n).
 */
static void leap_pull(struct task_struct *p, u64 now)
{
	struct rq *rq = task_rq(p);
	u64 bound, key = leap_task_key(p);

	if (leap_rt(p) || leap_idle(p))
		return;
	bound = leap_add_span(now, leap_span(p, (u64)leap_rr_ms() *
					      NSEC_PER_MSEC));
	if (p->leap.light_key)
		p->leap.busy_dl = min(p->leap.busy_dl, bound);
	if (p->leap.deadline <= bound)
		return;
	p->leap.deadline = bound;
	p->leap.sample_ok = false;
	if (leap_task_key(p) == key)
		return;
	if (leap_queued(p)) {
		leap_unqueue(p);
		leap_insert(p, leap_task_key(p));
	} else if (rq->leap.curr == p) {
		WRITE_ONCE(rq->leap.curr_key, leap_task_key(p));
	}
}

/*
 * A group task's span grows with its CPU's frontier, which grows with
 * the load: under 1000 busy root tasks it is seconds. The span is taken
 * at each renewal, so a heavy load that ends leaves the group tasks it
 * saw holding deadlines seconds away, in the order the load left them,
 * while each one renewed since holds a short one: a group of weight
 * 100 beside one of 300 got 0 % to 99 % of a CPU, not 25 %, for seconds
 * after 1000 busy loops beside them ended. So once the frontier a span
 * took (leap_q.group_late) is more than twice what the load of now
 * allows (leap_rebase_due()), every runnable group task's deadline
 * is pulled back to what its span is now (leap_pull()): a rebase, at
 * most LEAP_REBASE_BATCH tasks a tick, the oldest seen first. A load that
 * falls from n to m begins at most log2(n / m) rebases. From a tick,
 * under the lock: O(LEAP_REBASE_BATCH (depth + log n)).
 */
static void leap_rebase(u64 now)
{
	unsigned int i;

	if (!leap_q.rebase_left) {
		if (!leap_rebase_due(leap_q.group_late, leap_runnable(),
				     leap_rr_ms()))
			return;
		leap_q.group_late = S64_MIN;
		leap_q.rebase_left = leap_q.nr_groups;
		leap_q.rebases++;
	}
	for (i = 0; i < LEAP_REBASE_BATCH && leap_q.rebase_left; i++) {
		struct task_struct *p = list_first_entry(&leap_q.groups,
							 struct task_struct,
							 leap.group_node);

		list_move_tail(&p->leap.group_node, &leap_q.groups);
		leap_q.rebase_left--;
		leap_pull(p, now);
	}
}
#else
static inline void leap_groups_track(struct task_struct *p, bool runnable) { }
static inline void leap_rebase(u64 now) { }
#endif

static void enqueue_task_leap(struct rq *rq, struct task_struct *p, int flags)
{
	struct task_group *park;
	u64 now = leap_clock(rq);
	bool light = false, sync = false;

	lockdep_assert_rq_held(rq);
	/* Queued but not on_rq: left on the list by a change that keeps it. */
	WARN_ON_ONCE(p->leap.on_rq || (leap_queued(p) && !(flags & ENQUEUE_RESTORE)));
	/* Woken from an uninterruptible sleep: it may hold what others need. */
	if ((flags & ENQUEUE_WAKEUP) && p->sched_contributes_to_load)
		p->leap.woke_held = true;
	if (flags & ENQUEUE_WAKEUP)
		p->leap.sleep = leap_avg(p->leap.sleep, now - p->leap.slept);
	/* Counted before it is keyed: its rate and the light rule count it. */
	rq->leap.nr_running++;
	leap_q.nr++;
	leap_group_enqueue(p);
	leap_groups_track(p, true);
	if (p->leap.time_slice < LEAP_RESCHED_NS)
		leap_renew(p, now);
	else if (p->leap.prio != p->prio)
		leap_new_deadline(p, now);
	leap_lift(p, now);
	if (flags & ENQUEUE_WAKEUP)
		light = leap_place_light(p, now, true);
	/* Its CPU's ISO window, up to date before the key is taken. */
	if (p->policy == SCHED_ISO)
		leap_iso_check(rq, now);

	p->leap.on_rq = true;
	/*
	 * Kept on the list by the change: it keeps its place if its key and
	 * its list (affinity) did not change; on another list with the same
	 * key, it goes to the head of its key if it was there.
	 */
	if (leap_queued(p) && (leap_q.saved != leap_list_of(p) ||
			       p->leap.node.key != leap_queued_key(p))) {
		struct skiplist_node *node = &p->leap.node;

		if (node->key == leap_queued_key(p) &&
		    node->link[0].prev->key != node->key)
			flags |= ENQUEUE_HEAD;
		__leap_unqueue(p, leap_q.saved);
	}
	leap_q.saved = NULL;
	/* cpu.max: a task of a throttled group waits off the queue. */
	park = task_current(rq, p) ? NULL : leap_park_on(rq, p);
	/*
	 * Sent here for a synchronous wakeup (leap_sync_here())? Then this
	 * CPU holds it, queued at its sticky key, and kicks no other CPU:
	 * it waits for its waker to block (leap_sync_release()).
	 */
	if (rq == this_rq()) {
		sync = (flags & ENQUEUE_WAKEUP) && rq->leap.sync_hint == p &&
		       in_task() && !park && !leap_queued(p) &&
		       rq->curr == current;
		rq->leap.sync_hint = NULL;
	}
	if (sync) {
		leap_sync_release(rq);
		WRITE_ONCE(rq->leap.sync_wait, p);
		rq->leap.sync_ticked = false;
	}
	if (park) {
		if (leap_queued(p))
			leap_unqueue(p);
		leap_group_park(p, park);
	/* On the list first: add_nr_running() asks whether the tick may stop. */
	} else if (leap_queued(p)) {
		/* Kept: a policy change to or from ISO may keep the key. */
		list_del_init(&p->leap.iso_node);
		if (p->policy == SCHED_ISO && !leap_rt(p))
			list_add_tail(&p->leap.iso_node, &rq->leap.iso_queued);
	} else if (flags & ENQUEUE_HEAD) {
		leap_insert_head(p, leap_task_key(p));
	} else {
		leap_insert(p, leap_queued_key(p));
	}
	/* A parked task is not counted (leap_park()). */
	if (!park)
		add_nr_running(rq, 1);
	/* RLIMIT_RTTIME counts realtime time since the last sleep. */
	if (flags & ENQUEUE_WAKEUP)
		p->rt.timeout = 0;

	/*
	 * Find it a CPU: after a wakeup or fork, and after any other move or
	 * change of a task that is not running (affinity, migration, prio,
	 * cgroup), which may make it the best task for another CPU. Not
	 * for the running task in a change (set_next_task() follows, and
	 * prio_changed() compares), nor when a pick moves it to its CPU.
	 * Not yet for a synchronous wakee (above).
	 */
	if (!park && !sync &&
	    ((flags & (ENQUEUE_WAKEUP | ENQUEUE_INITIAL)) ||
	     (!task_current(rq, p) && !leap_q.moving)))
		leap_find_cpu(p, true, light && leap_woken_by_irq());
	/* Bring the signal up to date (an idle spell decays it) first. */
	leap_update_util(rq, leap_class_running(rq));
	cpufreq_update_util(rq, 0);
}

static bool dequeue_task_leap(struct rq *rq, struct task_struct *p, int flags)
{
	lockdep_assert_rq_held(rq);
	WARN_ON_ONCE(!p->leap.on_rq);
	/*
	 * A change that keeps the task's place (DEQUEUE_SAVE without
	 * DEQUEUE_MOVE: affinity, nice, migrate_disable) leaves a queued
	 * task on the list, as rt.c leaves it on its prio list; the restore
	 * (enqueue_task_leap()) keeps it there if its key did not change, or
	 * switched_from_leap() takes it off if it left the class.
	 */
	if ((flags & (DEQUEUE_SAVE | DEQUEUE_MOVE)) != DEQUEUE_SAVE) {
		leap_unqueue(p);
	} else if (leap_queued(p)) {
		WARN_ON_ONCE(leap_q.saved);
		leap_q.saved = leap_list_of(p);
	}
	if (flags & DEQUEUE_SLEEP) {
		/* Its run since the last tick belongs to this burst. */
		if (task_current(rq, p))
			leap_charge(rq);
		p->leap.woke_held = false;
		p->leap.sample_ok = false;
		p->leap.burst = leap_avg(p->leap.burst, p->leap.awake);
		p->leap.awake = 0;
		p->leap.slept = leap_clock(rq);
	}
	/* BATCH: a new deadline at every deschedule. */
	if ((flags & DEQUEUE_SLEEP) && p->policy == SCHED_BATCH)
		leap_new_deadline(p, leap_q.niffies);

	p->leap.on_rq = false;
	WARN_ON_ONCE(!rq->leap.nr_running || !leap_q.nr);
	rq->leap.nr_running--;
	leap_q.nr--;
	/* A parked task was not counted in nr_running (leap_park()). */
	if (leap_parked(p))
		leap_group_unpark(p);
	else
		sub_nr_running(rq, 1);
	leap_groups_track(p, false);
	leap_group_dequeue(p);
	return true;
}

/*
 * sched_yield(): a fresh slice and deadline, behind every task with an
 * earlier key or the same one (a realtime task goes to the tail of its
 * prio).
 */
static void yield_task_leap(struct rq *rq)
{
	struct task_struct *curr = rq->curr;

	lockdep_assert_rq_held(rq);
	update_rq_clock(rq);
	leap_charge(rq);
	leap_renew(curr, leap_clock(rq));
	rq->leap.renewed = true;
	WRITE_ONCE(rq->leap.curr_key, leap_task_key(curr));
	/* schedule() follows at once: no need to read the clock again. */
	rq_clock_skip_update(rq);
}

/*
 * yield_to() (KVM's directed yield to a vCPU that holds a lock): @p,
 * queued with a later deadline than the yielding task, takes that
 * deadline, and the yielding task yields; its CPU then picks @p if @p
 * may run there. Realtime keys keep their order.
 */
static bool yield_to_task_leap(struct rq *rq, struct task_struct *p)
{
	struct task_struct *curr = rq->curr;

	lockdep_assert_rq_held(rq);
	if (!leap_queued(p) || leap_rt(p) || leap_rt(curr))
		return false;
	if (leap_task_key(p) > LEAP_ISO_KEY &&
	    p->leap.deadline > curr->leap.deadline) {
		leap_unqueue(p);
		p->leap.deadline = curr->leap.deadline;
		p->leap.light_key = curr->leap.light_key;
		leap_insert(p, leap_task_key(p));
	}
	yield_task_leap(rq);
	return true;
}

/* Preemption is decided globally when the task is queued (leap_find_cpu). */
static void wakeup_preempt_leap(struct rq *rq, struct task_struct *p, int flags)
{
	lockdep_assert_rq_held(rq);
}

/**
 * leap_switch_may_unlock - may this CPU let go of the lock before its switch?
 * @rq:		this CPU's runqueue, locked, about to switch tasks
 *
 * Mainline holds a runqueue's lock through the context switch, until
 * finish_task_switch(). With one lock for every CPU, that makes every
 * other CPU's wakeup and pick wait for this CPU's switch of stacks and
 * memory maps: a third of a pipe ping-pong's acquisitions were contended
 * so with two pairs on two CPUs. Nothing LEAP keeps under the lock
 * changes in the switch; the previous task, if queued, is left alone by
 * other CPUs until its on_cpu clears (leap_switching_out()). The balance
 * callbacks (a CPU going down, the deadline class's push) run under the
 * lock in finish_lock_switch(): with one queued, the lock is held as on
 * mainline. O(1).
 *
 * Return: true if prepare_lock_switch() may call leap_switch_unlock().
 */
bool leap_switch_may_unlock(struct rq *rq)
{
	lockdep_assert_rq_held(rq);
	return !rq->balance_callback;
}

/**
 * leap_switch_unlock - let go of the lock before the context switch
 * @rq:		this CPU's runqueue, locked, its pin released
 *
 * Called by prepare_lock_switch() in place of the lockdep hand-over of
 * the lock to the next task. Interrupts stay off and the preempt count
 * the lock took stays, as finish_task_switch() expects; the switch's
 * finish_task_switch() then enables both (leap_switch_finish()). O(1).
 */
void leap_switch_unlock(struct rq *rq)
	__releases(__rq_lockp(rq))
{
	rq->leap.switch_unlocked = true;
	rq->leap.unlocked_switches++;
	spin_release(&__rq_lockp(rq)->dep_map, _THIS_IP_);
	do_raw_spin_unlock(__rq_lockp(rq));
}

/**
 * leap_switch_finish - finish a context switch that let go of the lock early
 * @rq:		this CPU's runqueue, not locked if this returns true
 * @prev:	the task switched out, its on_cpu cleared (finish_task())
 *
 * Called by finish_task_switch() in place of finish_lock_switch(). If a
 * pick on another CPU skipped @prev while it was switching out here
 * (leap_switching_out()), @prev, if still queued, gets a CPU now, as at
 * a wakeup (preempting one only with a realtime or ISO key): the CPU that
 * skipped it may have gone idle. Then interrupts and preemption are
 * enabled, as the lock's release would have. O(1), or leap_find_cpu()
 * under the lock when a pick skipped @prev.
 *
 * Return: false if this CPU held the lock through the switch: the caller
 * releases it (finish_lock_switch()).
 */
bool leap_switch_finish(struct rq *rq, struct task_struct *prev)
{
	if (!rq->leap.switch_unlocked)
		return false;
	rq->leap.switch_unlocked = false;
	/* finish_task()'s store of on_cpu before the load of passed_over. */
	smp_mb();
	if (READ_ONCE(rq->leap.passed_over)) {
		raw_spin_rq_lock(rq);
		rq->leap.passed_over = false;
		if (leap_queued(prev))
			leap_find_cpu(prev, leap_task_key(prev) <= LEAP_ISO_KEY,
				      false);
		raw_spin_rq_unlock(rq);
	}
	local_irq_enable();
	preempt_enable();
	return true;
}

/*
 * Is @p, queued, still switching out on a CPU other than @cpu? That CPU
 * let go of the lock before its switch (leap_switch_unlock()), and @p's
 * registers are saved only when its on_cpu clears: @cpu must not run it
 * yet. That CPU is told (passed_over) and finds @p a CPU once it is done
 * (leap_switch_finish()). The flag's store and the second load of
 * on_cpu, against that CPU's store of on_cpu and load of the flag, each
 * pair with a full barrier between: one side or both see the other's
 * store, so @p is not left waiting for a CPU that skipped it. O(1).
 */
static bool leap_switching_out(struct task_struct *p, int cpu)
{
#ifdef CONFIG_SMP
	struct rq *rq;

	/* Pairs with finish_task()'s release: @p is saved once it reads 0. */
	if (task_cpu(p) == cpu || !smp_load_acquire(&p->on_cpu))
		return false;
	rq = task_rq(p);
	WRITE_ONCE(rq->leap.passed_over, true);
	/* The flag before the second load; pairs with leap_switch_finish(). */
	smp_mb();
	/* As the first load. */
	if (!smp_load_acquire(&p->on_cpu))
		return false;
	leap_q.passes++;
	return true;
#else
	return false;
#endif
}

/*
 * What a pick on @cpu may take: tasks allowed there, with a key of at
 * least @min_key (LEAP_ISO_KEY + 1 skips realtime and ISO keys on a
 * throttled CPU); not the running task if @skip_curr (cpu.max throttled
 * its group).
 */
struct leap_pick {
	int cpu;
	u64 min_key;
	bool skip_curr;
};

static bool leap_pick_task_ok(struct task_struct *p, u64 key,
			      const struct leap_pick *lp)
{
	return key >= lp->min_key && leap_cpu_allowed(p, lp->cpu) &&
	       !leap_switching_out(p, lp->cpu);
}

static bool leap_pick_ok(const struct skiplist_node *node, void *arg)
{
	return leap_pick_task_ok(leap_task_of(node), node->key, arg);
}

/*
 * @held (this CPU's sticky task or synchronous wakee, queued at a later
 * key for other CPUs), if any, compared by its own key: it replaces
 * *@next when earlier than *@key.
 */
static void leap_best_held(struct task_struct *held,
			   const struct leap_pick *lp,
			   struct task_struct **next, u64 *key)
{
	if (held && leap_pick_task_ok(held, leap_task_key(held), lp) &&
	    leap_task_key(held) < *key) {
		*next = held;
		*key = leap_task_key(held);
	}
}

/*
 * The best task for @lp->cpu: the first allowed on the global list or on
 * this CPU's pinned list, this CPU's sticky task or synchronous wakee by
 * its real key, or the running task @curr (on no list), which keeps the
 * CPU on a tie unless its slice was renewed. The global walk skips only
 * tasks allowed on some CPUs but not this one (partial masks): tasks
 * pinned to one CPU are on that CPU's list and cost no other CPU
 * anything.
 */
static struct task_struct *leap_best(struct rq *rq, const struct leap_pick *lp)
{
	struct task_struct *next = NULL, *sticky = rq->leap.sticky;
	struct task_struct *curr = rq->leap.curr, *sync = rq->leap.sync_wait;
	struct skiplist_node *node;
	u64 key = ~0ULL;

	node = skiplist_find_first(&leap_q.list, leap_pick_ok, (void *)lp);
	if (node) {
		next = leap_task_of(node);
		key = node->key;
	}
	/* On equal keys the global list's task goes first. */
	node = skiplist_find_first(&rq->leap.pinned, leap_pick_ok, (void *)lp);
	if (node && node->key < key) {
		next = leap_task_of(node);
		key = node->key;
	}
	leap_best_held(sticky, lp, &next, &key);
	leap_best_held(sync, lp, &next, &key);
	if (curr && curr->leap.on_rq && !lp->skip_curr &&
	    leap_pick_task_ok(curr, leap_task_key(curr), lp) &&
	    (leap_task_key(curr) < key ||
	     (leap_task_key(curr) == key && !rq->leap.renewed)))
		return curr;
	return next;
}

/*
 * A light key is a claim that a task of a group made while the group
 * used no more than its share. If by the time the task comes first its
 * group is over its share (another group or a task of the root woke
 * since), the claim lapses: a new slice and a busy deadline at its
 * group's rate, as leap_place_light() gives it at a wakeup, and it is
 * queued again at that key. A busy deadline that passed lapses too, to
 * the clock (leap_dl_hold()), once until the task runs. Return true if
 * it lapsed. The running task is left to its next charge. O(depth), and
 * O(log n) once a key lapses.
 */
static bool leap_light_lapse(struct rq *rq, struct task_struct *p)
{
	unsigned int ncpus;
	u64 now;

	if (!leap_in_group(p) || p == rq->leap.curr || !leap_queued(p))
		return false;
	now = leap_clock(rq);
	if (!p->leap.light_key && !leap_dl_may_hold(p, now))
		return false;
	ncpus = min_t(unsigned int, num_active_cpus(), p->nr_cpus_allowed);
	if (!leap_group_over(p, ncpus, now))
		return false;
	leap_unqueue(p);
	if (p->leap.light_key) {
		leap_renew(p, now);
		leap_renewed(p, now, true);
	} else {
		leap_dl_hold(p, now);
	}
	leap_insert(p, leap_task_key(p));
	return true;
}

/*
 * leap_best(), less the tasks that cpu.max throttled: each one met is
 * parked on its group, once (the running one by put_prev_task_leap());
 * and less the light keys that lapsed (leap_light_lapse()), each once.
 * O(1) a task parked, O(depth + log n) a key lapsed, on top of
 * leap_best().
 */
static struct task_struct *leap_best_unthrottled(struct rq *rq,
						 struct leap_pick *lp)
{
	struct task_struct *next;
	struct task_group *tg;

	while ((next = leap_best(rq, lp))) {
		if (leap_light_lapse(rq, next))
			continue;
		tg = leap_park_on(rq, next);
		if (!tg)
			break;
		if (next == rq->leap.curr) {
			lp->skip_curr = true;
			continue;
		}
		leap_unqueue(next);
		leap_park(next, tg);
	}
	return next;
}

static struct task_struct *pick_task_leap(struct rq *rq)
{
	struct leap_pick lp = { .cpu = cpu_of(rq) };
	struct task_struct *next = NULL;

	lockdep_assert_rq_held(rq);
	/*
	 * Realtime runtime used up here: other work first, if there is any.
	 * The slack is NORMAL, BATCH and IDLE work's, as mainline's
	 * throttle leaves it to the fair class: an ISO task, unprivileged
	 * realtime, does not take it from them.
	 */
	if (rq->leap.rt_throttled) {
		lp.min_key = LEAP_ISO_KEY + 1;
		next = leap_best_unthrottled(rq, &lp);
		lp.min_key = 0;
	}
	if (!next)
		next = leap_best_unthrottled(rq, &lp);
	if (next)
		leap_frontier_sample(rq, next);
	/*
	 * Its synchronous wakee, if not next, goes to another CPU; if next,
	 * the hold worked (leap_pair_backoff()).
	 */
	if (rq->leap.sync_wait != next)
		leap_sync_release(rq);
	else if (next)
		rq->curr->leap.pair_strikes = 0;
	/* The running task stays: its rotation, if any, is done. */
	if (next && next == rq->leap.curr)
		rq->leap.renewed = false;
	else if (next && task_cpu(next) != lp.cpu)
		leap_move(next, task_rq(next), rq, ENQUEUE_NOCLOCK);
	return next;
}

static void put_prev_task_leap(struct rq *rq, struct task_struct *p,
			       struct task_struct *next)
{
	bool renewed;
	u64 key;

	lockdep_assert_rq_held(rq);
	leap_charge(rq);
	leap_update_util(rq, true);
	renewed = rq->leap.renewed;
	/*
	 * No @next: a save of the running task for a change of its
	 * parameters; set_next_task(first = false) follows, and it keeps
	 * its rotation, pending wakeup and pick time across it.
	 */
	rq->leap.saved_curr = !next;
	if (next) {
		rq->leap.renewed = false;
		rq->leap.wake_pending = false;
	}
	rq->leap.curr = NULL;
	WRITE_ONCE(rq->leap.curr_key, 0);
	if (!p->leap.on_rq || leap_queued(p) || leap_parked(p))
		return;
	/* cpu.max throttled its group: off the queue (not for a change). */
	if (next) {
		struct task_group *tg = leap_park_on(rq, p);

		if (tg) {
			leap_park(p, tg);
			return;
		}
	}

	/* Preempted, still runnable: back on the list. */
	if (p->policy == SCHED_BATCH && !leap_rt(p))
		leap_new_deadline(p, leap_clock(rq));
	leap_lift(p, leap_clock(rq));
	key = leap_task_key(p);
	/*
	 * Realtime and ISO keys: preempted by a smaller key, back to the head
	 * of its key (POSIX), and straight onto any CPU running a later key;
	 * after its slice (RR, ISO) or a yield, to the tail.
	 */
	if (key <= LEAP_ISO_KEY) {
		if (renewed)
			leap_insert(p, key);
		else
			leap_insert_head(p, key);
		leap_find_cpu(p, true, false);
		return;
	}
	/*
	 * Sticky: preempted with part of its slice used and the rest left
	 * (a slice that just ran out was renewed whole; that task starts
	 * afresh and may go anywhere).
	 */
	if (p->policy == SCHED_NORMAL && cpu_active(cpu_of(rq)) &&
	    p->leap.time_slice < leap_slice_ns(p)) {
		struct task_struct *old = rq->leap.sticky;

		/* One sticky task a CPU: the previous one gets its key back. */
		if (old && leap_queued(old))
			leap_requeue_own(old);
		rq->leap.sticky = p;
		key = leap_sticky_key(key, leap_rr_ms());
	}
	/*
	 * @p stays accounted here until another CPU picks it, even if this
	 * CPU is going down: it is still on_cpu, and PSI charges the switch
	 * to task_cpu(). leap_move() then kicks this CPU to notice.
	 */
	leap_insert(p, key);
	/* An idle CPU may take it; preempting another would only bounce it. */
	leap_find_cpu(p, false, false);
}

static void set_next_task_leap(struct rq *rq, struct task_struct *p, bool first)
{
	lockdep_assert_rq_held(rq);
	/* What ran until now was not LEAP's (rq->curr is still prev). */
	if (rq->curr->sched_class != &leap_sched_class)
		leap_update_util(rq, leap_class_running(rq));
	leap_unqueue(p);
	p->leap.dl_held = false;
	rq->leap.curr = p;
	if (first || !rq->leap.saved_curr) {
		rq->leap.renewed = false;
		rq->leap.wake_pending = false;
		rq->leap.picked = leap_q.niffies;
	}
	rq->leap.saved_curr = false;
	WRITE_ONCE(rq->leap.curr_key, leap_task_key(p));
	p->se.exec_start = rq_clock_task(rq);
	/* A limited task keeps a nohz_full CPU's tick (leap_needs_tick()). */
	sched_update_tick_dependency(rq);
}

/*
 * Where should @p wake? Called without the lock: every read is a hint.
 * This CPU, for a synchronous wakeup by its only task (leap_sync_here());
 * else the best idle CPU by leap_idle_rank() from @prev_cpu; else the CPU
 * running the latest key, if later than @p's; else @prev_cpu. Core
 * falls back if the answer is no longer allowed.
 */
static int select_task_rq_leap(struct task_struct *p, int prev_cpu, int wake_flags)
{
	int cpu, idle = -1, victim = -1, best = INT_MAX;
	u64 latest = leap_task_key(p);

	if (wake_flags & WF_EXEC)
		return prev_cpu;
	/*
	 * Whom a task woke last, as fair's record_wakee() keeps it: two that
	 * wake each other take turns (leap_pair_here()).
	 */
	if ((wake_flags & WF_TTWU) && in_task() && current->last_wakee != p)
		WRITE_ONCE(current->last_wakee, p);
	/* Interrupts are off from here to the enqueue (try_to_wake_up()). */
	cpu = smp_processor_id();
	if (leap_sync_here(p, cpu, wake_flags)) {
		cpu_rq(cpu)->leap.sync_hint = p;
		return cpu;
	}
	if (cpu_rq(cpu)->leap.sync_hint)
		cpu_rq(cpu)->leap.sync_hint = NULL;

	for_each_cpu_and(cpu, p->cpus_ptr, cpu_active_mask) {
		int d;

		if (available_idle_cpu(cpu)) {
			d = leap_idle_rank(prev_cpu, cpu);
			if (d < best) {
				best = d;
				idle = cpu;
				if (!d)
					break;
			}
		} else if (READ_ONCE(cpu_rq(cpu)->leap.curr_key) > latest) {
			latest = READ_ONCE(cpu_rq(cpu)->leap.curr_key);
			victim = cpu;
		}
	}
	if (idle >= 0)
		return idle;
	if (victim >= 0 && leap_may_preempt(p))
		return victim;
	return prev_cpu;
}

/*
 * @rq's CPU is going down (or leaving a root domain). If it is no longer
 * active, move the accounting of every queued task that may run
 * elsewhere, so that the CPU empties: sched_cpu_wait_empty() waits for
 * it, and no other CPU can tell this one when a remote pick did.
 */
static void rq_offline_leap(struct rq *rq)
{
	int cpu = cpu_of(rq);
	struct skiplist_node *node;

	lockdep_assert_rq_held(rq);
	if (cpu_active(cpu))
		return;
	/* Parked by cpu.max: queued again, for the loop below to move. */
	leap_group_offline(cpu);
	skiplist_for_each(node, &leap_q.list) {
		struct task_struct *p = leap_task_of(node);
		int dst;

		if (task_cpu(p) != cpu || kthread_is_per_cpu(p) ||
		    is_migration_disabled(p))
			continue;
		dst = cpumask_any_and(p->cpus_ptr, cpu_active_mask);
		if (dst < nr_cpu_ids)
			leap_move(p, rq, cpu_rq(dst), 0);
	}
}

/* Is @p on @rq, runnable, and should another task run instead? */
static void leap_check_running(struct rq *rq, struct task_struct *p)
{
	struct leap_pick lp = { .cpu = cpu_of(rq) };

	WRITE_ONCE(rq->leap.curr_key, leap_task_key(p));
	if (rq->leap.rt_throttled && leap_task_key(p) <= LEAP_ISO_KEY)
		lp.min_key = LEAP_ISO_KEY + 1;
	if (leap_best(rq, &lp) != p)
		resched_curr(rq);
}

/*
 * The fair server's defaults (fair.c, deadline.c), for a 6.12 CPU whose
 * server was never started: 6.12 sets them at its first start, 7.3 at
 * boot.
 */
#define LEAP_FAIR_SERVER_RUNTIME	(50 * NSEC_PER_MSEC)
#define LEAP_FAIR_SERVER_PERIOD		(1000 * NSEC_PER_MSEC)

/*
 * The realtime runtime of @rq's CPU in each sched_rt_period_us:
 * sched_rt_runtime_us, less what the CPU's fair server keeps. Mainline
 * runs fair tasks from a deadline server (rq->fair_server, 50 ms a
 * second unless root changes it in debugfs sched/fair_server/), so they
 * get that time under a realtime hog even with sched_rt_runtime_us -1;
 * LEAP, which never starts that server, keeps the same time for its
 * other work here. A server runtime of 0 (root's choice) keeps none.
 */
static u64 leap_rt_runtime(struct rq *rq)
{
	u64 period = global_rt_period(), runtime = global_rt_runtime();
	u64 fs_runtime = rq->fair_server.dl_runtime;
	u64 fs_period = rq->fair_server.dl_period;
	u64 keep;

	if (!fs_period) {
		fs_runtime = LEAP_FAIR_SERVER_RUNTIME;
		fs_period = LEAP_FAIR_SERVER_PERIOD;
	}
	keep = mul_u64_u64_div_u64(min(fs_runtime, fs_period), period, fs_period);
	return keep ? min(runtime, period - keep) : runtime;
}

/*
 * leap_rt_runtime() of every sched_rt_period_us for realtime keys on
 * this CPU, as mainline's rt class and fair server give: past it, the
 * CPU runs other LEAP work first until the period ends (with none,
 * realtime runs on). A tick with no realtime time counted computes no
 * runtime (RUNTIME_INF, -1, is never exceeded).
 */
static void leap_rt_period(struct rq *rq, struct task_struct *curr)
{
	u64 now = rq_clock(rq);

	if (now - rq->leap.rt_period_start >= global_rt_period()) {
		rq->leap.rt_period_start = now;
		rq->leap.rt_time = 0;
		if (rq->leap.rt_throttled) {
			rq->leap.rt_throttled = false;
			leap_check_running(rq, curr);
		}
	} else if (!rq->leap.rt_throttled && rq->leap.rt_time &&
		   rq->leap.rt_time > leap_rt_runtime(rq)) {
		rq->leap.rt_throttled = true;
		if (leap_task_key(curr) <= LEAP_ISO_KEY)
			leap_check_running(rq, curr);
	}
}

/*
 * @rq's ISO refractory state changed: give each queued SCHED_ISO task
 * accounted to it the key it has now (LEAP_ISO_KEY, or its deadline),
 * and let the CPU compare its running ISO task again. O(ISO tasks
 * queued on this CPU), through its own list: a change happens at most a
 * few times in a 5 s window (the cap and its 90% recovery mark).
 */
static void leap_iso_rekey(struct rq *rq)
{
	struct task_struct *p, *curr = rq->leap.curr;
	LIST_HEAD(todo);
	u64 key;

	list_splice_init(&rq->leap.iso_queued, &todo);
	while (!list_empty(&todo)) {
		p = list_first_entry(&todo, struct task_struct, leap.iso_node);
		/* Kept queued by a change: its enqueue re-keys it. */
		if (!p->leap.on_rq) {
			list_move_tail(&p->leap.iso_node, &rq->leap.iso_queued);
			continue;
		}
		key = leap_task_key(p);
		leap_unqueue(p);
		leap_insert(p, key);
		if (key == LEAP_ISO_KEY)
			leap_find_cpu(p, true, false);
	}
	if (curr && curr->policy == SCHED_ISO && !leap_rt(curr))
		leap_check_running(rq, curr);
}

/*
 * Per CPU: over iso_cpu percent of this CPU in the window, its ISO tasks
 * turn refractory; back under 90% of that, not. A user who pins ISO busy
 * loops to a few CPUs is capped on each of them, and ISO tasks elsewhere
 * keep their key (MuQSS and PDS account per runqueue too).
 */
static void leap_iso_check(struct rq *rq, u64 now)
{
	unsigned int iso_cpu = READ_ONCE(sysctl_leap_iso_cpu);
	struct leap_rq *lr = &rq->leap;
	bool over;

	leap_iso_roll(lr, now);
	over = leap_iso_over(leap_iso_used(lr), 1, iso_cpu,
			     lr->iso_refractory ? 90 : 100);
	if (over == lr->iso_refractory)
		return;
	lr->iso_refractory = over;
	leap_iso_rekey(rq);
}

/*
 * Every LEAP_SWEEP_NS, from a busy CPU's tick: bring the idle CPUs' state
 * up to date, which nothing does while they sleep. Their utilization
 * decays (schedutil takes the highest CPU of a shared policy, so a stale
 * value would hold the frequency up), and so does their ISO window.
 * O(CPUs), as mainline's blocked-load update from a busy CPU.
 */
static void leap_sweep_idle(u64 now)
{
	int cpu;

	if (now - leap_q.swept < LEAP_SWEEP_NS)
		return;
	leap_q.swept = now;
	for_each_online_cpu(cpu) {
		struct rq *rq = cpu_rq(cpu);

		if (rq->curr != rq->idle)
			continue;
		update_rq_clock(rq);
		leap_update_util(rq, false);
		cpufreq_update_util(rq, 0);
		leap_iso_check(rq, now);
	}
}

/*
 * RLIMIT_RTTIME: a realtime task that runs past its soft limit without
 * sleeping gets the posix CPU timers' signal (SIGXCPU, then SIGKILL at
 * the hard limit), as under the rt class. p->rt.timeout counts the
 * ticks it ran since it last woke, once a jiffy.
 */
#ifdef CONFIG_POSIX_TIMERS
static void leap_rttime_tick(struct task_struct *p)
{
	unsigned long limit, now = jiffies;

	if (!leap_rt(p))
		return;
	limit = task_rlimit(p, RLIMIT_RTTIME);
	if (limit == RLIM_INFINITY)
		return;
	/* One count a jiffy, however many ticks of this CPU see it. */
	if (p->rt.watchdog_stamp != now) {
		p->rt.watchdog_stamp = now;
		p->rt.timeout++;
	}
	limit = min(limit, task_rlimit_max(p, RLIMIT_RTTIME));
	if (p->rt.timeout > DIV_ROUND_UP(limit, USEC_PER_SEC / HZ))
		posix_cputimers_rt_watchdog(&p->posix_cputimers,
					    p->se.sum_exec_runtime);
}
#else
static inline void leap_rttime_tick(struct task_struct *p) { }
#endif

static void task_tick_leap(struct rq *rq, struct task_struct *curr, int queued)
{
	lockdep_assert_rq_held(rq);
	leap_update_curr(rq);
	leap_rttime_tick(curr);
	leap_rt_period(rq, curr);
	leap_iso_check(rq, leap_clock(rq));
	leap_sweep_idle(leap_q.niffies);
	leap_rebase(leap_q.niffies);
	leap_wake_tick(rq);
	leap_sync_tick(rq);
	leap_update_util(rq, true);
	cpufreq_update_util(rq, 0);
}

/*
 * Fork: the child takes half of the parent's remaining slice and the
 * parent's deadline, so forking cannot buy CPU time. A child of a
 * realtime task, or of a task of another class, starts with a full slice.
 */
static void task_fork_leap(struct task_struct *p)
{
	struct task_struct *curr = current;
	struct rq *rq = this_rq();
	struct rq_flags rf;
	u64 now;

	rq_lock(rq, &rf);
	update_rq_clock(rq);
	now = leap_clock(rq);
	if (curr->sched_class == &leap_sched_class && !leap_rt(curr)) {
		leap_charge(rq);
		p->leap.time_slice = curr->leap.time_slice / 2;
		curr->leap.time_slice -= p->leap.time_slice;
		p->leap.deadline = curr->leap.deadline;
		p->leap.light_key = curr->leap.light_key;
		p->leap.prio = curr->leap.prio;
		if (curr->leap.time_slice < LEAP_RESCHED_NS)
			resched_curr(rq);
	}
	if (p->leap.time_slice < LEAP_RESCHED_NS || p->leap.prio != p->prio)
		leap_renew(p, now);
	rq_unlock(rq, &rf);
}

/*
 * A queued task that is not running had a CPU found for it at its
 * enqueue, with its new key; the running one is compared here.
 */
static void switched_to_leap(struct rq *rq, struct task_struct *p)
{
	lockdep_assert_rq_held(rq);
	if (task_on_rq_queued(p) && task_current(rq, p))
		leap_check_running(rq, p);
}

/* Left the class in a change that had kept it on the list: take it off. */
static void switched_from_leap(struct rq *rq, struct task_struct *p)
{
	lockdep_assert_rq_held(rq);
	rq->leap.saved_curr = false;
	if (!p->leap.on_rq && leap_queued(p)) {
		__leap_unqueue(p, leap_q.saved);
		leap_q.saved = NULL;
	}
}

static void prio_changed_leap(struct rq *rq, struct task_struct *p, int oldprio)
{
	switched_to_leap(rq, p);
}

/*
 * sched_rr_get_interval(): 0 for FIFO (no slice), sched_rr_timeslice
 * for RR (kernel.sched_rr_timeslice_ms), else rr_interval.
 */
static unsigned int get_rr_interval_leap(struct rq *rq, struct task_struct *p)
{
	lockdep_assert_rq_held(rq);
	if (p->policy == SCHED_FIFO)
		return 0;
	if (p->policy == SCHED_RR)
		return READ_ONCE(sched_rr_timeslice);
	return msecs_to_jiffies(leap_rr_ms());
}

DEFINE_SCHED_CLASS(leap) = {
	.enqueue_task		= enqueue_task_leap,
	.dequeue_task		= dequeue_task_leap,
	.yield_task		= yield_task_leap,
	.yield_to_task		= yield_to_task_leap,
	.wakeup_preempt		= wakeup_preempt_leap,
	.pick_task		= pick_task_leap,
	.put_prev_task		= put_prev_task_leap,
	.set_next_task		= set_next_task_leap,
	.select_task_rq		= select_task_rq_leap,
	.set_cpus_allowed	= set_cpus_allowed_common,
	.rq_offline		= rq_offline_leap,
	.task_tick		= task_tick_leap,
	.task_fork		= task_fork_leap,
	.switched_from		= switched_from_leap,
	.switched_to		= switched_to_leap,
	.prio_changed		= prio_changed_leap,
	.get_rr_interval	= get_rr_interval_leap,
	.update_curr		= leap_update_curr,
};

/**
 * leap_rq_has_work - may a CPU with nothing accounted to it find work?
 * @rq:	the CPU's runqueue, locked
 *
 * __schedule() keeps an idle CPU idle without a pick when its
 * nr_running is 0; with one global queue, work accounted to other CPUs
 * may be waiting for it.
 *
 * Return: true if any task is queued on the global list or on @rq's
 * own list of tasks pinned to it.
 */
bool leap_rq_has_work(struct rq *rq)
{
	return !skiplist_empty(&leap_q.list) || !skiplist_empty(&rq->leap.pinned);
}

/**
 * leap_needs_tick - must a nohz_full CPU keep its tick for LEAP?
 * @rq:	the CPU's runqueue, locked
 *
 * sched_can_stop_tick() asks. The tick ends slices, so it runs while
 * work waits (leap_rq_has_work()). It also counts what a lone task
 * may use: RLIMIT_RTTIME for a realtime task (leap_rttime_tick()) and
 * the cpu.max quota for any other. Without the tick a lone task on a
 * nohz_full CPU is counted once a second (sched_tick_remote()): its
 * RLIMIT_RTTIME count would grow once a second instead of once a jiffy
 * (a 100 ms limit at HZ=250 would take 25 s), and a task under a quota
 * would overrun it by up to a second. A limit set on a task that is
 * already running is seen at its next pick.
 *
 * Return: true if the tick must run.
 */
bool leap_needs_tick(struct rq *rq)
{
	struct task_struct *curr = rq->leap.curr;

	if (leap_rq_has_work(rq))
		return true;
	if (!curr)
		return false;
	if (leap_rt(curr))
		return task_rlimit(curr, RLIMIT_RTTIME) != RLIM_INFINITY;
	return leap_task_key(curr) > LEAP_ISO_KEY &&
	       leap_group_bw_limited(curr);
}

/**
 * init_leap_rq - initialise a CPU's LEAP state, and once the global queue
 * @rq:	the CPU's runqueue
 *
 * Called by sched_init() for each possible CPU, before the scheduler
 * runs.
 */
void __init init_leap_rq(struct rq *rq)
{
	if (!leap_q.rand) {
		skiplist_init(&leap_q.list);
		leap_q.rand = 0x9e3779b97f4a7c15ULL;
	}
	rq->leap.curr = NULL;
	rq->leap.sticky = NULL;
	rq->leap.sync_hint = NULL;
	WRITE_ONCE(rq->leap.sync_wait, NULL);
	rq->leap.sync_ticked = false;
	WRITE_ONCE(rq->leap.curr_key, 0);
	rq->leap.nr_running = 0;
	rq->leap.renewed = false;
	rq->leap.rt_throttled = false;
	rq->leap.rt_time = 0;
	rq->leap.rt_period_start = 0;
	rq->leap.iso_refractory = false;
	INIT_LIST_HEAD(&rq->leap.iso_queued);
	skiplist_init(&rq->leap.pinned);
	rq->leap.frontier = 0;
}

static struct ctl_table leap_sysctls[] = {
	{
		.procname	= "rr_interval",
		.data		= &sysctl_leap_rr_interval,
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= SYSCTL_ONE,
		.extra2		= SYSCTL_ONE_THOUSAND,
	},
	{
		.procname	= "iso_cpu",
		.data		= &sysctl_leap_iso_cpu,
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= SYSCTL_ZERO,
		.extra2		= SYSCTL_ONE_HUNDRED,
	},
};

#ifdef CONFIG_DEBUG_FS
#define LEAP_DEBUG_ENTRIES	16

struct leap_debug_entry {
	u64	key;
	u64	deadline;
	s64	span;
	u64	burst;
	u64	sleep;
	pid_t	pid;
	int	policy;
	int	prio;
	int	cpu;
	bool	sticky;
	bool	pinned;
	char	comm[TASK_COMM_LEN];
};

struct leap_debug_cpu {
	u64	curr_key;
	pid_t	curr;
	pid_t	sticky;
	int	nr_running;
	int	leap_nr_running;
	unsigned long util;
	unsigned int pinned;
	u64	rt_time;
	u64	iso_used;
	s64	frontier;
	bool	rt_throttled;
	bool	iso_refractory;
};

static void leap_debug_entry(struct leap_debug_entry *e,
			     struct skiplist_node *node, bool pinned)
{
	struct task_struct *p = leap_task_of(node);

	e->key = node->key;
	e->deadline = p->leap.deadline;
	e->span = p->leap.renew_span;
	e->burst = p->leap.burst;
	e->sleep = p->leap.sleep;
	e->pid = p->pid;
	e->policy = p->policy;
	e->prio = p->prio;
	e->cpu = task_cpu(p);
	e->sticky = task_rq(p)->leap.sticky == p;
	e->pinned = pinned;
	strscpy(e->comm, p->comm, TASK_COMM_LEN);
}

/*
 * /sys/kernel/debug/sched/leap: a snapshot taken under the lock, printed
 * after it is dropped. Each CPU's ISO window is brought up to date first
 * (an idle CPU's is otherwise only at the next sweep).
 */
static int leap_debug_show(struct seq_file *m, void *v)
{
	struct leap_debug_entry *e;
	struct leap_debug_cpu *c;
	struct skiplist_node *node;
	unsigned int count, level, n = 0, i, nr_groups, rebases;
	unsigned long flags, deferred = 0, unlocked = 0, backoffs = 0;
	unsigned long overruns = 0;
	unsigned long passes;
	u64 niffies, iso_used;
	bool refractory;
	int cpu;

	e = kcalloc(LEAP_DEBUG_ENTRIES, sizeof(*e), GFP_KERNEL);
	c = kcalloc(nr_cpu_ids, sizeof(*c), GFP_KERNEL);
	if (!e || !c) {
		kfree(e);
		kfree(c);
		return -ENOMEM;
	}

	raw_spin_lock_irqsave(&leap_rq_lock, flags);
	update_rq_clock(this_rq());
	niffies = leap_clock(this_rq());
	iso_used = 0;
	refractory = false;
	for_each_online_cpu(cpu) {
		struct rq *rq = cpu_rq(cpu);

		leap_iso_check(rq, niffies);
		c[cpu].iso_used = leap_iso_used(&rq->leap);
		c[cpu].pinned = skiplist_count(&rq->leap.pinned);
		c[cpu].iso_refractory = rq->leap.iso_refractory;
		iso_used += c[cpu].iso_used;
		refractory |= rq->leap.iso_refractory;
	}
	count = skiplist_count(&leap_q.list);
	for_each_online_cpu(cpu)
		count += c[cpu].pinned;
	level = leap_q.list.level;
	nr_groups = leap_q.nr_groups;
	rebases = leap_q.rebases;
	passes = leap_q.passes;
	skiplist_for_each(node, &leap_q.list) {
		if (n == LEAP_DEBUG_ENTRIES)
			break;
		leap_debug_entry(&e[n++], node, false);
	}
	/* Then the first of each CPU's pinned list, while there is room. */
	for_each_online_cpu(cpu) {
		skiplist_for_each(node, &cpu_rq(cpu)->leap.pinned) {
			if (n == LEAP_DEBUG_ENTRIES)
				break;
			leap_debug_entry(&e[n++], node, true);
		}
	}
	for_each_online_cpu(cpu) {
		struct rq *rq = cpu_rq(cpu);

		c[cpu].curr_key = rq->leap.curr_key;
		c[cpu].curr = rq->leap.curr ? rq->leap.curr->pid : 0;
		c[cpu].sticky = rq->leap.sticky ? rq->leap.sticky->pid : 0;
		c[cpu].nr_running = rq->nr_running;
		c[cpu].leap_nr_running = rq->leap.nr_running;
		c[cpu].rt_time = rq->leap.rt_time;
		c[cpu].rt_throttled = rq->leap.rt_throttled;
		c[cpu].frontier = rq->leap.frontier;
		deferred += READ_ONCE(rq->leap.ttwu_defers);
		unlocked += rq->leap.unlocked_switches;
		backoffs += rq->leap.pair_backoffs;
		overruns += rq->leap.pair_overruns;
#ifdef CONFIG_SMP
		c[cpu].util = cpu_util_rt(rq);
#endif
	}
	raw_spin_unlock_irqrestore(&leap_rq_lock, flags);

	seq_printf(m, "rr_interval_ms: %u\nniffies: %llu\nentries: %u\ntop_level: %u\n",
		   leap_rr_ms(), niffies, count, level);
	/*
	 * ISO+RT use over the window, in tenths of a percent of all CPUs;
	 * refractory: 1 if any CPU is (each CPU's own in the table).
	 */
	seq_printf(m, "iso_cpu: %d\niso_used_permille: %llu\niso_refractory: %d\n",
		   READ_ONCE(sysctl_leap_iso_cpu),
		   div64_u64(iso_used * 1000, LEAP_ISO_WINDOW_NS * num_online_cpus()),
		   refractory);
	/* Runnable tasks of groups other than the root; leap_rebase()s. */
	seq_printf(m, "group_tasks: %u\ngroup_rebases: %u\n", nr_groups,
		   rebases);
	/* Synchronous wakeups left for the waker's schedule (leap_ttwu_defer()). */
	seq_printf(m, "sync_deferred: %lu\n", deferred);
	/*
	 * Context switches made without the lock (leap_switch_unlock()), and
	 * picks that skipped a task still switching out (leap_switching_out()).
	 */
	seq_printf(m, "switches_unlocked: %lu\nswitch_passes: %lu\n", unlocked,
		   passes);
	/*
	 * Holds that a waker ran on past, and the backoffs they started
	 * (leap_pair_backoff()).
	 */
	seq_printf(m, "pair_overruns: %lu\npair_backoffs: %lu\n", overruns,
		   backoffs);
	seq_puts(m, "\ncpu nr_running leap_nr_running curr curr_key sticky util rt_ms throttled iso_permille iso_refractory pinned frontier_us\n");
	for_each_online_cpu(cpu)
		seq_printf(m, "%3d %10d %15d %5d %20llu %6d %4lu %5llu %9d %12llu %14d %6u %11lld\n",
			   cpu, c[cpu].nr_running, c[cpu].leap_nr_running,
			   c[cpu].curr, c[cpu].curr_key, c[cpu].sticky,
			   c[cpu].util, div_u64(c[cpu].rt_time, NSEC_PER_MSEC),
			   c[cpu].rt_throttled,
			   div64_u64(c[cpu].iso_used * 1000, LEAP_ISO_WINDOW_NS),
			   c[cpu].iso_refractory, c[cpu].pinned,
			   div_s64(c[cpu].frontier, NSEC_PER_USEC));
	seq_printf(m, "\nfirst %u queued on the global list, then on each CPU's pinned list (key order):\n",
		   n);
	seq_puts(m, "   pid policy prio cpu sticky pinned                  key  deadline-niffies  span_us burst_us sleep_us comm\n");
	for (i = 0; i < n; i++)
		seq_printf(m, "%6d %6d %4d %3d %6d %6d %20llu %17lld %8lld %8llu %8llu %s\n",
			   e[i].pid, e[i].policy, e[i].prio, e[i].cpu,
			   e[i].sticky, e[i].pinned, e[i].key,
			   (s64)(e[i].deadline - niffies),
			   div_s64(e[i].span, NSEC_PER_USEC),
			   div_u64(e[i].burst, NSEC_PER_USEC),
			   div_u64(e[i].sleep, NSEC_PER_USEC), e[i].comm);
	kfree(e);
	kfree(c);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(leap_debug);

/*
 * In debugfs's sched/ (made by SCHED_DEBUG, else here). With debugfs off
 * (debugfs=off, DEBUG_FS_ALLOW_NONE) the lookup finds nothing and the
 * creations return errors, which debugfs_create_file() takes as a parent
 * and ignores: only a dentry the lookup returned is put.
 */
static void __init leap_debugfs_init(void)
{
	struct dentry *dir = debugfs_lookup("sched", NULL);

	if (IS_ERR_OR_NULL(dir)) {
		dir = debugfs_create_dir("sched", NULL);
		debugfs_create_file("leap", 0444, dir, NULL, &leap_debug_fops);
		return;
	}
	debugfs_create_file("leap", 0444, dir, NULL, &leap_debug_fops);
	dput(dir);
}
#else
static inline void leap_debugfs_init(void) { }
#endif

static int __init leap_late_init(void)
{
	register_sysctl_init("kernel", leap_sysctls);
	leap_debugfs_init();
	pr_info("LEAP: global skip-list scheduler active (rr_interval %d ms, iso_cpu %d%%, %u CPUs)\n",
		leap_rr_ms(), READ_ONCE(sysctl_leap_iso_cpu), num_possible_cpus());
	return 0;
}
late_initcall_sync(leap_late_init);
