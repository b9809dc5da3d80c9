// SPDX-License-Identifier: GPL-2.0
/*
 * function_graph records with no kernel: the raw funcgraph_entry/funcgraph_exit
 * fields of Trace Compass's tc_trace-func-graph.txt (trace-cmd's raw output of a real
 * 8-CPU trace) are encoded with the formats of several kernels (3.4, 3.10, 4.4, 5.10
 * from ../shared's perfetto fixtures, 32- and 64-bit, and this VM's 6.18), decoded
 * by ftscope's decoder, and measured by funclat: with calltime/rettime as the kernel
 * writes them, and, with those fields taken out of the format, by pairing entries
 * and returns per thread through nesting. The expected answers are computed here
 * from the text by a plain per-thread stack, independently of funclat.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <traceevent/event-parse.h>

#include "analyzers/analyzer.h"
#include "cmd/options.h"
#include "events/decode.h"
#include "events/tep.h"
#include "tests/unit/harness.h"
#include "tracer/probes.h"

#define MAX_LINES	512
#define MAX_FUNCS	128

struct gline {
	int		pid;
	uint64_t	ts;		/* ns, from the text's microseconds */
	bool		exit;
	uint64_t	func, calltime, rettime;
	int		depth;
};

static struct gline lines[MAX_LINES];
static int nlines;

/* fixture - ../shared/fixtures/third_party/REL (or $FTSCOPE_SHARED/...) */
static const char *fixture(const char *rel)
{
	static char path[1024];
	const char *base = getenv("FTSCOPE_SHARED") ? getenv("FTSCOPE_SHARED") : "../shared";

	snprintf(path, sizeof(path), "%s/fixtures/third_party/%s", base, rel);
	return path;
}

/* load_text - the funcgraph lines of the Trace Compass trace; false without ../shared */
static bool load_text(void)
{
	char *text = ft_read_file(fixture("tracecompass/tc_trace-func-graph.txt"), 1 << 20, NULL);
	char *line, *save = NULL, *p;

	if (!text)
		return false;
	nlines = 0;
	for (line = strtok_r(text, "\n", &save); line && nlines < MAX_LINES;
	     line = strtok_r(NULL, "\n", &save)) {
		struct gline *g = &lines[nlines];
		unsigned long long sec, usec, func, a = 0, b = 0;
		char *dash;

		p = strstr(line, "] ");
		dash = p ? memrchr(line, '-', p - line) : NULL;
		if (!p || !dash || sscanf(dash + 1, "%d", &g->pid) != 1 ||
		    sscanf(p + 2, "%llu.%llu:", &sec, &usec) != 2)
			continue;
		g->ts = sec * 1000000000ULL + usec * 1000;
		if ((p = strstr(line, "funcgraph_entry:")) &&
		    sscanf(p, "funcgraph_entry: func=%llx depth=%d", &func, &g->depth) == 2) {
			g->exit = false;
		} else if ((p = strstr(line, "funcgraph_exit:")) &&
			   sscanf(p, "funcgraph_exit: func=%llx calltime=%llx rettime=%llx "
				  "overrun=%*x depth=%d", &func, &a, &b, &g->depth) == 4) {
			g->exit = true;
		} else {
			continue;
		}
		g->func = func;
		g->calltime = a;
		g->rettime = b;
		nlines++;
	}
	free(text);
	return nlines > 0;
}

struct expect {
	unsigned long long count, sum, unpaired;
};

/*
 * expected - what a correct measurement gives, from the text. Per thread, a stack of
 * open calls: a return closes the nearest open call of its function (calls opened
 * above it never returned in the trace: unpaired); a return with no open call is
 * unpaired too, unless it carries its own times. With @times each return counts
 * rettime - calltime; without, the time between its entry and it.
 */
static struct expect expected(bool times, uint64_t mask)
{
	struct { int pid; uint64_t func, ts; } stack[MAX_LINES];
	struct expect e = { 0 };
	int i, j, k, n = 0;

