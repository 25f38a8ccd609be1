// SPDX-License-Identifier: GPL-2.0
/*
 * Scheduling behaviour every Linux scheduler must show, measured by
 * comparing tasks with each other: CPU-time shares of hogs that share one
 * CPU, sched_getcpu() sampling, preemption gaps. No check depends on how
 * fast the machine is; tolerances are wide, because the suite also runs
 * under QEMU's software emulation.
 *
 *  - a SCHED_FIFO task on a CPU runs before (starves) a normal one there;
 *  - SCHED_RR tasks of equal priority alternate and share the CPU;
 *  - a higher nice value gets less CPU, monotonically;
 *  - SCHED_IDLE gets almost nothing next to a normal hog;
 *  - a pinned task never runs outside its CPU set, and an affinity change
 *    takes effect;
 *  - N hogs on N CPUs each get about a CPU;
 *  - a waking task on an idle machine runs promptly.
 */
#include "leap_util.h"
#include "../kselftest_harness.h"

#define SPIN	1.0	/* seconds each hog spins for */

static double share(struct hog *a, struct hog *b)
{
	return a->cpu_time / (a->cpu_time + b->cpu_time);
}

static struct hog normal_hog(int cpu, int nice)
{
	struct hog h = { .cpu = cpu, .policy = SCHED_OTHER, .nice = nice,
			 .seconds = SPIN };
	return h;
}

TEST(fifo_runs_before_normal)
{
	struct hog h[2] = { normal_hog(0, 0), normal_hog(0, 0) };

	h[1].policy = SCHED_FIFO;
	h[1].prio = 10;
	ASSERT_EQ(0, hogs_run(h, 2));
	TH_LOG("normal %.3fs, fifo %.3fs", h[0].cpu_time, h[1].cpu_time);
	/* RT throttling leaves the normal task at most 5% by default. */
	EXPECT_GT(share(&h[1], &h[0]), 0.85);
}

TEST(rr_equal_prio_alternate)
{
	struct hog h[2] = { normal_hog(0, 0), normal_hog(0, 0) };
	int i;

	for (i = 0; i < 2; i++) {
		h[i].policy = SCHED_RR;
		h[i].prio = 10;
	}
	ASSERT_EQ(0, hogs_run(h, 2));
	TH_LOG("rr %.3fs (%d gaps), rr %.3fs (%d gaps)", h[0].cpu_time,
	       h[0].preempted, h[1].cpu_time, h[1].preempted);
	EXPECT_GT(share(&h[0], &h[1]), 0.25);
	EXPECT_LT(share(&h[0], &h[1]), 0.75);
	/* Each was preempted by the other more than once: they alternated. */
	EXPECT_GE(h[0].preempted, 2);
	EXPECT_GE(h[1].preempted, 2);
}

TEST(nice_monotonic)
{
	static const int nices[] = { 0, 3, 8, 19 };
	double prev = 0, s;
	unsigned int i;

	for (i = 0; i < sizeof(nices) / sizeof(nices[0]); i++) {
		struct hog h[2] = { normal_hog(0, 0), normal_hog(0, nices[i]) };

		ASSERT_EQ(0, hogs_run(h, 2));
		s = share(&h[0], &h[1]);
		TH_LOG("nice 0 vs nice %d: nice 0 gets %.1f%%", nices[i], 100 * s);
		if (i == 0) {
			EXPECT_GT(s, 0.35);
			EXPECT_LT(s, 0.65);
		} else {
			EXPECT_GT(s, prev - 0.02);
		}
		prev = s;
	}
	EXPECT_GT(prev, 0.75) TH_LOG("nice 19 should get far less than nice 0");
}

TEST(sched_idle_starves)
{
	struct hog h[2] = { normal_hog(0, 0), normal_hog(0, 0) };

	h[1].policy = SCHED_IDLE;
	ASSERT_EQ(0, hogs_run(h, 2));
	TH_LOG("normal %.3fs, idle %.3fs", h[0].cpu_time, h[1].cpu_time);
	EXPECT_LT(share(&h[1], &h[0]), 0.10);
}

