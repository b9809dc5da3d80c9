// SPDX-License-Identifier: GPL-2.0
/*
 * An input of `ftscope flamegraph`, read a line at a time: its first lines are read
 * ahead to tell its format, the rest as a parser asks for them. The parsers keep
 * pointers into the lines of the record they are in (a perf sample, a bpftrace map
 * entry), so those lines stay until the parser drops them; the buffers are used
 * again for the next record. Memory is the head, the longest record and the table
 * of distinct stacks, whatever the size of the input.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/fold.h"
#include "lib/util.h"
#include "output/flame.h"

/* ft_fold_content - a line that tells a format: neither blank nor a '#' comment */
bool ft_fold_content(const char *l)
{
	return l[strspn(l, " \t\r\n")] && l[0] != '#';
}

/* keep - one more line read ahead. Returns 0, or -1 when out of memory. */
static int keep(struct ft_fold_in *in, const char *line)
{
	if (in->nhead == in->headcap) {
		size_t ncap = in->headcap ? in->headcap * 2 : 1024;
		char **h = reallocarray(in->head, ncap, sizeof(*h));

		if (!h)
			return -1;
		in->head = h;
		in->headcap = ncap;
	}
	if (!(in->head[in->nhead] = strdup(line)))
		return -1;
	in->nhead++;
	return 0;
}

/*
 * doomed - would the head fail as folded stacks at its first line that is not
 * blank, and is it neither bpftrace output nor perf script? Then the input is an
 * error unless bpftrace output comes later (printf lines before the maps).
 */
static bool doomed(const struct ft_fold_in *in)
{
	size_t i = 0;
	double a, b;
	char *copy;
	bool bad;

	while (i < in->nhead && !in->head[i][strspn(in->head[i], " \t\r\n")])
		i++;
	if (i == in->nhead || in->detect(in) != FT_FOLD_FOLDED)
		return false;
	copy = strdup(in->head[i]);
	bad = copy && ft_folded_split(copy, false, false, &a, &b);
	free(copy);
	return bad;
}

/*
 * read_head - read ahead FT_FOLD_HEAD bytes of whole lines, and on to the first
 * line with content; when that would be an error as folded stacks, on to the
 * first bpftrace line, counting and not keeping the lines before it (no reader
 * takes them: the folded one stops before, the bpftrace one skips them).
 * Returns 0, or -1 when out of memory.
 */
static int read_head(struct ft_fold_in *in)
{
	bool told = false, skip = false;
	size_t bytes = 0, cap = 0;
	char *buf = NULL;
	ssize_t len;
	int ret = 0;

	while ((len = getline(&buf, &cap, in->f)) > 0) {
		if (skip && !in->bpftrace_line(buf)) {
			in->gap++;
			continue;
		}
		if (keep(in, buf)) {
			ft_err("out of memory");
			ret = -1;
			break;
		}
		told |= ft_fold_content(buf);
		bytes += len;
		if (skip || (bytes >= FT_FOLD_HEAD && told && !(skip = doomed(in))))
			break;
		in->gap_at = in->nhead;		/* where a gap would end */
	}
	free(buf);
	return ret;
}

/**
 * ft_fold_open - open @path ("-": standard input) as @in and read its head.
 * Returns 0, or -1 after an error line.
 */
int ft_fold_open(struct ft_fold_in *in, const char *path)
{
	in->f = strcmp(path, "-") ? fopen(path, "re") : stdin;
	if (!in->f) {
		ft_err("cannot read %s: %s", path, strerror(errno));
		return -1;
	}
	if (read_head(in))
		return -1;
	if (ferror(in->f)) {		/* getline failed, not out of memory */
		ft_err("cannot read %s: %s", in->what, strerror(errno));
		return -1;
	}
	return 0;
}

/* more_slots - room for one more held line. Returns 0, or -1 when out of memory. */
static int more_slots(struct ft_fold_in *in)
{
	size_t ncap = in->pool ? in->pool * 2 : 64, i;
	char **l = reallocarray(in->l, ncap, sizeof(*l));
	size_t *cap;

	if (!l)
		return -1;
	in->l = l;
	cap = reallocarray(in->cap, ncap, sizeof(*cap));
	if (!cap)
		return -1;
	in->cap = cap;
	for (i = in->pool; i < ncap; i++) {
		l[i] = NULL;
		cap[i] = 0;
	}
	in->pool = ncap;
	return 0;
}

/*
 * next_head - the next line read ahead into slot @i. The head's array goes once
 * all of it has been handed out.
 */
static void next_head(struct ft_fold_in *in, size_t i)
{
	if (in->headpos == in->gap_at)
		in->lineno += in->gap;
	free(in->l[i]);
	in->l[i] = in->head[in->headpos];
	in->cap[i] = strlen(in->l[i]) + 1;
	in->head[in->headpos++] = NULL;
	if (in->headpos == in->nhead) {
		free(in->head);
		in->head = NULL;
		in->headcap = 0;
	}
}

/**
 * ft_fold_next - the next line of @in into *@line (with its newline, the parser's
 * to change), held until ft_fold_drop. Returns 1, 0 at the end of the input, or
 * -1 after an error line.
 */
int ft_fold_next(struct ft_fold_in *in, char **line)
{
	size_t i = in->n;

	if (i == in->pool && more_slots(in)) {
		ft_err("out of memory");
		return -1;
	}
	if (in->headpos < in->nhead) {
		next_head(in, i);
	} else if (getline(&in->l[i], &in->cap[i], in->f) < 0) {
		if (!ferror(in->f))
			return 0;
		ft_err("cannot read %s: %s", in->what, strerror(errno));
		return -1;
	} else if (in->watch && in->bpftrace_line(in->l[i])) {
		/* the head said otherwise: reading all of it as bpftrace is too late */
		return ft_fold_err(in, in->lineno + 1, "bpftrace output, after %zu lines that "
				   "told another format: --format bpftrace reads it", in->nhead);
	}
	in->n++;
	in->lineno++;
	*line = in->l[i];
	return 1;
}

/* ft_fold_drop - let go of the lines held (with @keep_last all but the last one) */
void ft_fold_drop(struct ft_fold_in *in, bool keep_last)
{
	char *l;
	size_t cap;

	if (keep_last && in->n > 1) {
		l = in->l[0];
		cap = in->cap[0];
		in->l[0] = in->l[in->n - 1];
		in->cap[0] = in->cap[in->n - 1];
		in->l[in->n - 1] = l;
		in->cap[in->n - 1] = cap;
	}
	in->n = keep_last && in->n;
}

/* ft_fold_close - close the input and free its lines */
void ft_fold_close(struct ft_fold_in *in)
{
	size_t i;

	if (in->f && in->f != stdin)
		fclose(in->f);
	for (i = in->headpos; i < in->nhead; i++)
		free(in->head[i]);
	free(in->head);
	for (i = 0; i < in->pool; i++)
		free(in->l[i]);
	free(in->l);
	free(in->cap);
	in->f = NULL;
	in->head = in->l = NULL;
	in->cap = NULL;
	in->nhead = in->headpos = in->n = in->pool = 0;
}

/**
 * ft_fold_err - one error line about line @line (from 1) of an input; control
 * characters quoted from it print as '?'. Returns -1.
 */
int ft_fold_err(const struct ft_fold_in *in, size_t line, const char *fmt, ...)
{
	char msg[512], *p;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	for (p = msg; *p; p++)		/* what the input quotes stays on one line */
		if (((unsigned char)*p < ' ' && *p != '\t') || *p == 0x7f)
			*p = '?';
	ft_err("%s line %zu: %s", in->what, line, msg);
	return -1;
}
