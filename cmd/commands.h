/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The commands of the ftscope binary.
 */
#ifndef FTSCOPE_CMD_COMMANDS_H
#define FTSCOPE_CMD_COMMANDS_H

#include <stdio.h>

/* a command that is not an analyzer: `ftscope NAME`, in --help and in `ftscope list` */
struct ft_builtin {
	const char	*name;
	int		(*fn)(int argc, char **argv);
	const char	*summary;
};

extern const struct ft_builtin ft_builtins[];	/* ends with a NULL name */

void ft_commands_print(FILE *f, int width);
int ft_cmd_record(int argc, char **argv);
int ft_cmd_report(int argc, char **argv);
int ft_cmd_list(int argc, char **argv);
int ft_cmd_reset(int argc, char **argv);
int ft_cmd_flamegraph(int argc, char **argv);
int ft_cmd_stat(int argc, char **argv);

#endif
