/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the LEAP conformance tests: raw sched_setattr(),
 * CPU hogs whose CPU time is measured against each other (a run a
 * vCPU stall hit is repeated), and the detection of a LEAP kernel.
 * Every behaviour check compares tasks with each other (CPU-time
 * shares, orderings), never with the wall clock, so that it holds
 * under QEMU's software emulation as on real hardware.
 */
#ifndef LEAP_UTIL_H
#define LEAP_UTIL_H

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <grp.h>

#ifndef SCHED_ISO
#define SCHED_ISO		4
#endif
#ifndef SCHED_RESET_ON_FORK
#define SCHED_RESET_ON_FORK	0x40000000
#endif

struct leap_sched_attr {
	uint32_t size;
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime;
	uint64_t sched_deadline;
	uint64_t sched_period;
	uint32_t sched_util_min;
	uint32_t sched_util_max;
};

#define LEAP_ATTR_SIZE_VER0	48

static inline int sys_sched_setattr(pid_t pid, void *attr, unsigned int flags)
{
	return syscall(SYS_sched_setattr, pid, attr, flags);
}

static inline int sys_sched_getattr(pid_t pid, void *attr, unsigned int size,
				    unsigned int flags)
{
	return syscall(SYS_sched_getattr, pid, attr, size, flags);
}

static inline int leap_kernel(void)
{
	return access("/proc/sys/kernel/rr_interval", F_OK) == 0;
}

static inline int online_cpus(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set))
		return 1;
	return CPU_COUNT(&set);
}

/* The n-th CPU this task may run on, or -1. */
static inline int nth_cpu(int n)
{
	cpu_set_t set;
	int cpu;

	if (sched_getaffinity(0, sizeof(set), &set))
		return -1;
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &set) && n-- == 0)
			return cpu;
	return -1;
}

static inline int pin_to(pid_t pid, int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(pid, sizeof(set), &set);
}

static inline double now_s(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * A child spinning under @policy (@prio for FIFO/RR) at @nice, pinned to
 * @cpu (-1: anywhere), as user @uid (-1: as this process). The policy is
 * set after the uid change, so an unprivileged request is checked as one.
 * The child dies with its parent.
 */
static inline pid_t spin_as(int policy, int prio, int nice, int cpu, int uid)
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
	if (nice && setpriority(PRIO_PROCESS, 0, nice))
		_exit(3);
	if (uid >= 0 && (setgroups(0, NULL) || setresgid(uid, uid, uid) ||
			 setresuid(uid, uid, uid)))
		_exit(4);
	if (sched_setscheduler(0, policy, &sp))
		_exit(5);
	for (;;)
		;
}

/* A child spinning under @policy, pinned to @cpu (-1: anywhere). */
static inline pid_t spinner(int policy, int prio, int cpu)
{
	return spin_as(policy, prio, 0, cpu, -1);
}

/* SIGKILL @n children and reap them. */
static inline void stop(pid_t *pids, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (pids[i] > 0)
			kill(pids[i], SIGKILL);
	for (i = 0; i < n; i++)
		if (pids[i] > 0)
			waitpid(pids[i], NULL, 0);
}

/*
 * After a SCHED_DEADLINE task exits or leaves the policy, mainline frees
 * its bandwidth only at its 0-lag time, from a timer, up to a period
 * later. Without cpusets, any access to a sched_rt_* sysctl meanwhile
 * rebuilds the root domain and zeroes its DL bandwidth sum, which the
 * late free then underflows: every later write of sched_rt_runtime_us
 * fails with EBUSY until the next rebuild (6.12, on EEVDF as on LEAP). A
 * test whose DL task is gone waits out two of its periods and 250 ms for
 * a timer that comes late: in a 4-vCPU guest on 2 host cores, two
 * periods were once not enough (the next test's write failed, EBUSY).
 */
static inline void dl_wait_release(double period_s)
{
	usleep((useconds_t)(2e6 * period_s + 250000));
}

