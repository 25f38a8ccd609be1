// SPDX-License-Identifier: GPL-2.0
/*
 * Task lifecycle under the scheduler: fork/exit and fork/exec storms,
 * thread create/join storms, pipe ping-pong between processes, futex
 * wait/wake hand-offs, and sched_setaffinity() churn on running threads.
 * Each checks that every task ran to its end with the right result, so a
 * lost wakeup, a task stuck on a queue or a leaked task fails (or hangs,
 * which the runner's timeout turns into a failure).
 */
#include "leap_util.h"
#include <pthread.h>
#include <stdatomic.h>
#include <linux/futex.h>
#include "../kselftest_harness.h"

/* Reap @pid; 1 if it exited normally with @code. */
static int reaped_with(pid_t pid, int code)
{
	int status;

	return waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	       WEXITSTATUS(status) == code;
}

TEST(fork_exit_storm)
{
	int i, ok = 0;
	pid_t pid;

	for (i = 0; i < 300; i++) {
		pid = fork();
		ASSERT_LE(0, pid);
		if (pid == 0)
			_exit(i & 0x7f);
		ok += reaped_with(pid, i & 0x7f);
	}
	EXPECT_EQ(300, ok);
}

TEST(fork_wide)
{
	pid_t pids[64];
	int i, ok = 0;

	for (i = 0; i < 64; i++) {
		pids[i] = fork();
		ASSERT_LE(0, pids[i]);
		if (pids[i] == 0) {
			sched_yield();
			_exit(7);
		}
	}
	for (i = 0; i < 64; i++)
		ok += reaped_with(pids[i], 7);
	EXPECT_EQ(64, ok);
}

TEST(fork_exec_storm)
{
	int i, ok = 0;
	pid_t pid;

	for (i = 0; i < 40; i++) {
		pid = fork();
		ASSERT_LE(0, pid);
		if (pid == 0) {
			execl("/bin/true", "true", (char *)NULL);
			_exit(127);
		}
		ok += reaped_with(pid, 0);
	}
	EXPECT_EQ(40, ok);
}

static void *thread_fn(void *arg)
{
	return (void *)((long)arg * 3);
}

TEST(thread_storm)
{
	pthread_t t[32];
	int round, i, ok = 0;
	void *ret;

	for (round = 0; round < 20; round++) {
		for (i = 0; i < 32; i++)
			ASSERT_EQ(0, pthread_create(&t[i], NULL, thread_fn, (void *)(long)i));
		for (i = 0; i < 32; i++) {
			ASSERT_EQ(0, pthread_join(t[i], &ret));
			if ((long)ret == i * 3)
				ok++;
		}
	}
	EXPECT_EQ(640, ok);
}

TEST(pipe_ping_pong)
{
	int a[2], b[2], i, status;
	unsigned int v = 0;
	pid_t pid;

	ASSERT_EQ(0, pipe(a));
	ASSERT_EQ(0, pipe(b));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		close(a[1]);
		close(b[0]);
		for (;;) {
			if (read(a[0], &v, sizeof(v)) != sizeof(v))
				_exit(v == 1999 ? 0 : 1);
			v++;
			if (write(b[1], &v, sizeof(v)) != sizeof(v))
				_exit(2);
		}
	}
	close(a[0]);
	close(b[1]);
	for (i = 0; i < 1000; i++) {
		ASSERT_EQ(sizeof(v), write(a[1], &v, sizeof(v)));
		ASSERT_EQ(sizeof(v), read(b[0], &v, sizeof(v)));
		v++;
	}
	EXPECT_EQ(2000, v);
	close(a[1]);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

static atomic_int futex_word;
static int handoffs;

static void futex_wait_for(int val)
{
	int cur;

	/* Sleep only on the value just seen to differ from @val. */
	while ((cur = atomic_load(&futex_word)) != val)
		syscall(SYS_futex, &futex_word, FUTEX_WAIT_PRIVATE, cur,
			NULL, NULL, 0);
}

static void futex_set(int val)
{
	atomic_store(&futex_word, val);
	syscall(SYS_futex, &futex_word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

static void *futex_peer(void *arg)
{
	int i;

	for (i = 0; i < handoffs; i++) {
		futex_wait_for(2 * i + 1);
		futex_set(2 * i + 2);
	}
	return NULL;
}

TEST(futex_wait_wake)
{
	pthread_t t;
	int i;

	handoffs = 500;
	atomic_store(&futex_word, 0);
	ASSERT_EQ(0, pthread_create(&t, NULL, futex_peer, NULL));
	for (i = 0; i < handoffs; i++) {
		futex_set(2 * i + 1);
		futex_wait_for(2 * i + 2);
	}
	ASSERT_EQ(0, pthread_join(t, NULL));
	EXPECT_EQ(2 * handoffs, atomic_load(&futex_word));
}

static atomic_int churn_stop;

static void *churn_spin(void *arg)
{
	unsigned long *n = arg;

	while (!atomic_load(&churn_stop))
		(*n)++;
	return NULL;
}

TEST(setaffinity_churn)
{
	int cpus = online_cpus(), i;
	unsigned long count[4] = { 0 };
	pthread_t t[4];
	cpu_set_t set;

	atomic_store(&churn_stop, 0);
	for (i = 0; i < 4; i++)
		ASSERT_EQ(0, pthread_create(&t[i], NULL, churn_spin, &count[i]));
	for (i = 0; i < 400; i++) {
		CPU_ZERO(&set);
		CPU_SET(nth_cpu(i % cpus), &set);
		if (i % 3 == 0)
			CPU_SET(nth_cpu((i / 3) % cpus), &set);
		ASSERT_EQ(0, pthread_setaffinity_np(t[i % 4], sizeof(set), &set));
		if (i % 16 == 0)
			usleep(1000);
	}
	atomic_store(&churn_stop, 1);
	for (i = 0; i < 4; i++) {
		ASSERT_EQ(0, pthread_join(t[i], NULL));
		EXPECT_GT(count[i], 0) TH_LOG("thread %d never ran", i);
	}
}

TEST_HARNESS_MAIN
