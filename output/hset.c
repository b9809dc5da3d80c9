// SPDX-License-Identifier: GPL-2.0
/*
 * Labelled histogram sets (output/hset.h), also by process, thread or CPU.
 */
#include <stdlib.h>
#include <string.h>

#include "events/tasks.h"
#include "output/hset.h"
#include "output/json.h"
#include "output/metrics.h"

static const char *const by_name[] = { "none", "pid", "tid", "cpu" };

/* ft_hset_new - a member labelled @key and @name (@len bytes, -1: all); NULL on ENOMEM */
struct ft_hentry *ft_hset_new(struct ft_hset *s, int key, const char *name, int len)
{
	struct ft_hentry *e;

	if (s->n == s->cap) {
		e = realloc(s->e, (s->cap ? s->cap * 2 : 16) * sizeof(*e));
		if (!e)
			goto oom;
		s->e = e;
		s->cap = s->cap ? s->cap * 2 : 16;
	}
	e = &s->e[s->n];
	memset(e, 0, sizeof(*e));
	e->key = key;
	if (name && !(e->name = len < 0 ? strdup(name) : strndup(name, len)))
		goto oom;
	if (s->index.size) {
		struct ft_hpos *p = ft_tab_add(&s->index, key);

		if (!p) {
			free(e->name);
			goto oom;
		}
		p->pos = s->n;
	}
	s->n++;
	return e;
oom:
	s->oom++;
	return NULL;
}

/* ft_hset_key - the member labelled @key, NULL when there is none */
struct ft_hentry *ft_hset_key(struct ft_hset *s, int key)
{
	const struct ft_hpos *p;
	unsigned int i;

	if (s->index.size) {
		p = ft_tab_find(&s->index, key);
		return p ? &s->e[p->pos] : NULL;
	}
	for (i = 0; i < s->n; i++)
		if (s->e[i].key == key)
			return &s->e[i];
	return NULL;
}

/* ft_hset_name - the member named @name (@len bytes), NULL when there is none */
struct ft_hentry *ft_hset_name(struct ft_hset *s, const char *name, int len)
{
	unsigned int i;

	for (i = 0; i < s->n; i++)
		if (!strncmp(s->e[i].name, name, len) && !s->e[i].name[len])
			return &s->e[i];
	return NULL;
}

/* ft_hset_sort - reorder the members themselves (the exports' order follows) */
void ft_hset_sort(struct ft_hset *s, int (*cmp)(const void *, const void *))
{
	unsigned int i;

	if (s->n > 1)
		qsort(s->e, s->n, sizeof(*s->e), cmp);
	for (i = 0; s->index.size && i < s->n; i++)
		((struct ft_hpos *)ft_tab_find(&s->index, s->e[i].key))->pos = i;
}

/* ft_hset_view - the members @keep takes (NULL: all), sorted by @cmp (NULL: as kept) */
int ft_hset_view(struct ft_hset *s, struct ft_hview *v, ft_hset_keep_fn *keep,
		 int (*cmp)(const void *, const void *, void *))
{
	unsigned int i;

	v->n = 0;
	v->e = malloc((s->n ? s->n : 1) * sizeof(*v->e));
	if (!v->e)
		return -1;
	for (i = 0; i < s->n; i++)
		if (!keep || keep(s, &s->e[i]))
			v->e[v->n++] = &s->e[i];
	if (cmp)
		qsort_r(v->e, v->n, sizeof(*v->e), cmp, s);
	return 0;
}

/* ft_hset_row - what a totals row shows: entries with FT_HS_COUNT, else the time */
unsigned long long ft_hset_row(const struct ft_hset *s, const struct ft_hentry *e)
{
	return s->style & FT_HS_COUNT ? e->n[0] : e->hist.sum_ns / s->unit->div;
}

/* ft_hset_timed - keep the members with a value */
bool ft_hset_timed(const struct ft_hset *s, const struct ft_hentry *e)
{
	return e->hist.count > 0;
}

/* ft_hset_shown - keep the members a totals row lists: entered (FT_HS_COUNT), or timed */
bool ft_hset_shown(const struct ft_hset *s, const struct ft_hentry *e)
{
	return s->style & FT_HS_COUNT ? e->n[0] > 0 : e->hist.count > 0;
}

/* ft_hset_print_hist - BCC's rows of @h, funclatency's avg line (FT_HS_AVG), our summary */
void ft_hset_print_hist(const struct ft_hset *s, FILE *f, const struct ft_hist *h)
{
	const struct ft_unit *u = s->unit;

	ft_hist_print_log2(f, h, u->label);
	if ((s->style & FT_HS_AVG) && h->count)
		fprintf(f, "\navg = %llu %s, total: %llu %s, count: %llu\n",
			(unsigned long long)(h->sum_ns / h->count / u->div), u->label,
			(unsigned long long)(h->sum_ns / u->div), u->label,
			(unsigned long long)h->count);
	ft_hist_print_summary(f, h, u);
}

