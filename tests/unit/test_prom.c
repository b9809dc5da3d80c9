// SPDX-License-Identifier: GPL-2.0
/*
 * Prometheus exposition unit tests (output/prom.c): the exact text of a known
 * histogram (le of BCC's rows in seconds, +Inf, _sum, _count) in usecs, nsecs and
 * msecs; label escaping, invalid UTF-8 replaced; the base kept across a fold, an emission replacing the last;
 * --max-series' "other" series; the counters in text 0.0.4 and OpenMetrics.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "output/metrics.h"
#include "output/prom.h"

/* render - the text of @p (OpenMetrics when @om) */
static char *render(struct ft_prom *p, bool om)
{
	char *buf;
	size_t len;

	assert_int_equal(ft_prom_render(p, om, &buf, &len), 0);
	assert_int_equal(strlen(buf), len);
	return buf;
}

/* has - @text holds the whole line @line */
static void has(const char *text, const char *line)
{
	size_t n = strlen(line);
	const char *s;

	for (s = text; (s = strstr(s, line)); s++)
		if ((s == text || s[-1] == '\n') && s[n] == '\n')
			return;
	fail_msg("no line '%s' in:\n%s", line, text);
}

/* count_lines - lines of @text starting with @prefix */
static int count_lines(const char *text, const char *prefix)
{
	int n = 0;
	const char *s;

	for (s = text; s && *s; s = strchr(s, '\n'), s = s ? s + 1 : NULL)
		n += !strncmp(s, prefix, strlen(prefix));
	return n;
}

/* hist_add - into @h of @n values of @ns each, in unit @u */
static void hist_add(struct ft_hist *h, const struct ft_unit *u, uint64_t ns, int n)
{
	while (n--)
		ft_hist_add(h, u, ns);
}

/* test_usecs - BCC's rows 0->1, 2->3, 4->7 as le 1.999e-06, 3.999e-06, 7.999e-06 */
static void test_usecs(void **state)
{
	struct ft_prom *p = ft_prom_new(0);
	struct ft_hist h = { 0 };
	char *t;

	(void)state;
	hist_add(&h, &ft_unit_us, 0, 1);	/* slot 1 */
	hist_add(&h, &ft_unit_us, 1999, 2);	/* slot 1: 1.999 us is "0 -> 1" */
	hist_add(&h, &ft_unit_us, 2000, 3);	/* slot 2 */
	hist_add(&h, &ft_unit_us, 7999, 4);	/* slot 3 */
	hist_add(&h, &ft_unit_us, 70000000000000ULL, 1);	/* 70000 s: past 2^36 us */
	ft_prom_begin(p);
	ft_metrics_hist(ft_prom_metrics(p), "t", NULL, 0, &h, &ft_unit_us);
	t = render(p, false);
	has(t, "# TYPE ftscope_t_seconds histogram");
	has(t, "ftscope_t_seconds_bucket{le=\"1.999e-06\"} 3");
	has(t, "ftscope_t_seconds_bucket{le=\"3.999e-06\"} 6");
	has(t, "ftscope_t_seconds_bucket{le=\"7.999e-06\"} 10");
	has(t, "ftscope_t_seconds_bucket{le=\"1.5999e-05\"} 10");
	has(t, "ftscope_t_seconds_bucket{le=\"68719.476735999\"} 10");	/* 2^36 us - 1 ns */
	has(t, "ftscope_t_seconds_bucket{le=\"+Inf\"} 11");
	has(t, "ftscope_t_seconds_sum 70000.000041994");
	has(t, "ftscope_t_seconds_count 11");
	assert_int_equal(count_lines(t, "ftscope_t_seconds_bucket{"), 37);
	free(t);
	ft_hist_fini(&h);
	ft_prom_free(p);
}

