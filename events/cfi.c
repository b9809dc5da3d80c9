// SPDX-License-Identifier: GPL-2.0
/*
 * Call frame information into a table sorted by address (events/cfi.h). The FDEs of
 * .eh_frame come from .eh_frame_hdr's sorted table where it has one, else from a scan;
 * .debug_frame's fill the addresses .eh_frame leaves. Each FDE's program (its CIE's
 * first) runs once; a row holds the rules for the CFA, the return address and rbp, the
 * three registers a walk carries from frame to frame. Rules for other registers are
 * not kept. Anything the table cannot say exactly is a FT_CFA_BAD or FT_RULE_BAD row.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "events/cfi.h"

#define REG_BP		6
#define REG_SP		7
#define STATE_DEPTH	16

/* A cursor in a section; @bad once a read went past @end. */
struct rd {
	const unsigned char	*p, *end;
	const struct ft_cfi_sec	*sec;
	bool			bad;
};

/* rd_n - @n little-endian bytes as an unsigned number */
static uint64_t rd_n(struct rd *r, int n)
{
	uint64_t v = 0;
	int i;

	if (r->bad || r->end - r->p < n) {
		r->bad = true;
		return 0;
	}
	for (i = 0; i < n; i++)
		v |= (uint64_t)r->p[i] << (8 * i);
	r->p += n;
	return v;
}

/* rd_leb - a LEB128, signed if @sign */
static uint64_t rd_leb(struct rd *r, bool sign)
{
	uint64_t v = 0;
	int shift = 0;

	while (!r->bad && r->p < r->end) {
		unsigned char b = *r->p++;

		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80))
			return sign && shift < 64 && (b & 0x40) ? v | ~(uint64_t)0 << shift : v;
	}
	r->bad = true;
	return 0;
}

#define rd_uleb(r)	rd_leb(r, false)
#define rd_sleb(r)	((int64_t)rd_leb(r, true))

/*
 * rd_enc - a pointer of DW_EH_PE encoding @enc (pcrel from the field's address, datarel
 * from @dbase); *@ind set when indirect (the pointer's address); false: not taken
 */
static bool rd_enc(struct rd *r, uint8_t enc, uint64_t dbase, uint64_t *out, bool *ind)
{
	uint64_t at = r->sec->vaddr + (uint64_t)(r->p - r->sec->p), v;

	switch (enc & 0x0f) {
	case 0x00: case 0x04: case 0x0c: v = rd_n(r, 8); break;
	case 0x01: v = rd_uleb(r); break;
	case 0x02: v = rd_n(r, 2); break;
	case 0x03: v = rd_n(r, 4); break;
	case 0x09: v = (uint64_t)rd_sleb(r); break;
	case 0x0a: v = (uint64_t)(int16_t)rd_n(r, 2); break;
	case 0x0b: v = (uint64_t)(int32_t)rd_n(r, 4); break;
	default: return false;
	}
	switch (enc & 0x70) {
	case 0x00: break;
	case 0x10: v += at; break;
	case 0x30: v += dbase; break;
	default: return false;
	}
	if (ind)
		*ind = enc & 0x80;
	*out = v;
	return !r->bad;
}

struct cie {
	size_t			off;
	uint64_t		code_align;
	int64_t			data_align;
	unsigned int		ra;
	uint8_t			fde_enc;
	bool			z, signal;
	int			addr_size;
	const unsigned char	*ins, *ins_end;
};

/* rd_entry - the length of the CIE/FDE at the cursor: @r ends where it ends; its id in *@id */
static bool rd_entry(struct rd *r, const struct ft_cfi_sec *s, size_t off, uint64_t *id, bool *is64)
{
	uint64_t len;

	r->p = s->p + off;
	r->end = s->p + s->len;
	r->sec = s;
	r->bad = off > s->len;
	len = rd_n(r, 4);
	*is64 = len == 0xffffffff;
	if (*is64)
		len = rd_n(r, 8);
	if (r->bad || !len || len > (uint64_t)(r->end - r->p))
		return false;
	r->end = r->p + len;
	*id = rd_n(r, *is64 ? 8 : 4);
	return !r->bad;
}

