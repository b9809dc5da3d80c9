// SPDX-License-Identifier: GPL-2.0
/*
 * phases OUT P1_MS GAP_MS P2_MS: run-queue waits that change over time, for the heat
 * map's test. Phase 1 (P1_MS): the main thread sleeps 1 ms at a time on a quiet
 * machine, so each wakeup waits little. Gap (GAP_MS): one sleep, nothing runs. Phase
 * 2 (P2_MS): two spinners pinned to each CPU beside the same sleeper: the spinners
 * preempt each other and wait about a time slice each time. At its end each spinner
 * sleeps; once all do, main reads every thread's count. Before phase 1 and after
 * those reads main sleeps QUIET_MS: nothing of the process runs.
 *
 * OUT gets the times in CLOCK_MONOTONIC ns (the trace clock), then each thread's run
 * count and run-queue wait from its /proc/self/task/TID/schedstat (pcount:
 * switch-ins; run_delay: ns waited): the main thread at T0, T2, T3 and T5; the
 * spinners summed, at T5, asleep.
 *   t T0 T1 T2 T3 T4 T5 T6
 *   main PC0 W0 PC2 W2 PC3 W3 PC5 W5
 *   spin PC W
 * T0 .. T1 quiet, T1 .. T2 phase 1, T2 .. T3 gap, T3 .. T4 phase 2, T4 .. T5 spinners
 * falling asleep, T5 .. T6 quiet, then the spinners exit and main writes OUT. A column
 * boundary in each quiet time and in the gap cuts the trace where the counts were
 * read: every switch-in between two reads is in the counts, none from before the
 * first (fork, exec) or after the last (the exits). (When the spinners read their
 * own counts as they ended, a switch-in after a read was in the trace and not in the
 * counts: the other spinner on the CPU, main woken by the exit it joined, a kernel
 * thread woken by the exit; +0 .. +6 in all.)
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define NSPIN	4
#define QUIET_MS	150	/* wider than a column of the test's maps (<= 100 ms) */

static uint64_t spin_end;	/* T4: the spinners stop */
static sem_t go[NSPIN];		/* main lets spinner i exit */
static int spin_tid[NSPIN];

/* now - CLOCK_MONOTONIC in ns */
static uint64_t now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* readstat - thread @tid's run-queue wait (ns) and switch-ins from its schedstat */
static void readstat(int tid, unsigned long long *pc, unsigned long long *w)
{
	unsigned long long run = 0;
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/schedstat", tid);
	f = fopen(path, "r");
	*pc = *w = 0;
	if (!f || fscanf(f, "%llu %llu %llu", &run, w, pc) != 3)
		fprintf(stderr, "phases: %s unreadable\n", path);
	if (f)
		fclose(f);
}

/* asleep - whether thread @tid of this process sleeps (state S: a spinner in sem_wait) */
static int asleep(int tid)
{
	char path[64], buf[512], *p;
	size_t n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
	f = fopen(path, "r");
	if (f) {
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	}
	buf[n] = 0;
	p = strrchr(buf, ')');
	return tid > 0 && p && p[1] == ' ' && p[2] == 'S';
}

/* nap - sleep @ms milliseconds */
static void nap(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

/* spin - burn CPU on CPU (arg / 2) until T4, then sleep until main lets it exit */
static void *spin(void *arg)
{
	long i = (long)arg;
	volatile unsigned long x = 0;
	cpu_set_t set;

	__atomic_store_n(&spin_tid[i], gettid(), __ATOMIC_RELEASE);
	CPU_ZERO(&set);
	CPU_SET(i / 2, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	while (now() < spin_end)
		for (int k = 0; k < 20000; k++)
			x++;
	while (sem_wait(&go[i]))
		;
	return NULL;
}

/* main - the phases, then what each thread saw, in OUT */
int main(int argc, char **argv)
{
	unsigned long long pc[4], w[4], spc = 0, sw = 0, p, q;
	uint64_t t[7];
	pthread_t th[NSPIN];
	long i, n, ncpu = sysconf(_SC_NPROCESSORS_ONLN) >= 2 ? 2 : 1;
	FILE *out;

	if (argc != 5) {
		fprintf(stderr, "usage: phases OUT P1_MS GAP_MS P2_MS\n");
		return 2;
	}
	t[0] = now();
	readstat(gettid(), &pc[0], &w[0]);
	nap(QUIET_MS);
	t[1] = now();
	for (t[2] = t[1] + atol(argv[2]) * 1000000ull; now() < t[2];)
		nap(1);
	t[2] = now();
	readstat(gettid(), &pc[1], &w[1]);
	nap(atol(argv[3]));
	readstat(gettid(), &pc[2], &w[2]);
	t[3] = now();
	t[4] = spin_end = t[3] + atol(argv[4]) * 1000000ull;
	for (i = 0; i < 2 * ncpu; i++) {
		sem_init(&go[i], 0, 0);
		pthread_create(&th[i], NULL, spin, (void *)i);
	}
	while (now() < t[4])
		nap(1);
	/* every spinner asleep in sem_wait, twice 2 ms apart: off its CPU for good */
	for (n = 0; n < 2;) {
		nap(2);
		for (i = 0; i < 2 * ncpu; i++)
			if (!asleep(__atomic_load_n(&spin_tid[i], __ATOMIC_ACQUIRE)))
				break;
		n = i < 2 * ncpu ? 0 : n + 1;
	}
	for (i = 0; i < 2 * ncpu; i++) {
		readstat(spin_tid[i], &p, &q);
		spc += p;
		sw += q;
	}
	readstat(gettid(), &pc[3], &w[3]);
	t[5] = now();
	nap(QUIET_MS);
	t[6] = now();
	for (i = 0; i < 2 * ncpu; i++) {
		sem_post(&go[i]);
		pthread_join(th[i], NULL);
	}
	out = fopen(argv[1], "w");
	if (!out)
		return 1;
	fprintf(out, "t");
	for (i = 0; i < 7; i++)
		fprintf(out, " %llu", (unsigned long long)t[i]);
	fprintf(out, "\nmain");
	for (i = 0; i < 4; i++)
		fprintf(out, " %llu %llu", pc[i], w[i]);
	fprintf(out, "\nspin %llu %llu\n", spc, sw);
	return fclose(out) ? 1 : 0;
}
