// SPDX-License-Identifier: GPL-2.0
/*
 * computesleep MS_CPU MS_SLEEP: compute in compute_here until the thread has used
 * MS_CPU ms of CPU time (CLOCK_THREAD_CPUTIME_ID), then sleep MS_SLEEP ms in
 * sleep_here, through nap (nanosleep): Debian's libc has no frame pointers, so a
 * frame-pointer walk from inside nanosleep skips its caller (nap), and sleep_here is
 * the one a stack shows. The thread's own account, on stderr as its last act:
 *   computesleep tid=N elapsed_us=N slept_us=N cpu_us=N schedstat_ns=N
 * elapsed from main's start to this line and slept across the nanosleep, both on
 * CLOCK_MONOTONIC; cpu_us the CPU time compute_here took. The oracle of a
 * wall-clock profile: the thread's stacks add up to its life, the sleep's hold
 * slept_us.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <unistd.h>
#include "cputime.h"

/* compute_here - burn @ms ms of this thread's CPU time; returns the ns it took */
__attribute__((noinline)) long long compute_here(long ms, unsigned long *x)
{
	long long t0 = cputime_ns(CLOCK_THREAD_CPUTIME_ID), t = t0;

	while (t - t0 < ms * 1000000LL) {
		for (int i = 0; i < 200000; i++)
			*x = *x * 6364136223846793005UL + 1442695040888963407UL;
		t = cputime_ns(CLOCK_THREAD_CPUTIME_ID);
	}
	__asm__ volatile("" ::: "memory");	/* no tail call */
	return t - t0;
}

/* nap - nanosleep the rest of @ts; the frame a walk from inside libc loses */
__attribute__((noinline)) void nap(struct timespec *ts)
{
	while (nanosleep(ts, ts))
		;
	__asm__ volatile("" ::: "memory");
}

/* sleep_here - sleep @ms ms; returns the monotonic ns it took */
__attribute__((noinline)) long long sleep_here(long ms)
{
	struct timespec ts = { ms / 1000, ms % 1000 * 1000000L };
	long long t0 = cputime_ns(CLOCK_MONOTONIC);

	nap(&ts);
	__asm__ volatile("" ::: "memory");
	return cputime_ns(CLOCK_MONOTONIC) - t0;
}

int main(int argc, char **argv)
{
	long long start = cputime_ns(CLOCK_MONOTONIC), cpu, slept;
	unsigned long x = 1;
	long ms_cpu, ms_sleep;

	if (argc != 3 || (ms_cpu = atol(argv[1])) < 0 || (ms_sleep = atol(argv[2])) < 0) {
		fprintf(stderr, "usage: computesleep MS_CPU MS_SLEEP\n");
		return 2;
	}
	cpu = compute_here(ms_cpu, &x);
	slept = sleep_here(ms_sleep);
	fprintf(stderr, "computesleep tid=%d elapsed_us=%lld slept_us=%lld cpu_us=%lld "
		"schedstat_ns=%lld x=%lu\n", gettid(), (cputime_ns(CLOCK_MONOTONIC) - start) / 1000,
		slept / 1000, cpu / 1000, cputime_schedstat(), x & 1);
	return 0;
}
