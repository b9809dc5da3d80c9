// SPDX-License-Identifier: GPL-2.0
/*
 * mallocs N1 N2: N1 calls of libc's malloc from site_one, then N2 from site_two,
 * each block freed at once. The pointer goes through an empty asm, so the compiler
 * can neither drop the pair nor merge the two sites. Known answers for a uprobe on
 * malloc: exactly N1 calls under site_one and N2 under site_two. Prints on stderr
 *   mallocs site_one=N1 site_two=N2
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>

/* site_one - @n malloc calls of @size bytes */
__attribute__((noinline)) void site_one(long n, size_t size)
{
	for (long i = 0; i < n; i++) {
		void *p = malloc(size);

		__asm__ volatile("" : : "r"(p) : "memory");
		free(p);
	}
	__asm__ volatile("" ::: "memory");	/* no tail call */
}

/* site_two - as site_one, another call site of another size */
__attribute__((noinline)) void site_two(long n, size_t size)
{
	for (long i = 0; i < n; i++) {
		void *p = malloc(size + 8);

		__asm__ volatile("" : : "r"(p) : "memory");
		free(p);
	}
	__asm__ volatile("" ::: "memory");
}

int main(int argc, char **argv)
{
	long n1, n2;

	if (argc != 3 || (n1 = atol(argv[1])) < 0 || (n2 = atol(argv[2])) < 0) {
		fprintf(stderr, "usage: mallocs N1 N2\n");
		return 2;
	}
	site_one(n1, 24);
	site_two(n2, 40);
	fprintf(stderr, "mallocs site_one=%ld site_two=%ld\n", n1, n2);
	return 0;
}
