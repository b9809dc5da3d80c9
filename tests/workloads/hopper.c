// SPDX-License-Identifier: GPL-2.0
/*
 * hopper THREADS COUNT SPIN_MS SLEEP_MS [BUSY]: THREADS threads named "hopper", each
 * COUNT times pinned to the other CPU of 0 and 1 (sched_setaffinity), spinning
 * SPIN_MS ms of its own CPU time, then sleeping SLEEP_MS ms. BUSY more threads named
 * "busy", free to run anywhere, spin 1 ms and sleep 1 ms until the hoppers are done.
 * At the end each thread prints "NAME TID RUN_NS": the run time the kernel counted
 * for it (/proc/self/task/TID/schedstat, first field) between its start and its end;
 * then "migrations NAME TID N": the kernel's count of its moves to another CPU since
 * it was created (se.nr_migrations of /proc/self/task/TID/sched; -1 where the kernel
 * has no such file). A hopper is pinned to one CPU when it reads it: it moves no more.
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

static long count, spin_ms, sleep_ms;
static volatile int hoppers_done;
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;

/* task_field - the number @fmt reads from the first line of /proc/self/task/@tid/@file it
 * matches, -1 when none does */
static long long task_field(int tid, const char *file, const char *fmt)
{
	char path[64], line[256];
	long long n = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/%s", tid, file);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, fmt, &n) == 1)
			break;
	fclose(f);
	return n;
}

/* run_ns - the kernel's run time of thread @tid so far, -1 on error */
static long long run_ns(int tid)
{
	return task_field(tid, "schedstat", "%lld");
}

/* migrations - the kernel's count of thread @tid's migrations, -1 if not known */
static long long migrations(int tid)
{
	return task_field(tid, "sched", "se.nr_migrations : %lld");
}

/* thread_ns - this thread's CPU time */
static long long thread_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* spin - burn @ms of this thread's own CPU time */
static void spin(long ms)
{
	long long end = thread_ns() + ms * 1000000LL;

	while (thread_ns() < end)
		;
}

/* nap - sleep @ms */
static void nap(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* report - print NAME TID RUN_NS for the calling thread since @start, and its migrations */
static void report(const char *name, int tid, long long start)
{
	long long ns, mig;

	pthread_mutex_lock(&out_lock);
	ns = run_ns(tid) - start;
	mig = migrations(tid);
	printf("%s %d %lld\nmigrations %s %d %lld\n", name, tid, ns, name, tid, mig);
	fflush(stdout);
	pthread_mutex_unlock(&out_lock);
}

/* hopper - COUNT rounds on alternate CPUs; @arg is the CPU to start on */
static void *hopper(void *arg)
{
	int tid = syscall(SYS_gettid), cpu = (int)(long)arg;
	long long start;
	cpu_set_t set;
	long i;

	prctl(PR_SET_NAME, "hopper");
	start = run_ns(tid);
	for (i = 0; i < count; i++, cpu ^= 1) {
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			perror("sched_setaffinity");
		spin(spin_ms);
		nap(sleep_ms);
	}
	report("hopper", tid, start);
	return NULL;
}

/* busy - other work anywhere: 1 ms of spin, 1 ms of sleep, until the hoppers end */
static void *busy(void *arg __attribute__((unused)))
{
	int tid = syscall(SYS_gettid);
	long long start;

	prctl(PR_SET_NAME, "busy");
	start = run_ns(tid);
	while (!hoppers_done) {
		spin(1);
		nap(1);
	}
	report("busy", tid, start);
	return NULL;
}

/* main - start the hoppers (alternate first CPUs) and the busy threads, wait */
int main(int argc, char **argv)
{
	pthread_t th[64], bt[64];
	long i, n, nbusy = 0;

	if (argc < 5 || argc > 6) {
		fprintf(stderr, "usage: hopper THREADS COUNT SPIN_MS SLEEP_MS [BUSY]\n");
		return 2;
	}
	n = atol(argv[1]);
	count = atol(argv[2]);
	spin_ms = atol(argv[3]);
	sleep_ms = atol(argv[4]);
	if (argc == 6)
		nbusy = atol(argv[5]);
	if (n < 1 || n > 64 || nbusy < 0 || nbusy > 64 || count < 1 || spin_ms < 0 ||
	    sleep_ms < 0) {
		fprintf(stderr, "hopper: 1-64 threads, 0-64 busy, COUNT >= 1\n");
		return 2;
	}
	for (i = 0; i < nbusy; i++)
		pthread_create(&bt[i], NULL, busy, NULL);
	for (i = 0; i < n; i++)
		pthread_create(&th[i], NULL, hopper, (void *)(i & 1));
	for (i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	hoppers_done = 1;
	for (i = 0; i < nbusy; i++)
		pthread_join(bt[i], NULL);
	return 0;
}
