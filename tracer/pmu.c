// SPDX-License-Identifier: GPL-2.0
/*
 * perf_event_open counting. Event names are perf's (cycles, task-clock,
 * L1-dcache-load-misses, sched:sched_switch, rNNNN, with :u/:k modifiers and
 * {a,b} groups). Each event is opened once per target: per task with inherit
 * (children and new threads count too), or per CPU. Values are read with
 * time_enabled/time_running so multiplexed counters can be scaled.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <tracefs.h>

#include "events/tep.h"
#include "lib/parse.h"
#include "lib/util.h"
#include "output/json.h"
#include "tracer/desc.h"
#include "tracer/pmu.h"
#include "tracer/session.h"

static const struct {
	const char	*name;
	uint32_t	type;
	uint64_t	config;
} symbolic[] = {
	{ "cpu-cycles",			PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "cycles",			PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions",		PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache-references",		PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses",		PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	{ "branch-instructions",	PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branches",			PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses",		PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
	{ "bus-cycles",			PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES },
	{ "stalled-cycles-frontend",	PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ "stalled-cycles-backend",	PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ "ref-cycles",			PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES },
	{ "cpu-clock",			PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	{ "task-clock",			PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "page-faults",		PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "faults",			PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "context-switches",		PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cs",				PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations",		PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "migrations",			PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "minor-faults",		PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN },
	{ "major-faults",		PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	{ "alignment-faults",		PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS },
	{ "emulation-faults",		PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS },
};

static const char *const cache_names[] = {
	[PERF_COUNT_HW_CACHE_L1D] = "L1-dcache", [PERF_COUNT_HW_CACHE_L1I] = "L1-icache",
	[PERF_COUNT_HW_CACHE_LL] = "LLC", [PERF_COUNT_HW_CACHE_DTLB] = "dTLB",
	[PERF_COUNT_HW_CACHE_ITLB] = "iTLB", [PERF_COUNT_HW_CACHE_BPU] = "branch",
	[PERF_COUNT_HW_CACHE_NODE] = "node",
};

static const char *const cache_ops[][2] = {	/* access count, misses */
	[PERF_COUNT_HW_CACHE_OP_READ] = { "loads", "load-misses" },
	[PERF_COUNT_HW_CACHE_OP_WRITE] = { "stores", "store-misses" },
	[PERF_COUNT_HW_CACHE_OP_PREFETCH] = { "prefetches", "prefetch-misses" },
};

/* cache_event - "L1-dcache-load-misses" and the like as a PERF_TYPE_HW_CACHE config */
static bool cache_event(const char *s, uint64_t *config)
{
	unsigned int c, op, res;
	size_t n;

	for (c = 0; c < sizeof(cache_names) / sizeof(cache_names[0]); c++) {
		n = strlen(cache_names[c]);
		if (strncmp(s, cache_names[c], n) || s[n] != '-')
			continue;
		for (op = 0; op < 3; op++)
			for (res = 0; res < 2; res++)
				if (!strcmp(s + n + 1, cache_ops[op][res])) {
					*config = c | (op << 8) | ((uint64_t)res << 16);
					return true;
				}
	}
	return false;
}

/* tracepoint_id - the id of tracepoint SYS:NAME from tracefs, or -1 */
static long tracepoint_id(const char *sys, const char *name)
{
	char path[512], *text;
	long id = -1;

	if (strchr(sys, '/') || strchr(name, '/') || !*sys || !*name || ft_tracefs_mount())
		return -1;
	snprintf(path, sizeof(path), "%s/events/%s/%s/id", tracefs_tracing_dir(), sys, name);
	text = ft_read_file(path, 64, NULL);
	if (text && *text)
		id = strtol(text, NULL, 10);
	free(text);
	return id;
}

/* modifiers - ":u", ":k", ":uk" after an event name; false for anything else */
static bool modifiers(const char *m, struct ft_pmu_event *e)
{
	bool u = false, k = false;

	for (; *m; m++) {
		if (*m == 'u')
			u = true;
		else if (*m == 'k')
			k = true;
		else
			return false;
	}
	/* perf: :u counts user space only, :k the kernel only, both means both */
	e->exclude_kernel = u && !k;
	e->exclude_user = k && !u;
	return true;
}

