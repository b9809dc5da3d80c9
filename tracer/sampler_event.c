// SPDX-License-Identifier: GPL-2.0
/*
 * What the sampling stage opens (tracer/sampler.h): an event as `stat -e` names it
 * (software, hardware, cache, a tracepoint), a user function as a uprobe, the
 * request's second event (sharing the rings), and the perf clock of a trace clock;
 * then one event opened, and its ring mapped or shared.
 */
#include <errno.h>
#include <linux/perf_event.h>
#ifdef __x86_64__
#include <asm/perf_regs.h>
#endif
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <tracefs.h>

#include "lib/file.h"
#include "lib/util.h"
#include "tracer/pmu.h"
#include "tracer/probes.h"
#include "tracer/sample_unwind.h"
#include "tracer/sampler_event.h"
#include "tracer/session.h"

/* IDENTIFIER: the event's id first in each sample (and last in each other record's
   sample_id trailer), whatever the event: a ring shared by two events tells them apart */
#define SAMPLE_TYPE	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
			 PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | \
			 PERF_SAMPLE_CALLCHAIN)

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

/*
 * ft_sampler_open_one - one sampling event on task @pid (-1: all) and @cpu: the request's, or
 * with @second its second's (no mapping records: the first's give them); -1 with
 * errno set
 */
int ft_sampler_open_one(struct ft_sampler *sp, int pid, int cpu, bool inherit, bool second)
{
	const struct ft_sample_req *r = second ? &sp->req2 : &sp->req;
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = second ? sp->type2 : sp->type;
	a.config = second ? sp->config_2 : sp->config;
	a.config1 = second ? 0 : sp->config1;
	a.config2 = second ? 0 : sp->config2;
	a.sample_type = SAMPLE_TYPE;
	a.read_format = PERF_FORMAT_TOTAL_TIME_RUNNING;	/* clock_count */
#ifdef __x86_64__
	/*
	 * At a function's entry the return address is still on the stack top, not in a
	 * frame: a frame-pointer walk skips the caller. Eight bytes of stack give it.
	 */
	if (!second && sp->entry_probe && sp->req.user && !sp->dwarf) {
		a.sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
		a.sample_regs_user = 1ULL << PERF_REG_X86_SP;
		a.sample_stack_user = 8;
	}
#endif
	if (r->freq) {
		a.freq = 1;
		a.sample_freq = r->freq;
	} else {
		a.sample_period = r->period ? r->period : 1;
	}
	a.disabled = 1;
	a.inherit = inherit;
	/* a per-CPU event of any task is enabled at once (ft_sampler_enable) */
	a.enable_on_exec = sp->on_exec && !(second && sp->req2.pid_field);
	a.exclude_callchain_user = !r->user;
	a.exclude_callchain_kernel = !r->kernel;
	if (sp->dwarf) {	/* user frames from the stack copy, kernel ones as before */
		a.sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
		a.sample_regs_user = ft_sampler_uregs_mask();
		a.sample_stack_user = r->stack_user;
		a.exclude_callchain_user = 1;
	}
	a.sample_max_stack = sp->max_stack;
	/* the trace's clock (ft_sampler_clock) */
	a.use_clockid = ft_sampler_clock(sp->clock, &a.clockid) > 0;
	/* the kernel's own word on mappings, execs and forks: user frames of a process
	   that exits before the rings are drained still get their names */
	a.mmap = a.mmap2 = a.comm = a.comm_exec = a.task = !second;
	a.sample_id_all = 1;	/* their times: applied in order (sample_side.c), each sample read
				   against the maps of its moment */
	a.watermark = 1;
	a.wakeup_watermark = sp->ring_pages * 4096 / 4;
	return (int)syscall(SYS_perf_event_open, &a, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

/* ft_sampler_map_cpu - the ring of @cpu on @fd, or route @fd into the ring of @first
   (>= 0); -1 printed */
int ft_sampler_map_cpu(struct ft_sampler *sp, int cpu, int fd, int first)
{
	if (first >= 0) {
		if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, first) == 0)
			return 0;
		ft_err("cannot share the sample ring of CPU %d: %s", cpu, strerror(errno));
		return -1;
	}
	sp->ring[cpu] = mmap(NULL, sp->ring_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (sp->ring[cpu] != MAP_FAILED)
		return 0;
	sp->ring[cpu] = NULL;
	ft_err("cannot map the sample ring of CPU %d: %s%s", cpu, strerror(errno),
	       errno == EPERM ? " (raise kernel.perf_event_mlock_kb)" : "");
	return -1;
}
