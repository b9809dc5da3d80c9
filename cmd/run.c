// SPDX-License-Identifier: GPL-2.0
/*
 * run_tool: the one lifecycle every analyzer goes through.
 *
 *   parse -> check targets -> session (instance, events, filter) -> tep + decoder
 *   -> readers -> start (command released) -> rounds: read, losses, merge up to the
 *   watermark, chain repair, analyzer -> interval reports -> stop, drain, final
 *   report and footer -> unwind through out_* labels on every path.
 *
 * Data flows one way: source -> decode -> merge -> chain -> analyzer -> output.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <traceevent/event-parse.h>

#include "analyzers/analyzer.h"
#include "cmd/clock_map.h"
#include "cmd/export.h"
#include "cmd/footer.h"
#include "cmd/options.h"
#include "cmd/run.h"
#include "cmd/samples.h"
#include "cmd/stages.h"
#include "cmd/tps.h"
#include "events/chain.h"
#include "events/decode.h"
#include "events/merge.h"
#include "events/source.h"
#include "events/tasks.h"
#include "events/tdat.h"
#include "events/tep.h"
#include "events/tool.h"
#include "lib/pidset.h"
#include "lib/util.h"
#include "output/json.h"
#include "tracer/command.h"
#include "tracer/pmu.h"
#include "tracer/probes.h"
#include "tracer/session.h"

/* Longest sleep between rounds: bounds the delay of Ctrl-C-free reports and memory. */
#define MAX_WAIT_MS	1000
/* Longest sleep while a capture samples the traced processes' maps. */
#define CAPTURE_MAPS_MS	100
/*
 * How far behind the clock the live merge stays. A record is stamped when its
 * writer reserves it and becomes readable when the writer commits; a writer whose
 * vCPU the host stalls in between commits late, after records stamped later on
 * other CPUs were merged. Records that still arrive later are counted (unordered).
 */
#define COMMIT_LAG_NS	20000000ULL

struct pipeline {
	struct ft_run		*run;		/* what to drive: analyzers, or a recording */
	struct ft_opts		*o;
	struct ft_decoder	dec;
	struct ft_chain		chain;
	struct ft_tasks		tasks;
	struct ft_imap		traced;		/* in-kernel pid filter, mirrored */
	struct ft_imap		shown;		/* -p/-t on a capture: the tasks reported */
	bool			show, show_follow;
	unsigned int		need, want;	/* events, after the analyzer's options */
	bool			filtered, follow;
	bool			chain_on;	/* the trace has switches: repair them */
	struct ft_env		env;
	int			ncpus;
	struct ft_footer	foot;		/* the footer's counts: lost ones kept here */
	uint64_t		first_ts, last_ts;
	struct ft_pmu		*pmu;		/* --pmu counters, NULL without */
	struct ft_probes	*probes;	/* the analyzer's function probes, or NULL */
	struct ft_probes	probes_own;	/* ... the tracer's, for its request */
	struct ft_tp		*tps;		/* the tracepoints read by name, or NULL */
	struct ft_capture	*cap;		/* -o FILE, or NULL */
	struct ft_samples	sm;		/* perf samples the analyzers take, if any */
	struct ft_export	ex;		/* the analyzer's histograms: Prometheus, heat map */
	bool			progress;	/* a progress line is on the terminal */
	char			kallsyms[64];	/* offline: the trace.dat's kallsyms (a memfd) */
};

/*
 * cpu_kept - is @cpu one of -C's (or of the -C a recording was made with, read by -i)?
 * Every CPU without -C. Only these CPUs' events reach the analyzers and count in
 * an analyzer's footer: under -C while following forks the kernel records every CPU.
 */
static inline bool cpu_kept(const struct pipeline *p, int cpu)
{
	const bool *on = p->o->cpu_on;

	return !on || (cpu >= 0 && cpu < p->o->ncpus && on[cpu]);
}

/*
 * cpu_counted - does @cpu count in the footer: an analyzer's, those it reports
 * (cpu_kept); a recording's, every CPU, since its file holds them all
 */
static inline bool cpu_counted(const struct pipeline *p, int cpu)
{
	return p->run->record || cpu_kept(p, cpu);
}

/* deliver - hand one decoded event to the analyzers */
static inline void deliver(struct pipeline *p, const struct ft_event *ev)
{
	/* -C: what the kernel's tracing_cpumask keeps live, here on a capture too */
	if (!cpu_kept(p, ev->cpu))
		return;
	ft_export_at(&p->ex, ev->ts);
	ft_stages_event(&p->run->stages, ev);
}

