// SPDX-License-Identifier: GPL-2.0
/*
 * hist's stack keys, --key kstack and ustack (alone or with other fields): BCC's
 * stackcount and bpftrace's @[kstack] on any tracepoint. ftrace writes a record's
 * stacks right after it on its CPU (the instance's stacktrace and userstacktrace
 * options: the kernel stack, then the user stack), so a record that passed the filter
 * waits on its CPU and is counted when its stacks have come, or when the CPU's next
 * record shows they will not (lost, or none written). The report merges keys that
 * print the same (two call sites in one function, two processes of one program) and
 * prints stackcount's layout, folded lines (-f) or a flame graph (--svg).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analyzers/hist_int.h"
#include "analyzers/stack_merge.h"
#include "analyzers/stack_syms.h"
#include "events/tasks.h"
#include "lib/util.h"
#include "output/flame.h"
#include "output/json.h"

#define MAX_FRAMES	256			/* per stack, as ftrace's records */
#define MAX_FOLDED	(HIST_KEYS + 2 * MAX_FRAMES)

/* hist_stack_slot - @name is a stack key: its source in @src, and stacks asked for */
bool hist_stack_slot(struct hist *h, const char *name, int *src)
{
	if (!strcmp(name, "kstack")) {
		*src = SRC_KSTACK;
		h->st.kernel = true;
	} else if (!strcmp(name, "ustack")) {
		*src = SRC_USTACK;
		h->st.user = true;
	} else {
		return false;
	}
	h->st.on = true;
	return true;
}

/* is_stack - slot @i is a stack */
static bool is_stack(const struct hist *h, int i)
{
	return h->slot[i].src == SRC_KSTACK || h->slot[i].src == SRC_USTACK;
}

/* hist_stack_check - stacks are keys only; -f and --svg print stacks. 0, or -1 after a line */
int hist_stack_check(struct hist *h)
{
	int i;

	if (h->val_slot >= 0 && is_stack(h, h->val_slot)) {
		ft_err("--value %s: a stack is a key, not a number", h->value);
		return -1;
	}
	for (i = 0; i < h->flt.nnames; i++)
		if (!strcmp(h->flt.names[i], "kstack") || !strcmp(h->flt.names[i], "ustack")) {
			ft_err("bad --filter '%s': %s is a stack, a key only", h->filter_text,
			       h->flt.names[i]);
			return -1;
		}
	if ((h->st.folded || h->st.svg_path) && !h->st.on) {
		ft_err("%s prints stacks: add --key kstack or --key ustack",
		       h->st.folded ? "-f" : "--svg");
		return -1;
	}
	return 0;
}

/* hist_stack_init - the per-CPU waits, the stack tables, the --svg file; 0 or -1 */
int hist_stack_init(struct hist *h)
{
	struct hist_stacks *st = &h->st;

	if (!st->on)
		return 0;
	st->cpu = calloc(h->env->ncpus, sizeof(*st->cpu));
	if (!st->cpu || ft_intern_init(&st->kst) || ft_intern_init(&st->ust) ||
	    ft_usyms_for(&st->usyms, h->env)) {
		ft_err("out of memory");
		return -1;
	}
	if (st->svg_path && ft_outfile_open(&st->svg, st->svg_path)) {
		ft_err("cannot write %s: %s", st->svg_path, strerror(errno));
		return -1;
	}
	return 0;
}

/* done - record @p's wait is over: counted, when hist counts it, with the stacks it got */
static void done(struct hist *h, const struct hist_pend *p)
{
	if (!p->counted)
		return;
	h->st.no_kstack += p->kpos >= 0 && !p->w[p->kpos];
	h->st.no_ustack += p->upos >= 0 && !(uint32_t)p->w[p->upos];
	hist_count_words(h, p->w, p->n, p->val);
}

/* pop - the innermost record waiting on CPU @c is over */
static void pop(struct hist *h, struct hist_cpu *c)
{
	done(h, &c->e[--c->depth]);
}