/* test_units - nsecs: le 1e-09 (0 and 1 ns), 3e-09; msecs: 0.001999 */
static void test_units(void **state)
{
	struct ft_prom *p = ft_prom_new(0);
	struct ft_hist a = { 0 }, b = { 0 };
	char *t;

	(void)state;
	hist_add(&a, &ft_unit_ns, 1, 1);
	hist_add(&a, &ft_unit_ns, 2, 1);
	hist_add(&b, &ft_unit_ms, 1999999, 1);
	hist_add(&b, &ft_unit_ms, 2000000, 1);
	ft_prom_begin(p);
	ft_metrics_hist(ft_prom_metrics(p), "n", NULL, 0, &a, &ft_unit_ns);
	ft_metrics_hist(ft_prom_metrics(p), "m", NULL, 0, &b, &ft_unit_ms);
	t = render(p, false);
	has(t, "ftscope_n_seconds_bucket{le=\"1e-09\"} 1");
	has(t, "ftscope_n_seconds_bucket{le=\"3e-09\"} 2");
	has(t, "ftscope_m_seconds_bucket{le=\"0.001999999\"} 1");
	has(t, "ftscope_m_seconds_bucket{le=\"0.003999999\"} 2");
	free(t);
	ft_hist_fini(&a);
	ft_hist_fini(&b);
	ft_prom_free(p);
}

/* test_escape - \, " and newline in a label value */
static void test_escape(void **state)
{
	struct ft_prom *p = ft_prom_new(0);
	struct ft_label l[2] = { { "comm", "a\"b\\c\nd" }, { "pid", "7" } };
	struct ft_hist h = { 0 };
	char *t;

	(void)state;
	hist_add(&h, &ft_unit_us, 5000, 1);
	ft_prom_begin(p);
	ft_metrics_hist(ft_prom_metrics(p), "t", l, 2, &h, &ft_unit_us);
	t = render(p, false);
	has(t, "ftscope_t_seconds_count{comm=\"a\\\"b\\\\c\\nd\",pid=\"7\"} 1");
	has(t, "ftscope_t_seconds_bucket{comm=\"a\\\"b\\\\c\\nd\",pid=\"7\",le=\"7.999e-06\"} 1");
	free(t);
	ft_hist_fini(&h);
	ft_prom_free(p);
}

/* test_utf8 - a comm cut inside a character: each stray byte U+FFFD, the rest kept */
static void test_utf8(void **state)
{
	struct ft_prom *p = ft_prom_new(0);
	struct ft_label l[1] = { { "comm", "\xc3\xa9t\xe2\x82" } };	/* "et" and half a euro */
	struct ft_hist h = { 0 };
	char *t;

	(void)state;
	hist_add(&h, &ft_unit_us, 5000, 1);
	ft_prom_begin(p);
	ft_metrics_hist(ft_prom_metrics(p), "t", l, 1, &h, &ft_unit_us);
	t = render(p, false);
	has(t, "ftscope_t_seconds_count{comm=\"\xc3\xa9t\xef\xbf\xbd\xef\xbf\xbd\"} 1");
	free(t);
	ft_hist_fini(&h);
	ft_prom_free(p);
}

/* test_fold - an emission replaces the last; a fold keeps it under the next ones */
static void test_fold(void **state)
{
	struct ft_prom *p = ft_prom_new(0);
	struct ft_hist h = { 0 };
	char *t;

	(void)state;
	hist_add(&h, &ft_unit_us, 3000, 5);
	ft_prom_begin(p);
	ft_metrics_hist(ft_prom_metrics(p), "t", NULL, 0, &h, &ft_unit_us);
	ft_prom_begin(p);	/* a second scrape of the same histogram: still 5 */
	ft_metrics_hist(ft_prom_metrics(p), "t", NULL, 0, &h, &ft_unit_us);
	t = render(p, false);
	has(t, "ftscope_t_seconds_count 5");
	free(t);
	ft_prom_fold(p);	/* the interval report resets it */
	ft_hist_reset(&h);
	hist_add(&h, &ft_unit_us, 1000, 2);
	ft_prom_begin(p);
	ft_metrics_hist(ft_prom_metrics(p), "t", NULL, 0, &h, &ft_unit_us);
	t = render(p, false);
	has(t, "ftscope_t_seconds_bucket{le=\"1.999e-06\"} 2");
	has(t, "ftscope_t_seconds_bucket{le=\"3.999e-06\"} 7");
	has(t, "ftscope_t_seconds_sum 0.000017000");
	has(t, "ftscope_t_seconds_count 7");
	free(t);
	ft_hist_fini(&h);
	ft_prom_free(p);
}

