/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One run of the engine: what it drives (analyzers, or a recording), and ft_run.
 */
#ifndef FTSCOPE_ENGINE_RUN_H
#define FTSCOPE_ENGINE_RUN_H

#include "engine/stages.h"

struct ft_opts;

/* What one run drives: analyzers (one, or report's sections), or a recording. */
struct ft_run {
	const char		*name;		/* in messages and JSON: an analyzer, report, record */
	struct ft_stages	stages;		/* none for a recording */
	bool			record;		/* pages go to -o FILE with splice, undecoded */
	bool			quiet;		/* record --flight: its analyzers' reports unprinted */
	bool			whole_system;	/* its analyzers read events of no task: no pid
						   filter, a command only bounds the run */
	unsigned int		need, want;	/* events besides the analyzers' own */
	struct ft_tp		*tps;		/* tracepoints read by name, chained */
	char			**extra;	/* more events to enable, NULL-terminated */
	const struct ft_func_req *funcs;	/* the one analyzer's functions to probe, or NULL */
	const struct ft_stages	*samplers;	/* whose samples a recording keeps (NULL: stages) */
};

int ft_run(struct ft_opts *o, struct ft_run *r);

#endif
