/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The trace.dat reader's state (events/tdat.h): the file's pieces, its CPUs' data and
 * its buffers, shared by the reader's files (tdat.c reads the sections and options,
 * tdat_buffers.c picks the buffer, tdat_stats.c reads the CPU stats).
 */
#ifndef FTSCOPE_EVENTS_TDAT_TYPES_H
#define FTSCOPE_EVENTS_TDAT_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A piece of the file: in the mapping, or decompressed into memory. */
struct ft_blob {
	const char	*data;
	size_t		len;
};

struct ft_tdat_fmt {
	const char	*system;	/* "ftrace" for the ftrace formats */
	char		name[64];
	struct ft_blob	text;
};

/* One CPU's data, and where a reader is in it. */
struct ft_tdat_cpu {
	uint64_t	off, size;	/* in the file (compressed size when compressed) */
	uint64_t	pos;		/* uncompressed: bytes handed out */
	unsigned int	chunks;		/* compressed: chunks not yet read */
	uint64_t	next_chunk;	/* file offset of the next chunk header */
	unsigned char	*chunk;		/* the current chunk, decompressed */
	size_t		chunk_len, chunk_pos;
};

enum { FT_COMP_NONE, FT_COMP_ZLIB, FT_COMP_ZSTD };

struct ft_tdat {
	const char		*path;
	const unsigned char	*map;
	size_t			len;
	int			version;
	int			long_size;
	int			comp;
	unsigned int		page_size;
	struct ft_blob		header_page, header_event, kallsyms, printk, cmdlines;
	struct ft_tdat_fmt	*fmt;
	int			nfmt;
	int			ncpus;
	struct ft_tdat_cpu	*cpu;
	const char		*buffer;	/* the buffer read, "" the top one */
	const char		*want;		/* asked for ("top"); NULL: default */
	bool			picked;		/* an instance's: the top had no data */
	bool			has_top;	/* the file has a top buffer */
	const char		**names;	/* the instances', in file order */
	uint64_t		*v6off;		/* v6: their CPU tables */
	int			nnames;
	int			skipped;	/* instances with damaged tables, not read */
	char			buffers[256];	/* "top, a, b": for notes and errors */
	struct ft_blob		*cpustat;	/* CPUSTAT options, in file order */
	int			ncpustat;
	struct ft_blob		clock, uname;
	struct ft_blob		*procmaps;	/* PROCMAPS options: one per process */
	int			nprocmaps;
	struct ft_blob		tool;		/* VERSION: who wrote it (ftscope adds its filter) */
	struct ft_blob		samples;	/* SAMPLES: profile's samples, or empty */
	struct ft_blob		tgids;		/* TGIDS: the threads' processes, or empty */
	void			**owned;	/* decompressed sections */
	int			nowned;
	uint64_t		inflated;	/* bytes decompressed so far */
	char			err[160];	/* what is wrong, after a failed open */
};

#endif
