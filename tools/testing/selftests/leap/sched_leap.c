// SPDX-License-Identifier: GPL-2.0
/*
 * LEAP-only behaviour: every policy in one key. Skipped, with the reason,
 * on a kernel without LEAP (no kernel.rr_interval); on LEAP, a missing
 * kernel.iso_cpu or debugfs view fails.
 *
 *  - SCHED_ISO: the iso_cpu cap holds under an ISO hog on every CPU (the
 *    normal hog beside each still gets about 100 - iso_cpu percent), ISO
 *    tasks turn refractory and recover once the hogs stop, and then an ISO
 *    task again runs ahead of a normal one;
 *  - global realtime order: with N CPUs and N + 1 FIFO hogs, the lowest
 *    priority one gets (almost) nothing, wherever it was started;
 *  - realtime throttling honours sched_rt_runtime_us: a FIFO hog leaves a
 *    normal task some CPU by default, none with -1;
 *  - the iso_cpu cap holds per CPU, for unprivileged ISO hogs pinned to
 *    one CPU, whatever sched_rt_runtime_us is, without spending that
 *    CPU's realtime runtime; ISO use on other CPUs does not make an ISO
 *    task refractory;
 *  - SMT: a waking task prefers a fully idle core to an idle sibling of
 *    a busy CPU;
 *  - sched_rr_get_interval() reports the slice: sched_rr_timeslice_ms for
 *    RR, rr_interval for ISO, 0 for FIFO;
 *  - nice: two hogs on a CPU share it as a model of the deadline rule
 *    says (d = 1, 5, 10, 19, -5, -10, -20), and so do five nice levels
 *    together;
 *  - one global queue: N + 1 and 2N + 1 hogs on N CPUs, one of them
 *    pinned or none, each get N / (hogs) of a CPU;
 *  - a light task woken by its timer preempts a busy task at once, and
 *    one woken by a task waits for the wakeup granularity;
 *  - groups (autogroups, one a session): a light task of a group over
 *    its share does not preempt a task of a group within its share; one
 *    of a group within its share does preempt a hog of another group.
 *  - a synchronous wakeup (a pipe write) by the only task of a CPU keeps
 *    a ping-pong pair on one CPU, and a wakee whose waker goes on
 *    running still gets another CPU within a tick or so; two pairs that
 *    take turns through futex words keep their CPUs too.
 *
 * Spinners are measured with each other's CPU clocks
 * (clock_getcpuclockid()), while this process, at a realtime priority
 * above them, samples; no check depends on the machine's speed.
 */
#include "leap_util.h"
#include <linux/futex.h>
#include <sys/mman.h>
#include "../kselftest_harness.h"

#define DEBUGFS_LEAP	"/sys/kernel/debug/sched/leap"

/* A "name: value" line of LEAP's debugfs view; -1 if absent. */
static long leap_debug(const char *name)
{
	char buf[8192], *p;
	size_t len = strlen(name);

	if (read_text(DEBUGFS_LEAP, buf, sizeof(buf)) <= 0)
		return -1;
	for (p = buf; p; p = strchr(p, '\n')) {
		if (*p == '\n')
			p++;
		if (!strncmp(p, name, len) && p[len] == ':')
			return atol(p + len + 1);
	}
	return -1;
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

/*
 * Only a kernel without LEAP (no kernel.rr_interval) skips. On LEAP, a
 * missing kernel.iso_cpu or an unreadable debugfs view is a failure.
 */
FIXTURE_SETUP(leap)
{
	if (!leap_kernel())
		SKIP(return, "not a LEAP kernel");
	ASSERT_EQ(0, access("/proc/sys/kernel/iso_cpu", F_OK))
		TH_LOG("LEAP kernel without kernel.iso_cpu");
	ASSERT_LE(0, leap_debug("iso_refractory"))
		TH_LOG("no iso_refractory in " DEBUGFS_LEAP);
}

FIXTURE_TEARDOWN(leap) {}

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
 * with -1, the fair server's time (50 ms a second), as on mainline, not
 * nothing. 3.5 s hold at least two full periods; the first, partial one
 * may end before the hog used up its runtime.
 */
TEST_F_TIMEOUT(leap, rt_throttling, 90)
{
	const char *rt = "/proc/sys/kernel/sched_rt_runtime_us";
	int old = sysctl_read(rt);
	pid_t pids[2];
	double d[2], s_on, s_off;

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
	EXPECT_GT(s_off, 0.015);
	EXPECT_LT(s_off, 0.25);
}

#define NOBODY		65534
#define NOBODY2		65533

/* Lateness of a periodic FIFO task, reported by its child. */
struct prober {
	pid_t pid;
	int fd;
};

/*
 * A FIFO 60 task pinned to @cpu wakes every 5 ms for @secs and writes
 * the largest lateness it saw, in seconds, to a pipe.
 */
static int prober_start(struct prober *pr, int cpu, double secs)
{
	int fds[2];

	if (pipe(fds))
		return -1;
	pr->pid = fork();
	if (pr->pid < 0)
		return -1;
	if (pr->pid == 0) {
		struct sched_param sp = { .sched_priority = 60 };
		struct timespec next, now;
		double worst = 0, late, end;

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (pin_to(0, cpu) || sched_setscheduler(0, SCHED_FIFO, &sp))
			_exit(1);
		clock_gettime(CLOCK_MONOTONIC, &next);
		end = next.tv_sec + next.tv_nsec / 1e9 + secs;
		do {
			next.tv_nsec += 5000000;
			if (next.tv_nsec >= 1000000000) {
				next.tv_nsec -= 1000000000;
				next.tv_sec++;
			}
			clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
			clock_gettime(CLOCK_MONOTONIC, &now);
			late = (now.tv_sec - next.tv_sec) +
			       (now.tv_nsec - next.tv_nsec) / 1e9;
			if (late > worst)
				worst = late;
			/* Far behind: do not make up for the missed periods. */
			if (late > 0.005)
				next = now;
		} while (now.tv_sec + now.tv_nsec / 1e9 < end);
		if (write(fds[1], &worst, sizeof(worst)) != sizeof(worst))
			_exit(2);
		_exit(0);
	}
	close(fds[1]);
	pr->fd = fds[0];
	return 0;
}

static double prober_finish(struct prober *pr)
{
	double worst = -1;

	if (read(pr->fd, &worst, sizeof(worst)) != sizeof(worst))
		worst = -1;
	close(pr->fd);
	waitpid(pr->pid, NULL, 0);
	return worst;
}

/*
 * Two unprivileged SCHED_ISO hogs pinned to one CPU (any user may pin
 * them to fewer CPUs than iso_cpu percent of all) are capped on that
 * CPU: a root nice-0 hog there gets at least 100 - iso_cpu percent
 * (less 10 points), whatever sched_rt_runtime_us is (here 50%, then -1).
 * ISO time is not charged to the CPU's realtime runtime: a root FIFO
 * task there, woken every 5 ms, is never held back by throttling.
 */
TEST_F_TIMEOUT(leap, iso_capped_per_cpu, 90)
{
	const char *rt = "/proc/sys/kernel/sched_rt_runtime_us";
	int cpu = nth_cpu(online_cpus() - 1), iso_cpu, old;
	double d[3], s_half, s_off, want, late;
	struct prober pr;
	pid_t pids[3];

	iso_cpu = sysctl_read("/proc/sys/kernel/iso_cpu");
	old = sysctl_read(rt);
	want = (100 - iso_cpu) / 100.0 - 0.10;
	ASSERT_EQ(0, wait_quiet(50, 10)) TH_LOG("ISO/RT use high before the test");
	ASSERT_EQ(0, sysctl_write(rt, 500000));
	pids[0] = spin_as(SCHED_ISO, 0, 0, cpu, NOBODY);
	pids[1] = spin_as(SCHED_ISO, 0, 0, cpu, NOBODY);
	pids[2] = spinner(SCHED_OTHER, 0, cpu);
	ASSERT_EQ(0, sampler_rt(1));
	ASSERT_EQ(0, prober_start(&pr, cpu, 10));
	/* The cap is over a 5 s window: from then on it holds. */
	usleep(6000000);
	measure(pids, 3, 4, d);
	late = prober_finish(&pr);
	s_half = part_of(d[2], d[0] + d[1] + d[2]);
	ASSERT_EQ(0, sysctl_write(rt, -1));
	measure(pids, 3, 4, d);
	s_off = part_of(d[2], d[0] + d[1] + d[2]);
	sysctl_write(rt, old);
	stop(pids, 3);
	sampler_rt(0);
	TH_LOG("CPU %d, iso_cpu %d: nice-0 beside 2 ISO hogs %.1f%% (rt runtime 50%%), %.1f%% (-1)",
	       cpu, iso_cpu, 100 * s_half, 100 * s_off);
	TH_LOG("FIFO prober's latest wakeup %.1f ms", 1e3 * late);
	EXPECT_GT(s_half, want);
	EXPECT_GT(s_off, want);
	EXPECT_GE(late, 0);
	EXPECT_LT(late, 0.1);
}

/*
 * One user's ISO hogs pinned to every CPU but the first leave ISO to
 * another user's ISO hog on the first: it still runs ahead of a root
 * nice-0 hog there, up to that CPU's iso_cpu cap (about 63-70%), rather
 * than turning refractory for use elsewhere (50%).
 */
TEST_F_TIMEOUT(leap, iso_other_cpus_do_not_count, 90)
{
	int n = online_cpus(), i, k = 0;
	pid_t pids[66];
	double d[2], s;

	if (n < 2)
		SKIP(return, "needs 2 CPUs");
	if (n > 64)
		n = 64;
	ASSERT_EQ(0, wait_quiet(50, 10)) TH_LOG("ISO/RT use high before the test");
	pids[k++] = spin_as(SCHED_ISO, 0, 0, nth_cpu(0), NOBODY2);
	pids[k++] = spinner(SCHED_OTHER, 0, nth_cpu(0));
	for (i = 1; i < n; i++)
		pids[k++] = spin_as(SCHED_ISO, 0, 0, nth_cpu(i), NOBODY);
	ASSERT_EQ(0, sampler_rt(1));
	usleep(6000000);
	measure(pids, 2, 4, d);
	stop(pids, k);
	sampler_rt(0);
	s = part_of(d[0], d[0] + d[1]);
	TH_LOG("user 2's ISO hog beside a nice-0 hog on CPU %d, user 1's ISO on %d other CPUs:",
	       nth_cpu(0), n - 1);
	TH_LOG("user 2's ISO hog got %.1f%%", 100 * s);
	EXPECT_GT(s, 0.58);
}

/* The CPUs in a sysfs CPU list ("0-1", "0,2"), into @set; how many. */
static int cpu_list(const char *path, cpu_set_t *set)
{
	char buf[256], *p;
	FILE *f = fopen(path, "r");
	int a, b;

	CPU_ZERO(set);
	if (!f)
		return 0;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	for (p = strtok(buf, ",\n"); p; p = strtok(NULL, ",\n")) {
		if (sscanf(p, "%d-%d", &a, &b) != 2) {
			a = atoi(p);
			b = a;
		}
		for (; a <= b && a < CPU_SETSIZE; a++)
			CPU_SET(a, set);
	}
	return CPU_COUNT(set);
}

/*
 * SMT: a task waking on an idle SMT sibling of a busy CPU moves to a
 * fully idle core when there is one (as MuQSS does): two threads of one
 * core share its execution units. Needs a guest with threads=2 and a
 * second core; LEAP_EXPECT_SMT=1 makes a guest without them a failure.
 */
TEST_F_TIMEOUT(leap, smt_idle_core_first, 60)
{
	int cpus = online_cpus(), sib = -1, i, status, apart;
	cpu_set_t core, all;
	pid_t hog, child;
	int fds[2];

	if (cpu_list("/sys/devices/system/cpu/cpu0/topology/thread_siblings_list",
		     &core) < 2 || cpus < 4) {
		if (getenv("LEAP_EXPECT_SMT"))
			ASSERT_TRUE(0) TH_LOG("no SMT sibling of CPU 0, or no second core");
		SKIP(return, "no SMT siblings (boot with threads=2 and 2 cores)");
	}
	for (i = 1; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, &core)) {
			sib = i;
			break;
		}
	ASSERT_LT(0, sib);
	ASSERT_EQ(0, sched_getaffinity(0, sizeof(all), &all));
	hog = spinner(SCHED_OTHER, 0, 0);
	ASSERT_EQ(0, pipe(fds));
	usleep(200000);
	child = fork();
	ASSERT_LE(0, child);
	if (child == 0) {
		int off = 0;

		if (pin_to(0, sib))
			_exit(1);
		usleep(10000);
		if (sched_setaffinity(0, sizeof(all), &all))
			_exit(2);
		for (i = 0; i < 40; i++) {
			usleep(5000);
			if (!CPU_ISSET(sched_getcpu(), &core))
				off++;
		}
		if (write(fds[1], &off, sizeof(off)) != sizeof(off))
			_exit(3);
		_exit(0);
	}
	ASSERT_EQ(sizeof(apart), read(fds[0], &apart, sizeof(apart)));
	waitpid(child, &status, 0);
	stop(&hog, 1);
	TH_LOG("hog on CPU 0, a task woken on its sibling %d: %d of 40 wakeups on another core",
	       sib, apart);
	EXPECT_GE(apart, 30);
}

