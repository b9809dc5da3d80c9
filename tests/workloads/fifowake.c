// SPDX-License-Identifier: GPL-2.0
/*
 * fifowake CPU ROUNDS MSEC: a known wait for --why. Two threads pinned to CPU:
 *   "fifospin"  SCHED_FIFO 50: ROUNDS times, sleeps 30 ms, writes a byte to a pipe
 *               (waking "waiter" on the same CPU, which it cannot preempt) and spins
 *               MSEC ms before it sleeps again
 *   "waiter"    SCHED_OTHER: reads the pipe
 * Each of waiter's wakeups waits for the spin. On stdout: "fifo TID", "waiter TID",
 * then a line "spin NS" per round: the spin, by the thread's own CLOCK_MONOTONIC from
 * just before the write to just before the sleep (the whole time waiter waited, short
 * of the write's and the sleep's entry into the kernel).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "pin.h"

static int cpu, rounds, fds[2];
static long msec;

/* now_ns - CLOCK_MONOTONIC in ns */
static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* waiter - read until the pipe closes */
static void *waiter(void *arg __attribute__((unused)))
{
	char c;

	pin(cpu, "waiter");
	printf("waiter %ld\n", (long)syscall(SYS_gettid));
	fflush(stdout);
	while (read(fds[0], &c, 1) == 1)
		;
	return NULL;
}

/* fifospin - wake waiter, spin MSEC ms, sleep; ROUNDS times */
static void *fifospin(void *arg __attribute__((unused)))
{
	struct timespec nap = { 0, 30 * 1000000L };
	struct sched_param sp = { .sched_priority = 50 };
	long long *spin = calloc(rounds, sizeof(*spin)), t0;
	int i, err;

	pin(cpu, "fifospin");
	err = pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
	if (err || !spin) {
		fprintf(stderr, "fifowake: SCHED_FIFO: error %d\n", err);
		exit(1);
	}
	printf("fifo %ld\n", (long)syscall(SYS_gettid));
	fflush(stdout);
	nanosleep(&nap, NULL);
	for (i = 0; i < rounds; i++) {
		nanosleep(&nap, NULL);
		t0 = now_ns();
		if (write(fds[1], "x", 1) != 1)
			exit(1);
		while (now_ns() - t0 < msec * 1000000LL)
			;
		spin[i] = now_ns() - t0;
	}
	nanosleep(&nap, NULL);
	close(fds[1]);
	for (i = 0; i < rounds; i++)
		printf("spin %lld\n", spin[i]);
	free(spin);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t a, b;

	if (argc != 4) {
		fprintf(stderr, "usage: fifowake CPU ROUNDS MSEC\n");
		return 2;
	}
	cpu = atoi(argv[1]);
	rounds = atoi(argv[2]);
	msec = atol(argv[3]);
	if (pipe(fds)) {
		perror("pipe");
		return 1;
	}
	pthread_create(&b, NULL, waiter, NULL);
	pthread_create(&a, NULL, fifospin, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return 0;
}
