// SPDX-License-Identifier: GPL-2.0
/*
 * User stacks from a sample's registers and stack copy (events/unwind.h). Each
 * binary's call frame information becomes a table once (events/cfi.c), kept in the
 * unwinder by the file's device, inode and mtime (one table for every path that names
 * the file: /proc/PID/root/... of many processes); a path is looked at again at most
 * once a second. A frame then costs a binary search and a few loads from the copy.
 * Per frame: CFI where the binary covers the address; where it does not, the frame
 * pointer if the chain is sound; else the walk ends and says why.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "events/cfi.h"
#include "events/unwind.h"

#define RECHECK_NS	1000000000ULL	/* a kept table's file is looked at again after this */
#define PATHS_MIN	1024		/* paths kept before any is let go */
#define STALE_WALKS	16384		/* a path unused for this many walks is let go */
#define END(why)	(0x100 | (why))	/* a step's return: the walk ends (0: it goes on) */

/* One file's table, shared by every path that names the file (device, inode, mtime). */
struct utab {
	dev_t		dev;
	ino_t		ino;
	struct timespec	mtime;
	int		refs;
	bool		ok;		/* a table (else unreadable, not ELF) */
	struct ft_cfi	t;
	struct utab	*next;
};

/* One path as the sampler names it, the file it named when last looked at. */
struct ubin {
	char		*path;
	uint32_t	hash;
	uint64_t	checked;
	uint64_t	used;		/* the last walk that named it */
	struct utab	*file;
};

struct ft_unwinder {
	struct ubin	**tab;		/* open addressing by path hash */
	size_t		cap, n;
	struct ubin	*last;
	struct utab	*files;
	uint64_t	now;		/* the coarse clock at this walk's start */
	uint64_t	walks;
	size_t		sweep_at;	/* paths at which stale ones are let go */
};

/* The registers a walk knows at one frame. */
struct frame {
	uint64_t	r[FT_UREG_N];
	uint32_t	known;
	bool		exact;		/* the pc is not a return address (first frame, signal) */
};

/* ft_unwinder_new - an unwinder with no tables yet; NULL out of memory */
struct ft_unwinder *ft_unwinder_new(void)
{
	return calloc(1, sizeof(struct ft_unwinder));
}

/* release - a path's hold on its file's table, freed with the last */
static void release(struct ft_unwinder *u, struct utab *t)
{
	struct utab **p;

	if (!t || --t->refs)
		return;
	for (p = &u->files; *p != t; p = &(*p)->next)
		;
	*p = t->next;
	ft_cfi_free(&t->t);
	free(t);
}

/* ft_unwinder_free - every table and the unwinder */
void ft_unwinder_free(struct ft_unwinder *u)
{
	size_t i;

	if (!u)
		return;
	for (i = 0; i < u->cap; i++) {
		if (!u->tab[i])
			continue;
		release(u, u->tab[i]->file);
		free(u->tab[i]->path);
		free(u->tab[i]);
	}
	free(u->tab);
	free(u);
}

/* ft_unwinder_stats - what the unwinder keeps: paths, files, tables' rows and bytes */
void ft_unwinder_stats(const struct ft_unwinder *u, struct ft_unwinder_stats *s)
{
	const struct utab *t;

	memset(s, 0, sizeof(*s));
	s->paths = u->n;
	for (t = u->files; t; t = t->next) {
		s->files++;
		s->no_table += !t->ok;
		s->rows += t->t.n;
		s->damaged += t->t.damaged;
		s->bytes += t->t.cap * sizeof(*t->t.row);
	}
}

/**
 * ft_unwinder_damaged - each file whose call frame information could not be read whole
 * (CIEs and FDEs refused: walks through their code stop there), to @fn with a path
 * that names it (one still kept) and how many entries were refused
 */
void ft_unwinder_damaged(const struct ft_unwinder *u,
			 void (*fn)(void *ctx, const char *path, unsigned int n), void *ctx)
{
	const struct utab *t;
	size_t i;

	for (t = u ? u->files : NULL; t; t = t->next) {
		if (!t->ok || !t->t.damaged)
			continue;
		for (i = 0; i < u->cap; i++)
			if (u->tab[i] && u->tab[i]->file == t)
				break;
		if (i < u->cap)
			fn(ctx, u->tab[i]->path, t->t.damaged);
	}
}

