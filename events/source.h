/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Offline sources of raw pages: a trace.dat (events/tdat.c) or a capture directory
 * of ftscope 0.1 (header_page, formats, cpuN.raw), streamed through the merge.
 */
#ifndef FTSCOPE_EVENTS_SOURCE_H
#define FTSCOPE_EVENTS_SOURCE_H

#include <stdbool.h>
#include <stddef.h>

#include "events/tdat.h"

/* CPUs a capture may name (trace.dat: ids below 4096), for -C with -i. */
#define FT_FILE_MAX_CPUS	4096

struct ft_merge;
struct ft_imap;

struct ft_source {
	struct ft_tdat	tdat;
	bool		is_tdat;
	const char	*dir;
	int		*fd;		/* directory: cpuN.raw, -1 once at its end */
	int		ncpus;
};

int ft_source_open(struct ft_source *src, const char *path, const char *buffer);
void ft_source_close(struct ft_source *src);
char *ft_source_format_read(void *ctx, const char *system, const char *event, size_t *len);
int ft_source_stream(struct ft_source *src, struct ft_merge *m);
int ft_source_cpus(const struct ft_source *src, bool **on);
char *ft_source_tool(const struct ft_source *src, const char *key);
int ft_source_filter(const struct ft_source *src, bool *filtered, bool *follow,
		     struct ft_imap *traced);
int ft_source_kallsyms(const struct ft_source *src, char *path, size_t len);

#endif
