// SPDX-License-Identifier: GPL-2.0
/*
 * Scheduling policy interface conformance: every policy set and read back
 * through sched_setscheduler(), sched_setattr() and sched_getattr();
 * priority ranges; sched_rr_get_interval(); nice and setpriority();
 * SCHED_RESET_ON_FORK; sched_yield(); and bad input, which must fail with
 * exactly the errno mainline gives and leave the task as it was.
 * SCHED_ISO must be refused (EINVAL) by a kernel without LEAP and
 * accepted, also from an unprivileged user, by LEAP.
 */
#include "leap_util.h"
#include <pwd.h>
#include <sys/mman.h>
#include "../kselftest_harness.h"

static void reset_normal(void)
{
	struct sched_param sp = { 0 };

	sched_setscheduler(0, SCHED_OTHER, &sp);
	setpriority(PRIO_PROCESS, 0, 0);
}

/* Set @policy/@prio with sched_setscheduler and read it back both ways. */
static int set_and_check(int policy, int prio)
{
	struct sched_param sp = { .sched_priority = prio };
	struct leap_sched_attr a;

	if (sched_setscheduler(0, policy, &sp))
		return -errno;
	if (sched_getscheduler(0) != policy)
		return 1;
	if (sched_getparam(0, &sp) || sp.sched_priority != prio)
		return 2;
	memset(&a, 0, sizeof(a));
	if (sys_sched_getattr(0, &a, sizeof(a), 0))
		return 3;
	if (a.sched_policy != (unsigned int)policy || a.sched_priority != (unsigned int)prio)
		return 4;
	return 0;
}

TEST(set_get_every_policy)
{
	ASSERT_EQ(0, set_and_check(SCHED_FIFO, 10));
	ASSERT_EQ(0, set_and_check(SCHED_RR, 20));
	ASSERT_EQ(0, set_and_check(SCHED_FIFO, 99));
	ASSERT_EQ(0, set_and_check(SCHED_RR, 1));
	ASSERT_EQ(0, set_and_check(SCHED_BATCH, 0));
	ASSERT_EQ(0, set_and_check(SCHED_IDLE, 0));
	ASSERT_EQ(0, set_and_check(SCHED_OTHER, 0));
	reset_normal();
}

TEST(setattr_getattr)
{
	struct leap_sched_attr a = { .size = sizeof(a) }, b;

	a.sched_policy = SCHED_OTHER;
	a.sched_nice = 7;
	ASSERT_EQ(0, sys_sched_setattr(0, &a, 0));
	memset(&b, 0, sizeof(b));
	ASSERT_EQ(0, sys_sched_getattr(0, &b, sizeof(b), 0));
	EXPECT_EQ(SCHED_OTHER, b.sched_policy);
	EXPECT_EQ(7, b.sched_nice);
	EXPECT_EQ(7, getpriority(PRIO_PROCESS, 0));

	a.sched_policy = SCHED_RR;
	a.sched_priority = 33;
	a.sched_nice = 0;
	ASSERT_EQ(0, sys_sched_setattr(0, &a, 0));
	ASSERT_EQ(0, sys_sched_getattr(0, &b, sizeof(b), 0));
	EXPECT_EQ(SCHED_RR, b.sched_policy);
	EXPECT_EQ(33, b.sched_priority);

	a.sched_policy = SCHED_DEADLINE;
	a.sched_priority = 0;
	a.sched_runtime = 2 * 1000 * 1000;
	a.sched_deadline = 20 * 1000 * 1000;
	a.sched_period = 20 * 1000 * 1000;
	ASSERT_EQ(0, sys_sched_setattr(0, &a, 0)) TH_LOG("SCHED_DEADLINE: %s", strerror(errno));
	ASSERT_EQ(0, sys_sched_getattr(0, &b, sizeof(b), 0));
	EXPECT_EQ(SCHED_DEADLINE, b.sched_policy);
	EXPECT_EQ(a.sched_runtime, b.sched_runtime);
	reset_normal();
	dl_wait_release(0.02);
	EXPECT_EQ(SCHED_OTHER, sched_getscheduler(0));
}

