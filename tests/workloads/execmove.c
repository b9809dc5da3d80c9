// SPDX-License-Identifier: GPL-2.0
/*
 * execmove [NAPS MSEC]: a program that execs itself on CPU 1, moves to CPU 0 and there
 * maps a library (dlopen of zlib) whose code is on the stack of each nap:
 *   main -> inflateInit_ (libz) -> ... -> nap_alloc (zlib's zalloc callback) -> nanosleep
 * NAPS x MSEC ms (default 10 x 20 ms), named em-napper. The kernel writes the exec's
 * COMM record into CPU 1's sampling ring and the library's MMAP2 record into CPU 0's:
 * a reader that applies them in ring order instead of time order maps the library,
 * then forgets it at the exec, and the stacks stop at libz's code.
 * Prints its off-CPU time inside the naps (offwin.h) and "execmove: exec cpu A, map cpu B".
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>
#include "offwin.h"

/* zlib's z_stream, as far as inflateInit_ reads it (zlib.h is not needed to build) */
struct zs {
	const void	*next_in;
	unsigned int	avail_in;
	unsigned long	total_in;
	void		*next_out;
	unsigned int	avail_out;
	unsigned long	total_out;
	const char	*msg;
	void		*state;
	void		*(*zalloc)(void *, unsigned int, unsigned int);
	void		(*zfree)(void *, void *);
	void		*opaque;
	int		data_type;
	unsigned long	adler, reserved;
};

static long nap_ms = 20;
static struct offwin off;

/* nap_alloc - zlib's allocator: one nap, then the memory */
__attribute__((noinline)) static void *nap_alloc(void *opaque __attribute__((unused)), unsigned int n,
						     unsigned int size)
{
	struct timespec ts = { nap_ms / 1000, (nap_ms % 1000) * 1000000L };
	struct offwin_mark m;

	offwin_begin(&off, &m);
	nanosleep(&ts, NULL);
	offwin_end(&off, &m);
	return calloc(n, size);
}

/* nap_free - zlib's free */
static void nap_free(void *opaque __attribute__((unused)), void *p)
{
	free(p);
}

/* pin - run on @cpu only; 0, or -1 */
static int pin(int cpu)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	return sched_setaffinity(0, sizeof(s), &s);
}

int main(int argc, char **argv)
{
	int (*init)(struct zs *, const char *, int), (*end)(struct zs *);
	long naps = argc > 2 ? atol(argv[1]) : 10, i;
	int exec_cpu;
	void *z;

	if (argc > 2)
		nap_ms = atol(argv[2]);
	if (argc < 4) {		/* the first image: exec again, on CPU 1 */
		char n[24], ms[24];

		snprintf(n, sizeof(n), "%ld", naps);
		snprintf(ms, sizeof(ms), "%ld", nap_ms);
		if (pin(1))
			return 2;
		execl("/proc/self/exe", argv[0], n, ms, "moved", (char *)NULL);
		return 2;
	}
	exec_cpu = sched_getcpu();
	if (pin(0))		/* the library is mapped on another CPU than the exec */
		return 2;
	z = dlopen("libz.so.1", RTLD_NOW);
	init = z ? (int (*)(struct zs *, const char *, int))dlsym(z, "inflateInit_") : NULL;
	end = z ? (int (*)(struct zs *))dlsym(z, "inflateEnd") : NULL;
	if (!init || !end) {
		fprintf(stderr, "execmove: no libz.so.1\n");
		return 2;
	}
	fprintf(stderr, "execmove: exec cpu %d, map cpu %d\n", exec_cpu, sched_getcpu());
	prctl(PR_SET_NAME, "em-napper");
	for (i = 0; i < naps; i++) {
		struct zs s;

		memset(&s, 0, sizeof(s));
		s.zalloc = nap_alloc;
		s.zfree = nap_free;
		if (init(&s, "1.2.13", (int)sizeof(s)) != 0)
			return 3;
		end(&s);
	}
	offwin_print(&off);
	return 0;
}
