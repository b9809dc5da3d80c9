// SPDX-License-Identifier: GPL-2.0
/*
 * The exports of one analyzer's histograms. Each asks the analyzer for its series
 * when it needs them: a Prometheus scrape (served between rounds of the live loop, so
 * the analyzer is never read while it counts) or the interval's file; a heat map as
 * the records' time crosses a column's end. Before an interval report, after which the
 * analyzer's reset forgets its histograms, each export keeps what they held, so both
 * stay cumulative.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "analyzers/analyzer.h"
#include "engine/export.h"
#include "engine/footer.h"
#include "engine/opts.h"
#include "engine/stages.h"
#include "lib/file.h"
#include "lib/httpd.h"
#include "lib/util.h"
#include "output/heatmap.h"
#include "output/prom.h"

_Static_assert(FT_EXPORT_MAX_FDS == FT_HTTPD_MAX_FDS, "the live loop's pollfds");

/* file_check - --prometheus-file: can it be written (as write_file will)? 0, or -1 after one line */
static int file_check(const char *path)
{
	struct ft_outfile out;

	if (ft_outfile_open(&out, path)) {
		ft_err("--prometheus-file %s: %s", path, strerror(errno));
		return -1;
	}
	ft_outfile_abandon(&out);	/* removes its own temporary file, never PATH */
	return 0;
}

/**
 * ft_export_open - the exports @o asks of analyzer @st (none: @ex stays off)
 * Returns 0, or -1 after one error line (a port in use, ...).
 */
int ft_export_open(struct ft_export *ex, const struct ft_opts *o, struct ft_stage *st)
{
	memset(ex, 0, sizeof(*ex));
	ex->next_ns = UINT64_MAX;
	if (!o->prom_addr && !o->prom_file && !o->heatmap)
		return 0;
	ex->st = st;
	ex->o = o;
	if ((o->prom_addr || o->prom_file) && !(ex->prom = ft_prom_new(o->max_series))) {
		ft_err("out of memory");
		return -1;
	}
	if (o->prom_file && file_check(o->prom_file))
		return -1;
	if (o->prom_addr && !(ex->httpd = ft_httpd_open(o->prom_addr)))
		return -1;
	if (o->heatmap) {
		struct ft_heatmap_opts ho = {
			.path = o->heatmap, .title = st->a->cli.name, .max_cols = o->heatmap_cols,
			.width_ns = (uint64_t)llround(o->heatmap_width * 1e9),
		};

		ex->heat = ft_heatmap_new(&ho);
		if (!ex->heat)
			return -1;
		ex->next_ns = 0;	/* the first record starts the map */
	}
	return 0;
}

/* ft_export_start - the run's losses per CPU as they come, for the Prometheus counters */
void ft_export_start(struct ft_export *ex, const unsigned long long *lost_cpu, int ncpus)
{
	ex->lost_cpu = lost_cpu;
	ex->ncpus = ncpus;
}

/* ft_export_tick - a heat map column ends before the record at @ts */
void ft_export_tick(struct ft_export *ex, uint64_t ts)
{
	ft_heatmap_begin(ex->heat);
	ex->st->a->metrics(ex->st->priv, ft_heatmap_metrics(ex->heat));
	ex->next_ns = ft_heatmap_take(ex->heat, ts);
}

/* ft_export_fold - before an interval report (and the reset after it): keep the histograms */
void ft_export_fold(struct ft_export *ex)
{
	if (ex->prom) {
		ft_prom_begin(ex->prom);
		ex->st->a->metrics(ex->st->priv, ft_prom_metrics(ex->prom));
		ft_prom_fold(ex->prom);
	}
	if (ex->heat) {
		ft_heatmap_begin(ex->heat);
		ex->st->a->metrics(ex->st->priv, ft_heatmap_metrics(ex->heat));
		ft_heatmap_fold(ex->heat);
	}
}

/*
 * prom_text - the exposition as of now, @events merged so far: malloc'ed in *@buf;
 * 0, or -1 (ENOMEM)
 */
static int prom_text(struct ft_export *ex, bool openmetrics, unsigned long long events,
		     char **buf, size_t *len)
{
	ft_prom_begin(ex->prom);
	ex->st->a->metrics(ex->st->priv, ft_prom_metrics(ex->prom));
	ft_prom_counters(ex->prom, events, ex->lost_cpu, ex->lost_cpu ? ex->ncpus : 0);
	return ft_prom_render(ex->prom, openmetrics, buf, len);
}

/* ft_export_pollfds - what the live loop's wait also watches: the server's fds */
int ft_export_pollfds(struct ft_export *ex, struct pollfd *pfd, int max)
{
	return ex->httpd ? ft_httpd_pollfds(ex->httpd, pfd, max) : 0;
}