/* on_raw - one record: decode, follow forks, repair the chain, deliver */
static inline __attribute__((always_inline))
void on_raw(struct pipeline *p, const struct ft_raw *raw)
{
	struct ft_event ev, synth[FT_CHAIN_MAX_SYNTH];
	int i, n;

	ev.ts = raw->ts;
	ev.cpu = raw->cpu;
	/* the chain's step reads these behind a type test that LTO cannot always follow */
	ev.sw.prev_pid = ev.sw.next_pid = 0;
	if (raw->lost) {
		ev.type = FT_EV_LOST;
		ev.common_pid = -1;
		ev.id = -1;
		ev.size = 0;
		ev.data = NULL;
		ev.lost = raw->lost;
		if (!cpu_counted(p, raw->cpu))
			;
		else if (raw->lost > 0)
			p->foot.run.lost_cpu[raw->cpu] += raw->lost;
		else
			p->foot.run.lost_unknown++;
		if (p->chain_on)
			ft_chain_feed(&p->chain, &ev, synth);
		deliver(p, &ev);
		return;
	}
	if (ft_decode(&p->dec, raw->data, raw->size, &ev) == FT_EV_UNKNOWN)
		return;
	/* a wakeup the analyzer does not read still tells the chain who runs and who woke */
	if (p->dec.bare & FT_NEED(ev.type)) {
		n = p->chain_on ? ft_chain_feed(&p->chain, &ev, synth) : 0;
		for (i = 0; i < n; i++)
			deliver(p, &synth[i]);
		return;
	}
	if (ev.type == FT_EV_FORK) {
		ft_tasks_fork(&p->tasks, ev.fork.parent_pid, ev.fork.child_pid, ev.fork.child_comm);
		if (p->filtered && p->follow && ft_imap_get(&p->traced, ev.fork.parent_pid))
			ft_imap_put(&p->traced, ev.fork.child_pid, 1);
		if (p->show_follow && ft_imap_get(&p->shown, ev.fork.parent_pid))
			ft_imap_put(&p->shown, ev.fork.child_pid, 1);
	}
	/* a stack belongs to the record before it, made by the task that switched out */
	if (ev.type == FT_EV_KSTACK || ev.type == FT_EV_USTACK) {
		deliver(p, &ev);
		return;
	}
	n = p->chain_on ? ft_chain_feed(&p->chain, &ev, synth) : 0;
	for (i = 0; i < n; i++)
		deliver(p, &synth[i]);
	deliver(p, &ev);
}

/* on_raws - merge callback: @n records in time order */
static void on_raws(void *ctx, const struct ft_raw *raw, unsigned int n)
{
	struct pipeline *p = ctx;
	unsigned int i;

	if (!p->first_ts)
		p->first_ts = raw[0].ts;
	p->last_ts = raw[n - 1].ts;
	for (i = 0; i < n; i++)
		on_raw(p, &raw[i]);
}

/*
 * events_of - the records merged so far on the CPUs an analyzer reports (-C's);
 * a recording's: all it wrote
 */
static unsigned long long events_of(const struct pipeline *p, const struct ft_merge *m)
{
	unsigned long long n = 0;
	int cpu;

	if (!p->o->cpu_on || p->run->record)
		return m->events;
	for (cpu = 0; cpu < m->ncpus; cpu++)
		if (cpu_counted(p, cpu))
			n += m->cpu[cpu].events;
	return n;
}

/* counts_take - the run's running totals for the footer (-C's CPUs only) */
static void counts_take(struct pipeline *p, struct ft_merge *m)
{
	struct ft_counts *c = &p->foot.run;
	int cpu;

	c->events = events_of(p, m);
	c->lost = c->bad = 0;
	for (cpu = 0; cpu < p->ncpus; cpu++) {
		bool kept = cpu_counted(p, cpu);

		c->lost += c->lost_cpu[cpu];
		c->bad += kept ? m->cpu[cpu].bad_pages : 0;
		c->repaired_cpu[cpu] = kept ? p->chain.repaired_cpu[cpu] : 0;
	}
	c->repaired = p->chain.repaired;
	if (p->o->cpu_on && !p->run->record)
		for (c->repaired = 0, cpu = 0; cpu < p->ncpus; cpu++)
			c->repaired += c->repaired_cpu[cpu];
	c->split = p->chain.split;
	c->malformed = p->dec.malformed;
	c->unordered = m->unordered;
	c->sampled = p->sm.req != NULL;
	c->samples = p->sm.counts.samples;
	c->samples_lost = p->sm.counts.lost;
	c->throttled = p->sm.counts.throttled;
	c->samples_bad = p->sm.counts.bad;
}

