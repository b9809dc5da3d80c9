/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftscope's VERSION text in a trace.dat: what a recording must tell its readers
 * beyond the records. One line each:
 *
 *   ftscope VERSION
 *   filter follow|exact PID...	the pids the kernel recorded (pid-filtered runs)
 *   cpus LIST			-C's CPUs (0,2-3): those -i reports when it has no -C
 *   probes METHOD		funclat/funccount: enum ft_fmethod for kernel functions
 *   fn KIND ADDR NAME		k(ernel), u(ser) or s(yscall); ADDR hex; NAME as reported
 *   ev FUNC KIND SYS NAME	the event SYS:NAME: function index (-1: by ip), fcall kind
 */
#ifndef FTSCOPE_EVENTS_TOOL_H
#define FTSCOPE_EVENTS_TOOL_H

#include <stdbool.h>
#include <stddef.h>

#include "events/funcs.h"
#include "lib/pidset.h"

/* A run's probes as its VERSION text keeps them. */
struct ft_tool_probes {
	struct ft_funcs		funcs;
	struct ft_pev		*ev;
	int			nev;
};

char *ft_tool_text(const struct ft_imap *traced, bool follow, const bool *cpu_on, int ncpus,
		   const struct ft_tool_probes *pr);
bool ft_tool_ours(const char *text, size_t len);
int ft_tool_filter(const char *filter, bool *follow, struct ft_imap *pids);
const char *ft_tool_line(const char *text, const char *key);
int ft_tool_probes(const char *text, const struct ft_func_req *req, struct ft_tool_probes *pr,
		   const char *path);

#endif
