// SPDX-License-Identifier: GPL-2.0
/*
 * profile without a sampler: hand-made samples (kernel frames from a hand-made
 * kallsyms, user frames in this test binary's own functions) and hand-made
 * sched_switch and stack records for --offcpu, whose answers are known exactly:
 * the perf report tables, the folded stacks, the wall-clock sums.
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

#include "analyzers/analyzer.h"
#include "events/tasks.h"
#include "output/flame.h"
#include "output/json.h"
#include "harness.h"
#include "sched_events.h"

#define MS	1000000ULL

/* The kernel's functions, 4 KB each; trace_probe stands for the tracing code. */
static const char kallsyms[] =
	"ffffffff81000000 T k_leaf\nffffffff81001000 T k_mid\nffffffff81002000 T k_root\n"
	"ffffffff81003000 T __schedule\nffffffff81004000 T trace_probe\n"
	"ffffffff81005000 T k_end\n";
#define K_LEAF	0xffffffff81000010ULL
#define K_MID	0xffffffff81001010ULL
#define K_ROOT	0xffffffff81002010ULL
#define K_SCHED	0xffffffff81003010ULL
#define K_TRACE	0xffffffff81004010ULL

/* user_leaf, user_mid, user_main - named code of this binary for user frames */
__attribute__((noinline, used)) int user_leaf(int x) { return x * 7 + 3; }
__attribute__((noinline, used)) int user_mid(int x) { return user_leaf(x) * 5 + 1; }
__attribute__((noinline, used)) int user_main(int x) { return user_mid(x) * 3 + 2; }
#define U(f)	((uint64_t)(uintptr_t)(f) + 4)	/* inside f: an IP, or a return address */

/* The kernel symbols file of the run (one at a time). */
static char ksyms[64];

/* start - the analyzer with @opts (NULL-ended option letter, argument pairs), ready */
static void start(struct ut_run *r, const int *opts, const char *const *args)
{
	const struct ft_analyzer *a = ft_analyzer_find("profile");
	int fd, i;

	assert_non_null(a);
	ut_start(r, a);
	strcpy(ksyms, "/tmp/ftscope-prof-ksyms-XXXXXX");
	fd = mkstemp(ksyms);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, kallsyms, strlen(kallsyms)), (ssize_t)strlen(kallsyms));
	close(fd);
	r->env.ncpus = 1;
	r->env.live = true;
	r->env.kallsyms = ksyms;
	for (i = 0; opts[i]; i++)
		ut_opt(r, opts[i], args[i]);
	ut_check(r);
	assert_non_null(r->a->sampling(r->priv));
	ut_init(r);
}

/* sample - @n samples of @tid in process @pid, @nk kernel then user frames, each @period */
static void sample(struct ut_run *r, int n, int tid, int pid, uint64_t period, int nk, int nu,
		   const uint64_t *ip)
{
	struct ft_sample s = { .ts = 1, .period = period, .pid = pid, .tid = tid, .nk = nk,
			       .nu = nu, .ip = ip };

	while (n--)
		r->a->sample(r->priv, &s);
}

/* finish_as - the final report at @ts into @out (@json: as JSON), then everything freed */
static void finish_as(struct ut_run *r, uint64_t ts, char *out, size_t len, bool json)
{
	snprintf(out, len, "%s",
		 ut_report_as(r, (struct ft_report){ .final = true, .ts = ts }, json));
	ut_finish(r);
	unlink(ksyms);
}

/* finish - the final report at @ts as text into @out, then everything freed */
static void finish(struct ut_run *r, uint64_t ts, char *out, size_t len)
{
	finish_as(r, ts, out, len, false);
}

/* Stacks of the first test: a, b, c of "burn" and d of the idle task. */
static uint64_t st_a[6], st_b[2], st_c[3], st_d[1];

/* samples - 5 a (1 ms), 3 b (1 ms), 1 c (3 ms, recursive), 1 d (2 ms, idle) */
static void samples(struct ut_run *r)
{
	int tid = 4242, pid = getpid();
	uint64_t a[6] = { K_LEAF, K_MID, K_ROOT, U(user_leaf), U(user_mid), U(user_main) };
	uint64_t b[2] = { U(user_mid), U(user_main) };
	uint64_t c[3] = { U(user_mid), U(user_mid), U(user_main) };

	memcpy(st_a, a, sizeof(a));
	memcpy(st_b, b, sizeof(b));
	memcpy(st_c, c, sizeof(c));
	st_d[0] = K_ROOT;
	ft_tasks_note(&r->tasks, tid, "burn");
	sample(r, 5, tid, pid, 1 * MS, 3, 3, st_a);
	sample(r, 3, tid, pid, 1 * MS, 0, 2, st_b);
	sample(r, 1, tid, pid, 3 * MS, 0, 3, st_c);
	sample(r, 1, 0, 0, 2 * MS, 1, 0, st_d);
}

