// SPDX-License-Identifier: GPL-2.0
/*
 * What the sampling stage opens (tracer/sampler.h): an event as `stat -e` names it
 * (software, hardware, cache, a tracepoint), a user function as a uprobe, the
 * request's second event (sharing the rings), and the perf clock of a trace clock.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <tracefs.h>

#include "lib/file.h"
#include "lib/util.h"
#include "tracer/pmu.h"
#include "tracer/probes.h"
#include "tracer/sampler.h"
#include "tracer/session.h"

/* uprobe_type - the dynamic PMU type of uprobes, or -1 */
static long uprobe_type(void)
{
	char *text = ft_read_file("/sys/bus/event_source/devices/uprobe/type", 64, NULL);
	long t = text && *text ? strtol(text, NULL, 10) : -1;

	free(text);
	return t;
}

/* is_tracepoint_system - does tracefs have an event system named @sys? */
static bool is_tracepoint_system(const char *sys)
{
	char path[512];
	struct stat st;

	if (!*sys || strchr(sys, '/') || ft_tracefs_mount())
		return false;
	snprintf(path, sizeof(path), "%s/events/%s", tracefs_tracing_dir(), sys);
	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/* resolve_uprobe - "lib:func" or "/path:func" as the uprobe PMU's event; prints the error */
static int resolve_uprobe(struct ft_sampler *sp, const char *spec)
{
	static char path[4096];	/* config1 points at it until perf_event_open */
	long type = uprobe_type();
	uint64_t off;

	if (type < 0) {
		ft_err("cannot sample '%s': this kernel has no uprobe PMU", spec);
		return -1;
	}
	if (ft_probes_user_fn(spec, path, sizeof(path), &off))
		return -1;
	sp->type = (uint32_t)type;
	sp->entry_probe = true;
	sp->config = 0;			/* not a return probe */
	sp->config1 = (uint64_t)(uintptr_t)path;
	sp->config2 = off;
	return 0;
}

/* resolve_second - the request's second event @req (no user function); -1 printed */
static int resolve_second(struct ft_sampler *sp, const struct ft_sample_req *req)
{
	struct ft_sampler t = { 0 };

	if (req->second || !req->event || ft_sampler_resolve(&t, req))
		return -1;
	if (t.entry_probe) {
		ft_err("cannot sample %s beside %s: a function is sampled alone", t.name, sp->name);
		return -1;
	}
	sp->req2 = t.req;
	memcpy(sp->name2, t.name, sizeof(sp->name2));
	sp->type2 = t.type;
	sp->config_2 = t.config;
	sp->req.second = &sp->req2;
	return 0;
}

/**
 * ft_sampler_resolve - the event of @req: a software, hardware or cache event or a
 * tracepoint (as `stat -e` takes them), or a user function (as funclat takes it)
 * Returns 0, or -1 after printing one line.
 */
int ft_sampler_resolve(struct ft_sampler *sp, const struct ft_sample_req *req)
{
	struct ft_pmu_event e = { 0 };
	const char *ev = req->event ? req->event : "cpu-clock", *colon = strrchr(ev, ':');
	char sys[128];

	sp->req = *req;
	if (!sp->req.freq && !sp->req.period)
		sp->req.freq = 99;		/* perf's and BCC's profile default */
	snprintf(sp->name, sizeof(sp->name), "%s", ev);
	if (sp->req.callgraph == FT_CG_DWARF && !sp->req.stack_user)
		sp->req.stack_user = FT_STACK_USER_DEFAULT;
	if (strlen(ev) >= sizeof(e.name)) {
		ft_err("event name too long: %s", ev);
		return -1;
	}
	if (colon) {
		snprintf(sys, sizeof(sys), "%.*s", (int)(colon - ev), ev);
		/* not a tracepoint, not :u/:k modifiers: a user function */
		if (strchr(sys, '/') || (!is_tracepoint_system(sys) &&
					 strspn(colon + 1, "uk") != strlen(colon + 1)))
			return resolve_uprobe(sp, ev);
	}
	snprintf(e.name, sizeof(e.name), "%s", ev);
	if (ft_pmu_event_resolve(&e))
		return -1;
	sp->type = e.type;
	sp->config = e.config;
	return req->second ? resolve_second(sp, req->second) : 0;
}

/**
 * ft_sampler_clock - how samples are stamped on trace clock @name (NULL: mono):
 * 1 with *@id the clockid, 0 for perf's own clock (perf and local are both the
 * kernel's local_clock), -1 for a clock perf_event_open has no twin of
 */
int ft_sampler_clock(const char *name, int *id)
{
	static const struct { const char *name; int id; } ids[] = {
		{ "mono", CLOCK_MONOTONIC }, { "boot", CLOCK_BOOTTIME },
		{ "mono_raw", CLOCK_MONOTONIC_RAW }, { "tai", CLOCK_TAI },
	};
	unsigned int i;

	if (!name)
		name = "mono";
	if (!strcmp(name, "perf") || !strcmp(name, "local"))
		return 0;
	for (i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
		if (!strcmp(name, ids[i].name)) {
			*id = ids[i].id;
			return 1;
		}
	return -1;
}
