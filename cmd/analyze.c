// SPDX-License-Identifier: GPL-2.0
/*
 * `ftscope NAME ...` for an analyzer: its command line, then one run that drives it
 * alone (engine/run.c); and the rules for analyzers of events that belong to no task,
 * which record and report follow too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzers/analyzer.h"
#include "cmd/analyze.h"
#include "cmd/options.h"
#include "engine/stages.h"
#include "lib/util.h"

/**
 * ft_run_whole - the analyzers of @s that read events of no task (interrupts, I/O
 * completions): no task filter for them, and no command beside task-filtered ones
 * (@apart: "run" or "record"). Sets @r->whole_system when all of them do.
 * Returns 0, or -1 after one error line.
 */
int ft_run_whole(struct ft_run *r, const struct ft_stages *s, const struct ft_opts *o,
		 const char *apart)
{
	const char *who = NULL;
	int i, whole = 0;

	for (i = 0; i < s->n; i++)
		if (s->st[i].a->whole_system) {
			who = s->st[i].a->cli.name;
			whole++;
		}
	r->whole_system = whole && whole == s->n;
	if (whole && (o->npids || o->ntids || o->cgroup)) {
		ft_err("%s traces the whole system (interrupts and I/O completions belong to no "
		       "task): -p, -t and --cgroup do not apply (-C selects CPUs)", who);
		return -1;
	}
	if (whole && whole < s->n && o->cmd) {
		ft_err("%s traces the whole system, the other analyzers the given tasks: %s "
		       "them apart", who, apart);
		return -1;
	}
	return 0;
}

/* check_functions - a function analyzer's patterns against the other options */
static int check_functions(const struct ft_analyzer *a, const struct ft_func_req *req,
			   const struct ft_opts *o)
{
	if (!req->nspecs) {
		ft_err("%s needs at least one PATTERN (see --help)", a->cli.name);
		return FT_EXIT_USAGE;
	}
	if (o->input && (o->npids || o->ntids)) {
		ft_err("-p and -t filter a capture's scheduler events, not %s's probes", a->cli.name);
		return FT_EXIT_USAGE;
	}
	return FT_PARSE_RUN;
}

/**
 * ft_run_analyzer - `ftscope NAME ...`: parse, then trace live or read a capture
 * Returns the exit status.
 */
int ft_run_analyzer(const struct ft_analyzer *a, int argc, char **argv)
{
	struct ft_cli cli = a->cli;
	struct ft_stage st = { .a = a };
	struct ft_run r = { .name = a->cli.name, .stages = { .st = &st, .n = 1 } };
	struct ft_opts o = { 0 };
	char prog[64];
	int ret;

	snprintf(prog, sizeof(prog), "ftscope %s", a->cli.name);
	ft_set_prog(prog);
	o.ncpus = ft_possible_cpus();
	st.priv = calloc(1, a->priv_size);
	if (!st.priv) {
		ft_err("out of memory");
		return FT_EXIT_ERR;
	}
	cli.exports = a->metrics != NULL;
	ret = ft_opts_parse(&o, &cli, st.priv, argc, argv);
	if (ret == FT_PARSE_RUN && ft_run_whole(&r, &r.stages, &o, "run"))
		ret = FT_EXIT_USAGE;
	if (ret == FT_PARSE_RUN && a->functions) {
		r.funcs = a->functions(st.priv);
		ret = check_functions(a, r.funcs, &o);
	}
	if (ret == FT_PARSE_RUN)
		ret = ft_run(&o, &r);
	if (a->free)
		a->free(st.priv);
	ft_opts_free(&o);
	free(st.priv);
	return ret;
}

#define MAX_WORDS	32

/* own_only - did the analyzer's word hold only its own options? */
static bool own_only(const struct ft_opts *t)
{
	return !t->npids && !t->ntids && !t->cpu_on && !t->all && !t->duration && !t->interval &&
	       !t->count && !t->timestamps && !t->buffer_kb && !t->json && !t->cmd &&
	       !t->input && !t->instance && !t->output && !t->pmu && !t->cgroup &&
	       !t->clock && !ft_opts_reader(t);
}

/**
 * ft_stage_parse - one word of report or record, "NAME [its options]", into @s (its
 * analyzer and options), kept split in @words (the options may point there); @who
 * takes the options common to all.
 * Returns 0; 1, no message, when NAME is no analyzer or probes functions (then
 * *@words is NAME); -1 after one error line.
 */
int ft_stage_parse(struct ft_stage *s, char **words, const char *spec, int ncpus,
		   const char *who)
{
	char *argv[MAX_WORDS + 1], *save = NULL, *w;
	struct ft_opts t = { .ncpus = ncpus };
	int argc = 0;

	*words = strdup(spec);
	if (!*words) {
		ft_err("out of memory");
		return -1;
	}
	for (w = strtok_r(*words, " \t", &save); w && argc < MAX_WORDS;
	     w = strtok_r(NULL, " \t", &save))
		argv[argc++] = w;
	argv[argc] = NULL;
	s->a = argc ? ft_analyzer_find(argv[0]) : NULL;
	if (!s->a || s->a->functions)
		return 1;
	s->priv = calloc(1, s->a->priv_size);
	if (!s->priv) {
		ft_err("out of memory");
		return -1;
	}
	if (ft_opts_parse(&t, &s->a->cli, s->priv, argc, argv) != FT_PARSE_RUN) {
		ft_opts_free(&t);
		return -1;
	}
	if (!own_only(&t)) {
		ft_opts_free(&t);
		ft_err("'%s': options common to all (-i, --json, ...) go to %s itself", spec, who);
		return -1;
	}
	ft_opts_free(&t);
	s->title = spec;
	return 0;
}
