/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One analyzer's run from its command line, and the rules for analyzers of events
 * that belong to no task, which record and report follow too (cmd/analyze.c).
 */
#ifndef FTSCOPE_CMD_ANALYZE_H
#define FTSCOPE_CMD_ANALYZE_H

#include "engine/run.h"

struct ft_analyzer;
struct ft_opts;
struct ft_stage;

int ft_run_whole(struct ft_run *r, const struct ft_stages *s, const struct ft_opts *o,
		 const char *apart);
int ft_stage_parse(struct ft_stage *s, char **words, const char *spec, int ncpus,
		   const char *who);
int ft_run_analyzer(const struct ft_analyzer *a, int argc, char **argv);

#endif
