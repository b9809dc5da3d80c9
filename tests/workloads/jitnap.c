// SPDX-License-Identifier: GPL-2.0
/*
 * jitnap [COUNT MSEC]: sleeps COUNT x MSEC ms inside generated code, as a JIT's
 * would be: a nanosleep stub copied into anonymous executable memory and named in
 * /tmp/perf-PID.map (the perf map convention of JVMs, node and .NET). x86-64 only.
 * Prints its off-CPU time inside the calls by the kernel's counters (offwin.h).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include "offwin.h"

/* mov eax, 35 (SYS_nanosleep); syscall; ret: rdi and rsi are the caller's arguments */
static const unsigned char stub[] = { 0xb8, 0x23, 0x00, 0x00, 0x00, 0x0f, 0x05, 0xc3 };

/* main - generate the stub, name it, call it */
int main(int argc, char **argv)
{
	long count = argc > 2 ? atol(argv[1]) : 10, ms = argc > 2 ? atol(argv[2]) : 50, i;
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	long (*nap)(const struct timespec *, struct timespec *);
	struct offwin off = { 0 };
	struct offwin_mark m;
	char path[64];
	void *code;
	FILE *f;

#ifndef __x86_64__
	fprintf(stderr, "jitnap: x86-64 only\n");
	return 3;
#endif
	code = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (code == MAP_FAILED)
		return 1;
	memcpy(code, stub, sizeof(stub));
	if (mprotect(code, 4096, PROT_READ | PROT_EXEC))
		return 1;
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", getpid());
	f = fopen(path, "w");
	if (!f)
		return 1;
	fprintf(f, "%lx %zx jit_nap\n", (unsigned long)code, sizeof(stub));
	fclose(f);
	nap = (long (*)(const struct timespec *, struct timespec *))code;
	for (i = 0; i < count; i++) {
		offwin_begin(&off, &m);
		nap(&ts, NULL);
		offwin_end(&off, &m);
	}
	offwin_print(&off);
	return 0;
}
