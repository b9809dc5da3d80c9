// SPDX-License-Identifier: GPL-2.0
/*
 * record: save the events that the named analyzers need (and any -e events) to a
 * trace.dat (-o FILE) that trace-cmd, KernelShark and `ftscope ANALYZER -i FILE`
 * read. Pages go from the kernel to the file with splice; nothing is decoded.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analyzers/analyzer.h"
#include "cmd/analyze.h"
#include "cmd/commands.h"
#include "cmd/options.h"
#include "lib/util.h"

#define RECORD_MAX	16	/* analyzers named */

struct record {
	char		**events;	/* -e SYSTEM:EVENT, NULL-terminated */
	int		nevents;
	struct ft_stage	named[RECORD_MAX];	/* the named analyzers, on their options
						   (quoted with the name: 'wakeup --why')
						   or defaults: asked which events they
						   read, never begun */
	char		*words[RECORD_MAX];	/* a quoted word, split: options point here */
	int		nnamed;
	struct ft_stage	trigger;	/* --flight --trigger 'ANALYZER>VALUE': it runs */
	char		*trigger_words;
};

/* The scheduler events when no analyzer is named (timehist, runqlat, wakeup, latency). */
#define RECORD_DEFAULT_NEED	(FT_NEED(FT_EV_SWITCH) | FT_NEED(FT_EV_WAKING) | \
				 FT_NEED(FT_EV_WAKEUP) | FT_NEED(FT_EV_WAKEUP_NEW) | \
				 FT_NEED(FT_EV_FORK))
#define RECORD_DEFAULT_WANT	(FT_NEED(FT_EV_MIGRATE) | FT_NEED(FT_EV_NEWTASK))

/* record_parse_opt - -e SYSTEM:EVENT, repeatable */
static int record_parse_opt(void *priv, int opt, const char *arg)
{
	struct record *r = priv;
	char **n;

	if (opt != 'e')
		return -1;
	if (!strchr(arg, ':')) {
		ft_err("bad event '%s': expected SYSTEM:EVENT", arg);
		return FT_OPT_REPORTED;
	}
	n = realloc(r->events, (r->nevents + 2) * sizeof(*n));
	if (!n)
		return -1;
	r->events = n;
	r->events[r->nevents] = strdup(arg);
	r->events[++r->nevents] = NULL;
	return r->events[r->nevents - 1] ? 0 : -1;
}

/*
 * record_arg - an analyzer whose events are recorded, with its options when quoted
 * with them (report's words: 'wakeup --why' records the interrupt events too)
 */
static int record_arg(void *priv, const char *name)
{
	struct record *r = priv;
	const struct ft_analyzer *a;
	void *apriv;
	int ret;

	if (r->nnamed < RECORD_MAX && strpbrk(name, " \t")) {
		ret = ft_stage_parse(&r->named[r->nnamed], &r->words[r->nnamed], name,
				     ft_possible_cpus(), "record");
		if (ret < 0) {
			free(r->named[r->nnamed].priv);	/* the slot is not counted */
			r->named[r->nnamed].priv = NULL;
		}
		if (ret <= 0) {
			r->nnamed += !ret;
			return ret ? FT_OPT_REPORTED : 0;
		}
		name = r->words[r->nnamed];	/* no analyzer, or a prober: said below */
	}
	a = ft_analyzer_find(name);
	if (!a) {
		ft_err("'%s' is not an analyzer whose events can be recorded", name);
		return FT_OPT_REPORTED;
	}
	if (a->functions) {
		ft_err("%s probes functions: record it with `ftscope %s PATTERN... -o FILE`",
		       a->cli.name, a->cli.name);
		return FT_OPT_REPORTED;
	}
	if (r->nnamed == RECORD_MAX) {
		ft_err("at most %d analyzers in one recording", RECORD_MAX);
		return FT_OPT_REPORTED;
	}
	/* the events of the analyzer run without options (asked in ft_cmd_record) */
	apriv = calloc(1, a->priv_size);
	if (!apriv)
		return -1;
	r->named[r->nnamed].a = a;
	r->named[r->nnamed].priv = apriv;
	r->nnamed++;
	return 0;
}

/* record_check - a recording needs somewhere to go, and there is nothing to read back */
static int record_check(const struct ft_opts *o)
{
	if (o->input) {
		ft_err("record writes a trace: it does not read one (-i)");
		return -1;
	}
	if (!o->output) {
		ft_err("record needs -o FILE");
		return -1;
	}
	return 0;
}

