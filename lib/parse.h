/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Parsing numbers and lists of the command line.
 */
#ifndef FTSCOPE_LIB_PARSE_H
#define FTSCOPE_LIB_PARSE_H

#include <stdbool.h>

/* an option parser's return when it printed its own error line */
#define FT_OPT_REPORTED	(-2)

int ft_parse_cpus(const char *s, int ncpus, bool **out);
int ft_parse_pids(const char *s, int **out, int *n);
int ft_parse_double(const char *s, double min, double max, double *out);
int ft_parse_long(const char *s, long min, long max, long *out);

#endif
