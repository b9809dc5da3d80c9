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
#include "tracer/options.h"
#include "tracer/util.h"

#define RECORD_MAX	16	/* analyzers named */

struct record {
	char		**events;	/* -e SYSTEM:EVENT, NULL-terminated */
	int		nevents;
	unsigned int	need, want;	/* of the named analyzers */
	int		nnamed;
	const struct ft_analyzer *an[RECORD_MAX];	/* the named ones, */
	void		*apriv[RECORD_MAX];	/* with their options' defaults */
	struct ft_tp	*tps;		/* the tracepoints they read by name */
};

/* The scheduler events when no analyzer is named (timehist, runqlat, wakeup, latency). */
#define RECORD_DEFAULT_NEED	(FT_NEED(FT_EV_SWITCH) | FT_NEED(FT_EV_WAKING) | \
				 FT_NEED(FT_EV_WAKEUP) | FT_NEED(FT_EV_WAKEUP_NEW) | \
				 FT_NEED(FT_EV_FORK))
#define RECORD_DEFAULT_WANT	FT_NEED(FT_EV_MIGRATE)

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

/* record_arg - an analyzer whose events are recorded */
static int record_arg(void *priv, const char *name)
{
	struct record *r = priv;
	const struct ft_analyzer *a = ft_analyzer_find(name);
	unsigned int need, want;
	void *apriv;

	if (!a || a->splice || a->help) {
		ft_err("'%s' is not an analyzer whose events can be recorded", name);
		return FT_OPT_REPORTED;
	}
	if (a->probes) {
		ft_err("%s probes functions: record it with `ftscope %s PATTERN... -o FILE`",
		       a->name, a->name);
		return FT_OPT_REPORTED;
	}
	if (r->nnamed == RECORD_MAX) {
		ft_err("at most %d analyzers in one recording", RECORD_MAX);
		return FT_OPT_REPORTED;
	}
	need = a->need;
	want = a->want;
	/* the events of the analyzer run without options */
	apriv = calloc(1, a->priv_size);
	if (!apriv)
		return -1;
	r->an[r->nnamed] = a;
	r->apriv[r->nnamed] = apriv;
	if (a->events)
		a->events(apriv, &need, &want);
	if (a->tracepoints)
		r->tps = ft_tp_append(r->tps, a->tracepoints(apriv));
	r->need |= need;
	r->want |= want;
	r->nnamed++;
	return 0;
}

/* record_events - the named analyzers' events, or the scheduler set */
static void record_events(void *priv, unsigned int *need, unsigned int *want)
{
	struct record *r = priv;

	*need |= r->nnamed ? r->need : RECORD_DEFAULT_NEED;
	*want |= r->nnamed ? r->want : RECORD_DEFAULT_WANT;
}

/* record_tracepoints - those the named analyzers read by name */
static struct ft_tp *record_tracepoints(void *priv)
{
	return ((struct record *)priv)->tps;
}

/* record_extra - the -e events */
static char **record_extra(void *priv)
{
	return ((struct record *)priv)->events;
}

/* whole - how many named analyzers read events of no task (interrupts) */
static int whole(const struct record *r)
{
	int i, n = 0;

	for (i = 0; i < r->nnamed; i++)
		n += r->an[i]->whole_system && r->an[i]->whole_system(r->apriv[i]);
	return n;
}

/* record_whole_system - every named analyzer reads events of no task: no pid filter */
static bool record_whole_system(void *priv)
{
	struct record *r = priv;

	return r->nnamed && whole(r) == r->nnamed;
}

/* record_check - a recording needs somewhere to go, and there is nothing to read back */
static int record_check(void *priv, const struct ft_opts *o)
{
	struct record *r = priv;
	int i;

	for (i = 0; i < r->nnamed; i++)
		if (r->an[i]->whole_system && r->an[i]->check &&
		    r->an[i]->check(r->apriv[i], o))
			return -1;
	if (whole(r) && whole(r) < r->nnamed && (o->cmd || o->npids || o->ntids || o->cgroup)) {
		ft_err("interrupts are traced system-wide, other events for the given "
		       "tasks; record them apart");
		return -1;
	}
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

/* record_init - nothing to set up: the pages go to the file undecoded */
static int record_init(void *priv, const struct ft_env *env)
{
	return 0;
}

/* record_event - pages are not decoded while recording */
static void record_event(void *priv, const struct ft_event *ev)
{
}

/* record_report - the footer says what was written */
static void record_report(void *priv, struct ft_report *r)
{
}

/* record_fini - nothing to finish */
static void record_fini(void *priv)
{
}

/* record_free - the -e list and the named analyzers' defaults */
static void record_free(void *priv)
{
	struct record *r = priv;
	int i;

	for (i = 0; i < r->nevents; i++)
		free(r->events[i]);
	free(r->events);
	for (i = 0; i < r->nnamed; i++) {
		if (r->an[i]->free)
			r->an[i]->free(r->apriv[i]);
		free(r->apriv[i]);
	}
}

static const struct option record_longopts[] = {
	{ "event",	required_argument, NULL, 'e' },
	{ NULL, 0, NULL, 0 }
};

const struct ft_analyzer ft_record = {
	.name		= "record",
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
	.splice		= true,
	.priv_size	= sizeof(struct record),
	.parse_opt	= record_parse_opt,
	.arg		= record_arg,
	.events		= record_events,
	.extra_events	= record_extra,
	.tracepoints	= record_tracepoints,
	.check		= record_check,
	.whole_system	= record_whole_system,
	.init		= record_init,
	.event		= record_event,
	.report		= record_report,
	.fini		= record_fini,
	.free		= record_free,
};
