// SPDX-License-Identifier: GPL-2.0
/*
 * Histogram helpers shared by every analyzer.
 */
#include <stdlib.h>
#include <string.h>

#include "analyzers/output/hist.h"
#include "analyzers/output/json.h"

const struct ft_unit ft_unit_ns = { 1, "nsecs", "ns" };
const struct ft_unit ft_unit_us = { 1000, "usecs", "us" };
const struct ft_unit ft_unit_ms = { 1000000, "msecs", "ms" };

/* fine_range - the values of log-linear slot @s: [*lo, *hi] */
static void fine_range(unsigned int s, uint64_t *lo, uint64_t *hi)
{
	unsigned int sh;

	if (s < 2 * FT_FINE_SUB) {
		*lo = *hi = s;
		return;
	}
	sh = (s >> FT_FINE_BITS) - 1;
	*lo = (uint64_t)(s - (sh << FT_FINE_BITS)) << sh;
	*hi = *lo + ((1ULL << sh) - 1);
}

/*
 * cover - grow the store of @h to hold slots @lo .. @hi - 1, in whole octaves of
 * FT_FINE_SUB slots (at most 59 growths in a histogram's life); -1 on ENOMEM
 */
static int cover(struct ft_hist *h, unsigned int lo, unsigned int hi)
{
	unsigned int nlo, nhi;
	uint64_t *c;

	if (h->fine_n) {
		if (lo >= h->fine_lo && hi <= h->fine_lo + h->fine_n)
			return 0;
		if (h->fine_lo < lo)
			lo = h->fine_lo;
		if (h->fine_lo + h->fine_n > hi)
			hi = h->fine_lo + h->fine_n;
	}
	nlo = lo & ~(FT_FINE_SUB - 1);
	nhi = (hi + FT_FINE_SUB - 1) & ~(FT_FINE_SUB - 1);
	c = calloc(nhi - nlo, sizeof(*c));
	if (!c)
		return -1;
	if (h->fine_n)
		memcpy(c + (h->fine_lo - nlo), h->fine, h->fine_n * sizeof(*c));
	free(h->fine);
	h->fine = c;
	h->fine_lo = nlo;
	h->fine_n = nhi - nlo;
	return 0;
}

/* ft_hist_add_slow - count a value of log-linear slot @slot outside the store */
void ft_hist_add_slow(struct ft_hist *h, unsigned int slot)
{
	if (cover(h, slot, slot + 1))
		h->unstored++;	/* percentiles rank among the stored values */
	else
		h->fine[slot - h->fine_lo]++;
}

/* ft_hist_fini - free the store; the histogram is empty and usable again */
void ft_hist_fini(struct ft_hist *h)
{
	free(h->fine);
	memset(h, 0, sizeof(*h));
}

/* ft_hist_reset - empty the histogram (interval output), keeping its store */
void ft_hist_reset(struct ft_hist *h)
{
	uint64_t *fine = h->fine;
	uint32_t lo = h->fine_lo, n = h->fine_n;

	memset(h, 0, sizeof(*h));
	if (n)
		memset(fine, 0, n * sizeof(*fine));
	h->fine = fine;
	h->fine_lo = lo;
	h->fine_n = n;
}

/* ft_hist_merge - add every sample of @src to @dst */
void ft_hist_merge(struct ft_hist *dst, const struct ft_hist *src)
{
	uint32_t i;

	if (!src->count)
		return;
	for (i = 0; i < FT_LOG2_SLOTS; i++)
		dst->log2[i] += src->log2[i];
	if (src->fine_n && cover(dst, src->fine_lo, src->fine_lo + src->fine_n)) {
		for (i = 0; i < src->fine_n; i++)
			dst->unstored += src->fine[i];
	} else {
		for (i = 0; i < src->fine_n; i++)
			dst->fine[src->fine_lo - dst->fine_lo + i] += src->fine[i];
	}
	dst->unstored += src->unstored;
	if (!dst->count || src->min_ns < dst->min_ns)
		dst->min_ns = src->min_ns;
	if (src->max_ns > dst->max_ns)
		dst->max_ns = src->max_ns;
	dst->count += src->count;
	dst->sum_ns += src->sum_ns;
}

/*
 * nearest_rank - ceil(@p * @n) in 1 .. n: the rank of the nearest-rank percentile
 * (the product is allowed a relative rounding error of 1e-12: 0.99 * 100 is 99)
 */
static uint64_t nearest_rank(double p, uint64_t n)
{
	double x = p * (double)n;
	uint64_t rank;

	if (!(x >= 1))		/* also NaN */
		return 1;
	if (x >= (double)n)
		return n;
	rank = (uint64_t)x;
	if ((double)rank < x * (1 - 1e-12))
		rank++;
	return rank;
}

/**
 * ft_hist_percentile - the nearest-rank percentile @p (0..1) in ns: the middle of
 * the slot that holds the value of rank ceil(p * count), the slot first narrowed to
 * the observed min and max. As every value v of a slot of width w >= 2 has
 * v >= 64 w, the answer is within (w - 1) / 2 / (64 w) < 1/128 of the exact value;
 * slots of width 1 (below 128 ns) are exact, and so are the min and max.
 */
uint64_t ft_hist_percentile(const struct ft_hist *h, double p)
{
	uint64_t n = h->count - h->unstored, rank, seen = 0, lo, hi;
	uint32_t i;

	if (!n)
		return h->count ? h->max_ns : 0;
	rank = nearest_rank(p, n);
	/* the extremes are known exactly */
	if (rank == 1)
		return h->min_ns;
	if (rank == n)
		return h->max_ns;
	for (i = 0; i < h->fine_n; i++) {
		seen += h->fine[i];
		if (seen >= rank)
			break;
	}
	if (i == h->fine_n)
		return h->max_ns;
	fine_range(h->fine_lo + i, &lo, &hi);
	if (lo < h->min_ns)
		lo = h->min_ns;
	if (hi > h->max_ns)
		hi = h->max_ns;
	return lo + (hi - lo) / 2;
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
