/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace.dat files as trace-cmd writes and reads them: versions 6 and 7 (sections,
 * zstd or zlib compression), read in place from a mapping; and a version 6 writer
 * whose per-CPU data is copied in the kernel from files filled with splice.
 */
#ifndef FTSCOPE_EVENTS_TDAT_H
#define FTSCOPE_EVENTS_TDAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "events/tdat_types.h"

/* The first bytes of every trace.dat. */
extern const unsigned char ft_tdat_magic[10];

/* Option ids (trace-cmd.dat(5)). */
enum {
	FT_TDAT_OPT_DONE	= 0,
	FT_TDAT_OPT_CPUSTAT	= 2,
	FT_TDAT_OPT_BUFFER	= 3,
	FT_TDAT_OPT_TRACECLOCK	= 4,
	FT_TDAT_OPT_UNAME	= 5,
	FT_TDAT_OPT_CPUCOUNT	= 8,
	FT_TDAT_OPT_VERSION	= 9,
	FT_TDAT_OPT_PROCMAPS	= 10,
	FT_TDAT_OPT_HEADER_INFO	= 16,
	FT_TDAT_OPT_FTRACE_EVENTS = 17,
	FT_TDAT_OPT_EVENT_FORMATS = 18,
	FT_TDAT_OPT_KALLSYMS	= 19,
	FT_TDAT_OPT_PRINTK	= 20,
	FT_TDAT_OPT_CMDLINES	= 21,
	FT_TDAT_OPT_SAMPLES	= 0x4654,	/* ftscope's own: perf samples (events/sample.h) */
	FT_TDAT_OPT_TGIDS	= 0x4655,	/* ftscope's own: "TID TGID" lines, the threads
						   that lived when the recording began */
};

bool ft_tdat_is(const char *path);
int ft_tdat_open(struct ft_tdat *t, const char *path, const char *buffer);
void ft_tdat_close(struct ft_tdat *t);
char *ft_tdat_format_read(void *t, const char *system, const char *event, size_t *len);
long ft_tdat_map_page(struct ft_tdat *t, int cpu, const void **page);
bool ft_tdat_lost(const struct ft_tdat *t, int cpu, unsigned long long *lost);
long ft_tdat_next_page(struct ft_tdat *t, int cpu, void *buf, size_t size);
void ft_tdat_clock(const struct ft_tdat *t, char *buf, size_t len);

/* What a version 6 file holds besides the per-CPU data. */
struct ft_tdat_meta {
	unsigned int		page_size;
	int			long_size;
	struct ft_blob		header_page, header_event, kallsyms, printk, cmdlines;
	const struct ft_tdat_fmt *fmt;		/* sorted by system */
	int			nfmt;
	int			ncpus;
	const struct ft_blob	*cpustat;	/* ncpus of them, or NULL */
	struct ft_blob		clock, uname, tool;
	const struct ft_blob	*procmaps;
	int			nprocmaps;
	struct ft_blob		samples;	/* profile's samples (events/sample.h), or empty */
	struct ft_blob		tgids;		/* "TID TGID" lines (events/tasks.h), or empty */
};

int ft_tdat_write(int out, const struct ft_tdat_meta *meta, const int *cpu_fd,
		  const uint64_t *cpu_size);

#endif