/* parse_cie - the CIE at @off of @s into @c; false when damaged or not taken */
static bool parse_cie(const struct ft_cfi_sec *s, size_t off, bool dbg, struct cie *c)
{
	struct rd r;
	uint64_t id, cie_id;
	const char *aug;
	bool is64;
	int ver;

	if (!rd_entry(&r, s, off, &id, &is64))
		return false;
	cie_id = !dbg ? 0 : is64 ? ~(uint64_t)0 : 0xffffffff;
	if (id != cie_id)
		return false;
	memset(c, 0, sizeof(*c));
	c->off = off;
	c->addr_size = 8;
	ver = (int)rd_n(&r, 1);
	aug = (const char *)r.p;
	while (r.p < r.end && *r.p)
		r.p++;
	if (r.p++ >= r.end || (ver != 1 && ver != 3 && ver != 4))
		return false;
	if (ver == 4) {
		c->addr_size = (int)rd_n(&r, 1);
		if (rd_n(&r, 1) || (c->addr_size != 4 && c->addr_size != 8))
			return false;	/* segment selectors */
	}
	c->code_align = rd_uleb(&r);
	c->data_align = rd_sleb(&r);
	c->ra = ver == 1 ? (unsigned int)rd_n(&r, 1) : (unsigned int)rd_uleb(&r);
	c->fde_enc = dbg ? (c->addr_size == 4 ? 0x03 : 0x00) : 0x00;
	if (*aug == 'z') {
		uint64_t alen = rd_uleb(&r);
		const unsigned char *aend = r.p + alen;
		uint64_t v;

		if (r.bad || alen > (uint64_t)(r.end - r.p))
			return false;
		c->z = true;
		for (aug++; *aug; aug++) {
			uint8_t e;

			switch (*aug) {
			case 'R': c->fde_enc = (uint8_t)rd_n(&r, 1); break;
			case 'L': rd_n(&r, 1); break;
			case 'P':
				e = (uint8_t)rd_n(&r, 1);
				if (!rd_enc(&r, e, 0, &v, NULL))
					return false;
				break;
			case 'S': c->signal = true; break;
			default: return false;
			}
		}
		if (r.bad || r.p > aend)
			return false;
		r.p = aend;
	} else if (*aug) {
		return false;
	}
	c->ins = r.p;
	c->ins_end = r.end;
	return !r.bad && c->code_align;
}

/* One FDE as found: its addresses, its CIE (index in the list's CIEs), its program. */
struct fde {
	uint64_t		start, end;
	const unsigned char	*ins, *ins_end;
	unsigned int		cie;
	uint8_t			prio;		/* 0 .eh_frame, 1 .debug_frame */
};

struct fdes {
	struct fde	*f;
	size_t		n, cap;
	struct cie	*c;
	size_t		nc, capc;
	const struct ft_cfi_sec	*csec;	/* the section of c[nc - 1] */
	unsigned int	damaged;
};

/* cie_of - the index of the parsed CIE at @off, parsing it if it is not the last one; -1 */
static long cie_of(struct fdes *l, const struct ft_cfi_sec *s, size_t off, bool dbg)
{
	struct cie c;

	if (l->nc && l->csec == s && l->c[l->nc - 1].off == off)
		return (long)l->nc - 1;
	if (!parse_cie(s, off, dbg, &c))
		return -1;
	if (l->nc == l->capc) {
		size_t cap = l->capc ? l->capc * 2 : 16;
		struct cie *n = realloc(l->c, cap * sizeof(*n));

		if (!n)
			return -1;
		l->c = n;
		l->capc = cap;
	}
	l->c[l->nc] = c;
	l->csec = s;
	return (long)l->nc++;
}

/*
 * add_fde - the entry at @off of @s if it is an FDE: 1 added, 0 a CIE or the end, -1
 * damaged (counted), -2 out of memory. *@next: the offset after it (unset at the end).
 */
