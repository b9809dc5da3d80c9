// SPDX-License-Identifier: GPL-2.0
/*
 * Prometheus exposition (output/prom.h).
 *
 * A metric ("runqlat": ftscope_runqlat_seconds) holds series keyed by their label set.
 * Each series keeps a base, what the analyzer's histograms held at each interval
 * reset, and the current emission; the exposition is their sum, so it is cumulative
 * since the start. The buckets are BCC's log2 rows, exactly: slot k of a histogram in
 * unit u holds the values with ns < 2^k * u->div (slot 1 also 0), so the cumulative
 * bucket of slots 1..k is le = (2^k * u->div - 1) ns, written in seconds. Every
 * metric shows the same buckets at every scrape: slots 1..PROM_TOP_SLOT, then +Inf.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/metrics.h"
#include "output/prom.h"

/* the top le: 2^36 units (19 hours in usecs, 69 s in nsecs); beyond it, +Inf alone */
#define PROM_TOP_SLOT	36

struct series {
	char		*labels;	/* rendered: name="value",... (escaped), or "" */
	uint64_t	base[PROM_TOP_SLOT + 1], cur[PROM_TOP_SLOT + 1];
	uint64_t	base_count, cur_count;	/* all values, also beyond the top slot */
	uint64_t	base_sum, cur_sum;	/* ns */
};

struct metric {
	char		*name;
	uint64_t	div;		/* the display unit's ns, from the first emission */
	struct series	*s;
	unsigned int	n, cap;
	int		other;		/* the "other" series' index, or -1 */
	unsigned int	*idx;		/* by label text's hash: series index + 1, 0 empty */
	unsigned int	idx_mask;	/* slots - 1 (at least twice the series) */
	char		le[PROM_TOP_SLOT + 1][32];	/* the buckets' bounds as written */
};

struct ft_prom {
	struct ft_metrics	sink;
	unsigned int		max_series;
	struct metric		*m;
	unsigned int		nm;
	int			nomem;	/* an emission lost a series: render fails */
	unsigned long long	events;
	const unsigned long long *lost;
	int			ncpus;
};

/* a growing text */
struct sbuf {
	char	*p;
	size_t	len, cap;
	int	err;
};

/* sb_printf - append formatted text */
static void sb_printf(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	size_t cap;
	char *p;
	int n;

	if (b->err)
		return;
	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(b->p ? b->p + b->len : NULL, b->cap - b->len, fmt, ap);
		va_end(ap);
		if (n < 0) {
			b->err = 1;
			return;
		}
		if (b->len + n < b->cap)
			break;
		cap = (b->cap + n + 1) * 2;
		p = realloc(b->p, cap);
		if (!p) {
			b->err = 1;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	b->len += n;
}

/* utf8_len - the length of the valid UTF-8 sequence at @s, or 0 */
static int utf8_len(const unsigned char *s)
{
	int n, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	for (i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	/* no overlong forms, surrogates or code points past U+10FFFF */
	if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] >= 0xa0) ||
	    (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] >= 0x90))
		return 0;
	return n;
}

/*
 * sb_escape - append label value @s with \\, \" and newlines escaped, and each byte
 * that is not UTF-8 (a comm cut inside a character) as U+FFFD: Prometheus refuses
 * a whole scrape over one invalid label value
 */
static void sb_escape(struct sbuf *b, const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	int n;

	while (*u) {
		n = utf8_len(u);
		if (!n)
			sb_printf(b, "\xef\xbf\xbd");
		else if (*u == '\\')
			sb_printf(b, "\\\\");
		else if (*u == '\n')
			sb_printf(b, "\\n");
		else if (*u == '"')
			sb_printf(b, "\\\"");
		else
			sb_printf(b, "%.*s", n, (const char *)u);
		u += n ? n : 1;
	}
}

