// SPDX-License-Identifier: GPL-2.0
/*
 * burn2 MS1 MS2: one thread burns CPU in burn_a until it has used MS1 ms of its own
 * CPU time there (CLOCK_THREAD_CPUTIME_ID), then in burn_b for MS2 ms: the split is
 * by CPU time, whatever else runs. As its last act it prints, on stderr, one line
 *   burn2 tid=N schedstat_ns=N rusage_us=N a_ns=N b_ns=N rounds=N
 * its whole run time from /proc/thread-self/schedstat and getrusage(RUSAGE_THREAD),
 * and the CPU time each function took: the oracle of a profile's sample count
 * (F x CPU time) and of each function's share; rounds, the work done (SPIN
 * iterations each), is the work rate a benchmark divides by wall time.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <unistd.h>
#include "cputime.h"

/*
 * The clock is read every SPIN iterations (a system call: kept to about 1% of the
 * time, so that nearly every sample's leaf is the function itself).
 */
#define SPIN	200000

static long rounds;

/* spin - the arithmetic both burners do; the result keeps it from being elided */
static inline unsigned long spin(unsigned long x)
{
	rounds++;
	for (int i = 0; i < SPIN; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	return x;
}

/* burn_a - burn @ms ms of this thread's CPU time; returns the ns it took */
__attribute__((noinline)) long long burn_a(long ms, unsigned long *x)
{
	long long t0 = cputime_ns(CLOCK_THREAD_CPUTIME_ID), t = t0;

	while (t - t0 < ms * 1000000LL) {
		*x = spin(*x);
		t = cputime_ns(CLOCK_THREAD_CPUTIME_ID);
	}
	__asm__ volatile("" ::: "memory");	/* no tail call */
	return t - t0;
}

/* burn_b - as burn_a, a second function of the same cost */
__attribute__((noinline)) long long burn_b(long ms, unsigned long *x)
{
	long long t0 = cputime_ns(CLOCK_THREAD_CPUTIME_ID), t = t0;

	while (t - t0 < ms * 1000000LL) {
		*x = spin(*x + 1);
		t = cputime_ns(CLOCK_THREAD_CPUTIME_ID);
	}
	__asm__ volatile("" ::: "memory");
	return t - t0;
}

int main(int argc, char **argv)
{
	unsigned long x = 1;
	long long a, b;
	long ms1, ms2;

	if (argc != 3 || (ms1 = atol(argv[1])) < 0 || (ms2 = atol(argv[2])) < 0) {
		fprintf(stderr, "usage: burn2 MS1 MS2\n");
		return 2;
	}
	a = burn_a(ms1, &x);
	b = burn_b(ms2, &x);
	fprintf(stderr, "burn2 tid=%d schedstat_ns=%lld rusage_us=%lld a_ns=%lld b_ns=%lld "
		"rounds=%ld x=%lu\n", gettid(), cputime_schedstat(), cputime_rusage(), a, b,
		rounds, x & 1);
	return 0;
}
