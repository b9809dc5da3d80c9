// SPDX-License-Identifier: GPL-2.0
/*
 * profile reports: perf report's tables (the functions by self share, and by total
 * share with callers included), folded stacks as offcpu prints them, JSON, and the
 * flame graph. Stacks are symbolised here, once per report.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analyzers/profile_int.h"
#include "analyzers/stack_merge.h"
#include "events/tasks.h"
#include "lib/util.h"
#include "output/flame.h"
#include "output/json.h"

#define MAX_FRAMES	(2 * OFFCPU_MAX_FRAMES + 1)

static const char kernel_dso[] = "[kernel.kallsyms]";
static const char offcpu_dso[] = "[off-cpu]";
static const char unknown[] = "[unknown]";

/* profile_req - what was sampled: a file's own request, else the options' */
const struct ft_sample_req *profile_req(const struct profile *p)
{
	return p->env && p->env->sampled ? p->env->sampled : &p->req;
}

/* profile_comm - a thread's name: its samples', else the task table's */
const char *profile_comm(struct profile *p, int tid)
{
	const struct profile_thread *t = ft_tab_find(&p->seen, tid);

	if (!tid)
		return "swapper";
	return t && t->comm[0] && strcmp(t->comm, "?") ? t->comm : ft_tasks_comm(p->env->tasks, tid);
}

/* One function of a table: perf's sort keys comm, dso, sym (and the level). */
struct frame {
	const char	*dso, *sym;
	char		level;		/* 'k' kernel, '.' user, 'o' off-CPU */
};

/* A key, symbolised: the side offcpu folds, and its frames leaf first. */
struct resolved {
	struct offcpu_side	s;
	const char		*mark;		/* off-CPU: the leaf mark, "..._[o]"; else NULL */
	struct frame		fr[MAX_FRAMES];
	int			n;
	uint64_t		samples, value;
};

/* A row of a table. */
struct row {
	char		comm[24];
	struct frame	f;
	uint64_t	samples, value;
};

/* The rows of one table, found by (comm, dso, sym, level). */
struct table {
	struct ft_intern	ids;
	struct row		*row;
	uint32_t		cap;
};

/* mark_name - the leaf that marks off-CPU time: by state with --state */
static const char *mark_name(char state)
{
	static char other[128][24];
	unsigned char c = (unsigned char)state & 127;

	switch (state) {
	case PROFILE_OFFCPU: return "[off-cpu]_[o]";
	case 'S': return "[sleeping]_[o]";
	case 'D': return "[uninterruptible]_[o]";
	case 'R': return "[runnable]_[o]";
	}
	if (!other[c][0])
		snprintf(other[c], sizeof(other[c]), "[state %c]_[o]", c >= ' ' ? c : '?');
	return other[c];
}

