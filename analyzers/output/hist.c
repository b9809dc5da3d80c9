// SPDX-License-Identifier: GPL-2.0
/*
 * Histogram helpers shared by every analyzer.
 */
#include <string.h>

#include "analyzers/output/hist.h"
#include "analyzers/output/json.h"

const struct ft_unit ft_unit_ns = { 1, "nsecs", "ns" };
const struct ft_unit ft_unit_us = { 1000, "usecs", "us" };
const struct ft_unit ft_unit_ms = { 1000000, "msecs", "ms" };

/* fine_lo - smallest value of a log-linear slot, and its width in @w */
static uint64_t fine_lo(unsigned int idx, uint64_t *w)
{
	unsigned int e;

	if (idx < 8) {
		*w = 1;
		return idx;
	}
	e = idx / 8 + 2;
	*w = 1ULL << (e - 3);
	return (8ULL + idx % 8) << (e - 3);
}

/* ft_hist_reset - empty the histogram (interval output) */
void ft_hist_reset(struct ft_hist *h)
{
	memset(h, 0, sizeof(*h));
}

/* ft_hist_merge - add every sample of @src to @dst */
void ft_hist_merge(struct ft_hist *dst, const struct ft_hist *src)
{
	int i;

	if (!src->count)
		return;
	for (i = 0; i < FT_LOG2_SLOTS; i++)
		dst->log2[i] += src->log2[i];
	for (i = 0; i < FT_LINLOG_SLOTS; i++)
		dst->fine[i] += src->fine[i];
	if (!dst->count || src->min_ns < dst->min_ns)
		dst->min_ns = src->min_ns;
	if (src->max_ns > dst->max_ns)
		dst->max_ns = src->max_ns;
	dst->count += src->count;
	dst->sum_ns += src->sum_ns;
}

/**
 * ft_hist_percentile - the value (ns) below which a fraction @p of samples lie,
 * interpolated inside its log-linear slot and clamped to the observed min and max
 */
uint64_t ft_hist_percentile(const struct ft_hist *h, double p)
{
	uint64_t rank, seen = 0, lo, w;
	unsigned int i;

	if (!h->count)
		return 0;
	rank = (uint64_t)(p * (double)h->count + 0.5);
	if (rank < 1)
		rank = 1;
	if (rank > h->count)
		rank = h->count;
	/* the extremes are known exactly */
	if (rank == 1)
		return h->min_ns;
	if (rank == h->count)
		return h->max_ns;
	for (i = 0; i < FT_LINLOG_SLOTS; i++) {
		if (seen + h->fine[i] >= rank) {
			uint64_t v;

			/* samples spread evenly over the slot: take the middle of this one's share */
			lo = fine_lo(i, &w);
			v = lo + (uint64_t)((double)w * ((double)(rank - seen) - 0.5) /
					    (double)h->fine[i]);
			if (v < h->min_ns)
				v = h->min_ns;
			if (v > h->max_ns)
				v = h->max_ns;
			return v;
		}
		seen += h->fine[i];
	}
	return h->max_ns;
}

/* stars - BCC's bar: floor(width * val / max) stars, '+' when clipped */
static void stars(FILE *f, uint64_t val, uint64_t max, int width)
{
	int n = max ? (int)((val < max ? val : max) * width / max) : 0, i;

	for (i = 0; i < width; i++)
		fputc(i < n ? '*' : ' ', f);
}

/**
 * ft_hist_print_log2 - print the histogram exactly as BCC's print_log2_hist does:
 * header "     usecs               : count     distribution", one row per slot up
 * to the last non-empty one. Nothing is printed for an empty histogram.
 */
