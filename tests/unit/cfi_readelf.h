/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For tests/unit/test_cfi.c: a CFI table (events/cfi.h) against what `readelf
 * --debug-dump=frames-interp` prints for the same file's .eh_frame: every row readelf
 * prints (the CFA, the return address, rbp and rbx), every row the table starts, and the gaps
 * between FDEs; and the rule mix. Included after cmocka.h (the asserts).
 */
#ifndef FTSCOPE_TESTS_UNIT_CFI_READELF_H
#define FTSCOPE_TESTS_UNIT_CFI_READELF_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "events/cfi.h"

static const char *const regname[17] = {
	"rax", "rdx", "rcx", "rbx", "rsi", "rdi", "rbp", "rsp",
	"r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15", "rip",
};

/* rule_str - a register rule as readelf's frames-interp prints it ("?" not taken) */
static void rule_str(char *s, size_t len, uint8_t kind, uint8_t reg, int off)
{
	switch (kind) {
	case FT_RULE_SAME: case FT_RULE_UNDEF: snprintf(s, len, "u"); break;
	case FT_RULE_CFA: snprintf(s, len, "c%+d", off); break;
	case FT_RULE_VALCFA: snprintf(s, len, "v%+d", off); break;
	case FT_RULE_ATREG: snprintf(s, len, "exp"); break;
	case FT_RULE_REG: snprintf(s, len, "r%d (%s)", reg, reg < 17 ? regname[reg] : "?"); break;
	default: snprintf(s, len, "?");
	}
}

/* row_str - a row's CFA, return address, rbp and rbx rules as readelf prints them */
static void row_str(const struct ft_cfi_row *r, char cfa[32], char ra[32], char bp[32],
		    char bx[32])
{
	if (!r)
		snprintf(cfa, 32, "none");
	else if (r->cfa_kind == FT_CFA_REG)
		snprintf(cfa, 32, "%s%+d", r->cfa_reg < 17 ? regname[r->cfa_reg] : "?", r->cfa_off);
	else if (r->cfa_kind == FT_CFA_PLT || r->cfa_kind == FT_CFA_DEREF)
		snprintf(cfa, 32, "exp");
	else
		snprintf(cfa, 32, "?");
	rule_str(ra, 32, r ? r->ra_kind : FT_RULE_BAD, r ? r->ra_reg : 0, r ? r->ra_off : 0);
	rule_str(bp, 32, r ? r->bp_kind : FT_RULE_BAD, r ? r->bp_reg : 0, r ? r->bp_off : 0);
	rule_str(bx, 32, r ? r->bx_kind : FT_RULE_BAD, r ? r->bx_reg : 0, r ? r->bx_off : 0);
}

/* One row as readelf prints it, normalised ("s" and a missing column are "u"). */
struct rrow {
	uint64_t	pc;
	char		cfa[32], ra[32], bp[32], bx[32];
};

struct rcie {
	unsigned long	off;
	struct rrow	init;
};

struct vec {
	uint64_t	*v;
	size_t		n, cap;
};

/* What one comparison counted. */
struct cmp {
	unsigned long	rows, equal, not_taken, differ, fdes, bounds, gaps;
	unsigned long	simple;		/* CFA rsp/rbp+k, ra at c-8, rbp unchanged or c+k */
	char		other[8][16];	/* the CFA rules of the others, */
	unsigned long	nother[8];	/* and their rows */
	struct vec	pcs;		/* every row and FDE end readelf has */
	struct vec	starts, ends;	/* of the FDEs */
	struct rcie	cie[64];
	int		ncie;
};

/* add - one address to a vector */
static void add(struct vec *v, uint64_t pc)
{
	if (v->n == v->cap) {
		v->cap = v->cap ? 2 * v->cap : 4096;
		v->v = realloc(v->v, v->cap * sizeof(*v->v));
		assert_non_null(v->v);
	}
	v->v[v->n++] = pc;
}

