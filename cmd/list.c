// SPDX-License-Identifier: GPL-2.0
/*
 * `ftscope list`: the commands, and what this kernel offers them. Everything is
 * found by reading; nothing is written (set_ftrace_filter is never opened) but an
 * instance made to try the ring buffer's mapping in, and removed.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <tracefs/tracefs.h>

#include "analyzers/analyzer.h"
#include "cmd/list.h"
#include "events/decode.h"
#include "events/tep.h"
#include "lib/util.h"
#include "tracer/ringmap.h"
#include "tracer/session.h"

/* pmu_works - can we open a counting perf event of this type/config on ourselves? */
static const char *pmu_works(unsigned int type, unsigned long long config)
{
	struct perf_event_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = type;
	attr.config = config;
	attr.disabled = 1;
	attr.exclude_kernel = 1;
	fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	if (fd < 0)
		return errno == ENOENT || errno == EOPNOTSUPP ? "not supported" : strerror(errno);
	close(fd);
	return NULL;
}

/* yesno - one feature line */
static void yesno(const char *what, int ok, const char *why)
{
	printf("  %-26s %s%s%s%s\n", what, ok ? "yes" : "no", why ? " (" : "", why ? why : "",
	       why ? ")" : "");
}

/*
 * ring_buffer_reads - how a run reads the ring buffers: read() by default, mapped
 * with --mmap where the kernel can map them (tried as a run would, in an instance)
 */
static void ring_buffer_reads(void)
{
	int e = ft_session_map_probe();

	yesno("ring buffer mmap (--mmap)", !e, e ? strerror(e) : NULL);
	printf("  %-26s %s\n", "ring buffer reads", e ? "read()" :
	       "read(), or mapped with --mmap (docs/live.md compares them)");
}

/* readable - whether a tracefs file can be read (EPERM on locked-down kernels) */
static const char *readable(const char *file)
{
	char path[512];
	char buf[64];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", tracefs_tracing_dir(), file);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return strerror(errno);
	if (read(fd, buf, sizeof(buf)) < 0) {
		int e = errno;

		close(fd);
		return strerror(e);
	}
	close(fd);
	return NULL;
}

/* tracer_listed - is @name in available_tracers? */
static bool tracer_listed(const char *name)
{
	return tracefs_tracer_available(tracefs_tracing_dir(), name);
}

/* analyzer_events - the tracepoints analyzers read by name (as run without options) */
static void analyzer_events(void)
{
	const struct ft_tp *tp;
	char name[160];
	void *priv;
	int i;

	for (i = 0; ft_analyzers[i]; i++) {
		const struct ft_analyzer *a = ft_analyzers[i];

		if (!a->tracepoints || !(priv = calloc(1, a->priv_size)))
			continue;
		for (tp = a->tracepoints(priv); tp; tp = tp->next) {
			snprintf(name, sizeof(name), "event %s:%s (%s)", tp->system, tp->name,
				 a->cli.name);
			yesno(name, tracefs_event_file_exists(NULL, tp->system, tp->name, "format"),
			      NULL);
		}
		if (a->free)
			a->free(priv);
		free(priv);
	}
}

/* ft_list_features - which tracing features this kernel offers (as root); an exit status */
int ft_list_features(void)
{
	const char *why;
	int i;

	if (geteuid() != 0) {
		puts("\nKernel features: run as root to probe them.");
		return FT_EXIT_OK;
	}
	if (ft_tracefs_mount())
		return FT_EXIT_ERR;
	printf("\nKernel features (tracefs at %s):\n", tracefs_tracing_dir());
	for (i = 1; i < FT_EV_NTYPES; i++) {
		char name[96];

		snprintf(name, sizeof(name), "event %s:%s", ft_event_defs[i].system,
			 ft_event_defs[i].name);
		yesno(name, tracefs_event_file_exists(NULL, ft_event_defs[i].system,
						      ft_event_defs[i].name, "format"), NULL);
	}
	analyzer_events();
	yesno("event raw_syscalls", tracefs_dir_exists(NULL, "events/raw_syscalls"), NULL);
	yesno("instances", tracefs_dir_exists(NULL, "instances"), NULL);
	why = readable("available_filter_functions");
	yesno("function tracer", tracer_listed("function") && !why,
	      tracer_listed("function") && why ? why : NULL);
	yesno("function_graph tracer", tracer_listed("function_graph"), NULL);
	yesno("kprobe events", tracefs_file_exists(NULL, "kprobe_events"), NULL);
	yesno("uprobe events", tracefs_file_exists(NULL, "uprobe_events"), NULL);
	yesno("options/stacktrace", tracefs_file_exists(NULL, "options/stacktrace"), NULL);
	yesno("options/userstacktrace", tracefs_file_exists(NULL, "options/userstacktrace"), NULL);
	yesno("hist triggers", tracefs_file_exists(NULL, "events/sched/sched_switch/hist"), NULL);
	ring_buffer_reads();
	why = pmu_works(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
	yesno("PMU hardware counters", !why, why);
	why = pmu_works(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	yesno("PMU software counters", !why, why);
	return FT_EXIT_OK;
}
