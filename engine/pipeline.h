/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The run's pipeline (engine/pipeline.c: decode, chain, analyzers, reports), fed by
 * engine/run.c (a file read back) and engine/run_live.c (the kernel side of a live
 * run). Internal to engine/.
 */
#ifndef FTSCOPE_ENGINE_PIPELINE_H
#define FTSCOPE_ENGINE_PIPELINE_H

#include <stdbool.h>
#include <stdint.h>

#include "analyzers/analyzer.h"
#include "engine/export.h"
#include "engine/flight.h"
#include "engine/footer.h"
#include "engine/opts.h"
#include "engine/run.h"
#include "engine/samples.h"
#include "events/chain.h"
#include "events/decode.h"
#include "events/merge.h"
#include "events/tasks.h"
#include "lib/pidset.h"
#include "tracer/desc.h"
#include "tracer/pmu.h"
#include "tracer/probes.h"

struct tep_handle;

struct pipeline {
	struct ft_run		*run;		/* what to drive: analyzers, or a recording */
	struct ft_opts		*o;
	struct ft_trace_desc	td;		/* live: what the tracer is asked, from o */
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
	const struct ft_tp	*ren;		/* task_rename, when an analyzer reads it */
	struct ft_capture	*cap;		/* -o FILE, or NULL */
	struct ft_flight	*flight;	/* --flight: -o FILE's recorder, or NULL */
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

void ft_pipe_raws(void *ctx, const struct ft_raw *raw, unsigned int n);
unsigned long long ft_pipe_events(const struct pipeline *p, const struct ft_merge *m);
int ft_pipe_report(struct pipeline *p, struct ft_merge *m, bool final);
int ft_pipe_init(struct pipeline *p, struct tep_handle *tep, int ncpus, bool live);
void ft_pipe_fini(struct pipeline *p);
int ft_run_live(struct pipeline *p);

#endif