/* accept_q - the weight Accept header @accept gives media type @type (0: none) */
static double accept_q(const char *accept, const char *type)
{
	size_t tl = strlen(type);
	const char *p = accept, *end, *q;
	double best = 0, v;

	while (p && *p) {
		while (*p == ' ' || *p == ',')
			p++;
		end = strchr(p, ',');
		if (!end)
			end = p + strlen(p);
		if (!strncasecmp(p, type, tl) && (p[tl] == ';' || p[tl] == ',' || p[tl] == ' ' ||
						  !p[tl])) {
			v = 1.0;	/* its parameters: "; q=0.5", ";version=..." */
			for (q = p; (q = memchr(q, ';', end - q)); ) {
				q++;
				q += strspn(q, " ");
				if ((*q == 'q' || *q == 'Q') && q[1] == '=')
					v = atof(q + 2);
			}
			if (v > best)
				best = v;
		}
		p = end;
	}
	return best;
}

/*
 * wants_openmetrics - the scraper's Accept weighs OpenMetrics above zero and at
 * least as high as the text format 0.0.4 (Prometheus 2.42 sends 1.0.0 first)
 */
static bool wants_openmetrics(const char *accept)
{
	double om = accept ? accept_q(accept, "application/openmetrics-text") : 0;

	return om > 0 && om >= accept_q(accept, "text/plain");
}

/* answer - one HTTP request: /metrics, in OpenMetrics when the scraper accepts it */
static void answer(void *ctx, const char *method, const char *path, const char *accept,
		   struct ft_http_answer *a)
{
	struct ft_export *ex = ctx;
	bool om = wants_openmetrics(accept);

	if (strcmp(path, "/metrics")) {
		ft_http_text(a, 404, "not found: ftscope serves /metrics\n");
		return;
	}
	if (strcmp(method, "GET") && strcmp(method, "HEAD")) {
		ft_http_text(a, 405, "only GET and HEAD\n");
		return;
	}
	a->status = prom_text(ex, om, ex->events, &a->body, &a->len) ? 500 : 200;
	a->type = om ? "application/openmetrics-text; version=1.0.0; charset=utf-8" :
		       "text/plain; version=0.0.4; charset=utf-8";
}

/* ft_export_serve - after the wait: the scrapes that came, answered as of now */
void ft_export_serve(struct ft_export *ex, const struct pollfd *pfd, int n,
		     unsigned long long events)
{
	ex->events = events;
	if (ex->httpd)
		ft_httpd_serve(ex->httpd, pfd, n, answer, ex);
}

/*
 * write_file - --prometheus-file: the text through a temporary file renamed over
 * PATH (lib/file.c: a fifo or /dev/stdout is written in place); 0 or -1
 */
static int write_file(struct ft_export *ex, unsigned long long events)
{
	struct ft_outfile out;
	char *buf = NULL;
	size_t len = 0;
	int ret = -1, e;

	if (prom_text(ex, false, events, &buf, &len)) {
		ft_err("out of memory");
		return -1;
	}
	if (!ft_outfile_open(&out, ex->o->prom_file)) {
		if (fwrite(buf, 1, len, out.f) == len) {
			ret = ft_outfile_commit(&out);
		} else {
			e = errno ? errno : EIO;
			ft_outfile_abandon(&out);
			errno = e;
		}
	}
	if (ret)
		ft_err("--prometheus-file %s: %s", ex->o->prom_file, strerror(errno));
	free(buf);
	return ret;
}

/* ft_export_interval - after an interval's report: the file; 0, or -1 after one line */
int ft_export_interval(struct ft_export *ex, unsigned long long events)
{
	return ex->prom && ex->o->prom_file ? write_file(ex, events) : 0;
}

/*
 * ft_export_finish - at the end (@events merged): the file and the heat map, which
 * ends at the latest record the analyzer got (with -C, not another CPU's); 0, or -1
 * after one line
 */
int ft_export_finish(struct ft_export *ex, unsigned long long events)
{
	int ret = ft_export_interval(ex, events);

	if (ex->heat) {
		if (ex->next_ns)	/* 0: no record came, the map has no columns */
			ft_export_tick(ex, ex->last_ns);
		if (ft_heatmap_write(ex->heat))
			ret = -1;
	}
	return ret;
}

/* ft_export_close - stop serving, free everything */
void ft_export_close(struct ft_export *ex)
{
	if (ex->httpd)
		ft_httpd_close(ex->httpd);
	if (ex->prom)
		ft_prom_free(ex->prom);
	if (ex->heat)
		ft_heatmap_free(ex->heat);
	memset(ex, 0, sizeof(*ex));
	ex->next_ns = UINT64_MAX;
}
