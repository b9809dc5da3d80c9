/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One analyzer driven as the pipeline drives it, for the unit suites: its private
 * state with options parsed, an environment with a task table, its tracepoints
 * resolved in hand-written formats, init, records in time order, reports (text or
 * JSON) into memory, then fini and free. A suite builds the records and reads the
 * report; the driving is here, once.
 *
 *	struct ut_run r;
 *
 *	ut_start(&r, &ft_runqlat);	(env: out stdout, the task table, 2 CPUs)
 *	ut_opt(&r, 'u', NULL);		(or ut_opts(&r, "uP"); set r.env fields here)
 *	ut_init(&r);			(after ut_check(&r) where the pipeline checks)
 *	ut_feed(&r, evs, n);
 *	assert_non_null(strstr(ut_report(&r, false), "usecs"));
 *	ut_finish(&r);
 */
#ifndef FTSCOPE_TESTS_UNIT_HARNESS_H
#define FTSCOPE_TESTS_UNIT_HARNESS_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>

#include "analyzers/analyzer.h"
#include "events/tasks.h"
#include "events/tep.h"
#include "events/tp.h"
#include "output/json.h"

/* The common fields of a hand-written format (ut_formats), before its own. */
#define UT_COMMON \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

/* An analyzer under test, with its environment and its last report. */
struct ut_run {
	const struct ft_analyzer	*a;
	void				*priv;
	struct ft_tasks			tasks;
	struct ft_env			env;
	struct tep_handle		*tep;	/* ut_formats: the tracepoints' formats */
	char				*text;	/* the last report, NUL-ended */
	size_t				len;
};

/* ut_start - @a with its state zeroed, no option parsed yet, the default environment */
static inline void ut_start(struct ut_run *r, const struct ft_analyzer *a)
{
	memset(r, 0, sizeof(*r));
	r->a = a;
	r->priv = calloc(1, a->priv_size);
	assert_non_null(r->priv);
	assert_int_equal(ft_tasks_init(&r->tasks, false), 0);
	r->env.out = stdout;
	r->env.tasks = &r->tasks;
	r->env.ncpus = 2;
}

/* ut_opt - one option (a letter or a long option's id) with @arg, accepted */
static inline void ut_opt(struct ut_run *r, int opt, const char *arg)
{
	assert_int_equal(r->a->cli.parse_opt(r->priv, opt, arg), 0);
}

/* ut_opts - option letters without an argument, each accepted */
static inline void ut_opts(struct ut_run *r, const char *letters)
{
	for (; *letters; letters++)
		ut_opt(r, *letters, NULL);
}

/* ut_formats - the @n format texts of @system; the analyzer's tracepoints resolved in them */
static inline void ut_formats(struct ut_run *r, const char *system, const char *const *fmts,
			      int n)
{
	struct ft_tp *tp;
	char err[256];
	int i;

	r->tep = tep_alloc();
	assert_non_null(r->tep);
	tep_set_long_size(r->tep, 8);
	tep_set_file_bigendian(r->tep, TEP_LITTLE_ENDIAN);
	for (i = 0; i < n; i++)
		assert_int_equal(ft_tep_add_format(r->tep, system, fmts[i], strlen(fmts[i])), 0);
	for (tp = r->a->tracepoints(r->priv); tp; tp = tp->next)
		assert_int_equal(ft_tp_resolve(tp, r->tep, err, sizeof(err)), 0);
}

/* The irq events' ids in ut_irq_formats. */
enum { UT_IRQ_ENTRY = 225, UT_IRQ_EXIT = 224, UT_SI_RAISE = 221, UT_SI_ENTRY = 223,
       UT_SI_EXIT = 222 };

#define UT_SI_SYMS \
	"__print_symbolic(REC->vec, { 0, \"HI\" }, { 1, \"TIMER\" }, { 2, \"NET_TX\" }, " \
	"{ 3, \"NET_RX\" }, { 4, \"BLOCK\" }, { 5, \"IRQ_POLL\" }, { 6, \"TASKLET\" }, " \
	"{ 7, \"SCHED\" }, { 8, \"HRTIMER\" }, { 9, \"RCU\" })"

/*
 * ut_irq_formats - ut_formats with the irq events' formats of this VM's 6.18 kernel
 * (hard interrupt entry/exit, softirq raise/entry/exit)
 */
