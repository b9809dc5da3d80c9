// SPDX-License-Identifier: GPL-2.0
/*
 * hist --from/--to (analyzers/hist_span.c) on records built by hand: which start pairs
 * with which end (the latest unmatched start of the key), restarts, ends without a
 * start, starts never matched, a --to-filter, the pending starts dropped after a loss,
 * and one event as both ends (a record ends its key's span before it starts one). The
 * spans are known to the nanosecond; the report must give exactly them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analyzers/analyzer.h"
#include "analyzers/hist_span.h"
#include "tests/unit/harness.h"

extern const struct ft_analyzer ft_hist;

static const char *const formats[] = {
	"name: begin\nID: 301\nformat:\n" UT_COMMON
	"\tfield:int key;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:int ret;\toffset:12;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"key=%d\", REC->key\n",
	"name: end\nID: 302\nformat:\n" UT_COMMON
	"\tfield:int key;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:int ret;\toffset:12;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"key=%d ret=%d\", REC->key, REC->ret\n",
	"name: sw\nID: 303\nformat:\n" UT_COMMON
	"\tfield:int prev_pid;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:int next_pid;\toffset:12;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"prev_pid=%d next_pid=%d\", REC->prev_pid, REC->next_pid\n",
};

enum { BEGIN = 301, END = 302, SW = 303, LOST = -1 };

/* One record: event id, time, its two int fields (key and ret, or prev and next). */
struct rec {
	int		id;
	uint64_t	ts;
	int		a, b;
};

/* One option and its argument. */
struct opt {
	int		opt;
	const char	*arg;
};

/* start - hist with options @o, checked, its tracepoints resolved, initialised */
static void start(struct ut_run *r, const struct opt *o, int n)
{
	int i;

	ut_start(r, &ft_hist);
	for (i = 0; i < n; i++)
		ut_opt(r, o[i].opt, o[i].arg);
	ut_check(r);
	ut_formats(r, "span", formats, sizeof(formats) / sizeof(formats[0]));
	ut_init(r);
}

/* feed - the records, as the pipeline delivers them (all on CPU 0, by pid 7) */
static void feed(struct ut_run *r, const struct rec *recs, int n)
{
	unsigned char b[16];
	int i;

	for (i = 0; i < n; i++) {
		struct ft_event ev = { .ts = recs[i].ts, .type = FT_EV_TP, .common_pid = 7,
				       .id = recs[i].id, .data = b, .size = 16 };
		uint16_t type = recs[i].id;
		int32_t pid = 7;

		if (recs[i].id == LOST)
			ev = (struct ft_event){ .ts = recs[i].ts, .cpu = 1, .type = FT_EV_LOST,
						.id = -1, .lost = 1 };
		memset(b, 0, sizeof(b));
		memcpy(b, &type, 2);
		memcpy(b + 4, &pid, 4);
		memcpy(b + 8, &recs[i].a, 4);
		memcpy(b + 12, &recs[i].b, 4);
		ut_feed(r, &ev, 1);
	}
}

/* One case: hist's options, the records, and the report's summary and footer lines. */
struct scenario {
	const struct opt	*o;
	int			no;
	const struct rec	*recs;
	int			nrecs;
	const char		*summary, *footer;
};

/* line_of - the line of @text that starts with @head (after a newline), as a copy */
static char *line_of(const char *text, const char *head)
{
	const char *p = strstr(text, head);

	assert_non_null(p);
	p++;
	return strndup(p, strcspn(p, "\n"));
}

/* play - run scenario @sc and compare its summary and footer lines */
static void play(const struct scenario *sc)
{
	const char *text;
	char *sum, *foot;
	struct ut_run r;

	start(&r, sc->o, sc->no);
	feed(&r, sc->recs, sc->nrecs);
	text = ut_report(&r, false);
	if (getenv("SPAN_SHOW"))
		fputs(text, stderr);
	sum = line_of(text, "\ncount ");
	foot = line_of(text, "\nhist: ");
	assert_string_equal(sum, sc->summary);
	assert_string_equal(foot, sc->footer);
	free(sum);
	free(foot);
	ut_finish(&r);
}

/*
 * Keys 1 and 2 start; 1 ends 3000 ns later; 2 starts again (a restart: the span of 2
 * is 700 ns from the second start, 4200 from the first); an end of key 3, which never
 * started; key 4 starts, events are lost on CPU 1 (its start is dropped), and its end
 * comes without a start; key 5 starts and its end fails the filter (ret -1): pending
 */
static const struct rec pairs[] = {
	{ BEGIN, 1000, 1, 0 }, { BEGIN, 1500, 2, 0 }, { END, 4000, 1, 0 },
	{ BEGIN, 5000, 2, 0 }, { END, 5700, 2, 0 }, { END, 6000, 3, 0 },
	{ BEGIN, 7000, 4, 0 }, { LOST, 7500, 0, 0 }, { END, 8000, 4, 0 },
	{ BEGIN, 9000, 5, 0 }, { END, 9500, 5, -1 },
};

static const struct opt pairs_opts[] = {
	{ HS_OPT_FROM, "span:begin" }, { HS_OPT_TO, "span:end" },
	{ HS_OPT_MATCH, "key" }, { HS_OPT_TO_FILTER, "ret == 0" }, { HS_OPT_NS, NULL },
};

/*
 * One event as both ends (sched_switch's prev_pid -> next_pid: time off CPU): 10 out
 * at 100, in at 400 (300); 20 out at 400, in at 1000 (600); 30 out at 1500, and a
 * record that both ends and starts 30 at 2000 (500, then 30 pending again); the
 * records at 100 and 1500 end 20 and 40, which never started
 */
static const struct rec same[] = {
	{ SW, 100, 10, 20 },
	{ SW, 400, 20, 10 },
	{ SW, 1000, 10, 20 },
	{ SW, 1500, 30, 40 },
	{ SW, 2000, 30, 30 },
};

static const struct opt same_opts[] = {
	{ HS_OPT_FROM, "span:sw" }, { HS_OPT_TO, "span:sw" },
	{ HS_OPT_MATCH, "prev_pid=next_pid" }, { HS_OPT_NS, NULL },
};

#define N(a)	((int)(sizeof(a) / sizeof((a)[0])))

/* The latest start pairs, every other case counted; a record ends before it starts. */
static const struct scenario cases[] = {
	{ pairs_opts, N(pairs_opts), pairs, N(pairs),
	  "count 2, avg 1850 ns, p50 700 ns, p90 3000 ns, p99 3000 ns, max 3000 ns",
	  "hist: 2 spans span:begin -> span:end matched on key=key; 1 starts never matched "
	  "(pending at the end), 1 restarted before an end (the latest start kept), 2 ends "
	  "without a start; filtered out: 0 starts, 1 ends; 1 pending starts dropped after "
	  "lost events" },
	{ same_opts, N(same_opts), same, N(same),
	  "count 3, avg 466 ns, p50 500 ns, p90 600 ns, p99 600 ns, max 600 ns",
	  "hist: 3 spans span:sw -> span:sw matched on prev_pid=next_pid; 2 starts never "
	  "matched (pending at the end), 0 restarted before an end (the latest start kept), "
	  "2 ends without a start" },
};

/* test_span_pairing - --from/--to/--match key, a --to-filter and a loss */
static void test_span_pairing(void **state)
{
	(void)state;
	play(&cases[0]);
}

/* test_span_same_event - one event as both ends (sched_switch's time off CPU) */
static void test_span_same_event(void **state)
{
	(void)state;
	play(&cases[1]);
}

/* main - the cases */
int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_span_pairing),
		cmocka_unit_test(test_span_same_event),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
