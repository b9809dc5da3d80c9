// SPDX-License-Identifier: GPL-2.0
/*
 * runlens CPU RUNS [MS]: runs of known lengths, each timed by the thread that makes
 * it. A thread named "runner", pinned to CPU and SCHED_FIFO 10 (when allowed), makes
 * RUNS runs: run i spins (1 + i % 4) x MS ms (MS: 1) on CLOCK_MONOTONIC, and a 1 ms
 * nanosleep separates each from the next. Beside it a thread named "filler", pinned
 * to the same CPU at SCHED_IDLE, spins until the runs are done, so that the CPU never
 * idles between them: no switch-in of the runner comes out of idle (a switch this
 * VM's kernel may not record). The runner times each run itself: from its first
 * instruction, or from nanosleep's return, to its next call of nanosleep, or to its
 * return (the last run). As its last act it prints "runner TID nivcsw N nvcsw M": the
 * kernel's counts of its involuntary switches (0 when nothing preempted it, so that
 * each run was one stay on the CPU) and of its voluntary ones (one a nap, unless a nap
 * came back without sleeping: its timer fired while the vCPU was held). Then main prints one line a run, "run I NS", and
 * "fifo 0|1" (whether the runner was SCHED_FIFO).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int cpu, runs, fifo, unit_ms = 1;
static long long *lens;
static volatile int done;

/* now_ns - CLOCK_MONOTONIC in ns */
static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* pin - keep the calling thread on the CPU */
static void pin(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		perror("sched_setaffinity");
}

/* filler - keep the CPU busy at the lowest priority until the runs are done */
static void *filler(void *arg __attribute__((unused)))
{
	struct sched_param sp = { 0 };

	prctl(PR_SET_NAME, "filler");
	pin();
	sched_setscheduler(0, SCHED_IDLE, &sp);
	while (!done)
		;
	return NULL;
}

/* runner - the timed runs, then its counts of involuntary and voluntary switches */
static void *runner(void *arg __attribute__((unused)))
{
	long long t0 = now_ns(), end;
	struct timespec nap = { 0, 1000000 };
	struct rusage ru;
	int i;

	prctl(PR_SET_NAME, "runner");
	for (i = 0; i < runs; i++) {
		if (i) {
			nanosleep(&nap, NULL);
			t0 = now_ns();
		}
		end = t0 + (1 + i % 4) * unit_ms * 1000000LL;
		while (now_ns() < end)
			;
		lens[i] = now_ns() - t0;
	}
	getrusage(RUSAGE_THREAD, &ru);
	printf("runner %ld nivcsw %ld nvcsw %ld\n", (long)syscall(SYS_gettid), ru.ru_nivcsw,
	       ru.ru_nvcsw);
	return NULL;
}

/*
 * main - start the filler; then, pinned to the CPU and SCHED_FIFO 10 itself, the
 * runner, which inherits both (made so by the kernel at its creation: no first stay at
 * another priority, as glibc's setting of an explicit policy would give it); wait for
 * both; print the runs' lengths
 */
int main(int argc, char **argv)
{
	struct sched_param sp = { .sched_priority = 10 };
	pthread_t f, r;
	int i;

	if (argc < 3 || argc > 4 || (runs = atoi(argv[2])) < 1 ||
	    (argc == 4 && (unit_ms = atoi(argv[3])) < 1)) {
		fprintf(stderr, "usage: runlens CPU RUNS [MS]\n");
		return 2;
	}
	cpu = atoi(argv[1]);
	lens = calloc(runs, sizeof(*lens));
	if (!lens)
		return 1;
	pthread_create(&f, NULL, filler, NULL);
	pin();
	fifo = !sched_setscheduler(0, SCHED_FIFO, &sp);
	/* the same priority: the runner starts when main sleeps in the join */
	if (pthread_create(&r, NULL, runner, NULL))
		return 1;
	pthread_join(r, NULL);
	done = 1;
	pthread_join(f, NULL);
	for (i = 0; i < runs; i++)
		printf("run %d %lld\n", i, lens[i]);
	printf("fifo %d\n", fifo);
	return 0;
}