void ft_hist_print_log2(FILE *f, const struct ft_hist *h, const char *label)
{
	int i, idx_max = 0, wide;
	uint64_t vmax = 0;

	for (i = 1; i < FT_LOG2_SLOTS; i++) {
		if (h->log2[i])
			idx_max = i;
		if (h->log2[i] > vmax)
			vmax = h->log2[i];
	}
	if (!idx_max)
		return;
	wide = idx_max > 32;
	if (wide)
		fprintf(f, "               %-29s : count     distribution\n", label);
	else
		fprintf(f, "     %-19s : count     distribution\n", label);
	for (i = 1; i <= idx_max; i++) {
		unsigned long long low = (1ULL << i) >> 1, high = (i == 64) ? ~0ULL : (1ULL << i) - 1;

		if (low == high)
			low--;
		fprintf(f, "%*llu -> %-*llu : %-8llu |", wide ? 20 : 10, low, wide ? 20 : 10, high,
			(unsigned long long)h->log2[i]);
		stars(f, h->log2[i], vmax, wide ? 20 : 40);
		fputs("|\n", f);
	}
}

/* print_val - a ns value in the histogram's unit, with decimals where they matter */
static void print_val(FILE *f, uint64_t ns, const struct ft_unit *u)
{
	if (u->div == 1)
		fprintf(f, "%llu", (unsigned long long)ns);
	else
		fprintf(f, "%.*f", ns / u->div >= 100 ? 0 : 1, (double)ns / (double)u->div);
}

/**
 * ft_hist_print_summary - the line no peer prints:
 * "count 123, avg 4.5 us, p50 3.0 us, p90 8.0 us, p99 17 us, max 40 us"
 */
void ft_hist_print_summary(FILE *f, const struct ft_hist *h, const struct ft_unit *u)
{
	static const struct { double p; const char *name; } pct[] = {
		{ 0.50, "p50" }, { 0.90, "p90" }, { 0.99, "p99" },
	};
	unsigned int i;

	fprintf(f, "count %llu", (unsigned long long)h->count);
	if (!h->count) {
		fputc('\n', f);
		return;
	}
	fputs(", avg ", f);
	print_val(f, h->sum_ns / h->count, u);
	fprintf(f, " %s", u->short_name);
	for (i = 0; i < sizeof(pct) / sizeof(pct[0]); i++) {
		fprintf(f, ", %s ", pct[i].name);
		print_val(f, ft_hist_percentile(h, pct[i].p), u);
		fprintf(f, " %s", u->short_name);
	}
	fputs(", max ", f);
	print_val(f, h->max_ns, u);
	fprintf(f, " %s\n", u->short_name);
}

/* ft_hist_json - the histogram as a JSON object (values in ns, slots in the unit) */
void ft_hist_json(struct ft_json *j, const char *key, const struct ft_hist *h,
		  const struct ft_unit *u)
{
	int i, idx_max = 0;

	for (i = 1; i < FT_LOG2_SLOTS; i++)
		if (h->log2[i])
			idx_max = i;
	ft_json_obj_begin(j, key);
	ft_json_str(j, "unit", u->short_name);
	ft_json_u64(j, "count", h->count);
	ft_json_u64(j, "sum_ns", h->sum_ns);
	ft_json_u64(j, "avg_ns", h->count ? h->sum_ns / h->count : 0);
	ft_json_u64(j, "min_ns", h->min_ns);
	ft_json_u64(j, "p50_ns", ft_hist_percentile(h, 0.50));
	ft_json_u64(j, "p90_ns", ft_hist_percentile(h, 0.90));
	ft_json_u64(j, "p99_ns", ft_hist_percentile(h, 0.99));
	ft_json_u64(j, "max_ns", h->max_ns);
	ft_json_arr_begin(j, "buckets");
	for (i = 1; i <= idx_max; i++) {
		unsigned long long low = (1ULL << i) >> 1, high = (1ULL << i) - 1;

		if (low == high)
			low--;
		ft_json_obj_begin(j, NULL);
		ft_json_u64(j, "low", low);
		ft_json_u64(j, "high", high);
		ft_json_u64(j, "count", h->log2[i]);
		ft_json_obj_end(j);
	}
	ft_json_arr_end(j);
	ft_json_obj_end(j);
}