/*
 * report - one report of the analyzer, with its footer; JSON as one object per line.
 * Returns 0, or -1 when an analyzer could not write its files (it said why).
 */
static int report(struct pipeline *p, struct ft_merge *m, bool final)
{
	struct ft_report r = { .f = stdout, .final = final, .interval = p->o->interval > 0 };
	struct ft_json j;

	r.ts = p->last_ts;
	r.start = p->first_ts;
	ft_stages_head(&r, p->o->json ? &j : NULL, p->run->name, p->o->timestamps);
	if (r.interval)		/* the analyzer resets its histograms: keep them */
		ft_export_fold(&p->ex);
	ft_stages_report(&p->run->stages, &r);
	if (p->pmu)
		ft_pmu_report(p->pmu, r.footer ? r.footer : r.f, r.json, r.interval);
	counts_take(p, m);
	if (p->run->record && p->cap)
		ft_footer_record(&p->foot, p->cap, r.footer ? r.footer : r.f, r.json);
	else
		ft_footer_print(&p->foot, r.footer ? r.footer : r.f, r.json, r.interval, final);
	if (r.json)
		ft_json_obj_end(&j);
	fflush(stdout);
	if (!final)
		ft_export_interval(&p->ex, p->foot.run.events);
	else if (ft_export_finish(&p->ex, p->foot.run.events))
		r.failed = true;
	return r.failed ? -1 : 0;
}

/* pipeline_init - decoder, chain, tasks and the analyzer over @tep */
static int pipeline_init(struct pipeline *p, struct tep_handle *tep, int ncpus, bool live)
{
	const struct ft_tp *tp;
	unsigned int want;

	p->ncpus = ncpus;
	if (ft_footer_init(&p->foot, ncpus) || ft_tasks_init(&p->tasks, live) ||
	    (p->env.cmdlines && ft_tasks_saved(&p->tasks, p->env.cmdlines->data,
					       p->env.cmdlines->len))) {
		ft_err("out of memory");
		return -1;
	}
	if (ft_decoder_init(&p->dec, tep)) {
		ft_err("the trace has no usable scheduler event formats");
		return -1;
	}
	if ((p->dec.have & p->need) != p->need) {
		int i;

		for (i = 1; i < FT_EV_NTYPES; i++)
			if ((p->need & FT_NEED(i)) && !(p->dec.have & FT_NEED(i)))
				ft_err("%s needs %s:%s, which the %s lacks", p->run->name,
				       ft_event_defs[i].system, ft_event_defs[i].name,
				       live ? "kernel" : "capture");
		return -1;
	}
	if (p->probes && ft_probes_decoder(p->probes, &p->dec))
		return -1;
	if (ft_tps_resolve(p->tps, p->run->name, tep, &p->dec, live))
		return -1;
	/* wakeup types no analyzer reads (sched_wakeup beside sched_waking) feed only the chain */
	want = ft_want_wakeups(p->need, p->want, p->dec.have & FT_NEED(FT_EV_WAKING));
	p->dec.bare = (FT_NEED(FT_EV_WAKING) | FT_NEED(FT_EV_WAKEUP) | FT_NEED(FT_EV_WAKEUP_NEW)) &
		      ~(p->need | want);
	for (tp = p->tps; tp; tp = tp->next)	/* a wakeup read by name is read whole */
		if (tp->id >= 0)
			p->dec.bare &= ~FT_NEED(p->dec.type_of[tp->id]);
	/* no switches in the trace (interrupts alone): no chain to repair, and a change of
	   common_pid between two records of a CPU proves no missing switch */
	p->chain_on = p->dec.have & FT_NEED(FT_EV_SWITCH);
	if (ft_chain_init(&p->chain, ncpus, p->filtered ? &p->traced : NULL)) {
		ft_err("out of memory");
		return -1;
	}
	p->env.out = stdout;
	p->env.json = p->o->json;
	p->env.cpu_on = p->o->cpu_on;
	p->env.task_filter = p->o->npids || p->o->ntids;
	p->env.funcs = p->probes ? &p->probes->funcs : NULL;
	p->env.tasks = &p->tasks;
	p->env.traced = p->show ? &p->shown : p->filtered ? &p->traced : NULL;
	p->env.filtered_stream = p->filtered;
	p->env.live = live;
	if (live)
		snprintf(p->env.clock, sizeof(p->env.clock), "%s", p->o->clock ? p->o->clock : "mono");
	p->env.have = p->dec.have;
	p->env.ncpus = ncpus;
	p->env.kallsyms = p->kallsyms[0] ? p->kallsyms : "/proc/kallsyms";
	p->env.samples = p->sm.req ? &p->sm.counts : NULL;
	p->env.sampled = p->sm.req;
	p->sm.stages = p->run->record ? NULL : &p->run->stages;
	p->sm.cpu_on = p->o->cpu_on;
	p->sm.ncpus = ncpus;
	p->sm.shown = p->show ? &p->shown : NULL;
	p->sm.tasks = &p->tasks;
	ft_export_start(&p->ex, p->foot.run.lost_cpu, ncpus);
	return ft_stages_init(&p->run->stages, &p->env);
}