static int add_fde(struct fdes *l, const struct ft_cfi_sec *s, size_t off, bool dbg, uint8_t prio,
		   size_t *next)
{
	uint64_t id, start, range;
	struct rd r;
	bool is64, ind = false;
	size_t idpos, coff;
	long ci;
	struct cie *c;

	if (!rd_entry(&r, s, off, &id, &is64))
		return 0;		/* the end (a zero length), or a length past it */
	*next = (size_t)(r.end - s->p);
	if (id == (dbg ? (is64 ? ~(uint64_t)0 : 0xffffffff) : 0))
		return 0;
	idpos = off + (is64 ? 12 : 4);
	coff = dbg ? (size_t)id : idpos - (size_t)id;
	if (!dbg && id > idpos)
		goto damaged;
	ci = cie_of(l, s, coff, dbg);
	if (ci < 0)
		goto damaged;
	c = &l->c[ci];
	if (!rd_enc(&r, c->fde_enc, 0, &start, &ind) || ind ||
	    !rd_enc(&r, c->fde_enc & 0x0f, 0, &range, NULL))
		goto damaged;
	if (c->z) {
		uint64_t alen = rd_uleb(&r);

		if (r.bad || alen > (uint64_t)(r.end - r.p))
			goto damaged;
		r.p += alen;
	}
	if (!range || start + range < start)
		return 0;
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 256;
		struct fde *n = realloc(l->f, cap * sizeof(*n));

		if (!n)
			return -2;
		l->f = n;
		l->cap = cap;
	}
	l->f[l->n++] = (struct fde){ start, start + range, r.p, r.end, (unsigned int)ci, prio };
	return 1;
damaged:
	l->damaged++;
	return -1;
}

/* scan - every FDE of a section in order; 0, or -1 out of memory */
static int scan(struct fdes *l, const struct ft_cfi_sec *s, bool dbg, uint8_t prio)
{
	size_t off = 0, next;

	while (off + 4 <= s->len) {
		next = s->len;
		if (add_fde(l, s, off, dbg, prio, &next) == -2)
			return -1;
		if (next <= off)
			break;
		off = next;
	}
	return 0;
}

/* from_hdr - the FDEs .eh_frame_hdr's table names: 1 done, 0 no usable table, -1 no memory */
static int from_hdr(struct fdes *l, const struct ft_cfi_sec *eh, const struct ft_cfi_sec *hdr)
{
	struct rd r = { hdr->p, hdr->p + hdr->len, hdr, false };
	uint64_t ehp, count, i, loc, fde;
	uint8_t ver, penc, cenc, tenc;
	size_t next;

	ver = (uint8_t)rd_n(&r, 1);
	penc = (uint8_t)rd_n(&r, 1);
	cenc = (uint8_t)rd_n(&r, 1);
	tenc = (uint8_t)rd_n(&r, 1);
	if (r.bad || ver != 1 || tenc != 0x3b || !rd_enc(&r, penc, hdr->vaddr, &ehp, NULL) ||
	    ehp != eh->vaddr || !rd_enc(&r, cenc, hdr->vaddr, &count, NULL) ||
	    count > (uint64_t)(r.end - r.p) / 8)
		return 0;
	for (i = 0; i < count; i++) {
		rd_enc(&r, tenc, hdr->vaddr, &loc, NULL);
		rd_enc(&r, tenc, hdr->vaddr, &fde, NULL);
		if (fde < eh->vaddr || fde - eh->vaddr >= eh->len) {
			l->damaged++;
			continue;
		}
		if (add_fde(l, eh, (size_t)(fde - eh->vaddr), false, 0, &next) == -2)
			return -1;
	}
	return 1;
}

/* The rules at one address while a program runs. */
struct rule {
	uint8_t		kind, reg;
	int64_t		off, aux;
};

struct state {
	struct rule	cfa, ra, bp;
};

/* cfa_expr - the CFA rule of a DW_CFA_def_cfa_expression block, FT_CFA_BAD when not known */
static struct rule cfa_expr(const unsigned char *p, const unsigned char *end)
{
	static const unsigned char plt[] = { 0x80, 0x00, 0x3f, 0x1a };	/* breg16 0 lit15 and */
	struct ft_cfi_sec s = { p, (size_t)(end - p), 0 };
	struct rd r = { p, end, &s, false };
	struct rule x = { FT_CFA_BAD, 0, 0, 0 };
	uint8_t op = (uint8_t)rd_n(&r, 1);

	if (op < 0x70 || op > 0x8f)
		return x;
	x.reg = op - 0x70;
	x.off = rd_sleb(&r);
	if (r.bad)
		return (struct rule){ FT_CFA_BAD, 0, 0, 0 };
	if (r.p == end - 1 && *r.p == 0x06)	/* deref */
		return (struct rule){ FT_CFA_DEREF, x.reg, x.off, 0 };
	if (end - r.p >= 2 && r.p[0] == 0x06 && r.p[1] == 0x23) {	/* deref plus_uconst */
		r.p += 2;
		x.aux = (int64_t)rd_uleb(&r);
		if (!r.bad && r.p == end)
			return (struct rule){ FT_CFA_DEREF, x.reg, x.off, x.aux };
	}
	/* rsp+off, rip&15, >= litN, <<3, plus: the PLT's */
	if (x.reg == REG_SP && end - r.p == 9 && !memcmp(r.p, plt, 4) && r.p[4] >= 0x30 &&
	    r.p[4] < 0x50 && !memcmp(r.p + 5, "\x2a\x33\x24\x22", 4))
		return (struct rule){ FT_CFA_PLT, REG_SP, x.off, r.p[4] - 0x30 };
	return (struct rule){ FT_CFA_BAD, 0, 0, 0 };
}

