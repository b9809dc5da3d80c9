// SPDX-License-Identifier: GPL-2.0
/*
 * chains [CPU_MS]: call chains of known shape in code built as distributions build
 * it (-O2 -fomit-frame-pointer: see the Makefile), for the CFI unwinder's checks.
 *   ch-burn (main):  main -> via_a -> via_b -> burn_leaf   3/4 of CPU_MS (default 1600)
 *                    main -> via_c -> burn_leaf            1/4 of it, in 10 ms turns
 *   ch-sleeper:      sleeper -> sleep_outer -> sleep_inner -> nap -> nanosleep, 20 x 50 ms
 *   ch-reader:       reader -> read_outer -> take -> read of a pipe, 10 x 100 ms
 *   ch-writer:       a byte into the pipe every 100 ms
 * ch-burn times burn_leaf's CPU under each caller (CLOCK_THREAD_CPUTIME_ID around the
 * call) and prints "chains comm=ch-burn via=main,via_a,via_b,burn_leaf cpu_us=N
 * loops=N work_us=N" and the same for via_c: work_us is its rounds at the fastest
 * turn's pace (a vCPU's waits for a host CPU count in the thread's CPU clock, not in
 * its rounds); the sleeper and the reader print their off-CPU time inside the
 * blocking calls (offwin.h: CLOCK_MONOTONIC less the thread's CPU time).
 * Without frame pointers a frame-pointer walk loses every caller of burn_leaf, nap
 * and take; call frame information (.eh_frame) has them all.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include "cputime.h"
#include "offwin.h"

/* noipa: no inlining, cloning (no .constprop names) or merging of the chain's links */
#define LINK	__attribute__((noipa))

static long cpu_ms = 1600;
static int pfd[2];
static struct offwin sleeper_off, reader_off;
static volatile long sink;
static long iters = 100000;	/* burn_leaf's loop, brought to about 10 ms a call */
static double pace;		/* the fastest turn's rounds per ns (turns of 1 ms or more) */

/* burn_leaf - the CPU the two chains share: @n rounds of arithmetic */
LINK long burn_leaf(long n)
{
	long x = sink, i;

	for (i = 0; i < n; i++)
		x = x * 6364136223846793005L + (i ^ (x >> 17));
	return x;
}

/* timed_leaf - burn_leaf's CPU time in ns, measured by its caller's caller */
static inline long long timed_leaf(long (*leaf)(long))
{
	long long t0 = cputime_ns(CLOCK_THREAD_CPUTIME_ID), ns;
	long n = iters;

	sink = leaf(n);
	ns = cputime_ns(CLOCK_THREAD_CPUTIME_ID) - t0;
	if (ns >= 1000000 && (double)n / ns > pace)
		pace = (double)n / ns;
	/* about 10 ms a call: samples cross few turns, whatever their phase */
	if (ns > 0)
		iters = iters * 10000000LL / ns > 1000 ? iters * 10000000LL / ns : 1000;
	return ns;
}

/* via_b - the second link of the deep chain (the store after the call keeps it a call) */
LINK long long via_b(void)
{
	long long ns = timed_leaf(burn_leaf);

	sink++;
	return ns;
}

/* via_a - the first link of the deep chain */
LINK long long via_a(void)
{
	long long ns = via_b();

	sink++;
	return ns;
}

/* via_c - the short chain */
LINK long long via_c(void)
{
	long long ns = timed_leaf(burn_leaf);

	sink--;
	return ns;
}

/* nap - one sleep of @ms */
LINK void nap(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* sleep_inner - 20 sleeps of 50 ms */
LINK void sleep_inner(void)
{
	struct offwin_mark m;
	int i;

	for (i = 0; i < 20; i++) {
		offwin_begin(&sleeper_off, &m);
		nap(50);
		offwin_end(&sleeper_off, &m);
	}
}

/* sleep_outer - the sleeps, one link up */
LINK void sleep_outer(void)
{
	sleep_inner();
	sink++;
}

/* take - one blocking read of the pipe */
LINK int take(void)
{
	char c;

	return read(pfd[0], &c, 1) == 1 ? 0 : -1;
}

/* read_outer - 10 reads, each waiting for the writer's byte */
LINK void read_outer(void)
{
	struct offwin_mark m;
	int i;

	for (i = 0; i < 10; i++) {
		offwin_begin(&reader_off, &m);
		if (take())
			exit(1);
		offwin_end(&reader_off, &m);
	}
}

/* sleeper - thread body */
static void *sleeper(__attribute__((unused)) void *arg)
{
	pthread_setname_np(pthread_self(), "ch-sleeper");
	sleep_outer();
	offwin_print(&sleeper_off);
	return NULL;
}

/* reader - thread body */
static void *reader(__attribute__((unused)) void *arg)
{
	pthread_setname_np(pthread_self(), "ch-reader");
	read_outer();
	offwin_print(&reader_off);
	return NULL;
}

/* writer - thread body: one byte every 100 ms */
static void *writer(__attribute__((unused)) void *arg)
{
	struct timespec ts = { 0, 100000000L };
	int i;

	pthread_setname_np(pthread_self(), "ch-writer");
	for (i = 0; i < 10; i++) {
		nanosleep(&ts, NULL);
		if (write(pfd[1], "x", 1) != 1)
			exit(1);
	}
	return NULL;
}

/* main - the blocking threads, and the CPU split 3:1 between the two chains */
int main(int argc, char **argv)
{
	long long ab = 0, c = 0, ab_loops = 0, c_loops = 0;
	pthread_t t[3];
	int i;

	if (argc > 2 || (argc == 2 && (cpu_ms = atol(argv[1])) <= 0)) {
		fprintf(stderr, "usage: chains [CPU_MS]\n");
		return 2;
	}
	pthread_setname_np(pthread_self(), "ch-burn");
	if (pipe(pfd) || pthread_create(&t[0], NULL, sleeper, NULL) ||
	    pthread_create(&t[1], NULL, reader, NULL) ||
	    pthread_create(&t[2], NULL, writer, NULL))
		return 1;
	/* three turns under via_a for one under via_c, by the CPU each took */
	while ((ab + c) / 1000000 < cpu_ms) {
		long n = iters;		/* the turn's rounds: timed_leaf sets the next */

		if (ab <= 3 * c) {
			ab += via_a();
			ab_loops += n;
		} else {
			c += via_c();
			c_loops += n;
		}
	}
	for (i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	if (pace <= 0)
		pace = 1e-9;	/* no turn of 1 ms: work_us too large to pass for one */
	fprintf(stderr, "chains comm=ch-burn via=main,via_a,via_b,burn_leaf cpu_us=%lld"
		" loops=%lld work_us=%.0f\n", ab / 1000, ab_loops, ab_loops / pace / 1000);
	fprintf(stderr, "chains comm=ch-burn via=main,via_c,burn_leaf cpu_us=%lld loops=%lld"
		" work_us=%.0f\n", c / 1000, c_loops, c_loops / pace / 1000);
	return 0;
}
