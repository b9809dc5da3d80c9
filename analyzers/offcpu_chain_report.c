// SPDX-License-Identifier: GPL-2.0
/*
 * offcpu --chain's reports: a key's links named, as folded frames after the victim's
 * (victim;...;--;waker;...;--;waker's waker;...), as the multi-line layout's and
 * JSON's links, and the notes of what the chain could not name (docs/explain.md).
 */
#include <string.h>

#include "analyzers/offcpu_int.h"
#include "analyzers/stack_syms.h"
#include "output/flame.h"
#include "output/json.h"

/* The marks of links without stacks of their own, and of unknown time. */
static const char *const unknown_mark[OFFCPU_CHAIN_NREASONS] = {
	[OFFCPU_CHAIN_LOST]		= "[unknown: lost events]",
	[OFFCPU_CHAIN_HISTORY]		= "[unknown: before the kept history]",
	[OFFCPU_CHAIN_NOT_FOLLOWED]	= "[unknown: not followed]",
	[OFFCPU_CHAIN_NO_RECORD]	= "[unknown: no record]",
	[OFFCPU_CHAIN_NO_WAKEUP]	= "[unknown: wakeup not seen]",
};

/* irq_mark - the context a wakeup came from, by its FT_CTX_ bits */
static const char *irq_mark(uint64_t ctx)
{
	if (ctx & FT_CTX_NMI)
		return "[nmi]";
	return ctx & FT_CTX_HARDIRQ ? "[hardirq]" : "[softirq]";
}

/* thread_of - link @k's thread (@tid) and its stacks into @s */
static void thread_of(struct offcpu *o, const uint64_t *k, int tid, struct offcpu_side *s)
{
	s->tid = tid;
	s->tgid = (int)k[CL_TGID];
	s->comm = ft_tasks_comm(o->env->tasks, tid);
	s->nk = ft_kstack_names(&o->ksyms, &o->kst, (uint32_t)k[CL_KST], true, s->k, s->ka,
				OFFCPU_MAX_FRAMES);
	s->nu = ft_ustack_names(&o->usyms, &o->ust, s->tgid, (uint32_t)k[CL_UST], s->u, s->uf,
				OFFCPU_MAX_FRAMES);
}

/* link_of - link @k named: its thread and stacks (comm NULL: none), what it is, its mark */
static void link_of(struct offcpu *o, const uint64_t *k, struct offcpu_chain_view *v, int i)
{
	struct offcpu_side *s = &v->l[i];
	int tid = (int)(int64_t)k[CL_TID];

	memset(s, 0, sizeof(*s));
	v->mark[i] = NULL;
	switch (k[CL_CODE]) {
	case CL_RUN:
		thread_of(o, k, tid, s);
		v->what[i] = "waker running";
		v->mark[i] = s->nk || s->nu ? NULL : "[running]";
		return;
	case CL_BLOCKED:
		thread_of(o, k, tid, s);
		v->what[i] = "waker blocked";
		v->mark[i] = s->nk || s->nu ? NULL : "[blocked]";
		return;
	case CL_READY:
		if (tid > 0)
			thread_of(o, k, tid, s);
		v->what[i] = tid > 0 ? "waker runnable" : "runnable (woken, waiting for a CPU)";
		v->mark[i] = "[runnable]";
		return;
	case CL_IRQ:
		v->what[i] = "woken from an interrupt";
		v->mark[i] = irq_mark(k[CL_TID]);
		return;
	case CL_IDLE:
		v->what[i] = "woken by the idle task";
		v->mark[i] = "[idle]";
		return;
	default:
		if ((int)(int64_t)k[CL_TGID] > 0)	/* an unknown link's thread */
			s->comm = ft_tasks_comm(o->env->tasks, (int)(int64_t)k[CL_TGID]);
		s->tid = (int)(int64_t)k[CL_TGID];
		v->what[i] = "not known";
		v->mark[i] = k[CL_TID] < OFFCPU_CHAIN_NREASONS ? unknown_mark[k[CL_TID]] :
			     "[unknown]";
	}
}

/* put - one frame of kind @kd */
static int put(const char **f, unsigned char *kind, int n, const char *name, int kd)
{
	f[n] = name;
	kind[n] = (unsigned char)kd;
	return n + 1;
}