/* push - a record on CPU @c waits for its stacks (the outermost counted if too deep) */
static void push(struct hist *h, struct hist_cpu *c)
{
	struct hist_pend first;

	/* one waiting for a user stack a trace without them will not give (a file
	   holds their format, not their records) */
	if (c->depth && c->e[c->depth - 1].kdone && !h->st.ustack_seen)
		pop(h, c);
	if (c->depth == HIST_NEST) {
		first = c->e[0];
		memmove(c->e, c->e + 1, (HIST_NEST - 1) * sizeof(c->e[0]));
		c->depth--;
		done(h, &first);
	}
	c->e[c->depth].counted = false;
	c->e[c->depth].kdone = false;
	c->depth++;
}

/*
 * hist_stack_hold - record @ev, the innermost waiting on its CPU, is counted once its
 * stacks have come: its key's words @w (key slot i at word @pos[i]), its value @x
 */
void hist_stack_hold(struct hist *h, const struct ft_event *ev, const uint64_t *w, uint32_t n,
		     const int *pos, int64_t x)
{
	struct hist_cpu *c;
	struct hist_pend *p;
	int i;

	if (ev->cpu < 0 || ev->cpu >= h->env->ncpus || !h->st.cpu[ev->cpu].depth)
		return;		/* (not reached: hist_stack_event pushed it) */
	c = &h->st.cpu[ev->cpu];
	p = &c->e[c->depth - 1];
	memcpy(p->w, w, n * sizeof(*w));
	p->n = n;
	p->val = x;
	p->pid = ev->common_pid;
	p->kpos = p->upos = -1;
	for (i = 0; i < h->nkeys; i++)
		if (h->slot[h->key_slot[i]].src == SRC_KSTACK)
			p->kpos = pos[i];
		else if (h->slot[h->key_slot[i]].src == SRC_USTACK)
			p->upos = pos[i];
	p->counted = true;
}

/* user_stack - the user stack @ev into the key waiting in @p */
static void user_stack(struct hist *h, struct hist_pend *p, const struct ft_event *ev)
{
	struct hist_stacks *st = &h->st;
	struct ft_ustack_seen seen;
	int tgid = ev->stack.tgid ? ev->stack.tgid : ft_tasks_tgid(h->env->tasks, p->pid);
	long id;

	if (tgid <= 0)
		tgid = p->pid;
	id = ft_ustack_put(&st->usyms, &st->ust, tgid, &ev->stack, &seen);
	st->ust_early += seen.early;
	st->ust_full += seen.full;
	st->ust_unmapped += seen.unmapped;
	p->w[p->upos] = HIST_USTACK(tgid, id > 0 ? id : 0);
}

/* kernel_stack - the kernel stack @ev to the innermost record waiting on CPU @c */
static void kernel_stack(struct hist *h, struct hist_cpu *c, const struct ft_event *ev)
{
	struct hist_pend *p;
	long id;

	/* one that has its kernel stack waits for a user stack that did not come (an NMI's) */
	while (c->depth && c->e[c->depth - 1].kdone)
		pop(h, c);
	if (!c->depth)
		return;
	p = &c->e[c->depth - 1];
	p->kdone = true;
	if (p->counted && p->kpos >= 0) {
		id = ft_kstack_put(&h->st.kst, &ev->stack);
		p->w[p->kpos] = id > 0 ? (uint64_t)id : 0;
	}
	if (!(h->env->have & FT_NEED(FT_EV_USTACK)))
		pop(h, c);
}

/*
 * hist_stack_event - a stack goes to the innermost record waiting on its CPU, whose
 * last it may be (the user stack comes after the kernel's): true. Any other record of
 * the kernel's waits for its own: false, for the caller.
 */
bool hist_stack_event(struct hist *h, const struct ft_event *ev)
{
	struct hist_cpu *c;

	if (ev->cpu < 0 || ev->cpu >= h->env->ncpus)
		return false;
	c = &h->st.cpu[ev->cpu];
	switch (ev->type) {
	case FT_EV_KSTACK:
		kernel_stack(h, c, ev);
		return true;
	case FT_EV_USTACK:
		h->st.ustack_seen = true;
		if (c->depth) {
			if (c->e[c->depth - 1].counted && c->e[c->depth - 1].upos >= 0)
				user_stack(h, &c->e[c->depth - 1], ev);
			pop(h, c);
		}
		return true;
	case FT_EV_LOST:
		while (c->depth)	/* their stacks may be among the lost */
			pop(h, c);
		return false;
	case FT_EV_SWITCH:
		if (ev->sw.synth)
			return false;	/* rebuilt: no record, no stacks */
		/* fall through */
	default:
		push(h, c);
		return false;
	}
}