/* label_key - the rendered label set of @l, or with every value "other"; NULL: ENOMEM */
static char *label_key(const struct ft_label *l, int nl, int other)
{
	struct sbuf b = { 0 };
	int i;

	sb_printf(&b, "%s", "");
	for (i = 0; i < nl; i++) {
		sb_printf(&b, "%s%s=\"", i ? "," : "", l[i].name);
		sb_escape(&b, other ? "other" : l[i].value ? l[i].value : "");
		sb_printf(&b, "\"");
	}
	if (b.err) {
		free(b.p);
		return NULL;
	}
	return b.p;
}

/* le_text - a bucket's bound, @ns in seconds, the shortest text that reads back the same */
static void le_text(char *t, size_t len, uint64_t ns)
{
	double v = (double)ns / 1e9;
	int prec;

	for (prec = 1; prec < 17; prec++) {
		snprintf(t, len, "%.*g", prec, v);
		if (strtod(t, NULL) == v)
			return;
	}
	snprintf(t, len, "%.*g", prec, v);
}

/* metric_get - the metric @name, made on first use; NULL: ENOMEM */
static struct metric *metric_get(struct ft_prom *p, const char *name, uint64_t div)
{
	struct metric *m;
	unsigned int i, k;

	for (i = 0; i < p->nm; i++)
		if (!strcmp(p->m[i].name, name))
			return &p->m[i];
	m = realloc(p->m, (p->nm + 1) * sizeof(*m));
	if (!m)
		return NULL;
	p->m = m;
	m = &p->m[p->nm];
	memset(m, 0, sizeof(*m));
	m->other = -1;
	m->div = div;
	for (k = 1; k <= PROM_TOP_SLOT; k++)	/* once: every series and scrape writes them */
		le_text(m->le[k], sizeof(m->le[k]), (div << k) - 1);
	m->name = strdup(name);
	if (!m->name)
		return NULL;
	p->nm++;
	return m;
}

/* label_hash - FNV-1a of a rendered label set */
static unsigned int label_hash(const char *key)
{
	unsigned int h = 2166136261u;

	for (; *key; key++)
		h = (h ^ (unsigned char)*key) * 16777619u;
	return h;
}

/* series_find - the series of @m with rendered labels @key, or NULL */
static struct series *series_find(const struct metric *m, const char *key)
{
	unsigned int i;

	if (!m->idx)
		return NULL;
	for (i = label_hash(key) & m->idx_mask; m->idx[i]; i = (i + 1) & m->idx_mask)
		if (!strcmp(m->s[m->idx[i] - 1].labels, key))
			return &m->s[m->idx[i] - 1];
	return NULL;
}

/* index_grow - an index of twice the slots, every series in it again; 0 or -1 (ENOMEM) */
static int index_grow(struct metric *m)
{
	unsigned int slots = m->idx ? (m->idx_mask + 1) * 2 : 16, i, j;
	unsigned int *idx = calloc(slots, sizeof(*idx));

	if (!idx)
		return -1;
	free(m->idx);
	m->idx = idx;
	m->idx_mask = slots - 1;
	for (i = 0; i < m->n; i++) {
		for (j = label_hash(m->s[i].labels) & m->idx_mask; idx[j]; j = (j + 1) & m->idx_mask)
			;
		idx[j] = i + 1;
	}
	return 0;
}

/* series_add - a new series of @m with rendered labels @key (taken); NULL: ENOMEM */
static struct series *series_add(struct metric *m, char *key)
{
	struct series *s;
	unsigned int j;

	if (m->n == m->cap) {
		unsigned int cap = m->cap ? m->cap * 2 : 8;

		s = realloc(m->s, cap * sizeof(*s));
		if (!s) {
			free(key);
			return NULL;
		}
		m->s = s;
		m->cap = cap;
	}
	if ((!m->idx || (m->n + 1) * 2 > m->idx_mask + 1) && index_grow(m)) {
		free(key);
		return NULL;
	}
	s = &m->s[m->n++];
	memset(s, 0, sizeof(*s));
	s->labels = key;
	for (j = label_hash(key) & m->idx_mask; m->idx[j]; j = (j + 1) & m->idx_mask)
		;
	m->idx[j] = m->n;
	return s;
}

