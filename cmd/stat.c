// SPDX-License-Identifier: GPL-2.0
/*
 * `ftscope stat`: counters on their own, in perf stat's layouts (text, -x CSV,
 * --json, -I interval lines), for a command, processes, threads or CPUs.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analyzers/analyzer.h"
#include "cmd/commands.h"
#include "cmd/options.h"
#include "lib/file.h"
#include "lib/util.h"
#include "output/json.h"
#include "tracer/command.h"
#include "tracer/desc.h"
#include "tracer/pmu.h"

/* perf stat's default events, per task and system wide */
#define DEFAULT_TASK	"task-clock,context-switches,cpu-migrations,page-faults," \
			"cycles,instructions,branches,branch-misses"
#define DEFAULT_CPU	"cpu-clock,context-switches,cpu-migrations,page-faults," \
			"cycles,instructions,branches,branch-misses"

struct stat_opts {
	char		*events;	/* -e, comma-joined when given several times */
	long		interval_ms;	/* -I */
	const char	*sep;		/* -x */
	bool		perf_json;	/* -j */
	long		repeat;		/* -r N: run the command N times */
};

/* What -r keeps of each run: every counter's mean and spread, and the elapsed time's. */
struct stat_runs {
	int			n;
	int			nev;
	struct ft_pmu_count	*c;		/* types and states of the first run */
	char			**names;	/* their names (the runs' own go with them) */
	char			target[128];	/* "'cmd args'" */
	double			*mean, *m2;	/* per counter, Welford; [nev]: elapsed ns */
	double			*enabled, *running;
};

static const struct option stat_long[] = {
	{ "event",		required_argument, NULL, 'e' },
	{ "interval-print",	required_argument, NULL, 'I' },
	{ "field-separator",	required_argument, NULL, 'x' },
	{ "perf-json",		no_argument,       NULL, 'j' },
	{ "repeat",		required_argument, NULL, 'r' },
	{ NULL, 0, NULL, 0 },
};

static const char stat_help[] =
	"Usage: ftscope stat [-e LIST] [-a | -C CPUS | -p PID | -t TID] [-I MS] [-x SEP | -j] [-r N] [--json]\n"
	"                    [-d SECS] [-o FILE] [[--] command [args]]\n\n"
	"Count events with perf_event_open, as perf stat does, and print them in its layout\n"
	"on stderr (or -o FILE). Without a command, -p or -t: the whole system, per CPU.\n\n"
	"Options:\n"
	"  -e, --event LIST      events, comma separated; {a,b} counts a and b as one group\n"
	"  -a, --all-cpus        count on every CPU (with a command: while it runs)\n"
	"  -C, --cpu CPUS        count on these CPUs only (e.g. 0,2-3)\n"
	"  -p, --pid PID[,PID]   count these processes (all their threads), until they exit\n"
	"  -t, --tid TID[,TID]   count these threads\n"
	"  -I, --interval-print MS  print the counts of each MS milliseconds (>= 10)\n"
	"  -x, --field-separator SEP  CSV: value,unit,event,running ns,% running,metric,unit\n"
	"  -j, --perf-json       perf stat -j's layout: one JSON object per counter and line\n"
	"  -r, --repeat N        run the command N times: means, and perf's ( +- x% ) spread\n"
	"      --json            one JSON object per window\n"
	"  -d, --duration SECS   stop after SECS seconds (a command still running then is\n"
	"                        ended with SIGTERM, SIGKILL 2 s later)\n"
	"      --keep-command    leave it running instead\n"
	"  -o, --output FILE     write the report to FILE instead of stderr\n"
	"  -h, --help            this help\n\n"
	"Events (perf's names; append :u or :k for user or kernel only):\n"
	"  hardware  cycles instructions branches branch-misses cache-references cache-misses\n"
	"            bus-cycles ref-cycles stalled-cycles-frontend stalled-cycles-backend\n"
	"  cache     {L1-dcache,L1-icache,LLC,dTLB,iTLB,branch,node}-{loads,load-misses,stores,\n"
	"            store-misses,prefetches,prefetch-misses}\n"
	"  software  task-clock cpu-clock context-switches (cs) cpu-migrations page-faults\n"
	"            minor-faults major-faults alignment-faults emulation-faults\n"
	"  tracepoint SYSTEM:EVENT (e.g. sched:sched_switch)   raw  rHEX\n"
	"Counters the machine lacks print <not supported>; the others still count.\n\n"
	"EXAMPLES:\n"
	"  ftscope stat -- make -j2                  # perf stat's default events\n"
	"  ftscope stat -e task-clock,page-faults -x, -- ./app\n"
	"  ftscope stat -a -I 1000 -e cs,sched:sched_switch -d 5\n"
	"  ftscope stat -e '{cycles,instructions}' -p 1234 -d 10\n";

