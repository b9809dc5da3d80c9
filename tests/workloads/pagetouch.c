// SPDX-License-Identifier: GPL-2.0
/*
 * pagetouch N: map N fresh anonymous pages (huge pages refused) and write one byte
 * to each in touch_pages: N page faults in that function. Prints on stderr
 *   pagetouch pages=N minflt=M
 * M the minor faults getrusage(RUSAGE_THREAD) counted across touch_pages: the
 * oracle of `profile -e page-faults -c 1`.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include "cputime.h"

/* minflt - this thread's minor faults so far */
static long minflt(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_THREAD, &ru) ? -1 : ru.ru_minflt;
}

/* touch_pages - write one byte to each of @n pages at @p */
__attribute__((noinline)) void touch_pages(volatile char *p, long n, long page)
{
	for (long i = 0; i < n; i++)
		p[i * page] = 1;
	__asm__ volatile("" ::: "memory");	/* no tail call */
}

int main(int argc, char **argv)
{
	long n, page = sysconf(_SC_PAGESIZE), f0, f1;
	char *p;

	if (argc != 2 || (n = atol(argv[1])) <= 0) {
		fprintf(stderr, "usage: pagetouch N\n");
		return 2;
	}
	p = mmap(NULL, n * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	madvise(p, n * page, MADV_NOHUGEPAGE);
	f0 = minflt();
	touch_pages(p, n, page);
	f1 = minflt();
	fprintf(stderr, "pagetouch pages=%ld minflt=%ld\n", n, f1 - f0);
	return 0;
}
