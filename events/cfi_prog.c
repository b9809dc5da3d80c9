// SPDX-License-Identifier: GPL-2.0
/*
 * The DW_CFA program interpreter of the CFI table builder (events/cfi_int.h): a CIE's
 * program once into its initial rules, then each FDE's into rows of the table, in
 * address order. Every step is checked: factored offsets and advances that overflow,
 * an address that would go back or past the FDE's end, a number that does not fit the
 * row make the rule (or the rest of the FDE) "not taken", never a wrong rule.
 */
#include <stdlib.h>
#include <string.h>

#include "events/cfi_int.h"

#define REG_BX		3
#define REG_BP		6
#define REG_SP		7
#define STATE_DEPTH	16

static const struct cfi_rule rule_bad = { FT_RULE_BAD, 0, 0, 0 };
static const struct cfi_rule cfa_bad = { FT_CFA_BAD, 0, 0, 0 };

/* cfa_expr - the CFA rule of a DW_CFA_def_cfa_expression block, FT_CFA_BAD when not known */
static struct cfi_rule cfa_expr(const unsigned char *p, const unsigned char *end)
{
	/* breg16 0 lit15 and */
	static const unsigned char plt[] = { 0x80, 0x00, 0x3f, 0x1a };
	struct ft_cfi_sec s = { p, (size_t)(end - p), 0 };
	struct cfi_rd r = { p, end, &s, false };
	uint8_t op = (uint8_t)cfi_rd_n(&r, 1), reg;
	int64_t off, aux;

	if (op < 0x70 || op > 0x8f)
		return cfa_bad;
	reg = op - 0x70;
	off = cfi_rd_sleb(&r);
	if (r.bad)
		return cfa_bad;
	if (end - r.p == 1 && *r.p == 0x06)	/* deref */
		return (struct cfi_rule){ FT_CFA_DEREF, reg, off, 0 };
	if (end - r.p >= 2 && r.p[0] == 0x06 && r.p[1] == 0x23) {	/* deref plus_uconst */
		r.p += 2;
		aux = (int64_t)cfi_rd_uleb(&r);
		if (!r.bad && r.p == end)
			return (struct cfi_rule){ FT_CFA_DEREF, reg, off, aux };
	}
	/* rsp+off, rip&15, >= litN, <<3, plus: the PLT's */
	if (reg == REG_SP && end - r.p == 9 && !memcmp(r.p, plt, 4) && r.p[4] >= 0x30 &&
	    r.p[4] < 0x50 && !memcmp(r.p + 5, "\x2a\x33\x24\x22", 4))
		return (struct cfi_rule){ FT_CFA_PLT, REG_SP, off, r.p[4] - 0x30 };
	return cfa_bad;
}

/* reg_expr - a register's DW_CFA_expression: only DW_OP_bregN off (saved at reg + off) */
static struct cfi_rule reg_expr(const unsigned char *p, const unsigned char *end)
{
	struct ft_cfi_sec s = { p, (size_t)(end - p), 0 };
	struct cfi_rd r = { p, end, &s, false };
	uint8_t op = (uint8_t)cfi_rd_n(&r, 1);
	int64_t off;

	if (op < 0x70 || op > 0x8f)
		return rule_bad;
	off = cfi_rd_sleb(&r);
	if (r.bad || r.p != end)
		return rule_bad;
	return (struct cfi_rule){ FT_RULE_ATREG, op - 0x70, off, 0 };
}

/* A program's run: the table it writes to and where it is. */
struct run {
	struct ft_cfi		*t;
	const struct cfi_cie	*c;
	struct cfi_state	st, init, stack[STATE_DEPTH];
	int			depth;
	uint64_t		loc, end;
	bool			failed;		/* out of memory */
	bool			damaged;	/* stopped on bytes that cannot be right (not on
						   an opcode not known, whose length is unknown) */
};

/* push_row - append a row at @pc (one at the same pc is replaced; one like the last is dropped) */
static void push_row(struct run *x, uint64_t pc, const struct ft_cfi_row *row)
{
	struct ft_cfi *t = x->t;
	struct ft_cfi_row *last = t->n ? &t->row[t->n - 1] : NULL;
	uint64_t rel = pc - t->base;

	/* rows only go up (the builder's FDEs do not overlap, an FDE's addresses only grow) */
	if (pc < t->base || rel > UINT32_MAX || (last && rel < last->pc))
		return;
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
	t->row[t->n++].pc = (uint32_t)rel;
}

