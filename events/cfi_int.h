/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Between the two halves of the CFI table builder (events/cfi.h): events/cfi.c reads
 * the sections (CIEs, FDEs, .eh_frame_hdr's table) and events/cfi_prog.c runs each
 * FDE's DW_CFA program into rows. Both read bytes through one bounded cursor; every
 * read past its end, every number that does not fit, marks the cursor bad, and what
 * it was reading is then damaged (never a guess, never a read outside the section).
 */
#ifndef FTSCOPE_EVENTS_CFI_INT_H
#define FTSCOPE_EVENTS_CFI_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "events/cfi.h"

/* A cursor in a section; @bad once a read went past @end or a number did not fit. */
struct cfi_rd {
	const unsigned char	*p, *end;
	const struct ft_cfi_sec	*sec;
	bool			bad;
};

/* cfi_rd_n - @n little-endian bytes as an unsigned number */
static inline uint64_t cfi_rd_n(struct cfi_rd *r, int n)
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

/*
 * cfi_rd_leb - a LEB128, signed if @sign (sign-extended, as two's complement bits): bad
 * when it runs past the end or holds bits beyond 64 (other than copies of a signed one's
 * sign); as long as it is, its shift counts no further than 70
 */
static inline uint64_t cfi_rd_leb(struct cfi_rd *r, bool sign)
{
	uint64_t v = 0;
	int shift = 0;

	while (!r->bad && r->p < r->end) {
		unsigned int b = *r->p++, d = b & 0x7f;

		if (shift < 64)
			v |= (uint64_t)d << shift;
		if (shift >= 63) {	/* bits beyond 64: 6 of the byte at 63, all after */
			unsigned int over = shift == 63 ? d >> 1 : d;
			unsigned int full = shift == 63 ? 0x3f : 0x7f;

			if (over != (sign && v >> 63 ? full : 0))
				r->bad = true;
		}
		shift = shift < 64 ? shift + 7 : 70;
		if (!(b & 0x80))
			return r->bad ? 0 : sign && shift < 64 && (b & 0x40) ?
				v | ~(uint64_t)0 << shift : v;
	}
	r->bad = true;
	return 0;
}

#define cfi_rd_uleb(r)	cfi_rd_leb(r, false)
#define cfi_rd_sleb(r)	((int64_t)cfi_rd_leb(r, true))

/*
 * cfi_rd_enc - a pointer of DW_EH_PE encoding @enc (pcrel from the field's address, datarel
 * from @dbase; additions wrap as the address space does); *@ind set when indirect (the
 * pointer's address); false: not taken or past the end
 */
static inline bool cfi_rd_enc(struct cfi_rd *r, uint8_t enc, uint64_t dbase, uint64_t *out,
			      bool *ind)
{
	uint64_t at = r->sec->vaddr + (uint64_t)(r->p - r->sec->p), v;

	switch (enc & 0x0f) {
	case 0x00: case 0x04: case 0x0c: v = cfi_rd_n(r, 8); break;
	case 0x01: v = cfi_rd_uleb(r); break;
	case 0x02: v = cfi_rd_n(r, 2); break;
	case 0x03: v = cfi_rd_n(r, 4); break;
	case 0x09: v = (uint64_t)cfi_rd_sleb(r); break;
	case 0x0a: v = (uint64_t)(int64_t)(int16_t)cfi_rd_n(r, 2); break;
	case 0x0b: v = (uint64_t)(int64_t)(int32_t)cfi_rd_n(r, 4); break;
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


/* The rules at one address while a program runs. */
struct cfi_rule {
	uint8_t		kind, reg;
	int64_t		off, aux;
};

struct cfi_state {
	struct cfi_rule	cfa, ra, bp, bx;
};

/* A CIE as parsed; its program run once into @init (what every FDE of it starts from). */
struct cfi_cie {
	const struct ft_cfi_sec	*sec;
	size_t			off;
	uint64_t		code_align;
	int64_t			data_align;
	uint64_t		ra;
	uint8_t			fde_enc;
	bool			z, signal;
	int			addr_size;
	const unsigned char	*ins, *ins_end;
	struct cfi_state	init;
	bool			init_ok;	/* its program ran to its end */
	bool			init_damaged;	/* ... stopped on damage (run_program) */
};

/* One FDE as found: its addresses, its CIE (index in the list's CIEs), its program. */
struct cfi_fde {
	uint64_t		start, end;
	const struct ft_cfi_sec	*sec;
	const unsigned char	*ins, *ins_end;
	unsigned int		cie;
	uint8_t			prio;		/* 0 .eh_frame, 1 .debug_frame */
};

/*
 * The work a build may do: bytes of programs run and entries read, at most CFI_WORK_PER_BYTE
 * per byte of its sections (plus CFI_WORK_MIN); past it the rest is damaged, so that no
 * crafted table (entries sharing bytes, CIEs re-read) makes the build quadratic
 */
#define CFI_WORK_PER_BYTE	16
#define CFI_WORK_MIN		(1 << 20)

/* cfi_charge - take @n from the budget *@work: false (nothing taken) when it has not that */
static inline bool cfi_charge(uint64_t *work, uint64_t n)
{
	if (*work < n) {
		*work = 0;
		return false;
	}
	*work -= n;
	return true;
}

void cfi_cie_init(struct cfi_cie *c, uint64_t *work);
int cfi_run_fde(struct ft_cfi *t, const struct cfi_cie *c, const struct cfi_fde *f,
		 uint64_t *work);

#endif