/* cmp_u64 - ascending */
static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* has - whether sorted @v holds @pc */
static bool has(const struct vec *v, uint64_t pc)
{
	return v->n && bsearch(&pc, v->v, v->n, sizeof(*v->v), cmp_u64);
}

/* norm - readelf's "s" (same value) is the table's unchanged, as "u" is */
static void norm(char *v)
{
	if (!strcmp(v, "s") || !*v)
		strcpy(v, "u");
}

/* tally - the rule mix: simple rows, and the others by their CFA's register (or "exp") */
static void tally(struct cmp *c, const struct rrow *e)
{
	char kind[16];
	int i;

	if ((!strncmp(e->cfa, "rsp", 3) || !strncmp(e->cfa, "rbp", 3)) && !strcmp(e->ra, "c-8") &&
	    (!strcmp(e->bp, "u") || e->bp[0] == 'c')) {
		c->simple++;
		return;
	}
	snprintf(kind, sizeof(kind), "%.3s", e->cfa);
	if (strcmp(e->ra, "c-8"))
		snprintf(kind, sizeof(kind), "ra %.8s", e->ra);
	else if (strncmp(e->cfa, "rsp", 3) && strncmp(e->cfa, "rbp", 3))
		snprintf(kind, sizeof(kind), "cfa %.3s", e->cfa);
	else
		snprintf(kind, sizeof(kind), "rbp %.8s", e->bp);
	for (i = 0; i < 8 && c->other[i][0] && strcmp(c->other[i], kind); i++)
		;
	if (i == 8)
		return;
	snprintf(c->other[i], sizeof(c->other[i]), "%s", kind);
	c->nother[i]++;
}

/* check_row - one readelf row against the table's row at its address */
static void check_row(struct cmp *c, const struct ft_cfi *t, const char *name, struct rrow *e)
{
	char cfa[32], ra[32], bp[32], bx[32];
	const struct ft_cfi_row *r = ft_cfi_find(t, e->pc);

	norm(e->ra);
	norm(e->bp);
	norm(e->bx);
	row_str(r, cfa, ra, bp, bx);
	c->rows++;
	tally(c, e);
	add(&c->pcs, e->pc);
	if (!strcmp(cfa, e->cfa) && !strcmp(ra, e->ra) && !strcmp(bp, e->bp) &&
	    !strcmp(bx, e->bx)) {
		c->equal++;
		return;
	}
	/* not taken, where readelf shows an expression too */
	if ((!strcmp(cfa, e->cfa) || (!strcmp(cfa, "?") && !strcmp(e->cfa, "exp"))) &&
	    (!strcmp(ra, e->ra) || (!strcmp(ra, "?") && strstr(e->ra, "exp"))) &&
	    (!strcmp(bp, e->bp) || (!strcmp(bp, "?") && strstr(e->bp, "exp"))) &&
	    (!strcmp(bx, e->bx) || (!strcmp(bx, "?") && strstr(e->bx, "exp")))) {
		if (++c->not_taken <= 5)
			print_message("%s %#lx: not taken (readelf %s %s %s)\n", name,
				      (unsigned long)e->pc, e->cfa, e->ra, e->bp);
		return;
	}
	c->differ++;
	if (c->differ <= 20)
		print_message("%s %#lx: readelf %s %s %s %s, table %s %s %s %s\n", name,
			      (unsigned long)e->pc, e->cfa, e->ra, e->bp, e->bx, cfa, ra, bp, bx);
}