/* record_free - the -e list and the named analyzers' defaults */
static void record_free(struct record *r)
{
	int i;

	for (i = 0; i < r->nevents; i++)
		free(r->events[i]);
	free(r->events);
	for (i = 0; i < r->nnamed; i++) {
		if (r->named[i].a->free)
			r->named[i].a->free(r->named[i].priv);
		free(r->named[i].priv);
	}
	for (i = 0; i < RECORD_MAX; i++)
		free(r->words[i]);
	if (r->trigger.a && r->trigger.a->free)
		r->trigger.a->free(r->trigger.priv);
	free(r->trigger.priv);
	free(r->trigger_words);
}

static const struct option record_longopts[] = {
	{ "event",	required_argument, NULL, 'e' },
	{ NULL, 0, NULL, 0 }
};

static const struct ft_cli record_cli = {
	.name		= "record",
	.recorder	= true,
	.latency	= "latency",	/* --flight; --trigger 'ANALYZER>VALUE' measures */
	.summary	= "record events to a trace.dat (trace-cmd's format) for -i FILE later",
	.synopsis	= "[ANALYZER...]",
	.usage		= "  -o, --output FILE    the trace.dat to write (required)\n"
			  "  -e, --event SYS:EV   also record this event (repeatable)\n"
			  "  ANALYZER...          record what these analyzers need (default: the\n"
			  "                       scheduler events of timehist, runqlat, wakeup, latency)\n",
	.examples	= "  ftscope record -o sched.dat -d 5                 # 5 s of the whole system\n"
			  "  ftscope record -o off.dat offcpu -- make -j2     # a build, with its stacks\n"
			  "  ftscope record -o t.dat -e irq:irq_handler_entry -d 2\n"
			  "  ftscope timehist -i sched.dat                    # analyze it later\n"
			  "  trace-cmd report -i sched.dat                    # or with trace-cmd, KernelShark\n",
	.shortopts	= "e:",
	.longopts	= record_longopts,
	.parse_opt	= record_parse_opt,
	.arg		= record_arg,
};

/*
 * flight_run - record --flight: the pages kept in memory, not spliced, and --trigger's
 * analyzer run on them without its report (its measures fire the windows). Returns 0,
 * or -1 after one line.
 */
static int flight_run(struct record *r, struct ft_opts *o, struct ft_run *run)
{
	const char *spec = o->flight.trigger_of;
	unsigned int need = 0, want = 0;

	run->record = false;
	run->quiet = true;
	if (!spec[0])
		return 0;
	if (ft_stage_parse(&r->trigger, &r->trigger_words, spec, o->ncpus, "record") ||
	    !r->trigger.a->cli.latency) {
		if (r->trigger.a && !r->trigger.a->cli.latency)
			ft_err("--trigger: %s measures no latency (runqlat, wakeup, latency, offcpu, "
			       "biolatency, hardirqs, softirqs do)", r->trigger.a->cli.name);
		else if (!r->trigger.a)
			ft_err("--trigger: '%s' is no analyzer", r->trigger_words);
		return -1;
	}
	run->stages = (struct ft_stages){ .st = &r->trigger, .n = 1 };
	ft_stages_negotiate(&run->stages, true, false, o->clock);
	ft_stages_events(&run->stages, &need, &want);
	run->need |= need;
	run->want |= want;
	return 0;
}

/**
 * ft_cmd_record - `ftscope record -o FILE [ANALYZER...]`
 * Returns the exit status.
 */
int ft_cmd_record(int argc, char **argv)
{
	struct record *r = calloc(1, sizeof(*r));
	struct ft_run run = { .name = "record", .record = true };
	struct ft_opts o = { 0 };
	struct ft_stages named;
	int ret;

	ft_set_prog("ftscope record");
	if (!r) {
		ft_err("out of memory");
		return FT_EXIT_ERR;
	}
	o.ncpus = ft_possible_cpus();
	ret = ft_opts_parse(&o, &record_cli, r, argc, argv);
	if (ret == FT_PARSE_RUN && record_check(&o))
		ret = FT_EXIT_USAGE;
	named = (struct ft_stages){ .st = r->named, .n = r->nnamed };
	if (ret == FT_PARSE_RUN && ft_run_whole(&run, &named, &o, "record"))
		ret = FT_EXIT_USAGE;
	if (ret == FT_PARSE_RUN) {
		run.need = RECORD_DEFAULT_NEED;
		run.want = RECORD_DEFAULT_WANT;
		if (named.n) {
			run.need = run.want = 0;
			ft_stages_negotiate(&named, true, true, o.clock);
			ft_stages_events(&named, &run.need, &run.want);
			run.tps = ft_stages_tps(&named);
			run.samplers = &named;	/* profile's samples, kept in the file */
		}
		run.extra = r->events;
		if (o.flight.keep_s && flight_run(r, &o, &run))
			ret = FT_EXIT_USAGE;
		if (ret == FT_PARSE_RUN)
			ret = ft_run(&o, &run);
	}
	record_free(r);
	ft_opts_free(&o);
	free(r);
	return ret;
}
