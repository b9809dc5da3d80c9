// SPDX-License-Identifier: GPL-2.0
/*
 * report: several analyzers in one pass, live or over one trace.dat. Each word names
 * an analyzer with its own options ('timehist -s'); they share the session (the union
 * of their events), the reading, decoding and switch-chain repair, and each prints
 * what `ftscope NAME` would over the same events, under a "==> NAME <==" line, before
 * one footer for all.
 *
 * Analyzers that print while events flow (timehist rows, wakeup --min-us) print to
 * stdout: while one of them runs, stdout is its own temporary file (glibc's stdout
 * is a variable one may set), copied out in order at each report.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyzers/analyzer.h"
#include "analyzers/output/json.h"
#include "events/tasks.h"
#include "events/tdat.h"
#include "tracer/options.h"
#include "tracer/util.h"

#define MAX_STAGES	8
#define MAX_WORDS	32

struct stage {
	const struct ft_analyzer *a;
	void			*priv;
	char			*words;		/* the word, split in place; argv points here */
	struct ft_opts		o;		/* report's common options + its own */
	struct ft_env		env;
	struct ft_tasks		tasks;		/* its own: analyzers name tasks as they go */
	FILE			*out;		/* what it prints while events flow */
	bool			has_tasks, inited;
};

struct report {
	char		*spec[MAX_STAGES];	/* the words, as given */
	int		n;
	struct stage	st[MAX_STAGES];
};

/* report_arg - one analyzer word, parsed once report's own options are known */
static int report_arg(void *priv, const char *arg)
{
	struct report *r = priv;

	if (r->n == MAX_STAGES) {
		ft_err("at most %d analyzers in one report", MAX_STAGES);
		return -1;
	}
	r->spec[r->n] = strdup(arg);
	if (!r->spec[r->n]) {
		ft_err("out of memory");
		return -1;
	}
	r->n++;
	return 0;
}

/* own_only - did the analyzer's word hold only its own options? */
static bool own_only(const struct ft_opts *t)
{
	return !t->npids && !t->ntids && !t->cpu_on && !t->all && !t->duration && !t->interval &&
	       !t->count && !t->timestamps && !t->buffer_kb && !t->json && !t->cmd &&
	       !t->input && !t->instance && !t->output && !t->pmu && !t->cgroup &&
	       !t->clock;
}

/* parse_stage - "NAME [its options]" into @s, with @common as the shared options */
static int parse_stage(struct stage *s, const char *spec, const struct ft_opts *common)
{
	char *argv[MAX_WORDS + 1], *save = NULL, *w;
	struct ft_opts t = { .ncpus = common->ncpus };
	int argc = 0;

	s->words = strdup(spec);
	if (!s->words) {
		ft_err("out of memory");
		return -1;
	}
	for (w = strtok_r(s->words, " \t", &save); w && argc < MAX_WORDS;
	     w = strtok_r(NULL, " \t", &save))
		argv[argc++] = w;
	argv[argc] = NULL;
	s->a = argc ? ft_analyzer_find(argv[0]) : NULL;
	if (!s->a || s->a->splice || s->a->probes || !strcmp(s->a->name, "report")) {
		ft_err("'%s' is not an analyzer report can run (timehist, runqlat, latency, "
		       "wakeup, offcpu)", argc ? argv[0] : "");
		return -1;
	}
	s->priv = calloc(1, s->a->priv_size);
	if (!s->priv) {
		ft_err("out of memory");
		return -1;
	}
	if (ft_opts_parse(&t, s->a, s->priv, argc, argv) != FT_PARSE_RUN) {
		ft_opts_free(&t);
		return -1;
	}
	if (!own_only(&t)) {
		ft_opts_free(&t);
		ft_err("'%s': options common to all (-i, --json, ...) go to report itself", spec);
		return -1;
	}
	ft_opts_free(&t);
	s->o = *common;		/* the shared options; arrays stay report's */
	return 0;
}

