// SPDX-License-Identifier: GPL-2.0
/*
 * hist's report: the keys by count as a table, or with the log2 histogram of --value,
 * or as JSON; the line of totals under it.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "analyzers/hist_int.h"
#include "lib/util.h"
#include "output/json.h"

/* hist_by_count - most records first, then the key seen first (@ctx: the hents) */
int hist_by_count(const void *a, const void *b, void *ctx)
{
	const struct hent *e = ctx;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	if (e[x].count != e[y].count)
		return e[x].count > e[y].count ? -1 : 1;
	return (x > y) - (x < y);
}

/* hist_key_parts - the fields of key @id into @p */
void hist_key_parts(const struct hist *h, uint32_t id, struct kpart *p)
{
	uint32_t n, j = 0;
	const uint64_t *w = ft_intern_get(&h->in, id, &n);
	int i;

	for (i = 0; i < h->nkeys; i++) {
		p[i].is_str = h->slot[h->key_slot[i]].is_str;
		if (!p[i].is_str) {
			p[i].num = (long long)w[j++];
			continue;
		}
		p[i].len = (int)w[j++];
		p[i].s = (const char *)(w + j);
		j += (p[i].len + 7) / 8;
	}
}

/*
 * hist_key_num - the number @num of key field @i as shown, into @buf: the kernel's name for it
 * (a system call, the event's __print_symbolic or __print_flags; not with --raw), a
 * pointer in hex, else a decimal, unsigned when the format says so. True when the text
 * is a name or a pointer (a string in JSON).
 */
bool hist_key_num(const struct hist *h, int i, long long num, char *buf, int len)
{
	const struct ft_tp_field *f = h->slot[h->key_slot[i]].fmt;

	if (f && !h->raw && f->names && ft_tp_name(f, num, buf, len) > 0)
		return true;
	if (f && f->is_ptr) {
		snprintf(buf, len, "0x%llx", (unsigned long long)num);
		return true;
	}
	snprintf(buf, len, f && !f->is_signed ? "%llu" : "%lld", num);
	return false;
}

/* print_table - one row per key: the key's fields, then its count */
static void print_table(const struct hist *h, FILE *f, const uint32_t *order, uint32_t n)
{
	struct kpart p[HIST_KEYS];
	char num[128], head[64];
	int w[HIST_KEYS], i, c;
	bool left[HIST_KEYS];	/* names and pointers: left-aligned, as strings */
	uint32_t r;

	for (i = 0; i < h->nkeys; i++) {
		w[i] = (int)strlen(h->keys[i]);
		left[i] = h->slot[h->key_slot[i]].is_str;
	}
	for (r = 0; r < n; r++) {
		hist_key_parts(h, order[r], p);
		for (i = 0; i < h->nkeys; i++) {
			if (!p[i].is_str && hist_key_num(h, i, p[i].num, num, sizeof(num)))
				left[i] = true;
			c = p[i].is_str ? p[i].len : (int)strlen(num);
			w[i] = c > w[i] ? c : w[i];
		}
	}
	for (i = 0; i < h->nkeys; i++) {
		snprintf(head, sizeof(head), "%s", h->keys[i]);
		for (c = 0; head[c]; c++)
			head[c] = (char)toupper((unsigned char)head[c]);
		fprintf(f, left[i] ? "%-*s " : "%*s ", w[i], head);
	}
	fprintf(f, "%10s\n", "COUNT");
	for (r = 0; r < n; r++) {
		hist_key_parts(h, order[r], p);
		for (i = 0; i < h->nkeys; i++)
			if (p[i].is_str)
				fprintf(f, "%-*.*s ", w[i], p[i].len, p[i].s);
			else {
				hist_key_num(h, i, p[i].num, num, sizeof(num));
				fprintf(f, left[i] ? "%-*s " : "%*s ", w[i], num);
			}
		fprintf(f, "%10llu\n", (unsigned long long)h->ent[order[r]].count);
	}
}

/* print_avg - @sum / @n, with two decimals unless whole */
static void print_avg(FILE *f, int64_t sum, uint64_t n)
{
	if (sum % (int64_t)n == 0)
		fprintf(f, "%lld", (long long)(sum / (int64_t)n));
	else
		fprintf(f, "%.2f", (double)sum / (double)n);
}

