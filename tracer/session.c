// SPDX-License-Identifier: GPL-2.0
/*
 * Session lifecycle: create a private instance with tracing off, configure it
 * (no-overwrite, mono clock, buffer size, CPU mask, pid filter, events), start,
 * stop, and remove it. Only files inside the instance are written, so removing
 * the instance restores everything; tracefs itself is mounted when it is not.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include <tracefs/tracefs.h>

#include "events/decode.h"
#include "events/tep.h"
#include "lib/util.h"
#include "tracer/desc.h"
#include "tracer/hotplug.h"
#include "tracer/reader.h"
#include "tracer/ringmap.h"
#include "tracer/session.h"

/**
 * ft_tracefs_mount - make sure tracefs is mounted (this VM boots without it)
 * Returns 0, or -1 after printing why not.
 */
int ft_tracefs_mount(void)
{
	/* finds tracefs, mounting it when needed (tracefs_tracing_dir_is_mounted leaks its path) */
	const char *dir = tracefs_tracing_dir();

	if (!dir || !tracefs_dir_exists(NULL, "instances")) {
		ft_err("tracefs is not available: cannot mount it on /sys/kernel/tracing (%s)",
		       strerror(errno ? errno : ENODEV));
		return -1;
	}
	return 0;
}

/* write_knob - write @val to an instance file; prints the error */
static int write_knob(struct ft_session *s, const char *file, const char *val)
{
	if (tracefs_instance_file_write(s->inst, file, val) < 0) {
		ft_err("cannot write '%s' to %s of instance %s: %s", val, file, s->name,
		       strerror(errno));
		return -1;
	}
	return 0;
}

/* set_clock - the instance's trace clock; an unknown name is said with the kernel's list */
static int set_clock(struct ft_session *s, const char *name)
{
	char *list, *save;

	if (tracefs_instance_file_write(s->inst, "trace_clock", name) >= 0)
		return 0;
	if (errno != EINVAL)
		return write_knob(s, "trace_clock", name);	/* says why */
	list = tracefs_instance_file_read(s->inst, "trace_clock", NULL);
	ft_err("this kernel has no trace clock '%s' (it has: %s)", name,
	       list ? strtok_r(list, "\n", &save) : "?");
	free(list);
	return -1;
}

/* cpumask_str - tracing_cpumask text: 32-bit hex groups, most significant first */
static void cpumask_str(const bool *on, int ncpus, char *buf, size_t len)
{
	int groups = (ncpus + 31) / 32, g, c;
	size_t off = 0;

	for (g = groups - 1; g >= 0 && off < len; g--) {
		unsigned int w = 0;

		for (c = 0; c < 32 && g * 32 + c < ncpus; c++)
			if (on[g * 32 + c])
				w |= 1u << c;
		off += snprintf(buf + off, len - off, "%s%08x", g == groups - 1 ? "" : ",", w);
	}
}

/* set_pid_filter - record only events of @pids (and their children when @follow) */
static int set_pid_filter(struct ft_session *s, const int *pids, int npids, bool follow)
{
	size_t len = (size_t)npids * 12 + 2, off = 0;
	char *buf = malloc(len);
	int i, ret;

	if (!buf)
		return -1;
	buf[0] = 0;
	for (i = 0; i < npids; i++)
		off += snprintf(buf + off, len - off, "%d ", pids[i]);
	ret = write_knob(s, "set_event_pid", buf);
	free(buf);
	if (!ret)
		ret = write_knob(s, "options/event-fork", follow ? "1" : "0");
	return ret;
}

/*
 * enable_stacks - stacks come from the instance's stacktrace / userstacktrace option:
 * every event of this instance is followed by the stack of the task that made it
 */
static int enable_stacks(struct ft_session *s, int type, bool required)
{
	const char *opt = type == FT_EV_KSTACK ? "options/stacktrace" : "options/userstacktrace";

	if (!tracefs_file_exists(s->inst, opt)) {
		if (!required)
			return 0;
		ft_err("this kernel has no %s", opt);
		errno = ENOENT;
		return -1;
	}
	if (write_knob(s, opt, "1"))
		return -1;
	s->enabled |= FT_NEED(type);
	return 0;
}