/*
 * The slice sched_rr_get_interval() reports: kernel.sched_rr_timeslice_ms
 * for RR (mainline's knob), LEAP's rr_interval for ISO, 0 for FIFO.
 */
TEST_F_TIMEOUT(leap, rr_interval_reported, 90)
{
	int rr = sysctl_read("/proc/sys/kernel/rr_interval");
	int rrts = sysctl_read("/proc/sys/kernel/sched_rr_timeslice_ms");
	struct sched_param sp = { .sched_priority = 5 };
	struct timespec ts;
	double want = rr / 1e3;

	ASSERT_EQ(0, sched_setscheduler(0, SCHED_RR, &sp));
	ASSERT_EQ(0, sched_rr_get_interval(0, &ts));
	/* Reported in jiffies: within one tick (at most 10 ms). */
	EXPECT_LT(abs((int)((ts.tv_sec + ts.tv_nsec / 1e9 - rrts / 1e3) * 1e6)), 10000);
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

/*
 * The design's ratio of nice level @nice: 128 at nice -20, each level
 * 10% more (truncated), as kernel/sched/leap.h computes it.
 */
static double leap_ratio(int nice)
{
	unsigned int r = 128;
	int i;

	for (i = -20; i < nice; i++)
		r = r * 11 / 10;
	return r;
}

/*
 * The design's CPU shares of @n hogs of the given nice levels on one CPU:
 * a model of the rule, earliest deadline first, each slice ending with a
 * new deadline one span (ratio * slice / 128) after its end. Time is in
 * slices, so the result holds for any rr_interval and tick (a slice the
 * tick stretches lengthens the span with it: leap_renew()).
 */
static void leap_model(const int *nices, int n, double *share)
{
	double t = 0, d[16], run[16] = { 0 };
	int i, k, best;

	for (i = 0; i < n; i++)
		d[i] = leap_ratio(nices[i]) / 128;
	for (k = 0; k < 100000; k++) {
		for (best = 0, i = 1; i < n; i++)
			if (d[i] < d[best])
				best = i;
		t += 1;
		run[best] += 1;
		d[best] = t + leap_ratio(nices[best]) / 128;
	}
	for (i = 0; i < n; i++)
		share[i] = run[i] / k;
}

/* The CPU-time ratio of two hogs on @cpu at nice 0 and nice @d, 1.5 s. */
static double nice_pair_ratio(struct __test_metadata *_metadata, int cpu, int d)
{
	struct hog h[2] = {
		{ .cpu = cpu, .policy = SCHED_OTHER, .seconds = 1.5 },
		{ .cpu = cpu, .policy = SCHED_OTHER, .nice = d, .seconds = 1.5 },
	};
	int bad = hogs_run(h, 2);

	EXPECT_EQ(0, bad) TH_LOG("nice 0 vs %d: the hogs did not run", d);
	EXPECT_LT(0, h[1].cpu_time);
	if (bad || h[1].cpu_time <= 0)
		return 0;
	return h[0].cpu_time / h[1].cpu_time;
}

/*
 * Two hogs on one CPU, nice 0 and nice 0 + d, for d = 1, 5, 10, 19 and
 * (as root) -5, -10, -20: their CPU-time ratio is the design's, within
 * 25%. The design's ratio is not that of the spans: a hog whose span is
 * shorter by D slices runs about D slices (rounded up) for each one of
 * the other's (1 : 34 for nice 0 : 19, 6 : 1 for nice -20 : 0).
 *
 * A pair outside the bound is measured once more and judged by that
 * second run. Under TCG the host may stop a vCPU for tens of ms, and
 * the stop is charged to the task it interrupts: to the low-share hog,
 * a stall near the end of the window is not paid back inside it. One
 * such run (7.3 guest, 2 CPUs) gave nice 0 against 10 a ratio of 7.26,
 * against 9.95-11.09 in every other run, six reruns included. A rule
 * that gets the ratio wrong fails both runs.
 */
TEST_F_TIMEOUT(leap, nice_pair_shares, 120)
{
	static const int ds[] = { 1, 5, 10, 19, -5, -10, -20 };
	int cpu = nth_cpu(0);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ds); i++) {
		int nices[2] = { 0, ds[i] };
		double m[2], want, got;

		leap_model(nices, 2, m);
		want = m[0] / m[1];
		got = nice_pair_ratio(_metadata, cpu, ds[i]);
		if (got <= want * 0.75 || got >= want / 0.75) {
			TH_LOG("nice 0 vs %d: CPU-time ratio %.2f, design %.2f: %s",
			       ds[i], got, want, "outside 25%, measured again");
			got = nice_pair_ratio(_metadata, cpu, ds[i]);
		}
		TH_LOG("nice 0 vs %d: CPU-time ratio %.2f, design %.2f",
		       ds[i], got, want);
		EXPECT_GT(got, want * 0.75);
		EXPECT_LT(got, want / 0.75);
	}
}

