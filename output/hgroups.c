// SPDX-License-Identifier: GPL-2.0
/*
 * Grouped latency histograms.
 */
#include <stdio.h>
#include <string.h>

#include "events/tasks.h"
#include "output/hgroups.h"
#include "output/json.h"
#include "output/metrics.h"

static const char *const by_name[] = { "none", "pid", "tid", "cpu" };

/* ft_hgroups_init - empty histograms (unit microseconds unless set before) */
int ft_hgroups_init(struct ft_hgroups *g, struct ft_tasks *tasks)
{
	g->tasks = tasks;
	if (!g->unit)
		g->unit = &ft_unit_us;
	return ft_tab_init(&g->groups, sizeof(struct ft_hgroup));
}

/* ft_hgroups_fini - free the histograms and the groups */
void ft_hgroups_fini(struct ft_hgroups *g)
{
	unsigned int i;

	ft_hist_fini(&g->total);
	for (i = 0; i < g->groups.n; i++)
		ft_hist_fini(&((struct ft_hgroup *)ft_tab_at(&g->groups, i))->hist);
	ft_tab_fini(&g->groups);
}

/* ft_hgroups_add_group - the value also goes to the histogram of its group */
void ft_hgroups_add_group(struct ft_hgroups *g, int tid, int cpu, const char *comm,
			  uint64_t ns)
{
	struct ft_hgroup *h;
	int key;

	if (g->by == FT_BY_CPU) {
		key = cpu;
	} else {
		ft_tasks_note(g->tasks, tid, comm);
		key = g->by == FT_BY_PID ? ft_tasks_tgid(g->tasks, tid) : tid;
	}
	h = ft_tab_get(&g->groups, key);
	if (h)
		ft_hist_add(&h->hist, g->unit, ns);
	else
		g->oom++;
}

/* cmp_key - order groups by key */
static int cmp_key(const void *a, const void *b)
{
	const struct ft_hgroup *x = a, *y = b;

	return (x->key > y->key) - (x->key < y->key);
}

/* ft_hgroups_print - the total histogram, or one per group, each with its summary line */
void ft_hgroups_print(struct ft_hgroups *g, FILE *f)
{
	unsigned int i;

	ft_tab_sort(&g->groups, cmp_key);
	if (g->by == FT_BY_NONE) {
		ft_hist_print_log2(f, &g->total, g->unit->label);
		ft_hist_print_summary(f, &g->total, g->unit);
	}
	for (i = 0; i < g->groups.n; i++) {
		struct ft_hgroup *h = ft_tab_at(&g->groups, i);

		if (g->by == FT_BY_CPU)
			fprintf(f, "\ncpu = %d\n", h->key);
		else
			fprintf(f, "\n%s = %d %s\n", by_name[g->by], h->key,
				ft_tasks_comm(g->tasks, h->key));
		ft_hist_print_log2(f, &h->hist, g->unit->label);
		ft_hist_print_summary(f, &h->hist, g->unit);
	}
	if (g->oom)
		fprintf(f, "out of memory: %llu values are only in the total\n", g->oom);
}

/* ft_hgroups_json - the same data as JSON: group_by, total, groups[] */
void ft_hgroups_json(struct ft_hgroups *g, struct ft_json *j)
{
	unsigned int i;

	ft_tab_sort(&g->groups, cmp_key);
	ft_json_str(j, "group_by", by_name[g->by]);
	ft_hist_json(j, "total", &g->total, g->unit);
	ft_json_arr_begin(j, "groups");
	for (i = 0; i < g->groups.n; i++) {
		struct ft_hgroup *h = ft_tab_at(&g->groups, i);

		ft_json_obj_begin(j, NULL);
		ft_json_i64(j, by_name[g->by], h->key);
		if (g->by != FT_BY_CPU)
			ft_json_str(j, "comm", ft_tasks_comm(g->tasks, h->key));
		ft_hist_json(j, "hist", &h->hist, g->unit);
		ft_json_obj_end(j);
	}
	ft_json_arr_end(j);
}

/*
 * ft_hgroups_reset - empty every histogram (interval reports). A process's or thread's
 * group goes with its values, as BCC's map is cleared: the next interval lists those
 * with values in it, and memory stays that of one interval's groups however many
 * pids come and go (an exporter's series keep their counts in its base). A CPU's
 * group stays, emptied.
 */
void ft_hgroups_reset(struct ft_hgroups *g)
{
	unsigned int i;

	ft_hist_reset(&g->total);
	for (i = 0; i < g->groups.n; i++) {
		struct ft_hist *h = &((struct ft_hgroup *)ft_tab_at(&g->groups, i))->hist;

		if (g->by == FT_BY_CPU)
			ft_hist_reset(h);
		else
			ft_hist_fini(h);
	}
	if (g->by != FT_BY_CPU)
		ft_tab_clear(&g->groups);
	g->oom = 0;
}

/*
 * ft_hgroups_metrics - the histograms as series of metric @name, each labelled with
 * @extra and its group: one unlabelled series, or one per group (comm and pid or tid,
 * or cpu), whose sum is the total but for values the groups had no memory for. A
 * group's comm is the one it had when first exported, for as long as the group lives:
 * the whole run, or one interval (the next interval's group of that pid takes the name
 * it has then; the old series keeps its counts in the exposition's base)
 */
void ft_hgroups_metrics(struct ft_hgroups *g, struct ft_metrics *m, const char *name,
			const struct ft_label *extra, int nextra)
{
	struct ft_label l[FT_METRIC_MAX_LABELS] = { { 0 } };
	char key[16];
	unsigned int i;
	int n = nextra < FT_METRIC_MAX_LABELS - 2 ? nextra : FT_METRIC_MAX_LABELS - 2;

	if (n > 0)
		memcpy(l, extra, n * sizeof(*l));
	if (g->by == FT_BY_NONE) {
		ft_metrics_hist(m, name, l, n, &g->total, g->unit);
		return;
	}
	for (i = 0; i < g->groups.n; i++) {
		struct ft_hgroup *h = ft_tab_at(&g->groups, i);
		int k = n;

		snprintf(key, sizeof(key), "%d", h->key);
		/* the first name exported stays: an exec must not move the counts */
		if (g->by != FT_BY_CPU && !h->comm[0])
			snprintf(h->comm, sizeof(h->comm), "%s", ft_tasks_comm(g->tasks, h->key));
		if (g->by != FT_BY_CPU)
			l[k++] = (struct ft_label){ "comm", h->comm };
		l[k++] = (struct ft_label){ by_name[g->by], key };
		ft_metrics_hist(m, name, l, k, &h->hist, g->unit);
	}
}
