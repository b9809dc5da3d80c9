// SPDX-License-Identifier: GPL-2.0
/*
 * phases OUT P1_MS GAP_MS P2_MS: run-queue waits that change over time, for the heat
 * map's test. Phase 1 (P1_MS): the main thread sleeps 1 ms at a time on a quiet
 * machine, so each wakeup waits little. Gap (GAP_MS): one sleep, nothing runs. Phase
 * 2 (P2_MS): two spinners pinned to each CPU beside the same sleeper: the spinners
 * preempt each other and wait about a time slice each time.
 *
 * OUT gets the phase boundaries in CLOCK_MONOTONIC ns (the trace clock), then each
 * thread's run count and run-queue wait from its own /proc/self/task/TID/schedstat
 * (pcount: switch-ins; run_delay: ns waited): the main thread at the start, at the
 * end of phase 1, after the gap and at the end; the spinners summed, at their end.
 *   t T0 T1 T2 T3
 *   main PC0 W0 PC1 W1 PC2 W2 PC3 W3
 *   spin PC W
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define NSPIN	4

static uint64_t t3;
static unsigned long long spin_pc[NSPIN], spin_w[NSPIN];

/* now - CLOCK_MONOTONIC in ns */
static uint64_t now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* readstat - this thread's run-queue wait (ns) and switch-ins from its schedstat */
static void readstat(unsigned long long *pc, unsigned long long *w)
{
	unsigned long long run = 0;
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/schedstat", gettid());
	f = fopen(path, "r");
	*pc = *w = 0;
	if (!f || fscanf(f, "%llu %llu %llu", &run, w, pc) != 3)
		fprintf(stderr, "phases: %s unreadable\n", path);
	if (f)
		fclose(f);
}

/* nap - sleep @ms milliseconds */
static void nap(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

/* spin - burn CPU on CPU (arg / 2) until T3, then read the thread's schedstat */
static void *spin(void *arg)
{
	long i = (long)arg;
	volatile unsigned long x = 0;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(i / 2, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	while (now() < t3)
		for (int k = 0; k < 20000; k++)
			x++;
	readstat(&spin_pc[i], &spin_w[i]);
	return NULL;
}

/* main - the phases, then what each thread saw */
int main(int argc, char **argv)
{
	unsigned long long pc[4], w[4], spc = 0, sw = 0;
	uint64_t t0, t1, t2, end;
	pthread_t th[NSPIN];
	long i, ncpu = sysconf(_SC_NPROCESSORS_ONLN) >= 2 ? 2 : 1;
	FILE *out;

	if (argc != 5) {
		fprintf(stderr, "usage: phases OUT P1_MS GAP_MS P2_MS\n");
		return 2;
	}
	t0 = now();
	readstat(&pc[0], &w[0]);
	for (end = t0 + atol(argv[2]) * 1000000ull; now() < end;)
		nap(1);
	t1 = now();
	readstat(&pc[1], &w[1]);
	nap(atol(argv[3]));
	readstat(&pc[2], &w[2]);
	t2 = now();
	t3 = t2 + atol(argv[4]) * 1000000ull;
	for (i = 0; i < 2 * ncpu; i++)
		pthread_create(&th[i], NULL, spin, (void *)i);
	while (now() < t3)
		nap(1);
	for (i = 0; i < 2 * ncpu; i++) {
		pthread_join(th[i], NULL);
		spc += spin_pc[i];
		sw += spin_w[i];
	}
	readstat(&pc[3], &w[3]);
	out = fopen(argv[1], "w");
	if (!out)
		return 1;
	fprintf(out, "t %llu %llu %llu %llu\nmain", (unsigned long long)t0,
		(unsigned long long)t1, (unsigned long long)t2, (unsigned long long)t3);
	for (i = 0; i < 4; i++)
		fprintf(out, " %llu %llu", pc[i], w[i]);
	fprintf(out, "\nspin %llu %llu\n", spc, sw);
	return fclose(out) ? 1 : 0;
}