/* Five nice levels on one CPU: each share within 25% of the design's. */
TEST_F_TIMEOUT(leap, nice_five_level_mix, 90)
{
	static const int nices[] = { 0, 2, 5, 8, 12 };
	int cpu = nth_cpu(0), i;
	struct hog h[5];
	double sum = 0, m[5];

	leap_model(nices, 5, m);
	for (i = 0; i < 5; i++)
		h[i] = (struct hog){ .cpu = cpu, .policy = SCHED_OTHER,
				     .nice = nices[i], .seconds = 3 };
	ASSERT_EQ(0, hogs_run(h, 5));
	for (i = 0; i < 5; i++)
		sum += h[i].cpu_time;
	for (i = 0; i < 5; i++) {
		double got = h[i].cpu_time / sum;

		TH_LOG("nice %2d: %.1f%% of the CPU, design %.1f%%",
		       nices[i], 100 * got, 100 * m[i]);
		EXPECT_GT(got, m[i] * 0.75);
		EXPECT_LT(got, m[i] / 0.75);
	}
}

/*
 * One global queue shares the machine among all its tasks: with N CPUs,
 * @m hogs (the first @pinned of them pinned to the first CPU) each get
 * N/m of a CPU, within 20%, when every hog can reach that share. All
 * hogs are measured over one 8 s window, 1 s after they start, read by
 * this process at FIFO (measure()); a hog's own window, from its first
 * run to its first run after the end, put each hog's waits at the ends
 * in its share. 17 hogs on 8 vCPUs under TCG (2 host cores): 0.40-0.53
 * of a CPU around 0.47 (EEVDF 0.45-0.49). The wider spread is the
 * deadline's: a slice renews at its end plus a span, so a hog whose
 * turns a stalled vCPU stretched gets fewer renewals (sched-leap.rst,
 * "Shares when turns vary"); with the host busy compiling, LEAP's
 * lowest hog fell to 0.34. A pinned hog must get 70% of its share, not
 * 80%: only its CPU picks it, later against its deadline than the others
 * are picked, and a renewal forgets that lead too (5 hogs on 4 CPUs, one
 * pinned: it got 0.61-0.68 of a CPU against 0.80 on 6.12 and 7.3; 3 on 2
 * CPUs, 0.51-0.65 against 0.67).
 */
static void global_share(struct __test_metadata *_metadata, int m, int pinned)
{
	int n = online_cpus(), i;
	double want = (double)n / m, lo = 1e9, hi = 0, d[64], secs;
	pid_t pids[64];

	ASSERT_LE(m, 64);
	ASSERT_EQ(0, sampler_rt(1));
	for (i = 0; i < m; i++)
		pids[i] = spinner(SCHED_OTHER, 0, i < pinned ? nth_cpu(0) : -1);
	sleep(1);
	secs = now_s(CLOCK_MONOTONIC);
	measure(pids, m, 8, d);
	secs = now_s(CLOCK_MONOTONIC) - secs;
	stop(pids, m);
	sampler_rt(0);
	for (i = 0; i < m; i++) {
		double got = d[i] / secs, least = i < pinned ? 0.7 : 0.8;

		lo = got < lo ? got : lo;
		hi = got > hi ? got : hi;
		EXPECT_GT(got, want * least) TH_LOG("hog %d%s: %.2f of a CPU",
						    i, i < pinned ? " (pinned)" : "", got);
		EXPECT_LT(got, want / 0.8) TH_LOG("hog %d%s: %.2f of a CPU",
						  i, i < pinned ? " (pinned)" : "", got);
	}
	TH_LOG("%d hogs (%d pinned) on %d CPUs: %.2f to %.2f of a CPU each, fair %.2f",
	       m, pinned, n, lo, hi, want);
	if (pinned)
		TH_LOG("the first pinned hog: %.2f of a CPU", d[0] / secs);
}

TEST_F_TIMEOUT(leap, n_plus_one_hogs_share, 90)
{
	global_share(_metadata, online_cpus() + 1, 0);
}

TEST_F_TIMEOUT(leap, two_n_plus_one_hogs_share, 90)
{
	global_share(_metadata, 2 * online_cpus() + 1, 0);
}

TEST_F_TIMEOUT(leap, n_plus_one_hogs_one_pinned_share, 90)
{
	global_share(_metadata, online_cpus() + 1, 1);
}

/* Involuntary context switches of @pid so far; -1 if unreadable. */
static long nivcsw(pid_t pid)
{
	char path[64], buf[4096], *p;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	if (read_text(path, buf, sizeof(buf)) <= 0)
		return -1;
	p = strstr(buf, "nonvoluntary_ctxt_switches:");
	return p ? atol(p + strlen("nonvoluntary_ctxt_switches:")) : -1;
}

/* Spin @secs of this thread's own CPU time. */
static void spin_cpu(double secs)
{
	double end = now_s(CLOCK_THREAD_CPUTIME_ID) + secs;

	while (now_s(CLOCK_THREAD_CPUTIME_ID) < end)
		;
}

/*
 * On @cpu, a busy task (0.4 ms of CPU, then a 50 us sleep, in turn) and
 * a light one (20 us of CPU a wakeup, every 3 ms) for 2 s. The light
 * task is woken by its own timer (@waker_cpu < 0) or by a task on
 * @waker_cpu writing a pipe. Return the light task's wakeups, and in
 * *@preempted how often the busy task was switched out involuntarily.
 */
static int light_beside_busy(int cpu, int waker_cpu, long *preempted)
{
	struct timespec gap = { 0, 3000000 };
	int res[2], wake[2], n = -1, status;
	pid_t pids[3] = { -1, -1, -1 };
	long before;

	if (pipe(res) || pipe(wake))
		return -1;
	pids[0] = fork();
	if (pids[0] == 0) {
		struct timespec nap = { 0, 50000 };

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(wake[1]);
		if (pin_to(0, cpu))
			_exit(1);
		for (;;) {
			spin_cpu(0.0004);
			nanosleep(&nap, NULL);
		}
	}
	usleep(100000);
	before = nivcsw(pids[0]);
	pids[1] = fork();
	if (pids[1] == 0) {
		double end = now_s(CLOCK_MONOTONIC) + 2.0;
		char c;
		int k = 0;

		close(wake[1]);
		if (pin_to(0, cpu))
			_exit(1);
		while (waker_cpu < 0 ? now_s(CLOCK_MONOTONIC) < end :
		       read(wake[0], &c, 1) == 1) {
			if (waker_cpu < 0)
				nanosleep(&gap, NULL);
			spin_cpu(0.00002);
			k++;
		}
		_exit(write(res[1], &k, sizeof(k)) != sizeof(k));
	}
	if (waker_cpu >= 0) {
		pids[2] = fork();
		if (pids[2] == 0) {
			double end = now_s(CLOCK_MONOTONIC) + 2.0;

			if (pin_to(0, waker_cpu))
				_exit(1);
			while (now_s(CLOCK_MONOTONIC) < end) {
				nanosleep(&gap, NULL);
				if (write(wake[1], "w", 1) != 1)
					_exit(1);
			}
			_exit(0);
		}
	}
	close(wake[0]);
	close(wake[1]);
	if (pids[1] > 0 && read(res[0], &n, sizeof(n)) != sizeof(n))
		n = -1;
	*preempted = nivcsw(pids[0]) - before;
	if (pids[2] > 0)
		waitpid(pids[2], &status, 0);
	if (pids[1] > 0)
		waitpid(pids[1], &status, 0);
	stop(pids, 1);
	close(res[0]);
	close(res[1]);
	return before < 0 ? -1 : n;
}

