// SPDX-License-Identifier: GPL-2.0
/*
 * crowd: N busy loops pinned to one CPU, for leap-bench's pinned-crowd
 * workload. They never sleep, so under a global runqueue they wait with
 * old deadlines at the head of the queue: what every other CPU's pick
 * would have to walk past.
 *
 * usage: crowd N CPU
 *
 * Forks N children that spin, pins each to CPU (from here: a child
 * pinning itself would need a turn on that crowded CPU to return), prints
 * "ready" once all are, then waits. SIGTERM (or the end of its parent)
 * ends it and, through PR_SET_PDEATHSIG, every child. A child that first
 * runs after that (on a crowded CPU it may not have run at all) sees
 * that its parent is gone and exits: the death signal is armed only from
 * the prctl() on. leap-bench also kills the whole process group.
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
	int n, cpu, i;
	cpu_set_t set;
	pid_t self = getpid();

	n = argc == 3 ? atoi(argv[1]) : 0;
	cpu = argc == 3 ? atoi(argv[2]) : -1;
	if (n < 1 || cpu < 0) {
		fprintf(stderr, "usage: crowd N CPU\n");
		return 2;
	}
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	for (i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("fork");
			return 1;
		}
		if (pid == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			if (getppid() != self)
				_exit(0);
			for (;;)
				;
		}
		if (sched_setaffinity(pid, sizeof(set), &set)) {
			perror("sched_setaffinity");
			return 1;
		}
	}
	printf("ready\n");
	fflush(stdout);
	for (;;)
		pause();
}
