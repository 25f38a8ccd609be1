// SPDX-License-Identifier: GPL-2.0
/*
 * LEAP-only behaviour: every policy in one key. Skipped, with the reason,
 * on a kernel without LEAP (no kernel.iso_cpu).
 *
 *  - SCHED_ISO: the iso_cpu cap holds under an ISO hog on every CPU (the
 *    normal hog beside each still gets about 100 - iso_cpu percent), ISO
 *    tasks turn refractory and recover once the hogs stop, and then an ISO
 *    task again runs ahead of a normal one;
 *  - global realtime order: with N CPUs and N + 1 FIFO hogs, the lowest
 *    priority one gets (almost) nothing, wherever it was started;
 *  - realtime throttling honours sched_rt_runtime_us: a FIFO hog leaves a
 *    normal task some CPU by default, none with -1; so does an ISO hog
 *    that stays under the iso_cpu cap;
 *  - sched_rr_get_interval() reports LEAP's slice: rr_interval for RR and
 *    ISO, 0 for FIFO.
 *
 * Spinners are measured with each other's CPU clocks
 * (clock_getcpuclockid()), while this process, at a realtime priority
 * above them, samples; no check depends on the machine's speed.
 */
#include "leap_util.h"
#include "../kselftest_harness.h"

#include <sys/prctl.h>

#define DEBUGFS_LEAP	"/sys/kernel/debug/sched/leap"