/*
 * The wakeup granularity (LEAP_WAKEUP_GRAN_NS, 1 ms) keeps a waking
 * normal task from preempting one picked less than that ago, so that a
 * task that wakes another and then blocks (a pipe or socket message)
 * is not switched out first. A light task woken from an interrupt (its
 * timer, a device) has no such waker: it preempts at once. The busy
 * task here is never 1 ms past its pick: if the light task waited for
 * the granularity, it would run only when the busy one sleeps, which
 * would then never be switched out involuntarily; preempted at once, it
 * is at most of the light task's timer wakeups (those that come while
 * it spins, 0.4 of every 0.45 ms). Woken by a task on another CPU, the
 * light task waits: the busy one is rarely switched out.
 */
TEST_F_TIMEOUT(leap, light_timer_wakeup_preempts_at_once, 60)
{
	int cpu = nth_cpu(0), n;
	long pre = -1;

	n = light_beside_busy(cpu, -1, &pre);
	TH_LOG("woken by its timer: %d wakeups, busy task preempted %ld times",
	       n, pre);
	ASSERT_LT(100, n);
	EXPECT_GT(pre * 4, n);
	if (online_cpus() > 1) {
		n = light_beside_busy(cpu, nth_cpu(1), &pre);
		TH_LOG("woken by a task: %d wakeups, busy task preempted %ld times",
		       n, pre);
		ASSERT_LT(100, n);
		EXPECT_LT(pre * 4, n);
	}
}

/*
 * The light task of group_light(): in the session it is forked in, on
 * @cpu, 20 us of CPU every 3 ms, woken by its timer, for @secs; writes
 * its wakeups to @fd unless it is -1.
 */
static void light_loop(int cpu, double secs, int fd)
{
	struct timespec gap = { 0, 3000000 };
	double end = now_s(CLOCK_MONOTONIC) + secs;
	int k = 0;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (pin_to(0, cpu))
		_exit(1);
	while (now_s(CLOCK_MONOTONIC) < end) {
		nanosleep(&gap, NULL);
		spin_cpu(0.00002);
		k++;
	}
	_exit(fd >= 0 && write(fd, &k, sizeof(k)) != sizeof(k));
}

/*
 * On @cpu, each in a session (so an autogroup) of its own: a hog, and a
 * light task (light_loop()) for 2 s, started 0.2 s after the hog.
 * If @beside_hog, the light task is in the hog's session, and a third
 * session holds a moderate task (3 ms of CPU, then a 9 ms sleep): that
 * one is the victim; otherwise the hog is. Return the victim's chances
 * to be preempted (the moderate task's runs, or the light task's
 * wakeups), and in *@preempted how often it was switched out
 * involuntarily meanwhile.
 */
static int group_light(int cpu, bool beside_hog, long *preempted)
{
	pid_t pids[2] = { -1, -1 };
	int res[2], n = -1, status;
	long before = -1, r[2] = { -1, -1 };

	if (pipe(res))
		return -1;
	pids[0] = fork();
	if (pids[0] == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (setsid() < 0 || pin_to(0, cpu))
			_exit(1);
		if (beside_hog && fork() == 0) {
			usleep(200000);
			light_loop(cpu, 2.0, -1);
		}
		for (;;)
			;
	}
	if (beside_hog) {
		pids[1] = fork();
		if (pids[1] == 0) {
			struct timespec nap = { 0, 9000000 };
			double warm = now_s(CLOCK_MONOTONIC) + 0.4;
			struct rusage ru;
			long k = -1;

			prctl(PR_SET_PDEATHSIG, SIGKILL);
			if (setsid() < 0 || pin_to(0, cpu))
				_exit(1);
			/* Counted after 0.4 s, once the averages settled. */
			while (now_s(CLOCK_MONOTONIC) < warm + 1.8) {
				if (k < 0 && now_s(CLOCK_MONOTONIC) >= warm) {
					getrusage(RUSAGE_SELF, &ru);
					r[0] = ru.ru_nivcsw;
					k = 0;
				}
				spin_cpu(0.003);
				nanosleep(&nap, NULL);
				if (k >= 0)
					k++;
			}
			getrusage(RUSAGE_SELF, &ru);
			r[0] = ru.ru_nivcsw - r[0];
			r[1] = k;
			_exit(write(res[1], r, sizeof(r)) != sizeof(r));
		}
		if (read(res[0], r, sizeof(r)) != sizeof(r))
			r[1] = -1;
		*preempted = r[0];
		n = (int)r[1];
	} else {
		usleep(200000);
		before = nivcsw(pids[0]);
		pids[1] = fork();
		if (pids[1] == 0) {
			if (setsid() < 0)
				_exit(1);
			light_loop(cpu, 2.0, res[1]);
		}
		if (read(res[0], &n, sizeof(n)) != sizeof(n))
			n = -1;
		*preempted = nivcsw(pids[0]) - before;
		if (before < 0)
			n = -1;
	}
	waitpid(pids[1], &status, 0);
	stop(pids, 1);
	close(res[0]);
	close(res[1]);
	return n;
}

/*
 * Groups (here autogroups, one a session) share the CPUs by weight; a
 * group that uses more than its share gives its tasks no light keys
 * while others want the CPUs (leap_group_over()). On one CPU, a hog and
 * a light task in one session use three quarters of the CPU against a
 * half share while the moderate task of another session (a quarter,
 * within its share, so light) runs: the light task's timer wakeups,
 * about one in each 3 ms run of the moderate task, must not preempt it,
 * as they would if the light task's own small use made it light. The
 * other way round, a light task in a session of its own preempts the
 * hog of another session at once (as in
 * light_timer_wakeup_preempts_at_once): the rule takes nothing from a
 * group within its share.
 */
TEST_F_TIMEOUT(leap, light_task_of_a_group_over_its_share_waits, 60)
{
	int cpu = nth_cpu(0), n;
	long pre = -1;
	char v[16] = "";

	ASSERT_LT(0, read_text("/proc/sys/kernel/sched_autogroup_enabled",
			       v, sizeof(v)));
	ASSERT_EQ(1, atoi(v))
		TH_LOG("autogroup is off: the check needs a group a session");
	n = group_light(cpu, true, &pre);
	TH_LOG("light task beside a hog: the other session ran %d times, preempted %ld",
	       n, pre);
	ASSERT_LT(50, n);
	EXPECT_LT(pre * 4, n);
	n = group_light(cpu, false, &pre);
	TH_LOG("light task in its own session: %d wakeups, the hog preempted %ld times",
	       n, pre);
	ASSERT_LT(100, n);
	EXPECT_GT(pre * 4, n);
}

/* A waker of frame_beside(): 1 ms of CPU after each 4 ms sleep, on @cpu. */
static void lapse_waker(int cpu)
{
	struct timespec gap = { 0, 4000000 };

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (pin_to(0, cpu))
		_exit(1);
	for (;;) {
		nanosleep(&gap, NULL);
		spin_cpu(0.001);
	}
}

/*
 * A task frame_beside() runs in a session of its own on @cpu: it takes
 * @work s of CPU after each @nap_ns sleep (or a pattern built on them),
 * writes to @fd how often it was switched out involuntarily and how
 * many runs it counted, and exits.
 */
typedef void (*frame_fn)(int cpu, double work, long nap_ns, int fd);

/*
 * A frame task (a frame_fn), in a session of its own on @cpu: @work s
 * of CPU after each @nap_ns sleep, counted for 2 s after 0.4 s (once its
 * averages settled). Writes to @fd how often it was switched out involuntarily
 * meanwhile and its runs counted; exits.
 */
static void frame_task(int cpu, double work, long nap_ns, int fd)
{
	struct timespec nap = { 0, nap_ns };
	long r[2] = { -1, 0 };
	double warm, end;
	struct rusage ru;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (setsid() < 0 || pin_to(0, cpu))
		_exit(1);
	warm = now_s(CLOCK_MONOTONIC) + 0.4;
	end = warm + 2.0;
	while (now_s(CLOCK_MONOTONIC) < warm) {
		nanosleep(&nap, NULL);
		spin_cpu(work);
	}
	getrusage(RUSAGE_SELF, &ru);
	r[0] = ru.ru_nivcsw;
	while (now_s(CLOCK_MONOTONIC) < end) {
		nanosleep(&nap, NULL);
		spin_cpu(work);
		r[1]++;
	}
	getrusage(RUSAGE_SELF, &ru);
	r[0] = ru.ru_nivcsw - r[0];
	_exit(write(fd, r, sizeof(r)) != sizeof(r));
}

/*
 * frame_beside()'s hog counts its turns of its loop here, in memory it
 * shares with the task beside it: a task pinned to the hog's CPU that
 * sees the count move while it spun was switched out for the hog, and
 * not only for a kernel thread.
 */
