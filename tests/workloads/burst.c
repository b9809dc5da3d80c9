// SPDX-License-Identifier: GPL-2.0
/*
 * burst THREADS COUNT GATE QUIET [NAME0]: once the file GATE exists, THREADS threads named
 * "burst0".."burstN", all pinned to CPU 0, each COUNT times spin 200 us and sleep
 * 500 us: they queue behind each other, so each wakeup waits on the run queue. Then
 * they end, GATE.done is made, and the process sleeps QUIET seconds in one nanosleep: no more wakeups,
 * a quiet time in which a scraper sees the final state of a trace of it. NAME0, the
 * first thread's name instead (bytes as given: a name cut inside a UTF-8 character).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

static long count;
static const char *name0;

/* now_ns - CLOCK_MONOTONIC in ns */
static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* worker - name, then COUNT spins and sleeps */
static void *worker(void *arg)
{
	struct timespec nap = { 0, 500000 };
	char name[16];
	long i;

	snprintf(name, sizeof(name), "burst%ld", (long)arg);
	if (!arg && name0)
		snprintf(name, sizeof(name), "%s", name0);
	prctl(PR_SET_NAME, name);
	for (i = 0; i < count; i++) {
		long long end = now_ns() + 200000;

		while (now_ns() < end)
			;
		nanosleep(&nap, NULL);
	}
	return NULL;
}

/* main - pin, wait for the gate, burst, then stay quiet */
int main(int argc, char **argv)
{
	struct timespec poll = { 0, 10000000 }, quiet;
	pthread_t tid[64];
	char done[4096];
	cpu_set_t set;
	long i, n;
	int fd;

	if (argc < 5 || argc > 6 || (n = atol(argv[1])) < 1 || n > 64) {
		fprintf(stderr, "usage: burst THREADS(1-64) COUNT GATE QUIET [NAME0]\n");
		return 2;
	}
	name0 = argc == 6 ? argv[5] : NULL;
	count = atol(argv[2]);
	quiet.tv_sec = atol(argv[4]);
	quiet.tv_nsec = 0;
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("sched_setaffinity");
		return 1;
	}
	while (access(argv[3], F_OK))
		nanosleep(&poll, NULL);
	for (i = 0; i < n; i++)
		if (pthread_create(&tid[i], NULL, worker, (void *)i)) {
			perror("pthread_create");
			return 1;
		}
	for (i = 0; i < n; i++)
		pthread_join(tid[i], NULL);
	snprintf(done, sizeof(done), "%s.done", argv[3]);
	fd = open(done, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		perror(done);
		return 1;
	}
	close(fd);
	nanosleep(&quiet, NULL);
	return 0;
}
