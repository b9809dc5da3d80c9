// SPDX-License-Identifier: GPL-2.0
/*
 * ftscope: a kernel latency tracer built on ftrace. The command table.
 */
#include <stdio.h>
#include <string.h>

#include "analyzers/analyzer.h"
#include "cmd/analyze.h"
#include "cmd/commands.h"
#include "lib/util.h"


/* usage - `ftscope --help` */
static void usage(FILE *f)
{
	fputs("Usage: ftscope <command> [options] [interval [count]] [-- command [args]]\n\n"
	      "Kernel latency tracing on ftrace: private tracefs instances, binary per-CPU\n"
	      "buffers, no BPF, no kernel headers.\n\nCommands:\n", f);
	ft_commands_print(f, 10);
	fputs("\n`ftscope <command> --help` shows a command's options and examples.\n\n"
	      "EXAMPLES:\n"
	      "  ftscope runqlat -d 5            # run-queue latency histogram, whole system, 5 s\n"
	      "  ftscope runqlat -P -- make -j2  # per-process histograms of a build\n"
	      "  ftscope offcpu --svg off.svg -d 5  # off-CPU flame graph, whole system\n"
	      "  ftscope list                    # what this kernel supports\n", f);
}

/* command - run command @argv[0] with its arguments; -1 when there is no such command */
static int command(int argc, char **argv)
{
	const struct ft_analyzer *a = ft_analyzer_find(argv[0]);
	unsigned int i;

	if (a)
		return ft_run_analyzer(a, argc, argv);
	for (i = 0; ft_builtins[i].name; i++)
		if (!strcmp(argv[0], ft_builtins[i].name))
			return ft_builtins[i].fn(argc, argv);
	return -1;
}

/* main - dispatch to an analyzer or a built-in command */
int main(int argc, char **argv)
{
	int ret;

	if (argc < 2) {
		usage(stderr);
		return FT_EXIT_USAGE;
	}
	/* `ftscope help NAME` is `ftscope NAME --help`, as git and perf do */
	if (!strcmp(argv[1], "help") && argc == 3) {
		char *help[] = { argv[2], "--help", NULL };

		ret = command(2, help);
		if (ret >= 0)
			return ret;
		ft_err("unknown command '%s' (see ftscope --help)", argv[2]);
		return FT_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return FT_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		puts("ftscope " FTSCOPE_VERSION);
		return FT_EXIT_OK;
	}
	ret = command(argc - 1, argv + 1);
	if (ret >= 0)
		return ret;
	ft_err("unknown command '%s' (see ftscope --help)", argv[1]);
	return FT_EXIT_USAGE;
}