/* emit4 - label sets tid 1..4 with 1..4 values each */
static void emit4(struct ft_prom *p, struct ft_hist *h)
{
	static const char *const tids[] = { "1", "2", "3", "4" };
	struct ft_label l[2];
	int i;

	ft_prom_begin(p);
	for (i = 0; i < 4; i++) {
		l[0] = (struct ft_label){ "comm", "w" };
		l[1] = (struct ft_label){ "tid", tids[i] };
		ft_metrics_hist(ft_prom_metrics(p), "t", l, 2, &h[i], &ft_unit_us);
	}
}

/* test_max_series - 2 own series, the other two summed in one "other", stable */
static void test_max_series(void **state)
{
	struct ft_prom *p = ft_prom_new(2);
	struct ft_hist h[4];
	char *t;
	int i, round;

	(void)state;
	memset(h, 0, sizeof(h));
	for (i = 0; i < 4; i++)
		hist_add(&h[i], &ft_unit_us, 3000, i + 1);
	for (round = 0; round < 2; round++) {
		emit4(p, h);
		t = render(p, round);
		assert_int_equal(count_lines(t, "ftscope_t_seconds_count{"), 3);
		has(t, "ftscope_t_seconds_count{comm=\"w\",tid=\"1\"} 1");
		has(t, "ftscope_t_seconds_count{comm=\"w\",tid=\"2\"} 2");
		has(t, "ftscope_t_seconds_count{comm=\"other\",tid=\"other\"} 7");
		free(t);
	}
	for (i = 0; i < 4; i++)
		ft_hist_fini(&h[i]);
	ft_prom_free(p);
}

/* test_counters - family names: with _total in 0.0.4, without in OpenMetrics, # EOF */
static void test_counters(void **state)
{
	struct ft_prom *p = ft_prom_new(0);
	unsigned long long lost[2] = { 0, 12 };
	struct ft_hist h = { 0 };
	char *t;

	(void)state;
	hist_add(&h, &ft_unit_us, 3000, 1);
	ft_prom_begin(p);
	ft_metrics_hist(ft_prom_metrics(p), "t", NULL, 0, &h, &ft_unit_us);
	ft_prom_counters(p, 1234, lost, 2);
	t = render(p, false);
	has(t, "# TYPE ftscope_events_total counter");
	has(t, "ftscope_events_total 1234");
	has(t, "# TYPE ftscope_events_lost_total counter");
	has(t, "ftscope_events_lost_total{cpu=\"0\"} 0");
	has(t, "ftscope_events_lost_total{cpu=\"1\"} 12");
	assert_null(strstr(t, "# EOF"));
	free(t);
	t = render(p, true);
	has(t, "# TYPE ftscope_events counter");
	has(t, "# TYPE ftscope_events_lost counter");
	has(t, "# UNIT ftscope_t_seconds seconds");
	has(t, "ftscope_events_total 1234");
	assert_string_equal(t + strlen(t) - 6, "# EOF\n");
	free(t);
	ft_hist_fini(&h);
	ft_prom_free(p);
}

/* main - run the tests */
int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_usecs),
		cmocka_unit_test(test_units),
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_utf8),
		cmocka_unit_test(test_fold),
		cmocka_unit_test(test_max_series),
		cmocka_unit_test(test_counters),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