/* member - the @i-th member of view @v, or of the set itself when @v is NULL */
static struct ft_hentry *member(const struct ft_hset *s, const struct ft_hview *v,
				unsigned int i)
{
	return v ? v->e[i] : &s->e[i];
}

/* heading - "LABEL = NAME", or by task "pid = PID COMM", or by CPU "cpu = N" */
static void heading(const struct ft_hset *s, FILE *f, const char *sep, const struct ft_hentry *e)
{
	if (s->by == FT_BY_CPU)
		fprintf(f, "%scpu = %d\n", sep, e->key);
	else if (s->by != FT_BY_NONE)
		fprintf(f, "%s%s = %d %s\n", sep, by_name[s->by], e->key,
			ft_tasks_comm(s->tasks, e->key));
	else
		fprintf(f, "%s%s = %s\n", sep, s->label, e->name);
}

/* ft_hset_print - each member of @v (NULL: all) under its heading */
void ft_hset_print(const struct ft_hset *s, FILE *f, const struct ft_hview *v)
{
	unsigned int i, n = v ? v->n : s->n;

	for (i = 0; i < n; i++) {
		heading(s, f, i || !(s->style & FT_HS_TIGHT) ? "\n" : "", member(s, v, i));
		ft_hset_print_hist(s, f, &member(s, v, i)->hist);
	}
}

/*
 * ft_hset_print_totals - BCC's table of hardirqs and softirqs: a row per member of @v,
 * its name in a column of @width headed @head, then ft_hset_row
 */
void ft_hset_print_totals(const struct ft_hset *s, FILE *f, const struct ft_hview *v,
			  const char *head, int width)
{
	char total[32];
	unsigned int i;

	snprintf(total, sizeof(total), "TOTAL_%s",
		 s->style & FT_HS_COUNT ? "count" : s->unit->label);
	fprintf(f, "%-*s %11s\n", width, head, total);
	for (i = 0; i < v->n; i++)
		fprintf(f, "%-*s %11llu\n", width, v->e[i]->name, ft_hset_row(s, v->e[i]));
}

/*
 * ft_hset_json - array @key: an object per member of @v (NULL: all), its labels (by
 * task or CPU: its pid, tid or cpu, and comm), fields, histogram
 */
void ft_hset_json(const struct ft_hset *s, struct ft_json *j, const char *key,
		  const struct ft_hview *v)
{
	unsigned int i, n = v ? v->n : s->n;

	ft_json_arr_begin(j, key);
	for (i = 0; i < n; i++) {
		const struct ft_hentry *e = member(s, v, i);

		ft_json_obj_begin(j, NULL);
		if (s->by != FT_BY_NONE)
			ft_json_i64(j, by_name[s->by], e->key);
		if (s->by == FT_BY_PID || s->by == FT_BY_TID)
			ft_json_str(j, "comm", ft_tasks_comm(s->tasks, e->key));
		else if (s->by == FT_BY_NONE)
			ft_json_str(j, s->name_key, e->name);
		if (s->key_key)
			ft_json_i64(j, s->key_key, e->key);
		if (s->counts) {
			ft_json_u64(j, "count", e->n[0]);
			ft_json_u64(j, "total_ns", e->hist.sum_ns);
		}
		if (s->json_more)
			s->json_more(j, e);
		ft_hist_json(j, "hist", &e->hist, s->unit);
		ft_json_obj_end(j);
	}
	ft_json_arr_end(j);
}

/*
 * ft_hset_metrics - series @name, one per member @keep takes (NULL: all), in the set's
 * order, labelled @extra and label="NAME"; by task comm="COMM" and pid or tid, by CPU
 * cpu. A member by task is named at its first export and keeps that comm while it
 * lives (the whole run, or one interval): an exec must not move its counts to another
 * series; the next interval's member of that pid takes the name it has then
 */
void ft_hset_metrics(struct ft_hset *s, struct ft_metrics *m, const char *name,
		     const char *label, ft_hset_keep_fn *keep, const struct ft_label *extra,
		     int nextra)
{
	struct ft_label l[FT_METRIC_MAX_LABELS] = { { 0 } };
	int n = nextra < FT_METRIC_MAX_LABELS - 2 ? nextra : FT_METRIC_MAX_LABELS - 2, k;
	struct ft_hentry *e;
	char key[16];
	unsigned int i;

	if (n > 0)
		memcpy(l, extra, n * sizeof(*l));
	for (i = 0; i < s->n; i++) {
		e = &s->e[i];
		k = n;
		if (keep && !keep(s, e))
			continue;
		if ((s->by == FT_BY_PID || s->by == FT_BY_TID) && !e->name)
			e->name = strndup(ft_tasks_comm(s->tasks, e->key), FT_TASK_COMM_LEN);
		if (s->by != FT_BY_CPU)
			l[k++] = (struct ft_label){ s->by ? "comm" : label,
						    e->name ? e->name : "?" };
		snprintf(key, sizeof(key), "%d", e->key);
		if (s->by != FT_BY_NONE)
			l[k++] = (struct ft_label){ by_name[s->by], key };
		ft_metrics_hist(m, name, l, k, &e->hist, s->unit);
	}
}

