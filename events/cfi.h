/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Call frame information of one ELF file (.eh_frame through .eh_frame_hdr's sorted
 * table or a scan of every FDE, and .debug_frame where .eh_frame has no FDE), run
 * once into a table of rows sorted by address: for each row, how to find the CFA,
 * the return address and the caller's rbp and rbx. What the table does not take is marked
 * (FT_CFA_BAD, FT_RULE_BAD), never guessed. events/unwind.c walks stacks with it.
 */
#ifndef FTSCOPE_EVENTS_CFI_H
#define FTSCOPE_EVENTS_CFI_H

#include <stddef.h>
#include <stdint.h>

#include "events/elfseg.h"

/* How a row finds the CFA (the caller's rsp). */
enum ft_cfa_kind {
	FT_CFA_NONE,	/* no FDE covers these addresses */
	FT_CFA_REG,	/* reg + off */
	FT_CFA_PLT,	/* rsp + off + ((rip & 15) >= aux) * 8: the PLT's expression */
	FT_CFA_DEREF,	/* *(reg + off) + aux: the signal frame's expression */
	FT_CFA_BAD,	/* a rule not taken (an unknown expression or opcode) */
};

/* How a row finds a register of the caller (the return address, rbp). */
enum ft_rule_kind {
	FT_RULE_SAME,	/* unchanged (also: never said) */
	FT_RULE_UNDEF,	/* undefined: for the return address, the outermost frame */
	FT_RULE_CFA,	/* saved at CFA + off */
	FT_RULE_VALCFA,	/* the value CFA + off */
	FT_RULE_ATREG,	/* saved at reg + off (DW_CFA_expression: DW_OP_breg) */
	FT_RULE_REG,	/* the value of register reg */
	FT_RULE_BAD,	/* a rule not taken */
};

/* a signal frame (CIE "S"): the caller's pc is where it was stopped, not a return address */
#define FT_CFI_SIGNAL	1

/*
 * One row, 20 bytes: a rule that does not fit (an offset, an aux over 127) is not taken.
 * rbx is kept beside rbp: glibc's lazy-binding trampoline (_dl_runtime_resolve_xsavec)
 * finds its CFA from rbx, whose value its callee saved or left as it was
 */
struct ft_cfi_row {
	uint32_t	pc;		/* from ft_cfi.base */
	int32_t		cfa_off;
	int16_t		ra_off, bp_off;
	uint8_t		cfa_kind:3, cfa_reg:5;
	uint8_t		ra_kind:3, ra_reg:5;
	uint8_t		bp_kind:3, bp_reg:5;
	uint8_t		cfa_aux:7, flags:1;
	int16_t		bx_off;
	uint8_t		bx_kind:3, bx_reg:5;
	uint8_t		pad;		/* zero: rows are compared as bytes */
};
_Static_assert(sizeof(struct ft_cfi_row) == 20, "a row is 20 bytes");

#define FT_CFI_SEGS	FT_USEGS

struct ft_cfi {
	uint64_t		base;		/* address of row pc 0 */
	struct ft_cfi_row	*row;		/* sorted by pc; each holds up to the next */
	size_t			n, cap;
	struct ft_useg		seg[FT_CFI_SEGS];	/* PT_LOAD: offsets to addresses */
	int			nseg;
	/* what building it found */
	unsigned int		fdes;		/* FDEs taken */
	unsigned int		damaged;	/* CIEs/FDEs that could not be read */
	unsigned int		bad_rows;	/* rows with a rule not taken */
	int			used_hdr;	/* .eh_frame's FDEs came from .eh_frame_hdr */
};

/* A section's bytes and the address of its first byte (0 for .debug_frame). */
struct ft_cfi_sec {
	const unsigned char	*p;
	size_t			len;
	uint64_t		vaddr;
};

#define FT_CFI_NOHDR	1	/* scan .eh_frame even where .eh_frame_hdr has a table */

int ft_cfi_load(struct ft_cfi *t, const char *path, unsigned int flags);
int ft_cfi_load_mem(struct ft_cfi *t, const void *image, size_t size);
int ft_cfi_build(struct ft_cfi *t, const struct ft_cfi_sec *eh, const struct ft_cfi_sec *hdr,
		 const struct ft_cfi_sec *dbg);
const struct ft_cfi_row *ft_cfi_find(const struct ft_cfi *t, uint64_t pc);
int ft_cfi_vaddr(const struct ft_cfi *t, uint64_t off, uint64_t *vaddr);
void ft_cfi_free(struct ft_cfi *t);

#endif