/* pipeline_fini - free what pipeline_init made */
static void pipeline_fini(struct pipeline *p)
{
	ft_chain_fini(&p->chain);
	ft_decoder_fini(&p->dec);
	ft_tasks_fini(&p->tasks);
	ft_footer_fini(&p->foot);
}

/*
 * show_filter - -p/-t on a capture report these tasks, as perf sched timehist -p/-t
 * does: -p a process with its threads and the children the file shows it fork. The
 * file's own pid filter still tells the chain what the kernel recorded.
 */
static int show_filter(struct pipeline *p)
{
	const struct ft_opts *o = p->o;

	if (!o->npids && !o->ntids)
		return 0;
	p->show = true;
	p->show_follow = o->npids > 0;
	return ft_imap_of_ids(&p->shown, o->pids, o->npids, o->tids, o->ntids);
}

/* probes_of_file - funclat -i: the probes the file recorded, and their formats */
static int probes_of_file(struct pipeline *p, struct ft_source *src, struct tep_handle *tep)
{
	char *text = src->is_tdat ? strndup(src->tdat.tool.data, src->tdat.tool.len) : NULL;
	struct ft_tool_probes tp = { 0 };
	int ret = ft_tool_probes(text, p->probes->req, &tp, p->o->input);

	free(text);
	p->probes->funcs = tp.funcs;	/* freed with the probes, whatever happened */
	p->probes->ev = tp.ev;
	p->probes->nev = tp.nev;
	if (!ret)
		ret = ft_probes_formats(p->probes, ft_source_format_read, src, tep, true);
	return ret;
}

/* run_offline - analyze a trace.dat or a capture directory in one pass */
static int run_offline(struct pipeline *p)
{
	struct tep_handle *tep = NULL;
	struct ft_page_fmt pf;
	struct ft_merge m = { 0 };
	struct ft_source src;
	int ret = FT_EXIT_ERR, ksyms_fd = -1;

	if (ft_source_open(&src, p->o->input, p->o->instance))
		goto out_src;
	if (ft_samples_of_file(&p->sm, &src, p->o->input, p->run->name))
		goto out_src;
	/*
	 * Every event type the file holds, not only the analyzer's: the switch-chain
	 * repair then sees the same records whichever analyzers read the file (alone or
	 * several in a report), and the file's own events are no dearer to walk.
	 */
	tep = ft_tep_load(ft_source_format_read, &src, FT_ALL_TYPES, &pf, FT_TEP_UNTRUSTED);
	if (!tep) {
		ft_err("%s: cannot parse its event formats: %s", p->o->input,
		       strerror(errno ? errno : EINVAL));
		goto out_src;
	}
	if (p->probes && probes_of_file(p, &src, tep))
		goto out_src;
	if (ft_tps_formats(p->tps, tep, ft_source_format_read, &src, FT_TEP_UNTRUSTED))
		goto out_src;
	if (ft_merge_init(&m, &pf, src.ncpus, on_raws, p)) {
		ft_err("out of memory");
		goto out_src;
	}
	if (ft_imap_init(&p->traced, 64))
		goto out_pipe;
	if (ft_source_filter(&src, &p->filtered, &p->follow, &p->traced)) {
		ft_err("%s: its pid filter is damaged", p->o->input);
		goto out_pipe;
	}
	/* the -C a live run recorded with (every CPU's pages when it followed forks),
	   unless -i has its own */
	if (!p->o->cpu_on && ft_source_cpus(&src, &p->o->cpu_on)) {
		ft_err("%s: its CPU list is damaged", p->o->input);
		goto out_pipe;
	}
	if (p->o->cpu_on)
		p->o->ncpus = FT_FILE_MAX_CPUS;
	if (show_filter(p)) {
		ft_err("out of memory");
		goto out_pipe;
	}
	/* only analyzers with kernel stacks name kernel addresses */
	if (((p->need | p->want) & FT_NEED(FT_EV_KSTACK)) || p->sm.req)
		ksyms_fd = ft_source_kallsyms(&src, p->kallsyms, sizeof(p->kallsyms));
	snprintf(p->env.clock, sizeof(p->env.clock), "mono");	/* a capture directory's */
	if (src.is_tdat) {
		ft_tdat_clock(&src.tdat, p->env.clock, sizeof(p->env.clock));
		p->env.procmaps = src.tdat.procmaps;
		p->env.nprocmaps = src.tdat.nprocmaps;
		p->env.cmdlines = &src.tdat.cmdlines;
	}
	if (pipeline_init(p, tep, src.ncpus, false))
		goto out_an;	/* the analyzers that began end there */
	/* samples first: an analyzer matching them to records (offcpu --stacks perf)
	   has them, as it has them live, where the rings run ahead of the merge */
	ft_samples_replay(&p->sm);
	if (ft_source_stream(&src, &m))
		goto out_an;
	ft_merge_flush_losses(&m);
	if (!report(p, &m, true))
		ret = FT_EXIT_OK;
out_an:
	ft_stages_fini(&p->run->stages);
out_pipe:
	pipeline_fini(p);
	ft_merge_fini(&m);
	ft_imap_fini(&p->traced);
	if (p->show)
		ft_imap_fini(&p->shown);
out_src:
	if (tep)
		tep_free(tep);
	if (ksyms_fd >= 0)
		close(ksyms_fd);
	ft_source_close(&src);
	return ret;
}