TEST(priority_ranges)
{
	EXPECT_EQ(1, sched_get_priority_min(SCHED_FIFO));
	EXPECT_EQ(99, sched_get_priority_max(SCHED_FIFO));
	EXPECT_EQ(1, sched_get_priority_min(SCHED_RR));
	EXPECT_EQ(99, sched_get_priority_max(SCHED_RR));
	EXPECT_EQ(0, sched_get_priority_min(SCHED_OTHER));
	EXPECT_EQ(0, sched_get_priority_max(SCHED_OTHER));
	EXPECT_EQ(0, sched_get_priority_max(SCHED_BATCH));
	EXPECT_EQ(0, sched_get_priority_max(SCHED_IDLE));
	EXPECT_EQ(0, sched_get_priority_max(SCHED_DEADLINE));
	errno = 0;
	EXPECT_EQ(-1, sched_get_priority_max(12345));
	EXPECT_EQ(EINVAL, errno);
	errno = 0;
	EXPECT_EQ(-1, sched_get_priority_min(-1));
	EXPECT_EQ(EINVAL, errno);
}

TEST(rr_get_interval)
{
	struct sched_param sp = { .sched_priority = 5 };
	struct timespec ts;

	ASSERT_EQ(0, sched_setscheduler(0, SCHED_RR, &sp));
	ASSERT_EQ(0, sched_rr_get_interval(0, &ts));
	EXPECT_TRUE(ts.tv_sec > 0 || ts.tv_nsec > 0);
	EXPECT_LT(ts.tv_sec, 2);
	ASSERT_EQ(0, sched_setscheduler(0, SCHED_FIFO, &sp));
	ASSERT_EQ(0, sched_rr_get_interval(0, &ts));
	EXPECT_EQ(0, ts.tv_sec);
	EXPECT_EQ(0, ts.tv_nsec);
	reset_normal();
	errno = 0;
	EXPECT_EQ(-1, sched_rr_get_interval(-1, &ts));
	EXPECT_EQ(EINVAL, errno);
}

/*
 * kernel.sched_rr_timeslice_ms governs the SCHED_RR slice, and
 * sched_rr_get_interval() reports it: write 50, read 50 ms (within the
 * jiffy it is rounded up to), as on mainline.
 */
TEST(rr_timeslice_sysctl)
{
	const char *path = "/proc/sys/kernel/sched_rr_timeslice_ms";
	struct sched_param sp = { .sched_priority = 5 };
	int old = sysctl_read(path);
	struct timespec ts;
	double got;

	ASSERT_LT(0, old) TH_LOG("no %s", path);
	ASSERT_EQ(0, sysctl_write(path, 50));
	EXPECT_EQ(50, sysctl_read(path));
	ASSERT_EQ(0, sched_setscheduler(0, SCHED_RR, &sp));
	ASSERT_EQ(0, sched_rr_get_interval(0, &ts));
	got = ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
	reset_normal();
	ASSERT_EQ(0, sysctl_write(path, old));
	TH_LOG("sched_rr_timeslice_ms 50: sched_rr_get_interval() %.1f ms", got);
	EXPECT_GE(got, 50);
	EXPECT_LE(got, 54);
}

TEST(nice_and_setpriority)
{
	ASSERT_EQ(0, setpriority(PRIO_PROCESS, 0, 3));
	EXPECT_EQ(3, getpriority(PRIO_PROCESS, 0));
	errno = 0;
	EXPECT_EQ(5, nice(2));
	EXPECT_EQ(0, errno);
	/* Out of range values are clamped, as POSIX allows. */
	ASSERT_EQ(0, setpriority(PRIO_PROCESS, 0, 40));
	EXPECT_EQ(19, getpriority(PRIO_PROCESS, 0));
	ASSERT_EQ(0, setpriority(PRIO_PROCESS, 0, -40));
	EXPECT_EQ(-20, getpriority(PRIO_PROCESS, 0));
	reset_normal();
}

TEST(reset_on_fork)
{
	struct sched_param sp = { .sched_priority = 10 };
	int status;
	pid_t pid;

	ASSERT_EQ(0, setpriority(PRIO_PROCESS, 0, -5));
	ASSERT_EQ(0, sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &sp));
	EXPECT_EQ(SCHED_FIFO | SCHED_RESET_ON_FORK, sched_getscheduler(0));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (sched_getscheduler(0) != SCHED_OTHER)
			_exit(1);
		if (getpriority(PRIO_PROCESS, 0) != 0)
			_exit(2);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status)) TH_LOG("child kept policy (1) or nice (2)");
	reset_normal();
}