/* CPU time of process @pid so far, in seconds; -1 if it is gone. */
static inline double cputime(pid_t pid)
{
	clockid_t clk;
	struct timespec ts;

	if (clock_getcpuclockid(pid, &clk) || clock_gettime(clk, &ts))
		return -1;
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* CPU time each of @n processes gets in @secs of wall time, into @d. */
static inline void measure(pid_t *pids, int n, double secs, double *d)
{
	double t0[128];
	int i;

	for (i = 0; i < n && i < 128; i++)
		t0[i] = cputime(pids[i]);
	usleep(secs * 1e6);
	for (i = 0; i < n && i < 128; i++)
		d[i] = cputime(pids[i]) - t0[i];
}

/*
 * @size bytes of zeroed memory that this process and the children it
 * forks after the call read and write alike (counters, turns, logs);
 * NULL if the mapping fails. munmap() it when done.
 */
static inline void *shared_mem(size_t size)
{
	void *m = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	return m == MAP_FAILED ? NULL : m;
}

/* @part of @total, as a fraction; 0 when @total is 0. */
static inline double part_of(double part, double total)
{
	return total > 0 ? part / total : 0;
}

/*
 * EXPECT that @call fails with errno @err (once evaluated), and say
 * which errno it gave otherwise.
 */
#define EXPECT_ERRNO(err, call) do {					\
	int __want = (err);						\
	errno = 0;							\
	EXPECT_EQ(-1, (call));						\
	EXPECT_EQ(__want, errno) TH_LOG(#call ": errno %d (%s), wanted %d",\
					errno, strerror(errno), __want);\
} while (0)

/* This process at FIFO 50 (@on) or back to SCHED_OTHER, to sample on time. */
static inline int sampler_rt(int on)
{
	struct sched_param sp = { .sched_priority = on ? 50 : 0 };

	return sched_setscheduler(0, on ? SCHED_FIFO : SCHED_OTHER, &sp);
}

/* A small file's text into @buf (NUL-terminated): its length, -1 if unreadable. */
static inline int read_text(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	buf[0] = 0;
	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = 0;
	return n;
}

/* An integer sysctl (a /proc/sys path): read it, -1 if absent; write it, 0 or -errno. */
static inline int sysctl_read(const char *path)
{
	char buf[32];

	if (read_text(path, buf, sizeof(buf)) < 0)
		return access(path, F_OK) ? -1 : 0;
	return atoi(buf);
}

static inline int sysctl_write(const char *path, int v)
{
	char buf[32];
	int fd = open(path, O_WRONLY), len, ret;

	if (fd < 0)
		return -errno;
	len = snprintf(buf, sizeof(buf), "%d\n", v);
	ret = write(fd, buf, len) == len ? 0 : -errno;
	close(fd);
	return ret;
}

/* What a hog is: where it runs, under which policy, for how long. */
struct hog {
	int cpu;		/* -1: anywhere */
	int policy;
	int prio;		/* FIFO/RR priority */
	int nice;
	double seconds;		/* wall time it spins for */
	/* results */
	double cpu_time;	/* seconds of CPU it got in its window */
	double window;		/* seconds from its release to the end */
	int preempted;		/* times it saw a gap of over 1 ms */
	pid_t pid;
	int fd;
};

/*
 * Start a hog in a child process. It waits on @go (a pipe) for the common
 * end time (CLOCK_MONOTONIC) of all hogs of a test, spins until then and
 * writes its CPU time and gap count to its pipe. A hog that gets the CPU
 * late spins for less time: the window is the same for every hog.
 */
static inline int hog_start(struct hog *h, int go)
{
	int fds[2];

	if (pipe(fds))
		return -1;
	h->pid = fork();
	if (h->pid < 0)
		return -1;
	if (h->pid == 0) {
		struct sched_param sp = { .sched_priority = h->prio };
		double end, start, last, t, cpu0, res[3];
		int gaps = 0;

		close(fds[0]);
		if (h->cpu >= 0 && pin_to(0, h->cpu))
			_exit(2);
		if (setpriority(PRIO_PROCESS, 0, h->nice))
			_exit(3);
		if (sched_setscheduler(0, h->policy, &sp))
			_exit(4);
		if (read(go, &end, sizeof(end)) != sizeof(end))
			_exit(5);
		start = now_s(CLOCK_MONOTONIC);
		last = start;
		cpu0 = now_s(CLOCK_THREAD_CPUTIME_ID);
		do {
			t = now_s(CLOCK_MONOTONIC);
			if (t - last > 0.001)
				gaps++;
			last = t;
		} while (t < end);
		res[0] = now_s(CLOCK_THREAD_CPUTIME_ID) - cpu0;
		res[1] = gaps;
		res[2] = t - start;
		if (write(fds[1], res, sizeof(res)) != sizeof(res))
			_exit(6);
		_exit(0);
	}
	close(fds[1]);
	h->fd = fds[0];
	return 0;
}