/* parse_row - a row line under a header whose columns are @col; false if it is none */
static bool parse_row(char *line, char col[24][8], int ncol, struct rrow *r)
{
	char *tok, *save, *v[32];
	int i, n = 0;

	memset(r, 0, sizeof(*r));
	/* a register rule prints as "r1 (rdx)": one column */
	for (tok = strtok_r(line, " \t\n", &save); tok && n < 32;
	     tok = strtok_r(NULL, " \t\n", &save)) {
		if (tok[0] == '(' && n) {
			tok[-1] = ' ';
			continue;
		}
		v[n++] = tok;
	}
	if (n < 2 || strlen(v[0]) != 16)
		return false;
	r->pc = strtoull(v[0], NULL, 16);
	for (i = 1; i < n && i < ncol; i++) {
		if (!strcmp(col[i], "CFA"))
			snprintf(r->cfa, sizeof(r->cfa), "%s", v[i]);
		else if (!strcmp(col[i], "ra"))
			snprintf(r->ra, sizeof(r->ra), "%s", v[i]);
		else if (!strcmp(col[i], "rbp"))
			snprintf(r->bp, sizeof(r->bp), "%s", v[i]);
		else if (!strcmp(col[i], "rbx"))
			snprintf(r->bx, sizeof(r->bx), "%s", v[i]);
	}
	return true;
}

/* fde_end - an FDE's rows checked; one with none has its CIE's first row at its start */
static void fde_end(struct cmp *c, const struct ft_cfi *t, const char *name, uint64_t start,
		    uint64_t end, unsigned long cie, struct rrow *rows, int n)
{
	struct rrow first;
	int i;

	if (start == end)
		return;
	c->fdes++;
	if (!n) {
		for (i = 0; i < c->ncie; i++)
			if (c->cie[i].off == cie)
				first = c->cie[i].init, n++;
		assert_int_equal(n, 1);
		first.pc = start;
		rows = &first;
	}
	for (i = 0; i < n; i++)
		if (rows[i].pc >= start && rows[i].pc < end)
			check_row(c, t, name, &rows[i]);
	add(&c->pcs, end);
	add(&c->starts, start);
	add(&c->ends, end);
}

/* Where a readelf listing is. */
struct rstate {
	int		kind;		/* 0 none, 1 CIE, 2 FDE */
	unsigned long	off, cie;
	uint64_t	start, end;
	struct rrow	*rows;
	int		n, cap;
	char		col[24][8];
	int		ncol;
};

/* entry_end - the CIE or FDE being read is complete */
static void entry_end(struct cmp *c, const struct ft_cfi *t, const char *name, struct rstate *s)
{
	if (s->kind == 2)
		fde_end(c, t, name, s->start, s->end, s->cie, s->rows, s->n);
	s->kind = 0;
	s->n = 0;
}

/* read_line - one line of readelf's listing of .eh_frame */
static void read_line(struct cmp *c, const struct ft_cfi *t, const char *name, struct rstate *s,
		      char *line)
{
	char kind[8], *p, *save;
	unsigned long off, len, id;
	struct rrow r;

	if (sscanf(line, "%lx %lx %lx %7s", &off, &len, &id, kind) == 4 &&
	    (!strcmp(kind, "CIE") || !strcmp(kind, "FDE"))) {
		entry_end(c, t, name, s);
		s->off = off;
		s->kind = kind[0] == 'C' ? 1 : 2;
		p = strstr(line, "cie=");
		if (s->kind == 2)
			assert_true(p && sscanf(p, "cie=%lx pc=%lx..%lx", &s->cie,
						(unsigned long *)&s->start,
						(unsigned long *)&s->end) == 3);
		return;
	}
	if (strstr(line, "   LOC ")) {
		s->ncol = 0;
		for (p = strtok_r(line, " \t\n", &save); p && s->ncol < 24;
		     p = strtok_r(NULL, " \t\n", &save))
			snprintf(s->col[s->ncol++], 8, "%s", p);
		return;
	}
	if (line[0] == '\n') {
		entry_end(c, t, name, s);
		return;
	}
	if (!s->kind || !parse_row(line, s->col, s->ncol, &r))
		return;
	if (s->kind == 1 && c->ncie < 64) {
		c->cie[c->ncie].off = s->off;
		c->cie[c->ncie++].init = r;
		s->kind = 0;
		return;
	}
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 64;
		s->rows = realloc(s->rows, s->cap * sizeof(*s->rows));
		assert_non_null(s->rows);
	}
	s->rows[s->n++] = r;
}

