// SPDX-License-Identifier: GPL-2.0
/*
 * pingpong: thread ping-pong in the spirit of cpipe.
 *
 * P pairs of threads; in each pair the pinger sends a message (a 64-byte
 * record carrying a timestamp) to the ponger, which sends it straight
 * back; the pinger records the round-trip time and sends the next one.
 * The message goes through
 *   pipe:  a pair of pipes (write/read syscalls, the kernel's wakeups), or
 *   futex: a pair of shared-memory single-producer rings; a reader that
 *          finds its ring empty sleeps on a futex and the writer wakes it
 *          (no spinning, so every message is a sleep and a wakeup).
 * Threads are not pinned: placement is the scheduler's.
 *
 * usage: pingpong [-m pipe|futex] [-p pairs] [-l loops per pair] [-t seconds]
 * Stops after `loops` round trips per pair or `seconds`, whichever is
 * first. Output: one JSON object: round trips, messages per second (both
 * directions, all pairs) and the round-trip latency distribution (us).
 * The rate's time span runs from the first exchange's send to the last
 * exchange's reply over all pairs: the threads start together from a
 * barrier, so neither their creation nor the main thread's polling for
 * the end is timed.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdalign.h>
#include "common.h"

#define RING_SLOTS	64
#define MSG_SIZE	64

struct ring {
	alignas(64) uint32_t head;	/* futex word: messages written */
	uint32_t waiting;		/* the reader sleeps on head */
	char pad1[56];
	uint32_t tail;			/* messages read */
	char pad2[60];
	char slot[RING_SLOTS][MSG_SIZE];
};

struct pair {
	alignas(64) int use_pipe;
	int ab[2], ba[2];		/* pipes: pinger->ponger, ponger->pinger */
	struct ring *to_b, *to_a;
	uint64_t loops, done;
	uint64_t t_first, t_last;	/* first send, last reply (ns) */
	struct lat_set lat;
	pthread_t ta, tb;
};

static int stop;
static pthread_barrier_t start;

static void ring_send(struct ring *r, const void *msg)
{
	uint32_t h = __atomic_load_n(&r->head, __ATOMIC_RELAXED);

	/* ping-pong keeps at most one message in flight: never full */
	memcpy(r->slot[h % RING_SLOTS], msg, MSG_SIZE);
	__atomic_store_n(&r->head, h + 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&r->waiting, __ATOMIC_SEQ_CST))
		futex_wake(&r->head, 1);
}

static void ring_recv(struct ring *r, void *msg)
{
	uint32_t t = r->tail, h;

	for (;;) {
		h = __atomic_load_n(&r->head, __ATOMIC_ACQUIRE);
		if (h != t)
			break;
		__atomic_store_n(&r->waiting, 1, __ATOMIC_SEQ_CST);
		h = __atomic_load_n(&r->head, __ATOMIC_SEQ_CST);
		if (h == t)
			futex_wait(&r->head, h);
		__atomic_store_n(&r->waiting, 0, __ATOMIC_SEQ_CST);
	}
	memcpy(msg, r->slot[t % RING_SLOTS], MSG_SIZE);
	r->tail = t + 1;
}

static void xfer_send(struct pair *p, int to_b, const char *msg)
{
	if (p->use_pipe) {
		if (write(to_b ? p->ab[1] : p->ba[1], msg, MSG_SIZE) != MSG_SIZE)
			die("write");
	} else {
		ring_send(to_b ? p->to_b : p->to_a, msg);
	}
}

static void xfer_recv(struct pair *p, int at_b, char *msg)
{
	if (p->use_pipe) {
		size_t got = 0;

		while (got < MSG_SIZE) {
			ssize_t n = read(at_b ? p->ab[0] : p->ba[0], msg + got,
					 MSG_SIZE - got);
			if (n <= 0)
				die("read");
			got += n;
		}
	} else {
		ring_recv(at_b ? p->to_b : p->to_a, msg);
	}
}

static void *pinger(void *arg)
{
	struct pair *p = arg;
	char msg[MSG_SIZE] = { 0 };
	uint64_t t, t1 = 0, i;

	pthread_barrier_wait(&start);
	p->t_first = now_ns();
	for (i = 0; i < p->loops && !__atomic_load_n(&stop, __ATOMIC_RELAXED); i++) {
		t = now_ns();
		memcpy(msg, &t, sizeof(t));
		msg[8] = 0;
		xfer_send(p, 1, msg);
		xfer_recv(p, 0, msg);
		t1 = now_ns();
		lat_add(&p->lat, t1 - t);
	}
	p->t_last = i ? t1 : p->t_first;
	__atomic_store_n(&p->done, i, __ATOMIC_RELEASE);
	msg[8] = 1;			/* stop the ponger */
	xfer_send(p, 1, msg);
	return NULL;
}

