// SPDX-License-Identifier: GPL-2.0
/*
 * napclock OUT ROUNDS MS...: ROUNDS times, sleep each MS ms in turn, one
 * clock_nanosleep(CLOCK_MONOTONIC, relative) system call each, and time every call
 * with CLOCK_MONOTONIC on either side of it. At the end (not between the naps) write
 * each call's own duration to OUT, one line a call in the order made:
 *   nap MS NS
 * The oracle of a function latency tool on the kernel's nanosleep (do_nanosleep,
 * hrtimer_nanosleep): one call of each per nap, each a little shorter than the
 * interval the workload measured around its system call.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/*
 * the C library's clock_nanosleep, bound when the program loads: a first call through
 * the PLT would bind it lazily inside the first interval timed (2 ms under QEMU's TCG)
 */
static int (*volatile nap)(clockid_t, int, const struct timespec *, struct timespec *) =
	clock_nanosleep;

/* now_ns - CLOCK_MONOTONIC in ns */
static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* main - nap, time, then report */
int main(int argc, char **argv)
{
	long rounds, n, i, k;
	long long *ns;
	int *ms;
	FILE *f;

	if (argc < 4 || (rounds = atol(argv[2])) < 1) {
		fprintf(stderr, "usage: napclock OUT ROUNDS MS...\n");
		return 2;
	}
	n = rounds * (argc - 3);
	ns = calloc(n, sizeof(*ns));
	ms = calloc(n, sizeof(*ms));
	if (!ns || !ms)
		return 1;
	/*
	 * QEMU's TCG translates code when it first runs: run this path once, untimed,
	 * with a nap the kernel refuses (EINVAL) before it looks at the timer, so that
	 * the first interval timed holds no first pass of the workload's own code
	 */
	{
		struct timespec bad = { 0, -1 };

		nap(CLOCK_MONOTONIC, 0, &bad, NULL);
		now_ns();
	}
	for (i = 0; i < n; i++) {
		struct timespec ts;
		long long t0;

		ms[i] = atoi(argv[3 + i % (argc - 3)]);
		ts.tv_sec = ms[i] / 1000;
		ts.tv_nsec = (ms[i] % 1000) * 1000000L;
		t0 = now_ns();
		if (nap(CLOCK_MONOTONIC, 0, &ts, NULL))
			return 1;
		ns[i] = now_ns() - t0;
	}
	f = fopen(argv[1], "w");
	if (!f)
		return 1;
	for (k = 0; k < n; k++)
		fprintf(f, "nap %d %lld\n", ms[k], ns[k]);
	return fclose(f) ? 1 : 0;
}
