// SPDX-License-Identifier: GPL-2.0
/*
 * faulter MB MSEC [TIMES]: touch MB megabytes of fresh anonymous memory, one page fault
 * per 4 KB page (huge pages refused), then burn MSEC milliseconds of CPU time (measured
 * on the process CPU clock, so the answer does not depend on how busy the machine is).
 * Known answers: page-faults >= MB * 256, task-clock >= MSEC. With TIMES, writes there
 * "cpu MS wall MS": its own CPU and CLOCK_MONOTONIC times from main to the end (the
 * wall's excess bounds the time the task was held off its CPU, the host's steal too).
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

/* clock_ms - clock @id's time, in milliseconds */
static double clock_ms(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* cpu_ms - CPU time this process has used, in milliseconds */
static double cpu_ms(void)
{
	return clock_ms(CLOCK_PROCESS_CPUTIME_ID);
}

int main(int argc, char **argv)
{
	long mb, ms, page = sysconf(_SC_PAGESIZE);
	volatile unsigned long x = 0;
	double end, wall0 = clock_ms(CLOCK_MONOTONIC), cpu0 = cpu_ms();
	FILE *times;
	char *p;

	if ((argc != 3 && argc != 4) || (mb = atol(argv[1])) < 0 || (ms = atol(argv[2])) < 0) {
		fprintf(stderr, "usage: faulter MB MSEC [TIMES]\n");
		return 2;
	}
	if (mb) {
		p = mmap(NULL, mb << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			 -1, 0);
		if (p == MAP_FAILED) {
			perror("mmap");
			return 1;
		}
		madvise(p, mb << 20, MADV_NOHUGEPAGE);
		for (long off = 0; off < mb << 20; off += page)
			p[off] = 1;
	}
	end = cpu_ms() + ms;
	while (cpu_ms() < end)
		for (int i = 0; i < 10000; i++)
			x++;
	if (argc == 4) {
		times = fopen(argv[3], "w");
		if (!times) {
			perror(argv[3]);
			return 1;
		}
		fprintf(times, "cpu %.3f wall %.3f\n", cpu_ms() - cpu0,
			clock_ms(CLOCK_MONOTONIC) - wall0);
		fclose(times);
	}
	return 0;
}