/* report_check - at least one analyzer, each word parsed */
static int report_check(void *priv, const struct ft_opts *o)
{
	struct report *r = priv;
	int i, whole;

	if (!r->n) {
		ft_err("report needs at least one ANALYZER (see --help)");
		return -1;
	}
	for (i = 0; i < r->n; i++)
		if (parse_stage(&r->st[i], r->spec[i], o))
			return -1;
	/* the analyzers of events of no task (interrupts) check the shared options */
	for (i = 0, whole = 0; i < r->n; i++) {
		const struct stage *st = &r->st[i];

		if (!st->a->whole_system || !st->a->whole_system(st->priv))
			continue;
		if (st->a->check && st->a->check(st->priv, o))
			return -1;
		whole++;
	}
	if (whole && whole < r->n && (o->cmd || o->npids || o->ntids || o->cgroup)) {
		ft_err("interrupts are traced system-wide, other events for the given "
		       "tasks; run them apart");
		return -1;
	}
	return 0;
}

/* report_whole_system - every analyzer reads events of no task: no pid filter */
static bool report_whole_system(void *priv)
{
	struct report *r = priv;
	int i;

	for (i = 0; i < r->n; i++)
		if (!r->st[i].a->whole_system || !r->st[i].a->whole_system(r->st[i].priv))
			return false;
	return r->n > 0;
}

/* report_events - what every analyzer needs and wants */
static void report_events(void *priv, unsigned int *need, unsigned int *want)
{
	struct report *r = priv;
	int i;

	for (i = 0; i < r->n; i++) {
		const struct ft_analyzer *a = r->st[i].a;

		*need |= a->need;
		*want |= a->want;
		if (a->events)
			a->events(r->st[i].priv, need, want);
	}
}

/* report_tracepoints - the tracepoints every analyzer reads by name, chained */
static struct ft_tp *report_tracepoints(void *priv)
{
	struct report *r = priv;
	struct ft_tp *all = NULL;
	int i;

	for (i = 0; i < r->n; i++)
		if (r->st[i].a->tracepoints)
			all = ft_tp_append(all, r->st[i].a->tracepoints(r->st[i].priv));
	return all;
}

/* report_init - each analyzer sees the shared pipeline with its own options */
static int report_init(void *priv, const struct ft_env *env)
{
	struct report *r = priv;
	FILE *real = stdout;
	int i, ret;

	for (i = 0; i < r->n; i++) {
		struct stage *s = &r->st[i];

		s->env = *env;
		s->env.opts = &s->o;
		s->env.tasks = &s->tasks;
		s->has_tasks = !ft_tasks_init(&s->tasks, env->live) &&
			       (!env->cmdlines || !ft_tasks_saved(&s->tasks, env->cmdlines->data,
								  env->cmdlines->len));
		s->out = tmpfile();
		if (!s->has_tasks || !s->out) {
			ft_err("cannot set up %s: %m", s->a->name);
			return -1;
		}
		stdout = s->out;
		ret = s->a->init(s->priv, &s->env);
		stdout = real;
		if (ret)
			return -1;
		s->inited = true;
	}
	return 0;
}

/*
 * report_event - every record to every analyzer, in order, each printing apart and
 * naming tasks in its own table (as it would alone), which follows forks as the
 * pipeline's does
 */
static void report_event(void *priv, const struct ft_event *ev)
{
	struct report *r = priv;
	FILE *real = stdout;
	int i;

	for (i = 0; i < r->n; i++) {
		if (ev->type == FT_EV_FORK)
			ft_tasks_fork(&r->st[i].tasks, ev->fork.parent_pid, ev->fork.child_pid,
				      ev->fork.child_comm);
		stdout = r->st[i].out;
		r->st[i].a->event(r->st[i].priv, ev);
	}
	stdout = real;
}

/* drain - copy what a stage printed so far to @f, and start its file again */
static void drain(struct stage *s, FILE *f)
{
	char buf[65536];
	size_t n;

	fflush(s->out);
	rewind(s->out);
	while ((n = fread(buf, 1, sizeof(buf), s->out)) > 0)
		fwrite(buf, 1, n, f);
	rewind(s->out);
	if (ftruncate(fileno(s->out), 0))
		ft_err("cannot reuse a temporary file: %m");
}