/* A child spinning under @policy, pinned to @cpu (-1: anywhere). */
static pid_t spinner(int policy, int prio, int cpu)
{
	struct sched_param sp = { .sched_priority = prio };
	pid_t pid = fork();

	if (pid)
		return pid;
	/* A failed ASSERT ends the test process: take the spinners along. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() == 1)
		_exit(1);
	if (cpu >= 0 && pin_to(0, cpu))
		_exit(2);
	if (sched_setscheduler(0, policy, &sp))
		_exit(3);
	for (;;)
		;
}

static void stop(pid_t *pids, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (pids[i] > 0)
			kill(pids[i], SIGKILL);
	for (i = 0; i < n; i++)
		if (pids[i] > 0)
			waitpid(pids[i], NULL, 0);
}

/* CPU time of process @pid so far, in seconds; -1 if it is gone. */
static double cputime(pid_t pid)
{
	clockid_t clk;
	struct timespec ts;

	if (clock_getcpuclockid(pid, &clk) || clock_gettime(clk, &ts))
		return -1;
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* CPU time each of @n processes gets in @secs of wall time, into @d. */
static void measure(pid_t *pids, int n, double secs, double *d)
{
	double t0[64];
	int i;

	for (i = 0; i < n; i++)
		t0[i] = cputime(pids[i]);
	usleep(secs * 1e6);
	for (i = 0; i < n; i++)
		d[i] = cputime(pids[i]) - t0[i];
}

/* This process above the spinners, so that it samples on time. */
static int sampler_rt(int on)
{
	struct sched_param sp = { .sched_priority = on ? 50 : 0 };

	return sched_setscheduler(0, on ? SCHED_FIFO : SCHED_OTHER, &sp);
}

/* A "name: value" line of LEAP's debugfs view; -1 if absent. */
static long leap_debug(const char *name)
{
	char buf[8192], *p;
	size_t len = strlen(name);
	int fd = open(DEBUGFS_LEAP, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	for (p = buf; p; p = strchr(p, '\n')) {
		if (*p == '\n')
			p++;
		if (!strncmp(p, name, len) && p[len] == ':')
			return atol(p + len + 1);
	}
	return -1;
}

static int sysctl_read(const char *path)
{
	char buf[32] = "";
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -1;
	if (read(fd, buf, sizeof(buf) - 1) < 0)
		buf[0] = 0;
	close(fd);
	return atoi(buf);
}

static int sysctl_write(const char *path, int v)
{
	char buf[32];
	int fd = open(path, O_WRONLY), len, ret;

	if (fd < 0)
		return -1;
	len = snprintf(buf, sizeof(buf), "%d\n", v);
	ret = write(fd, buf, len) == len ? 0 : -1;
	close(fd);
	return ret;
}

/* Wait up to @secs for ISO to be (@want 1) or not be (0) refractory. */
static int wait_refractory(int want, double secs)
{
	double end = now_s(CLOCK_MONOTONIC) + secs;

	do {
		if (leap_debug("iso_refractory") == want)
			return 0;
		usleep(100000);
	} while (now_s(CLOCK_MONOTONIC) < end);
	return -1;
}

/*
 * Wait up to @secs for ISO+RT use over the window to fall to @permille
 * of all CPUs or less, and ISO not to be refractory: a test starts from
 * a quiet window, whatever ran before it.
 */
static int wait_quiet(long permille, double secs)
{
	double end = now_s(CLOCK_MONOTONIC) + secs;

	do {
		if (leap_debug("iso_used_permille") <= permille &&
		    leap_debug("iso_refractory") == 0)
			return 0;
		usleep(100000);
	} while (now_s(CLOCK_MONOTONIC) < end);
	return -1;
}

/* The tests take up to half a minute: a fixture for a longer timeout. */
FIXTURE(leap) {};
FIXTURE_SETUP(leap) {}
FIXTURE_TEARDOWN(leap) {}

#define NEED_LEAP() do {						\
	if (access("/proc/sys/kernel/iso_cpu", F_OK))			\
		SKIP(return, "not a LEAP kernel with SCHED_ISO");	\
	if (leap_debug("iso_refractory") < 0)				\
		SKIP(return, "no " DEBUGFS_LEAP " (debugfs)");		\
} while (0)

/*
 * An ISO hog and a normal hog on every CPU: ISO runs ahead until its use
 * reaches iso_cpu percent of all CPUs, then turns refractory; from then
 * on the normal hogs get about 100 - iso_cpu percent.
 */
TEST_F_TIMEOUT(leap, iso_cap_holds_and_recovers, 90)
{
	int n = online_cpus(), i, iso_cpu;
	pid_t pids[128];
	double d[128], iso = 0, normal = 0, s;

	NEED_LEAP();
	if (n > 64)
		n = 64;
	iso_cpu = sysctl_read("/proc/sys/kernel/iso_cpu");
	ASSERT_EQ(0, wait_quiet(50, 10)) TH_LOG("ISO/RT use high before the test");
	ASSERT_EQ(0, sampler_rt(1));
	for (i = 0; i < n; i++) {
		pids[2 * i] = spinner(SCHED_ISO, 0, nth_cpu(i));
		pids[2 * i + 1] = spinner(SCHED_OTHER, 0, nth_cpu(i));
	}
	/* 100% ISO reaches the cap after iso_cpu% of the 5 s window. */
	EXPECT_EQ(0, wait_refractory(1, 8)) TH_LOG("never turned refractory");
	measure(pids, 2 * n, 5, d);
	for (i = 0; i < n; i++) {
		iso += d[2 * i];
		normal += d[2 * i + 1];
	}
	stop(pids, 2 * n);
	sampler_rt(0);
	ASSERT_GT(iso + normal, 0);
	s = normal / (iso + normal);
	TH_LOG("iso_cpu %d: normal hogs got %.1f%%, ISO hogs %.1f%%", iso_cpu,
	       100 * s, 100 * (1 - s));
	EXPECT_GT(s, (100 - iso_cpu) / 100.0 - 0.10);
	/* ISO still comes first most of the time. */
	EXPECT_GT(1 - s, 0.5);
	/* The hogs are gone: use falls under 90% of the cap within a window. */
	EXPECT_EQ(0, wait_refractory(0, 6)) TH_LOG("still refractory 6 s later");
}

/*
 * An ISO hog and a normal hog on the first CPU, measured for @secs while
 * this process samples above them: their CPU times in @d[0] (ISO) and
 * @d[1]. Return: whether ISO was refractory at the end (0 or 1), -1 if
 * this process could not take a realtime priority.
 */
static int iso_beside_normal(double secs, double *d)
{
	pid_t pids[2];
	int refractory;

	if (sampler_rt(1))
		return -1;
	pids[0] = spinner(SCHED_ISO, 0, nth_cpu(0));
	pids[1] = spinner(SCHED_OTHER, 0, nth_cpu(0));
	usleep(100000);
	measure(pids, 2, secs, d);
	refractory = leap_debug("iso_refractory");
	stop(pids, 2);
	sampler_rt(0);
	return refractory;
}

/* Not refractory: an ISO hog runs ahead of a normal hog on its CPU. */
TEST_F_TIMEOUT(leap, iso_runs_before_normal, 90)
{
	double d[2];

	NEED_LEAP();
	ASSERT_EQ(0, wait_quiet(50, 10)) TH_LOG("ISO/RT use high before the test");
	ASSERT_NE(-1, iso_beside_normal(1, d));
	TH_LOG("ISO %.3f s, normal %.3f s", d[0], d[1]);
	ASSERT_GT(d[0] + d[1], 0);
	EXPECT_GT(d[0] / (d[0] + d[1]), 0.85);
}

/*
 * N + 1 FIFO hogs of distinct priorities on N CPUs, started anywhere:
 * the N highest run, the lowest waits, whichever CPU it started on.
 */
TEST_F_TIMEOUT(leap, rt_global_order, 90)
{
	int n = online_cpus(), i;
	pid_t pids[65];
	double d[65], least = 1e9;

	NEED_LEAP();
	if (n < 2)
		SKIP(return, "needs 2 CPUs");
	if (n > 64)
		n = 64;
	ASSERT_EQ(0, sampler_rt(1));
	/* pids[0] has the lowest priority; start it first, on the first CPU. */
	for (i = 0; i <= n; i++)
		pids[i] = spinner(SCHED_FIFO, 10 + i, i ? -1 : nth_cpu(0));
	usleep(200000);
	measure(pids, n + 1, 1, d);
	stop(pids, n + 1);
	sampler_rt(0);
	for (i = 1; i <= n; i++)
		if (d[i] < least)
			least = d[i];
	TH_LOG("%d CPUs: lowest FIFO hog %.3f s, the others at least %.3f s",
	       n, d[0], least);
	EXPECT_GT(least, 0.5 * d[1]);
	EXPECT_LT(d[0], 0.1 * least);
}

/*
 * sched_rt_runtime_us of every sched_rt_period_us: a FIFO hog leaves a
 * normal hog on its CPU a little (5% of each full period by default);
 * with -1, nothing. 3.5 s hold at least two full periods; the first,
 * partial one may end before the hog used up its runtime.
 */
TEST_F_TIMEOUT(leap, rt_throttling, 90)
{
	const char *rt = "/proc/sys/kernel/sched_rt_runtime_us";
	int old = sysctl_read(rt);
	pid_t pids[2];
	double d[2], s_on, s_off;

	NEED_LEAP();
	ASSERT_EQ(0, sampler_rt(1));
	pids[0] = spinner(SCHED_FIFO, 10, nth_cpu(0));
	pids[1] = spinner(SCHED_OTHER, 0, nth_cpu(0));
	usleep(100000);
	measure(pids, 2, 3.5, d);
	s_on = d[1] / (d[0] + d[1]);
	ASSERT_EQ(0, sysctl_write(rt, -1));
	usleep(100000);
	measure(pids, 2, 2.5, d);
	s_off = d[1] / (d[0] + d[1]);
	ASSERT_EQ(0, sysctl_write(rt, old));
	stop(pids, 2);
	sampler_rt(0);
	TH_LOG("normal beside FIFO: %.1f%% (runtime %d us), %.2f%% (-1)",
	       100 * s_on, old, 100 * s_off);
	EXPECT_GT(s_on, 0.015);
	EXPECT_LT(s_on, 0.25);
	EXPECT_LT(s_off, 0.01);
}

/*
 * A SCHED_ISO hog (a policy any user may take) on one of N >= 2 CPUs
 * stays under the iso_cpu cap (1/N of all CPUs), so it never turns
 * refractory; its CPU's sched_rt_runtime_us still leaves a normal task
 * there some time, as it does beside a FIFO hog. Otherwise that CPU's
 * kworkers would never run.
 */
TEST_F_TIMEOUT(leap, iso_leaves_its_cpu_time, 90)
{
	int n = online_cpus(), iso_cpu;
	double d[2], s;

	NEED_LEAP();
	iso_cpu = sysctl_read("/proc/sys/kernel/iso_cpu");
	if (n < 2 || n * iso_cpu <= 110)
		SKIP(return, "needs one CPU under the iso_cpu cap (%d CPUs, %d%%)",
		     n, iso_cpu);
	if (sysctl_read("/proc/sys/kernel/sched_rt_runtime_us") < 0)
		SKIP(return, "realtime throttling is off");
	ASSERT_EQ(0, wait_quiet(50, 10)) TH_LOG("ISO/RT use high before the test");
	EXPECT_EQ(0, iso_beside_normal(3.5, d)) TH_LOG("turned refractory");
	ASSERT_GT(d[0] + d[1], 0);
	s = d[1] / (d[0] + d[1]);
	TH_LOG("normal beside an ISO hog on 1 of %d CPUs: %.1f%%", n, 100 * s);
	EXPECT_GT(s, 0.015);
	EXPECT_LT(s, 0.25);
}

/* The slice sched_rr_get_interval() reports is LEAP's. */
TEST_F_TIMEOUT(leap, rr_interval_reported, 90)
{
	int rr = sysctl_read("/proc/sys/kernel/rr_interval");
	struct sched_param sp = { .sched_priority = 5 };
	struct timespec ts;
	double want = rr / 1e3;

	NEED_LEAP();
	ASSERT_EQ(0, sched_setscheduler(0, SCHED_RR, &sp));
	ASSERT_EQ(0, sched_rr_get_interval(0, &ts));
	/* Reported in jiffies: within one tick (at most 10 ms) of rr_interval. */
	EXPECT_LT(abs((int)((ts.tv_sec + ts.tv_nsec / 1e9 - want) * 1e6)), 10000);
	ASSERT_EQ(0, sched_setscheduler(0, SCHED_FIFO, &sp));
	ASSERT_EQ(0, sched_rr_get_interval(0, &ts));
	EXPECT_EQ(0, ts.tv_sec);
	EXPECT_EQ(0, ts.tv_nsec);
	sp.sched_priority = 0;
	ASSERT_EQ(0, sched_setscheduler(0, SCHED_ISO, &sp));
	ASSERT_EQ(0, sched_rr_get_interval(0, &ts));
	EXPECT_LT(abs((int)((ts.tv_sec + ts.tv_nsec / 1e9 - want) * 1e6)), 10000);
	ASSERT_EQ(0, sched_setscheduler(0, SCHED_OTHER, &sp));
}

TEST_HARNESS_MAIN
