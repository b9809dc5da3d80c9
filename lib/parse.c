// SPDX-License-Identifier: GPL-2.0
/*
 * Parsing numbers and lists of the command line: whole numbers, finite reals, pid
 * and CPU lists, each in its allowed range.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "lib/parse.h"

/**
 * ft_parse_long - a whole number in [@min, @max]
 * Returns 0, or -1 when @s is not one.
 */
int ft_parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

/* ft_parse_double - a finite number in [@min, @max] */
int ft_parse_double(const char *s, double min, double max, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v) || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

/**
 * ft_parse_pids - "123,456" into a new array (appended to *out)
 * Returns 0, or -1 for anything but positive numbers separated by commas.
 */
int ft_parse_pids(const char *s, int **out, int *n)
{
	char *dup = strdup(s), *tok, *save = NULL;
	int *arr;
	long v;

	if (!dup)
		return -1;
	for (tok = strtok_r(dup, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (ft_parse_long(tok, 1, INT_MAX, &v))
			goto bad;
		arr = realloc(*out, (*n + 1) * sizeof(**out));
		if (!arr)
			goto bad;
		*out = arr;
		(*out)[(*n)++] = (int)v;
	}
	free(dup);
	return *n ? 0 : -1;
bad:
	free(dup);
	return -1;
}

/**
 * ft_parse_cpus - "0,2-3" into a bool per CPU (@ncpus of them)
 * Returns 0, or -1 for bad syntax or a CPU this machine does not have.
 */
int ft_parse_cpus(const char *s, int ncpus, bool **out)
{
	bool *on = calloc(ncpus, sizeof(*on));
	char *dup = strdup(s), *tok, *save = NULL, *dash;
	long a, b, c;
	int any = 0;

	if (!on || !dup)
		goto bad;
	for (tok = strtok_r(dup, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		dash = strchr(tok, '-');
		if (dash)
			*dash = 0;
		if (ft_parse_long(tok, 0, ncpus - 1, &a))
			goto bad;
		b = a;
		if (dash && ft_parse_long(dash + 1, a, ncpus - 1, &b))
			goto bad;
		for (c = a; c <= b; c++)
			on[c] = true;
		any = 1;
	}
	if (!any)
		goto bad;
	free(dup);
	free(*out);
	*out = on;
	return 0;
bad:
	free(on);
	free(dup);
	return -1;
}
