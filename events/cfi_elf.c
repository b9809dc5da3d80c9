// SPDX-License-Identifier: GPL-2.0
/*
 * The call frame information table of an ELF file on disk (events/cfi.h): its
 * PT_LOAD segments (file offsets to addresses) and its .eh_frame, .eh_frame_hdr and
 * .debug_frame sections, given to ft_cfi_build; and the look-ups a walk makes.
 */
#include <elf.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "events/cfi.h"

/* ft_cfi_find - the row covering address @pc, or NULL where no FDE does */
const struct ft_cfi_row *ft_cfi_find(const struct ft_cfi *t, uint64_t pc)
{
	size_t lo = 0, hi = t->n;
	uint64_t rel;

	if (!t->n || pc < t->base || pc - t->base > UINT32_MAX)
		return NULL;
	rel = pc - t->base;
	if (rel < t->row[0].pc)
		return NULL;
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;

		if (t->row[mid].pc <= rel)
			lo = mid;
		else
			hi = mid;
	}
	return t->row[lo].cfa_kind == FT_CFA_NONE ? NULL : &t->row[lo];
}

/* ft_cfi_vaddr - the address of file offset @off through the PT_LOAD segments: 0, or -1 */
int ft_cfi_vaddr(const struct ft_cfi *t, uint64_t off, uint64_t *vaddr)
{
	return ft_useg_vaddr(t->seg, t->nseg, off, vaddr) ? 0 : -1;
}

/* ft_cfi_free - a table's memory */
void ft_cfi_free(struct ft_cfi *t)
{
	free(t->row);
	memset(t, 0, sizeof(*t));
}

/* sec_of - a section's bytes (decompressed if need be) into @s; false when it has none */
static bool sec_of(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh, const char *raw, size_t size,
		   struct ft_cfi_sec *s)
{
	Elf_Data *d;

	if (sh->sh_type == SHT_NOBITS)
		return false;
	if (sh->sh_flags & SHF_COMPRESSED) {
		if (elf_compress(scn, 0, 0) < 0 || !(d = elf_getdata(scn, NULL)) || !d->d_buf)
			return false;
		*s = (struct ft_cfi_sec){ d->d_buf, d->d_size, sh->sh_addr };
		return true;
	}
	if (sh->sh_offset > size || sh->sh_size > size - sh->sh_offset)
		return false;
	*s = (struct ft_cfi_sec){ (const unsigned char *)raw + sh->sh_offset, sh->sh_size,
				  sh->sh_addr };
	return true;
}

/* load_elf - segments and frame sections of an open ELF file into @t; 0, or -1 */
static int load_elf(struct ft_cfi *t, Elf *elf, unsigned int flags)
{
	struct ft_cfi_sec eh = { 0 }, hdr = { 0 }, dbg = { 0 };
	size_t size, shstr;
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh_;
	GElf_Shdr sh;
	char *raw = elf_rawfile(elf, &size);

	if (!raw || !gelf_getehdr(elf, &eh_) || eh_.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh_.e_machine != EM_X86_64 || elf_getshdrstrndx(elf, &shstr))
		return -1;
	t->nseg = ft_elf_segments(elf, t->seg, FT_CFI_SEGS);
	while ((scn = elf_nextscn(elf, scn))) {
		const char *name;

		if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(elf, shstr, sh.sh_name)))
			continue;
		if (!strcmp(name, ".eh_frame"))
			sec_of(elf, scn, &sh, raw, size, &eh);
		else if (!strcmp(name, ".eh_frame_hdr") && !(flags & FT_CFI_NOHDR))
			sec_of(elf, scn, &sh, raw, size, &hdr);
		else if (!strcmp(name, ".debug_frame"))
			sec_of(elf, scn, &sh, raw, size, &dbg);
	}
	return ft_cfi_build(t, &eh, &hdr, &dbg);
}

/* load_end - the table of an opened ELF (or none), shrunk to its rows; 0, or -1 */
static int load_end(struct ft_cfi *t, Elf *elf, unsigned int flags)
{
	int ret = -1;

	if (elf && elf_kind(elf) == ELF_K_ELF)
		ret = load_elf(t, elf, flags);
	if (!ret && t->n && t->n < t->cap) {	/* kept for long: no room to grow */
		struct ft_cfi_row *r = realloc(t->row, t->n * sizeof(*r));

		if (r) {
			t->row = r;
			t->cap = t->n;
		}
	}
	if (elf)
		elf_end(elf);
	if (ret)
		ft_cfi_free(t);
	return ret;
}

/* ft_cfi_load - the table of the ELF file @path (x86-64); 0, or -1 (unreadable, not ELF) */
int ft_cfi_load(struct ft_cfi *t, const char *path, unsigned int flags)
{
	int fd, ret;

	memset(t, 0, sizeof(*t));
	elf_version(EV_CURRENT);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ret = load_end(t, elf_begin(fd, ELF_C_READ_MMAP, NULL), flags);
	close(fd);
	return ret;
}

/* ft_cfi_load_mem - the table of an ELF image in memory (the vDSO: ft_vdso); 0, or -1 */
int ft_cfi_load_mem(struct ft_cfi *t, const void *image, size_t size)
{
	void *copy = NULL;
	int ret;

	memset(t, 0, sizeof(*t));
	ret = load_end(t, ft_elf_mem(image, size, &copy), 0);
	free(copy);
	return ret;
}