	for (i = 0; i < nlines; i++) {
		const struct gline *g = &lines[i];

		if (!g->exit) {
			stack[n].pid = g->pid;
			stack[n].func = g->func & mask;
			stack[n++].ts = g->ts;
			continue;
		}
		for (j = n - 1; j >= 0; j--)
			if (stack[j].pid == g->pid && stack[j].func == (g->func & mask))
				break;
		if (j >= 0) {
			/* this thread's calls above it are abandoned */
			for (k = n - 1; k > j; k--)
				if (stack[k].pid == g->pid) {
					e.unpaired++;
					memmove(&stack[k], &stack[k + 1], (n - k - 1) * sizeof(stack[0]));
					n--;
				}
		}
		if (times) {
			e.count++;
			e.sum += g->rettime - g->calltime;
		} else if (j >= 0) {
			e.count++;
			e.sum += g->ts - stack[j].ts;
		} else {
			e.unpaired++;
		}
		if (j >= 0) {
			memmove(&stack[j], &stack[j + 1], (n - j - 1) * sizeof(stack[0]));
			n--;
		}
	}
	return e;
}

/* put - store @v in a record field of @size bytes at @off (little endian) */
static void put(unsigned char *rec, const struct tep_format_field *f, uint64_t v)
{
	if (f)
		memcpy(rec + f->offset, &v, f->size < 8 ? f->size : 8);
}

/* drop_times - @text without the calltime and rettime fields (an older layout) */
static char *drop_times(const char *text)
{
	char *out = strdup(text), *p;

	while ((p = strstr(out, "\tfield:unsigned long long calltime;")) ||
	       (p = strstr(out, "\tfield:unsigned long long rettime;"))) {
		char *nl = strchr(p, '\n');

		memmove(p, nl + 1, strlen(nl + 1) + 1);
	}
	/* the print fmt names them too: a shorter one */
	p = strstr(out, "print fmt:");
	if (p)
		strcpy(p, "print fmt: \"<-- %lx (%d)\", REC->func, REC->depth\n");
	return out;
}