/*
 * offcpu_chain_view - the @n links at @link named into @v, and their folded frames
 * after the victim's into @f and @kind: "--", then each link's comm, user frames and
 * kernel frames from the root, its mark. Returns the frames' number.
 */
int offcpu_chain_view(struct offcpu *o, const uint64_t *link, int n,
		      struct offcpu_chain_view *v, const char **f, unsigned char *kind)
{
	int i, j, nf = 0;

	v->n = n < OFFCPU_CHAIN_MAX + 2 ? n : OFFCPU_CHAIN_MAX + 2;
	for (i = 0; i < v->n; i++) {
		const struct offcpu_side *s = &v->l[i];

		link_of(o, link + i * CL_LEN, v, i);
		nf = put(f, kind, nf, "--", FT_FRAME_META);
		if (s->comm)
			nf = put(f, kind, nf, s->comm, FT_FRAME_META);
		for (j = s->nu - 1; j >= 0; j--)
			nf = put(f, kind, nf, s->u[j], FT_FRAME_USER);
		if (o->delimited && s->nu && s->nk)
			nf = put(f, kind, nf, "-", FT_FRAME_META);
		for (j = s->nk - 1; j >= 0; j--)
			nf = put(f, kind, nf, s->k[j], FT_FRAME_KERNEL);
		if (v->mark[i])
			nf = put(f, kind, nf, v->mark[i], FT_FRAME_META);
	}
	return nf;
}

/* offcpu_chain_json - a row's links: what each is, its thread, its stacks, its mark */
void offcpu_chain_json(struct ft_json *j, const struct offcpu_chain_view *v)
{
	int i;

	ft_json_arr_begin(j, "chain");
	for (i = 0; i < v->n; i++) {
		const struct offcpu_side *s = &v->l[i];

		ft_json_obj_begin(j, NULL);
		ft_json_str(j, "what", v->what[i]);
		if (s->comm) {
			ft_json_i64(j, "tid", s->tid);
			ft_json_i64(j, "pid", s->tgid);
			ft_json_str(j, "comm", s->comm);
			ft_json_strs(j, "kernel", s->k, s->nk);
			ft_json_strs(j, "user", s->u, s->nu);
		}
		if (v->mark[i])
			ft_json_str(j, "mark", v->mark[i]);
		ft_json_obj_end(j);
	}
	ft_json_arr_end(j);
}

/* offcpu_chain_print_notes - what the chain could not name, in ms */
void offcpu_chain_print_notes(struct offcpu *o, FILE *f)
{
	const struct offcpu_chain_notes *n = offcpu_chain_notes(o);
	int i;

	fprintf(f, "offcpu --chain: %llu periods explained, %d wakers deep; %llu on-CPU samples%s",
		n->periods, o->chain_depth, n->samples,
		o->chain_sampled ? "" : " (none taken: running links without stacks)");
	if (n->unsampled_ns)
		fprintf(f, "; %.3f ms running without a sample in it ([running])",
			n->unsampled_ns / 1e6);
	for (i = 0; i < OFFCPU_CHAIN_NREASONS; i++)
		if (n->unknown_ns[i])
			fprintf(f, "; %.3f ms %s", n->unknown_ns[i] / 1e6, unknown_mark[i]);
	fputc('\n', f);
}

/* offcpu_chain_notes_json - the same as JSON fields */
void offcpu_chain_notes_json(struct offcpu *o, struct ft_json *j)
{
	static const char *const key[OFFCPU_CHAIN_NREASONS] = {
		"lost", "before_history", "not_followed", "no_record", "wakeup_not_seen",
	};
	const struct offcpu_chain_notes *n = offcpu_chain_notes(o);
	int i;

	ft_json_obj_begin(j, "chain");
	ft_json_u64(j, "periods", n->periods);
	ft_json_i64(j, "depth", o->chain_depth);
	ft_json_u64(j, "samples", n->samples);
	ft_json_u64(j, "running_unsampled_ns", n->unsampled_ns);
	ft_json_obj_begin(j, "unknown_ns");
	for (i = 0; i < OFFCPU_CHAIN_NREASONS; i++)
		ft_json_u64(j, key[i], n->unknown_ns[i]);
	ft_json_obj_end(j);
	ft_json_obj_end(j);
}
