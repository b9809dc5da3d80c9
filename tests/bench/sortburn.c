// SPDX-License-Identifier: GPL-2.0
/*
 * sortburn SECS: a CPU-bound program built as distributions build theirs (-O2
 * -fomit-frame-pointer, Makefile), whose time goes through libc: qsort of 4096 keys
 * with a comparator of its own, again and again for SECS seconds of its own CPU time
 * (CLOCK_THREAD_CPUTIME_ID). Its stacks are main -> sort_round -> qsort -> libc's
 * msort_with_tmp (recursing) -> by_key: whole only by call frame information. As its
 * last act it prints "sortburn rounds=N cpu_ms=N" on stderr: the work done.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define NKEYS	4096

static unsigned int keys[NKEYS];

/* by_key - qsort's comparator: libc calls it from msort_with_tmp */
__attribute__((noipa)) static int by_key(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	return (x > y) - (x < y);
}

/* sort_round - the keys shuffled from @seed, then sorted; returns the next seed */
__attribute__((noipa)) static unsigned int sort_round(unsigned int seed)
{
	int i;

	for (i = 0; i < NKEYS; i++)
		keys[i] = seed = seed * 1103515245u + 12345u;
	qsort(keys, NKEYS, sizeof(keys[0]), by_key);
	return seed ^ keys[NKEYS / 2];
}

/* cpu_ms - this thread's CPU time in ms */
static long cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000;
}

/* main - sort rounds until SECS seconds of CPU time are spent */
int main(int argc, char **argv)
{
	long secs = argc == 2 ? atol(argv[1]) : 0, rounds = 0;
	unsigned int seed = 1;

	if (secs <= 0) {
		fprintf(stderr, "usage: sortburn SECS\n");
		return 2;
	}
	while (cpu_ms() < secs * 1000) {
		seed = sort_round(seed);
		rounds++;
	}
	fprintf(stderr, "sortburn rounds=%ld cpu_ms=%ld seed=%u\n", rounds, cpu_ms(), seed);
	return 0;
}
