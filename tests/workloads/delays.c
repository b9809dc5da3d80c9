// SPDX-License-Identifier: GPL-2.0
/*
 * delays CPU N MS...: scheduling delays of known length for a thread named "delayed".
 * Two SCHED_FIFO threads pinned to CPU: "delayed" (priority 10) and "hog" (20).
 * "delayed" naps 1 ms N times; after nap i (counting from 0) with i < the number
 * of MS values given, it hands the hog MS[i] through a pipe. The hog, higher in
 * priority, preempts it at once and spins for that many ms, so "delayed" waits
 * on the run queue MS[i] ms. Its other delays are wakeups on a free CPU (a few us).
 * Needs root (SCHED_FIFO); exits 3 when it cannot get it.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

static int cpu, pipefd[2];

/* now - monotonic seconds */
static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* fifo - pin the calling thread to the CPU at SCHED_FIFO priority PRIO */
static int fifo(int prio)
{
	struct sched_param sp = { .sched_priority = prio };
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set))
		return -1;
	return pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp) ? -1 : 0;
}

/* hog - spin for each length read from the pipe; 0 ends it */
static void *hog(void *arg __attribute__((unused)))
{
	volatile unsigned long x = 0;
	int ms;

	prctl(PR_SET_NAME, "hog");
	while (read(pipefd[0], &ms, sizeof(ms)) == sizeof(ms) && ms > 0) {
		double end = now() + ms / 1e3;

		while (now() < end)
			for (int i = 0; i < 1000; i++)
				x++;
	}
	return NULL;
}

/* main - start the hog, then nap and hand out the spins */
int main(int argc, char **argv)
{
	struct timespec nap = { 0, 1000000 };
	pthread_t t;
	int i, n, ms;

	if (argc < 3) {
		fprintf(stderr, "usage: delays CPU N MS...\n");
		return 2;
	}
	cpu = atoi(argv[1]);
	n = atoi(argv[2]);
	if (pipe(pipefd) || fifo(10)) {
		perror("delays: SCHED_FIFO");
		return 3;
	}
	prctl(PR_SET_NAME, "delayed");
	/* the hog inherits the pinning; it raises its own priority above ours */
	if (pthread_create(&t, NULL, hog, NULL))
		return 3;
	{
		struct sched_param sp = { .sched_priority = 20 };

		if (pthread_setschedparam(t, SCHED_FIFO, &sp))
			return 3;
	}
	for (i = 0; i < n; i++) {
		nanosleep(&nap, NULL);
		if (i + 3 < argc) {
			ms = atoi(argv[i + 3]);
			if (write(pipefd[1], &ms, sizeof(ms)) != sizeof(ms))
				return 1;
		}
	}
	ms = 0;
	if (write(pipefd[1], &ms, sizeof(ms)) != sizeof(ms))
		return 1;
	pthread_join(t, NULL);
	return 0;
}