static unsigned long *hog_spins;

/*
 * On @cpu, each group a session: @wakers wakers (lapse_waker()) in one,
 * or a hog if @wakers is 0, and @task (frame_task(), chained_task()) in
 * another, @work s of CPU after each @nap_ns sleep. Return the task's
 * runs counted, and in *@preempted how often it was switched out
 * meanwhile (as the task counts it: frame_task() every involuntary
 * switch, long_run_task() its long runs in which the hog ran).
 */
static long frame_beside(int cpu, int wakers, frame_fn task, double work,
			 long nap_ns, long *preempted)
{
	pid_t pids[2] = { -1, -1 };
	long r[2] = { -1, -1 };
	int res[2], i, status;

	if (!hog_spins)
		hog_spins = shared_mem(sizeof(*hog_spins));
	if (!hog_spins)
		return -1;
	if (pipe(res))
		return -1;
	pids[0] = fork();
	if (pids[0] == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (setsid() < 0)
			_exit(1);
		if (!wakers) {
			if (pin_to(0, cpu))
				_exit(1);
			for (;;)
				__atomic_add_fetch(hog_spins, 1,
						   __ATOMIC_RELAXED);
		}
		for (i = 1; i < wakers; i++)
			if (fork() == 0)
				lapse_waker(cpu);
		lapse_waker(cpu);
		_exit(1);
	}
	pids[1] = fork();
	if (pids[1] == 0)
		task(cpu, work, nap_ns, res[1]);
	if (read(res[0], r, sizeof(r)) != sizeof(r))
		r[1] = -1;
	waitpid(pids[1], &status, 0);
	stop(pids, 1);
	close(res[0]);
	close(res[1]);
	*preempted = r[0];
	return r[1];
}

/*
 * The light keys a group's tasks got while it was alone lapse once it
 * is over its share (leap_light_lapse()). On one CPU, four wakers of one
 * session want four fifths of the CPU (a fifth each, so each is light
 * while the session is alone); a frame task of another session wakes
 * every 12 ms for 3 ms of CPU, a fifth, within its half. Its slice,
 * not refilled at a wakeup, often renews during its work, and the pick
 * then met the wakers' queued light keys: it must be switched out in
 * fewer than an eighth of its runs (before the lapse: 56-60 of 128;
 * with light keys scaled by the part of the share alone, 20 of 129;
 * with the lapse 0-1 of 125-130). Under TCG a vCPU that the host
 * deschedules is charged the lost time as the running task's CPU, which
 * can push the frame task past its burst: a busy host gave 10 of 111
 * and 18 of 98. So the check takes the best of LAPSE_TRIES runs; the
 * missing lapse fails all of them.
 */
#define LAPSE_TRIES	3

/*
 * frame_beside() up to LAPSE_TRIES times (@what names it in the log,
 * @counted what the task counts against it), until that count is under
 * one in @part of its runs; each try must give more than @least runs.
 * Passes when one try does.
 */
static void frame_tries(struct __test_metadata *_metadata, const char *what,
			const char *counted, int cpu, int wakers,
			frame_fn task, double work, long nap_ns, long least,
			long part)
{
	long n = 0, pre = -1;
	int i;

	for (i = 0; i < LAPSE_TRIES; i++) {
		n = frame_beside(cpu, wakers, task, work, nap_ns, &pre);
		TH_LOG("%s, try %d: %ld runs, %s %ld",
		       what, i + 1, n, counted, pre);
		ASSERT_LT(least, n);
		if (pre * part < n)
			break;
	}
	EXPECT_LT(pre * part, n);
}

TEST_F_TIMEOUT(leap, queued_light_keys_of_a_group_over_its_share_lapse, 60)
{
	char v[16] = "";

	ASSERT_LT(0, read_text("/proc/sys/kernel/sched_autogroup_enabled",
			       v, sizeof(v)));
	ASSERT_EQ(1, atoi(v))
		TH_LOG("autogroup is off: the check needs a group a session");
	frame_tries(_metadata, "frame task beside four wakers",
		    "involuntary switches", nth_cpu(0), 4, frame_task, 0.003,
		    12000000, 50, 8);
}

/*
 * A light task's run may outlast a slice: a frame thread's 8 ms of work
 * at 60 Hz does at rr_interval 6 ms. It keeps its light key at the
 * renewal while its run since it woke is under twice its average burst
 * (leap_place_light()). On one CPU, a hog in one session and, in
 * another, a task that runs 10 ms after each 30 ms sleep, a quarter of
 * the CPU against a half share: it must be switched out in fewer than
 * half of its runs. With the rule: 2-12 of 48-49 in 32 runs (a bound
 * of a quarter failed once, at 12 of 48); before it (a slice's run
 * only) its key turned busy at the slice's end, behind the hog's: 35-38
 * of 46-47 in 4 runs. A vCPU stall the guest charges to the task as its
 * CPU time pushes its run past twice its burst, as in the check above:
 * in CI on a busy host it failed once (its counts are not in the part
 * of the log CI kept). So the best of LAPSE_TRIES runs counts; without
 * the rule all of them fail. Since LEAP_LIGHT_RUN_SLICES (3), a 10 ms
 * run is under three slices too, which keeps the key by itself.
 */
TEST_F_TIMEOUT(leap, light_run_longer_than_a_slice_keeps_its_key, 90)
{
	frame_tries(_metadata, "10 ms runs every 40 ms beside a hog",
		    "involuntary switches", nth_cpu(0), 0, frame_task, 0.010,
		    30000000, 20, 2);
}

/*
 * A task with long runs, in a session of its own on @cpu beside
 * frame_beside()'s hog: runs of @work s after each @nap_ns sleep, every
 * fourth run @long_work s, counted for 2.4 s after 0.4 s. Writes to @fd
 * in how many of its long runs the hog ran (its count moved), and how
 * many long runs it had; exits. A kernel thread that a debug kernel
 * wakes on the CPU meanwhile switches it out too, ahead of the hog,
 * and is not counted.
 */
static void long_run_task(int cpu, double work, double long_work,
			  long nap_ns, int fd)
{
	struct timespec nap = { 0, nap_ns };
	long r[2] = { 0, 0 }, i;
	unsigned long before;
	double warm, end;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (setsid() < 0 || pin_to(0, cpu) || !hog_spins)
		_exit(1);
	warm = now_s(CLOCK_MONOTONIC) + 0.4;
	end = warm + 2.4;
	for (i = 0; now_s(CLOCK_MONOTONIC) < end; i++) {
		nanosleep(&nap, NULL);
		if (i % 4 != 3) {
			spin_cpu(work);
			continue;
		}
		before = __atomic_load_n(hog_spins, __ATOMIC_RELAXED);
		spin_cpu(long_work);
		if (now_s(CLOCK_MONOTONIC) < warm)
			continue;
		r[0] += __atomic_load_n(hog_spins, __ATOMIC_RELAXED) != before;
		r[1]++;
	}
	_exit(write(fd, r, sizeof(r)) != sizeof(r));
}

/*
 * A chained-frame task (a frame_fn): long_run_task() with every fourth
 * run five times as long (a frame thread that was kept past its next
 * boundary and did two frames without sleeping).
 */
static void chained_task(int cpu, double work, long nap_ns, int fd)
{
	long_run_task(cpu, work, 5 * work, nap_ns, fd);
}

/*
 * A light task keeps its light key at a renewal while its run since it
 * woke is under a slice or LEAP_LIGHT_RUN_BURSTS (4) times its average
 * burst (leap_place_light()). A frame thread that an overcommitted host
 * kept past its next boundary runs two or three frames without
 * sleeping; with twice the burst, its key turned busy in the middle of
 * them, behind the other tasks' deadlines. On one CPU, a hog in one
 * session and, in another, chained_task(): 2 ms runs, every fourth
 * 10 ms, after 16 ms sleeps (a fifth of the CPU against a half share;
 * its average burst 3.2 ms before a long run, so the long run's renewal
 * comes past twice the burst in more than half of them). The hog must
 * run in fewer than a quarter of its long runs: with twice the burst
 * switched out in 16-19 of 29 in each of three tries, with four 1-2 of
 * 29-30 (perf kernels, 2 vCPUs). Best of LAPSE_TRIES runs, for the vCPU
 * stalls the guest charges as CPU time. Since LEAP_LIGHT_RUN_SLICES (3),
 * a 10 ms run is under three slices at rr_interval 6 ms as well: the
 * check shows the behaviour, and no longer the burst rule alone. Counted
 * as runs in which the hog ran (debug kernel, 2 vCPUs): 0-5 of 30 in
 * eleven runs; with one slice and twice the burst 13-26 of 28-29 in
 * each of six tries.
 */
