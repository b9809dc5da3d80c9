// SPDX-License-Identifier: GPL-2.0
/*
 * The commands of the ftscope binary: the analyzers (analyzers/registry.c), and the
 * built-ins: record and report, which drive the run for other analyzers, and those
 * that are no run at all.
 */
#include <stdio.h>

#include "analyzers/analyzer.h"
#include "cmd/commands.h"
#include "cmd/list.h"
#include "lib/util.h"

const struct ft_builtin ft_builtins[] = {
	{ "record", ft_cmd_record, "record events to a trace.dat (trace-cmd's format) for -i FILE later" },
	{ "report", ft_cmd_report, "several analyzers over one trace.dat, in one pass" },
	{ "stat",  ft_cmd_stat,  "count hardware, software and tracepoint events, as perf stat" },
	{ "flamegraph", ft_cmd_flamegraph, "folded stacks to an interactive SVG flame graph" },
	{ "list",  ft_cmd_list,  "commands, and the tracing features this kernel offers" },
	{ "reset", ft_cmd_reset, "remove instances and probes left by killed ftscope runs" },
	{ NULL, NULL, NULL },
};

/* ft_commands_print - one line per command, its name in a column @width wide */
void ft_commands_print(FILE *f, int width)
{
	int i;

	for (i = 0; ft_analyzers[i]; i++)
		fprintf(f, "  %-*s %s\n", width, ft_analyzers[i]->cli.name, ft_analyzers[i]->cli.summary);
	for (i = 0; ft_builtins[i].name; i++)
		fprintf(f, "  %-*s %s\n", width, ft_builtins[i].name, ft_builtins[i].summary);
}

/**
 * ft_cmd_list - print the commands and this machine's tracing features
 * Returns the exit status.
 */
int ft_cmd_list(int argc, char **argv)
{
	int i;

	ft_set_prog("ftscope list");
	i = ft_no_args(argc, argv, "Usage: ftscope list\n\nThe commands, and which tracing "
		       "features this kernel offers: events,\nfunction and function_graph "
		       "tracers, kprobe and uprobe events, stack options,\nPMU counters "
		       "(as root).\n\nEXAMPLES:\n  ftscope list\n");
	if (i >= 0)
		return i;
	puts("Commands:");
	ft_commands_print(stdout, 12);
	return ft_list_features();
}
