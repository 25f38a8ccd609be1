/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * LEAP scheduler: the per-task state, embedded in struct task_struct.
 *
 * LEAP (kernel/sched/leap.c) keeps every runnable task it owns, except
 * the ones running, in one global skip list ordered by a 64-bit key.
 * The list node lives here, in the task, so that queueing a task never
 * allocates. A task is on the list iff skiplist_node_queued(&leap.node).
 *
 * Cost: O(1) to initialise.
 *
 * Locking: every field is read and written under LEAP's global runqueue
 * lock (leap_rq_lock, which every rq lock is under CONFIG_SCHED_LEAP),
 * except at fork, before the task is visible to the scheduler.
 */
#ifndef _LINUX_SCHED_LEAP_H
#define _LINUX_SCHED_LEAP_H

#ifdef CONFIG_SCHED_LEAP

#include <linux/cache.h>
#include <linux/list.h>
#include <linux/skiplist.h>
#include <linux/types.h>

struct task_group;

/**
 * struct sched_leap_entity - a task's LEAP state
 * @node:	the task's node on the global run list; starts a cache line,
 *		so that a search or delete touches one line for most nodes
 * @deadline:	virtual deadline, in LEAP's nanosecond clock
 * @time_slice:	what is left of the task's slice, in ns
 * @prio:	the task's prio when @deadline was set; a different prio
 *		at the next enqueue renews the deadline
 * @on_rq:	the task is runnable and accounted to task_cpu()'s rq
 *		(queued on the list, or running)
 * @lifted:	a SCHED_IDLE task that others may be waiting for (fatal
 *		signal, exiting, freezing, in an RCU read-side section, or
 *		woken from an uninterruptible sleep): it sorts as NORMAL
 * @woke_held:	woken from an uninterruptible sleep, and neither slept
 *		nor used up a slice since: it may hold what others wait for
 * @iso_node:	on task_rq()'s list of queued SCHED_ISO tasks, if one
 * @awake:	CPU time since it last woke, ns (at most LEAP_LIGHT_CAP_NS)
 * @burst:	CPU time from a wakeup to the next sleep, ns: a moving
 *		average over its last sleeps
 * @sleep:	time asleep per sleep, ns: a moving average
 * @slept:	LEAP's clock when it last went to sleep
 * @renew_span:	how far ahead its deadline was set at its last slice
 *		renewal, ns (negative: before the clock)
 * @sample_ok:	that renewal set a busy deadline, and it has not slept
 *		or been picked since: its next pick samples the picking
 *		CPU's frontier (leap.c, leap_frontier_sample())
 * @late:	how late its own picks come against its busy deadlines, ns:
 *		a moving average of those samples, valid once @late_set
 * @late_set:	@late has a sample
 * @light_key:	@deadline is a light key (leap.c, leap_place_light()),
 *		set since its last new deadline
 * @busy_dl:	while @light_key, the deadline the first light key of its
 *		slice replaced (kernel/sched/leap.h, leap_rekey())
 * @dl_held:	its busy deadline, which had passed while its group was over
 *		its share, was moved to the clock (leap.c, leap_dl_hold()):
 *		not again until it runs
 * @tg:		the cgroup cpu group whose load it is counted in while
 *		runnable (kernel/sched/leap_group.c), or NULL
 * @weight:	what it adds to @tg's load
 * @kthread:	a kernel thread counted in the root group's load
 * @park_node:	on a throttled group's list of parked tasks (cpu.max)
 * @parked_on:	that group, while the task is parked: runnable, but on
 *		no run list
 * @group_node:	on LEAP's list of the runnable tasks of groups other
 *		than the root (leap.c, leap_rebase())
 * @pair_retry:	jiffies_64 until which a wakee that takes turns with this
 *		task is held for its CPU only as any other (leap.c,
 *		leap_pair_here()): it ran on past its wakees' holds. Written
 *		by its CPU's tick under the lock, read by the task itself
 * @pair_strikes: its holds released at the tick since one last ended in
 *		its wakee's pick (leap.c, leap_pair_backoff())
 */
struct sched_leap_entity {
	struct skiplist_node	node ____cacheline_aligned;
	u64			deadline;
	s64			time_slice;
	int			prio;
	bool			on_rq;
	bool			lifted;
	bool			woke_held;
	struct list_head	iso_node;
	u64			awake;
	u64			burst;
	u64			sleep;
	u64			slept;
	s64			renew_span;
	bool			sample_ok;
	bool			late_set;
	bool			light_key;
	bool			dl_held;
	u64			busy_dl;
	s64			late;
#ifdef CONFIG_CGROUP_SCHED
	struct task_group	*tg;
	unsigned long		weight;
	bool			kthread;
	struct list_head	park_node;
	struct task_group	*parked_on;
	struct list_head	group_node;
#endif
	u64			pair_retry;
	unsigned int		pair_strikes;
};

/**
 * init_leap_entity - initialise a task's LEAP state as not runnable
 * @le:	the task's entity
 *
 * Called by __sched_fork(): the child's copy of the parent's node must
 * not look queued. The slice and the deadline are set when the task
 * joins the LEAP class (leap.c: task_fork, switched_to).
 */
static inline void init_leap_entity(struct sched_leap_entity *le)
{
	skiplist_node_init(&le->node);
	le->deadline = 0;
	le->time_slice = 0;
	le->prio = -1;
	le->on_rq = false;
	le->lifted = false;
	le->woke_held = false;
	INIT_LIST_HEAD(&le->iso_node);
	le->awake = 0;
	le->burst = 0;
	le->sleep = 0;
	le->slept = 0;
	le->renew_span = 0;
	le->sample_ok = false;
	le->late_set = false;
	le->light_key = false;
	le->dl_held = false;
	le->busy_dl = 0;
	le->late = 0;
#ifdef CONFIG_CGROUP_SCHED
	le->tg = NULL;
	le->weight = 0;
	le->kthread = false;
	INIT_LIST_HEAD(&le->park_node);
	le->parked_on = NULL;
	INIT_LIST_HEAD(&le->group_node);
#endif
	le->pair_retry = 0;
	le->pair_strikes = 0;
}

#endif /* CONFIG_SCHED_LEAP */
#endif /* _LINUX_SCHED_LEAP_H */
