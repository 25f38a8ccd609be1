/* SPDX-License-Identifier: GPL-2.0 */
/*
 * leap-bench: helpers shared by the C benchmarks (wakelat, pingpong).
 *
 * Latency samples are kept in a fixed-size reservoir (all of them up to
 * RESERVOIR_MAX, a uniform random subset beyond), sorted at the end, and
 * printed as one JSON object: count, percentiles and 1001 quantiles
 * (q0, q0.001, .., q1) that the report uses for its CDF plots.
 */
#ifndef LEAP_BENCH_COMMON_H
#define LEAP_BENCH_COMMON_H

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define RESERVOIR_MAX	200000
#define NR_QUANTILES	1001

static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static inline long futex_wait(uint32_t *uaddr, uint32_t val)
{
	return syscall(SYS_futex, uaddr, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
}

static inline long futex_wake(uint32_t *uaddr, int nr)
{
	return syscall(SYS_futex, uaddr, FUTEX_WAKE_PRIVATE, nr, NULL, NULL, 0);
}

static inline void die(const char *msg)
{
	fprintf(stderr, "error: %s: %s\n", msg, strerror(errno));
	exit(1);
}

struct lat_set {
	uint64_t *v;		/* reservoir, nanoseconds */
	size_t n;		/* samples held */
	uint64_t seen;		/* samples offered */
	uint64_t max;		/* exact maximum over all samples */
	uint64_t rng;
};

static inline void lat_init(struct lat_set *s, uint64_t seed)
{
	s->v = malloc(sizeof(*s->v) * RESERVOIR_MAX);
	if (!s->v)
		die("malloc");
	s->n = 0;
	s->seen = 0;
	s->max = 0;
	s->rng = seed * 2654435761u + 1;
}

static inline uint64_t lat_rand(struct lat_set *s)
{
	/* xorshift64 */
	s->rng ^= s->rng << 13;
	s->rng ^= s->rng >> 7;
	s->rng ^= s->rng << 17;
	return s->rng;
}

static inline void lat_add(struct lat_set *s, uint64_t ns)
{
	s->seen++;
	if (ns > s->max)
		s->max = ns;
	if (s->n < RESERVOIR_MAX) {
		s->v[s->n++] = ns;
	} else {
		uint64_t j = lat_rand(s) % s->seen;

		if (j < RESERVOIR_MAX)
			s->v[j] = ns;
	}
}

/* Merge @b into @a (reservoir-style when full). */
static inline void lat_merge(struct lat_set *a, const struct lat_set *b)
{
	size_t i;
	uint64_t seen = a->seen + b->seen;

	for (i = 0; i < b->n; i++)
		lat_add(a, b->v[i]);
	a->seen = seen;
	if (b->max > a->max)
		a->max = b->max;
}

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a < b ? -1 : a > b;
}

static inline double lat_pct(const struct lat_set *s, double p)
{
	size_t i;

	if (!s->n)
		return 0;
	i = (size_t)(p / 100.0 * (s->n - 1) + 0.5);
	return s->v[i] / 1000.0;
}

/* Print `"name": {...}` with values in microseconds; sorts @s. */
static inline void lat_print_json(FILE *f, const char *name, struct lat_set *s)
{
	int i;

	qsort(s->v, s->n, sizeof(*s->v), cmp_u64);
	fprintf(f, "\"%s\": {\"unit\": \"us\", \"count\": %llu, \"held\": %zu, ",
		name, (unsigned long long)s->seen, s->n);
	fprintf(f, "\"p50\": %.3f, \"p90\": %.3f, \"p99\": %.3f, \"p99.9\": %.3f, ",
		lat_pct(s, 50), lat_pct(s, 90), lat_pct(s, 99), lat_pct(s, 99.9));
	fprintf(f, "\"max\": %.3f, \"quantiles\": [", s->max / 1000.0);
	for (i = 0; i < NR_QUANTILES; i++)
		fprintf(f, "%s%.3f", i ? ", " : "",
			lat_pct(s, 100.0 * i / (NR_QUANTILES - 1)));
	fprintf(f, "]}");
}

#endif /* LEAP_BENCH_COMMON_H */