/* targets - the pids for the in-kernel filter: threads of -p, -t, or the command */
static int targets(struct pipeline *p, const struct ft_child *child, int **pids, int *n)
{
	int i;

	if (ft_targets(p->o, child ? child->pid : -1, pids, n))
		return -1;
	for (i = 0; i < *n; i++)
		ft_imap_put(&p->traced, (*pids)[i], 1);
	return 0;
}

/*
 * rescan_threads - threads of -p and --cgroup processes made between the first look at /proc and
 * tracing on escaped both the kernel's filter and ours: add them (later ones are
 * followed through event-fork and sched_process_fork)
 */
static int rescan_threads(struct pipeline *p, struct ft_session *s)
{
	int i, j, *tids = NULL, n = 0;

	for (i = 0; i < p->o->npids; i++)
		ft_pid_threads(p->o->pids[i], &tids, &n);
	for (i = 0; i < p->o->ncg; i++)
		ft_pid_threads(p->o->cg_pids[i], &tids, &n);
	for (j = 0; j < n; j++) {
		if (ft_imap_get(&p->traced, tids[j]))
			continue;
		if (ft_session_add_pid(s, tids[j])) {
			ft_err("cannot add thread %d to the pid filter: %s", tids[j], strerror(errno));
			free(tids);
			return -1;
		}
		ft_imap_put(&p->traced, tids[j], 1);
	}
	free(tids);
	return 0;
}

/* stop_reason - why the main loop should end now, or 0 to go on */
static int stop_reason(struct pipeline *p, struct ft_child *child, uint64_t end, long reports)
{
	if (ft_stop_signal)
		return 1;
	if (child && ft_command_reap(child))
		return 2;
	if (end && ft_now_ns() >= end)
		return 3;
	if (p->o->count && reports >= p->o->count)
		return 4;
	return 0;
}

/* capture_round - sample the traced processes' maps; the progress line of a recording */
static void capture_round(struct pipeline *p, struct ft_session *s, const struct ft_child *child)
{
	unsigned long long ev = 0, lost = 0, bytes = 0;
	int cpu;

	ft_capture_maps(p->cap, p->o->pids, p->o->npids);
	if (child->pid > 0)
		ft_capture_maps(p->cap, &child->pid, 1);
	if (!p->run->record || !isatty(STDERR_FILENO))
		return;
	for (cpu = 0; cpu < s->ncpus; cpu++) {
		if (!s->tcpu[cpu])
			continue;
		ev += ft_session_read_events(s, cpu);
		lost += s->lost_seen[cpu];
		bytes += p->cap->bytes[cpu];
	}
	fprintf(stderr, "\r%llu events, %llu KiB written to %s, %llu lost ", ev,
		bytes / 1024, p->o->output, lost);
	p->progress = true;
}

