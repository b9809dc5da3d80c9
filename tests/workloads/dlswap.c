// SPDX-License-Identifier: GPL-2.0
/*
 * dlswap LIB_A LIB_B [CPU_MS]: a library unloaded and another loaded at the same place,
 * for the mappings' checks (tests/live/maps.sh). Built -O2 -fomit-frame-pointer, as
 * the two libraries (this file with -DDLSWAP_LIB=a, or =b -DDLSWAP_PAD_FIRST, -shared
 * -fPIC: the same code but for their names and the place of a pad function, so that B
 * lands where A was and A's names and CFI at B's addresses are wrong).
 *   dl-a: spin_turn -> lib_spin -> a_outer -> lib_leaf   CPU_MS (default 600) of CPU,
 *         then nap_turn -> lib_nap -> a_nap -> nanosleep, 10 x 30 ms
 *   (A dlclosed, B dlopened)
 *   dl-b: the same through b_outer and b_nap, CPU_MS / 2 of CPU
 * Each thread times its spin by its own CPU clock and its naps by offwin.h, and prints
 * "chains comm=dl-X via=spin_turn,lib_spin,X_outer,lib_leaf cpu_us=N" and an offwin
 * line; where each library's code landed (/proc/self/maps) is printed as
 * "dlswap lib=X text=START-END" and "dlswap same=1" when B's code overlaps A's.
 */
#define _GNU_SOURCE
#include <time.h>
#include "padcode.h"

/* noipa: no inlining, cloning or tail calls hide a link of the chains */
#define LINK	__attribute__((noipa))

#ifdef DLSWAP_LIB
#define CAT2(a, b)	a##b
#define CAT(a, b)	CAT2(a, b)
#define OUTER		CAT(DLSWAP_LIB, _outer)
#define NAP		CAT(DLSWAP_LIB, _nap)
#define PAD		CAT(DLSWAP_LIB, _pad)

volatile long lib_sink;

/* a_pad or b_pad - some KB of code: after A's chain, before B's (DLSWAP_PAD_FIRST): the
   libraries are of one size, so that B lands where A was, each one's code where the
   other's pad is */
#define PAD_BODY	{ P256(1) P256(2) P256(3) return x; }
#ifdef DLSWAP_PAD_FIRST
LINK long PAD(long x) PAD_BODY
#endif

/* lib_leaf - @n rounds of arithmetic, the same in both libraries */
LINK long lib_leaf(long n)
{
	return padcode_spin(lib_sink, n);
}

/* a_outer or b_outer - the library's own link */
LINK long OUTER(long n)
{
	long x = lib_leaf(n);

	lib_sink++;
	return x;
}

/* lib_spin - the entry point */
LINK long lib_spin(long n)
{
	long x = OUTER(n);

	lib_sink--;
	return x;
}

/* a_nap or b_nap - one sleep of @ms */
LINK void NAP(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, 0);
	lib_sink++;
}

/* lib_nap - the entry point */
LINK void lib_nap(long ms)
{
	NAP(ms);
	lib_sink--;
}

#ifndef DLSWAP_PAD_FIRST
LINK long PAD(long x) PAD_BODY
#endif
#else
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cputime.h"
#include "offwin.h"

/* One library's phase: its entry points and the thread that runs it. */
struct phase {
	const char	*name;		/* "a" or "b" */
	long		cpu_ms;
	long		(*spin)(long);
	void		(*nap)(long);
	unsigned long	lo, hi;		/* its code, from /proc/self/maps */
};

static volatile long sink;

/* spin_turn - one call into the library, about 10 ms; returns its CPU time in ns */
LINK long long spin_turn(struct phase *ph, long *iters)
{
	long long t0 = cputime_ns(CLOCK_THREAD_CPUTIME_ID), ns;

	sink = ph->spin(*iters);
	ns = cputime_ns(CLOCK_THREAD_CPUTIME_ID) - t0;
	if (ns > 0)
		*iters = *iters * 10000000LL / ns > 1000 ? *iters * 10000000LL / ns : 1000;
	sink++;
	return ns;
}

/* nap_turn - one sleep in the library */
LINK void nap_turn(struct phase *ph)
{
	ph->nap(30);
	sink++;
}

/* run - thread body: the phase's CPU, then its naps, each timed by its own clocks */
static void *run(void *arg)
{
	struct phase *ph = arg;
	struct offwin off = { 0 };
	struct offwin_mark m;
	long long ns = 0;
	long iters = 100000;
	char name[16];
	int i;

	snprintf(name, sizeof(name), "dl-%s", ph->name);
	pthread_setname_np(pthread_self(), name);
	while (ns / 1000000 < ph->cpu_ms)
		ns += spin_turn(ph, &iters);
	for (i = 0; i < 10; i++) {
		offwin_begin(&off, &m);
		nap_turn(ph);
		offwin_end(&off, &m);
	}
	fprintf(stderr, "chains comm=%s via=spin_turn,lib_spin,%s_outer,lib_leaf cpu_us=%lld\n",
		name, ph->name, ns / 1000);
	offwin_print(&off);
	return NULL;
}

/* text_of - where @path's code is mapped (its r-x mapping); false when it is not */
static int text_of(const char *path, unsigned long *lo, unsigned long *hi)
{
	char line[4608], perms[8], file[4096];
	FILE *f = fopen("/proc/self/maps", "r");
	int found = 0;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx-%lx %7s %*s %*s %*s %4095s", lo, hi, perms, file) == 4 &&
		    strchr(perms, 'x') && !strcmp(file, path)) {
			found = 1;
			break;
		}
	if (f)
		fclose(f);
	return found;
}

/* phase - load @path, run its thread, unload it; 0, or -1 with a line */
static int phase(struct phase *ph, const char *path)
{
	char real[4096];
	unsigned long lo, hi;
	pthread_t t;
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);

	if (!h || !realpath(path, real)) {
		fprintf(stderr, "dlswap: %s: %s\n", path, dlerror());
		return -1;
	}
	ph->spin = (long (*)(long))dlsym(h, "lib_spin");
	ph->nap = (void (*)(long))dlsym(h, "lib_nap");
	if (!ph->spin || !ph->nap || !text_of(real, &ph->lo, &ph->hi)) {
		fprintf(stderr, "dlswap: %s: no lib_spin, lib_nap or mapping\n", path);
		return -1;
	}
	fprintf(stderr, "dlswap lib=%s text=%lx-%lx\n", ph->name, ph->lo, ph->hi);
	if (pthread_create(&t, NULL, run, ph) || pthread_join(t, NULL))
		return -1;
	dlclose(h);
	if (text_of(real, &lo, &hi)) {
		fprintf(stderr, "dlswap: %s still mapped after dlclose\n", path);
		return -1;
	}
	return 0;
}

/* main - A's phase, then B's where A was */
int main(int argc, char **argv)
{
	struct phase a = { .name = "a", .cpu_ms = 600 }, b = { .name = "b" };

	if (argc < 3 || argc > 4 || (argc == 4 && (a.cpu_ms = atol(argv[3])) <= 0)) {
		fprintf(stderr, "usage: dlswap LIB_A LIB_B [CPU_MS]\n");
		return 2;
	}
	b.cpu_ms = a.cpu_ms / 2;
	if (phase(&a, argv[1]) || phase(&b, argv[2]))
		return 1;
	fprintf(stderr, "dlswap same=%d\n", b.lo < a.hi && a.lo < b.hi);
	return 0;
}
#endif
