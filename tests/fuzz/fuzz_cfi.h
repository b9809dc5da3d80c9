/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The input of tests/fuzz/fuzz_cfi.c (written by tests/fuzz/mkseed.c --cfi): a head, then
 * the .eh_frame, .eh_frame_hdr and .debug_frame bytes (each cut to what follows), then
 * the rest as a copy of the user stack from @rsp. The code lies at @bias + its address.
 */
#ifndef FTSCOPE_TESTS_FUZZ_FUZZ_CFI_H
#define FTSCOPE_TESTS_FUZZ_FUZZ_CFI_H

#include <stdint.h>

struct fuzz_cfi_head {
	uint64_t	eh_vaddr, hdr_vaddr;	/* the sections' addresses */
	uint64_t	bias;			/* where the file's address 0 is mapped */
	uint64_t	rip, rsp, rbp;		/* the first walk's registers */
	uint32_t	eh_len, hdr_len, dbg_len;
	uint32_t	flags;			/* bit 0: rbp not known */
};

#endif