/* capture_end - write the trace.dat; its VERSION text: probes, every task the filter held */
static int capture_end(struct pipeline *p, struct ft_capture *cap)
{
	struct ft_tool_probes tp = { 0 };
	char *tool;
	int ret;

	if (p->probes)
		tp = (struct ft_tool_probes){ p->probes->funcs, p->probes->ev, p->probes->nev };
	tool = ft_tool_text(&p->traced, p->follow, p->o->cpu_on, p->o->ncpus,
			    p->probes ? &tp : NULL);
	if (p->progress)
		fputc('\n', stderr);
	if (ft_samples_keep(&p->sm))
		return -1;
	if (ft_capture_check(cap)) {
		free(tool);
		return -1;
	}
	ret = tool ? ft_capture_finish(cap, tool) : -1;
	free(tool);
	return ret;
}

/* A live run's kernel-facing parts, shared by run_live and its steps. */
struct live {
	struct ft_child		child;
	struct ft_session	s;
	struct tep_handle	*tep;
	struct ft_merge		m;
	struct ft_capture	cap;
	struct ft_clock_map	ck;
	int			*pids, npids;
	unsigned int		max_wait;
};

/*
 * live_instance - the instance with its events, the output file, probes and the
 * formats. Returns 0, or the exit status after one line (the caller unwinds).
 */
static int live_instance(struct pipeline *p, struct live *l)
{
	struct ft_opts *o = p->o;
	struct ft_session *s = &l->s;
	char **ev;
	int e;

	if (ft_session_open(s, o, p->need,
			    p->want | (p->filtered ? FT_NEED(FT_EV_FORK) : 0), l->pids, l->npids,
			    p->follow))
		return FT_EXIT_ERR;
	/* the output file first: an unwritable path fails before any report is begun */
	if (o->output && ft_capture_open(&l->cap, o->output, s))
		return FT_EXIT_ERR;
	for (ev = p->run->extra; ev && *ev; ev++)
		if (ft_session_enable(s, *ev))
			return FT_EXIT_ERR;
	if (ft_tps_enable(p->tps, p->run->name, s))
		return FT_EXIT_ERR;
	if (p->probes) {
		e = ft_probes_setup(p->probes, s, l->pids, l->npids, p->follow);
		if (e)
			return e > 0 ? e : FT_EXIT_ERR;
	}
	l->tep = ft_tep_load(ft_session_format_read, s, s->enabled, &s->pf, 0);
	if (!l->tep) {
		ft_err("cannot parse the event formats of instance %s: %s", s->name, strerror(errno));
		return FT_EXIT_ERR;
	}
	if (p->probes && ft_probes_formats(p->probes, ft_session_format_read, s, l->tep, false))
		return FT_EXIT_ERR;
	if (ft_tps_formats(p->tps, l->tep, ft_session_format_read, s, 0))
		return FT_EXIT_ERR;
	return 0;
}

/* live_start - counters, samples and tracing on, then the command let go; 0 or -1 */
static int live_start(struct pipeline *p, struct live *l)
{
	struct ft_opts *o = p->o;
	int e;

	if (p->pmu && ft_pmu_open_opts(p->pmu, o, l->pids, l->npids))
		return -1;
	/* samples from before the first record: a switch's sample is there for its record */
	if (p->sm.req)
		ft_sampler_enable(&p->sm.sampler);
	if (ft_reader_setup(&l->s, o, p->run->record) || ft_session_start(&l->s) ||
	    rescan_threads(p, &l->s))
		return -1;
	if (p->pmu)
		ft_pmu_enable(p->pmu);
	if (o->cmd) {
		e = ft_command_release(&l->child);
		if (e) {
			ft_err("cannot run '%s': %s", o->cmd[0], strerror(e));
			return -1;
		}
	} else if (!o->json) {
		fprintf(stderr, "Tracing... Hit Ctrl-C to end.\n");
	}
	return 0;
}

