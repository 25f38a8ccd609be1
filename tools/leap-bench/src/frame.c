// SPDX-License-Identifier: GPL-2.0
/*
 * frame: a frame-deadline workload, the desktop case (a game, a video
 * player, a compositor).
 *
 * One SCHED_OTHER thread wakes at a fixed rate (60 Hz by default) and does
 * a fixed amount of work: it spins until its own CPU time
 * (CLOCK_THREAD_CPUTIME_ID) has grown by the work time, so every kernel
 * gets the same work whatever the clock speed or the emulator does. A
 * frame is due at the next period boundary after its release; work
 * finished later is a missed frame. A late frame pushes the next release
 * to the first boundary after it finishes, like a render loop tied to
 * vsync: the boundaries skipped are missed frames too.
 *
 * usage: frame [-r hz] [-w work_ms] [-t seconds]
 * Output: one JSON object: boundaries in the run ("slots"), frames run,
 * frames done in time, the share of slots missed (percent), and the
 * distributions (us) of the response (release to work done) and of the
 * wakeup latency (release to running). Lateness is the response minus
 * the period.
 */
#define _GNU_SOURCE
#include "common.h"

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static uint64_t sink;

/* Spin until this thread has run for @ns more nanoseconds. */
static void work(uint64_t ns)
{
	uint64_t end = thread_cpu_ns() + ns;
	uint64_t x = __atomic_load_n(&sink, __ATOMIC_RELAXED);
	int i;

	do {
		for (i = 0; i < 2000; i++)
			x = x * 6364136223846793005ull + 1442695040888963407ull;
		__atomic_store_n(&sink, x, __ATOMIC_RELAXED);
	} while (thread_cpu_ns() < end);
}

static void sleep_until(uint64_t t)
{
	struct timespec ts = {
		.tv_sec = t / 1000000000ull,
		.tv_nsec = t % 1000000000ull,
	};

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

int main(int argc, char **argv)
{
	double hz = 60, work_ms = 4, seconds = 10;
	uint64_t period, work_ns, t0, end, rel, done, slot;
	uint64_t slots, frames = 0, on_time = 0;
	struct lat_set resp, wake;
	int opt;

	while ((opt = getopt(argc, argv, "r:w:t:")) != -1) {
		switch (opt) {
		case 'r':
			hz = atof(optarg);
			break;
		case 'w':
			work_ms = atof(optarg);
			break;
		case 't':
			seconds = atof(optarg);
			break;
		default:
			goto usage;
		}
	}
	if (hz <= 0 || work_ms <= 0 || seconds <= 0 || work_ms >= 1000 / hz)
		goto usage;
	period = (uint64_t)(1e9 / hz);
	work_ns = (uint64_t)(work_ms * 1e6);
	slots = (uint64_t)(seconds * hz);
	lat_init(&resp, 1);
	lat_init(&wake, 2);

	/* page in and warm up: one frame's work, untimed */
	work(work_ns);
	t0 = now_ns() + period;
	end = t0 + slots * period;
	for (slot = 0; slot < slots; ) {
		rel = t0 + slot * period;
		sleep_until(rel);
		lat_add(&wake, now_ns() - rel);
		work(work_ns);
		done = now_ns();
		lat_add(&resp, done - rel);
		frames++;
		if (done <= rel + period)
			on_time++;
		/* the next release: the first boundary after the work is done */
		slot = (done - t0) / period + 1;
		if (done >= end)
			break;
	}
	printf("{\"bench\": \"frame\", \"hz\": %.3f, \"work_ms\": %.3f, \"seconds\": %.3f, ",
	       hz, work_ms, seconds);
	printf("\"slots\": %llu, \"frames\": %llu, \"on_time\": %llu, \"missed_pct\": %.3f, ",
	       (unsigned long long)slots,
	       (unsigned long long)frames, (unsigned long long)on_time,
	       100.0 * (slots - on_time) / slots);
	lat_print_json(stdout, "response", &resp);
	printf(", ");
	lat_print_json(stdout, "wakeup", &wake);
	printf("}\n");
	return 0;
usage:
	fprintf(stderr, "usage: %s [-r hz] [-w work_ms] [-t seconds] (work_ms < 1000/hz)\n",
		argv[0]);
	return 2;
}
