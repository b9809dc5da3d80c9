// SPDX-License-Identifier: GPL-2.0
/*
 * offcpu reports: BCC offcputime's multi-line layout, folded stacks, JSON, and the
 * flame graph. Stacks are symbolised here, once per report; every layout is made
 * from the same frame lists.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analyzers/offcpu_int.h"
#include "analyzers/stack_merge.h"
#include "analyzers/stack_syms.h"
#include "events/tasks.h"
#include "lib/util.h"
#include "output/flame.h"
#include "output/json.h"

#define MAX_FRAMES	OFFCPU_MAX_FRAMES

/* offcpu_kernel_syms - load kallsyms once, when there are kernel stacks to name */
void offcpu_kernel_syms(struct offcpu *o)
{
	if (o->kst.n)
		ft_ksyms_need(&o->ksyms, o->env->kallsyms);
}

/*
 * offcpu_kframes - names of kernel stack @id + 1, innermost first, and their
 * addresses in @addr; with @strip_trace the frames of the tracing code on top
 * dropped (ftrace's stacks)
 */
int offcpu_kframes(struct offcpu *o, uint32_t id, bool strip_trace, const char **out,
		   uint64_t *addr)
{
	return ft_kstack_names(&o->ksyms, &o->kst, id, strip_trace, out, addr, MAX_FRAMES);
}

/*
 * offcpu_uframes - names of user stack @id + 1 of process @tgid, innermost first,
 * and its frames (ft_usyms_frames': file and offset) in @frame
 */
int offcpu_uframes(struct offcpu *o, int tgid, uint32_t id, const char **out, uint64_t *frame)
{
	return ft_ustack_names(&o->usyms, &o->ust, tgid, id, out, frame, MAX_FRAMES);
}

/* side_of - one side of key @key: the blocked thread (0) or its waker (K_WTID) */
static void side_of(struct offcpu *o, const uint64_t *key, int base, struct offcpu_side *s)
{
	s->tid = (int)key[base + K_TID] - (base ? 1 : 0);
	s->tgid = (int)key[base + K_TGID];
	s->comm = base ? ft_tasks_comm(o->env->tasks, s->tid) : offcpu_comm(o, s->tid);
	s->lock = base ? 0 : (unsigned char)key[K_LOCK];
	s->nk = offcpu_kframes(o, (uint32_t)key[base + K_KST], true, s->k, s->ka);
	s->nu = offcpu_uframes(o, s->tgid, (uint32_t)key[base + K_UST], s->u, s->uf);
}

/*
 * offcpu_folded_frames - root first: comm, the lock's mark (--locks), user, kernel; then
 * --, the waker inverted, its comm (@w NULL: none). @f and @kind: room for 2 * OFFCPU_MAX_FRAMES + 8.
 */
int offcpu_folded_frames(struct offcpu *o, const struct offcpu_side *t,
			 const struct offcpu_side *w, const char **f, unsigned char *kind)
{
	int n = 0, i;

	kind[n] = FT_FRAME_META;
	f[n++] = t->comm;
	if (t->lock) {
		kind[n] = FT_FRAME_META;
		f[n++] = offcpu_lock_frame(t->lock);
	}
	for (i = t->nu - 1; i >= 0; i--, n++) {
		kind[n] = FT_FRAME_USER;
		f[n] = t->u[i];
	}
	if (o->delimited && t->nu && t->nk) {
		kind[n] = FT_FRAME_META;
		f[n++] = "-";
	}
	for (i = t->nk - 1; i >= 0; i--, n++) {
		kind[n] = FT_FRAME_KERNEL;
		f[n] = t->k[i];
	}
	if (!w)
		return n;
	kind[n] = FT_FRAME_META;
	f[n++] = "--";
	for (i = 0; i < w->nk; i++, n++) {
		kind[n] = FT_FRAME_WAKER;
		f[n] = w->k[i];
	}
	if (o->delimited && w->nu && w->nk) {
		kind[n] = FT_FRAME_META;
		f[n++] = "-";
	}
	for (i = 0; i < w->nu; i++, n++) {
		kind[n] = FT_FRAME_WAKER;
		f[n] = w->u[i];
	}
	kind[n] = FT_FRAME_META;
	f[n++] = w->comm;
	return n;
}