TEST(pinned_stays)
{
	int cpu = nth_cpu(online_cpus() - 1), bad = 0, n;
	cpu_set_t set;

	if (online_cpus() < 2)
		SKIP(return, "needs 2 CPUs");
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(set), &set));
	for (n = 0; n < 200000; n++) {
		if (sched_getcpu() != cpu)
			bad++;
		if (n % 1000 == 0)
			sched_yield();
	}
	EXPECT_EQ(0, bad);
	ASSERT_EQ(0, pin_to(0, nth_cpu(0)));
	for (n = 0, bad = 0; n < 100000; n++)
		if (sched_getcpu() != nth_cpu(0))
			bad++;
	EXPECT_EQ(0, bad) TH_LOG("affinity change did not take effect");
	CPU_ZERO(&set);
	for (n = 0; n < online_cpus(); n++)
		CPU_SET(n, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

TEST(affinity_change_moves_running_task)
{
	struct hog h = normal_hog(-1, 0);
	int go[2], i, moved = 0;
	double t0;
	cpu_set_t set;

	if (online_cpus() < 2)
		SKIP(return, "needs 2 CPUs");
	h.cpu = nth_cpu(0);
	h.seconds = 2 * SPIN;
	ASSERT_EQ(0, pipe(go));
	ASSERT_EQ(0, hog_start(&h, go[0]));
	t0 = now_s(CLOCK_MONOTONIC) + h.seconds;
	ASSERT_EQ(sizeof(t0), write(go[1], &t0, sizeof(t0)));
	usleep(200000);
	/* Move the running hog to the last CPU; /proc says where it runs. */
	ASSERT_EQ(0, pin_to(h.pid, nth_cpu(online_cpus() - 1)));
	for (i = 0; i < 50 && !moved; i++) {
		char path[64], buf[1024], *p;
		int fd, n, field;

		usleep(20000);
		snprintf(path, sizeof(path), "/proc/%d/stat", h.pid);
		fd = open(path, 0);
		ASSERT_LE(0, fd);
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		ASSERT_LT(0, n);
		buf[n] = 0;
		p = strrchr(buf, ')');
		for (field = 2; p && field < 39; field++)
			p = strchr(p + 1, ' ');
		if (p && atoi(p + 1) == nth_cpu(online_cpus() - 1))
			moved = 1;
	}
	EXPECT_TRUE(moved);
	EXPECT_EQ(0, sched_getaffinity(h.pid, sizeof(set), &set));
	EXPECT_TRUE(CPU_ISSET(nth_cpu(online_cpus() - 1), &set));
	EXPECT_EQ(0, hog_finish(&h));
	close(go[0]);
	close(go[1]);
}

TEST(n_hogs_on_n_cpus)
{
	int n = online_cpus(), i;
	struct hog h[64];
	double share, min = 1e9, max = 0;

	if (n > 64)
		n = 64;
	for (i = 0; i < n; i++)
		h[i] = normal_hog(-1, 0);
	ASSERT_EQ(0, hogs_run(h, n));
	/*
	 * Each hog's share of a CPU over its own window: the hogs are
	 * released one by one through a pipe, which with many vCPUs on a
	 * small host takes a visible part of the run, so the windows differ.
	 */
	for (i = 0; i < n; i++) {
		ASSERT_GT(h[i].window, 0);
		share = h[i].cpu_time / h[i].window;
		if (share < min)
			min = share;
		if (share > max)
			max = share;
	}
	TH_LOG("%d hogs on %d CPUs: %.2f .. %.2f of a CPU each", n, n, min, max);
	/* Each gets about a CPU: none is left far behind the best. */
	EXPECT_GT(min, 0.6 * max);
}

TEST(wakeup_prompt)
{
	double slept[21], t0, t1, work, tmp;
	int i, j;

	/*
	 * Sleep 2 ms, 21 times, on an otherwise idle machine: the median
	 * overshoot must stay within a few timer ticks of the sleep, here
	 * bounded by the time the same loop spends computing 10 ms of work,
	 * so that the bound scales with the machine's speed.
	 */
	t0 = now_s(CLOCK_MONOTONIC);
	for (tmp = 0, i = 0; i < 2000000; i++)
		tmp += i * 0.5;
	work = now_s(CLOCK_MONOTONIC) - t0 + (tmp < 0);
	for (i = 0; i < 21; i++) {
		struct timespec ts = { 0, 2000000 };

		t0 = now_s(CLOCK_MONOTONIC);
		nanosleep(&ts, NULL);
		t1 = now_s(CLOCK_MONOTONIC);
		slept[i] = t1 - t0 - 0.002;
	}
	for (i = 0; i < 21; i++)
		for (j = i + 1; j < 21; j++)
			if (slept[j] < slept[i]) {
				tmp = slept[i];
				slept[i] = slept[j];
				slept[j] = tmp;
			}
	TH_LOG("median wakeup overshoot %.3f ms (work unit %.3f ms)",
	       slept[10] * 1e3, work * 1e3);
	EXPECT_LT(slept[10], 0.005 + 5 * work);
}

TEST_HARNESS_MAIN