/* rule_kind - a register rule's kind in a row: not taken where its offset does not fit */
static uint8_t rule_kind(const struct cfi_rule *r)
{
	return r->off >= INT16_MIN && r->off <= INT16_MAX && r->reg < 32 ? r->kind : FT_RULE_BAD;
}

/* emit - the row of the current state at the current address, if inside the FDE */
static void emit(struct run *x)
{
	const struct cfi_rule *cfa = &x->st.cfa;
	struct ft_cfi_row row;

	if (x->loc >= x->end)
		return;
	memset(&row, 0, sizeof(row));
	row.cfa_kind = cfa->kind;
	if (cfa->off < INT32_MIN || cfa->off > INT32_MAX || cfa->aux < 0 || cfa->aux > 127 ||
	    cfa->reg > 16 || cfa->kind > FT_CFA_BAD)
		row.cfa_kind = FT_CFA_BAD;
	if (row.cfa_kind != FT_CFA_BAD) {
		row.cfa_reg = cfa->reg;
		row.cfa_off = (int32_t)cfa->off;
		row.cfa_aux = (uint8_t)cfa->aux;
	}
	row.ra_kind = rule_kind(&x->st.ra);
	if (row.ra_kind != FT_RULE_BAD) {
		row.ra_reg = x->st.ra.reg;
		row.ra_off = (int16_t)x->st.ra.off;
	}
	row.bp_kind = rule_kind(&x->st.bp);
	if (row.bp_kind != FT_RULE_BAD) {
		row.bp_reg = x->st.bp.reg;
		row.bp_off = (int16_t)x->st.bp.off;
	}
	row.bx_kind = rule_kind(&x->st.bx);
	if (row.bx_kind != FT_RULE_BAD) {
		row.bx_reg = x->st.bx.reg;
		row.bx_off = (int16_t)x->st.bx.off;
	}
	row.flags = x->c->signal;
	push_row(x, x->loc, &row);
}

/* set_reg - register @reg's rule, where it is one the table keeps */
static void set_reg(struct run *x, uint64_t reg, struct cfi_rule r)
{
	if (reg == x->c->ra)
		x->st.ra = r;
	else if (reg == REG_BP)
		x->st.bp = r;
	else if (reg == REG_BX)
		x->st.bx = r;
}

/* restore_reg - register @reg's rule as the CIE left it */
static void restore_reg(struct run *x, uint64_t reg)
{
	if (reg == x->c->ra)
		x->st.ra = x->init.ra;
	else if (reg == REG_BP)
		x->st.bp = x->init.bp;
	else if (reg == REG_BX)
		x->st.bx = x->init.bx;
}

/* advance - the current row holds up to @delta further; at or past the FDE's end: no more rows */
static void advance(struct run *x, uint64_t delta)
{
	emit(x);
	if (x->loc < x->end && delta < x->end - x->loc)
		x->loc += delta;
	else if (x->loc < x->end)
		x->loc = x->end;
}

/* advance_n - advance by @n code alignment factors (an overflow goes past the end) */
static void advance_n(struct run *x, uint64_t n)
{
	uint64_t delta;

	if (__builtin_mul_overflow(n, x->c->code_align, &delta))
		delta = UINT64_MAX;
	advance(x, delta);
}

/*
 * factored - a rule @kind at the factored offset @n (signed if @sign, else an unsigned
 * number) times the data alignment factor, negated if @neg; FT_RULE_BAD if it overflows
 */
static struct cfi_rule factored(struct run *x, uint8_t kind, uint64_t n, bool sign, bool neg)
{
	int64_t v;

	if ((!sign && n > INT64_MAX) || __builtin_mul_overflow((int64_t)n, x->c->data_align, &v) ||
	    (neg && __builtin_sub_overflow((int64_t)0, v, &v)))
		return kind == FT_CFA_REG ? cfa_bad : rule_bad;
	return (struct cfi_rule){ kind, 0, v, 0 };
}