/* dso_of - the file of a user frame, its base name; anonymous memory: [unknown] */
static const char *dso_of(struct profile *p, uint64_t frame)
{
	const char *path = ft_usyms_path(&p->oc.usyms, frame), *slash;

	if (!path)
		return unknown;
	slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

/*
 * tracepoint - is the sampled event a tracepoint (SYSTEM:EVENT)? Its samples' kernel
 * stacks begin in the tracing code (__traceiter_*, perf_trace_*) above the function
 * that hit it; perf shows that function as the leaf when its probe is the only one
 * (the static call goes straight to it), as ftscope's shows after dropping them
 */
static bool tracepoint(const struct profile *p)
{
	const char *ev = profile_req(p)->event, *colon = ev ? strchr(ev, ':') : NULL;

	return colon && ev[0] != '/' && colon[1] && strspn(colon + 1, "uk") != strlen(colon + 1);
}

/* resolve - key @id symbolised into @r: comm, frames, kinds of frames */
static void resolve(struct profile *p, uint32_t id, struct resolved *r)
{
	const uint64_t *key, *ufr = NULL;
	uint32_t n, nfr = 0;
	int i;

	key = ft_intern_get(&p->keys, id, &n);
	r->s.tid = (int)key[PK_TID];
	r->s.tgid = (int)key[PK_TGID];
	r->s.comm = profile_comm(p, r->s.tid);
	r->s.nk = offcpu_kframes(&p->oc, (uint32_t)key[PK_KST],
				 key[PK_MARK] != 0 || tracepoint(p), r->s.k, r->s.ka);
	r->s.nu = offcpu_uframes(&p->oc, r->s.tgid, (uint32_t)key[PK_UST], r->s.u, r->s.uf);
	if (key[PK_UST])
		ufr = ft_intern_get(&p->oc.ust, (uint32_t)key[PK_UST] - 1, &nfr);
	r->mark = key[PK_MARK] ? mark_name((char)key[PK_MARK]) : NULL;
	r->n = 0;
	if (r->mark)
		r->fr[r->n++] = (struct frame){ offcpu_dso, r->mark, 'o' };
	for (i = 0; i < r->s.nk; i++)
		r->fr[r->n++] = (struct frame){ kernel_dso, r->s.k[i], 'k' };
	for (i = 0; i < r->s.nu; i++)
		r->fr[r->n++] = (struct frame){ (uint32_t)i < nfr ? dso_of(p, ufr[i]) : unknown,
						r->s.u[i], '.' };
	r->samples = p->sum[id].samples;
	r->value = p->sum[id].value;
}

/* table_add - @v to the row of (@comm, @f) */
static void table_add(struct table *t, const char *comm, const struct frame *f,
		      uint64_t samples, uint64_t value)
{
	uint64_t key[6] = { 0 };
	long id;

	strncpy((char *)key, comm, 23);
	key[3] = (uintptr_t)f->dso;
	key[4] = (uintptr_t)f->sym;
	key[5] = (unsigned char)f->level;
	id = ft_intern_put(&t->ids, key, 6);
	if (id < 0)
		return;
	if ((uint32_t)id >= t->cap) {
		uint32_t cap = t->cap ? t->cap * 2 : 256;
		struct row *row = realloc(t->row, cap * sizeof(*row));

		if (!row)
			return;
		memset(row + t->cap, 0, (cap - t->cap) * sizeof(*row));
		t->row = row;
		t->cap = cap;
	}
	if (!t->row[id].comm[0]) {
		memcpy(t->row[id].comm, key, 23);
		t->row[id].f = *f;
	}
	t->row[id].samples += samples;
	t->row[id].value += value;
}

/* same_fn - the same function (pointers: symbol names are stored once) */
static bool same_fn(const struct frame *a, const struct frame *b)
{
	return a->sym == b->sym && a->dso == b->dso && a->level == b->level;
}

/* tables_add - a key into the self table (its leaf) and the total one (each function once) */
static void tables_add(struct table *self, struct table *total, const struct resolved *r)
{
	static const struct frame none = { unknown, unknown, '.' };
	int i, j;

	table_add(self, r->s.comm, r->n ? &r->fr[0] : &none, r->samples, r->value);
	if (!r->n)
		table_add(total, r->s.comm, &none, r->samples, r->value);
	for (i = 0; i < r->n; i++) {
		for (j = 0; j < i && !same_fn(&r->fr[j], &r->fr[i]); j++)
			;
		if (j == i)	/* recursion: counted once per stack */
			table_add(total, r->s.comm, &r->fr[i], r->samples, r->value);
	}
}

/* cmp_row - larger value first, then more samples, then comm, dso, symbol */
static int cmp_row(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	int c;

	if (x->value != y->value)
		return x->value > y->value ? -1 : 1;
	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	if ((c = strcmp(x->comm, y->comm)) || (c = strcmp(x->f.dso, y->f.dso)))
		return c;
	if ((c = strcmp(x->f.sym, y->f.sym)))
		return c;
	return x->f.level - y->f.level;
}

/* sym_text - a table's symbol: off-CPU marks without their folded suffix */
static void sym_text(const struct frame *f, char *buf, size_t len)
{
	size_t n = strlen(f->sym);

	if (f->level == 'o' && n > 4)
		n -= 4;
	snprintf(buf, len, "[%c] %.*s", f->level, (int)(n < len ? n : len - 1), f->sym);
}

/* print_table - the first @top rows, perf report's layout; @what names the share */
static void print_table(struct profile *p, FILE *f, struct table *t, uint32_t nrows,
			const char *what, uint64_t total, int top)
{
	const char *cnt = p->offcpu ? "Time (ms)" : "Samples";
	int wc = 7, wd = 13, ws = (int)strlen(cnt), i, n = nrows;
	char sym[512];

	if (top > 0 && n > top)
		n = top;
	for (i = 0; i < n; i++) {
		struct row *r = &t->row[i];
		int l1 = (int)strlen(r->comm), l2 = (int)strlen(r->f.dso);

		wc = l1 > wc ? l1 : wc;
		wd = l2 > wd ? l2 : wd;
	}
	fprintf(f, "# %8s  %*s  %-*s  %-*s  %s\n", what, ws, cnt, wc, "Command", wd,
		"Shared Object", "Symbol");
	fprintf(f, "# ........  %.*s  %.*s  %.*s  ......\n#\n", ws, "..................", wc,
		"................................", wd,
		"................................................................");
	for (i = 0; i < n; i++) {
		struct row *r = &t->row[i];

		sym_text(&r->f, sym, sizeof(sym));
		fprintf(f, "  %7.2f%%  ", total ? 100.0 * r->value / total : 0.0);
		if (p->offcpu)
			fprintf(f, "%*.3f", ws, r->value / 1e6);
		else
			fprintf(f, "%*llu", ws, (unsigned long long)r->samples);
		fprintf(f, "  %-*s  %-*s  %s\n", wc, r->comm, wd, r->f.dso, sym);
	}
	if (nrows > (uint32_t)n)
		fprintf(f, "# ... %u more rows (--top 0: all)\n", nrows - n);
}

/*
 * profile_rate - the samples a second of the time sampled that the kernel took (lost
 * ones too), where its own count of that time is known (live cpu-clock, the final
 * report); 0 otherwise
 */
static double profile_rate(const struct profile *p)
{
	const struct ft_sample_counts *c = p->env->samples;

	if (!c || !c->clock_ns || profile_req(p)->period)
		return 0;
	return (c->samples + c->lost) * 1e9 / c->clock_ns;
}

/* rate_text - the header's rate: asked, and obtained where the kernel gave less */
static void rate_text(const struct profile *p, char *buf, size_t len)
{
	const struct ft_sample_req *q = profile_req(p);
	double got = profile_rate(p);

	if (q->period)
		snprintf(buf, len, "period %llu", (unsigned long long)q->period);
	else if (!got || got >= 0.9 * q->freq)
		snprintf(buf, len, "%llu Hz", (unsigned long long)q->freq);
	else
		snprintf(buf, len, "%llu Hz asked, %.0f Hz obtained: the kernel's timer and "
			 "throttling; kernel.perf_event_max_sample_rate %ld",
			 (unsigned long long)q->freq, got, p->max_rate);
}

/* header - perf report's lines over the tables: what was sampled, how much */
static void header(struct profile *p, FILE *f)
{
	const struct ft_sample_req *q = profile_req(p);
	char rate[160];

	rate_text(p, rate, sizeof(rate));
	fprintf(f, "# Samples: %llu of event '%s' (%s)\n", p->n.samples,
		q->event ? q->event : "cpu-clock", rate);
	if (!p->offcpu) {
		fprintf(f, "# Event count (approx.): %llu\n", (unsigned long long)p->n.on_value);
		return;
	}
	fprintf(f, "# On-CPU time (approx.): %.3f ms\n", p->n.on_value / 1e6);
	fprintf(f, "# Off-CPU time: %.3f ms in %llu periods\n", p->n.off_ns / 1e6, p->n.periods);
	fprintf(f, "# Wall-clock time: %.3f ms\n", (p->n.on_value + p->n.off_ns) / 1e6);
}

/* print_notes - what the totals cannot show: idle, stack quality, off-CPU bounds */
static void print_notes(struct profile *p, FILE *f)
{
	fprintf(f, "profile: %llu samples", p->n.samples);
	if (p->n.idle)
		fprintf(f, " (%llu in the idle task, swapper)", p->n.idle);
	if (p->offcpu) {
		fprintf(f, "; %llu off-CPU periods", p->n.periods);
		if (p->oc.notes.bounded || p->oc.unseen_in)
			fprintf(f, ", %llu end at a switch-in timed at the chain's estimate or "
				"an upper bound", p->oc.notes.bounded + p->oc.unseen_in);
		if (p->n.clamped)
			fprintf(f, ", %llu of those cut at the thread's next sample (it ran then)",
				p->n.clamped);
		if (p->oc.notes.dropped || p->oc.notes.unpaired)
			fprintf(f, ", %llu dropped after lost events",
				p->oc.notes.dropped + p->oc.notes.unpaired);
	}
	fputc('\n', f);
	if (p->oc.perf)
		fprintf(f, "profile: off-CPU stacks from samples of sched_switch: %llu of %llu "
			"switch-outs matched, %llu without their sample, %llu before sampling "
			"began\n", p->oc.sn.sampled,
			p->oc.sn.sampled + p->oc.sn.no_sample + p->oc.sn.before_sampling,
			p->oc.sn.no_sample, p->oc.sn.before_sampling);
	if (p->n.ustack_early || p->n.ustack_unmapped)
		fprintf(f, "profile: user stacks (frame-pointer walk): %llu end early at code built "
			"without frame pointers, %llu of processes whose mappings were never read "
			"([unknown])\n", p->n.ustack_early, p->n.ustack_unmapped);
}

/* json_table - the first @top rows as objects */
static void json_table(struct profile *p, struct ft_json *j, const char *key, struct table *t,
		       uint32_t n, uint64_t total, int top)
{
	uint32_t i;

	ft_json_arr_begin(j, key);
	for (i = 0; i < n && (top <= 0 || i < (uint32_t)top); i++) {
		struct row *r = &t->row[i];
		char lv[2] = { r->f.level, 0 };

		ft_json_obj_begin(j, NULL);
		ft_json_double(j, "overhead", total ? 100.0 * r->value / total : 0.0);
		ft_json_u64(j, "samples", r->samples);
		ft_json_u64(j, p->offcpu ? "us" : "count", p->offcpu ? r->value / 1000 : r->value);
		ft_json_str(j, "comm", r->comm);
		ft_json_str(j, "dso", r->f.dso);
		ft_json_str(j, "symbol", r->f.sym);
		ft_json_str(j, "level", lv);
		ft_json_obj_end(j);
	}
	ft_json_arr_end(j);
}

/* json_head - the header's figures and the notes */
static void json_head(struct profile *p, struct ft_json *j)
{
	const struct ft_sample_req *q = profile_req(p);
	double got = profile_rate(p);

	ft_json_str(j, "event", q->event ? q->event : "cpu-clock");
	ft_json_u64(j, q->period ? "period" : "frequency", q->period ? q->period : q->freq);
	if (got)
		ft_json_u64(j, "frequency_obtained", (uint64_t)(got + 0.5));
	ft_json_u64(j, "samples", p->n.samples);
	ft_json_u64(j, "event_count", p->n.on_value);
	ft_json_u64(j, "idle_samples", p->n.idle);
	ft_json_u64(j, "user_stacks_ended_early", p->n.ustack_early);
	ft_json_u64(j, "user_stacks_unmapped", p->n.ustack_unmapped);
	if (!p->offcpu)
		return;
	ft_json_u64(j, "on_cpu_us", p->n.on_value / 1000);
	ft_json_u64(j, "off_cpu_us", p->n.off_ns / 1000);
	ft_json_u64(j, "off_cpu_periods", p->n.periods);
	ft_json_u64(j, "off_cpu_periods_cut_at_a_sample", p->n.clamped);
	ft_json_str(j, "off_cpu_stack_source", p->oc.perf ? "perf" : "ftrace");
	if (p->oc.perf) {
		ft_json_u64(j, "switch_outs_sampled", p->oc.sn.sampled);
		ft_json_u64(j, "switch_outs_without_sample", p->oc.sn.no_sample);
		ft_json_u64(j, "switch_outs_before_sampling", p->oc.sn.before_sampling);
	}
	ft_wait_notes_json(j, &p->oc.notes);
}

/* count_of - a stack's count in folded output: samples, or microseconds (--offcpu) */
static uint64_t count_of(const struct profile *p, uint64_t samples, uint64_t value)
{
	return p->offcpu ? value / 1000 : samples;
}

/* Sort order of the rows. */
static const struct profile *sort_p;
static const struct ft_smerge *sort_m;

/* cmp_count - larger count first, then the first key */
static int cmp_count(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	uint64_t cx = count_of(sort_p, sort_m->sum[x][0], sort_m->sum[x][1]);
	uint64_t cy = count_of(sort_p, sort_m->sum[y][0], sort_m->sum[y][1]);

	if (cx != cy)
		return cx > cy ? -1 : 1;
	return sort_m->first[x] < sort_m->first[y] ? -1 : 1;
}

/* state_of - the state label of an off-CPU mark: "[sleeping]_[o]" -> "sleeping" */
static const char *state_of(const char *mark, char *buf, size_t len)
{
	size_t n = strlen(mark);

	if (n < 6)
		return mark;
	snprintf(buf, len, "%.*s", (int)(n - 6), mark + 1);
	return buf;
}

/*
 * pprof_add - one key into --pprof's profile: [samples, count] and the value
 * ([cpu, nanoseconds], the event's count, or --offcpu's [wall, nanoseconds]); off-CPU
 * time under a leaf frame named as the folded line's mark without "_[o]", and a
 * state label ("on-cpu" for samples) with --offcpu
 */
static void pprof_add(struct profile *p, const struct resolved *rs)
{
	char leaf[32], state[32];
	int64_t v[2] = { (int64_t)rs->samples, (int64_t)rs->value };
	const char *st = p->offcpu ? "on-cpu" : NULL;

	if (rs->mark) {
		snprintf(leaf, sizeof(leaf), "%.*s", (int)strlen(rs->mark) - 4, rs->mark);
		st = state_of(rs->mark, state, sizeof(state));
	}
	offcpu_pprof_add(&p->oc, &rs->s, NULL, rs->mark ? leaf : NULL, st, v);
}

/* pprof_begin - the final report's profile for --pprof, its sample types as above; 0 or -1 */
static int pprof_begin(struct profile *p)
{
	const struct ft_sample_req *q = profile_req(p);
	const char *type[2][2] = { { "samples", "count" }, { "cpu", "nanoseconds" } };
	int64_t period = q->freq ? 1000000000 / (int64_t)q->freq : (int64_t)q->period;

	if (p->offcpu) {
		type[1][0] = "wall";
	} else if (q->event && strcmp(q->event, "cpu-clock")) {
		type[1][0] = q->event;
		type[1][1] = "count";
		period = (int64_t)q->period;	/* -F: each sample's own */
	}
	return offcpu_pprof_begin(&p->oc, (const char *const (*)[2])type, 2, 1, type[1], period);
}

/* Most frames of a folded line. */
#define MAX_FOLDED	(2 * OFFCPU_MAX_FRAMES + 9)

/* folded - key @id resolved into @rs, its folded frames into @f and @kind; their number */
static int folded(struct profile *p, uint32_t id, struct resolved *rs, const char **f,
		  unsigned char *kind)
{
	int nf;

	resolve(p, id, rs);
	nf = offcpu_folded_frames(&p->oc, &rs->s, NULL, f, kind);
	if (rs->mark) {
		kind[nf] = FT_FRAME_OFFCPU;
		f[nf++] = rs->mark;
	}
	return nf;
}

/*
 * merge - every key with a count into the tables, --pprof's profile (per key: pprof
 * keeps addresses) and the rows of @m: by the folded line with -f, else also by the
 * thread JSON prints. Returns 0, or -1 out of memory.
 */
static int merge(struct profile *p, struct ft_report *r, struct ft_smerge *m,
		 struct table *self, struct table *total)
{
	static struct resolved rs;
	static const char *f[MAX_FOLDED];
	static unsigned char kind[MAX_FOLDED];
	int64_t head[3];
	uint32_t i;
	int nf, nh;

	for (i = 0; i < p->keys.n; i++) {
		if (!count_of(p, p->sum[i].samples, p->sum[i].value))
			continue;
		nf = folded(p, i, &rs, f, kind);
		tables_add(self, total, &rs);
		if (p->oc.pprof.pp)
			pprof_add(p, &rs);
		nh = 0;
		if (r->json) {
			head[nh++] = rs.s.tid;
			head[nh++] = rs.s.tgid;
			head[nh++] = rs.s.nk;
		}
		if (ft_smerge_add(m, head, nh, f, nf, i, rs.samples, rs.value) < 0)
			return -1;
	}
	return 0;
}

/* stack - one row (@id its first key; @samples, @value its sums): folded, JSON, in the graph */
static void stack(struct profile *p, struct ft_report *r, uint32_t id, uint64_t samples,
		  uint64_t value, struct ft_flame *fg)
{
	static struct resolved rs;
	static const char *f[MAX_FOLDED];
	static unsigned char kind[MAX_FOLDED];
	uint64_t count = count_of(p, samples, value);
	int nf, i;

	nf = folded(p, id, &rs, f, kind);
	if (fg)
		ft_flame_add(fg, f, kind, nf, 0, (double)count);
	if (r->json) {
		ft_json_obj_begin(r->json, NULL);
		ft_json_i64(r->json, "tid", rs.s.tid);
		ft_json_i64(r->json, "pid", rs.s.tgid);
		ft_json_str(r->json, "comm", rs.s.comm);
		ft_json_arr_begin(r->json, "kernel");
		for (i = 0; i < rs.s.nk; i++)
			ft_json_str(r->json, NULL, rs.s.k[i]);
		ft_json_arr_end(r->json);
		ft_json_arr_begin(r->json, "user");
		for (i = 0; i < rs.s.nu; i++)
			ft_json_str(r->json, NULL, rs.s.u[i]);
		ft_json_arr_end(r->json);
		if (rs.mark)
			ft_json_str(r->json, "off_cpu", rs.mark);
		ft_json_u64(r->json, "samples", samples);
		ft_json_u64(r->json, p->offcpu ? "us" : "count", p->offcpu ? value / 1000 : value);
		ft_json_obj_end(r->json);
	} else if (p->folded) {
		for (i = 0; i < nf; i++)
			fprintf(r->f, "%s%s", i ? ";" : "", f[i]);
		fprintf(r->f, " %llu\n", (unsigned long long)count);
	}
}

/* write_svg - the flame graph of this report (NULL: no memory) into the --svg file; 0 or -1 */
static int write_svg(struct profile *p, struct ft_flame *fg)
{
	const struct ft_sample_req *q = profile_req(p);
	struct ft_flame_opts fo = {
		.title = p->offcpu ? "Wall-Clock Time Flame Graph" : "CPU Flame Graph",
		.countname = p->offcpu ? "us" : "samples",
		.palette = FT_PALETTE_HOT,
	};
	char sub[160];

	if (!fg) {
		ft_err("cannot write %s: out of memory", p->svg_path);
		return -1;
	}
	snprintf(sub, sizeof(sub), "%llu samples of %s%s; user stacks by frame-pointer walk",
		 p->n.samples, q->event ? q->event : "cpu-clock",
		 p->offcpu ? ", off-CPU time in blue" : "");
	fo.subtitle = sub;
	if (!ft_flame_finish(fg, &p->svg, &fo))
		return 0;
	ft_err("cannot write %s: %s", p->svg_path, strerror(errno));
	return -1;
}

/* sorted - the rows of @t, largest first; their number */
static uint32_t sorted(struct table *t)
{
	if (t->ids.n)
		qsort(t->row, t->ids.n, sizeof(*t->row), cmp_row);
	return t->ids.n;
}

/* tables - the header, both tables and the notes, as text or JSON */
static void tables(struct profile *p, struct ft_report *r, struct table *self,
		   struct table *total)
{
	uint64_t all = p->n.on_value + (p->offcpu ? p->n.off_ns : 0);
	uint32_t ns = sorted(self), nt = sorted(total);
	FILE *f = r->f;

	if (r->json) {
		json_head(p, r->json);
		json_table(p, r->json, "self", self, ns, all, (int)p->top);
		json_table(p, r->json, "total", total, nt, all, (int)p->top);
		return;
	}
	if (p->folded) {
		print_notes(p, stderr);
		return;
	}
	header(p, f);
	fputs("#\n# Self: the function each sample was in (perf report --no-children)\n#\n", f);
	print_table(p, f, self, ns, "Overhead", all, (int)p->top);
	fputs("#\n# Total: the functions on the stack, callers included, each once a sample "
	      "(perf report --children)\n#\n", f);
	print_table(p, f, total, nt, "Children", all, (int)p->top);
	fputc('\n', f);
	print_notes(p, f);
}

/* profile_print - every stack with a count (keys merged as printed), largest first; the tables */
void profile_print(struct profile *p, struct ft_report *r)
{
	struct table self = { 0 }, total = { 0 };
	struct ft_flame *fg = NULL;
	struct ft_smerge m;
	uint32_t *ids = NULL, i, n = 0;

	offcpu_kernel_syms(&p->oc);
	if (ft_smerge_init(&m) || ft_intern_init(&self.ids) || ft_intern_init(&total.ids))
		goto nomem;
	if (p->svg.f && r->final)
		fg = ft_flame_new(false);
	if (r->final && pprof_begin(p))
		r->failed = true;
	if (merge(p, r, &m, &self, &total) || !(ids = malloc((m.rows.n + 1) * sizeof(*ids))))
		goto nomem;
	for (i = 0; i < m.rows.n; i++)
		ids[n++] = i;
	sort_p = p;
	sort_m = &m;
	qsort(ids, n, sizeof(*ids), cmp_count);
	if (p->folded)
		r->footer = stderr;	/* stdout stays pure folded stacks */
	if (r->json)
		ft_json_arr_begin(r->json, "stacks");
	for (i = 0; i < n; i++)
		stack(p, r, m.first[ids[i]], m.sum[ids[i]][0], m.sum[ids[i]][1], fg);
	if (r->json)
		ft_json_arr_end(r->json);
	tables(p, r, &self, &total);
	if (p->svg.f && r->final && write_svg(p, fg))
		r->failed = true;
	if (offcpu_pprof_finish(&p->oc))
		r->failed = true;
	goto out;
nomem:
	ft_err("out of memory");
	r->failed = true;
	offcpu_pprof_abandon(&p->oc);
out:
	ft_flame_free(fg);
	ft_smerge_fini(&m);
	free(self.row);
	free(total.row);
	ft_intern_fini(&self.ids);
	ft_intern_fini(&total.ids);
	free(ids);
}