TEST_F_TIMEOUT(leap, light_run_of_chained_frames_keeps_its_key, 90)
{
	frame_tries(_metadata, "chained frames beside a hog",
		    "long runs the hog ran in", nth_cpu(0), 0, chained_task,
		    0.002, 16000000, 20, 4);
}

/*
 * A stalled-run task (a frame_fn): long_run_task() with every fourth run
 * two slices long (rr_interval, read here) whatever its usual @work: a
 * run that a vCPU stall, a lock or an interrupt storm stretched, charged
 * as its CPU time.
 */
static void stalled_task(int cpu, double work, long nap_ns, int fd)
{
	char v[16] = "";

	if (read_text("/proc/sys/kernel/rr_interval", v, sizeof(v)) <= 0 ||
	    atoi(v) <= 0)
		_exit(1);
	long_run_task(cpu, work, 0.002 * atoi(v), nap_ns, fd);
}

/*
 * A light task keeps its light key at a renewal while its run since it
 * woke is under LEAP_LIGHT_RUN_SLICES (3) slices, or LEAP_LIGHT_RUN_BURSTS
 * times its average burst, and its share allows it
 * (leap_place_light()). A task whose runs are short has one stretched
 * now and then past a slice and past four times its burst: cyclictest's
 * SCHED_OTHER threads at 4 vCPUs on 2 host cores, charged a vCPU stall;
 * with a slice's bound their keys turned busy at the renewal, a span
 * behind the hackbench tasks, and they waited 30-140 ms to run again.
 * On one CPU, a hog in one session and, in another, stalled_task():
 * 0.2 ms runs, every fourth two slices, after 30 ms sleeps (its average
 * burst about 2 ms before a long run, four times that 8 ms; two slices
 * against 30 ms of sleep are within its half share). The hog must run
 * in fewer than a third of its long runs. Counted as involuntary
 * switches (perf kernels, 2 vCPUs): with a slice's bound 9-10 of 18 in
 * each of three tries, with three 0-4 of 19 in five runs; on the debug
 * kernels 3-7 of 18 with three, which failed a bound of a quarter at
 * one first try in three. Counted as runs in which the hog ran, which
 * leaves out the kernel threads a debug kernel wakes (debug kernel, 2
 * vCPUs): with three 1-4 of 18-19 in eleven runs, with a slice's bound
 * 7-10 of 18 in each of nine tries. Best of LAPSE_TRIES runs, for the
 * vCPU stalls the guest charges as CPU time.
 */
TEST_F_TIMEOUT(leap, light_run_stretched_past_a_slice_keeps_its_key, 90)
{
	frame_tries(_metadata, "stalled runs beside a hog (two slices)",
		    "long runs the hog ran in", nth_cpu(0), 0, stalled_task,
		    0.0002, 30000000, 12, 3);
}

/*
 * Allow the caller on the first two online CPUs only. Return false,
 * the test skipped, with fewer than two.
 */
static bool on_first_two_cpus(struct __test_metadata *_metadata)
{
	cpu_set_t two;

	if (online_cpus() < 2)
		SKIP(return false, "needs 2 CPUs");
	CPU_ZERO(&two);
	CPU_SET(nth_cpu(0), &two);
	CPU_SET(nth_cpu(1), &two);
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(two), &two));
	return true;
}

/*
 * Fork a task pinned to @cpu at @policy (SCHED_FIFO: priority 10) that
 * takes @work s of CPU after each @nap_ns sleep, for 2 s after 0.4 s,
 * and writes its runs in the 2 s (-1 if it could not be placed) to @fd.
 */
static pid_t pinned_napper(int cpu, int policy, double work, long nap_ns,
			   int fd)
{
	struct sched_param sp = { policy == SCHED_FIFO ? 10 : 0 };
	struct timespec nap = { 0, nap_ns };
	double warm, end;
	pid_t pid = fork();
	long n = -1;

	if (pid)
		return pid;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (pin_to(0, cpu) || sched_setscheduler(0, policy, &sp))
		_exit(write(fd, &n, sizeof(n)) != sizeof(n));
	warm = now_s(CLOCK_MONOTONIC) + 0.4;
	end = warm + 2.0;
	while (now_s(CLOCK_MONOTONIC) < warm) {
		nanosleep(&nap, NULL);
		spin_cpu(work);
	}
	n = 0;
	while (now_s(CLOCK_MONOTONIC) < end) {
		nanosleep(&nap, NULL);
		spin_cpu(work);
		n++;
	}
	_exit(write(fd, &n, sizeof(n)) != sizeof(n));
}

/*
 * In the caller's session: @hogs busy loops that may run anywhere, a
 * SCHED_NORMAL task pinned to @cpu and, in
 * the same 2 s, a SCHED_FIFO one of the same pattern (@work s of CPU
 * after each @nap_ns sleep) pinned to @rt_cpu. Return the NORMAL task's
 * runs in the 2 s, and in *@rt_runs the FIFO task's: the runs that a
 * task picked at every wakeup had beside the same hogs on the same host
 * (-1: not measured).
 */
static long pinned_beside_hogs(int cpu, int rt_cpu, int hogs, double work,
			       long nap_ns, long *rt_runs)
{
	int res[2], rt_res[2], i, status;
	pid_t pids[64], me, rt;
	long n = -1;

	*rt_runs = -1;
	if (hogs > 64 || pipe(res))
		return -1;
	if (pipe(rt_res)) {
		close(res[0]);
		close(res[1]);
		return -1;
	}
	for (i = 0; i < hogs; i++) {
		pids[i] = fork();
		if (pids[i] == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			for (;;)
				;
		}
	}
	me = pinned_napper(cpu, SCHED_OTHER, work, nap_ns, res[1]);
	rt = pinned_napper(rt_cpu, SCHED_FIFO, work, nap_ns, rt_res[1]);
	if (me < 0 || read(res[0], &n, sizeof(n)) != sizeof(n))
		n = -1;
	if (rt < 0 || read(rt_res[0], rt_runs, sizeof(*rt_runs)) !=
	    sizeof(*rt_runs))
		*rt_runs = -1;
	if (me > 0)
		waitpid(me, &status, 0);
	if (rt > 0)
		waitpid(rt, &status, 0);
	stop(pids, hogs);
	for (i = 0; i < 2; i++) {
		close(res[i]);
		close(rt_res[i]);
	}
	return n;
}

/*
 * A task allowed on one CPU of several shares that CPU with the tasks
 * accounted to it, not with every runnable task: unpinned tasks spread
 * over all CPUs, so its share of its CPU is what an unpinned task's
 * share of all of them is (leap_place_light()). Eight hogs allowed on
 * the first two CPUs and a task pinned to the first that runs 1.4 ms
 * after each 8 ms sleep (15 % of a CPU, against a share of its CPU of
 * about a fifth): it is light, preempts a hog at each timer wakeup,
 * and must get at least two thirds of the runs of a SCHED_FIFO task of
 * the same pattern pinned to the second CPU in the same 2 s, which is
 * picked at every wakeup: the runs the host's time allowed (an emulated
 * CPU that its host stops wakes late, which cuts both counts; a bound
 * against the 212 runs of no wait at all failed on a slow host). With
 * its share taken as one CPU over all nine tasks (11 %) it was not
 * light and waited for the hogs' deadlines at every wakeup: 124 and 128
 * runs of 212 (perf kernel, 2 and 4 CPUs), 118-126 (debug kernel); with
 * the rule 194-203 (both). A host so busy that it stops the emulated
 * CPUs for long still fails it: the stops are charged to the task as
 * CPU time, its burst grows past its share, and it is light no longer.
 */
TEST_F_TIMEOUT(leap, pinned_light_task_shares_its_cpu_not_all, 60)
{
	long runs, rt_runs;

	if (!on_first_two_cpus(_metadata))
		return;
	runs = pinned_beside_hogs(nth_cpu(0), nth_cpu(1), 8, 0.0014, 8000000,
				  &rt_runs);
	TH_LOG("%ld runs; the FIFO task of the same pattern: %ld", runs,
	       rt_runs);
	ASSERT_LT(0, runs);
	ASSERT_LT(0, rt_runs);
	EXPECT_LT(rt_runs * 2, runs * 3);
}

/*
 * One side of a ping-pong of PONG_ROUNDS rounds: the first side sends
 * and waits for the answer, the other waits and answers. Through pipes
 * (@word NULL: a byte written to @out, read from @in), or through the
 * shared futex word @word, which names the side whose turn it is: a
 * side hands the turn over and wakes the other (FUTEX_WAKE, no WF_SYNC),
 * and sleeps (FUTEX_WAIT) until it is back. Each side notes the CPU it
 * runs on once its turn came, and writes the PONG_ROUNDS CPUs (a byte
 * each) to @fd. With @stall, the first side, in one round of @stall,
 * spins PONG_STALL_S after it handed the turn over, past any hold of
 * the other (two ticks are 2 to 8 ms), as an emulated CPU stopped by
 * its host does.
 */