/*
 * series_of - the series of label set @l in @m: its own while fewer than @max have
 * their own, else the one whose values are all "other"; NULL: ENOMEM
 */
static struct series *series_of(struct metric *m, const struct ft_label *l, int nl,
				unsigned int max)
{
	char *key = label_key(l, nl, 0);
	unsigned int own = m->n - (m->other >= 0);
	struct series *s;

	if (!key)
		return NULL;
	s = series_find(m, key);
	/* the "other" series' labels are a real set's too ("other" everywhere): not it */
	if (s && s - m->s != m->other) {
		free(key);
		return s;
	}
	if (own < max)
		return series_add(m, key);
	free(key);
	if (m->other >= 0)
		return &m->s[m->other];
	key = label_key(l, nl, 1);
	if (!key || !series_add(m, key))
		return NULL;
	m->other = m->n - 1;
	return &m->s[m->other];
}

/* sink_hist - one series of the emission: added to its current counts */
static void sink_hist(struct ft_metrics *sink, const char *name, const struct ft_label *l,
		      int nl, const struct ft_hist *h, const struct ft_unit *u)
{
	struct ft_prom *p = (struct ft_prom *)sink;
	struct metric *m = metric_get(p, name, u->div);
	struct series *s = m ? series_of(m, l, nl, p->max_series) : NULL;
	unsigned int k;

	if (!s) {
		p->nomem = 1;
		return;
	}
	for (k = 1; k <= PROM_TOP_SLOT; k++)
		s->cur[k] += h->log2[k];
	s->cur_count += h->count;
	s->cur_sum += h->sum_ns;
}

/* ft_prom_new - an empty exposition, at most @max_series per metric (0: 1000) */
struct ft_prom *ft_prom_new(unsigned int max_series)
{
	struct ft_prom *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->sink.hist = sink_hist;
	p->max_series = max_series ? max_series : 1000;
	return p;
}

/* ft_prom_free - free everything */
void ft_prom_free(struct ft_prom *p)
{
	unsigned int i, j;

	for (i = 0; i < p->nm; i++) {
		for (j = 0; j < p->m[i].n; j++)
			free(p->m[i].s[j].labels);
		free(p->m[i].s);
		free(p->m[i].idx);
		free(p->m[i].name);
	}
	free(p->m);
	free(p);
}

/* ft_prom_metrics - the sink an analyzer emits into */
struct ft_metrics *ft_prom_metrics(struct ft_prom *p)
{
	return &p->sink;
}

/* ft_prom_begin - a new emission: every series' current counts start from zero */
void ft_prom_begin(struct ft_prom *p)
{
	unsigned int i, j;

	for (i = 0; i < p->nm; i++)
		for (j = 0; j < p->m[i].n; j++) {
			struct series *s = &p->m[i].s[j];

			memset(s->cur, 0, sizeof(s->cur));
			s->cur_count = s->cur_sum = 0;
		}
	p->nomem = 0;
}

/* ft_prom_fold - the analyzer resets its histograms: the emission joins the base */
void ft_prom_fold(struct ft_prom *p)
{
	unsigned int i, j, k;

	for (i = 0; i < p->nm; i++)
		for (j = 0; j < p->m[i].n; j++) {
			struct series *s = &p->m[i].s[j];

			for (k = 1; k <= PROM_TOP_SLOT; k++)
				s->base[k] += s->cur[k];
			s->base_count += s->cur_count;
			s->base_sum += s->cur_sum;
		}
	ft_prom_begin(p);
}

