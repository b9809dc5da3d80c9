// SPDX-License-Identifier: GPL-2.0
/*
 * report: several analyzers in one pass, live or over one trace.dat. Each word names
 * an analyzer with its own options ('timehist -s'); the run drives them all
 * (engine/stages.c): one session (the union of their events), one reading, decoding and
 * switch-chain repair, and each prints what `ftscope NAME` would over the same
 * events, under a "==> NAME <==" line, before one footer for all.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyzers/analyzer.h"
#include "cmd/analyze.h"
#include "cmd/commands.h"
#include "cmd/options.h"
#include "engine/stages.h"
#include "events/tasks.h"
#include "events/tdat.h"
#include "lib/util.h"
#include "output/json.h"

#define MAX_STAGES	8

struct report {
	char		*spec[MAX_STAGES];	/* the words, as given */
	int		n;
	struct ft_stage	st[MAX_STAGES];
	char		*words[MAX_STAGES];	/* each word split in place; argv points here */
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

/* parse_stage - "NAME [its options]" into @s, kept split in @words */
static int parse_stage(struct ft_stage *s, char **words, const char *spec, int ncpus)
{
	int ret = ft_stage_parse(s, words, spec, ncpus, "report");

	if (ret > 0)
		ft_err("'%s' is not an analyzer report can run (any of `ftscope list` but "
		       "record, report and the function probers funclat and funccount)", *words);
	return ret ? -1 : 0;
}

/* report_check - at least one analyzer, each word parsed */
static int report_check(struct report *r, const struct ft_opts *o)
{
	int i;

	if (!r->n) {
		ft_err("report needs at least one ANALYZER (see --help)");
		return -1;
	}
	for (i = 0; i < r->n; i++) {
		const struct ft_cli *c;

		if (parse_stage(&r->st[i], &r->words[i], r->spec[i], o->ncpus))
			return -1;
		/* its own options again, against report's common ones (--json, -i, -C, -p) */
		c = &r->st[i].a->cli;
		if (c->check && ft_cli_check(c, r->st[i].priv, o))
			return -1;
	}
	return 0;
}

/* report_free - what parsing made */
static void report_free(struct report *r)
{
	int i;

	for (i = 0; i < r->n; i++) {
		struct ft_stage *s = &r->st[i];

		if (s->a && s->a->free && s->priv)
			s->a->free(s->priv);
		free(s->priv);
		free(r->words[i]);
		free(r->spec[i]);
	}
}

static const struct ft_cli report_cli = {
	.name		= "report",
	.summary	= "several analyzers over one trace.dat, in one pass",
	.synopsis	= "-i FILE ANALYZER...",
	.help		= "Usage: ftscope report [options] ANALYZER... [-- command [args]]\n\n"
			  "Several analyzers in one pass: live (one instance with the events of all)\n"
			  "or over one trace.dat (-i FILE). Each prints, under a line\n"
			  "\"==> ANALYZER <==\", what it prints alone over the same events; one footer\n"
			  "(events, losses, repairs) follows for all.\n\n"
			  "Options:\n"
			  "  ANALYZER...          any analyzer but funclat and funccount (ftscope list);\n"
			  "                       quote one with its own options: 'timehist -s' 'runqlat -P'\n"
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
	.arg		= report_arg,
};

/**
 * ft_cmd_report - `ftscope report [options] ANALYZER...`
 * Returns the exit status.
 */
int ft_cmd_report(int argc, char **argv)
{
	struct report *r = calloc(1, sizeof(*r));
	struct ft_run run = { .name = "report" };
	struct ft_opts o = { 0 };
	int ret;

	ft_set_prog("ftscope report");
	if (!r) {
		ft_err("out of memory");
		return FT_EXIT_ERR;
	}
	o.ncpus = ft_possible_cpus();
	ret = ft_opts_parse(&o, &report_cli, r, argc, argv);
	if (ret == FT_PARSE_RUN && report_check(r, &o))
		ret = FT_EXIT_USAGE;
	run.stages = (struct ft_stages){ .st = r->st, .n = r->n, .sections = true };
	/* only once every word parsed: each stage has its analyzer */
	if (ret == FT_PARSE_RUN && ft_run_whole(&run, &run.stages, &o, "run"))
		ret = FT_EXIT_USAGE;
	if (ret == FT_PARSE_RUN)
		ret = ft_run(&o, &run);
	report_free(r);
	ft_opts_free(&o);
	free(r);
	return ret;
}
