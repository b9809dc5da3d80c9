// SPDX-License-Identifier: GPL-2.0
/*
 * ft_run: the one lifecycle every run goes through, an analyzer's, report's or a
 * recording's, once its command has parsed the options (cmd/).
 *
 *   the stages' events and samplers (ft_stages_negotiate, ft_stages_events) -> --pmu
 *   -> exports -> a live run (engine/run_live.c: session, readers, start, rounds,
 *   stop, drain) or a file read back (run_offline) -> unwind through out_* labels.
 *
 * A record's path, one way: the rings or the file -> merge in time order
 * (events/merge.c) -> ft_pipe_raws -> on_raw: decode, follow forks, repair the
 * chain -> deliver -> the analyzers (engine/stages.c) -> interval and final reports
 * (ft_pipe_report) -> output. Here: that pipeline, and a file read back.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <traceevent/event-parse.h>

#include "analyzers/analyzer.h"
#include "engine/export.h"
#include "engine/footer.h"
#include "engine/opts.h"
#include "engine/pipeline.h"
#include "engine/run.h"
#include "engine/samples.h"
#include "engine/stages.h"
#include "engine/tps.h"
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
#include "tracer/pmu.h"
#include "tracer/desc.h"
#include "tracer/probes.h"

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
	ft_tasks_event(&p->tasks, &ev);
	if (ev.type == FT_EV_FORK) {
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

/* ft_pipe_raws - merge callback: @n records in time order */
void ft_pipe_raws(void *ctx, const struct ft_raw *raw, unsigned int n)
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
 * ft_pipe_events - the records merged so far on the CPUs an analyzer reports (-C's);
 * a recording's: all it wrote
 */
unsigned long long ft_pipe_events(const struct pipeline *p, const struct ft_merge *m)
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

	c->events = ft_pipe_events(p, m);
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
 * ft_pipe_report - one report of the analyzer, with its footer; JSON as one object per line.
 * Returns 0, or -1 when an analyzer could not write its files (it said why).
 */
int ft_pipe_report(struct pipeline *p, struct ft_merge *m, bool final)
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

/* ft_pipe_init - decoder, chain, tasks and the analyzer over @tep */
int ft_pipe_init(struct pipeline *p, struct tep_handle *tep, int ncpus, bool live)
{
	const struct ft_tp *tp;
	unsigned int want;

	p->ncpus = ncpus;
	if (ft_footer_init(&p->foot, ncpus) || ft_tasks_init(&p->tasks, live) ||
	    (p->env.cmdlines && ft_tasks_saved(&p->tasks, p->env.cmdlines->data,
					       p->env.cmdlines->len)) ||
	    (p->env.tgids && ft_tasks_tgids(&p->tasks, p->env.tgids->data, p->env.tgids->len))) {
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
	p->env.command = p->o->cmd;
	p->env.all = p->o->all;
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

/* ft_pipe_fini - free what ft_pipe_init made */
void ft_pipe_fini(struct pipeline *p)
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
	if (ft_merge_init(&m, &pf, src.ncpus, ft_pipe_raws, p)) {
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
		p->env.tgids = src.tdat.tgids.len ? &src.tdat.tgids : NULL;
	}
	if (ft_pipe_init(p, tep, src.ncpus, false))
		goto out_an;	/* the analyzers that began end there */
	/* samples first: an analyzer matching them to records (offcpu --stacks perf)
	   has them, as it has them live, where the rings run ahead of the merge */
	ft_samples_replay(&p->sm);
	if (ft_source_stream(&src, &m))
		goto out_an;
	ft_merge_flush_losses(&m);
	if (!ft_pipe_report(p, &m, true))
		ret = FT_EXIT_OK;
out_an:
	ft_stages_fini(&p->run->stages);
out_pipe:
	ft_pipe_fini(p);
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

/* ft_trace_desc_of - the tracer's part of the options @o: tasks, CPUs, buffer, reading */
void ft_trace_desc_of(struct ft_trace_desc *d, const struct ft_opts *o)
{
	*d = (struct ft_trace_desc){
		.pids = o->pids, .npids = o->npids, .tids = o->tids, .ntids = o->ntids,
		.cg_pids = o->cg_pids, .ncg = o->ncg, .cgroup = o->cgroup,
		.cmd = o->cmd, .all = o->all,
		.cpu_on = o->cpu_on, .cpus_named = o->cpu_arg != NULL, .ncpus = o->ncpus,
		.clock = o->clock, .buffer_kb = o->buffer_kb,
		.mmap = o->mmap, .rt_prio = o->rt_prio, .verbose = o->verbose,
	};
}

/* ft_run's status while every step so far went well (no exit status is negative) */
enum { GOING = -1 };

/**
 * ft_run - drive @r over the run @o asks for: trace live or read a capture
 * Returns the exit status.
 */
int ft_run(struct ft_opts *o, struct ft_run *r)
{
	struct pipeline p = { .run = r, .o = o, .need = r->need, .want = r->want,
			      .ex = { .next_ns = UINT64_MAX } };
	struct ft_pmu pmu = { 0 };
	int ret = GOING;

	ft_stages_negotiate(r->samplers ? r->samplers : &r->stages, !o->input, o->output != NULL,
			    o->clock);
	ft_stages_events(&r->stages, &p.need, &p.want);
	p.tps = ft_tp_append(r->tps, ft_stages_tps(&r->stages));
	if (r->funcs) {
		p.probes_own.req = r->funcs;
		p.probes = &p.probes_own;
	}
	if (ft_tps_check(p.tps))	/* once, before the kernel or a file is asked */
		ret = FT_EXIT_ERR;
	if (ret == GOING &&
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
	if (ret == GOING && o->pmu) {
		if (ft_pmu_parse(&pmu, o->pmu))
			ret = FT_EXIT_USAGE;
		p.pmu = &pmu;
	}
	if (ret == GOING && ft_export_open(&p.ex, o, &r->stages.st[0]))
		ret = FT_EXIT_ERR;
	if (ret == GOING) {
		ft_install_signals();
		ret = o->input ? run_offline(&p) : ft_run_live(&p);
	}
	if (p.probes)
		ft_probes_free(p.probes);
	ft_pmu_close(&pmu);
	ft_samples_fini(&p.sm);
	ft_export_close(&p.ex);
	return ret;
}