/*
 * ft_session_event_on - write 1 to the instance's events/@system/@event/enable; 0, or -1
 * with errno. One write: libtracefs 1.6's tracefs_event_enable() walks every event
 * system of the kernel to match its regexes (some 750 stat calls a run, for 4 events).
 */
int ft_session_event_on(struct ft_session *s, const char *system, const char *event)
{
	char path[512];

	if (snprintf(path, sizeof(path), "events/%s/%s/enable", system, event) >=
	    (int)sizeof(path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return tracefs_instance_file_write(s->inst, path, "1") < 0 ? -1 : 0;
}

/* enable_one - enable SYSTEM:EVENT in the instance; 0, or -1 after printing why not */
static int enable_one(struct ft_session *s, const char *system, const char *event)
{
	if (!tracefs_event_file_exists(s->inst, system, event, "enable")) {
		ft_err("this kernel has no %s:%s event", system, event);
		errno = ENOENT;
		return -1;
	}
	if (ft_session_event_on(s, system, event)) {
		ft_err("cannot enable %s:%s: %s", system, event, strerror(errno));
		return -1;
	}
	return 0;
}

/* ft_session_has_event - does the kernel have event @system:@event? */
bool ft_session_has_event(struct ft_session *s, const char *system, const char *event)
{
	return tracefs_event_file_exists(s->inst, system, event, "enable");
}

/*
 * enable_events - enable what the analyzers need (required) and want (if present).
 * sched_wakeup only wanted beside sched_waking is a fallback: skipped when waking exists.
 */
static int enable_events(struct ft_session *s, unsigned int need, unsigned int want)
{
	int i;

	/* the tracefs look-up only when sched_waking is wanted at all */
	want = ft_want_wakeups(need, want, (want & FT_NEED(FT_EV_WAKING)) &&
			       tracefs_event_file_exists(s->inst, "sched", "sched_waking", "enable"));
	for (i = 1; i < FT_EV_NTYPES; i++) {
		const struct ft_event_def *e = &ft_event_defs[i];

		if (!((need | want) & FT_NEED(i)))
			continue;
		if (i == FT_EV_KSTACK || i == FT_EV_USTACK) {
			if (enable_stacks(s, i, need & FT_NEED(i)))
				return -1;
			continue;
		}
		/* a wanted event the kernel lacks is skipped */
		if (!(need & FT_NEED(i)) &&
		    !tracefs_event_file_exists(s->inst, e->system, e->name, "enable"))
			continue;
		if (enable_one(s, e->system, e->name))
			return -1;
		s->enabled |= FT_NEED(i);
	}
	return 0;
}

/* ft_owned_name - @buf: a name of ours, FT_INSTANCE_PREFIX @sep PID @sep RANDOM (reset's form) */
void ft_owned_name(char *buf, size_t len, char sep)
{
	unsigned int rnd = 0;

	if (getrandom(&rnd, sizeof(rnd), 0) != sizeof(rnd))
		rnd = (unsigned int)ft_now_ns();
	snprintf(buf, len, FT_INSTANCE_PREFIX "%c%d%c%08x", sep, getpid(), sep, rnd);
}

/*
 * instance_new - a tracefs instance made now under a name of ours (in @name).
 * Returns it, or NULL with errno (EEXIST: one of that name was there, left alone).
 */
static struct tracefs_instance *instance_new(char *name, size_t len)
{
	struct tracefs_instance *inst;

	ft_owned_name(name, len, '-');
	errno = 0;
	inst = tracefs_instance_create(name);
	if (!inst) {
		if (!errno)
			errno = EIO;
		return NULL;
	}
	if (!tracefs_instance_is_new(inst)) {
		tracefs_instance_free(inst);
		errno = EEXIST;
		return NULL;
	}
	return inst;
}

/*
 * instance_remove - remove the instance @inst (from instance_new) and free it;
 * rmdir is refused while a reader still holds a file of it: retried for half a second.
 * One that stays is named on stderr.
 */
static void instance_remove(struct tracefs_instance *inst)
{
	int tries, e = 0;

	if (!inst)
		return;
	for (tries = 0; tries < 50; tries++) {
		e = tracefs_instance_destroy(inst) ? errno : 0;
		if (e != EBUSY)
			break;
		usleep(10000);
	}
	if (e)
		ft_err("cannot remove tracefs instance %s (%s): `ftscope reset` removes it",
		       tracefs_instance_get_name(inst), strerror(e));
	tracefs_instance_free(inst);
}

/**
 * ft_session_open - create and configure the run's own instance, tracing off
 * @need: events that must exist; @want: events used when the kernel has them;
 * @pids: in-kernel pid filter (npids 0: whole system), @follow_fork: add children.
 * Returns 0; -1 after printing the reason (the caller still calls ft_session_close).
 */
int ft_session_open(struct ft_session *s, const struct ft_trace_desc *d, unsigned int need,
		    unsigned int want, const int *pids, int npids, bool follow_fork)
{
	char mask[1024], *hp;
	size_t len;
	int i;

	memset(s, 0, sizeof(*s));
	s->ncpus = d->ncpus;
	/* -C while following forks: a fork on another CPU must be seen to follow its
	   child, so the kernel records every CPU (the pid filter keeps it to the traced
	   tasks) and the pipeline keeps -C's CPUs (deliver in engine/pipeline.c) */
	s->cpu_on = follow_fork ? NULL : d->cpu_on;
	if (ft_tracefs_mount())
		return -1;
	s->inst = instance_new(s->name, sizeof(s->name));
	if (!s->inst) {
		if (errno == EEXIST)
			ft_err("tracefs instance %s already exists", s->name);
		else
			ft_err("cannot create tracefs instance %s: %s", s->name, strerror(errno));
		return -1;
	}
	if (write_knob(s, "tracing_on", "0") || write_knob(s, "options/overwrite", "0") ||
	    set_clock(s, d->clock ? d->clock : "mono"))
		return -1;
	if (d->buffer_kb) {
		snprintf(mask, sizeof(mask), "%u", d->buffer_kb);
		if (write_knob(s, "buffer_size_kb", mask))
			return -1;
	}
	if (s->cpu_on) {
		cpumask_str(s->cpu_on, d->ncpus, mask, sizeof(mask));
		if (write_knob(s, "tracing_cpumask", mask))
			return -1;
	}
	if (npids && set_pid_filter(s, pids, npids, follow_fork))
		return -1;
	if (enable_events(s, need, want))
		return -1;
	hp = tracefs_instance_file_read(s->inst, "events/header_page", NULL);
	if (!hp)
		hp = tracefs_instance_file_read(NULL, "events/header_page", NULL);
	len = hp ? strlen(hp) : 0;
	if (!hp || ft_page_fmt_parse(&s->pf, hp, len)) {
		free(hp);
		ft_err("cannot read the ring-buffer page layout (events/header_page)");
		return -1;
	}
	free(hp);
	s->fd = malloc(s->ncpus * sizeof(*s->fd));
	s->stats_fd = malloc(s->ncpus * sizeof(*s->stats_fd));
	s->tcpu = calloc(s->ncpus, sizeof(*s->tcpu));
	s->lost_base = calloc(s->ncpus, sizeof(*s->lost_base));
	s->lost_seen = calloc(s->ncpus, sizeof(*s->lost_seen));
	if (!s->fd || !s->stats_fd || !s->tcpu || !s->lost_base || !s->lost_seen) {
		ft_err("out of memory");
		return -1;
	}
	for (i = 0; i < s->ncpus; i++)
		s->fd[i] = s->stats_fd[i] = -1;
	return 0;
}

/**
 * ft_session_enable - enable one more event, "SYSTEM:EVENT", in the instance
 * Returns 0 or -1 after printing the error.
 */
int ft_session_enable(struct ft_session *s, const char *spec)
{
	char sys[256];
	const char *colon = strchr(spec, ':');

	if (!colon || colon == spec || !colon[1] || (size_t)(colon - spec) >= sizeof(sys)) {
		ft_err("bad event '%s': expected SYSTEM:EVENT", spec);
		return -1;
	}
	snprintf(sys, sizeof(sys), "%.*s", (int)(colon - spec), spec);
	return enable_one(s, sys, colon + 1);
}

/**
 * ft_session_format_read - ft_format_read_fn over the instance: its own header_page
 * (the sub-buffer size may differ from the top level) and event formats
 */
char *ft_session_format_read(void *ctx, const char *system, const char *event, size_t *len)
{
	struct ft_session *s = ctx;
	char *text;
	int size = 0;

	if (!system) {
		text = tracefs_instance_file_read(s->inst, "events/header_page", &size);
		if (!text)
			text = tracefs_instance_file_read(NULL, "events/header_page", &size);
	} else {
		text = tracefs_event_file_read(s->inst, system, event, "format", &size);
	}
	if (text && len)
		*len = size > 0 ? (size_t)size : strlen(text);
	return text;
}

/**
 * ft_session_start - note the loss counters, then turn tracing on
 * Returns 0 or -1 after printing the error.
 */
int ft_session_start(struct ft_session *s)
{
	int i;

	for (i = 0; i < s->ncpus; i++)
		s->lost_base[i] = ft_session_lost(s, i);
	return write_knob(s, "tracing_on", "1");
}

/**
 * ft_session_add_pid - add a task to a running session's pid filter
 * Returns 0 or -1 (errno set).
 */
int ft_session_add_pid(struct ft_session *s, int pid)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%d", pid);
	return tracefs_instance_file_append(s->inst, "set_event_pid", buf) < 0 ? -1 : 0;
}

/* ft_session_stop - turn tracing off (idempotent) */
void ft_session_stop(struct ft_session *s)
{
	if (s->inst)
		tracefs_instance_file_write(s->inst, "tracing_on", "0");
}

/**
 * ft_session_close - stop, close the per-CPU readers and remove the instance
 * Safe on a partly opened session and when called twice.
 */
void ft_session_close(struct ft_session *s)
{
	int i;

	if (!s->inst)
		goto out;
	ft_session_stop(s);
	ft_reader_unmap(s);
	for (i = 0; s->fd && i < s->ncpus; i++) {
		if (s->tcpu[i])
			tracefs_cpu_free_fd(s->tcpu[i]);
		if (s->fd[i] >= 0)
			close(s->fd[i]);
		if (s->stats_fd && s->stats_fd[i] >= 0)
			close(s->stats_fd[i]);	/* before the rmdir: a held file is EBUSY */
		s->fd[i] = -1;
		if (s->stats_fd)
			s->stats_fd[i] = -1;
		s->tcpu[i] = NULL;
	}
	instance_remove(s->inst);
	s->inst = NULL;
out:
	ft_hotplug_close(s);
	free(s->fd);
	free(s->stats_fd);
	FT_FREE(s->tcpu);
	free(s->lost_base);
	free(s->lost_seen);
	s->fd = s->stats_fd = NULL;
	s->lost_base = s->lost_seen = NULL;
}

/**
 * ft_session_map_probe - whether the kernel maps a run's ring buffers: in an instance made
 * for the try and removed, each CPU's meta page is mapped and at once unmapped (nothing
 * read) until one maps, as a run maps those it can. Not the top-level buffer: where a
 * snapshot is armed there it refuses (EBUSY) though a run's own instance maps, and a
 * mapping there would refuse another tool's snapshot for that moment.
 * Returns 0, or the errno of the instance or of the first CPU's try (ENODEV before
 * Linux 6.10).
 */
int ft_session_map_probe(void)
{
	struct tracefs_instance *inst;
	char name[64], rel[64], *path;
	int cpu, e = ENOENT, first = ENOENT;

	inst = instance_new(name, sizeof(name));
	if (!inst)
		return errno;
	for (cpu = 0; e; cpu++) {
		snprintf(rel, sizeof(rel), "per_cpu/cpu%d/trace_pipe_raw", cpu);
		if (!tracefs_file_exists(inst, rel))
			break;
		path = tracefs_instance_get_file(inst, rel);
		e = path ? ft_ringmap_try(path) : ENOMEM;
		tracefs_put_tracing_file(path);
		if (!cpu)
			first = e;
	}
	instance_remove(inst);
	return e ? first : 0;
}
