// SPDX-License-Identifier: GPL-2.0
/*
 * Histograms grouped by process, thread or CPU (output/hgroups.h).
 */
#include <stdio.h>
#include <string.h>

#include "events/tasks.h"
#include "output/hgroups.h"
#include "output/json.h"
#include "output/metrics.h"

/* ft_hgroups_init - empty histograms (unit microseconds unless set before) */
int ft_hgroups_init(struct ft_hset *g, struct ft_tasks *tasks)
{
	g->tasks = tasks;
	if (!g->unit)
		g->unit = &ft_unit_us;
	return ft_tab_init(&g->index, sizeof(struct ft_hpos));
}

/* ft_hgroups_add_group - the value also goes to the histogram of its group */
void ft_hgroups_add_group(struct ft_hset *g, int tid, int cpu, const char *comm, uint64_t ns)
{
	struct ft_hentry *h;
	int key;

	if (g->by == FT_BY_CPU) {
		key = cpu;
	} else {
		ft_tasks_note(g->tasks, tid, comm);
		key = g->by == FT_BY_PID ? ft_tasks_tgid(g->tasks, tid) : tid;
	}
	h = ft_hset_key(g, key);
	if (h || (h = ft_hset_new(g, key, NULL, 0)))
		ft_hist_add(&h->hist, g->unit, ns);
}

/* cmp_key - order groups by key */
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
	ft_json_str(j, "group_by", ft_group_by_name[g->by]);
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
 * ft_hgroups_metrics - the histograms as series of metric @name, each labelled with
 * @extra and its group: one unlabelled series, or one per group (comm and pid or tid,
 * or cpu), whose sum is the total but for values the groups had no memory for. A
 * group's comm is the one it had when first exported, for as long as the group lives:
 * the whole run, or one interval (the next interval's group of that pid takes the name
 * it has then; the old series keeps its counts in the exposition's base)
 */
void ft_hgroups_metrics(struct ft_hset *g, struct ft_metrics *m, const char *name,
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
	for (i = 0; i < g->n; i++) {
		struct ft_hentry *h = &g->e[i];
		int k = n;

		snprintf(key, sizeof(key), "%d", h->key);
		/* the first name exported stays: an exec must not move the counts */
		if (g->by != FT_BY_CPU && !h->name)
			h->name = strndup(ft_tasks_comm(g->tasks, h->key), 16);
		if (g->by != FT_BY_CPU)
			l[k++] = (struct ft_label){ "comm", h->name ? h->name : "?" };
		l[k++] = (struct ft_label){ ft_group_by_name[g->by], key };
		ft_metrics_hist(m, name, l, k, &h->hist, g->unit);
	}
}
