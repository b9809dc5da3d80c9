// SPDX-License-Identifier: GPL-2.0
/*
 * --pprof FILE for offcpu and profile: the final report's stacks as a pprof
 * profile (output/pprof.c). Each key of the report is one sample, its locations
 * leaf first as profile.proto wants them: the kernel frames innermost first, then
 * the user frames innermost first, so that a pprof flame graph is the folded
 * line's (comm;user...;kernel...) without its comm, which is a label. Kernel
 * frames are in the [kernel.kallsyms] mapping, user frames in their process's
 * mapping of the file (with the file's GNU build ID); a frame no symbol covers
 * ("FILE+0xADDR" in folded lines) keeps its address and has no function. Samples of
 * two keys with the same locations and labels are one (output/pprof.c). Frames that
 * stand for no code (profile --offcpu's [off-cpu] leaf, --wakers' "--" and the waker's comm) are
 * functions without a mapping, at address 0.
 */
#include <errno.h>
#include <string.h>
#include <time.h>

#include "analyzers/offcpu_int.h"
#include "lib/util.h"

static const char kernel_file[] = "[kernel.kallsyms]";
static const char unknown[] = "[unknown]";

/* wall_ns - CLOCK_REALTIME in ns: the profile's time_nanos */
static int64_t wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/*
 * offcpu_pprof_open - open --pprof's file at init, before tracing starts, so that an
 * unwritable path fails first (nothing set: nothing to do). Returns 0, or -1 after
 * one error line.
 */
int offcpu_pprof_open(struct offcpu *o)
{
	if (!o->pprof.path)
		return 0;
	if (ft_outfile_open(&o->pprof.out, o->pprof.path)) {
		ft_err("cannot write %s: %s", o->pprof.path, strerror(errno));
		return -1;
	}
	o->pprof.t0 = wall_ns();
	return 0;
}

/* kernel_map - the kernel's mapping: from its first symbol to the top of memory */
static uint64_t kernel_map(struct offcpu *o)
{
	const struct ft_symtab *st = &o->ksyms.st;
	char bid[2 * 64 + 1] = "";

	if (o->env->live)
		ft_kernel_build_id(bid, sizeof(bid));
	return ft_pprof_mapping(o->pprof.pp, st->n ? st->sym[0].addr : 0, UINT64_MAX, 0,
				kernel_file, bid);
}

/**
 * offcpu_pprof_begin - a profile for the final report (no --pprof: nothing), with
 * @ntypes sample types (type, unit), the one pprof shows by default (@dflt), and
 * what one sample stands for
 * Returns 0, or -1 after one error line (the path is then left as it was).
 */
int offcpu_pprof_begin(struct offcpu *o, const char *const (*type)[2], int ntypes, int dflt,
		       const char *const *period_type, int64_t period)
{
	struct ft_pprof *pp;
	int i, err = 0;

	if (!o->pprof.out.f)
		return 0;
	pp = o->pprof.pp = ft_pprof_new();
	for (i = 0; pp && i < ntypes; i++)
		err |= ft_pprof_sample_type(pp, type[i][0], type[i][1]);
	if (pp && dflt < ntypes)
		err |= ft_pprof_default_type(pp, type[dflt][0]);
	if (pp && period_type)
		err |= ft_pprof_period(pp, period_type[0], period_type[1], period);
	if (pp && o->env->live)
		ft_pprof_time(pp, o->pprof.t0, wall_ns() - o->pprof.t0);
	o->pprof.kmap = 0;	/* made with the first kernel frame */
	if (pp && !err)
		return 0;
	ft_err("cannot write %s: out of memory", o->pprof.path);
	offcpu_pprof_abandon(o);
	return -1;
}

/* meta - a frame that stands for no code: a function without a mapping */
static uint64_t meta(struct offcpu *o, const char *name)
{
	return ft_pprof_location(o->pprof.pp, 0, 0, name, name, NULL);
}

/*
 * user_loc - the location of user frame @fr of process @tgid, named by its symbol: in the
 * process's mapping of its file (anonymous memory: "//anon", as perf names it). A
 * frame whose mapping the process's maps hold no more (it unmapped the file since)
 * has no mapping, and its offset in the file for an address.
 */
static uint64_t user_loc(struct offcpu *o, int tgid, uint64_t fr, bool leaf)
{
	uint64_t off = FT_UFRAME_OFF(fr), addr = off, map = 0;
	const char *fn = ft_usyms_symbol(&o->usyms, tgid, fr);
	struct ft_umap m;

	if (!ft_usyms_map_of(&o->usyms, tgid, fr, &m)) {
		const char *path = ft_usyms_path(&o->usyms, fr);

		if (m.file)
			addr = m.start + off - m.pgoff;
		map = ft_pprof_mapping(o->pprof.pp, m.start, m.end, m.file ? m.pgoff : 0,
				       path ? path : "//anon", ft_usyms_build_id(&o->usyms, fr));
	}
	/* ft_usyms_frames keeps a return address minus one (the call): the address the
	   walk saw is one more */
	return ft_pprof_location(o->pprof.pp, map, leaf ? addr : addr + 1, fn, fn, NULL);
}