/* stat_opt - the options of stat on top of the common ones */
static int stat_opt(void *priv, int opt, const char *arg)
{
	struct stat_opts *so = priv;
	char *ev;

	switch (opt) {
	case 'e':
		if (asprintf(&ev, "%s%s%s", so->events ? so->events : "", so->events ? "," : "",
			     arg) < 0)
			return -1;
		free(so->events);
		so->events = ev;
		return 0;
	case 'I':
		return ft_parse_long(arg, 10, 3600000, &so->interval_ms) ? -1 : 0;
	case 'x':
		if (!*arg)
			return -1;
		so->sep = arg;
		return 0;
	case 'j':
		so->perf_json = true;
		return 0;
	case 'r':
		return ft_parse_long(arg, 1, 100000, &so->repeat) ? -1 : 0;
	}
	return -1;
}

static const struct ft_cli stat_def = {
	.name = "stat",
	.summary = "count hardware, software and tracepoint events, as perf stat",
	.shortopts = "e:I:x:jr:",
	.longopts = stat_long,
	.parse_opt = stat_opt,
	.help = stat_help,
	.command_words = true,
};

/* pidfd - a file descriptor that polls readable when @pid exits, or -1 */
static int pidfd(pid_t pid)
{
	return (int)syscall(SYS_pidfd_open, pid, 0);
}

/*
 * watch - pidfds of what the count ends with: the command, or the processes of -p
 * (perf stat -p ends when they have all exited). Returns how many could be opened.
 */
static int watch(const struct ft_opts *o, const struct ft_child *child, struct pollfd **pf)
{
	int i, n = 0, want = o->cmd ? 1 : o->npids;

	*pf = want ? calloc(want, sizeof(**pf)) : NULL;
	for (i = 0; *pf && i < want; i++) {
		(*pf)[n].fd = pidfd(o->cmd ? child->pid : o->pids[i]);
		(*pf)[n].events = POLLIN;
		n += (*pf)[n].fd >= 0;
	}
	return n;
}

/* wait_until - sleep until @deadline (ns, 0: none), an exit of @pf's, or a signal */
static void wait_until(struct pollfd *pf, int n, uint64_t deadline)
{
	uint64_t now = ft_now_ns();
	int ms = -1;

	if (deadline)
		ms = deadline > now ? (int)((deadline - now + 999999) / 1000000) : 0;
	poll(pf, n, ms);
}

/* all_gone - have all the -p processes watched in @pf exited? */
static bool all_gone(const struct ft_opts *o, struct pollfd *pf, int n)
{
	int i, gone = 0;

	if (o->cmd || !n || poll(pf, n, 0) < 0)
		return false;
	for (i = 0; i < n; i++)
		gone += !!(pf[i].revents & (POLLIN | POLLHUP));
	return gone == n;
}