/* reg_expr - a register's DW_CFA_expression: only DW_OP_bregN off (saved at reg + off) */
static struct rule reg_expr(const unsigned char *p, const unsigned char *end)
{
	struct ft_cfi_sec s = { p, (size_t)(end - p), 0 };
	struct rd r = { p, end, &s, false };
	uint8_t op = (uint8_t)rd_n(&r, 1);
	int64_t off;

	if (op < 0x70 || op > 0x8f)
		return (struct rule){ FT_RULE_BAD, 0, 0, 0 };
	off = rd_sleb(&r);
	if (r.bad || r.p != end)
		return (struct rule){ FT_RULE_BAD, 0, 0, 0 };
	return (struct rule){ FT_RULE_ATREG, op - 0x70, off, 0 };
}

/* A program's run: the table it writes to and where it is. */
struct run {
	struct ft_cfi		*t;
	const struct cie	*c;
	struct state		st, init, stack[STATE_DEPTH];
	int			depth;
	uint64_t		loc, end;
	bool			failed;		/* out of memory */
};

/* push_row - append a row at @pc (one at the same pc is replaced; one like the last is dropped) */
static void push_row(struct run *x, uint64_t pc, const struct ft_cfi_row *row)
{
	struct ft_cfi *t = x->t;
	struct ft_cfi_row *last = t->n ? &t->row[t->n - 1] : NULL;
	uint32_t rel = (uint32_t)(pc - t->base);

	if (last && last->pc == rel) {
		t->n--;
		last = t->n ? &t->row[t->n - 1] : NULL;
	}
	if (last && !memcmp(&last->cfa_off, &row->cfa_off, sizeof(*row) - 4))
		return;
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 1024;
		struct ft_cfi_row *n = realloc(t->row, cap * sizeof(*n));

		if (!n) {
			x->failed = true;
			return;
		}
		t->row = n;
		t->cap = cap;
	}
	t->row[t->n] = *row;
	t->row[t->n++].pc = rel;
}

/* rule_kind - a register rule's kind in a row: not taken where its offset does not fit */
static uint8_t rule_kind(const struct rule *r)
{
	return r->off == (int16_t)r->off && r->reg < 32 ? r->kind : FT_RULE_BAD;
}

/* emit - the row of the current state at the current address, if inside the FDE */
static void emit(struct run *x)
{
	struct ft_cfi_row row;

	if (x->loc >= x->end)
		return;
	memset(&row, 0, sizeof(row));
	row.cfa_kind = x->st.cfa.kind;
	row.cfa_reg = x->st.cfa.reg & 31;
	row.cfa_off = (int32_t)x->st.cfa.off;
	row.cfa_aux = x->st.cfa.aux & 127;
	if (row.cfa_off != x->st.cfa.off || x->st.cfa.aux < 0 || x->st.cfa.aux > 127 ||
	    x->st.cfa.reg > 16)
		row.cfa_kind = FT_CFA_BAD;
	if (row.cfa_kind == FT_CFA_BAD)
		row.cfa_reg = 0, row.cfa_off = 0, row.cfa_aux = 0;
	row.ra_kind = rule_kind(&x->st.ra);
	row.ra_reg = x->st.ra.reg & 31;
	row.ra_off = (int16_t)x->st.ra.off;
	row.bp_kind = rule_kind(&x->st.bp);
	row.bp_reg = x->st.bp.reg & 31;
	row.bp_off = (int16_t)x->st.bp.off;
	row.flags = x->c->signal;
	push_row(x, x->loc, &row);
}

/* set_reg - register @reg's rule, where it is one the table keeps */
static void set_reg(struct run *x, uint64_t reg, struct rule r)
{
	if (reg == x->c->ra)
		x->st.ra = r;
	else if (reg == REG_BP)
		x->st.bp = r;
}