/* side_locs - a thread's frames leaf first (kernel, then user) into @loc; their number */
static int side_locs(struct offcpu *o, const struct offcpu_side *s, uint64_t *loc)
{
	int i, n = 0;

	if (s->nk && !o->pprof.kmap)
		o->pprof.kmap = kernel_map(o);
	for (i = 0; i < s->nk; i++) {
		const char *fn = strcmp(s->k[i], unknown) ? s->k[i] : NULL;

		loc[n++] = ft_pprof_location(o->pprof.pp, o->pprof.kmap, s->ka[i], fn, fn, NULL);
	}
	for (i = 0; i < s->nu; i++)
		loc[n++] = user_loc(o, s->tgid, s->uf[i], !i);
	return n;
}

/*
 * waker_locs - --wakers: the waker's side as the folded line puts it over the
 * blocked stack (offwaketime's flame graph), leaf first: its comm, its user frames
 * from the root, its kernel frames from the root, then "--"
 */
static int waker_locs(struct offcpu *o, const struct offcpu_side *w, uint64_t *loc)
{
	uint64_t side[2 * OFFCPU_MAX_FRAMES];
	int i, n = 0, ns = side_locs(o, w, side);

	loc[n++] = meta(o, w->comm);
	for (i = ns - 1; i >= 0; i--)
		loc[n++] = side[i];
	loc[n++] = meta(o, "--");
	return n;
}

/**
 * offcpu_pprof_add - one key as a sample: thread @t's stacks (under @w's, the
 * waker's, when not NULL, and under a @mark leaf when not NULL), its values, and
 * its labels: comm, pid and tid (waker_comm, waker_pid, waker_tid; @state: state;
 * --locks: lock, the type of the lock whose contention it blocked in)
 * Returns 0, or -1 out of memory (the profile then fails at its end).
 */
int offcpu_pprof_add(struct offcpu *o, const struct offcpu_side *t,
		     const struct offcpu_side *w, const char *mark, const char *state,
		     const int64_t *value)
{
	static uint64_t loc[4 * OFFCPU_MAX_FRAMES + 4];
	struct ft_pprof_label lab[8] = {
		{ .key = "comm", .str = t->comm },
		{ .key = "pid", .num = t->tgid },
		{ .key = "tid", .num = t->tid },
	};
	int n = 0, nl = 3;

	if (!o->pprof.pp)
		return 0;
	if (mark)
		loc[n++] = meta(o, mark);
	if (w)
		n += waker_locs(o, w, loc + n);
	n += side_locs(o, t, loc + n);
	if (!n)		/* go tool pprof drops a sample without locations, and its time */
		loc[n++] = meta(o, "[no stack]");
	if (w) {
		lab[nl++] = (struct ft_pprof_label){ .key = "waker_comm", .str = w->comm };
		lab[nl++] = (struct ft_pprof_label){ .key = "waker_pid", .num = w->tgid };
		lab[nl++] = (struct ft_pprof_label){ .key = "waker_tid", .num = w->tid };
	}
	if (state)
		lab[nl++] = (struct ft_pprof_label){ .key = "state", .str = state };
	if (t->lock)
		lab[nl++] = (struct ft_pprof_label){ .key = "lock",
						     .str = offcpu_lock_name(t->lock) };
	return ft_pprof_sample(o->pprof.pp, loc, n, value, lab, nl);
}

/**
 * offcpu_pprof_chain - --chain: one key as a sample, its links over the victim's
 * stacks as the folded line puts them (the last link's mark the leaf), labelled as
 * offcpu_pprof_add's. Returns 0, or -1 out of memory.
 */
int offcpu_pprof_chain(struct offcpu *o, const struct offcpu_side *t,
		       const struct offcpu_chain_view *v, const int64_t *value)
{
	static uint64_t loc[(OFFCPU_CHAIN_MAX + 3) * (2 * OFFCPU_MAX_FRAMES + 3)];
	struct ft_pprof_label lab[4] = {
		{ .key = "comm", .str = t->comm },
		{ .key = "pid", .num = t->tgid },
		{ .key = "tid", .num = t->tid },
		{ .key = "lock", .str = offcpu_lock_name(t->lock) },
	};
	int n = 0, i;

	if (!o->pprof.pp)
		return 0;
	for (i = v->n - 1; i >= 0; i--) {
		if (v->mark[i])
			loc[n++] = meta(o, v->mark[i]);
		n += side_locs(o, &v->l[i], loc + n);
		if (v->l[i].comm)
			loc[n++] = meta(o, v->l[i].comm);
		loc[n++] = meta(o, "--");
	}
	n += side_locs(o, t, loc + n);
	return ft_pprof_sample(o->pprof.pp, loc, n, value, lab, t->lock ? 4 : 3);
}

/* offcpu_pprof_finish - write the profile into the file and put it in place; 0, or -1 after one line */
int offcpu_pprof_finish(struct offcpu *o)
{
	int ret = 0;

	if (!o->pprof.pp)
		return 0;
	if (ft_pprof_finish(o->pprof.pp, &o->pprof.out)) {
		ft_err("cannot write %s: %s", o->pprof.path, strerror(errno));
		ret = -1;
	}
	ft_pprof_free(o->pprof.pp);
	o->pprof.pp = NULL;
	return ret;
}

/* offcpu_pprof_abandon - an unfinished profile: its file closed, the path left as it was */
void offcpu_pprof_abandon(struct offcpu *o)
{
	ft_outfile_abandon(&o->pprof.out);
	ft_pprof_free(o->pprof.pp);
	o->pprof.pp = NULL;
}
