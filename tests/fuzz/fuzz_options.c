// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: the command line. Byte 0 picks the analyzer; the rest is its
 * argument list, split at NUL bytes, handed to the one option parser every analyzer
 * shares (common options, the analyzer's own through parse_opt, positional interval
 * and count, -- command), then freed as a run frees it. Nothing is run.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzers/analyzer.h"
#include "cmd/options.h"

#define MAX_ARGS	32

/* LLVMFuzzerInitialize - usage and help text go nowhere */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	if (!freopen("/dev/null", "w", stdout))
		return 1;
	return 0;
}

/* LLVMFuzzerTestOneInput - parse one command line */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct ft_analyzer *a;
	char *copy, *argv[MAX_ARGS + 2];
	struct ft_opts o = { 0 };
	int n, argc = 1;
	size_t i, start;
	void *priv;

	if (!size)
		return 0;
	for (n = 0; ft_analyzers[n]; n++)
		;
	a = ft_analyzers[data[0] % n];
	copy = malloc(size);
	priv = calloc(1, a->priv_size);
	if (!copy || !priv)
		goto out;
	/* NUL-separated words after byte 0; the last one ends where the input ends */
	memcpy(copy, data + 1, size - 1);
	copy[size - 1] = 0;
	argv[0] = (char *)a->cli.name;
	for (i = 0, start = 0; i < size && argc <= MAX_ARGS; i++) {
		if (copy[i])
			continue;
		argv[argc++] = copy + start;
		start = i + 1;
	}
	argv[argc] = NULL;
	o.ncpus = 2;
	ft_opts_parse(&o, &a->cli, priv, argc, argv);
	if (a->free)
		a->free(priv);
	ft_opts_free(&o);
out:
	free(copy);
	free(priv);
	return 0;
}