/* ft_pmu_event_resolve - fill type/config of @e from its name; prints the error */
int ft_pmu_event_resolve(struct ft_pmu_event *e)
{
	char base[64], *colon;
	unsigned int i;
	long id;

	snprintf(base, sizeof(base), "%s", e->name);
	colon = strchr(base, ':');
	if (colon) {
		*colon = '\0';
		if (!modifiers(colon + 1, e)) {
			/* not modifiers: a tracepoint SYSTEM:EVENT */
			*colon = ':';
			colon = strchr(base, ':');
			*colon = '\0';
			id = tracepoint_id(base, colon + 1);
			if (id < 0) {
				ft_err("unknown event '%s' (no tracepoint %s:%s)", e->name, base,
				       colon + 1);
				return -1;
			}
			e->type = PERF_TYPE_TRACEPOINT;
			e->config = (uint64_t)id;
			return 0;
		}
	}
	for (i = 0; i < sizeof(symbolic) / sizeof(symbolic[0]); i++)
		if (!strcmp(base, symbolic[i].name)) {
			e->type = symbolic[i].type;
			e->config = symbolic[i].config;
			return 0;
		}
	if (cache_event(base, &e->config)) {
		e->type = PERF_TYPE_HW_CACHE;
		return 0;
	}
	if (base[0] == 'r' && base[1] && strspn(base + 1, "0123456789abcdefABCDEF") ==
	    strlen(base + 1)) {
		e->type = PERF_TYPE_RAW;
		e->config = strtoull(base + 1, NULL, 16);
		return 0;
	}
	ft_err("unknown event '%s' (see ftscope stat --help)", e->name);
	return -1;
}

/* add_event - append one named event; prints the error */
static int add_event(struct ft_pmu *p, const char *name, size_t len, int leader)
{
	struct ft_pmu_event *ev, *e;

	if (!len || len >= sizeof(ev->name)) {
		ft_err("bad event list: %s", len ? "event name too long" : "empty event name");
		return -1;
	}
	ev = realloc(p->ev, (p->nev + 1) * sizeof(*ev));
	if (!ev) {
		ft_err("out of memory");
		return -1;
	}
	p->ev = ev;
	e = &ev[p->nev];
	memset(e, 0, sizeof(*e));
	memcpy(e->name, name, len);
	e->leader = leader;
	if (ft_pmu_event_resolve(e))
		return -1;
	p->nev++;
	return 0;
}

/**
 * ft_pmu_parse - add the events of "a,b,{c,d}" to @p (may be called again)
 * Returns 0, or -1 after printing one error line.
 */
int ft_pmu_parse(struct ft_pmu *p, const char *list)
{
	const char *s = list, *end;
	int leader = -1;

	while (*s) {
		if (*s == '{') {
			if (leader >= 0 || s[1] == '{') {
				ft_err("bad event list '%s': groups cannot nest", list);
				return -1;
			}
			leader = p->nev;
			s++;
		}
		end = s + strcspn(s, ",}");
		if (add_event(p, s, end - s, leader))
			return -1;
		s = end;
		if (*s == '}') {
			if (leader < 0) {
				ft_err("bad event list '%s': '}' without '{'", list);
				return -1;
			}
			leader = -1;
			s++;
		}
		if (*s == ',')
			s++;
		else if (*s) {
			ft_err("bad event list '%s'", list);
			return -1;
		}
	}
	if (leader >= 0) {
		ft_err("bad event list '%s': '{' without '}'", list);
		return -1;
	}
	if (!p->nev) {
		ft_err("empty event list");
		return -1;
	}
	return 0;
}

/* unsupported - errnos that mean "this machine cannot count that event" */
static bool unsupported(int e)
{
	return e == ENOENT || e == EOPNOTSUPP || e == ENODEV || e == ENXIO || e == EINVAL;
}