/* run - decode every line with @dir's formats and measure them with funclat */
static void run(const char *dir, bool times)
{
	extern const struct ft_analyzer ft_funclat;
	struct ft_page_fmt pf;
	struct tep_handle *tep = ft_tep_load(ft_dir_format_read, (void *)dir, FT_NEED(FT_EV_SWITCH),
					     &pf, 0);
	struct tep_event *ent, *ex;
	struct tep_format_field *efunc, *edepth, *xfunc, *xdepth, *xcall, *xret, *etype, *epid;
	struct ft_decoder dec;
	struct ft_funcs funcs = { 0 }, *pr = &funcs;
	struct ut_run r;
	struct expect want;
	const char *json;
	char *text;
	size_t len;
	uint64_t mask;
	unsigned long long count, sum, unpaired;
	int i, j;

	assert_non_null(tep);
	text = ft_dir_format_read((void *)dir, "ftrace", "funcgraph_entry", &len);
	assert_non_null(text);
	assert_int_equal(ft_tep_add_format(tep, "ftrace", text, len), 0);
	free(text);
	text = ft_dir_format_read((void *)dir, "ftrace", "funcgraph_exit", &len);
	assert_non_null(text);
	if (!times) {
		char *t = drop_times(text);

		free(text);
		text = t;
		len = strlen(t);
	}
	assert_int_equal(ft_tep_add_format(tep, "ftrace", text, len), 0);
	free(text);
	ent = tep_find_event_by_name(tep, "ftrace", "funcgraph_entry");
	ex = tep_find_event_by_name(tep, "ftrace", "funcgraph_exit");
	assert_non_null(ent);
	assert_non_null(ex);
	etype = tep_find_common_field(ent, "common_type");
	epid = tep_find_common_field(ent, "common_pid");
	efunc = tep_find_field(ent, "func");
	edepth = tep_find_field(ent, "depth");
	xfunc = tep_find_field(ex, "func");
	xdepth = tep_find_field(ex, "depth");
	xcall = tep_find_field(ex, "calltime");
	xret = tep_find_field(ex, "rettime");
	assert_true(efunc && xfunc && edepth && xdepth);
	assert_true(times ? xcall && xret : !xcall && !xret);
	mask = efunc->size >= 8 ? ~0ULL : (1ULL << (8 * efunc->size)) - 1;

	assert_int_equal(ft_decoder_init(&dec, tep), 0);
	assert_int_equal(ft_decoder_add_func(&dec, "ftrace", "funcgraph_entry", -1,
					     FT_FC_GRAPH_ENTRY), 0);
	assert_int_equal(ft_decoder_add_func(&dec, "ftrace", "funcgraph_exit", -1,
					     FT_FC_GRAPH_EXIT), 0);

	/* funclat, told about every function of the trace (as a kernel address each) */
	ut_start(&r, &ft_funclat);
	r.env.funcs = &funcs;
	r.env.ncpus = 0;
	pr->fn = calloc(MAX_FUNCS, sizeof(*pr->fn));
	assert_non_null(pr->fn);
	for (i = 0; i < nlines; i++) {
		uint64_t a = lines[i].func & mask;

		for (j = 0; j < pr->n && pr->fn[j].addr != a; j++)
			;
		if (j == pr->n && pr->n < MAX_FUNCS) {
			snprintf(pr->fn[pr->n].name, sizeof(pr->fn[0].name), "f%llx",
				 (unsigned long long)a);
			pr->fn[pr->n].kind = FT_FK_KERNEL;
			pr->fn[pr->n++].addr = a;
		}
	}
	pr->used = FT_FM_GRAPH;
	ut_init(&r);

	for (i = 0; i < nlines; i++) {
		const struct gline *g = &lines[i];
		struct tep_event *e = g->exit ? ex : ent;
		unsigned char rec[64] = { 0 };
		struct ft_event ev = { .ts = g->ts, .cpu = 0 };

		put(rec, etype, e->id);
		put(rec, epid, g->pid);
		put(rec, g->exit ? xfunc : efunc, g->func);
		put(rec, g->exit ? xdepth : edepth, g->depth);
		if (g->exit && times) {
			put(rec, xcall, g->calltime);
			put(rec, xret, g->rettime);
		}
		/* 48 bytes: past the last field of every layout here */
		assert_int_equal(ft_decode(&dec, rec, 48, &ev), FT_EV_FUNC);
		/* the decoded fields are the text's, cut to the kernel's long */
		assert_int_equal(ev.fc.ip, g->func & mask);
		assert_int_equal(ev.fc.depth, g->depth);
		assert_int_equal(ev.fc.has_times, g->exit && times);
		if (ev.fc.has_times) {
			assert_int_equal(ev.fc.calltime, g->calltime);
			assert_int_equal(ev.fc.rettime, g->rettime);
		}
		ev.common_pid = g->pid;
		ut_feed(&r, &ev, 1);
	}

	json = ut_report(&r, true);
	assert_int_equal(sscanf(strstr(json, "\"total\":"), "\"total\":{\"unit\":\"ns\",\"count\":%llu,"
				"\"sum_ns\":%llu", &count, &sum), 2);
	assert_int_equal(sscanf(strstr(json, "\"unpaired\":"), "\"unpaired\":%llu", &unpaired), 1);
	want = expected(times, mask);
	print_message("%s, %s: %llu calls, %llu ns, %llu unpaired\n", dir,
		      times ? "calltime/rettime" : "paired by nesting", count, sum, unpaired);
	assert_true(want.count > 10);
	assert_int_equal(count, want.count);
	assert_int_equal(sum, want.sum);
	assert_int_equal(unpaired, want.unpaired);
	ut_finish(&r);
	ft_funcs_free(&funcs);
	ft_decoder_fini(&dec);
	tep_free(tep);
}

static const char *const kernels[] = {
	"perfetto/formats/device/android_hammerhead_MRA59G_3.4.0",
	"perfetto/formats/device/android_seed_N2F62_3.10.49",
	"perfetto/formats/device/android_walleye_OPM5.171019.017.A1_4.4.88",
	"perfetto/formats/device/android_raven_AOSP.MASTER_5.10.43",
};

/* each kernel's layout: calltime/rettime from the record, then pairing by nesting */
static void test_funcgraph(void **state, bool times)
{
	char dir[1200];
	size_t i;

	if (!load_text()) {
		print_message("SKIP: ../shared/fixtures not present\n");
		skip();
	}
	run("tests/data/k6.18", times);
	for (i = 0; i < sizeof(kernels) / sizeof(kernels[0]); i++) {
		snprintf(dir, sizeof(dir), "%s", fixture(kernels[i]));
		run(dir, times);
	}
}

/* function_graph returns carrying calltime and rettime, five kernels' layouts */
static void test_times(void **state)
{
	test_funcgraph(state, true);
}

/* the same records without them: entries and returns paired per thread through nesting */
static void test_pairing(void **state)
{
	test_funcgraph(state, false);
}

/* main - the function_graph suite */
int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_times),
		cmocka_unit_test(test_pairing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
