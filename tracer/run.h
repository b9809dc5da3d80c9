/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The commands of the ftscope binary.
 */
#ifndef FTSCOPE_TRACER_RUN_H
#define FTSCOPE_TRACER_RUN_H

struct ft_analyzer;

int ft_run_analyzer(const struct ft_analyzer *a, int argc, char **argv);
int ft_cmd_capture(int argc, char **argv);
int ft_cmd_list(int argc, char **argv);
int ft_cmd_reset(int argc, char **argv);
int ft_cmd_flamegraph(int argc, char **argv);
int ft_cmd_stat(int argc, char **argv);
int ft_possible_cpus(void);

#endif
