// SPDX-License-Identifier: GPL-2.0
/*
 * blocker [SLEEPS MSEC READS MSEC]: known off-CPU time in named functions.
 *   bk-sleeper: SLEEPS x MSEC in sleep_here() -> nap() -> nanosleep()
 *   bk-reader:  READS blocking reads of a pipe in read_here() -> take() -> read()
 *   bk-writer:  feeds the pipe one byte every MSEC ms
 * Defaults 20 x 50 ms and 10 x 100 ms: about 1 s blocked in each named function.
 * Frame pointers are kept; libc has none, so a frame-pointer walk skips the
 * function that calls into libc (nap, take) and shows its caller.
 * The sleeper and the reader each print, on stderr, their off-CPU time inside the
 * blocking calls by the kernel's own counters (offwin.h).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include "offwin.h"

static long sleeps = 20, sleep_ms = 50, reads = 10, read_ms = 100;
static int pfd[2];
static struct offwin sleeper_off, reader_off;

/* nap - one sleep of @ms */
__attribute__((noinline)) static void nap(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* sleep_here - the sleeps, in a function a stack can name */
__attribute__((noinline)) static void sleep_here(void)
{
	struct offwin_mark m;
	long i;

	for (i = 0; i < sleeps; i++) {
		offwin_begin(&sleeper_off, &m);
		nap(sleep_ms);
		offwin_end(&sleeper_off, &m);
	}
}

/* take - one blocking read of the pipe */
__attribute__((noinline)) static int take(void)
{
	char c;

	return read(pfd[0], &c, 1) == 1 ? 0 : -1;
}

/* read_here - the reads, in a function a stack can name */
__attribute__((noinline)) static void read_here(void)
{
	struct offwin_mark m;
	long i;

	for (i = 0; i < reads; i++) {
		offwin_begin(&reader_off, &m);
		if (take())
			exit(1);
		offwin_end(&reader_off, &m);
	}
}

/* sleeper - thread body */
static void *sleeper(__attribute__((unused)) void *arg)
{
	pthread_setname_np(pthread_self(), "bk-sleeper");
	sleep_here();
	offwin_print(&sleeper_off);
	return NULL;
}

/* reader - thread body */
static void *reader(__attribute__((unused)) void *arg)
{
	pthread_setname_np(pthread_self(), "bk-reader");
	read_here();
	offwin_print(&reader_off);
	return NULL;
}

/* writer - thread body: one byte per period */
static void *writer(__attribute__((unused)) void *arg)
{
	long i;

	pthread_setname_np(pthread_self(), "bk-writer");
	for (i = 0; i < reads; i++) {
		nap(read_ms);
		if (write(pfd[1], "x", 1) != 1)
			exit(1);
	}
	return NULL;
}

/* main - start the three threads and wait for them */
int main(int argc, char **argv)
{
	pthread_t t[3];
	int i;

	if (argc == 5) {
		sleeps = atol(argv[1]);
		sleep_ms = atol(argv[2]);
		reads = atol(argv[3]);
		read_ms = atol(argv[4]);
	} else if (argc != 1) {
		fprintf(stderr, "usage: blocker [SLEEPS MSEC READS MSEC]\n");
		return 2;
	}
	if (pipe(pfd))
		return 1;
	if (pthread_create(&t[0], NULL, sleeper, NULL) ||
	    pthread_create(&t[1], NULL, reader, NULL) ||
	    pthread_create(&t[2], NULL, writer, NULL))
		return 1;
	for (i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	return 0;
}