/* paranoid - the perf_event_paranoid level, or -9 when unreadable */
static int paranoid(void)
{
	char *text = ft_read_file("/proc/sys/kernel/perf_event_paranoid", 64, NULL);
	int v = text && *text ? atoi(text) : -9;

	free(text);
	return v;
}

/* open_one - perf_event_open of event @e on target @t; -1 with errno set */
static int open_one(struct ft_pmu *p, int e, const struct ft_pmu_target *t, int tgt, int cpu)
{
	struct ft_pmu_event *ev = &p->ev[e];
	struct perf_event_attr a;
	int group = -1;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = ev->type;
	a.config = ev->config;
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	a.exclude_user = ev->exclude_user;
	a.exclude_kernel = ev->exclude_kernel;
	a.exclude_hv = ev->exclude_kernel;
	if (ev->leader >= 0 && ev->leader != e) {
		group = p->fd[ev->leader * p->ntgt + tgt];
		if (group < 0) {
			errno = p->ev[ev->leader].err;
			return -1;
		}
	} else {
		a.disabled = 1;
		a.enable_on_exec = t->enable_on_exec;
	}
	a.inherit = t->npids > 0;
	return (int)syscall(SYS_perf_event_open, &a, t->npids ? t->pids[tgt] : -1,
			    t->npids ? -1 : cpu, group, PERF_FLAG_FD_CLOEXEC);
}

/**
 * ft_pmu_can_sample - can this process sample @tracepoint (SYSTEM:EVENT) on itself?
 * Returns 0, or the errno of the refusal (perf_event_paranoid, a seccomp filter, a
 * kernel without perf events or without the tracepoint); prints nothing.
 */
