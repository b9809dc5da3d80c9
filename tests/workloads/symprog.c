// SPDX-License-Identifier: GPL-2.0
/*
 * symprog MODE MS: the workload of tests/live/syms.sh, built there -O2 and stripped,
 * its functions static, so that only a debug file can name them.
 *   burn    two threads, each burning MS ms of its own CPU time in burn_a (under
 *           outer_a) then MS ms in burn_b (under outer_b): two threads of one comm
 *           with the same stacks, for merged rows
 *   vdso    one thread calling clock_gettime(CLOCK_MONOTONIC) for MS ms of CPU time:
 *           nearly all of it in the vDSO
 *   sleep   two threads, each in MS nanosleeps of 1 ms under sleep_loop: each
 *           ends a sched_switch; two threads of one comm blocked on the same stack
 * At the end it prints on stderr "symprog a_ns=N b_ns=N" (burn: the CPU time both
 * threads took in each function) or "symprog calls=N". With SYMPROG_GATE=FIFO it
 * reads a byte from FIFO first (tools attached with -p before the work begins).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cputime.h"

/* -DSPIN_MUL=N: another build of the same program (another build ID) */
#ifndef SPIN_MUL
#define SPIN_MUL	6364136223846793005UL
#endif

static long ms_arg;
static long long a_ns[2], b_ns[2];

/* spin - arithmetic the compiler cannot drop */
static inline unsigned long spin(unsigned long x)
{
	for (int i = 0; i < 100000; i++)
		x = x * SPIN_MUL + 1442695040888963407UL;
	return x;
}

/* burn_a - @ms ms of this thread's CPU time here; the ns it took */
static __attribute__((noinline)) long long burn_a(long ms, volatile unsigned long *x)
{
	long long t0 = cputime_ns(CLOCK_THREAD_CPUTIME_ID), t = t0;

	while (t - t0 < ms * 1000000LL) {
		*x = spin(*x);
		t = cputime_ns(CLOCK_THREAD_CPUTIME_ID);
	}
	return t - t0;
}

/* burn_b - the same, a second function */
static __attribute__((noinline)) long long burn_b(long ms, volatile unsigned long *x)
{
	long long t0 = cputime_ns(CLOCK_THREAD_CPUTIME_ID), t = t0;

	while (t - t0 < ms * 1000000LL) {
		*x = spin(*x + 1);
		t = cputime_ns(CLOCK_THREAD_CPUTIME_ID);
	}
	return t - t0;
}

/* outer_a - a static caller of burn_a */
static __attribute__((noinline)) long long outer_a(long ms, volatile unsigned long *x)
{
	long long r = burn_a(ms, x);

	__asm__ volatile("" ::: "memory");	/* not a tail call */
	return r;
}

/* outer_b - a static caller of burn_b */
static __attribute__((noinline)) long long outer_b(long ms, volatile unsigned long *x)
{
	long long r = burn_b(ms, x);

	__asm__ volatile("" ::: "memory");
	return r;
}

/* burner - one thread's work: burn_a, then burn_b */
static void *burner(void *arg)
{
	long i = (long)arg;
	volatile unsigned long x = (unsigned long)i;

	a_ns[i] = outer_a(ms_arg, &x);
	b_ns[i] = outer_b(ms_arg, &x);
	return NULL;
}

/* vdso_loop - clock_gettime until @ms ms of CPU time: the calls made */
static __attribute__((noinline)) long vdso_loop(long ms)
{
	long long t0 = cputime_ns(CLOCK_THREAD_CPUTIME_ID);
	struct timespec ts;
	long calls = 0;

	do {
		for (int i = 0; i < 1000; i++, calls++)
			clock_gettime(CLOCK_MONOTONIC, &ts);
	} while (cputime_ns(CLOCK_THREAD_CPUTIME_ID) - t0 < ms * 1000000LL);
	return calls;
}

/* sleep_loop - @n nanosleeps of 1 ms */
static __attribute__((noinline)) long sleep_loop(long n)
{
	struct timespec ts = { 0, 1000000 };
	long i;

	for (i = 0; i < n; i++)
		nanosleep(&ts, NULL);
	return i;
}

/* sleeper - one thread's naps */
static void *sleeper(void *arg)
{
	sleep_loop(ms_arg);
	return arg;
}

/* main - run MODE */
int main(int argc, char **argv)
{
	pthread_t t[2];
	long i;

	if (argc != 3)
		return 2;
	ms_arg = atol(argv[2]);
	if (getenv("SYMPROG_GATE")) {
		FILE *g = fopen(getenv("SYMPROG_GATE"), "r");

		if (!g || fgetc(g) == EOF)
			return 3;
		fclose(g);
	}
	if (!strcmp(argv[1], "burn")) {
		for (i = 0; i < 2; i++)
			pthread_create(&t[i], NULL, burner, (void *)i);
		for (i = 0; i < 2; i++)
			pthread_join(t[i], NULL);
		fprintf(stderr, "symprog a_ns=%lld b_ns=%lld\n", a_ns[0] + a_ns[1],
			b_ns[0] + b_ns[1]);
	} else if (!strcmp(argv[1], "vdso")) {
		fprintf(stderr, "symprog calls=%ld\n", vdso_loop(ms_arg));
	} else if (!strcmp(argv[1], "sleep")) {
		for (i = 0; i < 2; i++)
			pthread_create(&t[i], NULL, sleeper, NULL);
		for (i = 0; i < 2; i++)
			pthread_join(t[i], NULL);
		fprintf(stderr, "symprog calls=%ld\n", 2 * ms_arg);
	} else {
		return 2;
	}
	return 0;
}