/* window - print one window: text block, CSV lines or a JSON object */
static void window(FILE *f, struct ft_pmu *p, const struct stat_opts *so, bool json,
		   double time_s, const struct ft_child *child)
{
	struct ft_pmu_fmt fmt = { .csv_sep = so->sep, .perf_json = so->perf_json,
				  .interval = so->interval_ms > 0,
				  .time_s = time_s };
	uint64_t elapsed = ft_pmu_read(p, fmt.interval);
	struct ft_json j;

	if (json) {
		ft_json_init(&j, f);
		ft_json_obj_begin(&j, NULL);
		ft_json_str(&j, "stat", p->target);
		if (fmt.interval)
			ft_json_double(&j, "time_s", time_s);
		ft_pmu_json(&j, p->count, p->nev, elapsed);
		if (child && child->exited) {
			ft_json_u64(&j, "user_ns", child->ru.ru_utime.tv_sec * 1000000000ULL +
				    child->ru.ru_utime.tv_usec * 1000ULL);
			ft_json_u64(&j, "sys_ns", child->ru.ru_stime.tv_sec * 1000000000ULL +
				    child->ru.ru_stime.tv_usec * 1000ULL);
		}
		ft_json_obj_end(&j);
		fputc('\n', f);
		return;
	}
	if (fmt.interval || so->sep || so->perf_json) {
		ft_pmu_print(f, p->count, p->nev, elapsed, &fmt);
		return;
	}
	ft_pmu_block(p, f, elapsed, &fmt, "");
	if (child && child->exited)
		fprintf(f, "\n%18.9f seconds user\n%18.9f seconds sys\n",
			child->ru.ru_utime.tv_sec + child->ru.ru_utime.tv_usec / 1e6,
			child->ru.ru_stime.tv_sec + child->ru.ru_stime.tv_usec / 1e6);
	fputc('\n', f);
}

/* runs_add - one more run of -r: each counter's scaled value and the elapsed time */
static int runs_add(struct stat_runs *r, struct ft_pmu *p)
{
	uint64_t elapsed = ft_pmu_read(p, false);
	int e;

	if (!r->c) {
		r->nev = p->nev;
		r->c = calloc(p->nev, sizeof(*r->c));
		r->mean = calloc(p->nev + 1, sizeof(double));
		r->m2 = calloc(p->nev + 1, sizeof(double));
		r->enabled = calloc(p->nev, sizeof(double));
		r->running = calloc(p->nev, sizeof(double));
		r->names = calloc(p->nev, sizeof(*r->names));
		if (!r->c || !r->mean || !r->m2 || !r->enabled || !r->running || !r->names)
			return -1;
		memcpy(r->c, p->count, p->nev * sizeof(*r->c));
		for (e = 0; e < r->nev; e++) {
			r->names[e] = strdup(p->count[e].name);
			if (!r->names[e])
				return -1;
			r->c[e].name = r->names[e];
		}
	}
	r->n++;
	for (e = 0; e <= r->nev; e++) {
		double x = e < r->nev ? ft_pmu_scaled(&p->count[e]) : (double)elapsed;
		double d = x - r->mean[e];

		r->mean[e] += d / r->n;
		r->m2[e] += d * (x - r->mean[e]);
		if (e == r->nev)
			break;
		r->enabled[e] += p->count[e].enabled_ns;
		r->running[e] += p->count[e].running_ns;
		if (p->count[e].state == FT_PMU_COUNTED)
			r->c[e].state = FT_PMU_COUNTED;
	}
	return 0;
}

/* noise - perf's spread of a mean: the standard error, in % of the mean (0: none) */
static double noise(const struct stat_runs *r, int e)
{
	if (r->n < 2 || r->mean[e] == 0)
		return 0;
	return 100.0 * sqrt(r->m2[e] / (r->n - 1) / r->n) / fabs(r->mean[e]);
}