/*
 * The text view: perf report's header; self shares by period (user_mid 6 of 13 ms:
 * 3 samples of b and the one of c), total shares with each function once per stack
 * (c's recursion counts once: user_mid 11 ms, not 14), idle as swapper
 */
static void test_profile_text(void **state)
{
	static const int opts[] = { 0 };
	char out[8192];
	struct ut_run r;
	const char *want =
		"# Samples: 10 of event 'cpu-clock' (99 Hz)\n"
		"# Event count (approx.): 13000000\n"
		"#\n# Self: the function each sample was in (perf report --no-children)\n#\n"
		"# Overhead  Samples  Command  Shared Object      Symbol\n"
		"# ........  .......  .......  .................  ......\n#\n"
		"    46.15%        4  burn     test_profile       [.] user_mid\n"
		"    38.46%        5  burn     [kernel.kallsyms]  [k] k_leaf\n"
		"    15.38%        1  swapper  [kernel.kallsyms]  [k] k_root\n"
		"#\n# Total: the functions on the stack, callers included, each once a sample "
		"(perf report --children)\n#\n"
		"# Children  Samples  Command  Shared Object      Symbol\n"
		"# ........  .......  .......  .................  ......\n#\n"
		"    84.62%        9  burn     test_profile       [.] user_main\n"
		"    84.62%        9  burn     test_profile       [.] user_mid\n"
		"    38.46%        5  burn     [kernel.kallsyms]  [k] k_leaf\n"
		"    38.46%        5  burn     [kernel.kallsyms]  [k] k_mid\n"
		"    38.46%        5  burn     [kernel.kallsyms]  [k] k_root\n"
		"    38.46%        5  burn     test_profile       [.] user_leaf\n"
		"    15.38%        1  swapper  [kernel.kallsyms]  [k] k_root\n"
		"\nprofile: 10 samples (1 in the idle task, swapper)\n";

	(void)state;
	start(&r, opts, NULL);
	samples(&r);
	finish(&r, 0, out, sizeof(out));
	assert_string_equal(out, want);
}

/* --top 2 keeps two rows of each table and says how many are left out */
static void test_profile_top(void **state)
{
	static const int opts[] = { 0x103, 0 };
	static const char *const args[] = { "2", NULL };
	char out[8192];
	struct ut_run r;

	(void)state;
	start(&r, opts, args);
	samples(&r);
	finish(&r, 0, out, sizeof(out));
	assert_non_null(strstr(out, "[k] k_leaf\n# ... 1 more rows (--top 0: all)\n"));
	assert_non_null(strstr(out, "[.] user_mid\n# ... 5 more rows (--top 0: all)\n"));
}

/* -f: offcpu's folded layout, comm;user root..leaf;kernel root..leaf COUNT, most first */
static void test_profile_folded(void **state)
{
	static const int opts[] = { 'f', 'F', 0 };
	static const char *const args[] = { NULL, "499", NULL };
	char out[4096];
	struct ut_run r;

	(void)state;
	start(&r, opts, args);
	assert_int_equal(r.a->sampling(r.priv)->freq, 499);
	assert_true(r.a->sampling(r.priv)->user && r.a->sampling(r.priv)->kernel);
	samples(&r);
	finish(&r, 0, out, sizeof(out));
	assert_string_equal(out,
		"burn;user_main;user_mid;user_leaf;k_root;k_mid;k_leaf 5\n"
		"burn;user_main;user_mid 3\n"
		"burn;user_main;user_mid;user_mid 1\n"
		"swapper;k_root 1\n");
}

/* -k: kernel frames only, asked of the sampler and kept */
static void test_profile_kernel_only(void **state)
{
	static const int opts[] = { 'K', 'f', 0 };
	static const char *const args[] = { NULL, NULL, NULL };
	char out[4096];
	struct ut_run r;

	(void)state;
	start(&r, opts, args);
	assert_false(r.a->sampling(r.priv)->user);
	samples(&r);
	finish(&r, 0, out, sizeof(out));
	assert_string_equal(out, "burn;k_root;k_mid;k_leaf 5\nburn 4\nswapper;k_root 1\n");
}

