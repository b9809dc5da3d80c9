/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Latency histograms: BCC's log2 layout for display, plus what percentiles come from:
 * the values themselves, in a list, while it takes less memory than slots spanning
 * them (percentiles exact); then a log-linear store: values below 128 ns exact, then
 * 64 sub-buckets per power of two (a slot of [2^e, 2^(e+1)) is 2^(e-6) ns wide). Only
 * the slots between the lowest and highest value seen are kept, in one array grown
 * whole powers of two at a time. A percentile is then the middle of its slot (narrowed
 * to the observed min and max): within 1/128 (0.78%) of the exact nearest-rank value.
 */
#ifndef FTSCOPE_OUTPUT_HIST_H
#define FTSCOPE_OUTPUT_HIST_H

#include <stdint.h>
#include <stdio.h>

#define FT_LOG2_SLOTS	65
#define FT_FINE_BITS	6
#define FT_FINE_SUB	(1u << FT_FINE_BITS)			/* sub-buckets per octave */
#define FT_FINE_SLOTS	((64 - FT_FINE_BITS + 1) * FT_FINE_SUB)	/* 3776 */

struct ft_json;

/*
 * A zeroed struct is an empty histogram; ft_hist_fini() frees its store. The struct
 * may be moved (realloc, qsort) but not copied: the store belongs to one of them.
 */
struct ft_hist {
	uint64_t	log2[FT_LOG2_SLOTS];	/* by value in display units, BCC's slots */
	uint64_t	*fine;			/* by value in ns: slots fine_lo .. + fine_n - 1 */
	uint32_t	fine_lo, fine_n;
	uint64_t	*vals;			/* or the values themselves, while no slots */
	uint32_t	nvals, vals_cap;
	uint64_t	unstored;		/* values there was no memory for */
	uint64_t	count;
	uint64_t	sum_ns;
	uint64_t	min_ns, max_ns;
};

/* Display unit of a histogram: divisor from ns and the label BCC prints. */
struct ft_unit {
	uint64_t	div;
	const char	*label;		/* "usecs", "msecs", "nsecs" */
	const char	*short_name;	/* "us", "ms", "ns" */
};

extern const struct ft_unit ft_unit_ns, ft_unit_us, ft_unit_ms;

/* ft_log2_slot - BCC's bpf_log2l(): 0 and 1 in slot 1, [2^(k-1), 2^k) in slot k */
static inline unsigned int ft_log2_slot(uint64_t v)
{
	return v ? 64 - __builtin_clzll(v) : 1;
}

/*
 * ft_fine_slot - log-linear slot: @v itself below 128, then for v in [2^e, 2^(e+1)),
 * e >= 6, slot (e - 6) * 64 + (v >> (e - 6)), the top 7 bits of v (64 .. 127)
 */
static inline unsigned int ft_fine_slot(uint64_t v)
{
	unsigned int sh = (63 - __builtin_clzll(v | FT_FINE_SUB)) - FT_FINE_BITS;

	return (sh << FT_FINE_BITS) + (unsigned int)(v >> sh);
}

/*
 * ft_unit_slot - log2_slot(@ns / @div) without the division: the quotient has the bit
 * length of ns less that of div, or one less, and one shifted compare says which
 */
static inline unsigned int ft_unit_slot(uint64_t ns, uint64_t div)
{
	unsigned int s;

	if (div == 1)
		return ft_log2_slot(ns);
	if (ns < div)
		return 1;
	/* ns >= div: the quotient q >= 1 has s or s - 1 bits */
	s = (64 - __builtin_clzll(ns)) - (63 - __builtin_clzll(div));
	/* q has s bits when q >= 2^(s-1), that is ns >= div << (s - 1) */
	if (s > 1 && ((div << (s - 1)) >> (s - 1) != div || ns < div << (s - 1)))
		s--;
	return s;
}

void ft_hist_add_slow(struct ft_hist *h, unsigned int slot, uint64_t ns);

/* ft_hist_add - count one latency of @ns nanoseconds */
static inline void ft_hist_add(struct ft_hist *h, const struct ft_unit *u, uint64_t ns)
{
	unsigned int slot = ft_fine_slot(ns), i = slot - h->fine_lo;

	h->log2[ft_unit_slot(ns, u->div)]++;
	if (__builtin_expect(i < h->fine_n, 1))
		h->fine[i]++;
	else
		ft_hist_add_slow(h, slot, ns);	/* to the list, or grow the store */
	if (!h->count || ns < h->min_ns)
		h->min_ns = ns;
	if (ns > h->max_ns)
		h->max_ns = ns;
	h->count++;
	h->sum_ns += ns;
}

void ft_hist_fini(struct ft_hist *h);
void ft_hist_reset(struct ft_hist *h);
void ft_hist_merge(struct ft_hist *dst, const struct ft_hist *src);
uint64_t ft_hist_percentile(const struct ft_hist *h, double p);
void ft_hist_print_log2(FILE *f, const struct ft_hist *h, const char *label);
void ft_hist_print_summary(FILE *f, const struct ft_hist *h, const struct ft_unit *u);
void ft_hist_json(struct ft_json *j, const char *key, const struct ft_hist *h,
		  const struct ft_unit *u);

#endif
