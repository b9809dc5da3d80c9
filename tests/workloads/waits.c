// SPDX-License-Identifier: GPL-2.0
/*
 * waits CPU NAPS MSEC ROUNDS: known waits, every thread pinned to CPU.
 *   "napper"        sleeps NAPS times for MSEC ms (nanosleep)
 *   "ping", "pong"  bounce a byte over two pipes ROUNDS times: each wakes the other
 * At the end ping and pong print to stderr how often each slept in its loop, by the
 * kernel's count of its voluntary switches ("ping nvcsw N"): every sleep there ends with
 * a wakeup by the other thread, so N is the number of those wakeups.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "pin.h"

static int cpu, naps, rounds, ab[2], ba[2];
static long msec;

/* napper - NAPS sleeps of MSEC ms */
static void *napper(void *arg __attribute__((unused)))
{
	struct timespec ts = { msec / 1000, (msec % 1000) * 1000000L };
	int i;

	pin(cpu, "napper");
	for (i = 0; i < naps; i++)
		nanosleep(&ts, NULL);
	return NULL;
}

/* nvcsw - the calling thread's voluntary context switches so far */
static long nvcsw(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_THREAD, &ru) ? -1 : ru.ru_nvcsw;
}

/* pong - echo every byte back */
static void *pong(void *arg __attribute__((unused)))
{
	char c;
	int i;
	long v;

	pin(cpu, "pong");
	v = nvcsw();
	for (i = 0; i < rounds; i++)
		if (read(ab[0], &c, 1) != 1 || write(ba[1], &c, 1) != 1)
			break;
	fprintf(stderr, "pong nvcsw %ld\n", nvcsw() - v);
	return NULL;
}

/* ping - send a byte, wait for it to come back */
static void *ping(void *arg __attribute__((unused)))
{
	char c = 'x';
	int i;
	long v;

	pin(cpu, "ping");
	v = nvcsw();
	for (i = 0; i < rounds; i++)
		if (write(ab[1], &c, 1) != 1 || read(ba[0], &c, 1) != 1)
			break;
	fprintf(stderr, "ping nvcsw %ld\n", nvcsw() - v);
	return NULL;
}

/* main - start the three threads and wait for them */
int main(int argc, char **argv)
{
	pthread_t t[3];
	int i;

	if (argc != 5) {
		fprintf(stderr, "usage: waits CPU NAPS MSEC ROUNDS\n");
		return 2;
	}
	cpu = atoi(argv[1]);
	naps = atoi(argv[2]);
	msec = atol(argv[3]);
	rounds = atoi(argv[4]);
	if (pipe(ab) || pipe(ba)) {
		perror("pipe");
		return 1;
	}
	pin(cpu, "waits");
	pthread_create(&t[0], NULL, napper, NULL);
	pthread_create(&t[1], NULL, pong, NULL);
	pthread_create(&t[2], NULL, ping, NULL);
	for (i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	return 0;
}
