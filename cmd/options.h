/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Options common to every analyzer, parsed in one place.
 */
#ifndef FTSCOPE_CMD_OPTIONS_H
#define FTSCOPE_CMD_OPTIONS_H

#include <getopt.h>
#include <stdbool.h>

#include "engine/opts.h"
#include "lib/parse.h"

struct ft_cli;

/* Result of parsing: run, or exit with this status (help printed, bad option). */
enum { FT_PARSE_RUN = -1 };

int ft_opts_parse(struct ft_opts *o, const struct ft_cli *a, void *priv,
		  int argc, char **argv);
void ft_opts_free(struct ft_opts *o);
int ft_cli_check(const struct ft_cli *a, void *priv, const struct ft_opts *o);
int ft_cli_clash(const struct ft_cli *a);
bool ft_opts_reader(const struct ft_opts *o);

#endif