/* compare - the table of @path against readelf's: every row, then the table's boundaries */
static void compare(const char *path, const char *name, const struct ft_cfi *t, struct cmp *c)
{
	char cmd[512], *line = NULL;
	struct rstate s;
	size_t cap = 0, i;
	bool in_eh = false;
	FILE *f;

	memset(&s, 0, sizeof(s));
	snprintf(cmd, sizeof(cmd), "readelf --debug-dump=frames-interp '%s' 2>/dev/null", path);
	f = popen(cmd, "r");
	assert_non_null(f);
	while (getline(&line, &cap, f) > 0) {
		if (!strncmp(line, "Contents of the ", 16)) {
			entry_end(c, t, name, &s);
			in_eh = strstr(line, " .eh_frame section") != NULL;
			continue;
		}
		if (in_eh)
			read_line(c, t, name, &s, line);
	}
	entry_end(c, t, name, &s);
	/* readelf 2.40 exits 1 after a good listing of a file without .debug_frame */
	assert_in_range(pclose(f), 0, 0x100);
	free(line);
	free(s.rows);
	qsort(c->pcs.v, c->pcs.n, sizeof(*c->pcs.v), cmp_u64);
	qsort(c->starts.v, c->starts.n, sizeof(*c->starts.v), cmp_u64);
	/* every row the table starts is one readelf starts (or an FDE's end) */
	for (i = 0; i < t->n; i++)
		if (!has(&c->pcs, t->base + t->row[i].pc) && ++c->bounds <= 20)
			print_message("%s %#lx: a row readelf does not start\n", name,
				      (unsigned long)(t->base + t->row[i].pc));
	/* where an FDE ends and none starts, no row */
	for (i = 0; i < c->ends.n; i++)
		if (!has(&c->starts, c->ends.v[i]) && ft_cfi_find(t, c->ends.v[i]) &&
		    ++c->gaps <= 20)
			print_message("%s %#lx: a row after an FDE's end\n", name,
				      (unsigned long)c->ends.v[i]);
	free(c->pcs.v);
	free(c->starts.v);
	free(c->ends.v);
}

/* against_readelf - one file's table against readelf: no difference, at most @bad not taken */
static void against_readelf(const char *path, unsigned long bad)
{
	const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	struct ft_cfi t;
	struct cmp c;

	if (access(path, R_OK)) {
		print_message("SKIP: %s not present\n", path);
		return;
	}
	memset(&c, 0, sizeof(c));
	assert_int_equal(ft_cfi_load(&t, path, 0), 0);
	compare(path, name, &t, &c);
	print_message("%s: %lu rows of %lu equal, %lu not taken, %lu differ; %lu FDEs (table: %u, "
		      "%zu rows, %u damaged), %lu extra row starts, %lu rows in gaps\n", name,
		      c.equal, c.rows, c.not_taken, c.differ, c.fdes, t.fdes, t.n, t.damaged,
		      c.bounds, c.gaps);
	print_message("%s: simple rows %lu of %lu (%.3f%%); others:", name, c.simple, c.rows,
		      100.0 * c.simple / c.rows);
	for (int i = 0; i < 8 && c.other[i][0]; i++)
		print_message(" %s %lu;", c.other[i], c.nother[i]);
	print_message("\n");
	assert_true(c.rows > 0);
	assert_int_equal(c.differ, 0);
	assert_int_equal(c.bounds, 0);
	assert_int_equal(c.gaps, 0);
	assert_int_equal(c.fdes, t.fdes);
	assert_true(c.not_taken <= bad);
	ft_cfi_free(&t);
}

#endif
