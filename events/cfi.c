// SPDX-License-Identifier: GPL-2.0
/*
 * Call frame information into a table sorted by address (events/cfi.h): the sections'
 * half. The FDEs of .eh_frame come from .eh_frame_hdr's sorted table where it has one,
 * else from a scan; .debug_frame's fill the addresses .eh_frame leaves. Each FDE's
 * program (its CIE's first) runs once in events/cfi_prog.c; a row holds the rules for
 * the CFA, the return address and rbp. Every length, offset and pointer read here is
 * checked against its section: an entry that cannot be read is damaged (counted) and
 * its addresses get no row, the rest of the table stands. The work is bounded
 * (CFI_WORK_PER_BYTE): a crafted file cannot make the build hang.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "events/cfi_int.h"
#include "lib/util.h"

#define CIE_RECENT	8	/* CIEs looked for among the last parsed before parsing again */
#define AUG_MAX		16	/* a longer augmentation string is not one we know */

/*
 * rd_entry - the CIE/FDE at @off of @s (32- or 64-bit length): @r ends where it ends,
 * its id in *@id; false at the end (a zero length) or where the length leaves the section
 */
static bool rd_entry(struct cfi_rd *r, const struct ft_cfi_sec *s, size_t off, uint64_t *id,
		     bool *is64)
{
	uint64_t len;

	r->p = s->p;
	r->end = s->p + s->len;
	r->sec = s;
	r->bad = off > s->len;
	if (r->bad)
		return false;
	r->p += off;
	len = cfi_rd_n(r, 4);
	*is64 = len == 0xffffffff;
	if (*is64)
		len = cfi_rd_n(r, 8);
	if (r->bad || !len || len > (uint64_t)(r->end - r->p))
		return false;
	r->end = r->p + len;
	*id = cfi_rd_n(r, *is64 ? 8 : 4);
	return !r->bad;
}

/* parse_aug - a "z" CIE's augmentation data (@aug: the string after the z) into @c */
static bool parse_aug(struct cfi_rd *r, const char *aug, struct cfi_cie *c)
{
	uint64_t alen = cfi_rd_uleb(r), v;
	const unsigned char *aend;
	uint8_t e;

	if (r->bad || alen > (uint64_t)(r->end - r->p))
		return false;
	aend = r->p + alen;
	c->z = true;
	for (; *aug; aug++) {
		switch (*aug) {
		case 'R': c->fde_enc = (uint8_t)cfi_rd_n(r, 1); break;
		case 'L': cfi_rd_n(r, 1); break;
		case 'P':
			e = (uint8_t)cfi_rd_n(r, 1);
			if (!cfi_rd_enc(r, e, 0, &v, NULL))
				return false;
			break;
		case 'S': c->signal = true; break;
		default: return false;
		}
	}
	if (r->bad || r->p > aend)
		return false;
	r->p = aend;
	return true;
}

/* parse_cie - the CIE at @off of @s into @c through @r (its program not run); false: damaged */
static bool parse_cie(struct cfi_rd *r, const struct ft_cfi_sec *s, size_t off, bool dbg,
		      struct cfi_cie *c)
{
	uint64_t id, cie_id;
	const char *aug;
	bool is64;
	int ver;

	if (!rd_entry(r, s, off, &id, &is64))
		return false;
	cie_id = !dbg ? 0 : is64 ? ~(uint64_t)0 : 0xffffffff;
	if (id != cie_id)
		return false;
	memset(c, 0, sizeof(*c));
	c->sec = s;
	c->off = off;
	c->addr_size = 8;
	ver = (int)cfi_rd_n(r, 1);
	aug = (const char *)r->p;
	while (r->p < r->end && *r->p && r->p - (const unsigned char *)aug < AUG_MAX)
		r->p++;
	if (r->p >= r->end || *r->p || (ver != 1 && ver != 3 && ver != 4))
		return false;
	r->p++;
	if (ver == 4) {
		c->addr_size = (int)cfi_rd_n(r, 1);
		if (cfi_rd_n(r, 1) || (c->addr_size != 4 && c->addr_size != 8))
			return false;	/* segment selectors */
	}
	c->code_align = cfi_rd_uleb(r);
	c->data_align = cfi_rd_sleb(r);
	c->ra = ver == 1 ? cfi_rd_n(r, 1) : cfi_rd_uleb(r);
	c->fde_enc = dbg && c->addr_size == 4 ? 0x03 : 0x00;
	if (*aug == 'z') {
		if (!parse_aug(r, aug + 1, c))
			return false;
	} else if (*aug) {
		return false;
	}
	c->ins = r->p;
	c->ins_end = r->end;
	return !r->bad && c->code_align;
}