#define PONG_ROUNDS	2000
#define PONG_STALL_S	0.012

static void pong_turn(uint32_t *word, int side)
{
	while (__atomic_load_n(word, __ATOMIC_ACQUIRE) != (uint32_t)side)
		syscall(SYS_futex, word, FUTEX_WAIT, !side, NULL, NULL, 0);
}

static void pong_give(uint32_t *word, int side)
{
	__atomic_store_n(word, !side, __ATOMIC_RELEASE);
	syscall(SYS_futex, word, FUTEX_WAKE, 1, NULL, NULL, 0);
}

static void pong_side(int in, int out, int first, int fd, uint32_t *word,
		      int stall)
{
	unsigned char cpu[PONG_ROUNDS];
	char c = 'p';
	int i;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	for (i = 0; i < PONG_ROUNDS; i++) {
		if (word) {
			if (first)
				pong_give(word, 0);
			if (first && stall && i % stall == stall / 2)
				spin_cpu(PONG_STALL_S);
			pong_turn(word, !first);
			cpu[i] = sched_getcpu();
			if (!first)
				pong_give(word, 1);
			continue;
		}
		if (first && write(out, &c, 1) != 1)
			_exit(1);
		if (read(in, &c, 1) != 1)
			_exit(1);
		cpu[i] = sched_getcpu();
		if (!first && write(out, &c, 1) != 1)
			_exit(1);
	}
	_exit(write(fd, cpu, sizeof(cpu)) != sizeof(cpu));
}

/*
 * @pairs unpinned ping-pong pairs of processes, PONG_ROUNDS round trips
 * each, at once, through pipes or (@futex) futex words: the number of
 * rounds in which a pair's two sides ran on different CPUs, over all
 * pairs; and in *@moved, the number of rounds in which a side ran on
 * another CPU than in its round before. @stall as for pong_side().
 */
static int pong_apart(struct __test_metadata *_metadata, int pairs,
		      int *moved, bool futex, int stall)
{
	unsigned char cpu[2][PONG_ROUNDS];
	int ab[2], ba[2], res[4][2], i, k, apart = 0, status;
	uint32_t *words;
	pid_t pids[4];

	ASSERT_GE(2, pairs);
	/* A cache line a pair; word 0 of each: the first side's turn. */
	words = shared_mem(4096);
	ASSERT_NE(NULL, words);
	for (k = 0; k < pairs; k++) {
		ASSERT_EQ(0, pipe(ab));
		ASSERT_EQ(0, pipe(ba));
		for (i = 0; i < 2; i++) {
			ASSERT_EQ(0, pipe(res[2 * k + i]));
			pids[2 * k + i] = fork();
			ASSERT_LE(0, pids[2 * k + i]);
			if (pids[2 * k + i] == 0)
				pong_side(i ? ab[0] : ba[0], i ? ba[1] : ab[1],
					  !i, res[2 * k + i][1],
					  futex ? &words[16 * k] : NULL,
					  stall);
		}
		close(ab[0]);
		close(ab[1]);
		close(ba[0]);
		close(ba[1]);
	}
	for (k = 0; k < pairs; k++) {
		for (i = 0; i < 2; i++) {
			EXPECT_EQ(PONG_ROUNDS, read(res[2 * k + i][0], cpu[i],
						    PONG_ROUNDS));
			waitpid(pids[2 * k + i], &status, 0);
			EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status));
			close(res[2 * k + i][0]);
			close(res[2 * k + i][1]);
		}
		for (i = 0; i < PONG_ROUNDS; i++) {
			apart += cpu[0][i] != cpu[1][i];
			if (i)
				*moved += (cpu[0][i] != cpu[0][i - 1]) +
					  (cpu[1][i] != cpu[1][i - 1]);
		}
	}
	munmap(words, 4096);
	return apart;
}

/*
 * One unpinned pair through pipes or (@futex) futex words, as for
 * pong_apart(): on one CPU in at least three rounds of four. Return
 * false if skipped (one CPU).
 */
static bool pair_shares_a_cpu(struct __test_metadata *_metadata, bool futex,
			      int stall)
{
	int apart, moved = 0;

	if (online_cpus() < 2)
		SKIP(return false, "needs 2 CPUs");
	apart = pong_apart(_metadata, 1, &moved, futex, stall);
	TH_LOG("%d of %d rounds on two CPUs, %d moves", apart, PONG_ROUNDS,
	       moved);
	EXPECT_LT(apart * 4, PONG_ROUNDS);
	return true;
}

/*
 * A pipe's write wakes its reader synchronously (WF_SYNC): the writer
 * is about to block. Woken so by the only task of its CPU, the reader
 * stays on that CPU (leap_sync_here()), and a ping-pong pair shares a
 * CPU rather than an idle one being woken for every message. Two
 * unpinned processes, 2000 round trips on an otherwise idle machine:
 * they must be on one CPU in at least three rounds of four. (Before the
 * rule, every message went to the idle CPU: the pair were apart in
 * nearly every round.)
 */
TEST_F_TIMEOUT(leap, sync_wakeup_pair_shares_a_cpu, 60)
{
	pair_shares_a_cpu(_metadata, false, 0);
}

/*
 * Such a wakeup takes no lock (leap_ttwu_defer()): the reader waits in
 * its CPU's slot for the writer's schedule(), which takes the lock
 * anyway, and debugfs counts it (sync_deferred). One pair's 2000 round
 * trips are 4000 synchronous wakeups by a task alone on its CPU in most
 * rounds (above): at least one in four must have been deferred. (At
 * one CPU a task allowed on one CPU only has no CPU to choose and
 * select_task_rq() is not asked: no wakeup is held or deferred.) Before
 * the slot, every one took the lock and the count was absent.
 */
TEST_F_TIMEOUT(leap, sync_wakeup_takes_no_lock, 60)
{
	long before, after;
	int moved = 0;

	if (online_cpus() < 2)
		SKIP(return, "needs 2 CPUs");
	before = leap_debug("sync_deferred");
	ASSERT_LE(0, before)
		TH_LOG("no sync_deferred in " DEBUGFS_LEAP);
	pong_apart(_metadata, 1, &moved, false, 0);
	after = leap_debug("sync_deferred");
	TH_LOG("%ld of %d wakeups deferred", after - before, 2 * PONG_ROUNDS);
	EXPECT_LE(2 * PONG_ROUNDS / 4, after - before);
}

/*
 * A context switch lets go of the one lock before it switches stacks,
 * not after (leap_switch_unlock()), so that other CPUs' wakeups and
 * picks do not wait for it; debugfs counts such switches
 * (switches_unlocked). One pair's 2000 round trips are at least 2000
 * context switches, each with no balance callback queued: at least
 * that many must have let go early. Before the change the count was
 * absent; with the lock held to finish_task_switch() it would not grow.
 */
TEST_F_TIMEOUT(leap, context_switch_lets_go_of_the_lock, 60)
{
	long before, after;
	int moved = 0;

	before = leap_debug("switches_unlocked");
	ASSERT_LE(0, before)
		TH_LOG("no switches_unlocked in " DEBUGFS_LEAP);
	pong_apart(_metadata, 1, &moved, false, 0);
	after = leap_debug("switches_unlocked");
	TH_LOG("%ld context switches without the lock in %d round trips",
	       after - before, PONG_ROUNDS);
	EXPECT_LE(PONG_ROUNDS, after - before);
}

/*
 * Two such pairs at once, on two CPUs or more: each pair keeps a CPU,
 * as the one pair does. While one pair's reader is held for its
 * writer's CPU it is queued, and the other pair's wakeup must not take
 * that for a task waiting (leap_only_held_queued()); and a tick that
 * falls between a wakeup and its writer's block must not send the
 * reader away (leap_sync_tick()). The four sides must change CPU
 * between two rounds in fewer than one round in twelve. Measured on the
 * debug kernel: 1369-1652 moves of 8000 before both, 730-783 with the
 * count alone, 309-357 with both (2 CPUs), 364-443 at 4 CPUs.
 */
TEST_F_TIMEOUT(leap, sync_wakeup_two_pairs_keep_their_cpus, 60)
{
	int apart, moved = 0;

	if (online_cpus() < 2)
		SKIP(return, "needs 2 CPUs");
	apart = pong_apart(_metadata, 2, &moved, false, 0);
	TH_LOG("%d of %d rounds on two CPUs, %d moves", apart,
	       2 * PONG_ROUNDS, moved);
	EXPECT_LT(moved * 12, 4 * PONG_ROUNDS);
}

