// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: a trace.dat file (v6, v7, compressed v7) read by an analyzer
 * exactly as `ftscope ANALYZER -i FILE` does: the reader, the formats it carries
 * (handed to libtraceevent), kallsyms, cmdlines, the merge, decoder and analyzer,
 * and profile's perf samples (events/sample.c, engine/samples.c; a file without them is
 * refused in one line). Every analyzer of the registry (analyzers/registry.c) is
 * reached: the input's length picks it, and -B (none, the top buffer, an instance
 * named "sw"); with FT_FUZZ_EVERY=1 (run.sh's replay of the saved inputs) each input
 * goes through every analyzer with each -B, whatever the registry's length.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "analyzers/analyzer.h"
#include "cmd/analyze.h"
#include "events/tep.h"

/* What an analyzer cannot run without; the positional PATTERN of one with a synopsis */
static const struct { const char *name, *opt, *arg; } needs[] = {
	{ "hist", "-e", "sched:sched_switch" },
};

static const char *const buffers[] = { NULL, "top", "sw" };
static size_t nanalyzers;
static bool every;

/* LLVMFuzzerInitialize - the analyzers' reports go nowhere */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *e = getenv("FT_FUZZ_EVERY");

	while (ft_analyzers[nanalyzers])
		nanalyzers++;
	every = e && *e == '1';
	if (!freopen("/dev/null", "w", stdout))
		return 1;
	return 0;
}

/* run - analyzer @a over the file @path, with -B @buffer unless NULL */
static void run(const struct ft_analyzer *a, const char *path, const char *buffer)
{
	char name[16], file[64], bname[8], opt[8], arg[64], pattern[2] = "*", *argv[10];
	int argc = 0;
	size_t i;

	snprintf(name, sizeof(name), "%s", a->cli.name);
	snprintf(file, sizeof(file), "%s", path);
	argv[argc++] = name;
	argv[argc++] = "-i";
	argv[argc++] = file;
	if (buffer) {		/* -B: a named instance's buffer, or the top one */
		snprintf(bname, sizeof(bname), "%s", buffer);
		argv[argc++] = "-B";
		argv[argc++] = bname;
	}
	for (i = 0; i < sizeof(needs) / sizeof(needs[0]); i++)
		if (!strcmp(needs[i].name, name)) {
			snprintf(opt, sizeof(opt), "%s", needs[i].opt);
			snprintf(arg, sizeof(arg), "%s", needs[i].arg);
			argv[argc++] = opt;
			argv[argc++] = arg;
		}
	if (a->cli.synopsis)
		argv[argc++] = pattern;
	argv[argc] = NULL;
	ft_run_analyzer(a, argc, argv);
	fflush(stdout);
}

/* LLVMFuzzerTestOneInput - run one analyzer (or each) over @data as a trace.dat */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz.dat", 0);
	char path[64];
	size_t i, b;

	if (fd < 0)
		return 0;
	if (ft_write_all(fd, data, size)) {
		close(fd);
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (every) {
		for (i = 0; i < nanalyzers; i++)
			for (b = 0; b < 3; b++)
				run(ft_analyzers[i], path, buffers[b]);
	} else {
		run(ft_analyzers[size % nanalyzers], path, buffers[size / nanalyzers % 3]);
	}
	close(fd);
	return 0;
}
