// SPDX-License-Identifier: GPL-2.0
/*
 * fifowake CPU ROUNDS MSEC: a known wait for --why. Two threads pinned to CPU:
 *   "fifospin"  SCHED_FIFO 50: ROUNDS times, waits for the pacer's byte, writes a
 *               byte to a pipe (waking "waiter" on the same CPU, which it cannot
 *               preempt) and spins MSEC ms before it blocks on the pacer's pipe again
 *   "waiter"    SCHED_OTHER: reads the pipe
 * and the main thread, the pacer, on another CPU (the same one on a machine of one):
 * every 30 ms a byte to fifospin's pipe. Each of waiter's wakeups waits for the spin.
 * On stdout: "fifo TID", "waiter TID", then a line "spin NS" per round: the spin, by
 * the thread's own CLOCK_MONOTONIC from just before the write to just before the read
 * that blocks (the whole time waiter waited, short of the write's and the read's way
 * into the kernel: 4-7 and 12-32 us in a paravirtualised guest), and after them a line
 * "reach NS" per round: from the same start to waiter's CLOCK_MONOTONIC just after its
 * read returned (the whole time waiter waited, and more: the write's way in, waiter's
 * way out). The wait lies between the two.
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

static int cpu, rounds, fds[2], go[2];
static long msec;
static long long *t0s, *tws;	/* each round's start (fifospin), and waiter's return */

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
	int n = 0;
	char c;

	pin(cpu, "waiter");
	printf("waiter %ld\n", (long)syscall(SYS_gettid));
	fflush(stdout);
	while (read(fds[0], &c, 1) == 1)
		if (n < rounds)
			tws[n++] = now_ns();
	return NULL;
}

/* fifospin - at each of the pacer's bytes wake waiter and spin MSEC ms; ROUNDS times */
static void *fifospin(void *arg __attribute__((unused)))
{
	struct sched_param sp = { .sched_priority = 50 };
	long long *spin = calloc(rounds, sizeof(*spin)), t0;
	int i, err, n = 0;
	char c;

	pin(cpu, "fifospin");
	err = pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
	if (err || !spin) {
		fprintf(stderr, "fifowake: SCHED_FIFO: error %d\n", err);
		exit(1);
	}
	printf("fifo %ld\n", (long)syscall(SYS_gettid));
	fflush(stdout);
	/* the read that blocks ends each spin: no timer to program on the way off the CPU */
	while (n < rounds && read(go[0], &c, 1) == 1) {
		t0 = t0s[n] = now_ns();
		if (write(fds[1], "x", 1) != 1)
			exit(1);
		while (now_ns() - t0 < msec * 1000000LL)
			;
		spin[n++] = now_ns() - t0;
	}
	while (read(go[0], &c, 1) == 1)		/* the pacer's end */
		;
	close(fds[1]);
	for (i = 0; i < n; i++)
		printf("spin %lld\n", spin[i]);
	free(spin);
	return NULL;
}

/* pace - on a CPU other than the workload's: a byte to fifospin every 30 ms, then close */
static void pace(void)
{
	struct timespec nap = { 0, 30 * 1000000L };
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t set;
	int i;

	CPU_ZERO(&set);
	CPU_SET(ncpu > 1 ? (cpu ? 0 : 1) : cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		perror("sched_setaffinity");
	nanosleep(&nap, NULL);
	for (i = 0; i < rounds; i++) {
		nanosleep(&nap, NULL);
		if (write(go[1], "g", 1) != 1)
			exit(1);
	}
	nanosleep(&nap, NULL);
	close(go[1]);
}

int main(int argc, char **argv)
{
	pthread_t a, b;
	int i;
	char c;

	if (argc != 4) {
		fprintf(stderr, "usage: fifowake CPU ROUNDS MSEC\n");
		return 2;
	}
	cpu = atoi(argv[1]);
	rounds = atoi(argv[2]);
	msec = atol(argv[3]);
	t0s = calloc(rounds > 0 ? rounds : 1, sizeof(*t0s));
	tws = calloc(rounds > 0 ? rounds : 1, sizeof(*tws));
	if (!t0s || !tws || pipe(fds) || pipe(go)) {
		perror("pipe");
		return 1;
	}
	/* a byte through each pipe first: a pipe's first write allocates its buffer's page
	   on the way to the wakeup (the first round's wait once began 39 us after the spin) */
	if (write(fds[1], "w", 1) != 1 || read(fds[0], &c, 1) != 1 ||
	    write(go[1], "w", 1) != 1 || read(go[0], &c, 1) != 1) {
		perror("pipe");
		return 1;
	}
	pthread_create(&b, NULL, waiter, NULL);
	pthread_create(&a, NULL, fifospin, NULL);
	pace();
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	for (i = 0; i < rounds && tws[i]; i++)
		printf("reach %lld\n", tws[i] - t0s[i]);
	return 0;
}
