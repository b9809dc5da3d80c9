/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The commands of the ftscope binary.
 */
#ifndef FTSCOPE_CMD_RUN_H
#define FTSCOPE_CMD_RUN_H

#include <stdio.h>

struct ft_analyzer;

/* a command that is not an analyzer: `ftscope NAME`, in --help and in `ftscope list` */
struct ft_builtin {
	const char	*name;
	int		(*fn)(int argc, char **argv);
	const char	*summary;
};

extern const struct ft_builtin ft_builtins[];	/* ends with a NULL name */

const struct ft_analyzer *ft_command_find(const char *name);
void ft_commands_print(FILE *f, int width);
int ft_run_analyzer(const struct ft_analyzer *a, int argc, char **argv);
int ft_cmd_capture(int argc, char **argv);
int ft_cmd_list(int argc, char **argv);
int ft_cmd_reset(int argc, char **argv);
int ft_cmd_flamegraph(int argc, char **argv);
int ft_cmd_stat(int argc, char **argv);

#endif