/* hist_stack_flush - the records still waiting, counted with what they have */
void hist_stack_flush(struct hist *h)
{
	int i;

	for (i = 0; h->st.cpu && i < h->env->ncpus; i++)
		while (h->st.cpu[i].depth)
			pop(h, &h->st.cpu[i]);
}

/* One key as printed: its other fields, its stacks, and its folded frames. */
struct view {
	struct kpart	p[HIST_KEYS];
	char		txt[HIST_KEYS][HIST_STR_MAX + 1];
	const char	*k[MAX_FRAMES], *u[MAX_FRAMES];
	uint64_t	addr[MAX_FRAMES];
	int		nk, nu;
	const char	*f[MAX_FOLDED];
	unsigned char	kind[MAX_FOLDED];
	int		nf;
};

/* view_of - key @id named into @v: folded order is the other fields, user, kernel; roots first */
static void view_of(struct hist *h, uint32_t id, struct view *v)
{
	struct kpart *p = v->p;
	int i, j;

	hist_key_parts(h, id, p);
	v->nk = v->nu = v->nf = 0;
	for (i = 0; i < h->nkeys; i++) {
		int src = h->slot[h->key_slot[i]].src;

		if (src == SRC_KSTACK) {
			v->nk = ft_kstack_names(&h->st.ksyms, &h->st.kst, (uint32_t)p[i].num, true,
						v->k, v->addr, MAX_FRAMES);
			if (!v->nk)
				v->k[v->nk++] = "[no kernel stack]";
		} else if (src == SRC_USTACK) {
			v->nu = ft_ustack_names(&h->st.usyms, &h->st.ust, (int)(p[i].num >> 32),
						(uint32_t)p[i].num, v->u, v->addr, MAX_FRAMES);
			if (!v->nu)
				v->u[v->nu++] = "[no user stack]";
		} else {
			if (p[i].is_str)
				snprintf(v->txt[i], sizeof(v->txt[i]), "%.*s", p[i].len, p[i].s);
			else
				hist_key_num(h, i, p[i].num, v->txt[i], sizeof(v->txt[i]));
			v->kind[v->nf] = FT_FRAME_META;
			v->f[v->nf++] = v->txt[i];
		}
	}
	for (j = v->nu - 1; j >= 0; j--, v->nf++) {
		v->kind[v->nf] = FT_FRAME_USER;
		v->f[v->nf] = v->u[j];
	}
	for (j = v->nk - 1; j >= 0; j--, v->nf++) {
		v->kind[v->nf] = FT_FRAME_KERNEL;
		v->f[v->nf] = v->k[j];
	}
}

/* add_to - key totals @e added into row @r */
static void add_to(struct hent *r, const struct hent *e)
{
	if (!r->count || e->min < r->min)
		r->min = e->min;
	if (!r->count || e->max > r->max)
		r->max = e->max;
	r->count += e->count;
	r->sum += e->sum;
	r->neg += e->neg;
	ft_hist_merge(&r->h, &e->h);
}

/* The rows of one report: keys merged by their folded frames. */
struct rows {
	struct ft_smerge	m;
	struct hent		*ent;		/* per row */
	uint32_t		*order, n;
};

/* merge - every key into the rows of @r, each row's totals summed; 0, or -1 ENOMEM */
static int merge(struct hist *h, struct rows *r)
{
	static struct view v;
	uint32_t id;
	long row;

	if (ft_smerge_init(&r->m))
		return -1;
	r->ent = calloc(h->in.n + 1, sizeof(*r->ent));
	r->order = malloc((h->in.n + 1) * sizeof(*r->order));
	if (!r->ent || !r->order)
		return -1;
	for (id = 0; id < h->in.n; id++) {
		if (!h->ent[id].count)
			continue;
		view_of(h, id, &v);
		row = ft_smerge_add(&r->m, NULL, 0, v.f, v.nf, id, h->ent[id].count, 0);
		if (row < 0)
			return -1;
		add_to(&r->ent[row], &h->ent[id]);
	}
	for (r->n = 0; r->n < r->m.rows.n; r->n++)
		r->order[r->n] = r->n;
	qsort_r(r->order, r->n, sizeof(*r->order), hist_by_count, r->ent);
	return 0;
}