/* reg_op - a register rule opcode: true when @op is one (done), false when it is not */
static bool reg_op(struct run *x, struct cfi_rd *r, uint8_t op)
{
	uint64_t reg, n;

	if ((op & 0xc0) == 0x80) {	/* offset */
		n = cfi_rd_uleb(r);
		set_reg(x, op & 0x3f, factored(x, FT_RULE_CFA, n, false, false));
		return true;
	}
	if ((op & 0xc0) == 0xc0) {	/* restore */
		restore_reg(x, op & 0x3f);
		return true;
	}
	switch (op) {
	case 0x05: case 0x11: case 0x14: case 0x15: case 0x2f:
		reg = cfi_rd_uleb(r);
		n = op == 0x11 || op == 0x15 ? (uint64_t)cfi_rd_sleb(r) : cfi_rd_uleb(r);
		set_reg(x, reg, factored(x, op == 0x14 || op == 0x15 ? FT_RULE_VALCFA : FT_RULE_CFA,
					 n, op == 0x11 || op == 0x15, op == 0x2f));
		return true;
	case 0x06:			/* restore_extended */
		restore_reg(x, cfi_rd_uleb(r));
		return true;
	case 0x07: case 0x08:		/* undefined, same_value */
		set_reg(x, cfi_rd_uleb(r),
			(struct cfi_rule){ op == 0x07 ? FT_RULE_UNDEF : FT_RULE_SAME, 0, 0, 0 });
		return true;
	case 0x09:			/* register */
		reg = cfi_rd_uleb(r);
		n = cfi_rd_uleb(r);
		set_reg(x, reg, n <= 16 ? (struct cfi_rule){ FT_RULE_REG, (uint8_t)n, 0, 0 } :
			rule_bad);
		return true;
	case 0x10: case 0x16:		/* expression, val_expression */
		reg = cfi_rd_uleb(r);
		n = cfi_rd_uleb(r);
		if (r->bad || n > (uint64_t)(r->end - r->p))
			return r->bad = true;
		set_reg(x, reg, op == 0x10 ? reg_expr(r->p, r->p + n) : rule_bad);
		r->p += n;
		return true;
	}
	return false;
}

/* cfa_op - a CFA opcode: true when @op is one (done), false when it is not */
static bool cfa_op(struct run *x, struct cfi_rd *r, uint8_t op)
{
	struct cfi_rule *cfa = &x->st.cfa;
	uint64_t reg, n;

	switch (op) {
	case 0x0c: case 0x12:		/* def_cfa, def_cfa_sf */
		reg = cfi_rd_uleb(r);
		n = op == 0x0c ? cfi_rd_uleb(r) : (uint64_t)cfi_rd_sleb(r);
		*cfa = op == 0x0c ? (struct cfi_rule){ FT_CFA_REG, 0, (int64_t)n, 0 } :
			factored(x, FT_CFA_REG, n, true, false);
		if (reg > 16 || (op == 0x0c && n > INT64_MAX))
			*cfa = cfa_bad;
		cfa->reg = cfa->kind == FT_CFA_REG ? (uint8_t)reg : 0;
		return true;
	case 0x0d:			/* def_cfa_register */
		reg = cfi_rd_uleb(r);
		if (cfa->kind == FT_CFA_REG && reg <= 16)
			cfa->reg = (uint8_t)reg;
		else
			*cfa = cfa_bad;
		return true;
	case 0x0e: case 0x13:		/* def_cfa_offset, def_cfa_offset_sf */
		n = op == 0x0e ? cfi_rd_uleb(r) : (uint64_t)cfi_rd_sleb(r);
		if (cfa->kind == FT_CFA_REG) {
			reg = cfa->reg;
			*cfa = op == 0x0e ? (struct cfi_rule){ FT_CFA_REG, 0, (int64_t)n, 0 } :
				factored(x, FT_CFA_REG, n, true, false);
			if (op == 0x0e && n > INT64_MAX)
				*cfa = cfa_bad;
			cfa->reg = cfa->kind == FT_CFA_REG ? (uint8_t)reg : 0;
		} else {
			*cfa = cfa_bad;
		}
		return true;
	case 0x0f:			/* def_cfa_expression */
		n = cfi_rd_uleb(r);
		if (r->bad || n > (uint64_t)(r->end - r->p))
			return r->bad = true;
		*cfa = cfa_expr(r->p, r->p + n);
		r->p += n;
		return true;
	}
	return false;
}

