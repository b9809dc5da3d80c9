/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A run's exports of its analyzer's histograms (--prometheus, --prometheus-file,
 * --heatmap): when each export asks the analyzer for its series (analyzer.h's
 * metrics()), and where their output goes.
 */
#ifndef FTSCOPE_CMD_EXPORT_H
#define FTSCOPE_CMD_EXPORT_H

#include <poll.h>
#include <stdbool.h>
#include <stdint.h>

/* the most fds the live loop's wait watches for the exports (lib/httpd.h's) */
#define FT_EXPORT_MAX_FDS	9

struct ft_heatmap;
struct ft_httpd;
struct ft_opts;
struct ft_prom;
struct ft_stage;

struct ft_export {
	struct ft_stage		*st;		/* the analyzer (NULL: no exports) */
	const struct ft_opts	*o;
	struct ft_prom		*prom;		/* --prometheus or --prometheus-file */
	struct ft_httpd		*httpd;		/* --prometheus */
	struct ft_heatmap	*heat;		/* --heatmap */
	uint64_t		next_ns;	/* the heat map's next column (UINT64_MAX: none) */
	uint64_t		last_ns;	/* the latest record delivered: the map's end */
	const unsigned long long *lost_cpu;	/* the run's losses per CPU, as they come */
	int			ncpus;
	unsigned long long	events;		/* records merged, as of the last serve */
};

int ft_export_open(struct ft_export *ex, const struct ft_opts *o, struct ft_stage *st);
void ft_export_start(struct ft_export *ex, const unsigned long long *lost_cpu, int ncpus);
void ft_export_tick(struct ft_export *ex, uint64_t ts);

/*
 * ft_export_at - a record of trace time @ts goes to the analyzer next: a heat map
 * column may end first
 */
static inline void ft_export_at(struct ft_export *ex, uint64_t ts)
{
	if (__builtin_expect(ts >= ex->next_ns, 0))
		ft_export_tick(ex, ts);
	if (ts > ex->last_ns)
		ex->last_ns = ts;
}

void ft_export_fold(struct ft_export *ex);
int ft_export_pollfds(struct ft_export *ex, struct pollfd *pfd, int max);
void ft_export_serve(struct ft_export *ex, const struct pollfd *pfd, int n,
		     unsigned long long events);
int ft_export_interval(struct ft_export *ex, unsigned long long events);
int ft_export_finish(struct ft_export *ex, unsigned long long events);
void ft_export_close(struct ft_export *ex);

#endif