/* print_row - stackcount's layout: kernel frames, --, user frames, the other fields, count */
static void print_row(struct hist *h, FILE *f, const struct view *v, const struct hent *e)
{
	bool line = false;
	int i;

	ft_stack_print(f, v->k, v->nk, v->u, v->nu);
	for (i = 0; i < h->nkeys; i++) {
		if (is_stack(h, h->key_slot[i]))
			continue;
		fprintf(f, "%s%s=%s", line ? " " : "    ", h->keys[i], v->txt[i]);
		line = true;
	}
	if (line)
		fputc('\n', f);
	if (h->value)
		hist_print_value(h, f, e);
	else
		fprintf(f, "        %llu\n", (unsigned long long)e->count);
	fputc('\n', f);
}

/* json_row - one row: its key (other fields, then the stacks, innermost first) and totals */
static void json_row(struct hist *h, struct ft_json *j, const struct view *v, const struct hent *e)
{
	int i;

	ft_json_obj_begin(j, NULL);
	ft_json_obj_begin(j, "key");
	for (i = 0; i < h->nkeys; i++) {
		int src = h->slot[h->key_slot[i]].src;
		const char *const *fr = src == SRC_KSTACK ? v->k : v->u;
		int n = src == SRC_KSTACK ? v->nk : v->nu, k;

		if (src != SRC_KSTACK && src != SRC_USTACK) {
			hist_json_key(h, j, i, &v->p[i]);
			continue;
		}
		ft_json_arr_begin(j, h->keys[i]);
		for (k = 0; k < n; k++)
			ft_json_str(j, NULL, fr[k]);
		ft_json_arr_end(j);
	}
	ft_json_obj_end(j);
	ft_json_u64(j, "count", e->count);
	if (h->value)
		hist_json_value(e, j);
	ft_json_obj_end(j);
}

/* print_notes - the records that came without the stacks their key asked for */
static void print_notes(struct hist *h, FILE *f)
{
	const struct hist_stacks *st = &h->st;

	if (st->no_kstack)
		fprintf(f, "hist: %llu records came without their kernel stack (lost, or the "
			"kernel wrote none)\n", (unsigned long long)st->no_kstack);
	if (st->no_ustack)
		fprintf(f, "hist: %llu records came without a user stack (kernel threads have "
			"none)\n", (unsigned long long)st->no_ustack);
	if (st->ust_early || st->ust_full || st->ust_unmapped)
		fprintf(f, "hist: user stacks by frame-pointer walk: %llu cut at code without frame "
			"pointers, %llu at the kernel's 8 entries, %llu of processes whose maps "
			"were never read\n", (unsigned long long)st->ust_early,
			(unsigned long long)st->ust_full, (unsigned long long)st->ust_unmapped);
}

/* write_svg - the rows as a flame graph into --svg's file; 0 or -1 after a line */
static int write_svg(struct hist *h, struct rows *r, uint32_t n)
{
	static struct view v;
	struct ft_flame_opts fo = { .title = "Stack Count Flame Graph", .countname = "records",
				    .subtitle = h->event, .palette = FT_PALETTE_HOT };
	struct ft_flame *fg = ft_flame_new(false);
	uint32_t i;

	for (i = 0; fg && i < n; i++) {
		view_of(h, r->m.first[r->order[i]], &v);
		ft_flame_add(fg, v.f, v.kind, v.nf, 0, (double)r->ent[r->order[i]].count);
	}
	if (fg && !ft_flame_finish(fg, &h->st.svg, &fo)) {
		ft_flame_free(fg);
		return 0;
	}
	ft_err("cannot write %s: %s", h->st.svg_path, fg ? strerror(errno) : "out of memory");
	ft_flame_free(fg);
	return -1;
}