/*
 * Two tasks of @policy (@prio) pinned to one CPU each append their id to
 * a shared log and yield, @n times. Return the share of log entries that
 * differ from the one before: near 1 when each yield hands the CPU to the
 * other, near 0 when a yield does nothing and the tick alone switches.
 * This process samples at FIFO 50 meanwhile, so the two cannot lock it
 * out on a one-CPU machine; -1 if a task could not be set up or the
 * two never both got to run (exit 3).
 */
static double yield_alternation(int policy, int prio, int n)
{
	struct sched_param sp = { .sched_priority = prio };
	int cpu = nth_cpu(0), i, k, changes = 0, bad = 0, status;
	char *log = shared_mem(2 * n + 64);
	int *next, *ready;
	pid_t pids[2];
	double t0;

	if (!log)
		return -1;
	next = (int *)log;
	ready = next + 1;
	log += 64;
	if (sampler_rt(1))
		return -1;
	for (k = 0; k < 2; k++) {
		pids[k] = fork();
		if (pids[k] == 0) {
			if (pin_to(0, cpu) || sched_setscheduler(0, policy, &sp))
				_exit(1);
			/*
			 * Wait for the other, yielding so that it gets the
			 * CPU to set itself up; give up after 5 s so that a
			 * yield that does nothing fails the test, not hangs it.
			 */
			__atomic_add_fetch(ready, 1, __ATOMIC_SEQ_CST);
			t0 = now_s(CLOCK_MONOTONIC);
			while (__atomic_load_n(ready, __ATOMIC_SEQ_CST) < 2) {
				sched_yield();
				if (now_s(CLOCK_MONOTONIC) - t0 > 5)
					_exit(3);
			}
			for (i = 0; i < n; i++) {
				log[__atomic_fetch_add(next, 1, __ATOMIC_SEQ_CST)] = 'a' + k;
				if (sched_yield())
					_exit(2);
			}
			_exit(0);
		}
	}
	for (k = 0; k < 2; k++) {
		if (pids[k] < 0 || waitpid(pids[k], &status, 0) != pids[k] ||
		    !WIFEXITED(status) || WEXITSTATUS(status))
			bad = 1;
	}
	sampler_rt(0);
	for (i = 1; i < 2 * n; i++)
		changes += log[i] != log[i - 1];
	munmap(log - 64, 2 * n + 64);
	return bad ? -1 : (double)changes / (2 * n - 1);
}

/* Two FIFO tasks of one priority on one CPU take turns at each yield. */
TEST(yield_fifo_alternates)
{
	double alt = yield_alternation(SCHED_FIFO, 10, 2000);

	TH_LOG("%.1f%% of the log entries alternate", 100 * alt);
	ASSERT_LE(0, alt);
	EXPECT_GT(alt, 0.95);
}

/*
 * A normal task's yield lets its peer on the same CPU run. On LEAP the
 * slice is 1 s meanwhile: a vCPU stall (TCG on a busy host) that
 * overruns the 6 ms slice would put the stalled task's deadline behind
 * its peer's yields (sched-leap.rst, "Slices and deadlines"). A yield
 * that does nothing still fails: the peer runs only when a slice ends.
 */
TEST(yield_normal_lets_peer_run)
{
	const char *rr = "/proc/sys/kernel/rr_interval";
	int old = sysctl_read(rr);	/* -1 on a kernel without LEAP */
	double alt;

	if (old > 0)
		ASSERT_EQ(0, sysctl_write(rr, 1000));
	alt = yield_alternation(SCHED_OTHER, 0, 2000);
	if (old > 0)
		sysctl_write(rr, old);
	TH_LOG("%.1f%% of the log entries alternate", 100 * alt);
	ASSERT_LE(0, alt);
	EXPECT_GT(alt, 0.8);
}

/* The task's policy and priority, to check that a failed call changed nothing. */
static int policy_now(int *prio)
{
	struct sched_param sp;

	sched_getparam(0, &sp);
	*prio = sp.sched_priority;
	return sched_getscheduler(0);
}