/*
 * A futex wakeup has no WF_SYNC, but a pair that takes turns through a
 * futex word shares a CPU as a pipe's pair does: a wakee whose own last
 * wakeup was of its waker, woken by that CPU's only task, whose runs are
 * short, waits there for its waker (leap_pair_here()) rather than going
 * to the idle CPU at every turn. One unpinned pair, 2000 round trips, on
 * an otherwise idle machine: on one CPU in at least three rounds of
 * four. Before the rule, with a CPU idle, nearly every wakee went to
 * it: on the debug kernel 1993 of 2000 rounds apart (2 CPUs); with it
 * 6 (2 CPUs) and 20 (4 CPUs).
 */
TEST_F_TIMEOUT(leap, futex_wakeup_pair_shares_a_cpu, 60)
{
	pair_shares_a_cpu(_metadata, true, 0);
}

/*
 * A waker of such a pair that runs on past a hold now and then (an
 * emulated CPU that its host stops for a tick, a page fault) is no
 * waker that works on: only LEAP_PAIR_STRIKES overruns in a row back it
 * off (leap_pair_backoff()), a hold that worked in between clears the
 * count, and the backoff is the waker's own, not its CPU's. The first
 * side spins 12 ms after handing its turn over in one round of 250
 * (8 times in 2000 rounds): the pair must still be on one CPU in three
 * rounds of four. With one overrun backing its CPU off for 250 ms, the
 * pair was apart in 719-933 of 2000 rounds (debug kernel, 2 CPUs);
 * with the rule, 20-151.
 */
TEST_F_TIMEOUT(leap, futex_pair_shares_a_cpu_past_a_stall, 60)
{
	long o = leap_debug("pair_overruns"), b = leap_debug("pair_backoffs");

	if (pair_shares_a_cpu(_metadata, true, 250) && o >= 0)
		TH_LOG("%ld holds overrun, %ld backoffs",
		       leap_debug("pair_overruns") - o,
		       leap_debug("pair_backoffs") - b);
}

/*
 * Two pairs that take turns through futex words keep their CPUs too:
 * besides the rule above, a wakee that last ran on its waker's CPU,
 * woken by that CPU's only task, whose runs are short, while no other
 * CPU is idle, waits there for its waker (leap_pair_here()) rather than
 * taking the other pair's CPU when that pair's task blocks. On two CPUs
 * (the four sides allowed on the first two) the four sides must change
 * CPU between two rounds in fewer than one round in twelve, as the pipe
 * pairs above. Measured on the debug kernel: 1433-2590 moves of 8000
 * before the rule, 47-132 with it (2 CPUs).
 */
TEST_F_TIMEOUT(leap, futex_wakeup_two_pairs_keep_their_cpus, 60)
{
	int apart, moved = 0;

	if (!on_first_two_cpus(_metadata))
		return;
	apart = pong_apart(_metadata, 2, &moved, true, 0);
	TH_LOG("%d of %d rounds on two CPUs, %d moves", apart,
	       2 * PONG_ROUNDS, moved);
	EXPECT_LT(moved * 12, 4 * PONG_ROUNDS);
}

/*
 * WF_SYNC is a hint: a writer may go on running. The reader it woke,
 * held for the writer's CPU, gets a CPU of its own at that CPU's next
 * tick (leap_sync_release()). The writer here spins a second after each
 * of 5 writes, alone on its CPU, with another CPU idle: the reader must
 * run within 0.25 s (a tick is 1 to 4 ms; the rest is room for the
 * emulator), where it may. Held until the writer blocked, it would wait
 * the whole second.
 */
TEST_F_TIMEOUT(leap, sync_wakee_of_a_busy_waker_runs_elsewhere, 60)
{
	int k, status;

	if (online_cpus() < 2)
		SKIP(return, "needs 2 CPUs");
	for (k = 0; k < 5; k++) {
		int p[2], res[2], cpu;
		double t0, t[2] = { 0 };
		pid_t pid;
		char c;

		ASSERT_EQ(0, pipe(p));
		ASSERT_EQ(0, pipe(res));
		pid = fork();
		ASSERT_LE(0, pid);
		if (pid == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			if (read(p[0], &c, 1) != 1)
				_exit(1);
			t[0] = now_s(CLOCK_MONOTONIC);
			t[1] = sched_getcpu();
			_exit(write(res[1], t, sizeof(t)) != sizeof(t));
		}
		/* Let the reader block in its read. */
		usleep(50000);
		t0 = now_s(CLOCK_MONOTONIC);
		cpu = sched_getcpu();
		ASSERT_EQ(1, write(p[1], "w", 1));
		spin_cpu(1.0);
		ASSERT_EQ(sizeof(t), read(res[0], t, sizeof(t)));
		waitpid(pid, &status, 0);
		TH_LOG("write %d on CPU %d: the reader ran on CPU %d after %.1f ms",
		       k, cpu, (int)t[1], 1e3 * (t[0] - t0));
		EXPECT_LT(t[0] - t0, 0.25);
		close(p[0]);
		close(p[1]);
		close(res[0]);
		close(res[1]);
	}
}

/*
 * A futex waker may go on running after its wakeup, as a mutex's
 * unlocker does. The wakee, which last woke it, is held for its CPU
 * (above) but gets a CPU of its own at that CPU's second tick (counted
 * in debugfs as pair_overruns), and after LEAP_PAIR_STRIKES such holds
 * in a row the waker's wakees are held beside an idle CPU only after
 * LEAP_PAIR_BACKOFF_MS (leap_pair_backoff(), pair_backoffs). The child
 * wakes the parent, then waits; the parent, alone on its CPU with
 * another idle, sleeps briefly 40 times (its runs must be short), wakes
 * the child and spins a second, 5 times: the child must run within
 * 0.25 s each time (a tick is 1 to 4 ms; the rest is room for the
 * emulator), at least one of the five holds must have been released so,
 * and the parent, with no hold that worked between, must have been
 * backed off. Held until the parent blocked, the child would wait the
 * whole second; not held at all (before the rule), no overrun is
 * counted; with a strike count that never reached the bound, no
 * backoff.
 */
TEST_F_TIMEOUT(leap, futex_wakee_of_a_busy_waker_runs_elsewhere, 60)
{
	long before, after, backoffs;
	uint32_t *w;
	int i, k, status;

	if (online_cpus() < 2)
		SKIP(return, "needs 2 CPUs");
	before = leap_debug("pair_overruns");
	ASSERT_LE(0, before)
		TH_LOG("no pair_overruns in " DEBUGFS_LEAP);
	backoffs = leap_debug("pair_backoffs");
	ASSERT_LE(0, backoffs)
		TH_LOG("no pair_backoffs in " DEBUGFS_LEAP);
	/* w[0]: the child woke the parent; w[1]: the parent woke the child. */
	w = shared_mem(4096);
	ASSERT_NE(NULL, w);
	for (k = 0; k < 5; k++) {
		double *t = (double *)&w[16], t0;
		pid_t pid;
		int cpu;

		w[0] = 0;
		w[1] = 0;
		t[0] = 0;
		pid = fork();
		ASSERT_LE(0, pid);
		if (pid == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			/* Let the parent block first, so the wakeup is of it. */
			usleep(50000);
			pong_give(&w[0], 0);
			pong_turn(&w[1], 1);
			t[0] = now_s(CLOCK_MONOTONIC);
			t[1] = sched_getcpu();
			_exit(0);
		}
		pong_turn(&w[0], 1);
		/*
		 * Let the child block in its wait; and short sleeps, 40 of
		 * them, bring the parent's average run down from the
		 * second it spun before (each weighs a quarter).
		 */
		for (i = 0; i < 40; i++)
			usleep(1250);
		t0 = now_s(CLOCK_MONOTONIC);
		cpu = sched_getcpu();
		pong_give(&w[1], 0);
		spin_cpu(1.0);
		waitpid(pid, &status, 0);
		EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status));
		TH_LOG("wakeup %d on CPU %d: the child ran on CPU %d after %.1f ms",
		       k, cpu, (int)t[1], 1e3 * (t[0] - t0));
		EXPECT_LT(t[0] - t0, 0.25);
	}
	munmap(w, 4096);
	after = leap_debug("pair_overruns");
	backoffs = leap_debug("pair_backoffs") - backoffs;
	TH_LOG("%ld of 5 holds released at the tick, %ld backoffs",
	       after - before, backoffs);
	EXPECT_LE(1, after - before);
	EXPECT_LE(1, backoffs);
}

TEST_HARNESS_MAIN
