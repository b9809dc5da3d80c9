/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hist --from SYS:EV --to SYS:EV: the time between two events, per match key, as
 * ftrace's synthetic events (onmatch), bpftrace's @start[tid] maps and BCC's
 * argdist give it. hist.c hands its options and callbacks here when --from or --to
 * is given; everything else of the span lives in hist_span.c.
 */
#ifndef FTSCOPE_ANALYZERS_HIST_SPAN_H
#define FTSCOPE_ANALYZERS_HIST_SPAN_H

#include "analyzers/analyzer.h"

struct hist_span;
struct ft_metrics;

/* option values of the span (hist's own are 0x100..) */
enum { HS_OPT_FROM = 0x180, HS_OPT_TO, HS_OPT_MATCH, HS_OPT_FROM_FILTER, HS_OPT_TO_FILTER,
       HS_OPT_MS, HS_OPT_US, HS_OPT_NS };

#define HIST_SPAN_LONGOPTS \
	{ "from", required_argument, NULL, HS_OPT_FROM }, \
	{ "to", required_argument, NULL, HS_OPT_TO }, \
	{ "match", required_argument, NULL, HS_OPT_MATCH }, \
	{ "from-filter", required_argument, NULL, HS_OPT_FROM_FILTER }, \
	{ "to-filter", required_argument, NULL, HS_OPT_TO_FILTER }, \
	{ "milliseconds", no_argument, NULL, HS_OPT_MS }, \
	{ "microseconds", no_argument, NULL, HS_OPT_US }, \
	{ "nanoseconds", no_argument, NULL, HS_OPT_NS }

#define HIST_SPAN_USAGE \
	"  The time between two events (docs/hist.md, \"Spans\"):\n" \
	"      --from SYS:EV    a span starts at this event ...\n" \
	"      --to SYS:EV      ... and ends at this one, with the same match key: a\n" \
	"                       latency histogram, its count and percentiles\n" \
	"      --match F[=G]    the key: field F of --from equals field G of --to (G: F);\n" \
	"                       default common_pid on both. The latest unmatched start\n" \
	"                       of a key pairs with its next end (ftrace's onmatch)\n" \
	"      --from-filter EXPR, --to-filter EXPR  only these starts, ends (--filter's\n" \
	"                       syntax, over that event's fields)\n" \
	"      --key tid|pid|cpu  one histogram per thread, process or CPU of the end\n" \
	"      --milliseconds, --microseconds (default), --nanoseconds  the unit\n"

#define HIST_SPAN_EXAMPLES \
	"  ftscope hist --from syscalls:sys_enter_read --to syscalls:sys_exit_read -d 5\n" \
	"  ftscope hist --from sched:sched_wakeup --to sched:sched_switch \\\n" \
	"      --match pid=next_pid --to-filter 'next_comm == dd'  # run-queue latency\n"

int hist_span_opt(struct hist_span **sp, int opt, const char *arg);
int hist_span_check(struct hist_span *s, const struct ft_env *env, const char *event,
		    char *const *keys, int nkeys, const char *value, const char *filter,
		    bool table);
struct ft_tp *hist_span_tracepoints(struct hist_span *s);
void hist_span_events(struct hist_span *s, unsigned int *need, unsigned int *want);
int hist_span_init(struct hist_span *s, const struct ft_env *env);
void hist_span_event(struct hist_span *s, const struct ft_event *ev);
void hist_span_report(struct hist_span *s, struct ft_report *rep);
void hist_span_reset(struct hist_span *s);
void hist_span_metrics(struct hist_span *s, struct ft_metrics *m);
void hist_span_fini(struct hist_span *s);
void hist_span_free(struct hist_span *s);

#endif