/* runs_print - perf stat -r's block: each counter's mean and spread, then the time */
static void runs_print(const struct stat_runs *r, FILE *f, const char *target)
{
	double *pct = calloc(r->nev + 1, sizeof(*pct));
	struct ft_pmu_fmt fmt = { .noise = pct };
	double el = r->mean[r->nev], sd;
	int e, prec;

	if (!pct)
		return;
	for (e = 0; e < r->nev; e++) {
		r->c[e].enabled_ns = (uint64_t)llround(r->enabled[e] / r->n);
		r->c[e].running_ns = (uint64_t)llround(r->running[e] / r->n);
		/* the mean is scaled already: raw is what scales back to it */
		r->c[e].raw = (uint64_t)llround(r->c[e].enabled_ns ?
			r->mean[e] * r->c[e].running_ns / r->c[e].enabled_ns : r->mean[e]);
		pct[e] = noise(r, e);
	}
	fprintf(f, "\n Performance counter stats for %s (%d runs):\n\n", target, r->n);
	ft_pmu_print(f, r->c, r->nev, (uint64_t)llround(el), &fmt);
	/* perf's digits: two more than the spread's first significant one */
	sd = el * noise(r, r->nev) / 100 / 1e9;
	prec = sd > 0 && sd < 1 ? (int)lround(ceil(-log10(sd))) + 2 : 2;
	fprintf(f, "\n %17.*f +- %.*f seconds time elapsed", prec, el / 1e9, prec, sd);
	if (noise(r, r->nev))
		fprintf(f, "  ( +-%6.2f%% )", noise(r, r->nev));
	fputs("\n\n", f);
	free(pct);
}

/* runs_free - what -r kept */
static void runs_free(struct stat_runs *r)
{
	int e;

	for (e = 0; r->names && e < r->nev; e++)
		free(r->names[e]);
	free(r->names);
	free(r->c);
	free(r->mean);
	free(r->m2);
	free(r->enabled);
	free(r->running);
}

/*
 * count - open, run the window(s), print; returns the exit status. With @runs (-r),
 * the run's counts go there instead of being printed.
 */
static int count(struct ft_opts *o, struct stat_opts *so, FILE *f, struct stat_runs *runs)
{
	struct ft_child child = { .pid = -1, .go_fd = -1, .err_fd = -1 };
	struct ft_pmu p = { 0 };
	struct ft_trace_desc td;
	uint64_t end = 0, next = 0;
	int ret = FT_EXIT_ERR, e, *pids = NULL, npids = 0, npf = 0, i;
	struct pollfd *pf = NULL;

	if (ft_pmu_parse(&p, so->events ? so->events :
			 o->cmd && !o->all && !o->cpu_on ? DEFAULT_TASK :
			 o->npids || o->ntids ? DEFAULT_TASK : DEFAULT_CPU)) {
		ret = FT_EXIT_USAGE;
		goto out;
	}
	if (o->cmd && (ft_command_check(o->cmd) || ft_command_spawn(&child, o->cmd)))
		goto out;
	ft_trace_desc_of(&td, o);
	if (ft_targets(&td, child.pid, &pids, &npids) || ft_pmu_open_desc(&p, &td, pids, npids))
		goto out;
	ft_install_signals();
	ft_pmu_enable(&p);
	if (o->cmd) {
		e = ft_command_release(&child);
		if (e) {
			ft_err("cannot run '%s': %s", o->cmd[0], strerror(e));
			goto out;
		}
	}
	npf = watch(o, &child, &pf);
	if (o->duration)
		end = p.t_start + (uint64_t)(o->duration * 1e9);
	if (so->interval_ms) {
		next = p.t_start + so->interval_ms * 1000000ULL;
		if (!o->json && !so->sep && !so->perf_json)
			fprintf(f, "#           time             counts unit events\n");
	}
	while (!ft_stop_signal && !(o->cmd && ft_command_reap(&child)) && !all_gone(o, pf, npf)) {
		uint64_t now = ft_now_ns(), wake = end;

		if (end && now >= end)
			break;
		if (next && (!wake || next < wake))
			wake = next;
		if (next && now >= next) {
			window(f, &p, so, o->json, (now - p.t_start) / 1e9, NULL);
			fflush(f);
			next += so->interval_ms * 1000000ULL;
			continue;
		}
		wait_until(pf, npf, wake);
	}
	ft_pmu_disable(&p);
	if (runs && runs_add(runs, &p)) {
		ft_err("out of memory");
		goto out;
	}
	if (!runs)
		window(f, &p, so, o->json, (ft_now_ns() - p.t_start) / 1e9,
		       o->cmd ? &child : NULL);
	if (runs && !runs->target[0])
		snprintf(runs->target, sizeof(runs->target), "%s", p.target);
	ret = FT_EXIT_OK;
	/* as perf stat: the command's own exit status */
	if (o->cmd && child.exited && WIFEXITED(child.status))
		ret = WEXITSTATUS(child.status);
out:
	if (o->cmd && child.pid > 0 && child.go_fd >= 0)
		ft_command_kill(&child);
	if (o->cmd)
		ft_command_finish(&child, o->cmd, o->keep_cmd);
	for (i = 0; i < npf; i++)
		close(pf[i].fd);
	free(pf);
	free(pids);
	ft_pmu_close(&p);
	return ret;
}

