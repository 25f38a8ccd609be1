// SPDX-License-Identifier: GPL-2.0
/*
 * leap_crowd: a helper, not a test, of run_leap_tests.sh and of
 * leap-bench's pinned-crowd (tools/leap-bench builds it as crowd). It
 * forks N busy loops, pins each to one CPU from here (a child pinning
 * itself would need a turn on that crowded CPU first), prints "ready"
 * once all are pinned, and waits. Ending it (SIGTERM, SIGKILL, or its parent's end)
 * ends every loop: each has PR_SET_PDEATHSIG, and a loop that first runs
 * after its parent is gone exits at once.
 *
 * usage: leap_crowd N CPU
 *
 * Cost: N forks and N sched_setaffinity() calls; the loops then take
 * all of that CPU's time that the scheduler gives them.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/prctl.h>

int main(int argc, char **argv)
{
	pid_t self = getpid();
	cpu_set_t set;
	int n, cpu, i;

	n = argc == 3 ? atoi(argv[1]) : 0;
	cpu = argc == 3 ? atoi(argv[2]) : -1;
	if (n < 1 || cpu < 0 || cpu >= CPU_SETSIZE) {
		fprintf(stderr, "usage: leap_crowd N CPU (N >= 1)\n");
		return 2;
	}
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	for (i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("leap_crowd: fork");
			return 1;
		}
		if (!pid) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			if (getppid() != self)
				_exit(0);
			for (;;)
				;
		}
		if (sched_setaffinity(pid, sizeof(set), &set)) {
			perror("leap_crowd: sched_setaffinity");
			return 1;
		}
	}
	printf("ready\n");
	fflush(stdout);
	for (;;)
		pause();
}
