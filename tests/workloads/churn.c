// SPDX-License-Identifier: GPL-2.0
/*
 * churn SECS RATE NAMES [STOP]: for SECS seconds, RATE short-lived processes a second,
 * paced by CLOCK_MONOTONIC, one at a time: each child names itself "churnK" (K = its
 * number modulo NAMES, so that per-process series have several comms), sleeps 100 us (a
 * wakeup, then a run-queue wait) and exits; the parent reaps it before the next. Ends
 * early when the file STOP exists (checked each second). Prints, at the end, one line:
 * "processes N wraps W behind B" - the children made, the times a child's pid was lower
 * than the previous child's (the kernel's pids wrapped past pid_max), and how many
 * children started more than a second after their paced time (the pace was not kept).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* now_ns - CLOCK_MONOTONIC in ns */
static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* child - name, one short sleep, exit */
static void child(long n, long names)
{
	struct timespec nap = { 0, 100000 };
	char name[16];

	snprintf(name, sizeof(name), "churn%d", (int)(n % names % 100000));
	prctl(PR_SET_NAME, name);
	nanosleep(&nap, NULL);
	_exit(0);
}

/* main - fork at the pace, reap, count the pid wraps */
int main(int argc, char **argv)
{
	long long start, end, due, t, next_stop = 0;
	long secs, rate, names, n = 0, wraps = 0, behind = 0;
	const char *stop;
	pid_t pid, last = 0;
	struct timespec ts;

	if (argc < 4) {
		fprintf(stderr, "usage: churn SECS RATE NAMES [STOP]\n");
		return 2;
	}
	secs = atol(argv[1]);
	rate = atol(argv[2]);
	names = atol(argv[3]);
	stop = argc > 4 ? argv[4] : NULL;
	if (secs <= 0 || rate <= 0 || names <= 0) {
		fprintf(stderr, "churn: SECS, RATE and NAMES must be > 0\n");
		return 2;
	}
	start = now_ns();
	end = start + secs * 1000000000LL;
	for (;;) {
		due = start + n * 1000000000LL / rate;
		if (due >= end)
			break;
		t = now_ns();
		if (t >= end)
			break;
		if (stop && t >= next_stop) {
			if (access(stop, F_OK) == 0)
				break;
			next_stop = t + 1000000000LL;
		}
		if (t < due) {
			ts.tv_sec = due / 1000000000LL;
			ts.tv_nsec = due % 1000000000LL;
			clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		} else if (t - due > 1000000000LL) {
			behind++;
		}
		pid = fork();
		if (pid < 0) {
			if (errno == EAGAIN)
				continue;
			perror("churn: fork");
			return 1;
		}
		if (pid == 0)
			child(n, names);
		if (last && pid < last)
			wraps++;
		last = pid;
		n++;
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
	printf("processes %ld wraps %ld behind %ld\n", n, wraps, behind);
	return 0;
}