/*
 * print_side - BCC's multi-line layout: kernel frames, --, user frames, comm (tid), and
 * under it the lock's mark (--locks)
 */
static void print_side(FILE *f, const struct offcpu_side *s)
{
	ft_stack_print(f, s->k, s->nk, s->u, s->nu);
	fprintf(f, "    %-16s %s (%d)\n", "-", s->comm, s->tid);
	if (s->lock)
		fprintf(f, "    %-16s %s\n", "-", offcpu_lock_frame(s->lock));
}

/* json_side - a thread and its stacks */
static void json_side(struct ft_json *j, const struct offcpu_side *s)
{
	ft_json_i64(j, "tid", s->tid);
	ft_json_i64(j, "pid", s->tgid);
	ft_json_str(j, "comm", s->comm);
	ft_json_strs(j, "kernel", s->k, s->nk);
	ft_json_strs(j, "user", s->u, s->nu);
}

/* Sort order of the rows: BCC prints the largest total last. */
static const struct ft_smerge *sort_rows;

/* cmp_total - ascending total, then the first key */
static int cmp_total(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	uint64_t tx = sort_rows->sum[x][0], ty = sort_rows->sum[y][0];

	if (tx != ty)
		return tx < ty ? -1 : 1;
	return sort_rows->first[x] < sort_rows->first[y] ? -1 : 1;
}

/* print_notes - what the totals cannot show: bounds, losses, stack quality */
static void print_notes(struct offcpu *o, FILE *f)
{
	const struct offcpu_stack_notes *sn = &o->sn;

	fprintf(f, "offcpu: %llu blocked periods", sn->periods);
	if (o->notes.bounded)
		fprintf(f, "; %llu end at a switch-in the kernel did not record, timed at "
			"the chain's estimate",
			o->notes.bounded);
	if (o->unseen_in)
		fprintf(f, "; %llu end at the switch-out of a task whose switch-in was not seen "
			"(upper bounds)", o->unseen_in);
	if (o->notes.dropped || o->notes.unpaired)
		fprintf(f, "; %llu dropped after lost events", o->notes.dropped + o->notes.unpaired);
	fputc('\n', f);
	if (o->chain)
		offcpu_chain_print_notes(o, f);
	if (o->stacks_perf)
		offcpu_perf_notes(o, f);
	else if (sn->ustack_early || sn->ustack_full)
		fprintf(f, "offcpu: user stacks (frame-pointer walk): %llu end early at code built "
			"without frame pointers, %llu fill all 8 entries (deeper frames cut)\n",
			sn->ustack_early, sn->ustack_full);
	if (sn->ustack_unmapped)
		fprintf(f, "offcpu: %llu user stacks of processes whose mappings were never read "
			"(gone before the reader saw them, as a command shorter than its 100 ms "
			"rounds, or a capture): [unknown]; --stacks perf takes the mappings from "
			"the kernel's own records\n", sn->ustack_unmapped);
	if (sn->no_kstack || sn->no_ustack)
		fprintf(f, "offcpu: %llu periods without a kernel stack, %llu without a user stack\n",
			sn->no_kstack, sn->no_ustack);
	if (sn->waker_no_kstack && o->wakers_perf)
		fprintf(f, "offcpu: %llu wakeups came without the waker's kernel stack (no sample "
			"of their waking: a thread made since the last round, not yet in the "
			"filter, or a sample lost)\n", sn->waker_no_kstack);
	else if (sn->waker_no_kstack)
		fprintf(f, "offcpu: %llu wakeups came without the waker's kernel stack (the kernel "
			"recorded none, e.g. from idle on some CPUs)\n", sn->waker_no_kstack);
}

/* json_notes - the same as JSON fields */
static void json_notes(struct offcpu *o, struct ft_json *j)
{
	ft_json_u64(j, "periods", o->sn.periods);
	ft_wait_notes_json(j, &o->notes);
	ft_json_u64(j, "user_stacks_ended_early", o->sn.ustack_early);
	ft_json_u64(j, "user_stacks_full", o->sn.ustack_full);
	ft_json_u64(j, "user_stacks_unmapped", o->sn.ustack_unmapped);
	ft_json_u64(j, "periods_without_kernel_stack", o->sn.no_kstack);
	ft_json_u64(j, "periods_without_user_stack", o->sn.no_ustack);
	ft_json_u64(j, "wakers_without_kernel_stack", o->sn.waker_no_kstack);
	offcpu_lock_json(o, j);
	if (o->stacks_perf)
		offcpu_perf_json(o, j);
	if (o->chain)
		offcpu_chain_notes_json(o, j);
}

