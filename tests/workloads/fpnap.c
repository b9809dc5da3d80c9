// SPDX-License-Identifier: GPL-2.0
/*
 * fpnap [SLEEPS MSEC]: a known off-CPU time in one function, whole on the stack.
 *   main -> nap_here -> the nanosleep system call, SLEEPS x MSEC ms (default
 *   20 x 50 ms: 1 s), in the main thread, named fp-napper.
 * nap_here makes the system call itself (x86-64: inline syscall), so the user IP
 * the kernel records is inside it, and the frame-pointer walk goes on from its own
 * frame to main: no libc frame (built without frame pointers) hides it, as libc's
 * nanosleep hides the sleeper's nap_here. Elsewhere it calls libc's nanosleep.
 * Prints its off-CPU time inside the sleeps by the kernel's counters (offwin.h).
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <sys/prctl.h>
#include <time.h>
#include "offwin.h"

/* nap_here - one sleep of @ms, the system call made here */
__attribute__((noinline)) static long nap_here(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
#ifdef __x86_64__
	long ret;

	asm volatile("syscall" : "=a"(ret) : "0"(35L /* SYS_nanosleep */), "D"(&ts), "S"(0L)
		     : "rcx", "r11", "memory");
	return ret;
#else
	return nanosleep(&ts, NULL);
#endif
}

int main(int argc, char **argv)
{
	long sleeps = argc > 2 ? atol(argv[1]) : 20, ms = argc > 2 ? atol(argv[2]) : 50, i;
	struct offwin off = { 0 };
	struct offwin_mark m;

	prctl(PR_SET_NAME, "fp-napper", 0, 0, 0);
	for (i = 0; i < sleeps; i++) {
		offwin_begin(&off, &m);
		nap_here(ms);
		offwin_end(&off, &m);
	}
	offwin_print(&off);
	return 0;
}
