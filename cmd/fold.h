/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The inputs of `ftscope flamegraph`: folded stacks, bpftrace map output and perf
 * script output, each read a line at a time into one table of root-first stacks
 * ("a;b;c") with their counts, the way stackcollapse-bpftrace.pl and
 * stackcollapse-perf.pl fold them. A line that none of them explains is an error,
 * never a frame.
 */
#ifndef FTSCOPE_CMD_FOLD_H
#define FTSCOPE_CMD_FOLD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define FT_FOLD_MAX_FRAMES	1024	/* as many as a flame graph takes */

enum ft_fold_format { FT_FOLD_AUTO, FT_FOLD_FOLDED, FT_FOLD_BPFTRACE, FT_FOLD_PERF };

/* One stack and its values: before (differential graphs only) and after. */
struct ft_fold_ent {
	char	*stack;
	double	a, b;
};

/* The stacks read so far; ft_fold_finish sorts them and merges equal ones. */
struct ft_fold {
	struct ft_fold_ent	*e;
	size_t			n, cap;
	char			*buf;		/* scratch: a stack being joined */
	size_t			bufcap;
};

/*
 * One input, read a line at a time. Its first lines (FT_FOLD_HEAD bytes, and at least
 * up to the first line that is neither blank nor a '#' comment) are read ahead to tell
 * its format; after them each line is read when a parser asks for it. A parser holds
 * the lines of the record it is in (a sample, a map entry) until it drops them, so
 * what is kept is the longest record, never the input.
 */
struct ft_fold_in {
	FILE		*f;
	char		**head;		/* the lines read ahead, strdup'ed */
	size_t		nhead, headcap, headpos;
	size_t		gap, gap_at;	/* gap lines were skipped before head[gap_at] */
	char		**l;		/* line buffers: the first n hold the record's lines */
	size_t		*cap;
	size_t		n, pool;
	size_t		lineno;		/* of the last line read, from 1 */
	bool		watch;		/* the format was told from the head as not bpftrace */
	const char	*what;		/* file name, or "standard input" */
	bool		before;		/* the BEFORE file of --diff */
	bool		diff;		/* the graph is differential */
	/* told by the command, which knows the formats (the reader knows none) */
	bool		(*bpftrace_line)(const char *line);	/* a line of bpftrace's own */
	enum ft_fold_format (*detect)(const struct ft_fold_in *in);	/* the head's format */
};

#define FT_FOLD_HEAD	(1 << 20)

int ft_fold_add(struct ft_fold *fo, const char *stack, double a, double b);
int ft_fold_add_frames(struct ft_fold *fo, const char *const *frames, int n, double count,
		       bool before);
void ft_fold_finish(struct ft_fold *fo);
int ft_fold_print(const struct ft_fold *fo, FILE *f, bool diff);
void ft_fold_free(struct ft_fold *fo);

/* The input's lines (cmd/fold_in.c). */
int ft_fold_open(struct ft_fold_in *in, const char *path);
int ft_fold_next(struct ft_fold_in *in, char **line);
void ft_fold_drop(struct ft_fold_in *in, bool keep_last);
void ft_fold_close(struct ft_fold_in *in);
bool ft_fold_content(const char *l);
int ft_fold_err(const struct ft_fold_in *in, size_t line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Shared by the parsers. */
char *ft_fold_trim(char *s);
void ft_fold_tidy(char *frame);
void ft_fold_strip_offset(char *frame);
char *ft_fold_dso(char *frame);
bool ft_fold_hex(const char *s, size_t len, uint64_t *v);
int ft_fold_bpftrace(struct ft_fold *fo, struct ft_fold_in *in);
bool ft_fold_bpftrace_line(const char *line);
int ft_fold_perf(struct ft_fold *fo, struct ft_fold_in *in);
bool ft_fold_perf_header(const char *line);

#endif
