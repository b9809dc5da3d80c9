// SPDX-License-Identifier: GPL-2.0
/*
 * edge CPU SECONDS MARGIN_MS: wakeups on both sides of a moment. Pinned to CPU, it
 * sleeps until SECONDS after its start less MARGIN_MS, then naps 100 us at a time
 * until MARGIN_MS after that moment, prints how many naps it took ("naps N") and how
 * many times it slept from the long sleep on ("slept M", its own count of voluntary
 * switches: a nap whose timer fired while the host held the vCPU comes back without
 * sleeping; the kernel still records a wakeup of the running task, which a wakeup ->
 * switch-in pairing that starts at the first wakeup after a switch-out leaves out),
 * and sleeps 1 s more (so a tracer that stops at the moment finds it still alive). With
 * `ftscope runqlat I C -- edge CPU I*C MARGIN`, the naps straddle the end of the
 * last interval. Its wakeups: the naps, the one that ends the first long sleep,
 * and the last one (after that second).
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

/* ns - CLOCK_MONOTONIC in nanoseconds */
static long long ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* nvcsw - this process's voluntary context switches so far */
static long nvcsw(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_nvcsw;
}

/* main - sleep to the edge, nap across it, report the naps */
int main(int argc, char **argv)
{
	struct timespec nap = { 0, 100000 }, until, rest = { 1, 0 };
	long long start = ns(), edge, t;
	cpu_set_t set;
	long naps = 0, sw0;

	if (argc != 4) {
		fprintf(stderr, "usage: edge CPU SECONDS MARGIN_MS\n");
		return 2;
	}
	CPU_ZERO(&set);
	CPU_SET(atoi(argv[1]), &set);
	sched_setaffinity(0, sizeof(set), &set);
	edge = start + (long long)(atof(argv[2]) * 1e9);
	t = edge - atol(argv[3]) * 1000000LL;
	until.tv_sec = t / 1000000000LL;
	until.tv_nsec = t % 1000000000LL;
	sw0 = nvcsw();
	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL);
	t = edge + atol(argv[3]) * 1000000LL;
	while (ns() < t) {
		nanosleep(&nap, NULL);
		naps++;
	}
	printf("naps %ld\nslept %ld\n", naps, nvcsw() - sw0);
	fflush(stdout);
	nanosleep(&rest, NULL);
	return 0;
}