/* write_svg - the flame graph of this report (NULL: no memory) into the --svg file; 0 or -1 */
static int write_svg(struct offcpu *o, struct ft_flame *fg)
{
	struct ft_flame_opts fo = {
		.title = o->wakers ? "Off-Wake Time Flame Graph" : "Off-CPU Time Flame Graph",
		.countname = "us",
		.palette = FT_PALETTE_IO,
	};
	char sub[128];

	if (!fg) {
		ft_err("cannot write %s: out of memory", o->svg_path);
		return -1;
	}
	snprintf(sub, sizeof(sub), "%llu blocked periods; user stacks by frame-pointer walk",
		 o->sn.periods);
	fo.subtitle = sub;
	if (!ft_flame_finish(fg, &o->svg, &fo))
		return 0;
	ft_err("cannot write %s: %s", o->svg_path, strerror(errno));
	return -1;
}

/* Most links of a chain's key, and frames of a folded line. */
#define MAX_LINKS	(OFFCPU_CHAIN_MAX + 2)
#define MAX_FOLDED	((MAX_LINKS + 1) * (2 * MAX_FRAMES + 8))

/* The sides of one key and its folded frames. */
struct key_view {
	struct offcpu_side	t, w;
	bool			waker;
	struct offcpu_chain_view ch;	/* --chain: the links after the victim */
	const char		*f[MAX_FOLDED];
	unsigned char		kind[MAX_FOLDED];
	int			nf;
};

/* view_of - key @id resolved into @v */
static void view_of(struct offcpu *o, uint32_t id, struct key_view *v)
{
	const uint64_t *key;
	uint32_t n;

	key = ft_intern_get(&o->keys, id, &n);
	v->waker = !o->chain && n == K_LEN && key[K_WTID];
	side_of(o, key, 0, &v->t);
	if (v->waker)
		side_of(o, key, K_WTID, &v->w);
	v->nf = offcpu_folded_frames(o, &v->t, v->waker ? &v->w : NULL, v->f, v->kind);
	v->ch.n = 0;
	if (o->chain)
		v->nf += offcpu_chain_view(o, key + K_WTID, (n - K_WTID) / CL_LEN, &v->ch,
					   v->f + v->nf, v->kind + v->nf);
}

/* row - one row (@id its first key; @ns, @cnt its sums): printed, folded, JSON, in the graph */
static void row(struct offcpu *o, struct ft_report *r, uint32_t id, uint64_t ns, uint64_t cnt,
		struct ft_flame *fg)
{
	static struct key_view v;
	uint64_t us = ns / 1000;
	int i;

	view_of(o, id, &v);
	if (r->json) {
		ft_json_obj_begin(r->json, NULL);
		json_side(r->json, &v.t);
		if (o->locks.on)
			ft_json_str(r->json, "lock", offcpu_lock_name(v.t.lock));
		ft_json_u64(r->json, "us", us);
		ft_json_u64(r->json, "count", cnt);
		if (v.waker) {
			ft_json_obj_begin(r->json, "waker");
			json_side(r->json, &v.w);
			ft_json_obj_end(r->json);
		}
		if (o->chain)
			offcpu_chain_json(r->json, &v.ch);
		ft_json_obj_end(r->json);
	}
	if (fg)
		ft_flame_add(fg, v.f, v.kind, v.nf, 0, (double)us);
	if (r->json)
		return;
	if (o->folded) {
		for (i = 0; i < v.nf; i++)
			fprintf(r->f, "%s%s", i ? ";" : "", v.f[i]);
		fprintf(r->f, " %llu\n", (unsigned long long)us);
		return;
	}
	print_side(r->f, &v.t);
	if (v.waker) {
		fputs("    --- woken by ---\n", r->f);
		print_side(r->f, &v.w);
	}
	for (i = 0; i < v.ch.n; i++) {
		fprintf(r->f, "    --- %s ---\n", v.ch.what[i]);
		if (v.ch.l[i].comm)
			print_side(r->f, &v.ch.l[i]);
	}
	fprintf(r->f, "        %llu\n\n", (unsigned long long)us);
}

