// SPDX-License-Identifier: GPL-2.0
/*
 * critpath LINKS ROUNDS: a known critical path for offcpu --chain, built as
 * distributions build (-O2, no frame pointers: see the Makefile).
 *   LINKS 2: "cp-victim" reads a pipe; "cp-worker" ROUNDS times sleeps 90 ms, spins
 *            10 ms in crunch_worker, writes the pipe.
 *   LINKS 3: "cp-victim" reads pipe 1; "cp-worker" reads pipe 2, spins 20 ms in
 *            crunch_worker, writes pipe 1; "cp-source" sleeps 60 ms, spins 10 ms in
 *            crunch_source, writes pipe 2.
 * So each of the victim's waits is the worker's sleep (or its wait for the source:
 * the source's sleep, then its spin) and then the worker's spin. Each thread prints
 * its own CLOCK_MONOTONIC totals at the end:
 *   "critpath THREAD tid=N sleep_ns=N crunch_ns=N rounds=N"  (sleep: in nanosleep,
 *   or the worker's read of pipe 2; crunch: in its crunch function), and the victim
 *   "critpath cp-victim tid=N wait_ns=N rounds=N" (its reads).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* noipa: no inlining, cloning or merging: the spins keep their names */
#define LINK	__attribute__((noipa))

static int links, rounds, p1[2], p2[2];
static volatile unsigned long spins;

/* now_ns - CLOCK_MONOTONIC in ns */
static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* spin_for - busy until @ns have passed (the clock read through the vDSO) */
static void spin_for(long long ns)
{
	long long end = now_ns() + ns;
	int i;

	while (now_ns() < end)
		for (i = 0; i < 1000; i++)
			spins++;
}

/* crunch_worker - the worker's computing: @ms of CPU by the clock */
LINK static void crunch_worker(long ms)
{
	spin_for(ms * 1000000LL);
}

/* crunch_source - the source's computing */
LINK static void crunch_source(long ms)
{
	spin_for(ms * 1000000LL);
}

/* nap - sleep @ms */
LINK static void nap(long ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L };

	clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
}

/* report - a thread's totals */
static void report(const char *name, long long sleep, long long crunch)
{
	printf("critpath %s tid=%ld sleep_ns=%lld crunch_ns=%lld rounds=%d\n", name,
	       (long)syscall(SYS_gettid), sleep, crunch, rounds);
	fflush(stdout);
}

/* source - LINKS 3: sleeps, computes, wakes the worker */
static void *source(void *arg)
{
	long long sleep = 0, crunch = 0, t;
	int r;

	(void)arg;
	prctl(PR_SET_NAME, "cp-source");
	for (r = 0; r < rounds; r++) {
		t = now_ns();
		nap(60);
		sleep += now_ns() - t;
		t = now_ns();
		crunch_source(10);
		crunch += now_ns() - t;
		if (write(p2[1], "x", 1) != 1)
			exit(1);
	}
	report("cp-source", sleep, crunch);
	return NULL;
}

/* worker - sleeps (or waits for the source), computes, wakes the victim */
static void *worker(void *arg)
{
	long long sleep = 0, crunch = 0, t;
	char c;
	int r;

	(void)arg;
	prctl(PR_SET_NAME, "cp-worker");
	for (r = 0; r < rounds; r++) {
		t = now_ns();
		if (links == 2)
			nap(90);
		else if (read(p2[0], &c, 1) != 1)
			exit(1);
		sleep += now_ns() - t;
		t = now_ns();
		crunch_worker(links == 2 ? 10 : 20);
		crunch += now_ns() - t;
		if (write(p1[1], "x", 1) != 1)
			exit(1);
	}
	report("cp-worker", sleep, crunch);
	return NULL;
}

/* main - the victim: reads until the worker's rounds are done */
int main(int argc, char **argv)
{
	pthread_t w, s;
	long long wait = 0, t;
	char c;
	int r;

	links = argc > 1 ? atoi(argv[1]) : 2;
	rounds = argc > 2 ? atoi(argv[2]) : 20;
	if ((links != 2 && links != 3) || rounds < 1 || pipe(p1) || pipe(p2)) {
		fprintf(stderr, "usage: critpath 2|3 ROUNDS\n");
		return 2;
	}
	prctl(PR_SET_NAME, "cp-victim");
	printf("critpath cp-victim tid=%ld\n", (long)syscall(SYS_gettid));
	fflush(stdout);
	if (pthread_create(&w, NULL, worker, NULL) ||
	    (links == 3 && pthread_create(&s, NULL, source, NULL)))
		return 1;
	for (r = 0; r < rounds; r++) {
		t = now_ns();
		if (read(p1[0], &c, 1) != 1)
			return 1;
		wait += now_ns() - t;
	}
	pthread_join(w, NULL);
	if (links == 3)
		pthread_join(s, NULL);
	printf("critpath cp-victim wait_ns=%lld rounds=%d\n", wait, rounds);
	return 0;
}
