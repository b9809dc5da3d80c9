// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: a trace.dat file (v6, v7, compressed v7) read by an analyzer
 * exactly as `ftscope ANALYZER -i FILE` does: the reader, the formats it carries
 * (handed to libtraceevent), kallsyms, cmdlines, the merge, decoder and analyzer,
 * and profile's perf samples (events/sample.c, engine/samples.c; a file without them is
 * refused in one line). The analyzer follows from the input's length, so every one
 * is reached, and so does -B (none, the top buffer, an instance named "sw").
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "analyzers/analyzer.h"
#include "cmd/analyze.h"
#include "events/tep.h"

static const char *const names[] = { "timehist", "runqlat", "wakeup", "offcpu", "latency",
				     "hardirqs", "softirqs", "biolatency", "profile" };
#define NNAMES	(sizeof(names) / sizeof(names[0]))

/* LLVMFuzzerInitialize - the analyzers' reports go nowhere */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	if (!freopen("/dev/null", "w", stdout))
		return 1;
	return 0;
}

/* LLVMFuzzerTestOneInput - run one analyzer over @data as a trace.dat */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct ft_analyzer *a = ft_analyzer_find(names[size % NNAMES]);
	static const char *const buffers[] = { NULL, "top", "sw" };
	const char *buffer = buffers[size / NNAMES % 3];
	char path[64], name[16], bname[8], *argv[6];
	int fd = memfd_create("fuzz.dat", 0);

	if (fd < 0)
		return 0;
	if (ft_write_all(fd, data, size)) {
		close(fd);
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	snprintf(name, sizeof(name), "%s", a->cli.name);
	argv[0] = name;
	argv[1] = "-i";
	argv[2] = path;
	argv[3] = NULL;
	if (buffer) {		/* -B: a named instance's buffer, or the top one */
		snprintf(bname, sizeof(bname), "%s", buffer);
		argv[3] = "-B";
		argv[4] = bname;
		argv[5] = NULL;
	}
	ft_run_analyzer(a, buffer ? 5 : 3, argv);
	fflush(stdout);
	close(fd);
	return 0;
}
