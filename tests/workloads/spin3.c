// SPDX-License-Identifier: GPL-2.0
/*
 * spin3 CPU SECONDS: three CPU-bound threads pinned to one CPU for SECONDS.
 * They preempt each other, so each waits about two time slices on the run queue:
 * run-queue latencies of a millisecond and more.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double seconds;
static int cpu;

/* now - monotonic seconds */
static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* spin - burn CPU on the chosen CPU until the time is up */
static void *spin(void *arg __attribute__((unused)))
{
	volatile unsigned long x = 0;
	double end = now() + seconds;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	while (now() < end)
		for (int i = 0; i < 100000; i++)
			x++;
	return NULL;
}

/* main - start three spinners and wait for them */
int main(int argc, char **argv)
{
	pthread_t t[3];
	int i;

	if (argc != 3) {
		fprintf(stderr, "usage: spin3 CPU SECONDS\n");
		return 2;
	}
	cpu = atoi(argv[1]);
	seconds = atof(argv[2]);
	for (i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, spin, NULL);
	for (i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	return 0;
}