static inline int hog_finish(struct hog *h)
{
	double res[3];
	int status;

	if (read(h->fd, res, sizeof(res)) != sizeof(res)) {
		res[0] = -1;
		res[1] = -1;
		res[2] = -1;
	}
	close(h->fd);
	if (waitpid(h->pid, &status, 0) != h->pid)
		return -1;
	h->cpu_time = res[0];
	h->preempted = res[1];
	h->window = res[2];
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

/*
 * The longest vCPU stall on @cpu until @end: a FIFO child there sleeps
 * HOG_WATCH_STEP at a time and writes to @fd the most a sleep overran.
 * Under TCG the host may stop a vCPU for tens of ms; the guest charges
 * the stop as CPU time to a task that runs around it (not always to the
 * one it interrupted: sched_clock's jump over a tick is taken at the
 * next one), so a hog's own clocks cannot tell a stall from its turn.
 */
#define HOG_WATCH_STEP	0.005

static inline pid_t stall_watch(int cpu, double end, int fd)
{
	struct sched_param sp = { .sched_priority = 60 };
	struct timespec ts = { 0, HOG_WATCH_STEP * 1e9 };
	double t, want, late = 0;
	pid_t pid = fork();

	if (pid)
		return pid;
	if (pin_to(0, cpu) || sched_setscheduler(0, SCHED_FIFO, &sp))
		late = -1;
	for (t = now_s(CLOCK_MONOTONIC); late >= 0 && t < end; ) {
		want = t + HOG_WATCH_STEP;
		nanosleep(&ts, NULL);
		t = now_s(CLOCK_MONOTONIC);
		if (t - want > late)
			late = t - want;
	}
	_exit(write(fd, &late, sizeof(late)) != sizeof(late));
}

/*
 * Run n hogs together; returns 0 when every hog ran and reported. When
 * the first hog is pinned, *@stall is the longest vCPU stall on its CPU
 * meanwhile (stall_watch()), else 0.
 */
static inline int hogs_run_once(struct hog *h, int n, double *stall)
{
	double end, ends[64], secs = 0;
	int go[2], w[2] = { -1, -1 }, i, bad = 0;
	pid_t watcher = -1;

	if (n > 64)
		return -1;
	if (pipe(go))
		return -1;
	for (i = 0; i < n; i++)
		if (hog_start(&h[i], go[0]))
			return -1;
	usleep(100000);
	for (i = 0; i < n; i++)
		if (h[i].seconds > secs)
			secs = h[i].seconds;
	end = now_s(CLOCK_MONOTONIC) + 0.05 + secs;
	/*
	 * One write releases every hog: with one CPU, the first hog woken
	 * (if realtime) would otherwise keep this parent from writing the
	 * others' messages until its window is over.
	 */
	for (i = 0; i < n; i++)
		ends[i] = end;
	*stall = 0;
	if (h[0].cpu >= 0) {
		if (pipe(w))
			return -1;
		watcher = stall_watch(h[0].cpu, end, w[1]);
		if (watcher < 0)
			return -1;
	}
	if (write(go[1], ends, n * sizeof(end)) != (ssize_t)(n * sizeof(end)))
		return -1;
	for (i = 0; i < n; i++)
		bad |= hog_finish(&h[i]);
	if (watcher > 0) {
		if (read(w[0], stall, sizeof(*stall)) != sizeof(*stall) ||
		    *stall < 0)
			bad = -1;
		waitpid(watcher, NULL, 0);
		close(w[0]);
		close(w[1]);
	}
	close(go[0]);
	close(go[1]);
	return bad;
}

/*
 * Run n hogs together, as hogs_run_once(), and again while a vCPU stall
 * of over HOG_STALL_MAX hit their CPU, HOG_RUNS runs at most; the hogs
 * keep the results of the run with the shortest stall. The stall is
 * charged to a hog as CPU time and skews a share by its length. On a
 * busy host, in CI, two nice-0 hogs on one CPU split 63:37 and a
 * SCHED_IDLE hog got 46 ms beside a nice-0 one; a guest whose QEMU was
 * stopped 100 ms a second (SIGSTOP) gave 63:37 and 41-252 ms. Many short
 * stalls (the host's own time slices) are charged in proportion to CPU
 * time and do not skew a share: a run is repeated for a long one only.
 */
#define HOG_STALL_MAX	0.02
#define HOG_RUNS	3

static inline int hogs_run(struct hog *h, int n)
{
	double stall, least = 1e9;
	struct hog best[64];
	int run, bad;

	if (n > 64)
		return -1;
	for (run = 0; run < HOG_RUNS; run++) {
		bad = hogs_run_once(h, n, &stall);
		if (bad)
			return bad;
		if (stall < least) {
			least = stall;
			memcpy(best, h, n * sizeof(*h));
		}
		if (stall <= HOG_STALL_MAX)
			break;
		printf("# a vCPU stall of %.0f ms hit the hogs' CPU in run %d of %d\n",
		       1000 * stall, run + 1, HOG_RUNS);
		fflush(stdout);
	}
	memcpy(h, best, n * sizeof(*h));
	return 0;
}

#endif /* LEAP_UTIL_H */
