/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A labelled histogram set: one latency histogram per key an analyzer picks (an
 * interrupt handler, a softirq vector, a disk, a function; or, for BCC's -P, -L and
 * per-CPU views, a process, thread or CPU), each with an integer label, a name and
 * counters of the analyzer's own, and a total. The set prints them in BCC's layout
 * ("LABEL = NAME", the log2 rows, the summary), writes them as JSON, hands them to
 * the exports as series, resets them for the next interval and frees them: the
 * analyzer keeps which event, which key, which value.
 */
#ifndef FTSCOPE_OUTPUT_HSET_H
#define FTSCOPE_OUTPUT_HSET_H

#include <stdbool.h>
#include <stdio.h>

#include "lib/tab.h"
#include "output/hist.h"

struct ft_json;
struct ft_label;
struct ft_metrics;
struct ft_tasks;

enum ft_group_by { FT_BY_NONE, FT_BY_PID, FT_BY_TID, FT_BY_CPU };

/* One member of a set. Pointers to it are valid until the next one is added. */
struct ft_hentry {
	int			key;		/* integer label: line, vector, dev, pid */
	char			*name;		/* owned; by task: the comm of its first
						   export (its series keeps its labels) */
	struct ft_hist		hist;
	unsigned long long	n[2];		/* the analyzer's: entries, notes */
};

/* Text layout: BCC's tools differ in the line before a heading and under the rows. */
enum {
	FT_HS_TIGHT	= 1,	/* no blank line before the first heading */
	FT_HS_AVG	= 2,	/* funclatency's "avg = " line under the rows */
	FT_HS_COUNT	= 4,	/* the totals table shows entries (n[0]), not time */
};

struct ft_hset {
	const struct ft_unit	*unit;
	const char		*label;		/* text heading "LABEL = NAME" */
	const char		*name_key;	/* JSON key of the name ("name", "disk") */
	const char		*key_key;	/* JSON key of the integer label, NULL: none */
	bool			counts;		/* JSON: "count" (n[0]), "total_ns" */
	unsigned int		style;		/* FT_HS_* */
	/* JSON fields of the analyzer's own, after the labels (NULL: none) */
	void			(*json_more)(struct ft_json *j, const struct ft_hentry *e);
	enum ft_group_by	by;		/* by task or CPU: set before ft_hgroups_init */
	struct ft_tasks		*tasks;		/* by task: their names */
	struct ft_tab		index;		/* by task or CPU: key -> ft_hpos */
	struct ft_hist		total;		/* of ft_hset_add's values */
	struct ft_hentry	*e;
	unsigned int		n, cap;
	unsigned long long	oom;		/* members that could not be made */
};

/* A member's position in its set, by its key (the index of a set by task or CPU). */
struct ft_hpos {
	int		key;
	unsigned int	pos;
};

/* A report's members: some of a set's, in some order (malloc'ed; free e). */
struct ft_hview {
	struct ft_hentry	**e;
	unsigned int		n;
};

/* which members a view or an export takes */
typedef bool ft_hset_keep_fn(const struct ft_hset *s, const struct ft_hentry *e);

struct ft_hentry *ft_hset_new(struct ft_hset *s, int key, const char *name, int len);
struct ft_hentry *ft_hset_key(struct ft_hset *s, int key);
struct ft_hentry *ft_hset_name(struct ft_hset *s, const char *name, int len);
void ft_hset_sort(struct ft_hset *s, int (*cmp)(const void *, const void *));
int ft_hset_view(struct ft_hset *s, struct ft_hview *v, ft_hset_keep_fn *keep,
		 int (*cmp)(const void *, const void *, void *));
unsigned long long ft_hset_row(const struct ft_hset *s, const struct ft_hentry *e);
ft_hset_keep_fn ft_hset_timed, ft_hset_shown;
void ft_hset_print_hist(const struct ft_hset *s, FILE *f, const struct ft_hist *h);
void ft_hset_print(const struct ft_hset *s, FILE *f, const struct ft_hview *v);
void ft_hset_print_totals(const struct ft_hset *s, FILE *f, const struct ft_hview *v,
			  const char *head, int width);
void ft_hset_json(const struct ft_hset *s, struct ft_json *j, const char *key,
		  const struct ft_hview *v);
void ft_hset_metrics(struct ft_hset *s, struct ft_metrics *m, const char *name,
		     const char *label, ft_hset_keep_fn *keep, const struct ft_label *extra,
		     int nextra);
void ft_hset_reset(struct ft_hset *s, bool drop);
void ft_hset_fini(struct ft_hset *s);

/* ft_hset_add - one value of member @e (NULL: there was no memory for it) and the total */
static inline void ft_hset_add(struct ft_hset *s, struct ft_hentry *e, uint64_t ns)
{
	ft_hist_add(&s->total, s->unit, ns);
	if (e)
		ft_hist_add(&e->hist, s->unit, ns);
}

/* By process, thread or CPU: set by and unit (microseconds by default) before init. */
int ft_hgroups_init(struct ft_hset *g, struct ft_tasks *tasks);
void ft_hgroups_add_group(struct ft_hset *g, int tid, int cpu, uint64_t ns);

/* ft_hgroups_add - one value of thread @tid (named in the task table), seen on @cpu */
static inline void ft_hgroups_add(struct ft_hset *g, int tid, int cpu, uint64_t ns)
{
	ft_hist_add(&g->total, g->unit, ns);
	if (g->by != FT_BY_NONE)
		ft_hgroups_add_group(g, tid, cpu, ns);
}
void ft_hgroups_print(struct ft_hset *g, FILE *f);
void ft_hgroups_json(struct ft_hset *g, struct ft_json *j);
void ft_hgroups_reset(struct ft_hset *g);
void ft_hgroups_metrics(struct ft_hset *g, struct ft_metrics *m, const char *name,
			const struct ft_label *extra, int nextra);

#endif
