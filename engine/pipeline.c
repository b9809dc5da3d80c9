// SPDX-License-Identifier: GPL-2.0
/*
 * The pipeline, live or from a file: a record's path, one way, from the merge (records
 * of every CPU in time order, events/merge.c) -> ft_pipe_raws -> on_raw: decode,
 * follow forks, repair the chain -> deliver -> the analyzers (engine/stages.c) ->
 * interval and final reports with their footer (ft_pipe_report) -> output.
 */
#include <stdio.h>

#include "engine/pipeline.h"
#include "engine/tps.h"
#include "events/tdat.h"
#include "lib/util.h"
#include "output/json.h"

/* deliver - hand one decoded event to the analyzers */
static inline void deliver(struct pipeline *p, const struct ft_event *ev)
{
	/* -C: what the kernel's tracing_cpumask keeps live, here on a capture too */
	if (!cpu_kept(p, ev->cpu))
		return;
	ft_export_at(&p->ex, ev->ts);
	/* the run's task table is current before any analyzer reads it */
	ft_tasks_names(&p->tasks, ev);
	ft_stages_event(&p->run->stages, ev);
	/* after the analyzers: a rename record is made under the old name */
	if (p->ren && ev->type == FT_EV_TP)
		ft_tasks_rename(&p->tasks, ev, p->ren);
}

/*
 * unread - a record no analyzer reads: where stacks are read, its place is
 * delivered (FT_EV_UNKNOWN), so that the stacks the kernel writes after it are not
 * taken for those of the record before it
 */
static inline void unread(struct pipeline *p, struct ft_event *ev)
{
	if (!((p->need | p->want) & (FT_NEED(FT_EV_KSTACK) | FT_NEED(FT_EV_USTACK))))
		return;
	ev->type = FT_EV_UNKNOWN;
	ev->common_pid = -1;
	ev->id = -1;
	if (cpu_kept(p, ev->cpu))	/* (not a record of the run's figures: no export tick) */
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
		return unread(p, &ev);
	/* a wakeup the analyzer does not read still tells the chain who runs and who woke */
	if (p->dec.bare & FT_NEED(ev.type)) {
		n = p->chain_on ? ft_chain_feed(&p->chain, &ev, synth) : 0;
		for (i = 0; i < n; i++)
			deliver(p, &synth[i]);
		return unread(p, &ev);
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
	if (r.interval)		/* the exports keep the histograms reset forgets */
		ft_export_fold(&p->ex);
	if (!p->run->quiet)	/* record --trigger's analyzer: its measures alone */
		ft_stages_report(&p->run->stages, &r);
	if (r.interval)
		ft_stages_reset(&p->run->stages);
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
	p->ren = ft_tasks_rename_find(p->tps);
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
	p->env.latency = p->flight ? ft_flight_latency : NULL;	/* --trigger's measures */
	p->env.latency_ctx = p->flight;
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