/* The FDEs found, the CIEs they name, what was damaged, and the work left. */
struct fdes {
	struct cfi_fde	*f;
	size_t		n, cap;
	struct cfi_cie	*c;
	size_t		nc, capc;
	unsigned int	damaged;
	uint64_t	work;
};

/* charge_read - the bytes @r read from @off of its section taken from the work left */
static bool charge_read(struct fdes *l, const struct cfi_rd *r, const struct ft_cfi_sec *s,
			size_t off)
{
	uint64_t n = off <= s->len && r->p >= s->p + off ? (uint64_t)(r->p - (s->p + off)) : 0;

	return cfi_charge(&l->work, n + 1);
}

/* cie_of - the index of the parsed CIE at @off, parsed now if not among the last few; -1 */
static long cie_of(struct fdes *l, const struct ft_cfi_sec *s, size_t off, bool dbg)
{
	struct cfi_cie c;
	struct cfi_rd r;
	bool ok;
	size_t i;

	for (i = l->nc; i > 0 && i + CIE_RECENT > l->nc; i--)	/* the last few parsed */
		if (l->c[i - 1].sec == s && l->c[i - 1].off == off)
			return (long)i - 1;
	if (!l->work)
		return -1;
	ok = parse_cie(&r, s, off, dbg, &c);
	if (!charge_read(l, &r, s, off) || !ok)
		return -1;
	cfi_cie_init(&c, &l->work);
	if (ft_grow((void **)&l->c, sizeof(*l->c), l->nc, 1, &l->capc))
		return -1;
	l->c[l->nc] = c;
	return (long)l->nc++;
}

/*
 * read_fde - the FDE whose id (CIE pointer) @r has just read at @idpos into *@f: 1 read,
 * 0 an empty range, -1 damaged
 */
static int read_fde(struct fdes *l, struct cfi_rd *r, uint64_t id, size_t idpos, bool dbg,
		    struct cfi_fde *f)
{
	const struct ft_cfi_sec *s = r->sec;
	uint64_t start, range, alen;
	struct cfi_cie *c;
	bool ind = false;
	long ci;

	if ((!dbg && id > idpos) || (dbg && id >= s->len))
		return -1;	/* a CIE pointer before the section, or past it */
	ci = cie_of(l, s, dbg ? (size_t)id : idpos - (size_t)id, dbg);
	if (ci < 0)
		return -1;
	c = &l->c[ci];
	if (!cfi_rd_enc(r, c->fde_enc, 0, &start, &ind) || ind ||
	    !cfi_rd_enc(r, c->fde_enc & 0x0f, 0, &range, NULL))
		return -1;
	if (c->z) {
		alen = cfi_rd_uleb(r);
		if (r->bad || alen > (uint64_t)(r->end - r->p))
			return -1;
		r->p += alen;
	}
	if (!range || start + range < start)
		return 0;
	*f = (struct cfi_fde){ start, start + range, s, r->p, r->end, (unsigned int)ci, 0 };
	return 1;
}

/*
 * add_fde - the entry at @off of @s if it is an FDE: 1 added, 0 a CIE or the end, -1
 * damaged (counted; also once the work is spent), -2 out of memory. *@next: the offset
 * after it (unset at the end).
 */
static int add_fde(struct fdes *l, const struct ft_cfi_sec *s, size_t off, bool dbg, uint8_t prio,
		   size_t *next)
{
	struct cfi_fde f;
	struct cfi_rd r;
	uint64_t id;
	bool is64;
	int ret;

	if (!rd_entry(&r, s, off, &id, &is64))
		return 0;		/* the end (a zero length), or a length past it */
	*next = (size_t)(r.end - s->p);
	if (id == (dbg ? (is64 ? ~(uint64_t)0 : 0xffffffff) : 0))
		return 0;
	ret = l->work ? read_fde(l, &r, id, off + (is64 ? 12 : 4), dbg, &f) : -1;
	if (!charge_read(l, &r, s, off) || ret < 0) {
		l->damaged++;
		return -1;
	}
	if (!ret)
		return 0;
	if (ft_grow((void **)&l->f, sizeof(*l->f), l->n, 1, &l->cap))
		return -2;
	f.prio = prio;
	l->f[l->n++] = f;
	return 1;
}