/* hist_stack_report - the rows, most records first: stackcount's layout, -f, JSON, --svg */
void hist_stack_report(struct hist *h, struct ft_report *rep)
{
	static struct view v;
	struct rows r = { 0 };
	uint32_t i, n;
	FILE *f = rep->f;
	int k;

	if (rep->final)
		hist_stack_flush(h);
	if (h->st.kernel)
		ft_ksyms_need(&h->st.ksyms, h->env->kallsyms);
	if (merge(h, &r)) {
		ft_err("out of memory");
		rep->failed = true;
		goto out;
	}
	n = h->top && r.n > (uint32_t)h->top ? (uint32_t)h->top : r.n;
	if (rep->json) {
		hist_json_head(h, rep->json);
		ft_json_u64(rep->json, "records_without_kernel_stack", h->st.no_kstack);
		ft_json_u64(rep->json, "records_without_user_stack", h->st.no_ustack);
		ft_json_u64(rep->json, "user_stacks_cut_early", h->st.ust_early);
		ft_json_u64(rep->json, "user_stacks_full", h->st.ust_full);
		ft_json_u64(rep->json, "user_stacks_unmapped", h->st.ust_unmapped);
		ft_json_arr_begin(rep->json, "rows");
	}
	if (h->st.folded && !rep->json) {
		rep->footer = stderr;	/* the output stays pure folded stacks */
		f = stderr;
	}
	for (i = 0; i < n; i++) {
		const struct hent *e = &r.ent[r.order[i]];

		view_of(h, r.m.first[r.order[i]], &v);
		if (rep->json) {
			json_row(h, rep->json, &v, e);
		} else if (h->st.folded) {
			for (k = 0; k < v.nf; k++)
				fprintf(rep->f, "%s%s", k ? ";" : "", v.f[k]);
			fprintf(rep->f, " %llu\n", (unsigned long long)e->count);
		} else {
			print_row(h, f, &v, e);
		}
	}
	if (rep->json) {
		ft_json_arr_end(rep->json);
	} else {
		hist_print_totals(h, f, n, r.n);
		print_notes(h, f);
	}
	if (h->st.svg.f && rep->final && write_svg(h, &r, r.n))
		rep->failed = true;
out:
	for (i = 0; r.ent && i < r.m.rows.n; i++)
		ft_hist_fini(&r.ent[i].h);
	ft_smerge_fini(&r.m);
	free(r.ent);
	free(r.order);
}

/*
 * hist_stack_reset - the next interval's notes and stack tables, emptied with hist's
 * keys that named their stacks; a record still waiting for its user stack takes its
 * kernel stack along (a user stack is the last: none waits with one)
 */
void hist_stack_reset(struct hist *h)
{
	struct hist_stacks *st = &h->st;
	struct ft_intern kst = { 0 }, ust = { 0 };
	struct hist_pend *p;
	const uint64_t *ip;
	uint32_t n;
	long id;
	int i, k;

	if (!st->on)
		return;
	st->no_kstack = st->no_ustack = st->ust_early = st->ust_full = st->ust_unmapped = 0;
	if (ft_intern_init(&kst) || ft_intern_init(&ust)) {
		ft_intern_fini(&kst);	/* the old tables stay */
		ft_intern_fini(&ust);
		ft_err("out of memory");
		return;
	}
	for (i = 0; i < h->env->ncpus; i++)
		for (k = 0; k < st->cpu[i].depth; k++) {
			p = &st->cpu[i].e[k];
			if (!p->counted || p->kpos < 0 || !p->w[p->kpos])
				continue;
			ip = ft_intern_get(&st->kst, (uint32_t)p->w[p->kpos] - 1, &n);
			id = ft_intern_put(&kst, ip, n);
			p->w[p->kpos] = id < 0 ? 0 : (uint64_t)id + 1;
		}
	ft_intern_fini(&st->kst);
	ft_intern_fini(&st->ust);
	st->kst = kst;
	st->ust = ust;
}

/* hist_stack_fini - the stack tables, symbols and waits; an unwritten --svg file removed */
void hist_stack_fini(struct hist *h)
{
	struct hist_stacks *st = &h->st;

	if (!st->on)
		return;
	ft_outfile_abandon(&st->svg);
	free(st->cpu);
	st->cpu = NULL;
	ft_intern_fini(&st->kst);
	ft_intern_fini(&st->ust);
	ft_ksyms_fini(&st->ksyms);
	ft_usyms_fini(&st->usyms);
}
