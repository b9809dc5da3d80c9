// SPDX-License-Identifier: GPL-2.0
/*
 * selfcount MB MSEC NAPS NAPMS: wait for one byte (or EOF) on stdin, the gate that lets
 * tools attach first; then touch MB megabytes of fresh memory (one fault per 4 KB page),
 * burn MSEC ms of CPU (process CPU clock), and sleep NAPS times NAPMS ms. Before it
 * exits it prints the kernel's own counts of the work after the gate, on one line:
 *   run_ns=N minflt=N majflt=N nvcsw=N nivcsw=N utime_us=N stime_us=N
 * run_ns from /proc/thread-self/schedstat (the scheduler's sum_exec_runtime), the rest
 * from getrusage(RUSAGE_SELF). The memory is unmapped before the last reading, so the
 * exit that follows (still counted by a tool attached to the process) is short.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

struct counts {
	unsigned long long run_ns;
	struct rusage ru;
};

/* cpu_ms - CPU time this process has used, in milliseconds */
static double cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* take - read the scheduler's run time and the resource usage of this thread */
static int take(struct counts *c)
{
	FILE *f = fopen("/proc/thread-self/schedstat", "r");
	int ok;

	if (!f)
		return -1;
	ok = fscanf(f, "%llu", &c->run_ns) == 1;
	fclose(f);
	return ok && !getrusage(RUSAGE_SELF, &c->ru) ? 0 : -1;
}

/* us - a timeval in microseconds */
static long long us(struct timeval tv)
{
	return tv.tv_sec * 1000000LL + tv.tv_usec;
}

/* work - the faults, the spin and the naps */
static int work(long mb, long ms, long naps, long napms)
{
	struct timespec nap = { napms / 1000, (napms % 1000) * 1000000L };
	long page = sysconf(_SC_PAGESIZE);
	volatile unsigned long x = 0;
	char *p = NULL;
	double end;

	if (mb) {
		p = mmap(NULL, mb << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			 -1, 0);
		if (p == MAP_FAILED)
			return -1;
		madvise(p, mb << 20, MADV_NOHUGEPAGE);
		for (long off = 0; off < mb << 20; off += page)
			p[off] = 1;
	}
	end = cpu_ms() + ms;
	while (cpu_ms() < end)
		for (int i = 0; i < 10000; i++)
			x++;
	for (long i = 0; i < naps; i++)
		nanosleep(&nap, NULL);
	if (p)
		munmap(p, mb << 20);
	return 0;
}

/* main - gate, work, print the deltas */
int main(int argc, char **argv)
{
	long mb, ms, naps, napms;
	struct counts a, b;
	char c;

	if (argc != 5 || (mb = atol(argv[1])) < 0 || (ms = atol(argv[2])) < 0 ||
	    (naps = atol(argv[3])) < 0 || (napms = atol(argv[4])) < 0) {
		fprintf(stderr, "usage: selfcount MB MSEC NAPS NAPMS\n");
		return 2;
	}
	if (read(0, &c, 1) < 0 || take(&a) || work(mb, ms, naps, napms) || take(&b)) {
		perror("selfcount");
		return 1;
	}
	printf("run_ns=%llu minflt=%ld majflt=%ld nvcsw=%ld nivcsw=%ld utime_us=%lld stime_us=%lld\n",
	       b.run_ns - a.run_ns, b.ru.ru_minflt - a.ru.ru_minflt,
	       b.ru.ru_majflt - a.ru.ru_majflt, b.ru.ru_nvcsw - a.ru.ru_nvcsw,
	       b.ru.ru_nivcsw - a.ru.ru_nivcsw, us(b.ru.ru_utime) - us(a.ru.ru_utime),
	       us(b.ru.ru_stime) - us(a.ru.ru_stime));
	return 0;
}
