/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the symbol reader (events/elfsyms.c) and the CFI reader (events/cfi_elf.c) both
 * take from an ELF file, read once here: its PT_LOAD segments (a file offset to the
 * ELF's address, as nm, readelf and .eh_frame give addresses), and the vDSO's image.
 */
#ifndef FTSCOPE_EVENTS_ELFSEG_H
#define FTSCOPE_EVENTS_ELFSEG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A PT_LOAD segment: where its bytes are in the file, where in the ELF's addresses. */
struct ft_useg {
	uint64_t	off, vaddr, filesz;
};

/* The segments kept of a file (ld.so maps no more than a few; lld a few more). */
#define FT_USEGS	16

typedef struct Elf Elf;

int ft_elf_segments(Elf *elf, struct ft_useg *seg, int max);
bool ft_useg_vaddr(const struct ft_useg *seg, int n, uint64_t off, uint64_t *vaddr);
const void *ft_vdso(size_t *size);
Elf *ft_elf_mem(const void *image, size_t size, void **copy);

#endif