/* repeat - -r N: the command N times, one after another; the last one's exit status */
static int repeat(struct ft_opts *o, struct stat_opts *so, FILE *f)
{
	struct stat_runs runs = { 0 };
	int ret = FT_EXIT_OK;
	long i;

	for (i = 0; i < so->repeat && !ft_stop_signal; i++) {
		ret = count(o, so, f, &runs);
		if (runs.n <= i)
			break;	/* this run failed before counting: its line said why */
	}
	if (runs.n)
		runs_print(&runs, f, runs.target);
	runs_free(&runs);
	return ret;
}

/**
 * ft_cmd_stat - `ftscope stat [options] [--] [command [args]]`
 * Returns the command's exit status, or an ftscope status.
 */
int ft_cmd_stat(int argc, char **argv)
{
	struct stat_opts so = { 0 };
	struct ft_outfile of = { 0 };
	struct ft_opts o = { 0 };
	FILE *f = stderr;
	int ret;

	ft_set_prog("ftscope stat");
	o.ncpus = ft_possible_cpus();
	ret = ft_opts_parse(&o, &stat_def, &so, argc, argv);
	if (ret == FT_PARSE_RUN && (o.input || o.buffer_kb || o.timestamps || o.pmu ||
				    ft_opts_reader(&o))) {
		ft_err("-i, -b, -T, -v, --pmu, --mmap and --realtime do not apply to stat (see --help)");
		ret = FT_EXIT_USAGE;
	}
	/* -o: a temporary file renamed at the end, so a full disk leaves nothing behind */
	if (ret == FT_PARSE_RUN && o.output) {
		if (ft_outfile_open(&of, o.output)) {
			ft_err("cannot write %s: %s", o.output, strerror(errno));
			ret = FT_EXIT_ERR;
		}
		f = of.f;
	}
	if (ret == FT_PARSE_RUN && so.repeat > 1 &&
	    (!o.cmd || so.interval_ms || so.sep || so.perf_json || o.json)) {
		ft_err("-r repeats a command, in the text layout (not with -I, -x, -j or --json)");
		ret = FT_EXIT_USAGE;
	}
	if (ret == FT_PARSE_RUN) {
		ret = so.repeat > 1 ? repeat(&o, &so, f) : count(&o, &so, f, NULL);
		/* a report lost is the error, whatever the command's own status */
		if (of.f && ft_outfile_commit(&of)) {
			ft_err("cannot write %s: %s", o.output, strerror(errno));
			ret = FT_EXIT_ERR;
		}
	}
	ft_outfile_abandon(&of);
	ft_opts_free(&o);
	free(so.events);
	return ret;
}
