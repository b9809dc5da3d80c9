// SPDX-License-Identifier: GPL-2.0
/*
 * The commands of the ftscope binary: the analyzers (analyzers/registry.c), the two
 * commands that drive the pipeline for other analyzers (record, report), and the
 * built-ins that are no pipeline at all.
 */
#include <stdio.h>
#include <string.h>

#include "analyzers/analyzer.h"
#include "cmd/run.h"

extern const struct ft_analyzer ft_record, ft_report;

static const struct ft_analyzer *const pipelines[] = { &ft_record, &ft_report, NULL };

const struct ft_builtin ft_builtins[] = {
	{ "stat",  ft_cmd_stat,  "count hardware, software and tracepoint events, as perf stat" },
	{ "flamegraph", ft_cmd_flamegraph, "folded stacks to an interactive SVG flame graph" },
	{ "list",  ft_cmd_list,  "commands, and the tracing features this kernel offers" },
	{ "reset", ft_cmd_reset, "remove instances and probes left by killed ftscope runs" },
	{ NULL, NULL, NULL },
};

/* ft_command_find - the analyzer, record or report named @name; NULL when none */
const struct ft_analyzer *ft_command_find(const char *name)
{
	const struct ft_analyzer *a = ft_analyzer_find(name);
	int i;

	for (i = 0; !a && pipelines[i]; i++)
		if (!strcmp(pipelines[i]->name, name))
			a = pipelines[i];
	return a;
}

/* ft_commands_print - one line per command, its name in a column @width wide */
void ft_commands_print(FILE *f, int width)
{
	int i;

	for (i = 0; ft_analyzers[i]; i++)
		fprintf(f, "  %-*s %s\n", width, ft_analyzers[i]->name, ft_analyzers[i]->summary);
	for (i = 0; pipelines[i]; i++)
		fprintf(f, "  %-*s %s\n", width, pipelines[i]->name, pipelines[i]->summary);
	for (i = 0; ft_builtins[i].name; i++)
		fprintf(f, "  %-*s %s\n", width, ft_builtins[i].name, ft_builtins[i].summary);
}
