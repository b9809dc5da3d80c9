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
 *   "critpath cp-victim wait_ns=N rounds=N nap_in_wait_ns=N" (its reads; and the time
 *   the sleeping thread's naps overlap them, each read up to the write that ended it:
 *   with 3 links, the source's naps inside the worker's reads inside the victim's; and
 *   the worker's sleeps or reads inside the victim's reads: worker_blocked_in_wait_ns).
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

#define MAX_ROUNDS	1000

static int links, rounds, p1[2], p2[2];
static volatile unsigned long spins;
/* each round's [start, end) of the victim's read, the worker's sleep or read, the source's
   nap; the times the worker and the source wrote (woke their reader) */
static long long vwait[MAX_ROUNDS][2], wsleep[MAX_ROUNDS][2], snap[MAX_ROUNDS][2];
static long long wwrite[MAX_ROUNDS], swrite[MAX_ROUNDS];

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
		snap[r][0] = t = now_ns();
		nap(60);
		snap[r][1] = now_ns();
		sleep += snap[r][1] - t;
		t = now_ns();
		crunch_source(10);
		swrite[r] = now_ns();
		crunch += swrite[r] - t;
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
		wsleep[r][0] = t = now_ns();
		if (links == 2)
			nap(90);
		else if (read(p2[0], &c, 1) != 1)
			exit(1);
		wsleep[r][1] = now_ns();
		sleep += wsleep[r][1] - t;
		t = now_ns();
		crunch_worker(links == 2 ? 10 : 20);
		wwrite[r] = now_ns();
		crunch += wwrite[r] - t;
		if (write(p1[1], "x", 1) != 1)
			exit(1);
	}
	report("cp-worker", sleep, crunch);
	return NULL;
}

/* overlap - the time [a0, a1) and [b0, b1) share, and the shared span in @x */
static long long overlap(long long a0, long long a1, long long b0, long long b1,
			 long long x[2])
{
	x[0] = a0 > b0 ? a0 : b0;
	x[1] = a1 < b1 ? a1 : b1;
	return x[1] > x[0] ? x[1] - x[0] : 0;
}

/*
 * naps_in_waits - the sleeping thread's naps inside the victim's waits (3 links: inside
 * the worker's reads too), by the threads' own clocks: a read waits from its start to
 * the write that ends it (then the reader is woken: its wait for a CPU is its own); a
 * nap to its end (the sleeper's wait for a CPU after the timer in it)
 */
static long long naps_in_waits(long long *blocked)
{
	long long sum = 0, x[2], y[2];
	int v, w, n;

	*blocked = 0;
	for (v = 0; v < rounds; v++)
		for (w = 0; w < rounds; w++) {
			if (!overlap(vwait[v][0], wwrite[v], wsleep[w][0],
				     links == 2 ? wsleep[w][1] : swrite[w], x))
				continue;
			*blocked += x[1] - x[0];
			if (links == 2) {
				sum += x[1] - x[0];
				continue;
			}
			for (n = 0; n < rounds; n++)
				sum += overlap(x[0], x[1], snap[n][0], snap[n][1], y);
		}
	return sum;
}

/* main - the victim: reads until the worker's rounds are done */
int main(int argc, char **argv)
{
	pthread_t w, s;
	long long wait = 0, t, naps, blocked;
	char c;
	int r;

	links = argc > 1 ? atoi(argv[1]) : 2;
	rounds = argc > 2 ? atoi(argv[2]) : 20;
	if ((links != 2 && links != 3) || rounds < 1 || rounds > MAX_ROUNDS || pipe(p1) ||
	    pipe(p2)) {
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
		vwait[r][0] = t = now_ns();
		if (read(p1[0], &c, 1) != 1)
			return 1;
		vwait[r][1] = now_ns();
		wait += vwait[r][1] - t;
	}
	pthread_join(w, NULL);
	if (links == 3)
		pthread_join(s, NULL);
	naps = naps_in_waits(&blocked);
	printf("critpath cp-victim wait_ns=%lld rounds=%d nap_in_wait_ns=%lld "
	       "worker_blocked_in_wait_ns=%lld\n", wait, rounds, naps, blocked);
	return 0;
}
