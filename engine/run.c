// SPDX-License-Identifier: GPL-2.0
/*
 * ft_run: the one lifecycle every run goes through, an analyzer's, report's or a
 * recording's, once its command has parsed the options (cmd/).
 *
 *   the stages' events and samplers (ft_stages_negotiate, ft_stages_events) -> --pmu
 *   -> exports -> a live run (engine/run_live.c: session, readers, start, rounds,
 *   stop, drain) or a file read back (run_offline) -> unwind through out_* labels.
 *
 * Both feed the pipeline (engine/pipeline.c), which takes a record to the analyzers.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <traceevent/event-parse.h>

#include "engine/opts.h"
#include "engine/pipeline.h"
#include "engine/run.h"
#include "engine/tps.h"
#include "events/source.h"
#include "events/tool.h"
#include "lib/util.h"

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

/* open_file - the file, its samples, its formats (probes, tracepoints); 0 or -1 after an error */
static int open_file(struct pipeline *p, struct ft_source *src, struct tep_handle **tep,
		     struct ft_page_fmt *pf)
{
	if (ft_source_open(src, p->o->input, p->o->instance))
		return -1;
	if (ft_samples_of_file(&p->sm, src, p->o->input, p->run->name))
		return -1;
	/*
	 * Every event type the file holds, not only the analyzer's: the switch-chain
	 * repair then sees the same records whichever analyzers read the file (alone or
	 * several in a report), and the file's own events are no dearer to walk.
	 */
	*tep = ft_tep_load(ft_source_format_read, src, FT_ALL_TYPES, pf, FT_TEP_UNTRUSTED);
	if (!*tep) {
		ft_err("%s: cannot parse its event formats: %s", p->o->input,
		       strerror(errno ? errno : EINVAL));
		return -1;
	}
	if (p->probes && probes_of_file(p, src, *tep))
		return -1;
	return ft_tps_formats(p->tps, *tep, ft_source_format_read, src, FT_TEP_UNTRUSTED);
}

/* file_tasks - the tasks and CPUs the file recorded, those -p/-t show; 0 or -1 after an error */
static int file_tasks(struct pipeline *p, struct ft_source *src)
{
	char *flight;

	if (ft_imap_init(&p->traced, 64))
		return -1;
	if (ft_source_filter(src, &p->filtered, &p->follow, &p->traced)) {
		ft_err("%s: its pid filter is damaged", p->o->input);
		return -1;
	}
	/* the -C a live run recorded with (every CPU's pages when it followed forks),
	   unless -i has its own */
	if (!p->o->cpu_on && ft_source_cpus(src, &p->o->cpu_on)) {
		ft_err("%s: its CPU list is damaged", p->o->input);
		return -1;
	}
	if (p->o->cpu_on)
		p->o->ncpus = FT_FILE_MAX_CPUS;
	flight = ft_source_tool(src, "flight");	/* a flight recorder's window: what fired it */
	if (flight)
		fprintf(stderr, "%s: flight recording: %s\n", p->o->input, flight);
	free(flight);
	if (show_filter(p)) {
		ft_err("out of memory");
		return -1;
	}
	return 0;
}

/* file_env - the file's clock, maps, names and threads for the analyzers; the kallsyms fd or -1 */
static int file_env(struct pipeline *p, struct ft_source *src)
{
	int ksyms_fd = -1;

	/* only analyzers with kernel stacks name kernel addresses */
	if (((p->need | p->want) & FT_NEED(FT_EV_KSTACK)) || p->sm.req)
		ksyms_fd = ft_source_kallsyms(src, p->kallsyms, sizeof(p->kallsyms));
	snprintf(p->env.clock, sizeof(p->env.clock), "mono");	/* a capture directory's */
	if (src->is_tdat) {
		ft_tdat_clock(&src->tdat, p->env.clock, sizeof(p->env.clock));
		p->env.procmaps = src->tdat.procmaps;
		p->env.nprocmaps = src->tdat.nprocmaps;
		p->env.cmdlines = &src->tdat.cmdlines;
		p->env.tgids = src->tdat.tgids.len ? &src->tdat.tgids : NULL;
	}
	return ksyms_fd;
}

/* run_offline - analyze a trace.dat or a capture directory in one pass */
static int run_offline(struct pipeline *p)
{
	struct tep_handle *tep = NULL;
	struct ft_page_fmt pf;
	struct ft_merge m = { 0 };
	struct ft_source src;
	int ret = FT_EXIT_ERR, ksyms_fd = -1;

	if (open_file(p, &src, &tep, &pf))
		goto out_src;
	if (ft_merge_init(&m, &pf, src.ncpus, ft_pipe_raws, p)) {
		ft_err("out of memory");
		goto out_src;
	}
	if (file_tasks(p, &src))
		goto out_pipe;
	ksyms_fd = file_env(p, &src);
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