TEST(bad_input_errno)
{
	struct sched_param sp = { .sched_priority = 10 }, bad;
	struct leap_sched_attr a = { .size = sizeof(a) };
	int prio, pol;

	ASSERT_EQ(0, sched_setscheduler(0, SCHED_RR, &sp));

	bad.sched_priority = 0;
	EXPECT_ERRNO(EINVAL, sched_setscheduler(0, 12345, &bad));
	EXPECT_ERRNO(EINVAL, sched_setscheduler(0, -2, &bad));
	bad.sched_priority = 0;
	EXPECT_ERRNO(EINVAL, sched_setscheduler(0, SCHED_FIFO, &bad));
	bad.sched_priority = 100;
	EXPECT_ERRNO(EINVAL, sched_setscheduler(0, SCHED_RR, &bad));
	bad.sched_priority = 5;
	EXPECT_ERRNO(EINVAL, sched_setscheduler(0, SCHED_OTHER, &bad));
	EXPECT_ERRNO(EINVAL, sched_setscheduler(0, SCHED_BATCH, &bad));
	EXPECT_ERRNO(EINVAL, sched_setscheduler(-1, SCHED_OTHER, &sp));
	bad.sched_priority = 0;
	EXPECT_ERRNO(ESRCH, sched_setscheduler(0x3fffffff, SCHED_OTHER, &bad));
	EXPECT_ERRNO(ESRCH, sched_getscheduler(0x3fffffff));
	EXPECT_ERRNO(EINVAL, sched_getscheduler(-1));
	EXPECT_ERRNO(EINVAL, sched_setscheduler(0, SCHED_OTHER, NULL));
	EXPECT_ERRNO(EINVAL, sched_getparam(0, NULL));
	EXPECT_ERRNO(EINVAL, sched_setparam(0, NULL));
	EXPECT_ERRNO(EFAULT, sched_rr_get_interval(0, NULL));

	/* sched_setattr / sched_getattr */
	EXPECT_ERRNO(EINVAL, sys_sched_setattr(0, NULL, 0));
	EXPECT_ERRNO(EINVAL, sys_sched_getattr(0, NULL, sizeof(a), 0));
	a.size = 1;
	a.sched_policy = SCHED_OTHER;
	EXPECT_ERRNO(E2BIG, sys_sched_setattr(0, &a, 0));
	EXPECT_EQ(sizeof(a), a.size) TH_LOG("kernel reports its attr size");
	a.size = sizeof(a);
	EXPECT_ERRNO(EINVAL, sys_sched_setattr(0, &a, 1));
	EXPECT_ERRNO(EINVAL, sys_sched_getattr(0, &a, 1, 0));
	EXPECT_ERRNO(EINVAL, sys_sched_getattr(0, &a, sizeof(a), 1));
	a.sched_policy = 12345;
	EXPECT_ERRNO(EINVAL, sys_sched_setattr(0, &a, 0));
	a.sched_policy = SCHED_FIFO;
	a.sched_priority = 100;
	EXPECT_ERRNO(EINVAL, sys_sched_setattr(0, &a, 0));
	a.sched_policy = SCHED_OTHER;
	a.sched_priority = 0;
	a.sched_flags = 0x80000000ULL;
	EXPECT_ERRNO(EINVAL, sys_sched_setattr(0, &a, 0));

	/* Nothing changed. */
	pol = policy_now(&prio);
	EXPECT_EQ(SCHED_RR, pol);
	EXPECT_EQ(10, prio);
	reset_normal();
}

static int unpriv_setattr_negative_nice(void)
{
	struct leap_sched_attr a = { .size = sizeof(a), .sched_nice = -5 };

	if (sys_sched_setattr(0, &a, 0) == 0)
		return 1;
	if (errno != EPERM)
		return 2;
	if (getpriority(PRIO_PROCESS, 0) != 0)
		return 3;
	return 0;
}

static int as_nobody(int rtprio, int (*fn)(void));

/*
 * The sched_setattr() size protocol, nice clamping, and the affinity
 * calls' length checks, with mainline's errnos.
 */