static inline void ut_irq_formats(struct ut_run *r)
{
	static const char *const fmts[] = {
		"name: irq_handler_entry\nID: 225\nformat:\n" UT_COMMON
		"\tfield:int irq;\toffset:8;\tsize:4;\tsigned:1;\n"
		"\tfield:__data_loc char[] name;\toffset:12;\tsize:4;\tsigned:0;\n\n"
		"print fmt: \"irq=%d name=%s\", REC->irq, __get_str(name)\n",
		"name: irq_handler_exit\nID: 224\nformat:\n" UT_COMMON
		"\tfield:int irq;\toffset:8;\tsize:4;\tsigned:1;\n"
		"\tfield:int ret;\toffset:12;\tsize:4;\tsigned:1;\n\n"
		"print fmt: \"irq=%d ret=%s\", REC->irq, REC->ret ? \"handled\" : \"unhandled\"\n",
		"name: softirq_raise\nID: 221\nformat:\n" UT_COMMON
		"\tfield:unsigned int vec;\toffset:8;\tsize:4;\tsigned:0;\n\n"
		"print fmt: \"vec=%u [action=%s]\", REC->vec, " UT_SI_SYMS "\n",
		"name: softirq_entry\nID: 223\nformat:\n" UT_COMMON
		"\tfield:unsigned int vec;\toffset:8;\tsize:4;\tsigned:0;\n\n"
		"print fmt: \"vec=%u [action=%s]\", REC->vec, " UT_SI_SYMS "\n",
		"name: softirq_exit\nID: 222\nformat:\n" UT_COMMON
		"\tfield:unsigned int vec;\toffset:8;\tsize:4;\tsigned:0;\n\n"
		"print fmt: \"vec=%u [action=%s]\", REC->vec, " UT_SI_SYMS "\n",
	};

	ut_formats(r, "irq", fmts, sizeof(fmts) / sizeof(fmts[0]));
}

/* ut_check - the options accepted against each other and the environment (cli.check) */
static inline void ut_check(struct ut_run *r)
{
	assert_int_equal(r->a->cli.check(r->priv, &r->env), 0);
}

/* ut_init - the analyzer's init, accepted */
static inline void ut_init(struct ut_run *r)
{
	assert_int_equal(r->a->init(r->priv, &r->env), 0);
}

/* ut_event - one record as the pipeline delivers it: the task table told first */
static inline void ut_event(struct ut_run *r, const struct ft_event *ev)
{
	ft_tasks_event(&r->tasks, ev);
	ft_tasks_names(&r->tasks, ev);
	r->a->event(r->priv, ev);
}

/* ut_feed - @n records, in order, as the pipeline delivers them */
static inline void ut_feed(struct ut_run *r, const struct ft_event *evs, int n)
{
	int i;

	for (i = 0; i < n; i++)
		ut_event(r, &evs[i]);
}

/*
 * ut_report_as - a report shaped by @rep (final, interval, ts, footer; f is set here),
 * as JSON (one object) when @json, then an interval's reset as the pipeline does it;
 * returns its text, kept in r->text until the next
 */
static inline const char *ut_report_as(struct ut_run *r, struct ft_report rep, bool json)
{
	struct ft_json j;

	free(r->text);
	r->text = NULL;
	rep.f = open_memstream(&r->text, &r->len);
	assert_non_null(rep.f);
	if (json) {
		ft_json_init(&j, rep.f);
		ft_json_obj_begin(&j, NULL);
		rep.json = &j;
	}
	r->a->report(r->priv, &rep);
	if (json)
		ft_json_obj_end(&j);
	fclose(rep.f);
	if (rep.interval && r->a->reset)
		r->a->reset(r->priv);
	return r->text;
}

/* ut_report - the final report, as text or (@json) JSON */
static inline const char *ut_report(struct ut_run *r, bool json)
{
	return ut_report_as(r, (struct ft_report){ .final = true }, json);
}

/* ut_finish - fini, free, and everything the run made */
static inline void ut_finish(struct ut_run *r)
{
	r->a->fini(r->priv);
	if (r->a->free)
		r->a->free(r->priv);
	free(r->priv);
	free(r->text);
	ft_tasks_fini(&r->tasks);
	if (r->tep)
		tep_free(r->tep);
}

#endif