/* kstack - a kernel_stack record on CPU 0 after a switch, @n frames */
static struct ft_event kstack(uint64_t ts, const uint64_t *ip, int n, int type)
{
	struct ft_event e = { .ts = ts, .cpu = 0, .type = type };

	e.stack.n = n;
	e.stack.word = 8;
	e.stack.tgid = 7;
	e.stack.ip = (const unsigned char *)ip;
	return e;
}

/* off - a switch-out of 7 in @state with its kernel stack and an empty user stack */
static void off(struct ut_run *r, uint64_t ts, char state, const uint64_t *ip, int n)
{
	struct ft_event ev = ev_switch(ts, 0, 7, 0, state);

	ev.sw.preempt = state == 'R';
	ut_event(r, &ev);
	ev = kstack(ts, ip, n, FT_EV_KSTACK);
	ut_event(r, &ev);
	ev = kstack(ts, NULL, 0, FT_EV_USTACK);
	ut_event(r, &ev);
}

/* on - 7 switched in, then @n on-CPU samples of 10 ms */
static void on(struct ut_run *r, uint64_t ts, int n)
{
	static const uint64_t ip[2] = { K_LEAF, K_ROOT };
	struct ft_event ev = ev_switch(ts, 0, 0, 7, 'R');

	ut_event(r, &ev);
	sample(r, n, 7, 7, 10 * MS, 2, 0, ip);
}

/*
 * --offcpu --state: thread 7 runs 0-40 ms, sleeps (S) to 100, runs to 120, is
 * preempted (R) to 125, runs to 135 and waits (D) until the report at 150: its
 * stacks add up to the 150 ms, each state under its own mark, the tracing frame
 * on top of an off-CPU stack dropped, and the wait still open counted to the report
 */
static void test_profile_wallclock(void **state)
{
	static const int opts[] = { 0x101, 0x102, 'f', 0 };
	static const char *const args[] = { NULL, NULL, NULL, NULL };
	static const uint64_t s_st[4] = { K_TRACE, K_SCHED, K_MID, K_ROOT };
	static const uint64_t r_st[2] = { K_SCHED, K_ROOT };
	static const uint64_t d_st[2] = { K_SCHED, K_MID };
	unsigned int need = 0, want = 0;
	char out[4096];
	struct ut_run r;

	(void)state;
	start(&r, opts, args);
	r.a->events(r.priv, &need, &want);
	assert_int_equal(need, FT_NEED(FT_EV_SWITCH) | FT_NEED(FT_EV_KSTACK) |
			 FT_NEED(FT_EV_USTACK));
	on(&r, 0, 4);
	off(&r, 40 * MS, 'S', s_st, 4);
	on(&r, 100 * MS, 2);
	off(&r, 120 * MS, 'R', r_st, 2);
	on(&r, 125 * MS, 1);
	off(&r, 135 * MS, 'D', d_st, 2);
	finish(&r, 150 * MS, out, sizeof(out));
	assert_string_equal(out,
		"t;k_root;k_leaf 70000\n"
		"t;k_root;k_mid;__schedule;[sleeping]_[o] 60000\n"
		"t;k_mid;__schedule;[uninterruptible]_[o] 15000\n"
		"t;k_root;__schedule;[runnable]_[o] 5000\n");
}

/*
 * --offcpu, a switch-in the kernel did not record: rebuilt at the thread's next
 * record (140 ms) its period would run 40-140 ms, but the thread's samples from 50 ms
 * on prove it ran: the period ends at the first of them (10 ms off, not 100)
 */
static void test_profile_clamp(void **state)
{
	static const int opts[] = { 0x101, 'f', 0 };
	static const char *const args[] = { NULL, NULL, NULL };
	static const uint64_t r_st[2] = { K_SCHED, K_ROOT };
	static const uint64_t ip[2] = { K_LEAF, K_ROOT };
	struct ft_sample s = { .period = 10 * MS, .pid = 7, .tid = 7, .nk = 2, .ip = ip };
	struct ft_event ev;
	char out[4096];
	struct ut_run r;

	(void)state;
	start(&r, opts, args);
	on(&r, 0, 0);
	off(&r, 40 * MS, 'R', r_st, 2);
	for (s.ts = 50 * MS; s.ts < 100 * MS; s.ts += 10 * MS)	/* ahead of the records */
		r.a->sample(r.priv, &s);
	ev = ev_switch(140 * MS, 0, 0, 7, 'R');
	ev.sw.synth = true;
	ev.sw.ts_est = 140 * MS;
	ut_event(&r, &ev);
	finish(&r, 150 * MS, out, sizeof(out));
	assert_string_equal(out,
		"t;k_root;k_leaf 50000\n"
		"t;k_root;__schedule;[off-cpu]_[o] 10000\n");
}