static void *ponger(void *arg)
{
	struct pair *p = arg;
	char msg[MSG_SIZE];

	pthread_barrier_wait(&start);
	for (;;) {
		xfer_recv(p, 1, msg);
		if (msg[8])
			break;
		xfer_send(p, 0, msg);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int nr_pairs = 1, use_pipe = 1, opt, i;
	uint64_t loops = 10000, total = 0, t0, first = UINT64_MAX, last = 0;
	double seconds = 10, el;
	struct lat_set all;
	struct pair *pairs;

	while ((opt = getopt(argc, argv, "m:p:l:t:")) != -1) {
		switch (opt) {
		case 'm':
			if (!strcmp(optarg, "pipe"))
				use_pipe = 1;
			else if (!strcmp(optarg, "futex"))
				use_pipe = 0;
			else
				goto usage;
			break;
		case 'p':
			nr_pairs = atoi(optarg);
			break;
		case 'l':
			loops = strtoull(optarg, NULL, 0);
			break;
		case 't':
			seconds = atof(optarg);
			break;
		default:
			goto usage;
		}
	}
	if (nr_pairs < 1 || !loops || seconds <= 0)
		goto usage;

	pairs = aligned_alloc(64, sizeof(*pairs) * nr_pairs);
	if (!pairs)
		die("aligned_alloc");
	memset(pairs, 0, sizeof(*pairs) * nr_pairs);
	for (i = 0; i < nr_pairs; i++) {
		struct pair *p = &pairs[i];

		p->use_pipe = use_pipe;
		p->loops = loops;
		lat_init(&p->lat, i + 1);
		if (use_pipe) {
			if (pipe(p->ab) || pipe(p->ba))
				die("pipe");
		} else {
			p->to_a = aligned_alloc(64, sizeof(struct ring));
			p->to_b = aligned_alloc(64, sizeof(struct ring));
			if (!p->to_a || !p->to_b)
				die("aligned_alloc");
			memset(p->to_a, 0, sizeof(struct ring));
			memset(p->to_b, 0, sizeof(struct ring));
		}
	}
	if (pthread_barrier_init(&start, NULL, 2 * nr_pairs + 1))
		die("pthread_barrier_init");
	for (i = 0; i < nr_pairs; i++) {
		if (pthread_create(&pairs[i].tb, NULL, ponger, &pairs[i]) ||
		    pthread_create(&pairs[i].ta, NULL, pinger, &pairs[i]))
			die("pthread_create");
	}
	pthread_barrier_wait(&start);
	t0 = now_ns();
	/* wait for the loops to finish, or the time limit */
	for (;;) {
		int running = 0;

		usleep(10000);
		for (i = 0; i < nr_pairs; i++)
			running += !__atomic_load_n(&pairs[i].done, __ATOMIC_RELAXED);
		if (!running || (now_ns() - t0) / 1e9 >= seconds)
			break;
	}
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	lat_init(&all, 7);
	for (i = 0; i < nr_pairs; i++) {
		pthread_join(pairs[i].ta, NULL);
		pthread_join(pairs[i].tb, NULL);
		total += pairs[i].done;
		lat_merge(&all, &pairs[i].lat);
		if (pairs[i].t_first < first)
			first = pairs[i].t_first;
		if (pairs[i].t_last > last)
			last = pairs[i].t_last;
	}
	el = last > first ? (last - first) / 1e9 : 1 / 1e9;
	printf("{\"bench\": \"pingpong\", \"mode\": \"%s\", \"pairs\": %d, ",
	       use_pipe ? "pipe" : "futex", nr_pairs);
	printf("\"seconds\": %.3f, \"round_trips\": %llu, \"msgs_per_s\": %.1f, ", el,
	       (unsigned long long)total, 2.0 * total / el);
	lat_print_json(stdout, "rtt", &all);
	printf("}\n");
	return 0;
usage:
	fprintf(stderr, "usage: %s [-m pipe|futex] [-p pairs] [-l loops] [-t seconds]\n",
		argv[0]);
	return 2;
}
