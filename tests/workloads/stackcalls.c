// SPDX-License-Identifier: GPL-2.0
/*
 * stackcalls A B [MS]: leaf() makes A getppid system calls under caller_a() and B under
 * caller_b(), each by its own syscall instruction (no C library frame between, so
 * a frame-pointer walk from the kernel's user registers starts in leaf, and the
 * program keeps frame pointers): known counts per user call chain
 * (leaf <- caller_a <- main, leaf <- caller_b <- main) for hist --key ustack, and A + B
 * under the system call's one kernel path for --key kstack. Prints "a A b B" on stderr, then
 * lives MS milliseconds more (default 0): a tracer that reads the process's maps
 * while it runs (ftrace's user stacks are addresses) has the time to.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/*
 * leaf - one getppid system call (110 on x86-64), in a frame of its own: gcc gives a
 * function that calls nothing no frame pointer, whatever the options say
 */
long leaf(void);
asm(".text\n"
    ".type leaf, @function\n"
    "leaf:\n"
    "	push %rbp\n"
    "	mov %rsp, %rbp\n"
    "	mov $110, %eax\n"
    "	syscall\n"
    "	pop %rbp\n"
    "	ret\n"
    ".size leaf, .-leaf\n");

/* caller_a - @n calls of leaf */
static __attribute__((noinline)) long caller_a(long n)
{
	long i, s = 0;

	for (i = 0; i < n; i++)
		s += leaf();
	asm volatile("" ::: "memory");	/* not a tail call */
	return s;
}

/* caller_b - @n calls of leaf, from another place */
static __attribute__((noinline)) long caller_b(long n)
{
	long i, s = 0;

	for (i = 0; i < n; i++)
		s += leaf();
	asm volatile("" ::: "memory");
	return s;
}

/* main - A under caller_a, then B under caller_b */
int main(int argc, char **argv)
{
	long a, b, s, ms = argc > 3 ? atol(argv[3]) : 0;
	struct timespec ts = { ms / 1000, ms % 1000 * 1000000 };

	if (argc < 3 || argc > 4 || (a = atol(argv[1])) < 0 || (b = atol(argv[2])) < 0 ||
	    ms < 0) {
		fprintf(stderr, "usage: stackcalls A B [MS]\n");
		return 2;
	}
	s = caller_a(a);
	s += caller_b(b);
	fprintf(stderr, "a %ld b %ld\n", a, b);
	nanosleep(&ts, NULL);
	return s < 0;
}
