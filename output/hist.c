// SPDX-License-Identifier: GPL-2.0
/*
 * Histogram helpers shared by every analyzer.
 */
#include <stdlib.h>
#include <string.h>

#include "output/hist.h"
#include "output/json.h"

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
 * FT_FINE_SUB slots; a side that grows takes at least half the size the store has,
 * so that all of a histogram's growths cost O(its final size). -1 on ENOMEM, the
 * store unchanged.
 */
static int cover(struct ft_hist *h, unsigned int lo, unsigned int hi)
{
	unsigned int olo = h->fine_lo, ohi = olo + h->fine_n, half = h->fine_n / 2;
	unsigned int nlo = lo & ~(FT_FINE_SUB - 1), nhi = (hi + FT_FINE_SUB - 1) & ~(FT_FINE_SUB - 1);
	uint64_t *c;

	if (h->fine_n) {
		if (lo >= olo && hi <= ohi)
			return 0;
		if (nlo >= olo)
			nlo = olo;
		else if (nlo + half > olo)
			nlo = olo > half ? (olo - half) & ~(FT_FINE_SUB - 1) : 0;
		if (nhi <= ohi)
			nhi = ohi;
		else if (nhi < ohi + half)
			nhi = ohi + half < FT_FINE_SLOTS ?
			      (ohi + half + FT_FINE_SUB - 1) & ~(FT_FINE_SUB - 1) : FT_FINE_SLOTS;
	} else {
		olo = ohi = nlo;
	}
	c = realloc(h->fine, (nhi - nlo) * sizeof(*c));
	if (!c)
		return -1;
	if (olo > nlo)
		memmove(c + (olo - nlo), c, (ohi - olo) * sizeof(*c));
	memset(c, 0, (olo - nlo) * sizeof(*c));
	memset(c + (ohi - nlo), 0, (nhi - ohi) * sizeof(*c));
	h->fine = c;
	h->fine_lo = nlo;
	h->fine_n = nhi - nlo;
	return 0;
}

/* vals_span - how many slots (whole octaves) would hold the listed values and @ns */
static unsigned int vals_span(const struct ft_hist *h, uint64_t ns)
{
	uint64_t lo = ns, hi = ns;
	uint32_t i;

	for (i = 0; i < h->nvals; i++) {
		if (h->vals[i] < lo)
			lo = h->vals[i];
		if (h->vals[i] > hi)
			hi = h->vals[i];
	}
	return ((ft_fine_slot(hi) | (FT_FINE_SUB - 1)) + 1) -
	       (ft_fine_slot(lo) & ~(FT_FINE_SUB - 1));
}

/* to_slots - move the listed values to the store; -1 on ENOMEM, the list kept */
static int to_slots(struct ft_hist *h)
{
	unsigned int lo = FT_FINE_SLOTS, hi = 0, s;
	uint32_t i;

	for (i = 0; i < h->nvals; i++) {
		s = ft_fine_slot(h->vals[i]);
		lo = s < lo ? s : lo;
		hi = s > hi ? s : hi;
	}
	if (h->nvals && cover(h, lo, hi + 1))
		return -1;
	for (i = 0; i < h->nvals; i++)
		h->fine[ft_fine_slot(h->vals[i]) - h->fine_lo]++;
	free(h->vals);
	h->vals = NULL;
	h->nvals = h->vals_cap = 0;
	return 0;
}

/*
 * keep_value - list @ns while the list, doubled when full, stays smaller than the
 * slots that would hold it: 0 listed, 1 the list went to the store (@ns not counted
 * yet), -1 no memory anywhere
 */
static int keep_value(struct ft_hist *h, uint64_t ns)
{
	uint32_t cap = h->vals_cap ? h->vals_cap * 2 : 8;
	uint64_t *v;

	if (h->nvals == h->vals_cap) {
		v = cap <= vals_span(h, ns) ? realloc(h->vals, cap * sizeof(*v)) : NULL;
		if (!v)
			return to_slots(h) ? -1 : 1;
		h->vals = v;
		h->vals_cap = cap;
	}
	h->vals[h->nvals++] = ns;
	return 0;
}

/* ft_hist_add_slow - count a value of log-linear slot @slot outside the store */
void ft_hist_add_slow(struct ft_hist *h, unsigned int slot, uint64_t ns)
{
	int kept = h->fine_n ? 1 : keep_value(h, ns);

	if (!kept)
		return;
	if (kept < 0 || cover(h, slot, slot + 1))
		h->unstored++;	/* percentiles rank among the stored values */
	else
		h->fine[slot - h->fine_lo]++;
}

/* ft_hist_fini - free the store and the list; the histogram is empty and usable again */
void ft_hist_fini(struct ft_hist *h)
{
	free(h->fine);
	free(h->vals);
	memset(h, 0, sizeof(*h));
}

/* ft_hist_reset - empty the histogram (interval output), keeping its memory */
void ft_hist_reset(struct ft_hist *h)
{
	struct ft_hist keep = *h;

	memset(h, 0, sizeof(*h));
	if (keep.fine_n)
		memset(keep.fine, 0, keep.fine_n * sizeof(*keep.fine));
	h->fine = keep.fine;
	h->fine_lo = keep.fine_lo;
	h->fine_n = keep.fine_n;
	h->vals = keep.vals;
	h->vals_cap = keep.vals_cap;
}

/* put - count @ns in the list or the store of @h, nothing else */
static void put(struct ft_hist *h, uint64_t ns)
{
	unsigned int slot = ft_fine_slot(ns), i = slot - h->fine_lo;

	if (i < h->fine_n)
		h->fine[i]++;
	else
		ft_hist_add_slow(h, slot, ns);
}

/* ft_hist_merge - add every sample of @src to @dst */
void ft_hist_merge(struct ft_hist *dst, const struct ft_hist *src)
{
	uint32_t i;

	if (!src->count)
		return;
	for (i = 0; i < FT_LOG2_SLOTS; i++)
		dst->log2[i] += src->log2[i];
	for (i = 0; i < src->nvals; i++)
		put(dst, src->vals[i]);
	if (src->fine_n && (to_slots(dst) ||
			    cover(dst, src->fine_lo, src->fine_lo + src->fine_n))) {
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
 * list_value - the listed value of @rank (1 .. nvals): Wirth's selection (Hoare's
 * partition around the value at the rank's place), which reorders the list, not its
 * values. At most 2048 values: even a worst case costs little.
 */
static uint64_t list_value(const struct ft_hist *h, uint64_t rank)
{
	int64_t l = 0, r = (int64_t)h->nvals - 1, k = (int64_t)rank - 1, i, j;
	uint64_t *v = h->vals, x, t;

	while (l < r) {
		x = v[k];
		i = l;
		j = r;
		do {
			while (v[i] < x)
				i++;
			while (x < v[j])
				j--;
			if (i <= j) {
				t = v[i];
				v[i++] = v[j];
				v[j--] = t;
			}
		} while (i <= j);
		if (j < k)
			l = i;
		if (k < i)
			r = j;
	}
	return v[k];
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
 * ft_hist_percentile - the nearest-rank percentile @p (0..1) in ns: the value of rank
 * ceil(p * count) itself while the values are listed; else the middle of
 * the slot that holds it, the slot first narrowed to
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
	if (h->nvals == n)
		return list_value(h, rank);
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