/*
 * ft_hset_reset - the next interval starts empty: the members go with their values
 * (@drop, as BCC clears a map), or stay emptied
 */
void ft_hset_reset(struct ft_hset *s, bool drop)
{
	unsigned int i;

	ft_hist_reset(&s->total);
	for (i = 0; i < s->n; i++) {
		if (drop) {
			ft_hist_fini(&s->e[i].hist);
			free(s->e[i].name);
			continue;
		}
		ft_hist_reset(&s->e[i].hist);
		memset(s->e[i].n, 0, sizeof(s->e[i].n));
	}
	if (drop && s->index.size)
		ft_tab_clear(&s->index);
	if (drop)
		s->n = 0;
	s->oom = 0;
}

/* ft_hset_fini - free the members and the total */
void ft_hset_fini(struct ft_hset *s)
{
	ft_hset_reset(s, true);
	ft_hist_fini(&s->total);
	if (s->index.size)
		ft_tab_fini(&s->index);
	free(s->e);
	s->e = NULL;
	s->cap = 0;
}

/* ft_hgroups_init - by task or CPU: empty histograms (unit microseconds unless set before) */
int ft_hgroups_init(struct ft_hset *g, struct ft_tasks *tasks)
{
	g->tasks = tasks;
	if (!g->unit)
		g->unit = &ft_unit_us;
	return ft_tab_init(&g->index, sizeof(struct ft_hpos));
}

/* ft_hgroups_add_group - the value also goes to the histogram of its process, thread or CPU */
void ft_hgroups_add_group(struct ft_hset *g, int tid, int cpu, uint64_t ns)
{
	struct ft_hentry *h;
	int key;

	if (g->by == FT_BY_CPU)
		key = cpu;
	else
		key = g->by == FT_BY_PID ? ft_tasks_tgid(g->tasks, tid) : tid;
	h = ft_hset_key(g, key);
	if (h || (h = ft_hset_new(g, key, NULL, 0)))
		ft_hist_add(&h->hist, g->unit, ns);
}

/* cmp_key - order members by key */
static int cmp_key(const void *a, const void *b)
{
	const struct ft_hentry *x = a, *y = b;

	return (x->key > y->key) - (x->key < y->key);
}

/* ft_hgroups_print - the total histogram, or one per group, each with its summary line */
void ft_hgroups_print(struct ft_hset *g, FILE *f)
{
	ft_hset_sort(g, cmp_key);
	if (g->by == FT_BY_NONE)
		ft_hset_print_hist(g, f, &g->total);
	ft_hset_print(g, f, NULL);
	if (g->oom)
		fprintf(f, "out of memory: %llu values are only in the total\n", g->oom);
}

/* ft_hgroups_json - the same data as JSON: group_by, total, groups[] */
void ft_hgroups_json(struct ft_hset *g, struct ft_json *j)
{
	ft_hset_sort(g, cmp_key);
	ft_json_str(j, "group_by", by_name[g->by]);
	ft_hist_json(j, "total", &g->total, g->unit);
	ft_hset_json(g, j, "groups", NULL);
}

/*
 * ft_hgroups_reset - empty every histogram (interval reports). A process's or thread's
 * group goes with its values, as BCC's map is cleared: the next interval lists those
 * with values in it, and memory stays that of one interval's groups however many
 * pids come and go (an exporter's series keep their counts in its base). A CPU's
 * group stays, emptied.
 */
void ft_hgroups_reset(struct ft_hset *g)
{
	ft_hset_reset(g, g->by != FT_BY_CPU);
}

/*
 * ft_hgroups_metrics - the histograms as series of metric @name labelled @extra: one
 * unlabelled series, or one per group, whose sum is the total but for values the
 * groups had no memory for
 */
void ft_hgroups_metrics(struct ft_hset *g, struct ft_metrics *m, const char *name,
			const struct ft_label *extra, int nextra)
{
	if (g->by == FT_BY_NONE)
		ft_metrics_hist(m, name, extra, nextra, &g->total, g->unit);
	else
		ft_hset_metrics(g, m, name, NULL, NULL, extra, nextra);
}