/* hist_print_value - the log2 histogram of --value in @e, and its summary line */
void hist_print_value(const struct hist *h, FILE *f, const struct hent *e)
{
	static const struct { double p; const char *name; } pct[] = {
		{ 0.50, "p50" }, { 0.90, "p90" }, { 0.99, "p99" },
	};
	uint32_t k;

	ft_hist_print_log2(f, &e->h, h->value);
	fprintf(f, "count %llu, sum %lld, avg ", (unsigned long long)e->count, (long long)e->sum);
	print_avg(f, e->sum, e->count);
	fprintf(f, ", min %lld", (long long)e->min);
	for (k = 0; k < 3 && !e->neg; k++)
		fprintf(f, ", %s %llu", pct[k].name,
			(unsigned long long)ft_hist_percentile(&e->h, pct[k].p));
	fprintf(f, ", max %lld", (long long)e->max);
	if (e->neg)
		fprintf(f, "; %llu negative values are not in the histogram",
			(unsigned long long)e->neg);
	fputc('\n', f);
}

/* print_values - per key: "f = v, ...", the log2 histogram of --value, its summary */
static void print_values(const struct hist *h, FILE *f, const uint32_t *order, uint32_t n)
{
	struct kpart p[HIST_KEYS];
	char num[128];
	uint32_t r;
	int i;

	for (r = 0; r < n; r++) {
		hist_key_parts(h, order[r], p);
		fputs(r ? "\n" : "", f);
		for (i = 0; i < h->nkeys; i++)
			if (p[i].is_str)
				fprintf(f, "%s%s = %.*s", i ? ", " : "", h->keys[i], p[i].len, p[i].s);
			else {
				hist_key_num(h, i, p[i].num, num, sizeof(num));
				fprintf(f, "%s%s = %s", i ? ", " : "", h->keys[i], num);
			}
		fputc('\n', f);
		hist_print_value(h, f, &h->ent[order[r]]);
	}
}

/* hist_json_value - the --value histogram of @e */
void hist_json_value(const struct hent *e, struct ft_json *j)
{
	int i, top = 0;

	for (i = 1; i < FT_LOG2_SLOTS; i++)
		if (e->h.log2[i])
			top = i;
	ft_json_obj_begin(j, "value");
	ft_json_u64(j, "count", e->count);
	ft_json_i64(j, "sum", e->sum);
	ft_json_i64(j, "min", e->min);
	ft_json_i64(j, "max", e->max);
	ft_json_double(j, "avg", (double)e->sum / (double)e->count);
	ft_json_u64(j, "negative", e->neg);
	ft_json_u64(j, "p50", ft_hist_percentile(&e->h, 0.50));
	ft_json_u64(j, "p90", ft_hist_percentile(&e->h, 0.90));
	ft_json_u64(j, "p99", ft_hist_percentile(&e->h, 0.99));
	ft_json_arr_begin(j, "buckets");
	for (i = 1; i <= top; i++) {
		uint64_t low = (1ULL << i) >> 1, high = i == 64 ? ~0ULL : (1ULL << i) - 1;

		ft_json_obj_begin(j, NULL);
		ft_json_u64(j, "low", low == high ? low - 1 : low);
		ft_json_u64(j, "high", high);
		ft_json_u64(j, "count", e->h.log2[i]);
		ft_json_obj_end(j);
	}
	ft_json_arr_end(j);
	ft_json_obj_end(j);
}

/* hist_json_head - the JSON report's fields before its rows: the question and the totals */
void hist_json_head(const struct hist *h, struct ft_json *j)
{
	int i;

	ft_json_str(j, "event", h->event);
	ft_json_arr_begin(j, "keys");
	for (i = 0; i < h->nkeys; i++)
		ft_json_str(j, NULL, h->keys[i]);
	ft_json_arr_end(j);
	if (h->value)
		ft_json_str(j, "value", h->value);
	if (h->filter_text)
		ft_json_str(j, "filter", h->filter_text);
	ft_json_u64(j, "records", h->hits);
	ft_json_u64(j, "filtered_out", h->filtered);
	ft_json_u64(j, "dropped", h->dropped);
	ft_json_u64(j, "not_counted_oom", h->oom);
	ft_json_u64(j, "own_records_left_out", h->own);
	ft_json_u64(j, "entries", h->in.n);
	ft_json_u64(j, "max_keys", (uint64_t)h->max_keys);
}

/*
 * hist_json_key - key field @i, @p, into the open object: a string, a name or pointer
 * as a string, a number as one (unsigned when the format says so)
 */
