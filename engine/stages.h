/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The analyzers one run drives: one (`ftscope NAME`), several (report: a section
 * each), or none (record).
 */
#ifndef FTSCOPE_CMD_STAGES_H
#define FTSCOPE_CMD_STAGES_H

#include <stdbool.h>
#include <stdio.h>

#include "analyzers/analyzer.h"

struct ft_stage {
	const struct ft_analyzer *a;
	void			*priv;
	const char		*title;		/* sections: the line over its section */
	struct ft_env		env;
	FILE			*out;		/* sections: what it prints while events flow */
	bool			inited;
};

struct ft_stages {
	struct ft_stage		*st;
	int			n;
	bool			sections;	/* report: "==> TITLE <==" sections, JSON "reports" */
};

void ft_stages_negotiate(const struct ft_stages *s, bool live, bool keep, const char *clock);
void ft_stages_decline(const struct ft_stages *s, const char *why);
void ft_stages_events(const struct ft_stages *s, unsigned int *need, unsigned int *want);
struct ft_tp *ft_stages_tps(const struct ft_stages *s);
const struct ft_sample_req *ft_stages_sampling(const struct ft_stages *s, int *n);
void ft_stages_sample(struct ft_stages *s, const struct ft_sample *smp);
unsigned int ft_stages_max_wait(const struct ft_stages *s, unsigned int dflt);
int ft_stages_init(struct ft_stages *s, const struct ft_env *env);
void ft_stages_head(struct ft_report *r, struct ft_json *j, const char *name, bool timestamps);
void ft_stages_report(struct ft_stages *s, struct ft_report *r);
void ft_stages_reset(struct ft_stages *s);
void ft_stages_fini(struct ft_stages *s);

/* ft_stages_event - one record to every analyzer, in order */
static inline void ft_stages_event(struct ft_stages *s, const struct ft_event *ev)
{
	int i;

	for (i = 0; i < s->n; i++)
		s->st[i].a->event(s->st[i].priv, ev);
}

#endif