/* live_loop - rounds until the run ends, with the interval reports; 0, or -1 printed */
static int live_loop(struct pipeline *p, struct live *l)
{
	struct ft_opts *o = p->o;
	uint64_t start = ft_now_ns(), end = 0, next_report = 0, h, due, to;
	long reports = 0;

	if (o->duration)
		end = start + (uint64_t)(o->duration * 1e9);
	if (o->interval)
		next_report = start + (uint64_t)(o->interval * 1e9);
	while (!stop_reason(p, o->cmd ? &l->child : NULL, end, reports)) {
		uint64_t now = ft_now_ns(), wake = now + l->max_wait * 1000000ULL;
		struct pollfd pfd[FT_EXPORT_MAX_FDS];
		int npfd = ft_export_pollfds(&p->ex, pfd, FT_EXPORT_MAX_FDS);

		if (end && end < wake)
			wake = end;
		if (next_report && next_report + COMMIT_LAG_NS < wake)
			wake = next_report + COMMIT_LAG_NS;
		if (wake > now)
			ft_samples_wait(&p->sm, &l->s, (int)((wake - now + 999999) / 1000000),
					pfd, npfd);
		now = ft_now_ns();
		if (p->run->record ? ft_capture_splice(&l->cap, false) < 0 :
				     ft_reader_round(&l->s, &l->m) < 0)
			return -1;
		ft_reader_losses(&l->s, &l->m);
		/* -o FILE: a page that could not be written (a full disk) ends the run */
		if (p->cap && ft_capture_check(p->cap))
			return -1;
		if (p->cap)
			capture_round(p, &l->s, &l->child);
		ft_clock_learn(&l->ck, &l->m, ft_now_ns());
		/* every CPU has been read up to the start of this round, and records
		   stamped COMMIT_LAG_NS before it are committed: merge to there */
		now = now > COMMIT_LAG_NS ? now - COMMIT_LAG_NS : 0;
		h = ft_clock_at(&l->ck, now);
		if (l->s.complete_to < h)
			h = l->s.complete_to;
		/* an interval is due once merged to its end (at once when nothing was read) */
		due = next_report && (l->ck.known || !l->ck.other) ?
		      ft_clock_at(&l->ck, next_report) : 0;
		to = due && h >= due ? due : h;
		/* a recording keeps pace with no merge, and before the first record the
		   merge has no time: every sample goes then */
		ft_samples_round(&p->sm, p->run->record || !h ? UINT64_MAX : to);
		ft_merge_run(&l->m, to);
		if (next_report && (due ? h >= due : now >= next_report)) {
			/* the last of count: printed after the final drain, with what it read */
			if (++reports == o->count)
				break;
			report(p, &l->m, false);
			next_report += (uint64_t)(o->interval * 1e9);
		}
		if (npfd)	/* scrapes: answered with what is merged now */
			ft_export_serve(&p->ex, pfd, npfd, events_of(p, &l->m));
	}
	return 0;
}

/* live_finish - stop, drain everything, write -o FILE, the final report; 0 or -1 */
static int live_finish(struct pipeline *p, struct live *l)
{
	int i;

	ft_session_stop(&l->s);
	if (p->pmu)
		ft_pmu_disable(p->pmu);
	if (p->sm.req) {
		ft_sampler_disable(&p->sm.sampler);
		ft_samples_round(&p->sm, UINT64_MAX);
	}
	if (p->run->record) {
		if (ft_capture_splice(&l->cap, true) < 0)
			return -1;
	} else {
		while (ft_reader_round(&l->s, &l->m) > 0)
			;
	}
	ft_reader_losses(&l->s, &l->m);
	ft_reader_realtime_end(&l->s);
	ft_merge_run(&l->m, UINT64_MAX);
	ft_merge_flush_losses(&l->m);
	if (p->cap && capture_end(p, &l->cap))
		return -1;
	if (p->o->verbose)
		ft_reader_counts(&l->s);
	/* an analyzer names the CPUs it reports; a recording those its file holds */
	for (i = 0; l->s.offline && i < l->s.ncpus; i++)
		if (!cpu_counted(p, i))
			l->s.offline[i] = 0;
	p->foot.offline = l->s.offline;
	p->foot.online_again = l->s.online_again;
	p->foot.uevents_lost = l->s.uevents_lost;
	return report(p, &l->m, true);
}