/* --offcpu's text view: time in ms, one [off-cpu] mark without --state */
static void test_profile_wallclock_text(void **state)
{
	static const int opts[] = { 0x101, 0 };
	static const char *const args[] = { NULL, NULL };
	static const uint64_t s_st[2] = { K_SCHED, K_MID };
	char out[8192];
	struct ut_run r;

	(void)state;
	start(&r, opts, args);
	on(&r, 0, 4);
	off(&r, 40 * MS, 'S', s_st, 2);
	on(&r, 100 * MS, 2);
	off(&r, 120 * MS, 'D', s_st, 2);
	finish(&r, 150 * MS, out, sizeof(out));
	assert_non_null(strstr(out, "# On-CPU time (approx.): 60.000 ms\n"
				    "# Off-CPU time: 90.000 ms in 2 periods\n"
				    "# Wall-clock time: 150.000 ms\n"));
	assert_non_null(strstr(out, "# Overhead  Time (ms)  Command  Shared Object      Symbol\n"));
	assert_non_null(strstr(out, "    60.00%     90.000  t        [off-cpu]          "
				    "[o] [off-cpu]\n"
				    "    40.00%     60.000  t        [kernel.kallsyms]  [k] k_leaf\n"));
}

/* --json: the header's figures, both tables and the stacks, in one object */
static void test_profile_json(void **state)
{
	static const int opts[] = { 0x103, 0 };
	static const char *const args[] = { "1", NULL };
	char out[8192];
	struct ut_run r;

	(void)state;
	start(&r, opts, args);
	samples(&r);
	finish_as(&r, 0, out, sizeof(out), true);
	assert_non_null(strstr(out, "\"stacks\":[{\"tid\":4242,"));
	assert_non_null(strstr(out, "\"kernel\":[\"k_leaf\",\"k_mid\",\"k_root\"],"
				    "\"user\":[\"user_leaf\",\"user_mid\",\"user_main\"],"
				    "\"samples\":5,\"count\":5000000}"));
	assert_non_null(strstr(out, "\"event\":\"cpu-clock\",\"frequency\":99,"
				    "\"samples\":10,\"event_count\":13000000,\"idle_samples\":1,"));
	assert_non_null(strstr(out, "\"self\":[{\"overhead\":46.15"));
	assert_non_null(strstr(out, "\"samples\":4,\"count\":6000000,\"comm\":\"burn\","
				    "\"dso\":\"test_profile\",\"symbol\":\"user_mid\","
				    "\"level\":\".\"}],\"total\":[{"));
}

/* offcpu_fill - is the fill after @title in @svg the off-CPU kind's (dark blue)? */
static bool offcpu_fill(const char *svg, const char *title)
{
	const char *p = strstr(svg, title);
	int r, g, b;

	p = p ? strstr(p, "fill=\"rgb(") : NULL;
	if (!p || sscanf(p, "fill=\"rgb(%d,%d,%d)", &r, &g, &b) != 3)
		return false;
	return r >= 20 && r <= 60 && g >= 60 && g <= 100 && b >= 190 && b <= 230;
}

