// SPDX-License-Identifier: GPL-2.0
/*
 * deepblock [SLEEPS MSEC]: known off-CPU time under a deep call chain.
 *   main -> f1 -> f2 -> ... -> f12 -> nap -> nanosleep, SLEEPS x MSEC ms
 *   (default 20 x 50 ms: 1 s), in the main thread, named dp-sleeper.
 * Frame pointers are kept; libc has none, so a frame-pointer walk skips nap (the
 * function that calls into libc) and reads clock_nanosleep, f12, f11, ... main:
 * 14 user frames, deeper than ftrace's userstacktrace keeps (8).
 * Prints its off-CPU time inside the sleeps by the kernel's counters (offwin.h).
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <sys/prctl.h>
#include <time.h>
#include "offwin.h"

static long sleeps = 20, sleep_ms = 50;
static struct offwin off;
static volatile int depth;

/* nap - one sleep of @ms */
__attribute__((noinline)) static void nap(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* f12 - the sleeps, at the bottom of the chain */
__attribute__((noinline)) static int f12(void)
{
	struct offwin_mark m;
	long i;

	for (i = 0; i < sleeps; i++) {
		offwin_begin(&off, &m);
		nap(sleep_ms);
		offwin_end(&off, &m);
	}
	return depth;
}

/* F(n, next) - one link of the chain; the addition after the call keeps it a call */
#define F(n, next)						\
	__attribute__((noinline)) static int n(void)		\
	{							\
		return next() + 1 + depth;			\
	}
F(f11, f12) F(f10, f11) F(f9, f10) F(f8, f9) F(f7, f8) F(f6, f7)
F(f5, f6) F(f4, f5) F(f3, f4) F(f2, f3) F(f1, f2)

int main(int argc, char **argv)
{
	if (argc > 2) {
		sleeps = atol(argv[1]);
		sleep_ms = atol(argv[2]);
	}
	prctl(PR_SET_NAME, "dp-sleeper", 0, 0, 0);
	depth = f1();
	offwin_print(&off);
	return 0;
}