/* restore_reg - register @reg's rule as the CIE left it */
static void restore_reg(struct run *x, uint64_t reg)
{
	if (reg == x->c->ra)
		x->st.ra = x->init.ra;
	else if (reg == REG_BP)
		x->st.bp = x->init.bp;
}

/* advance - the current row holds up to @delta further */
static void advance(struct run *x, uint64_t delta)
{
	emit(x);
	x->loc += delta;
}

/* reg_op - a register rule opcode: true when @op is one (done), false when it is not */
static bool reg_op(struct run *x, struct rd *r, uint8_t op)
{
	int64_t da = x->c->data_align;
	uint64_t reg, n;

	if ((op & 0xc0) == 0x80) {	/* offset */
		n = rd_uleb(r);
		set_reg(x, op & 0x3f, (struct rule){ FT_RULE_CFA, 0, (int64_t)n * da, 0 });
		return true;
	}
	if ((op & 0xc0) == 0xc0) {	/* restore */
		restore_reg(x, op & 0x3f);
		return true;
	}
	switch (op) {
	case 0x05: case 0x11: case 0x14: case 0x15: case 0x2f:
		reg = rd_uleb(r);
		n = op == 0x11 || op == 0x15 ? (uint64_t)rd_sleb(r) : rd_uleb(r);
		set_reg(x, reg, (struct rule){
			op == 0x14 || op == 0x15 ? FT_RULE_VALCFA : FT_RULE_CFA, 0,
			(op == 0x2f ? -1 : 1) * (int64_t)n * da, 0 });
		return true;
	case 0x06:			/* restore_extended */
		restore_reg(x, rd_uleb(r));
		return true;
	case 0x07: case 0x08:		/* undefined, same_value */
		set_reg(x, rd_uleb(r),
			(struct rule){ op == 0x07 ? FT_RULE_UNDEF : FT_RULE_SAME, 0, 0, 0 });
		return true;
	case 0x09:			/* register */
		reg = rd_uleb(r);
		n = rd_uleb(r);
		set_reg(x, reg,
			(struct rule){ n <= 16 ? FT_RULE_REG : FT_RULE_BAD, (uint8_t)n, 0, 0 });
		return true;
	case 0x10: case 0x16:		/* expression, val_expression */
		reg = rd_uleb(r);
		n = rd_uleb(r);
		if (r->bad || n > (uint64_t)(r->end - r->p))
			return r->bad = true;
		set_reg(x, reg, op == 0x10 ? reg_expr(r->p, r->p + n) :
			(struct rule){ FT_RULE_BAD, 0, 0, 0 });
		r->p += n;
		return true;
	}
	return false;
}

/* cfa_op - a CFA opcode: true when @op is one (done), false when it is not */
static bool cfa_op(struct run *x, struct rd *r, uint8_t op)
{
	struct rule *cfa = &x->st.cfa;
	int64_t da = x->c->data_align;
	uint64_t reg, n;

	switch (op) {
	case 0x0c: case 0x12:		/* def_cfa, def_cfa_sf */
		reg = rd_uleb(r);
		n = op == 0x0c ? rd_uleb(r) : (uint64_t)(rd_sleb(r) * da);
		*cfa = (struct rule){ reg <= 16 ? FT_CFA_REG : FT_CFA_BAD, (uint8_t)reg,
				      (int64_t)n, 0 };
		return true;
	case 0x0d:			/* def_cfa_register */
		reg = rd_uleb(r);
		if (cfa->kind == FT_CFA_REG && reg <= 16)
			cfa->reg = (uint8_t)reg;
		else
			cfa->kind = FT_CFA_BAD;
		return true;
	case 0x0e: case 0x13:		/* def_cfa_offset, def_cfa_offset_sf */
		n = op == 0x0e ? rd_uleb(r) : (uint64_t)(rd_sleb(r) * da);
		if (cfa->kind == FT_CFA_REG)
			cfa->off = (int64_t)n;
		else
			cfa->kind = FT_CFA_BAD;
		return true;
	case 0x0f:			/* def_cfa_expression */
		n = rd_uleb(r);
		if (r->bad || n > (uint64_t)(r->end - r->p))
			return r->bad = true;
		*cfa = cfa_expr(r->p, r->p + n);
		r->p += n;
		return true;
	}
	return false;
}

