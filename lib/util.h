/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small helpers shared by every layer: error lines, clocks, stop flags, CPUs.
 */
#ifndef FTSCOPE_LIB_UTIL_H
#define FTSCOPE_LIB_UTIL_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#define FTSCOPE_VERSION	"0.1"

/* FT_FREE - free @p and forget it, so that a second fini frees nothing */
#define FT_FREE(p)	do { free(p); (p) = NULL; } while (0)

/* Exit statuses. */
enum {
	FT_EXIT_OK	= 0,
	FT_EXIT_ERR	= 1,	/* runtime error: one line on stderr */
	FT_EXIT_USAGE	= 2,	/* bad command line */
	FT_EXIT_NOFEAT	= 3,	/* the kernel lacks what the command needs */
};

extern volatile sig_atomic_t ft_stop_signal;	/* the signal that asked us to stop */
extern volatile sig_atomic_t ft_dump_signal;	/* SIGUSR2s so far: --flight writes its window */
void ft_install_dump_signal(void);

void ft_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void ft_set_prog(const char *name);
int ft_no_args(int argc, char **argv, const char *help);
uint64_t ft_now_ns(void);
void ft_install_signals(void);
int ft_possible_cpus(void);
int ft_grow(void **v, size_t size, size_t n, size_t more, size_t *cap);
int ft_grow_at(void **v, size_t size, size_t i, size_t *cap);
void ft_hex(char *out, const unsigned char *b, size_t n);

#endif
