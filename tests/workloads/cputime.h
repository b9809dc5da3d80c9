/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cputime.h - a thread's own account of its CPU time, for the profile workloads:
 * CLOCK_THREAD_CPUTIME_ID to steer the work, and at the end the kernel's two
 * figures, schedstat's first field (sum_exec_runtime) and getrusage(RUSAGE_THREAD).
 */
#ifndef CPUTIME_H
#define CPUTIME_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdio.h>
#include <sys/resource.h>
#include <time.h>

/* cputime_ns - a clock's time now, in ns */
static inline long long cputime_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* cputime_schedstat - this thread's run time from /proc/thread-self/schedstat (ns) */
static inline long long cputime_schedstat(void)
{
	long long run = -1;
	FILE *f = fopen("/proc/thread-self/schedstat", "r");

	if (f) {
		if (fscanf(f, "%lld", &run) != 1)
			run = -1;
		fclose(f);
	}
	return run;
}

/* cputime_rusage - this thread's user + system time from getrusage (us) */
static inline long long cputime_rusage(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru))
		return -1;
	return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000LL +
	       ru.ru_utime.tv_usec + ru.ru_stime.tv_usec;
}

#endif /* CPUTIME_H */