int ft_pmu_can_sample(const char *tracepoint)
{
	struct perf_event_attr a;
	char sys[64];
	const char *colon = strchr(tracepoint, ':');
	long id;
	int fd;

	if (!colon || colon - tracepoint >= (long)sizeof(sys))
		return EINVAL;
	snprintf(sys, sizeof(sys), "%.*s", (int)(colon - tracepoint), tracepoint);
	id = tracepoint_id(sys, colon + 1);
	if (id < 0)
		return ENOENT;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_TRACEPOINT;
	a.config = (uint64_t)id;
	a.sample_period = 1;
	a.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	a.disabled = 1;
	fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

/* online_cpus - the CPUs to count on per CPU: @want, or every online one */
static int online_cpus(const struct ft_pmu_target *t, int **cpus)
{
	char *text = ft_read_file("/sys/devices/system/cpu/online", 4096, NULL);
	bool *on = NULL;
	int c, n = 0;

	*cpus = calloc(t->ncpus, sizeof(**cpus));
	if (!*cpus) {
		free(text);
		return -1;
	}
	if (text) {
		text[strcspn(text, "\n")] = '\0';
		if (ft_parse_cpus(text, t->ncpus, &on))
			on = NULL;
	}
	for (c = 0; c < t->ncpus; c++)
		if ((!on || on[c]) && (!t->cpu_on || t->cpu_on[c]))
			(*cpus)[n++] = c;
	free(on);
	free(text);
	return n;
}

/**
 * pmu_open - open every event on every target, disabled (or enabled at exec)
 * Events the machine lacks are kept as "not supported". Returns 0, or -1 after
 * printing one line (no permission, process gone, out of files).
 */
static int pmu_open(struct ft_pmu *p, const struct ft_pmu_target *t)
{
	int e, i, *cpus = NULL, fd;

	p->ntgt = t->npids ? t->npids : online_cpus(t, &cpus);
	if (p->ntgt <= 0) {
		ft_err("no CPU or task to count on");
		goto fail;
	}
	p->fd = malloc((size_t)p->nev * p->ntgt * sizeof(*p->fd));
	p->prev = calloc(p->nev, sizeof(*p->prev));
	p->count = calloc(p->nev, sizeof(*p->count));
	if (!p->fd || !p->prev || !p->count) {
		ft_err("out of memory");
		goto fail;
	}
	for (i = 0; i < p->nev * p->ntgt; i++)
		p->fd[i] = -1;
	for (i = 0; i < p->ntgt; i++) {
		for (e = 0; e < p->nev; e++) {
			if (p->ev[e].err)
				continue;
			fd = open_one(p, e, t, i, cpus ? cpus[i] : -1);
			if (fd < 0 && (errno == EACCES || errno == EPERM) && t->npids &&
			    !p->ev[e].exclude_kernel && !p->ev[e].exclude_user) {
				/* as perf: an unprivileged user may still count user space */
				p->ev[e].exclude_kernel = true;
				if (!strchr(p->ev[e].name, ':'))
					strncat(p->ev[e].name, ":u", sizeof(p->ev[e].name) -
						strlen(p->ev[e].name) - 1);
				fd = open_one(p, e, t, i, -1);
			}
			if (fd >= 0) {
				p->fd[e * p->ntgt + i] = fd;
				continue;
			}
			if (unsupported(errno)) {
				p->ev[e].err = errno;
				continue;
			}
			if (errno == EACCES || errno == EPERM)
				ft_err("cannot count %s: %s (perf_event_paranoid is %d: run as root, "
				       "or lower it with sysctl kernel.perf_event_paranoid=-1)",
				       p->ev[e].name, strerror(errno), paranoid());
			else if (errno == ESRCH)
				ft_err("cannot count %s: no task with id %d", p->ev[e].name,
				       t->pids[i]);
			else if (errno == EMFILE || errno == ENFILE)
				ft_err("cannot count %s: out of file descriptors (%d events x %d "
				       "targets): raise ulimit -n", p->ev[e].name, p->nev, p->ntgt);
			else
				ft_err("cannot count %s: %s", p->ev[e].name, strerror(errno));
			goto fail;
		}
	}
	free(cpus);
	return 0;
fail:
	free(cpus);
	ft_pmu_close(p);
	return -1;
}

/* ioctl_all - one ioctl on every open counter (group leaders carry their group) */
static void ioctl_all(struct ft_pmu *p, unsigned long req)
{
	int i;

	for (i = 0; i < p->nev * p->ntgt; i++) {
		int e = i / p->ntgt;

		if (p->fd[i] >= 0 && (p->ev[e].leader < 0 || p->ev[e].leader == e))
			ioctl(p->fd[i], req, 0);
	}
}

/* describe - the heading's name for what is counted, as perf stat words it */
static void describe(struct ft_pmu *p, const struct ft_trace_desc *d)
{
	size_t off = 0, len = sizeof(p->target);
	int i;

	if (d->cmd && !d->all && !d->cpu_on) {
		off += snprintf(p->target, len, "'");
		for (i = 0; d->cmd[i] && off < len; i++)
			off += snprintf(p->target + off, len - off, "%s%s", i ? " " : "", d->cmd[i]);
		if (off < len)
			snprintf(p->target + off, len - off, "'");
	} else if (d->npids || d->ntids) {
		off += snprintf(p->target, len, "%s id '", d->npids ? "process" : "thread");
		for (i = 0; i < (d->npids ? d->npids : d->ntids) && off < len; i++)
			off += snprintf(p->target + off, len - off, "%s%d", i ? "," : "",
					d->npids ? d->pids[i] : d->tids[i]);
		if (off < len)
			snprintf(p->target + off, len - off, "'");
	} else if (d->cpu_on) {
		off += snprintf(p->target, len, "'CPU(s)");
		for (i = 0; i < d->ncpus && off < len; i++)
			if (d->cpu_on[i])
				off += snprintf(p->target + off, len - off, " %d", i);
		if (off < len)
			snprintf(p->target + off, len - off, "'");
	} else {
		snprintf(p->target, len, "'system wide'");
	}
}

/**
 * ft_pmu_open_desc - open the counters on what @d names: per task on
 * @pids (ft_targets: the -p/-t threads, or the command, counted from its exec;
 * children inherit), or per CPU (-a or -C with a command, or no task given)
 * Returns 0, or -1 after printing one line.
 */
int ft_pmu_open_desc(struct ft_pmu *p, const struct ft_trace_desc *d, const int *pids, int npids)
{
	struct ft_pmu_target t = { .ncpus = d->ncpus, .cpu_on = d->cpu_on };

	describe(p, d);
	if (npids && !(d->cmd && (d->all || d->cpu_on))) {
		t.pids = pids;
		t.npids = npids;
		t.enable_on_exec = p->on_exec = d->cmd != NULL;
	}
	return pmu_open(p, &t);
}

/* ft_pmu_enable - start counting now (the window starts; a command's at its exec) */
void ft_pmu_enable(struct ft_pmu *p)
{
	if (!p->on_exec)
		ioctl_all(p, PERF_EVENT_IOC_ENABLE);
	p->t_start = p->t_last = ft_now_ns();
}

/* ft_pmu_disable - stop counting; the values stay readable */
void ft_pmu_disable(struct ft_pmu *p)
{
	ioctl_all(p, PERF_EVENT_IOC_DISABLE);
}

/**
 * ft_pmu_read - read every counter into p->count: the whole window, or the part
 * since the previous read when @since_last. Returns the elapsed time of that window.
 */
uint64_t ft_pmu_read(struct ft_pmu *p, bool since_last)
{
	uint64_t now = ft_now_ns(), elapsed;
	int e, i;

	for (e = 0; e < p->nev; e++) {
		struct ft_pmu_count *c = &p->count[e];
		uint64_t sum[3] = { 0, 0, 0 }, v[3];

		for (i = 0; i < p->ntgt; i++) {
			int fd = p->fd[e * p->ntgt + i];

			if (fd >= 0 && read(fd, v, sizeof(v)) == sizeof(v)) {
				sum[0] += v[0];
				sum[1] += v[1];
				sum[2] += v[2];
			}
		}
		c->name = p->ev[e].name;
		c->type = p->ev[e].type;
		c->config = p->ev[e].config;
		c->raw = sum[0] - (since_last ? p->prev[e][0] : 0);
		c->enabled_ns = sum[1] - (since_last ? p->prev[e][1] : 0);
		c->running_ns = sum[2] - (since_last ? p->prev[e][2] : 0);
		memcpy(p->prev[e], sum, sizeof(sum));
		if (p->ev[e].err)
			c->state = FT_PMU_NOT_SUPPORTED;
		else
			c->state = c->running_ns ? FT_PMU_COUNTED : FT_PMU_NOT_COUNTED;
	}
	elapsed = now - (since_last ? p->t_last : p->t_start);
	p->t_last = now;
	return elapsed;
}

/**
 * ft_pmu_report - the counters after an analyzer's report: a perf stat block in
 * @f, or a "pmu" array in the open JSON object @j
 */
void ft_pmu_report(struct ft_pmu *p, FILE *f, struct ft_json *j, bool since_last)
{
	struct ft_pmu_fmt fmt = { 0 };
	uint64_t elapsed = ft_pmu_read(p, since_last);

	if (j)
		ft_pmu_json(j, p->count, p->nev, elapsed);
	else
		ft_pmu_block(p, f, elapsed, &fmt, " over the trace");
}

/**
 * ft_pmu_block - perf stat's text block for the window just read: heading naming
 * the target (then @what), the counters, the elapsed time
 */
void ft_pmu_block(struct ft_pmu *p, FILE *f, uint64_t elapsed, const struct ft_pmu_fmt *fmt,
		  const char *what)
{
	fprintf(f, "\n Performance counter stats for %s%s:\n\n", p->target, what);
	ft_pmu_print(f, p->count, p->nev, elapsed, fmt);
	fprintf(f, "\n%18.9f seconds time elapsed\n", elapsed / 1e9);
}

/* ft_pmu_close - close every counter and free the lists */
void ft_pmu_close(struct ft_pmu *p)
{
	int i;

	for (i = 0; p->fd && i < p->nev * p->ntgt; i++)
		if (p->fd[i] >= 0)
			close(p->fd[i]);
	FT_FREE(p->fd);
	FT_FREE(p->prev);
	FT_FREE(p->count);
	FT_FREE(p->ev);
	p->nev = p->ntgt = 0;
}