TEST(bad_input_setattr_affinity)
{
	struct {
		struct leap_sched_attr a;
		uint64_t tail[2];
	} big;
	struct leap_sched_attr a;
	unsigned long mask[16];

	/* A larger attr than the kernel knows: E2BIG unless the tail is 0. */
	memset(&big, 0, sizeof(big));
	big.a.size = sizeof(big);
	big.a.sched_policy = SCHED_OTHER;
	big.tail[1] = 1;
	EXPECT_ERRNO(E2BIG, sys_sched_setattr(0, &big, 0));
	EXPECT_EQ(sizeof(struct leap_sched_attr), big.a.size)
		TH_LOG("kernel reports its attr size");
	memset(&big, 0, sizeof(big));
	big.a.size = sizeof(big);
	big.a.sched_policy = SCHED_OTHER;
	big.a.sched_nice = 3;
	EXPECT_EQ(0, sys_sched_setattr(0, &big, 0)) TH_LOG("zero tail refused");
	EXPECT_EQ(3, getpriority(PRIO_PROCESS, 0));
	/* Size 0 means the first version of the struct. */
	memset(&a, 0, sizeof(a));
	a.sched_policy = SCHED_OTHER;
	a.sched_nice = 4;
	EXPECT_EQ(0, sys_sched_setattr(0, &a, 0)) TH_LOG("size 0 refused");
	EXPECT_EQ(4, getpriority(PRIO_PROCESS, 0));
	/* A page and more: E2BIG. */
	a.size = 8192;
	EXPECT_ERRNO(E2BIG, sys_sched_setattr(0, &a, 0));
	/* Out-of-range nice values are clamped, not refused. */
	a.size = sizeof(a);
	a.sched_nice = 30;
	EXPECT_EQ(0, sys_sched_setattr(0, &a, 0));
	EXPECT_EQ(19, getpriority(PRIO_PROCESS, 0));
	a.sched_nice = -30;
	EXPECT_EQ(0, sys_sched_setattr(0, &a, 0));
	EXPECT_EQ(-20, getpriority(PRIO_PROCESS, 0));
	memset(&a, 0, sizeof(a));
	ASSERT_EQ(0, sys_sched_getattr(0, &a, sizeof(a), 0));
	EXPECT_EQ(-20, a.sched_nice);
	reset_normal();
	/* Unprivileged: a lower nice through setattr is EPERM. */
	EXPECT_EQ(0, as_nobody(0, unpriv_setattr_negative_nice))
		TH_LOG("1: allowed, 2: wrong errno, 3: nice changed");
	/* getaffinity: a length short of nr_cpu_ids bits, or not whole longs. */
	EXPECT_ERRNO(EINVAL, syscall(SYS_sched_getaffinity, 0, 0, mask));
	EXPECT_ERRNO(EINVAL, syscall(SYS_sched_getaffinity, 0, 4, mask));
	EXPECT_LT(0, syscall(SYS_sched_getaffinity, 0, sizeof(mask), mask));
	EXPECT_ERRNO(EFAULT, syscall(SYS_sched_getaffinity, 0, sizeof(mask), NULL));
	/* setaffinity: no CPU at all, or a bad pointer. */
	memset(mask, 0, sizeof(mask));
	EXPECT_ERRNO(EINVAL, syscall(SYS_sched_setaffinity, 0, sizeof(mask), mask));
	EXPECT_ERRNO(EFAULT, syscall(SYS_sched_setaffinity, 0, sizeof(mask), NULL));
	EXPECT_ERRNO(ESRCH, syscall(SYS_sched_setaffinity, 0x3fffffff, sizeof(mask), mask));
}

TEST(affinity_without_online_cpu)
{
	cpu_set_t before, set, after;
	int cpu;

	ASSERT_EQ(0, sched_getaffinity(0, sizeof(before), &before));
	CPU_ZERO(&set);
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (!CPU_ISSET(cpu, &before) && cpu >= sysconf(_SC_NPROCESSORS_CONF))
			break;
	ASSERT_LT(cpu, CPU_SETSIZE);
	CPU_SET(cpu, &set);
	EXPECT_ERRNO(EINVAL, sched_setaffinity(0, sizeof(set), &set));
	CPU_ZERO(&set);
	EXPECT_ERRNO(EINVAL, sched_setaffinity(0, sizeof(set), &set));
	ASSERT_EQ(0, sched_getaffinity(0, sizeof(after), &after));
	EXPECT_TRUE(CPU_EQUAL(&before, &after));
}