/*
 * run_program - the instructions [@p, @end) of section @s; false: stopped on one not
 * taken (x->damaged too where the bytes cannot be right: a read past the end, a number
 * too large, an address going back, a state restored that was never remembered)
 */
static bool run_program(struct run *x, const struct ft_cfi_sec *s, const unsigned char *p,
			const unsigned char *end)
{
	struct cfi_rd r = { p, end, s, false };
	uint64_t v;
	bool ind;

	while (r.p < end && !r.bad) {
		uint8_t op = (uint8_t)cfi_rd_n(&r, 1);

		if ((op & 0xc0) == 0x40) {
			advance_n(x, op & 0x3f);
			continue;
		}
		if (reg_op(x, &r, op) || cfa_op(x, &r, op))
			continue;
		switch (op) {
		case 0x00:			/* nop */
			break;
		case 0x01:			/* set_loc: never back */
			if (!cfi_rd_enc(&r, x->c->fde_enc, 0, &v, &ind) || ind || v < x->loc) {
				x->damaged = true;
				return false;
			}
			advance(x, v - x->loc);
			break;
		case 0x02: case 0x03: case 0x04:	/* advance_loc1, 2, 4 */
			advance_n(x, cfi_rd_n(&r, op == 0x02 ? 1 : op == 0x03 ? 2 : 4));
			break;
		case 0x0a:			/* remember_state */
			if (x->depth == STATE_DEPTH)
				return false;
			x->stack[x->depth++] = x->st;
			break;
		case 0x0b:			/* restore_state */
			if (!x->depth) {
				x->damaged = true;
				return false;
			}
			x->st = x->stack[--x->depth];
			break;
		case 0x2e:			/* GNU_args_size: no rule */
			cfi_rd_uleb(&r);
			break;
		default:
			return false;
		}
	}
	x->damaged |= r.bad;
	return !r.bad;
}

/* cfi_cie_init - run a CIE's program once into its initial rules (@work charged for it) */
void cfi_cie_init(struct cfi_cie *c, uint64_t *work)
{
	struct run x;

	memset(&x, 0, sizeof(x));
	x.c = c;
	x.st.cfa.kind = FT_CFA_BAD;
	x.st.ra.kind = FT_RULE_SAME;
	x.st.bp.kind = FT_RULE_SAME;
	x.st.bx.kind = FT_RULE_SAME;
	x.loc = 0;
	x.end = 0;			/* a CIE writes no rows */
	x.damaged = !cfi_charge(work, (uint64_t)(c->ins_end - c->ins));
	c->init_ok = !x.damaged && run_program(&x, c->sec, c->ins, c->ins_end);
	c->init_damaged = x.damaged;
	c->init = x.st;
}

/*
 * cfi_run_fde - one FDE's rows into the table, then the end of its addresses: 0, 1 when
 * its program (or its CIE's) stopped on damage or the work was spent (the rest of its
 * rows not taken), -1 out of memory
 */
int cfi_run_fde(struct ft_cfi *t, const struct cfi_cie *c, const struct cfi_fde *f,
		 uint64_t *work)
{
	struct ft_cfi_row none;
	struct run x;
	bool ok;

	memset(&x, 0, sizeof(x));
	x.t = t;
	x.c = c;
	x.st = c->init;
	x.init = c->init;
	x.loc = f->start;
	x.end = f->end;
	x.damaged = c->init_damaged || (c->init_ok &&
					!cfi_charge(work, (uint64_t)(f->ins_end - f->ins)));
	ok = c->init_ok && !x.damaged && run_program(&x, f->sec, f->ins, f->ins_end);
	if (!ok)
		x.st.cfa = cfa_bad;	/* from here to the FDE's end */
	emit(&x);
	memset(&none, 0, sizeof(none));
	none.cfa_kind = FT_CFA_NONE;
	push_row(&x, f->end, &none);
	return x.failed ? -1 : x.damaged;
}
