// SPDX-License-Identifier: GPL-2.0
/*
 * Error reporting, the monotonic clock (the trace clock of our instances), the
 * signal handlers, which only set flags, and the machine's possible CPUs.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "lib/file.h"
#include "lib/util.h"

volatile sig_atomic_t ft_stop_signal;
volatile sig_atomic_t ft_dump_signal;
static char prog[64] = "ftscope";

/* ft_set_prog - the prefix of error lines, e.g. "ftscope runqlat" */
void ft_set_prog(const char *name)
{
	snprintf(prog, sizeof(prog), "%s", name);
}

/* ft_err - print "ftscope: message" as one line on stderr */
void ft_err(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* ft_now_ns - CLOCK_MONOTONIC in ns: the same clock as trace_clock "mono" */
uint64_t ft_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* on_stop - SIGINT, SIGTERM, SIGHUP, SIGPIPE: remember, and let the loop unwind */
static void on_stop(int sig)
{
	ft_stop_signal = sig;
}

/* on_dump - SIGUSR2: the flight recorder writes what it keeps (perf's --switch-output=signal) */
static void on_dump(int sig)
{
	ft_dump_signal++;
}

/* ft_install_dump_signal - SIGUSR2 counted in ft_dump_signal (--flight only: else it ends us) */
void ft_install_dump_signal(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	sa.sa_handler = on_dump;
	sigaction(SIGUSR2, &sa, NULL);
}

/* on_child - the traced command ended: the handler's only job is to end a blocked poll */
static void on_child(int sig)
{
}

/*
 * ft_install_signals - the handlers only set flags. SA_RESTART, so that a signal
 * during set-up does not fail a tracefs write with EINTR; poll() is never restarted
 * (signal(7)), so the main loop still wakes at once.
 */
void ft_install_signals(void)
{
	static const int stops[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
	struct sigaction sa;
	unsigned int i;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	sa.sa_handler = on_stop;
	for (i = 0; i < sizeof(stops) / sizeof(stops[0]); i++)
		sigaction(stops[i], &sa, NULL);
	sa.sa_handler = on_child;
	sa.sa_flags = SA_RESTART | SA_NOCLDSTOP;
	sigaction(SIGCHLD, &sa, NULL);
}

/**
 * ft_no_args - for a command that takes no arguments: -h/--help prints @help, any
 * other argument is one error line. Returns -1 to go on, or the exit status.
 */
int ft_no_args(int argc, char **argv, const char *help)
{
	if (argc < 2)
		return -1;
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fputs(help, stdout);
		return FT_EXIT_OK;
	}
	ft_err("unexpected argument '%s' (see --help)", argv[1]);
	return FT_EXIT_USAGE;
}

/* ft_possible_cpus - CPUs that may exist (per_cpu directories are made for each) */
int ft_possible_cpus(void)
{
	char *text = ft_read_file("/sys/devices/system/cpu/possible", 4096, NULL);
	const char *p;
	int max = -1;

	for (p = text; p && *p; p++)
		if ((p == text || p[-1] == '-' || p[-1] == ',') && atoi(p) > max)
			max = atoi(p);
	free(text);
	if (max < 0)
		max = (int)sysconf(_SC_NPROCESSORS_CONF) - 1;
	return max < 0 ? 1 : max + 1;
}

/* ft_hex - @n bytes as 2 * @n lowercase hex digits and a NUL into @out */
void ft_hex(char *out, const unsigned char *b, size_t n)
{
	static const char digit[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < n; i++) {
		out[2 * i] = digit[b[i] >> 4];
		out[2 * i + 1] = digit[b[i] & 15];
	}
	out[2 * n] = 0;
}

/**
 * ft_grow - make room for @more elements of @size in the array *@v, of which @n are
 * used and *@cap allocated (doubling, from 64)
 * Returns 0, or -1 when out of memory (*@v is then unchanged).
 */
int ft_grow(void **v, size_t size, size_t n, size_t more, size_t *cap)
{
	size_t c = *cap ? *cap : 64;
	void *p;

	if (n + more <= *cap)
		return 0;
	while (c < n + more && c <= SIZE_MAX / 2)
		c *= 2;
	if (c < n + more || n + more < n || c > SIZE_MAX / size)
		return -1;
	p = realloc(*v, c * size);
	if (!p)
		return -1;
	*v = p;
	*cap = c;
	return 0;
}

/**
 * ft_grow_at - make room for element @i of @size in the array *@v of *@cap allocated
 * (as ft_grow), the elements it adds zeroed
 * Returns 0, or -1 when out of memory (*@v is then unchanged).
 */
int ft_grow_at(void **v, size_t size, size_t i, size_t *cap)
{
	size_t old = *cap;

	if (i < old)
		return 0;
	if (ft_grow(v, size, old, i + 1 - old, cap))
		return -1;
	memset((char *)*v + old * size, 0, (*cap - old) * size);
	return 0;
}
