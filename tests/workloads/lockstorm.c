// SPDX-License-Identifier: GPL-2.0
/*
 * lockstorm MODE THREADS SECS: THREADS threads contend one kernel lock of this process
 * for SECS seconds. MODE "mmap": each maps one page, touches it and unmaps it, over and
 * over, so that they queue on the process's mmap_lock (an rwsem, taken for writing by
 * mmap and munmap). MODE "pipe": each writes 64 bytes into one pipe that a reader
 * thread drains, so that the writers queue on the pipe's mutex. The threads start
 * together once all are made (making one maps and mprotects its stack: the mmap_lock
 * too). Prints, at the end, one line: "ops N" - the calls made by all threads.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static volatile int stop;
static pthread_barrier_t go;
static int pipefd[2];
static int use_pipe;

/* worker - the calls that contend the lock, until stop */
static void *worker(void *arg)
{
	long *ops = arg;
	char buf[64] = { 0 };

	pthread_barrier_wait(&go);
	while (!stop) {
		if (use_pipe) {
			if (write(pipefd[1], buf, sizeof(buf)) < 0)
				break;
		} else {
			char *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

			if (p == MAP_FAILED)
				break;
			p[0] = 1;
			munmap(p, 4096);
		}
		(*ops)++;
	}
	return NULL;
}

/* reader - drains the pipe */
static void *reader(void *arg)
{
	char buf[65536];

	(void)arg;
	while (read(pipefd[0], buf, sizeof(buf)) > 0)
		;
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[64], r;
	long ops[64] = { 0 }, total = 0;
	int i, n;
	unsigned int secs;

	if (argc != 4 || (strcmp(argv[1], "mmap") && strcmp(argv[1], "pipe"))) {
		fprintf(stderr, "usage: lockstorm mmap|pipe THREADS SECS\n");
		return 2;
	}
	use_pipe = !strcmp(argv[1], "pipe");
	n = atoi(argv[2]);
	secs = (unsigned int)atoi(argv[3]);
	if (n < 1 || n > 64)
		return 2;
	if (pthread_barrier_init(&go, NULL, n + 1) ||
	    (use_pipe && (pipe(pipefd) || pthread_create(&r, NULL, reader, NULL))))
		return 1;
	for (i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, worker, &ops[i]))
			return 1;
	pthread_barrier_wait(&go);
	sleep(secs);
	stop = 1;
	for (i = 0; i < n; i++) {
		pthread_join(t[i], NULL);
		total += ops[i];
	}
	if (use_pipe) {
		close(pipefd[1]);
		pthread_join(r, NULL);
	}
	printf("ops %ld\n", total);
	return 0;
}