/* report_report - each analyzer's report under its name; JSON: a "reports" array */
static void report_report(void *priv, struct ft_report *rep)
{
	struct report *r = priv;
	int i;

	if (rep->json)
		ft_json_arr_begin(rep->json, "reports");
	for (i = 0; i < r->n; i++) {
		struct ft_report sub = *rep;

		sub.footer = NULL;
		if (rep->json) {
			ft_json_obj_begin(rep->json, NULL);
			ft_json_str(rep->json, "analyzer", r->st[i].a->name);
		} else {
			fprintf(rep->f, "%s==> %s <==\n", i ? "\n" : "", r->spec[i]);
		}
		drain(&r->st[i], rep->f);
		r->st[i].a->report(r->st[i].priv, &sub);
		if (rep->json)
			ft_json_obj_end(rep->json);
	}
	if (rep->json)
		ft_json_arr_end(rep->json);
}

/* report_fini - end each analyzer that began */
static void report_fini(void *priv)
{
	struct report *r = priv;
	int i;

	for (i = 0; i < r->n; i++) {
		if (r->st[i].inited)
			r->st[i].a->fini(r->st[i].priv);
		if (r->st[i].out)
			fclose(r->st[i].out);
		r->st[i].out = NULL;
		if (r->st[i].has_tasks)
			ft_tasks_fini(&r->st[i].tasks);
		r->st[i].has_tasks = false;
	}
}

/* report_free - what parsing made */
static void report_free(void *priv)
{
	struct report *r = priv;
	int i;

	for (i = 0; i < r->n; i++) {
		struct stage *s = &r->st[i];

		if (s->a && s->a->free && s->priv)
			s->a->free(s->priv);
		free(s->priv);
		free(s->words);
		free(r->spec[i]);
	}
}

const struct ft_analyzer ft_report = {
	.name		= "report",
	.summary	= "several analyzers over one trace.dat, in one pass",
	.synopsis	= "-i FILE ANALYZER...",
	.help		= "Usage: ftscope report [options] ANALYZER... [-- command [args]]\n\n"
			  "Several analyzers in one pass: live (one instance with the events of all)\n"
			  "or over one trace.dat (-i FILE). Each prints, under a line\n"
			  "\"==> ANALYZER <==\", what it prints alone over the same events; one footer\n"
			  "(events, losses, repairs) follows for all.\n\n"
			  "Options:\n"
			  "  ANALYZER...          timehist, runqlat, latency, wakeup, offcpu; quote one\n"
			  "                       with its own options: 'timehist -s' 'runqlat -P'\n"
			  "  -i, --input FILE     read a trace.dat instead of tracing\n"
			  "  -B, --instance NAME  with -i: read that instance's buffer of the file\n"
			  "  -o, --output FILE    also write the events to a trace.dat\n"
			  "  --json               one object, with a \"reports\" array: one per analyzer\n"
			  "  -p PID, -t TID, -C CPUS, -a, -d SECONDS, -b KB: as for every analyzer\n"
			  "                       (ftscope runqlat --help), given to report itself\n\n"
			  "EXAMPLES:\n"
			  "  ftscope report 'timehist -s' runqlat wakeup -- make -j2\n"
			  "  ftscope report runqlat 'latency -s max' -d 5\n"
			  "  ftscope record -o s.dat -- make -j2\n"
			  "  ftscope report -i s.dat timehist runqlat wakeup\n"
			  "  ftscope report -i s.dat 'timehist -s' 'runqlat -P' 'latency -s max'\n",
	.priv_size	= sizeof(struct report),
	.max_wait_ms	= 100,		/* offcpu's, the shortest of the analyzers' */
	.arg		= report_arg,
	.check		= report_check,
	.whole_system	= report_whole_system,
	.events		= report_events,
	.tracepoints	= report_tracepoints,
	.init		= report_init,
	.event		= report_event,
	.report		= report_report,
	.fini		= report_fini,
	.free		= report_free,
};
