// SPDX-License-Identifier: GPL-2.0
/*
 * wakelat: wakeup latency in the spirit of schbench.
 *
 * M message threads each own W worker threads. A round: the message
 * thread stamps the time and wakes each of its workers through a futex;
 * each worker records how long it took from the wakeup call to running
 * (the wakeup latency), burns `work_us` of CPU (a stand-in for handling a
 * request), and reports back; the message thread waits until all its
 * workers are done, sleeps `sleep_us`, and starts the next round. With
 * M * W > nCPU the workers compete for CPUs, so the latency includes the
 * time a woken task waits for one.
 *
 * usage: wakelat [-m M] [-w W] [-t seconds] [-r work_us] [-s sleep_us]
 * Output: one JSON object on stdout: rounds, rounds per second and the
 * wakeup latency distribution (microseconds).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include "common.h"

struct worker {
	uint32_t go;			/* futex: 1 = request pending */
	uint64_t stamp;			/* when the message thread woke us */
	struct msg *msg;
	struct lat_set lat;
	pthread_t tid;
} __attribute__((aligned(64)));

struct msg {
	uint32_t pending;		/* futex: workers not yet done */
	int nr_workers;
	struct worker *w;
	uint64_t rounds;
	pthread_t tid;
} __attribute__((aligned(64)));

static int work_us = 100, sleep_us = 100;
static volatile int stop;

static void burn(int us)
{
	uint64_t end = now_ns() + (uint64_t)us * 1000;

	while (now_ns() < end)
		;
}

static void *worker_fn(void *arg)
{
	struct worker *w = arg;

	for (;;) {
		while (!__atomic_load_n(&w->go, __ATOMIC_ACQUIRE))
			futex_wait(&w->go, 0);
		if (stop && !w->stamp)
			break;
		lat_add(&w->lat, now_ns() - w->stamp);
		burn(work_us);
		__atomic_store_n(&w->go, 0, __ATOMIC_RELEASE);
		if (__atomic_sub_fetch(&w->msg->pending, 1, __ATOMIC_SEQ_CST) == 0)
			futex_wake(&w->msg->pending, 1);
	}
	return NULL;
}

static void *msg_fn(void *arg)
{
	struct msg *m = arg;
	int i;

	while (!stop) {
		__atomic_store_n(&m->pending, m->nr_workers, __ATOMIC_SEQ_CST);
		for (i = 0; i < m->nr_workers; i++) {
			struct worker *w = &m->w[i];

			w->stamp = now_ns();
			__atomic_store_n(&w->go, 1, __ATOMIC_RELEASE);
			futex_wake(&w->go, 1);
		}
		for (;;) {
			uint32_t p = __atomic_load_n(&m->pending, __ATOMIC_SEQ_CST);

			if (!p)
				break;
			futex_wait(&m->pending, p);
		}
		m->rounds++;
		if (sleep_us)
			usleep(sleep_us);
	}
	/* release the workers */
	for (i = 0; i < m->nr_workers; i++) {
		m->w[i].stamp = 0;
		__atomic_store_n(&m->w[i].go, 1, __ATOMIC_RELEASE);
		futex_wake(&m->w[i].go, 1);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int nr_msg = 2, nr_workers = (int)sysconf(_SC_NPROCESSORS_ONLN);
	double seconds = 5;
	struct lat_set all;
	struct msg *msgs;
	uint64_t t0, t1, rounds = 0;
	int opt, i, j;

	while ((opt = getopt(argc, argv, "m:w:t:r:s:")) != -1) {
		switch (opt) {
		case 'm': nr_msg = atoi(optarg); break;
		case 'w': nr_workers = atoi(optarg); break;
		case 't': seconds = atof(optarg); break;
		case 'r': work_us = atoi(optarg); break;
		case 's': sleep_us = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: %s [-m M] [-w W] [-t s] [-r work_us] [-s sleep_us]\n",
				argv[0]);
			return 2;
		}
	}
	if (nr_msg < 1 || nr_workers < 1 || seconds <= 0) {
		fprintf(stderr, "wakelat: bad arguments\n");
		return 2;
	}

	msgs = calloc(nr_msg, sizeof(*msgs));
	if (!msgs)
		die("calloc");
	for (i = 0; i < nr_msg; i++) {
		msgs[i].nr_workers = nr_workers;
		msgs[i].w = aligned_alloc(64, sizeof(struct worker) * nr_workers);
		if (!msgs[i].w)
			die("aligned_alloc");
		memset(msgs[i].w, 0, sizeof(struct worker) * nr_workers);
		for (j = 0; j < nr_workers; j++) {
			struct worker *w = &msgs[i].w[j];

			w->msg = &msgs[i];
			lat_init(&w->lat, i * 1000 + j + 1);
			if (pthread_create(&w->tid, NULL, worker_fn, w))
				die("pthread_create");
		}
	}
	t0 = now_ns();
	for (i = 0; i < nr_msg; i++)
		if (pthread_create(&msgs[i].tid, NULL, msg_fn, &msgs[i]))
			die("pthread_create");
	usleep((useconds_t)(seconds * 1e6));
	stop = 1;
	for (i = 0; i < nr_msg; i++) {
		pthread_join(msgs[i].tid, NULL);
		rounds += msgs[i].rounds;
	}
	t1 = now_ns();
	lat_init(&all, 42);
	for (i = 0; i < nr_msg; i++) {
		for (j = 0; j < nr_workers; j++) {
			pthread_join(msgs[i].w[j].tid, NULL);
			lat_merge(&all, &msgs[i].w[j].lat);
		}
	}
	printf("{\"bench\": \"wakelat\", \"messengers\": %d, \"workers\": %d, "
	       "\"work_us\": %d, \"sleep_us\": %d, \"seconds\": %.3f, "
	       "\"rounds\": %llu, \"rounds_per_s\": %.1f, ",
	       nr_msg, nr_workers, work_us, sleep_us, (t1 - t0) / 1e9,
	       (unsigned long long)rounds, rounds / ((t1 - t0) / 1e9));
	lat_print_json(stdout, "wakeup", &all);
	printf("}\n");
	return 0;
}
