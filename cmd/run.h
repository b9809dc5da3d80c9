/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The commands of the ftscope binary.
 */
#ifndef FTSCOPE_CMD_RUN_H
#define FTSCOPE_CMD_RUN_H

#include <stdio.h>

#include "cmd/stages.h"

struct ft_analyzer;
struct ft_opts;

/* What one run drives: analyzers (one, or report's sections), or a recording. */
struct ft_run {
	const char		*name;		/* in messages and JSON: an analyzer, report, record */
	struct ft_stages	stages;		/* none for a recording */
	bool			record;		/* pages go to -o FILE with splice, undecoded */
	bool			whole_system;	/* its analyzers read events of no task: no pid
						   filter, a command only bounds the run */
	unsigned int		need, want;	/* events besides the analyzers' own */
	struct ft_tp		*tps;		/* tracepoints read by name, chained */
	char			**extra;	/* more events to enable, NULL-terminated */
	const struct ft_func_req *funcs;	/* the one analyzer's functions to probe, or NULL */
	const struct ft_stages	*samplers;	/* whose samples a recording keeps (NULL: stages) */
};

/* a command that is not an analyzer: `ftscope NAME`, in --help and in `ftscope list` */
struct ft_builtin {
	const char	*name;
	int		(*fn)(int argc, char **argv);
	const char	*summary;
};

extern const struct ft_builtin ft_builtins[];	/* ends with a NULL name */

void ft_commands_print(FILE *f, int width);
int ft_run(struct ft_opts *o, struct ft_run *r);
int ft_run_whole(struct ft_run *r, const struct ft_stages *s, const struct ft_opts *o,
		 const char *apart);
int ft_run_analyzer(const struct ft_analyzer *a, int argc, char **argv);
int ft_cmd_record(int argc, char **argv);
int ft_cmd_report(int argc, char **argv);
int ft_cmd_list(int argc, char **argv);
int ft_cmd_reset(int argc, char **argv);
int ft_cmd_flamegraph(int argc, char **argv);
int ft_cmd_stat(int argc, char **argv);

#endif
