// SPDX-License-Identifier: GPL-2.0
/*
 * spinself CPU SECONDS: three CPU-bound threads pinned to one CPU for SECONDS, as
 * spin3, each printing, as its last act, the kernel's own account of its life from
 * /proc/thread-self/schedstat, on one line:
 *   tid=N run_ns=N delay_ns=N slices=N
 * (time on the CPU, time runnable on a run queue, times switched in): the oracle for
 * run time, sch delay and counts of timehist and latency on the same run. Before that
 * reading a spinner makes itself SCHED_FIFO (when allowed), so that no ordinary task
 * can keep it waiting between the reading and its exit, which the kernel's figures
 * would miss and a trace would see (155 ms once, beside perf bench sched messaging).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static double seconds;
static int cpu;
static pthread_mutex_t out = PTHREAD_MUTEX_INITIALIZER;

/* now - monotonic seconds */
static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* report - print this thread's schedstat line */
static void report(void)
{
	unsigned long long run = 0, delay = 0, slices = 0;
	struct sched_param sp = { .sched_priority = 1 };
	char line[128];
	FILE *f;
	int n;

	sched_setscheduler(0, SCHED_FIFO, &sp);
	f = fopen("/proc/thread-self/schedstat", "r");
	if (f) {
		if (fscanf(f, "%llu %llu %llu", &run, &delay, &slices) != 3)
			run = delay = slices = 0;
		fclose(f);
	}
	n = snprintf(line, sizeof(line), "tid=%d run_ns=%llu delay_ns=%llu slices=%llu\n",
		     gettid(), run, delay, slices);
	pthread_mutex_lock(&out);
	if (write(1, line, n) != n)
		perror("spinself");
	pthread_mutex_unlock(&out);
}

/* spin - burn CPU on the chosen CPU until the time is up, then report */
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
	report();
	return NULL;
}

/* main - start three spinners and wait for them */
int main(int argc, char **argv)
{
	pthread_t t[3];
	int i;

	if (argc != 3) {
		fprintf(stderr, "usage: spinself CPU SECONDS\n");
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
