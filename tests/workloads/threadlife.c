// SPDX-License-Identifier: GPL-2.0
/*
 * threadlife LIVE_MS AFTER_MS NTHREADS: NTHREADS threads each burn about 2 ms of CPU and
 * sleep 500 us, over and over, for LIVE_MS; then they end and the main thread sleeps 1 ms
 * at a time for AFTER_MS more. A tracer started while the threads run sees threads that
 * began before it and end before it does. It prints, on stdout, first
 *   pid=P
 * then one line per thread as it starts, "tid=T tgid=P" (gettid(), getpid()): the
 * oracle of which threads make up the process.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include "cputime.h"

static double live_end;
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;

/* now_s - CLOCK_MONOTONIC in seconds */
static double now_s(void)
{
	return cputime_ns(CLOCK_MONOTONIC) / 1e9;
}

/* worker - burn and nap until the threads' time is up */
static void *worker(void *arg)
{
	volatile unsigned long x = 1;
	double t;

	(void)arg;
	pthread_mutex_lock(&out_lock);
	printf("tid=%d tgid=%d\n", gettid(), getpid());
	fflush(stdout);
	pthread_mutex_unlock(&out_lock);
	while (now_s() < live_end) {
		t = now_s() + 0.002;
		while (now_s() < t)
			x = x * 6364136223846793005UL + 1;
		usleep(500);
	}
	return NULL;
}

/* main - start the threads, join them, then nap for the rest of the time */
int main(int argc, char **argv)
{
	pthread_t th[64];
	double end;
	int i, n;

	if (argc != 4 || (n = atoi(argv[3])) < 1 || n > 64) {
		fprintf(stderr, "usage: threadlife LIVE_MS AFTER_MS NTHREADS(1-64)\n");
		return 2;
	}
	live_end = now_s() + atoi(argv[1]) / 1e3;
	printf("pid=%d\n", getpid());
	fflush(stdout);
	for (i = 0; i < n; i++)
		if (pthread_create(&th[i], NULL, worker, NULL)) {
			perror("pthread_create");
			return 1;
		}
	for (i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	end = now_s() + atoi(argv[2]) / 1e3;
	while (now_s() < end)
		usleep(1000);
	return 0;
}