/* ft_prom_counters - ftscope_events_total and the losses per CPU, as of now */
void ft_prom_counters(struct ft_prom *p, unsigned long long events,
		      const unsigned long long *lost_cpu, int ncpus)
{
	p->events = events;
	p->lost = lost_cpu;
	p->ncpus = lost_cpu ? ncpus : 0;
}

/* sb_labels - "{labels}" or "{labels,extra}" or "" */
static void sb_labels(struct sbuf *b, const char *labels, const char *extra)
{
	if (!*labels && !extra)
		return;
	sb_printf(b, "{%s%s%s}", labels, *labels && extra ? "," : "", extra ? extra : "");
}

/* render_hist - one histogram family: its help, type and every series */
static void render_hist(struct sbuf *b, const struct metric *m, int om)
{
	unsigned int j, k;

	sb_printf(b, "# HELP ftscope_%s_seconds %s latency in seconds, cumulative since "
		  "ftscope started (buckets: BCC's log2 rows)\n", m->name, m->name);
	sb_printf(b, "# TYPE ftscope_%s_seconds histogram\n", m->name);
	if (om)
		sb_printf(b, "# UNIT ftscope_%s_seconds seconds\n", m->name);
	for (j = 0; j < m->n; j++) {
		const struct series *s = &m->s[j];
		uint64_t cum = 0, sum = s->base_sum + s->cur_sum;

		for (k = 1; k <= PROM_TOP_SLOT; k++) {
			cum += s->base[k] + s->cur[k];
			sb_printf(b, "ftscope_%s_seconds_bucket{%s%sle=\"%s\"} %llu\n", m->name,
				  s->labels, *s->labels ? "," : "", m->le[k], (unsigned long long)cum);
		}
		sb_printf(b, "ftscope_%s_seconds_bucket{%s%sle=\"+Inf\"} %llu\n", m->name,
			  s->labels, *s->labels ? "," : "",
			  (unsigned long long)(s->base_count + s->cur_count));
		sb_printf(b, "ftscope_%s_seconds_sum", m->name);
		sb_labels(b, s->labels, NULL);
		sb_printf(b, " %llu.%09llu\n", (unsigned long long)(sum / 1000000000),
			  (unsigned long long)(sum % 1000000000));
		sb_printf(b, "ftscope_%s_seconds_count", m->name);
		sb_labels(b, s->labels, NULL);
		sb_printf(b, " %llu\n", (unsigned long long)(s->base_count + s->cur_count));
	}
}

/* render_counters - ftscope_events_total and ftscope_events_lost_total{cpu} */
static void render_counters(struct sbuf *b, const struct ft_prom *p, int om)
{
	const char *t = om ? "" : "_total";
	int i;

	sb_printf(b, "# HELP ftscope_events%s trace records ftscope has read since it "
		  "started\n# TYPE ftscope_events%s counter\nftscope_events_total %llu\n",
		  t, t, p->events);
	sb_printf(b, "# HELP ftscope_events_lost%s trace records the kernel dropped, by "
		  "CPU\n# TYPE ftscope_events_lost%s counter\n", t, t);
	for (i = 0; i < p->ncpus; i++)
		sb_printf(b, "ftscope_events_lost_total{cpu=\"%d\"} %llu\n", i, p->lost[i]);
}

/* ft_prom_render - the whole text (OpenMetrics 1.0.0 when @openmetrics); 0 or -1 */
int ft_prom_render(struct ft_prom *p, bool openmetrics, char **buf, size_t *len)
{
	struct sbuf b = { 0 };
	unsigned int i;

	sb_printf(&b, "%s", "");
	for (i = 0; i < p->nm; i++)
		render_hist(&b, &p->m[i], openmetrics);
	render_counters(&b, p, openmetrics);
	if (openmetrics)
		sb_printf(&b, "# EOF\n");
	if (b.err || p->nomem) {
		free(b.p);
		*buf = NULL;
		*len = 0;
		return -1;
	}
	*buf = b.p;
	*len = b.len;
	return 0;
}