/* scan - every FDE of a section in order; 0, or -1 out of memory */
static int scan(struct fdes *l, const struct ft_cfi_sec *s, bool dbg, uint8_t prio)
{
	size_t off = 0, next;

	while (off < s->len && s->len - off >= 4) {
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
	struct cfi_rd r = { hdr->p, hdr->p + hdr->len, hdr, false };
	uint64_t ehp, count, i, loc, fde;
	uint8_t ver, penc, cenc, tenc;
	size_t next;

	ver = (uint8_t)cfi_rd_n(&r, 1);
	penc = (uint8_t)cfi_rd_n(&r, 1);
	cenc = (uint8_t)cfi_rd_n(&r, 1);
	tenc = (uint8_t)cfi_rd_n(&r, 1);
	if (r.bad || ver != 1 || tenc != 0x3b || !cfi_rd_enc(&r, penc, hdr->vaddr, &ehp, NULL) ||
	    ehp != eh->vaddr || !cfi_rd_enc(&r, cenc, hdr->vaddr, &count, NULL) ||
	    count > (uint64_t)(r.end - r.p) / 8)
		return 0;
	for (i = 0; i < count; i++) {
		cfi_rd_enc(&r, tenc, hdr->vaddr, &loc, NULL);
		cfi_rd_enc(&r, tenc, hdr->vaddr, &fde, NULL);
		if (fde < eh->vaddr || fde - eh->vaddr >= eh->len) {
			l->damaged++;
			continue;
		}
		if (add_fde(l, eh, (size_t)(fde - eh->vaddr), false, 0, &next) == -2)
			return -1;
	}
	return 1;
}

/* cmp_fde - by start, .eh_frame's first */
static int cmp_fde(const void *a, const void *b)
{
	const struct cfi_fde *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (int)x->prio - (int)y->prio;
}

/* ft_cfi_build - the table of the given sections (each may be NULL); 0, or -1 out of memory */
int ft_cfi_build(struct ft_cfi *t, const struct ft_cfi_sec *eh, const struct ft_cfi_sec *hdr,
		 const struct ft_cfi_sec *dbg)
{
	struct fdes l;
	uint64_t end = 0, bytes = 0;
	size_t i;
	int ret = -1, h = 0, ok;

	memset(&l, 0, sizeof(l));
	bytes += eh ? eh->len : 0;
	bytes += hdr ? hdr->len : 0;
	bytes += dbg ? dbg->len : 0;
	l.work = CFI_WORK_MIN + (bytes > UINT64_MAX / CFI_WORK_PER_BYTE - CFI_WORK_MIN ?
				 UINT64_MAX / CFI_WORK_PER_BYTE - CFI_WORK_MIN : bytes) *
				CFI_WORK_PER_BYTE;
	if (eh && eh->len && hdr && hdr->len)
		h = from_hdr(&l, eh, hdr);
	if (h < 0 || (eh && eh->len && !h && scan(&l, eh, false, 0)) ||
	    (dbg && dbg->len && scan(&l, dbg, true, 1)))
		goto out;
	t->used_hdr = h;
	if (l.n)
		qsort(l.f, l.n, sizeof(*l.f), cmp_fde);
	t->base = l.n ? l.f[0].start : 0;
	for (i = 0; i < l.n; i++) {
		const struct cfi_fde *f = &l.f[i];

		/* overlaps (.debug_frame under .eh_frame, damage): the first one holds */
		if (f->start < end || f->end - t->base > UINT32_MAX)
			continue;
		ok = cfi_run_fde(t, &l.c[f->cie], f, &l.work);
		if (ok < 0)
			goto out;
		if (ok)		/* a program that could not be run to its end */
			l.damaged++;
		else
			t->fdes++;
		end = f->end;
	}
	for (i = 0; i < t->n; i++)
		t->bad_rows += t->row[i].cfa_kind == FT_CFA_BAD ||
			       t->row[i].ra_kind == FT_RULE_BAD || t->row[i].bp_kind == FT_RULE_BAD;
	ret = 0;
out:
	t->damaged += l.damaged;
	free(l.f);
	free(l.c);
	return ret;
}
