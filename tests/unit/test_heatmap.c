// SPDX-License-Identifier: GPL-2.0
/*
 * Heat map columns (output/heatmap.c): a known series of emissions and takes, the
 * exact cells after each. Columns start 1 ms wide and merge in pairs when one more
 * would pass the most allowed, an odd last one pairing with the column still open;
 * an interval reset (fold) keeps the counts cumulative; empty columns stay; a fixed
 * width stops at FT_HEATMAP_MAX_FIXED columns and counts what it could not draw.
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

#include "output/heatmap.h"
#include "output/metrics.h"

#define MS	1000000ull
#define S0	(1000 * MS)	/* the map's start: trace time of the first record */

static char path[64];

/* map - a map with at most @cols columns of 2^k ms, or of @width_ns */
static struct ft_heatmap *map(unsigned int cols, uint64_t width_ns)
{
	struct ft_heatmap_opts o = { .path = path, .title = "runqlat", .max_cols = cols,
				     .width_ns = width_ns };
	struct ft_heatmap *h;

	snprintf(path, sizeof(path), "/tmp/ftscope-test-heatmap-%d.svg", (int)getpid());
	h = ft_heatmap_new(&o);
	assert_non_null(h);
	return h;
}

/*
 * emit - the analyzer's state as one emission: slot 3 holds @a, slot 5 @b (split in
 * two series of the metric, to be summed), and another metric that must be ignored
 */
static void emit(struct ft_heatmap *h, uint64_t a, uint64_t b)
{
	struct ft_hist x = { 0 }, y = { 0 }, other = { 0 };
	struct ft_metrics *m = ft_heatmap_metrics(h);
	struct ft_label l = { "comm", "x" };

	x.log2[3] = a;
	y.log2[5] = b;
	other.log2[3] = 1000;
	ft_heatmap_begin(h);
	ft_metrics_hist(m, "runqlat", &l, 1, &x, &ft_unit_us);
	ft_metrics_hist(m, "runqlat", &l, 1, &y, &ft_unit_us);
	ft_metrics_hist(m, "runqlat_other", NULL, 0, &other, &ft_unit_us);
}

/* take - emit then take at @ts; the boundary returned */
static uint64_t take(struct ft_heatmap *h, uint64_t ts, uint64_t a, uint64_t b)
{
	emit(h, a, b);
	return ft_heatmap_take(h, ts);
}

/* expect - the map has @n columns of @width, column i holding a[i] in slot 3, b[i] in 5 */
static void expect(struct ft_heatmap *h, bool close, unsigned int n, uint64_t width,
		   const uint64_t *a, const uint64_t *b)
{
	struct ft_heatmap_view v;
	unsigned int i, s;

	ft_heatmap_view(h, close, &v);
	assert_int_equal(v.width_ns, width);
	assert_int_equal(v.start_ns, S0);
	assert_int_equal(v.ncols, n);
	for (i = 0; i < n; i++)
		for (s = 0; s < FT_LOG2_SLOTS; s++)
			assert_int_equal(v.col[i][s], s == 3 ? a[i] : s == 5 ? b[i] : 0);
}

/* test_merge_pairs - four columns at most: 1 ms, then 2 ms, then 4 ms wide */
static void test_merge_pairs(void **state)
{
	struct ft_heatmap *h = map(4, 0);

	(void)state;
	assert_int_equal(take(h, S0, 0, 0), S0 + MS);
	assert_int_equal(take(h, S0 + MS + 10, 2, 0), S0 + 2 * MS);	/* [0,1): 2 */
	assert_int_equal(take(h, S0 + 2 * MS, 5, 0), S0 + 3 * MS);	/* [1,2): 3 */
	assert_int_equal(take(h, S0 + 3 * MS + 1, 6, 0), S0 + 4 * MS);	/* [2,3): 1 */
	expect(h, false, 3, MS, (const uint64_t[]){ 2, 3, 1 }, (const uint64_t[]){ 0, 0, 0 });
	/* [3,4) holds 2; a fifth column would pass 4: pairs merge, [2,3) with the open one */
	assert_int_equal(take(h, S0 + 4 * MS, 8, 0), S0 + 6 * MS);
	expect(h, false, 2, 2 * MS, (const uint64_t[]){ 5, 3 }, (const uint64_t[]){ 0, 0 });
	/* [4,6) holds 4 in slot 5; the take at 9 ms needs a fifth 2 ms column: 4 ms */
	assert_int_equal(take(h, S0 + 9 * MS, 8, 4), S0 + 12 * MS);
	expect(h, false, 2, 4 * MS, (const uint64_t[]){ 8, 0 }, (const uint64_t[]){ 0, 4 });
	/* an interval report resets the analyzer: what it held stays in the map */
	emit(h, 8, 4);
	ft_heatmap_fold(h);
	assert_int_equal(take(h, S0 + 13 * MS, 1, 0), S0 + 16 * MS);	/* [8,12): 1 */
	/* the end: the open column [12,16) closes, empty */
	expect(h, true, 4, 4 * MS, (const uint64_t[]){ 8, 0, 1, 0 },
	       (const uint64_t[]){ 0, 4, 0, 0 });
	assert_int_equal(take(h, S0 + 20 * MS, 9, 9), UINT64_MAX);	/* closed for good */
	expect(h, false, 4, 4 * MS, (const uint64_t[]){ 8, 0, 1, 0 },
	       (const uint64_t[]){ 0, 4, 0, 0 });
	ft_heatmap_free(h);
	assert_int_not_equal(access(path, F_OK), 0);	/* never written: removed */
}

