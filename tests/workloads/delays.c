// SPDX-License-Identifier: GPL-2.0
/*
 * delays CPU N MS...: scheduling delays of known length for a thread named "delayed".
 * Two SCHED_FIFO threads pinned to CPU: "delayed" (priority 10) and "hog" (20).
 * "delayed" naps 1 ms N times; after nap i (counting from 0) with i < the number
 * of MS values given, it hands the hog MS[i] through a pipe. The hog, higher in
 * priority, preempts it at once and spins for that many ms, so "delayed" waits
 * on the run queue MS[i] ms. Its other delays are wakeups on a free CPU (a few us).
 * Needs root (SCHED_FIFO); exits 3 when it cannot get it.
 * At the end it prints, for each spin, one line of CLOCK_MONOTONIC ns (the trace's
 * default clock): "hold MS write W0 back W1 spin B E": W0 just before "delayed"
 * writes the spin's length, W1 just after the write returns (its wait on the run
 * queue lies between), B and E the hog's first and last clock reads of the spin (the
 * wait starts before B, and ends after E).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#define MAX_SPINS 16

static int cpu, pipefd[2];
/* the hog's first and last clock reads of each spin; the writer's around each write */
static long long spin_b[MAX_SPINS], spin_e[MAX_SPINS], write_b[MAX_SPINS], write_e[MAX_SPINS];
static int spin_ms[MAX_SPINS], nspins;

/* now - CLOCK_MONOTONIC in ns */
static long long now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
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
		long long b = now(), t = b, end = b + ms * 1000000LL;

		while (t < end) {
			for (int i = 0; i < 1000; i++)
				x++;
			t = now();
		}
		if (nspins < MAX_SPINS) {
			spin_b[nspins] = b;
			spin_e[nspins++] = t;
		}
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
			int k = i < MAX_SPINS ? i : MAX_SPINS - 1;

			ms = atoi(argv[i + 3]);
			spin_ms[k] = ms;
			write_b[k] = now();
			if (write(pipefd[1], &ms, sizeof(ms)) != sizeof(ms))
				return 1;
			write_e[k] = now();
		}
	}
	ms = 0;
	if (write(pipefd[1], &ms, sizeof(ms)) != sizeof(ms))
		return 1;
	pthread_join(t, NULL);
	for (i = 0; i < nspins; i++)
		printf("hold %d write %lld back %lld spin %lld %lld\n", spin_ms[i], write_b[i],
		       write_e[i], spin_b[i], spin_e[i]);
	return 0;
}
