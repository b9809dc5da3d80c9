/* SPDX-License-Identifier: GPL-2.0 */
/*
 * timehist's row text (analyzers/timehist_out.c): perf's header, task names, times and
 * durations written into a queue of rows handed to the output in blocks. The pieces of
 * every row are inline here; timehist.c, timehist_rows.c and timehist_summary.c use it.
 */
#ifndef FTSCOPE_ANALYZERS_TIMEHIST_OUT_H
#define FTSCOPE_ANALYZERS_TIMEHIST_OUT_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "analyzers/timehist_int.h"
#include "events/tasks.h"
#include "lib/parse.h"
#include "output/line.h"

void th_header(struct timehist *th, FILE *f);
char *th_put_cpu(char *d, unsigned int cpu);
char *th_put_name(struct timehist *th, char *d, struct th_task *tr, int tid,
		  const struct ft_task *e);
void th_rows_flush(struct timehist *th);
void th_commstr(struct timehist *th, int tid, char *buf, size_t len);
void th_print_time_now(struct timehist *th, uint64_t ts, int cpu);

/*
 * th_put_time - "   sec.usec [cpu] " at @d, as perf starts a row; returns the end. The
 * seconds change once per thousands of rows, so their digits are kept.
 */
static inline __attribute__((always_inline))
char *th_put_time(struct timehist *th, char *d, uint64_t ts, int cpu)
{
	uint64_t sec = ts / 1000000000ULL;

	if (sec != th->sec || !th->sec_len) {
		th->sec = sec;
		th->sec_len = ft_put_u(th->sec_text, sec, 0, 8) - th->sec_text;
		th->sec_text[th->sec_len++] = '.';
	}
	/* at most 12 bytes ("%8llu." of a 64-bit count of seconds), copied as 16 */
	memcpy(d, th->sec_text, 16);
	d = ft_put_6(d + th->sec_len, ts % 1000000000ULL / 1000);
	if (cpu < 0 || cpu >= th->env->ncpus)
		return th_put_cpu(d, cpu);
	memcpy(d, th->cpu_text[cpu], 16);
	return d + th->cpu_len[cpu];
}

/*
 * th_row_begin - where the next row goes: th->row_max bytes of room in the queue.
 * Reading a file, rows go to stdio 32 KB at a time, not one call per row.
 */
static inline char *th_row_begin(struct timehist *th)
{
	if (th->out_len + th->row_max > th->out_cap)
		th_rows_flush(th);
	return th->out + th->out_len;
}

/* th_row_end - the row ends at @d; live, each row goes on at once (stdio buffers it) */
static inline void th_row_end(struct timehist *th, char *d)
{
	th->out_len = d - th->out;
	if (th->env->live)
		th_rows_flush(th);
}

/*
 * th_put_ms - a duration at @d as perf's print_sched_time: msec.usec, the msec in 6
 * columns, then a space; below 10 ms (most rows) filled into a template. Returns the end.
 */
static inline __attribute__((always_inline)) char *th_put_ms(char *d, uint64_t ns)
{
	uint64_t us = ns / 1000, ms = us / 1000;
	unsigned int frac = (unsigned int)(us - ms * 1000);

	if (ms >= 10) {
		d = ft_put_u(d, ms, 0, 6);
		*d = '.';
		d = ft_put_fixed(d + 1, frac, 3);
		*d = ' ';
		return d + 1;
	}
	memcpy(d, "     0.0", 8);
	d[5] = (char)('0' + ms);
	d[7] = (char)('0' + frac / 100);
	ft_put_pair(d + 8, frac % 100);
	d[10] = ' ';
	return d + 11;
}

/* th_pad_name - space-pad the name column @l to TH_COMM_WIDTH */
static inline void th_pad_name(struct ft_line *l)
{
	if (l->len < TH_COMM_WIDTH)
		ft_line_strn(l, "", 0, (int)l->len - TH_COMM_WIDTH);
}

#endif