/* test_empty_columns - a take far past the boundary: the columns between stay, empty */
static void test_empty_columns(void **state)
{
	struct ft_heatmap *h = map(0, 0);

	(void)state;
	take(h, S0, 0, 0);
	assert_int_equal(take(h, S0 + 5 * MS + MS / 2, 1, 0), S0 + 6 * MS);
	expect(h, true, 6, MS, (const uint64_t[]){ 1, 0, 0, 0, 0, 0 },
	       (const uint64_t[]){ 0, 0, 0, 0, 0, 0 });
	ft_heatmap_free(h);
}

/* test_fixed_width_bound - a fixed width keeps FT_HEATMAP_MAX_FIXED columns, no more */
static void test_fixed_width_bound(void **state)
{
	struct ft_heatmap *h = map(0, 10 * MS);
	struct ft_heatmap_view v;

	(void)state;
	assert_int_equal(take(h, S0, 0, 0), S0 + 10 * MS);
	assert_int_equal(take(h, S0 + 25 * MS, 3, 0), S0 + 30 * MS);
	assert_int_equal(take(h, S0 + (FT_HEATMAP_MAX_FIXED + 1) * 10 * MS, 4, 0), UINT64_MAX);
	take(h, S0 + (FT_HEATMAP_MAX_FIXED + 2) * 10 * MS, 7, 1);
	ft_heatmap_view(h, true, &v);
	assert_int_equal(v.ncols, FT_HEATMAP_MAX_FIXED);
	assert_int_equal(v.width_ns, 10 * MS);
	assert_int_equal(v.col[0][3], 3);
	assert_int_equal(v.col[1][3], 0);
	assert_int_equal(v.col[2][3], 1);
	assert_int_equal(v.undrawn, 4);		/* 3 more in slot 3, 1 in slot 5 */
	ft_heatmap_free(h);
}

/* test_no_values - no take at all: no columns, and the SVG says so */
static void test_no_values(void **state)
{
	struct ft_heatmap *h = map(0, 0);
	char buf[8192];
	size_t n;
	FILE *f;

	(void)state;
	assert_int_equal(ft_heatmap_write(h), 0);
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	fclose(f);
	unlink(path);
	assert_non_null(strstr(buf, "No values"));
	assert_non_null(strstr(buf, "</svg>"));
	assert_null(strstr(buf, "class=\"cell\""));
	ft_heatmap_free(h);
}

/*
 * test_all_undrawn - every value past the last column of a fixed width: the SVG says
 * how many were measured and why none is drawn, not "No values"
 */
static void test_all_undrawn(void **state)
{
	struct ft_heatmap *h = map(0, 10 * MS);
	struct ft_heatmap_view v;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	take(h, S0, 0, 0);
	assert_int_equal(take(h, S0 + (FT_HEATMAP_MAX_FIXED + 1) * 10 * MS, 0, 0), UINT64_MAX);
	take(h, S0 + (FT_HEATMAP_MAX_FIXED + 2) * 10 * MS, 4, 1);
	ft_heatmap_view(h, true, &v);
	assert_int_equal(v.undrawn, 5);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(ft_heatmap_svg(&v, f), 0);
	fclose(f);
	assert_non_null(strstr(buf, "data-undrawn=\"5\""));
	assert_non_null(strstr(buf, "5 values measured, none drawn: all came after 100 s, past "
				    "the last of the 10000 columns of --heatmap-width 0.01 s."));
	assert_null(strstr(buf, "No values"));
	assert_null(strstr(buf, "class=\"cell\""));
	free(buf);
	ft_heatmap_free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_merge_pairs),
		cmocka_unit_test(test_empty_columns),
		cmocka_unit_test(test_fixed_width_bound),
		cmocka_unit_test(test_no_values),
		cmocka_unit_test(test_all_undrawn),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
