// SPDX-License-Identifier: GPL-2.0
/*
 * sleeper CPU COUNT MSEC: pinned to CPU, sleep COUNT times for MSEC ms each, in
 * nap_here() via nanosleep. Each wakeup finds its CPU idle: short run-queue waits.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

/* nap_here - one sleep, in a function of its own for stack tests */
__attribute__((noinline)) static void nap_here(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/*
 * counts - with SLEEPER_COUNTS=FILE, append the kernel's count of this thread's
 * switches out (voluntary, involuntary: exec keeps them), one per switch-in that
 * follows: the oracle of the switch-ins a trace shows of it
 */
static void counts(void)
{
	const char *path = getenv("SLEEPER_COUNTS");
	struct rusage ru;
	FILE *f;

	if (!path || getrusage(RUSAGE_THREAD, &ru) || !(f = fopen(path, "a")))
		return;
	fprintf(f, "nvcsw=%ld nivcsw=%ld\n", ru.ru_nvcsw, ru.ru_nivcsw);
	fclose(f);
}

/* main - pin, then sleep */
int main(int argc, char **argv)
{
	cpu_set_t set;
	long i, n, ms;

	if (argc != 4) {
		fprintf(stderr, "usage: sleeper CPU COUNT MSEC\n");
		return 2;
	}
	CPU_ZERO(&set);
	CPU_SET(atoi(argv[1]), &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("sched_setaffinity");
		return 1;
	}
	n = atol(argv[2]);
	ms = atol(argv[3]);
	for (i = 0; i < n; i++)
		nap_here(ms);
	counts();
	return 0;
}