/* run_program - the instructions [@p, @end); false when it stopped on one not taken */
static bool run_program(struct run *x, const unsigned char *p, const unsigned char *end)
{
	struct ft_cfi_sec s = { p, (size_t)(end - p), 0 };
	struct rd r = { p, end, &s, false };
	uint64_t v;

	while (r.p < end && !r.bad) {
		uint8_t op = (uint8_t)rd_n(&r, 1);

		if ((op & 0xc0) == 0x40) {
			advance(x, (op & 0x3f) * x->c->code_align);
			continue;
		}
		if (reg_op(x, &r, op) || cfa_op(x, &r, op))
			continue;
		switch (op) {
		case 0x00:			/* nop */
			break;
		case 0x01:			/* set_loc */
			if (!rd_enc(&r, x->c->fde_enc & 0x0f, 0, &v, NULL) || v < x->loc)
				return false;
			advance(x, v - x->loc);
			break;
		case 0x02: case 0x03: case 0x04:	/* advance_loc1, 2, 4 */
			v = rd_n(&r, op == 0x02 ? 1 : op == 0x03 ? 2 : 4);
			advance(x, v * x->c->code_align);
			break;
		case 0x0a:			/* remember_state */
			if (x->depth == STATE_DEPTH)
				return false;
			x->stack[x->depth++] = x->st;
			break;
		case 0x0b:			/* restore_state */
			if (!x->depth)
				return false;
			x->st = x->stack[--x->depth];
			break;
		case 0x2e:			/* GNU_args_size: no rule */
			rd_uleb(&r);
			break;
		default:
			return false;
		}
	}
	return !r.bad;
}

/* run_fde - one FDE's rows into the table, then the end of its addresses */
static bool run_fde(struct ft_cfi *t, const struct cie *c, const struct fde *f)
{
	struct ft_cfi_row none;
	struct run x;
	bool ok;

	memset(&x, 0, sizeof(x));
	x.t = t;
	x.c = c;
	x.st.cfa.kind = FT_CFA_BAD;
	x.st.ra.kind = FT_RULE_SAME;
	x.st.bp.kind = FT_RULE_SAME;
	x.loc = f->start;
	x.end = 0;			/* a CIE writes no rows */
	ok = run_program(&x, c->ins, c->ins_end);
	x.init = x.st;
	x.depth = 0;
	x.loc = f->start;
	x.end = f->end;
	if (!ok || !run_program(&x, f->ins, f->ins_end))
		x.st.cfa.kind = FT_CFA_BAD;	/* from here to the FDE's end */
	emit(&x);
	memset(&none, 0, sizeof(none));
	none.cfa_kind = FT_CFA_NONE;
	x.loc = f->end;
	push_row(&x, f->end, &none);
	return !x.failed;
}

/* cmp_fde - by start, .eh_frame's first */
static int cmp_fde(const void *a, const void *b)
{
	const struct fde *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (int)x->prio - (int)y->prio;
}

/* ft_cfi_build - the table of the given sections (each may be NULL); 0, or -1 out of memory */
int ft_cfi_build(struct ft_cfi *t, const struct ft_cfi_sec *eh, const struct ft_cfi_sec *hdr,
		 const struct ft_cfi_sec *dbg)
{
	struct fdes l;
	uint64_t end = 0;
	size_t i;
	int ret = -1, h = 0;

	memset(&l, 0, sizeof(l));
	if (eh && eh->len && hdr && hdr->len)
		h = from_hdr(&l, eh, hdr);
	if (h < 0 || (eh && eh->len && !h && scan(&l, eh, false, 0)) ||
	    (dbg && dbg->len && scan(&l, dbg, true, 1)))
		goto out;
	t->used_hdr = h;
	t->damaged += l.damaged;
	if (l.n)
		qsort(l.f, l.n, sizeof(*l.f), cmp_fde);
	t->base = l.n ? l.f[0].start : 0;
	for (i = 0; i < l.n; i++) {
		const struct fde *f = &l.f[i];

		/* overlaps (.debug_frame under .eh_frame, damage): the first one holds */
		if (f->start < end || f->end - t->base > UINT32_MAX)
			continue;
		if (!run_fde(t, &l.c[f->cie], f))
			goto out;
		t->fdes++;
		end = f->end;
	}
	for (i = 0; i < t->n; i++)
		t->bad_rows += t->row[i].cfa_kind == FT_CFA_BAD ||
			       t->row[i].ra_kind == FT_RULE_BAD || t->row[i].bp_kind == FT_RULE_BAD;
	ret = 0;
out:
	free(l.f);
	free(l.c);
	return ret;
}