void hist_json_key(const struct hist *h, struct ft_json *j, int i, const struct kpart *p)
{
	char num[128];

	if (p->is_str)
		ft_json_strn(j, h->keys[i], p->s, p->len);
	else if (hist_key_num(h, i, p->num, num, sizeof(num)))
		ft_json_str(j, h->keys[i], num);
	else if (h->slot[h->key_slot[i]].fmt && !h->slot[h->key_slot[i]].fmt->is_signed)
		ft_json_u64(j, h->keys[i], (uint64_t)p->num);
	else
		ft_json_i64(j, h->keys[i], p->num);
}

/* json_rows - the report as JSON: totals, then one object per key */
static void json_rows(const struct hist *h, struct ft_json *j, const uint32_t *order, uint32_t n)
{
	struct kpart p[HIST_KEYS];
	uint32_t r;
	int i;

	hist_json_head(h, j);
	ft_json_arr_begin(j, "rows");
	for (r = 0; r < n; r++) {
		hist_key_parts(h, order[r], p);
		ft_json_obj_begin(j, NULL);
		ft_json_obj_begin(j, "key");
		for (i = 0; i < h->nkeys; i++)
			hist_json_key(h, j, i, &p[i]);
		ft_json_obj_end(j);
		ft_json_u64(j, "count", h->ent[order[r]].count);
		if (h->value)
			hist_json_value(&h->ent[order[r]], j);
		ft_json_obj_end(j);
	}
	ft_json_arr_end(j);
}

/* hist_print_totals - what was counted (under @keys rows, @shown printed), filtered out, dropped */
void hist_print_totals(const struct hist *h, FILE *f, uint32_t shown, uint32_t keys)
{
	int i;

	fprintf(f, "hist: %llu records of %s under %u key%s", (unsigned long long)h->hits,
		h->event, keys, keys == 1 ? "" : "s");
	if (shown < keys)
		fprintf(f, " (the top %u shown)", shown);
	if (h->filter_text)
		fprintf(f, "; %llu filtered out", (unsigned long long)h->filtered);
	if (h->dropped)
		fprintf(f, "; %llu dropped: their keys were new beyond --max-keys %ld",
			(unsigned long long)h->dropped, h->max_keys);
	if (h->oom)
		fprintf(f, "; %llu not counted: out of memory", (unsigned long long)h->oom);
	if (h->own)
		fprintf(f, "; ftscope's own %llu left out", (unsigned long long)h->own);
	fputc('\n', f);
	for (i = 0; i < h->nkeys; i++)
		if (h->slot[h->key_slot[i]].fmt && h->slot[h->key_slot[i]].fmt->user_ptr)
			fprintf(f, "hist: %s (%s) is an address in the calling process: %s carries "
				"the pointer, not what it points to\n", h->keys[i],
				h->slot[h->key_slot[i]].fmt->type, h->event);
	if (h->comm && h->offline && h->ren.id < 0)
		fprintf(f, "hist: the trace has no task:task_rename records: a task that exec'd or "
			"renamed itself counts under its old comm until its next switch (record "
			"with -e task:task_rename)\n");
}

/* hist_reset - forget every key (interval reports start again) */
void hist_reset(struct hist *h)
{
	uint32_t i;

	for (i = 0; i < h->ncap; i++)
		ft_hist_fini(&h->ent[i].h);
	free(h->ent);
	h->ent = NULL;
	h->ncap = 0;
	ft_intern_fini(&h->in);
	h->hits = h->filtered = h->dropped = h->oom = h->own = 0;
}

/* hist_report - the keys by count, as a table or with their histograms */
void hist_report(struct hist *h, struct ft_report *rep)
{
	uint32_t n = h->in.n, i, *order;

	order = malloc((n ? n : 1) * sizeof(*order));
	if (!order) {
		ft_err("out of memory");
		return;
	}
	for (i = 0; i < n; i++)
		order[i] = i;
	qsort_r(order, n, sizeof(*order), hist_by_count, h->ent);
	if (h->top && n > (uint32_t)h->top)
		n = (uint32_t)h->top;
	if (rep->json)
		json_rows(h, rep->json, order, n);
	else if (h->value)
		print_values(h, rep->f, order, n);
	else
		print_table(h, rep->f, order, n);
	if (!rep->json)
		hist_print_totals(h, rep->f, n, h->in.n);
	free(order);
}