/*
 * merge - every key with time into the rows of @m: by the folded line with -f, else
 * also by the threads the layout prints; --pprof's samples added per key (pprof keeps
 * addresses), each key, as each adds to a row (rows under 1 us are left out of the
 * text, as a pprof view leaves out what rounds to 0). Returns 0, or -1 out of memory.
 */
static int merge(struct offcpu *o, struct ft_smerge *m)
{
	static struct key_view v;
	int64_t head[6 + 2 * MAX_LINKS];
	uint32_t i;
	int nh, k;

	for (i = 0; i < o->keys.n; i++) {
		if (!o->sum[i].ns)
			continue;
		view_of(o, i, &v);
		if (o->pprof.pp) {
			int64_t val[2] = { (int64_t)o->sum[i].ns, (int64_t)o->sum[i].n };

			if (o->chain)
				offcpu_pprof_chain(o, &v.t, &v.ch, val);
			else
				offcpu_pprof_add(o, &v.t, v.waker ? &v.w : NULL, NULL, NULL, val);
		}
		nh = 0;
		if (!o->folded) {
			head[nh++] = v.t.tid;
			head[nh++] = v.t.tgid;
			head[nh++] = v.t.nk;
			head[nh++] = v.waker ? v.w.tid : -1;
			head[nh++] = v.waker ? v.w.tgid : -1;
			head[nh++] = v.waker ? v.w.nk : -1;
			for (k = 0; k < v.ch.n; k++) {	/* the layout prints each link's tid */
				head[nh++] = v.ch.l[k].tid;
				head[nh++] = v.ch.l[k].nk;
			}
		}
		if (ft_smerge_add(m, head, nh, v.f, v.nf, i, o->sum[i].ns, o->sum[i].n) < 0)
			return -1;
	}
	return 0;
}

/* The pprof profile's values: blocked time (pprof's default), and periods. */
static const char *const pprof_types[][2] = {
	{ "offcpu", "nanoseconds" }, { "periods", "count" },
};

/* offcpu_print - every row with time (keys merged as printed), smallest first */
void offcpu_print(struct offcpu *o, struct ft_report *r)
{
	struct ft_flame *fg = NULL;
	struct ft_smerge m;
	uint32_t *ids = NULL, i, n = 0;

	offcpu_kernel_syms(o);
	if (ft_smerge_init(&m))
		goto nomem;
	if (o->svg.f && r->final)
		fg = ft_flame_new(false);
	if (r->final && offcpu_pprof_begin(o, pprof_types, 2, 0, pprof_types[0], 1))
		r->failed = true;
	if (merge(o, &m) || !(ids = malloc((m.rows.n + 1) * sizeof(*ids))))
		goto nomem;
	for (i = 0; i < m.rows.n; i++)
		if (m.sum[i][0] >= 1000)
			ids[n++] = i;
	sort_rows = &m;
	qsort(ids, n, sizeof(*ids), cmp_total);
	if (o->folded)
		r->footer = stderr;	/* stdout stays pure folded stacks */
	if (r->json)
		ft_json_arr_begin(r->json, "stacks");
	for (i = 0; i < n; i++)
		row(o, r, m.first[ids[i]], m.sum[ids[i]][0], m.sum[ids[i]][1], fg);
	if (r->json) {
		ft_json_arr_end(r->json);
		json_notes(o, r->json);
	} else {
		print_notes(o, o->folded ? stderr : r->f);
		offcpu_lock_notes(o, o->folded ? stderr : r->f);
	}
	if (o->svg.f && r->final && write_svg(o, fg))
		r->failed = true;
	if (offcpu_pprof_finish(o))
		r->failed = true;
	goto out;
nomem:
	ft_err("out of memory");
	r->failed = true;
	offcpu_pprof_abandon(o);
out:
	ft_flame_free(fg);
	ft_smerge_fini(&m);
	free(ids);
}