/* path_hash - FNV-1a of a path */
static uint32_t path_hash(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

/* same_file - whether @t was built from the file @sb describes */
static bool same_file(const struct utab *t, const struct stat *sb)
{
	return sb->st_dev == t->dev && sb->st_ino == t->ino &&
	       sb->st_mtim.tv_sec == t->mtime.tv_sec && sb->st_mtim.tv_nsec == t->mtime.tv_nsec;
}

/* vdso_load - the table of the vDSO, from this process's image; true if it has one */
static bool vdso_load(struct ft_cfi *t)
{
	size_t size;
	const void *image = ft_vdso(&size);

	return image && !ft_cfi_load_mem(t, image, size);
}

/* ubin_load - @b's file again: the same table, another path's, or one built now */
static void ubin_load(struct ft_unwinder *u, struct ubin *b)
{
	bool vdso = !strcmp(b->path, "[vdso]");	/* the kernel's: the same in every process */
	struct utab *t;
	struct stat sb;

	b->checked = u->now;
	memset(&sb, 0, sizeof(sb));		/* the vDSO: device 0, inode 0 */
	if (!vdso && stat(b->path, &sb)) {
		release(u, b->file);
		b->file = NULL;
		return;
	}
	if (b->file && same_file(b->file, &sb))
		return;
	for (t = u->files; t && !same_file(t, &sb); t = t->next)
		;
	if (!t) {
		t = calloc(1, sizeof(*t));
		if (!t)
			return;
		t->dev = sb.st_dev;
		t->ino = sb.st_ino;
		t->mtime = sb.st_mtim;
		t->ok = vdso ? vdso_load(&t->t) : !ft_cfi_load(&t->t, b->path, 0);
		t->next = u->files;
		u->files = t;
	}
	t->refs++;
	release(u, b->file);
	b->file = t;
}

/* rehash - @cap slots, every path kept placed again; false out of memory */
static bool rehash(struct ft_unwinder *u, size_t cap)
{
	struct ubin **tab = calloc(cap, sizeof(*tab));
	size_t i, j;

	if (!tab)
		return false;
	for (i = 0; i < u->cap; i++) {
		if (!u->tab[i])
			continue;
		for (j = u->tab[i]->hash & (cap - 1); tab[j]; j = (j + 1) & (cap - 1))
			;
		tab[j] = u->tab[i];
	}
	free(u->tab);
	u->tab = tab;
	u->cap = cap;
	return true;
}

/*
 * sweep - let go of the paths no walk named in the last STALE_WALKS (processes gone, under
 * /proc/PID/root), their tables with the last path; next sweep at twice what is left
 */
static void sweep(struct ft_unwinder *u)
{
	size_t i;

	for (i = 0; i < u->cap; i++) {
		struct ubin *b = u->tab[i];

		if (!b || b->used + STALE_WALKS >= u->walks)
			continue;
		release(u, b->file);
		free(b->path);
		free(b);
		u->tab[i] = NULL;
		u->n--;
	}
	u->last = NULL;
	u->sweep_at = 2 * u->n > PATHS_MIN ? 2 * u->n : PATHS_MIN;
	rehash(u, u->cap);
}

/* bin_of - the table of the file at @path, built on first use; NULL when it has none */
static const struct ft_cfi *bin_of(struct ft_unwinder *u, const char *path)
{
	struct ubin *b = u->last;
	uint32_t h;
	size_t i;

	if (!b || strcmp(b->path, path)) {
		h = path_hash(path);
		if (u->n >= u->sweep_at && u->n >= PATHS_MIN)
			sweep(u);
		if (2 * (u->n + 1) > u->cap && !rehash(u, u->cap ? 2 * u->cap : 64))
			return NULL;
		for (i = h & (u->cap - 1); (b = u->tab[i]); i = (i + 1) & (u->cap - 1))
			if (b->hash == h && !strcmp(b->path, path))
				break;
		if (!b) {
			b = calloc(1, sizeof(*b));
			if (!b || !(b->path = strdup(path))) {
				free(b);
				return NULL;
			}
			b->hash = h;
			u->tab[i] = b;
			u->n++;
			ubin_load(u, b);
		}
		u->last = b;
	}
	b->used = u->walks;
	if (u->now - b->checked >= RECHECK_NS)
		ubin_load(u, b);
	return b->file && b->file->ok ? &b->file->t : NULL;
}

/* rd - the 8 bytes at @addr from the stack copy; false outside it */
static bool rd(const struct ft_ustack *st, uint64_t addr, uint64_t *v)
{
	if (st->size < 8 || addr < st->sp || addr - st->sp > st->size - 8)
		return false;
	memcpy(v, st->data + (addr - st->sp), 8);
	return true;
}

/* known - register @reg's value in *@v; false when the walk does not know it */
static bool known(const struct frame *f, unsigned int reg, uint64_t *v)
{
	if (reg >= FT_UREG_N || !(f->known & (1u << reg)))
		return false;
	*v = f->r[reg];
	return true;
}

/* cfa_of - the CFA of a row for frame @f: 0, or END(why the walk ends) */
static int cfa_of(const struct ft_cfi_row *row, const struct frame *f,
		  const struct ft_ustack *st, uint64_t *cfa)
{
	uint64_t v;

	switch (row->cfa_kind) {
	case FT_CFA_REG:
		if (!known(f, row->cfa_reg, &v))
			return END(FT_UNWIND_BADCFI);
		*cfa = v + (int64_t)row->cfa_off;
		return 0;
	case FT_CFA_PLT:
		if (!known(f, FT_UREG_SP, &v))
			return END(FT_UNWIND_BADCFI);
		*cfa = v + (int64_t)row->cfa_off +
		       ((f->r[FT_UREG_IP] & 15) >= (uint64_t)row->cfa_aux) * 8;
		return 0;
	case FT_CFA_DEREF:
		if (!known(f, row->cfa_reg, &v))
			return END(FT_UNWIND_BADCFI);
		if (!rd(st, v + (int64_t)row->cfa_off, &v))
			return END(FT_UNWIND_STACK);
		*cfa = v + (int64_t)row->cfa_aux;
		return 0;
	}
	return END(FT_UNWIND_BADCFI);
}

/*
 * rule_of - a caller's register by rule (@kind, @reg, @off): 0 with *@v set, 1 unknown
 * (undefined, or not taken), or END(why the walk ends): a read beyond the copy
 */
static int rule_of(uint8_t kind, uint8_t reg, int16_t off, const struct frame *f, uint64_t cfa,
		   const struct ft_ustack *st, unsigned int self, uint64_t *v)
{
	switch (kind) {
	case FT_RULE_SAME:
		return known(f, self, v) ? 0 : 1;
	case FT_RULE_CFA:
		return rd(st, cfa + off, v) ? 0 : END(FT_UNWIND_STACK);
	case FT_RULE_VALCFA:
		*v = cfa + off;
		return 0;
	case FT_RULE_ATREG:
		if (!known(f, reg, v))
			return 1;
		return rd(st, *v + off, v) ? 0 : END(FT_UNWIND_STACK);
	case FT_RULE_REG:
		return known(f, reg, v) ? 0 : 1;
	}
	return 1;
}

/* cfi_step - frame @f to its caller by @row: 0, or END(why the walk ends) */
static int cfi_step(const struct ft_cfi_row *row, struct frame *f, const struct ft_ustack *st)
{
	uint64_t cfa, ra, bp = 0, bx = 0;
	int ret, bpr, bxr;

	ret = cfa_of(row, f, st, &cfa);
	if (ret)
		return ret;
	if (cfa <= f->r[FT_UREG_SP])
		return END(FT_UNWIND_LOOP);
	if (row->ra_kind == FT_RULE_UNDEF)
		return END(FT_UNWIND_DONE);
	if (row->ra_kind == FT_RULE_SAME || row->ra_kind == FT_RULE_BAD)
		return END(FT_UNWIND_BADCFI);
	ret = rule_of(row->ra_kind, row->ra_reg, row->ra_off, f, cfa, st, FT_UREG_IP, &ra);
	if (ret)
		return ret == 1 ? END(FT_UNWIND_BADCFI) : ret;
	/* rbp saved outside the copy (below sp in an epilogue, after its pop): not known */
	bpr = rule_of(row->bp_kind, row->bp_reg, row->bp_off, f, cfa, st, FT_UREG_BP, &bp);
	bxr = rule_of(row->bx_kind, row->bx_reg, row->bx_off, f, cfa, st, FT_UREG_BX, &bx);
	f->r[FT_UREG_SP] = cfa;
	f->r[FT_UREG_IP] = ra;
	f->r[FT_UREG_BP] = bp;
	f->r[FT_UREG_BX] = bx;
	f->known = 1u << FT_UREG_SP | 1u << FT_UREG_IP | (bpr ? 0 : 1u << FT_UREG_BP) |
		   (bxr ? 0 : 1u << FT_UREG_BX);
	f->exact = row->flags & FT_CFI_SIGNAL;
	return 0;
}

/*
 * fp_step - frame @f to its caller by the frame pointer, if the chain is sound: rbp
 * 8-aligned, at or above sp, the saved pair inside the copy, the return address in a
 * mapping (or zero: the end). 0, or @fail (an END()).
 */
static int fp_step(struct frame *f, const struct ft_ustack *st, ft_ucode_fn code, void *ctx,
		   int fail)
{
	uint64_t bp, nbp, ra;
	struct ft_ucode uc;

	if (!known(f, FT_UREG_BP, &bp) || (bp & 7) || bp < f->r[FT_UREG_SP] ||
	    !rd(st, bp, &nbp) || !rd(st, bp + 8, &ra))
		return fail;
	if (ra && code(ctx, ra - 1, &uc))
		return fail;
	f->r[FT_UREG_SP] = bp + 16;
	f->r[FT_UREG_IP] = ra;
	f->r[FT_UREG_BP] = nbp;
	f->known = 1u << FT_UREG_SP | 1u << FT_UREG_IP | 1u << FT_UREG_BP;
	f->exact = false;
	return 0;
}

/* step - frame @f to its caller: 0, or END(why the walk ends) */
static int step(struct ft_unwinder *u, struct frame *f, const struct ft_ustack *st,
		ft_ucode_fn code, void *ctx)
{
	uint64_t pc = f->r[FT_UREG_IP] - !f->exact, vaddr;
	const struct ft_cfi_row *row = NULL;
	const struct ft_cfi *t;
	struct ft_ucode uc;

	if (code(ctx, pc, &uc))
		return fp_step(f, st, code, ctx, END(FT_UNWIND_NOMAP));
	t = uc.path && *uc.path ? bin_of(u, uc.path) : NULL;
	if (t && !ft_cfi_vaddr(t, pc - uc.start + uc.pgoff, &vaddr))
		row = ft_cfi_find(t, vaddr);
	if (!row)
		return fp_step(f, st, code, ctx, END(FT_UNWIND_NOCFI));
	return cfi_step(row, f, st);
}

/* ft_unwind - the user frames of one sample, leaf first (events/unwind.h) */
int ft_unwind(struct ft_unwinder *u, const struct ft_uregs *regs, const struct ft_ustack *st,
	      ft_ucode_fn code, void *ctx, uint64_t *ip, int max, enum ft_unwind_end *why)
{
	struct frame f;
	struct timespec ts;
	int n = 0, ret;

	*why = FT_UNWIND_DONE;
	if (max <= 0 || !(regs->have & 1u << FT_UREG_IP))
		return 0;
	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	u->now = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
	u->walks++;
	memcpy(f.r, regs->r, sizeof(f.r));
	f.known = regs->have;
	f.exact = true;
	for (;;) {
		ip[n++] = f.r[FT_UREG_IP];
		if (n == max) {
			*why = FT_UNWIND_MAX;
			return n;
		}
		if (!(f.known & 1u << FT_UREG_SP)) {
			*why = FT_UNWIND_STACK;
			return n;
		}
		ret = step(u, &f, st, code, ctx);
		if (!ret && !f.r[FT_UREG_IP])
			ret = END(FT_UNWIND_DONE);
		if (ret) {
			*why = (enum ft_unwind_end)(ret & 0xff);
			return n;
		}
	}
}
