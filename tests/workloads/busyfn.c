// SPDX-License-Identifier: GPL-2.0
/*
 * busyfn N1 US1 N2 US2 [R DEPTH]: call busy_wait(US1) N1 times, then busy_wait(US2)
 * N2 times; each call spins on the monotonic clock for that many microseconds and
 * returns it. Then R times recurse(DEPTH): DEPTH nested calls of itself, the
 * innermost spinning 100 us. Known answers for function latency: exact counts, and
 * latencies of at least the requested time. With BUSYFN_TIMES=1 in the environment it
 * prints each call's own wall-clock time on stderr, "call US TOOK_US": the host's
 * stalls lengthen those as they lengthen what a tracer measures. With BUSYFN_MORE=N3,US3
 * N3 more calls of busy_wait(US3) follow the N1 + N2 (timed as they are): a third
 * group, e.g. a few calls far longer than the others, which no stall of a shorter one
 * outruns.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* now_us - monotonic microseconds */
static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* busy_wait - spin for @us microseconds; returns @us */
__attribute__((noinline)) long busy_wait(long us)
{
	double end = now_us() + us;

	while (now_us() < end)
		;
	return us;
}

/* recurse - @depth nested calls, the innermost one spinning 100 us */
__attribute__((noinline)) long recurse(int depth)
{
	long r = depth > 1 ? recurse(depth - 1) : busy_wait(100);

	__asm__ volatile("" ::: "memory");	/* no tail call: each level returns */
	return r + 1;
}

int main(int argc, char **argv)
{
	long n1, us1, n2, us2, n3 = 0, us3 = 0, r = 0, depth = 0, i, sum = 0;
	const char *more = getenv("BUSYFN_MORE");
	int times;

	if (argc != 5 && argc != 7) {
		fprintf(stderr, "usage: busyfn N1 US1 N2 US2 [R DEPTH]\n");
		return 2;
	}
	n1 = atol(argv[1]);
	us1 = atol(argv[2]);
	n2 = atol(argv[3]);
	us2 = atol(argv[4]);
	if (argc == 7) {
		r = atol(argv[5]);
		depth = atol(argv[6]);
	}
	times = getenv("BUSYFN_TIMES") != NULL;
	if (more && sscanf(more, "%ld,%ld", &n3, &us3) != 2) {
		fprintf(stderr, "busyfn: BUSYFN_MORE=N3,US3\n");
		return 2;
	}
	for (i = 0; i < n1 + n2 + n3; i++) {
		long us = i < n1 ? us1 : i < n1 + n2 ? us2 : us3;
		double t0 = now_us();

		sum += busy_wait(us);
		if (times)
			fprintf(stderr, "call %ld %.1f\n", us, now_us() - t0);
	}
	for (i = 0; i < r; i++)
		sum += recurse((int)depth);
	return sum < 0;
}
