// SPDX-License-Identifier: GPL-2.0
/*
 * mallocs N1 N2: N1 calls of libc's malloc under site_one, then N2 under site_two,
 * each block freed at once. The pointer goes through an empty asm, so the compiler
 * can neither drop the pair nor merge the two sites. Known answers for a uprobe on
 * malloc: exactly N1 calls under site_one and N2 under site_two. Prints on stderr
 *   mallocs site_one=N1 site_two=N2
 *
 * Each site calls malloc through a function of its own (malloc_one, malloc_two):
 * at a uprobe on the entry of Debian's malloc (no frame pointers, its first
 * instruction push %r12, so the kernel's entry fix-up for push %rbp or endbr64 does
 * not apply) a frame-pointer callchain loses the immediate caller, whose return
 * address is at the stack pointer, not in the frame chain: perf record -g shows
 * main;site_one;malloc. The sites are one frame further up, where both see them.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>

/* malloc_one - one malloc of @size bytes, freed */
__attribute__((noinline)) void malloc_one(size_t size)
{
	void *p = malloc(size);

	__asm__ volatile("" : : "r"(p) : "memory");
	free(p);
}

/* malloc_two - as malloc_one, another call site */
__attribute__((noinline)) void malloc_two(size_t size)
{
	void *p = malloc(size + 8);

	__asm__ volatile("" : : "r"(p) : "memory");
	free(p);
}

/* site_one - @n malloc calls of @size bytes, through malloc_one */
__attribute__((noinline)) void site_one(long n, size_t size)
{
	for (long i = 0; i < n; i++)
		malloc_one(size);
	__asm__ volatile("" ::: "memory");	/* no tail call */
}

/* site_two - @n malloc calls through malloc_two */
__attribute__((noinline)) void site_two(long n, size_t size)
{
	for (long i = 0; i < n; i++)
		malloc_two(size);
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