/* --svg: the flame graph, its off-CPU marks in their own colour, as flamegraph reads them */
static void test_profile_svg(void **state)
{
	static const int opts[] = { 0x101, 0x100, 0 };
	static const uint64_t s_st[2] = { K_SCHED, K_MID };
	char path[] = "/tmp/ftscope-prof-svg-XXXXXX", out[4096], *svg, stack[] =
		"t;k_mid;__schedule;[off-cpu]_[o]";
	const char *args[] = { NULL, path, NULL };
	struct ft_flame *fg = ft_flame_new(false);
	size_t len = 0;
	FILE *f;
	struct ut_run r;
	int fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	start(&r, opts, args);
	on(&r, 0, 4);
	off(&r, 40 * MS, 'S', s_st, 2);
	finish(&r, 100 * MS, out, sizeof(out));
	f = fopen(path, "r");
	assert_non_null(f);
	assert_int_equal(getdelim(&svg, &len, 0, f) > 0, 1);
	fclose(f);
	unlink(path);
	assert_non_null(strstr(svg, "Wall-Clock Time Flame Graph"));
	/* the mark: 60 of 100 ms, in the dark blue no other kind of frame takes */
	assert_non_null(strstr(svg, "[off-cpu]_[o] (60000 us, 60.00%)</title><rect "));
	assert_true(offcpu_fill(svg, "[off-cpu]_[o] (60000"));
	assert_false(offcpu_fill(svg, "__schedule (60000"));
	free(svg);
	/* ftscope flamegraph: a folded line's _[o] frame takes the same colour */
	svg = NULL;
	f = open_memstream(&svg, &len);
	assert_int_equal(ft_flame_add_stack(fg, stack, 0, 5), 0);
	assert_int_equal(ft_flame_write(fg, f, &(struct ft_flame_opts){ .title = "x" }), 0);
	fclose(f);
	assert_true(offcpu_fill(svg, "[off-cpu]_[o] (5 "));
	free(svg);
	ft_flame_free(fg);
}

/* report_at - one interval report at @ts into @out, the analyzer kept */
static void report_at(struct ut_run *r, uint64_t ts, char *out, size_t len)
{
	snprintf(out, len, "%s",
		 ut_report_as(r, (struct ft_report){ .interval = true, .ts = ts }, false));
}

/*
 * Interval reports cover their interval alone, each adding up to its length: a
 * wait open at a report is cut there and continues into the next one
 */
static void test_profile_intervals(void **state)
{
	static const int opts[] = { 0x101, 'f', 0 };
	static const char *const args[] = { NULL, NULL, NULL };
	static const uint64_t s_st[2] = { K_SCHED, K_MID };
	char out[4096];
	struct ut_run r;

	(void)state;
	start(&r, opts, args);
	on(&r, 0, 4);
	off(&r, 40 * MS, 'S', s_st, 2);
	report_at(&r, 100 * MS, out, sizeof(out));
	assert_string_equal(out, "t;k_mid;__schedule;[off-cpu]_[o] 60000\nt;k_root;k_leaf 40000\n");
	on(&r, 130 * MS, 2);
	finish(&r, 150 * MS, out, sizeof(out));
	assert_string_equal(out, "t;k_mid;__schedule;[off-cpu]_[o] 30000\nt;k_root;k_leaf 20000\n");
}

/* bad combinations: one error each, before anything is set up */
static void test_profile_refusals(void **state)
{
	static const struct { int opt[3]; const char *arg[3]; } bad[] = {
		{ { 'F', 'c' }, { "99", "1000" } },
		{ { 'u', 'k' }, { NULL, NULL } },
		{ { 0x102 }, { NULL } },			/* --state without --offcpu */
		{ { 0x101, 'c' }, { NULL, "1000" } },
		{ { 0x101, 'e' }, { NULL, "page-faults" } },
		{ { 'F' }, { "100000000" } },			/* above the kernel's limit */
	};
	const struct ft_analyzer *a = ft_analyzer_find("profile");
	struct ft_env env = { .live = true };
	size_t i;
	int k;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		void *priv = calloc(1, a->priv_size);

		for (k = 0; k < 3 && bad[i].opt[k]; k++)
			assert_int_equal(a->cli.parse_opt(priv, bad[i].opt[k], bad[i].arg[k]), 0);
		assert_int_equal(a->cli.check(priv, &env), -1);
		free(priv);
	}
	{
		void *priv = calloc(1, a->priv_size);

		assert_int_equal(a->cli.parse_opt(priv, 'F', "0"), -1);
		assert_int_equal(a->cli.parse_opt(priv, 'c', "0"), -1);
		free(priv);
	}
}

/* main - run the profile tests */
int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_profile_text),
		cmocka_unit_test(test_profile_top),
		cmocka_unit_test(test_profile_folded),
		cmocka_unit_test(test_profile_kernel_only),
		cmocka_unit_test(test_profile_wallclock),
		cmocka_unit_test(test_profile_clamp),
		cmocka_unit_test(test_profile_wallclock_text),
		cmocka_unit_test(test_profile_intervals),
		cmocka_unit_test(test_profile_json),
		cmocka_unit_test(test_profile_svg),
		cmocka_unit_test(test_profile_refusals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