/* run_live - trace: the whole lifecycle with unwinding on every path */
static int run_live(struct pipeline *p)
{
	struct ft_opts *o = p->o;
	struct live l = { .child = { .pid = -1, .go_fd = -1, .err_fd = -1 },
			  .ck = { .other = o->clock && strcmp(o->clock, "mono") } };
	int ret = FT_EXIT_ERR, e;

	if (geteuid() != 0) {
		ft_err("tracing needs root (tracefs and its instances belong to root)");
		return FT_EXIT_ERR;
	}
	l.max_wait = ft_stages_max_wait(&p->run->stages, MAX_WAIT_MS);
	/* a capture samples the traced processes' maps each round: short-lived ones
	   need rounds often enough to be seen alive */
	if (o->output && (o->cmd || o->npids) && l.max_wait > CAPTURE_MAPS_MS)
		l.max_wait = CAPTURE_MAPS_MS;
	if (o->cmd && (ft_command_check(o->cmd) || ft_command_spawn(&l.child, o->cmd)))
		goto out_child;
	if (ft_imap_init(&p->traced, 64))
		goto out_child;
	/* events of no task (interrupts): a command only bounds the run */
	if (!p->run->whole_system &&
	    targets(p, o->cmd ? &l.child : NULL, &l.pids, &l.npids))
		goto out_child;
	p->filtered = l.npids > 0;
	p->follow = l.npids > 0 && (o->npids || o->ncg || o->cmd);
	e = live_instance(p, &l);
	if (e) {
		ret = e;
		goto out_session;
	}
	if (ft_merge_init(&l.m, &l.s.pf, l.s.ncpus, on_raws, p)) {
		ft_err("out of memory");
		goto out_session;
	}
	if (pipeline_init(p, l.tep, l.s.ncpus, true))
		goto out_an;	/* the analyzers that began end there */
	if (ft_samples_open(&p->sm, o, l.pids, l.npids))
		goto out_an;
	if (o->output) {
		p->cap = &l.cap;
		p->sm.cap = &l.cap;
		if (!p->run->record) {
			l.m.tap = ft_capture_tap;
			l.m.tap_ctx = &l.cap;
		}
	}
	if (live_start(p, &l) || live_loop(p, &l) || live_finish(p, &l))
		goto out_an;
	ret = FT_EXIT_OK;
out_an:
	ft_capture_close(&l.cap);
	ft_stages_fini(&p->run->stages);
	pipeline_fini(p);
	ft_merge_fini(&l.m);
out_session:
	ft_samples_fini(&p->sm);
	ft_capture_close(&l.cap);	/* again after out_an: it is idempotent */
	if (l.tep)
		tep_free(l.tep);
	ft_session_close(&l.s);
	if (p->probes)
		ft_probes_close(p->probes);	/* probes go once no instance uses them */
out_child:
	/* a command we never released must not run untraced */
	if (o->cmd && l.child.pid > 0 && l.child.go_fd >= 0)
		ft_command_kill(&l.child);
	if (o->cmd)
		ft_command_finish(&l.child, o->cmd, o->keep_cmd);
	free(l.pids);
	ft_imap_fini(&p->traced);
	return ret;
}

/**
 * ft_run - drive @r over the run @o asks for: trace live or read a capture
 * Returns the exit status.
 */
int ft_run(struct ft_opts *o, struct ft_run *r)
{
	struct pipeline p = { .run = r, .o = o, .need = r->need, .want = r->want,
			      .ex = { .next_ns = UINT64_MAX } };
	struct ft_pmu pmu = { 0 };
	int ret = FT_PARSE_RUN;

	ft_stages_events(&r->stages, &p.need, &p.want);
	p.tps = ft_tp_append(r->tps, ft_stages_tps(&r->stages));
	if (r->funcs) {
		p.probes_own.req = r->funcs;
		p.probes = &p.probes_own;
	}
	if (ft_tps_check(p.tps))	/* once, before the kernel or a file is asked */
		ret = FT_EXIT_ERR;
	if (ret == FT_PARSE_RUN &&
	    ft_samples_prepare(&p.sm, r->samplers ? r->samplers : &r->stages, !o->input,
			       o->clock))
		ret = FT_EXIT_USAGE;
	/*
	 * Where switches are read, the chain times those the kernel did not record by the
	 * task's return to user space (events/chain.c); not where every record carries
	 * stacks (a stack per return), nor where perf samples are matched to the records
	 * (offcpu --stacks perf, profile): those runs stay as they were
	 */
	if (((p.need | p.want) & FT_NEED(FT_EV_SWITCH)) && !p.sm.req &&
	    !((p.need | p.want) & (FT_NEED(FT_EV_KSTACK) | FT_NEED(FT_EV_USTACK))))
		p.want |= FT_NEED(FT_EV_RESUME);
	if (ret == FT_PARSE_RUN && o->pmu) {
		if (ft_pmu_parse(&pmu, o->pmu))
			ret = FT_EXIT_USAGE;
		p.pmu = &pmu;
	}
	if (ret == FT_PARSE_RUN && ft_export_open(&p.ex, o, &r->stages.st[0]))
		ret = FT_EXIT_ERR;
	if (ret == FT_PARSE_RUN) {
		ft_install_signals();
		ret = o->input ? run_offline(&p) : run_live(&p);
	}
	if (p.probes)
		ft_probes_free(p.probes);
	ft_pmu_close(&pmu);
	ft_samples_fini(&p.sm);
	ft_export_close(&p.ex);
	return ret;
}