/* Run @fn as user nobody with RLIMIT_RTPRIO @rtprio; return its exit code. */
static int as_nobody(int rtprio, int (*fn)(void))
{
	struct rlimit rl = { rtprio, rtprio };
	int status;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (setrlimit(RLIMIT_RTPRIO, &rl))
			_exit(100);
		if (setgid(65534) || setuid(65534))
			_exit(101);
		_exit(fn());
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static int unpriv_fifo_denied(void)
{
	struct sched_param sp = { .sched_priority = 1 };

	if (sched_setscheduler(0, SCHED_FIFO, &sp) == 0)
		return 1;
	if (errno != EPERM)
		return 2;
	if (sched_getscheduler(0) != SCHED_OTHER)
		return 3;
	errno = 0;
	if (setpriority(PRIO_PROCESS, 0, -5) == 0 || errno != EACCES)
		return 4;
	return 0;
}

static int unpriv_fifo_within_rlimit(void)
{
	struct sched_param sp = { .sched_priority = 5 };

	if (sched_setscheduler(0, SCHED_FIFO, &sp))
		return 1;
	sp.sched_priority = 20;
	if (sched_setscheduler(0, SCHED_FIFO, &sp) == 0 || errno != EPERM)
		return 2;
	return 0;
}

TEST(unprivileged_rt)
{
	EXPECT_EQ(0, as_nobody(0, unpriv_fifo_denied))
		TH_LOG("1: FIFO allowed, 2: wrong errno, 3: policy changed, 4: nice -5 allowed");
	EXPECT_EQ(0, as_nobody(10, unpriv_fifo_within_rlimit))
		TH_LOG("1: FIFO 5 refused under RLIMIT_RTPRIO 10, 2: FIFO 20 allowed");
}

static int unpriv_iso(void)
{
	struct sched_param sp = { 0 };

	if (sched_setscheduler(0, SCHED_ISO, &sp))
		return 1;
	return sched_getscheduler(0) == SCHED_ISO ? 0 : 2;
}

TEST(sched_iso)
{
	struct leap_sched_attr a = { .size = sizeof(a), .sched_policy = SCHED_ISO,
				     .sched_nice = 3 }, b;
	struct sched_param sp = { 0 };
	int status;
	pid_t pid;

	if (!leap_kernel()) {
		/* Mainline reserves policy 4: it must be refused. */
		EXPECT_ERRNO(EINVAL, sched_setscheduler(0, SCHED_ISO, &sp));
		EXPECT_EQ(SCHED_OTHER, sched_getscheduler(0));
		return;
	}
	/* LEAP (kernel.rr_interval) without SCHED_ISO is a failure. */
	ASSERT_EQ(0, access("/proc/sys/kernel/iso_cpu", F_OK))
		TH_LOG("a LEAP kernel without kernel.iso_cpu");
	EXPECT_EQ(0, as_nobody(0, unpriv_iso)) TH_LOG("unprivileged SCHED_ISO refused");
	EXPECT_EQ(0, sched_get_priority_min(SCHED_ISO));
	EXPECT_EQ(0, sched_get_priority_max(SCHED_ISO));

	/* A priority is refused, as for SCHED_OTHER; nothing changes. */
	sp.sched_priority = 1;
	EXPECT_ERRNO(EINVAL, sched_setscheduler(0, SCHED_ISO, &sp));
	EXPECT_EQ(SCHED_OTHER, sched_getscheduler(0));

	/* sched_setattr() takes a nice value with it; getattr reads both back. */
	ASSERT_EQ(0, sys_sched_setattr(0, &a, 0));
	ASSERT_EQ(0, sys_sched_getattr(0, &b, sizeof(b), 0));
	EXPECT_EQ(SCHED_ISO, b.sched_policy);
	EXPECT_EQ(3, b.sched_nice);
	EXPECT_EQ(0, b.sched_priority);

	/* SCHED_RESET_ON_FORK: a child of an ISO task starts as SCHED_OTHER. */
	sp.sched_priority = 0;
	ASSERT_EQ(0, sched_setscheduler(0, SCHED_ISO | SCHED_RESET_ON_FORK, &sp));
	pid = fork();
	if (!pid)
		_exit(sched_getscheduler(0) == SCHED_OTHER ? 0 : 1);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status)) TH_LOG("the child kept SCHED_ISO");
	EXPECT_EQ(SCHED_ISO | SCHED_RESET_ON_FORK, sched_getscheduler(0));
}

TEST_HARNESS_MAIN
