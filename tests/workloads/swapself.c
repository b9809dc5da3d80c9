// SPDX-License-Identifier: GPL-2.0
/*
 * swapself NEWBUILD [CPU_MS [WAIT_MS]]: a program whose binary is replaced on disk while it runs
 * (a rebuild, a package upgrade), for the mappings' checks (tests/live/maps.sh). Built
 * -O2 -fomit-frame-pointer; NEWBUILD is this file built with -DPAD, which puts a large
 * function (pad_code) where this build has its chain, so that reading the new file for
 * the old process names pad_code.
 *   main -> turn -> spin_leaf    CPU_MS (default 600) of CPU; halfway NEWBUILD is
 *                                renamed over this program's file
 *   main -> nap_outer -> nap     10 x 30 ms of sleep, after the rename
 * With WAIT_MS it sleeps that long first (a tracer attaches with -p: its mappings are
 * then read from /proc). It times its spin by its own CPU clock ("chains
 * comm=swapself via=main,turn,spin_leaf cpu_us=N"), its naps by offwin.h, and prints
 * "swapself replaced=PATH" at the rename.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include "cputime.h"
#include "offwin.h"
#include "padcode.h"

/* noipa: no inlining, cloning or tail calls hide a link of the chains */
#define LINK	__attribute__((noipa))

static volatile long sink;

#ifdef PAD
/* pad_code - 64 KB of code where the other build has its chain */
LINK long pad_code(long x)
{
	P256(1) P256(2) P256(3) P256(4) P256(5) P256(6) P256(7) P256(8)
	P256(9) P256(10) P256(11) P256(12) P256(13) P256(14) P256(15) P256(16)
	return x;
}
#endif

/* spin_leaf - @n rounds of arithmetic */
LINK long spin_leaf(long n)
{
	return padcode_spin(sink, n);
}

/* turn - one call of about 10 ms; returns its CPU time in ns */
LINK long long turn(long *iters)
{
	long long t0 = cputime_ns(CLOCK_THREAD_CPUTIME_ID), ns;

	sink = spin_leaf(*iters);
	ns = cputime_ns(CLOCK_THREAD_CPUTIME_ID) - t0;
	if (ns > 0)
		*iters = *iters * 10000000LL / ns > 1000 ? *iters * 10000000LL / ns : 1000;
	sink++;
	return ns;
}

/* nap - one sleep of @ms */
LINK void nap(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
	sink++;
}

/* nap_outer - ten naps, each timed by the thread's own clocks */
LINK void nap_outer(struct offwin *off)
{
	struct offwin_mark m;
	int i;

	for (i = 0; i < 10; i++) {
		offwin_begin(off, &m);
		nap(30);
		offwin_end(off, &m);
	}
	sink++;
}

/* main - spin, replace the program's file halfway, spin, nap */
int main(int argc, char **argv)
{
	long long ns = 0, cpu_ms = 600, wait_ms = 0;
	struct offwin off = { 0 };
	char self[PATH_MAX];
	long iters = 100000;
	ssize_t n;
	int done = 0;

	if (argc < 2 || argc > 4 || (argc >= 3 && (cpu_ms = atol(argv[2])) <= 0) ||
	    (argc == 4 && (wait_ms = atol(argv[3])) < 0)) {
		fprintf(stderr, "usage: swapself NEWBUILD [CPU_MS [WAIT_MS]]\n");
		return 2;
	}
	if (wait_ms) {
		struct timespec w = { wait_ms / 1000, (wait_ms % 1000) * 1000000L };

		nanosleep(&w, NULL);
	}
#ifdef PAD
	sink = pad_code(sink);
#endif
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return 1;
	self[n] = 0;
	while (ns / 1000000 < cpu_ms) {
		ns += turn(&iters);
		if (!done && ns / 1000000 >= cpu_ms / 2) {
			if (rename(argv[1], self)) {
				perror("swapself: rename");
				return 1;
			}
			fprintf(stderr, "swapself replaced=%s\n", self);
			done = 1;
		}
	}
	nap_outer(&off);
	fprintf(stderr, "chains comm=swapself via=main,turn,spin_leaf cpu_us=%lld\n", ns / 1000);
	offwin_print(&off);
	return 0;
}
