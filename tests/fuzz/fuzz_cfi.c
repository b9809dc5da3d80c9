// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: call frame information as a user's process may map it, damaged in
 * any way (tests/fuzz/fuzz_cfi.h: .eh_frame, .eh_frame_hdr, .debug_frame, registers and
 * a stack copy). The table built from the sections (events/cfi.c, cfi_prog.c), checked
 * sorted, every row looked up; then the same sections as an ELF file (a memfd) walked by
 * the unwinder (events/unwind.h) over the stack copy: from the input's registers and
 * from the first rows' addresses, so that every rule is evaluated against fuzzed stack
 * words. A crash, a sanitizer report, an unsorted table or a walk longer than asked aborts.
 */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "events/cfi.h"
#include "events/unwind.h"
#include "lib/file.h"
#include "tests/fuzz/fuzz_cfi.h"

#define MAXF		64
#define WALKS		8
#define SPAN		(1ULL << 40)	/* the one PT_LOAD's size: file offset = address */

/* The file the code callback names. */
struct ctx {
	char		path[64];
	uint64_t	bias;
};

/* code - ft_ucode_fn: every address in [bias, bias + SPAN) is the file's */
static int code(void *p, uint64_t addr, struct ft_ucode *out)
{
	struct ctx *c = p;

	if (addr < c->bias || addr - c->bias >= SPAN)
		return -1;
	out->path = c->path;
	out->start = c->bias;
	out->end = c->bias + SPAN;
	out->pgoff = 0;
	return 0;
}

/* shdr - a section header */
static Elf64_Shdr shdr(uint32_t name, uint32_t type, uint64_t addr, uint64_t off, uint64_t size)
{
	return (Elf64_Shdr){ .sh_name = name, .sh_type = type, .sh_flags = type == SHT_PROGBITS ?
			     SHF_ALLOC : 0, .sh_addr = addr, .sh_offset = off, .sh_size = size,
			     .sh_addralign = 1 };
}

/* elf_file - an x86-64 ELF holding the three sections, written to a memfd: its fd, or -1 */
static int elf_file(const struct fuzz_cfi_head *h, const uint8_t *eh, const uint8_t *hdr,
		    const uint8_t *dbg)
{
	static const char names[] = "\0.eh_frame\0.eh_frame_hdr\0.debug_frame\0.shstrtab";
	size_t data = sizeof(Elf64_Ehdr) + sizeof(Elf64_Phdr);
	size_t strs = data + h->eh_len + h->hdr_len + h->dbg_len;
	size_t sh = strs + sizeof(names);
	Elf64_Ehdr e = { .e_type = ET_DYN, .e_machine = EM_X86_64, .e_version = EV_CURRENT,
			 .e_phoff = sizeof(Elf64_Ehdr), .e_shoff = sh, .e_ehsize = sizeof(e),
			 .e_phentsize = sizeof(Elf64_Phdr), .e_phnum = 1,
			 .e_shentsize = sizeof(Elf64_Shdr), .e_shnum = 5, .e_shstrndx = 4 };
	Elf64_Phdr ph = { .p_type = PT_LOAD, .p_flags = PF_R | PF_X, .p_filesz = SPAN,
			  .p_memsz = SPAN, .p_align = 4096 };
	Elf64_Shdr s[5] = {
		{ 0 },
		shdr(1, SHT_PROGBITS, h->eh_vaddr, data, h->eh_len),
		shdr(11, SHT_PROGBITS, h->hdr_vaddr, data + h->eh_len, h->hdr_len),
		shdr(25, SHT_PROGBITS, 0, data + h->eh_len + h->hdr_len, h->dbg_len),
		shdr(38, SHT_STRTAB, 0, strs, sizeof(names)),
	};
	int fd = memfd_create("fuzz_cfi", 0);

	s[3].sh_flags = 0;
	memcpy(e.e_ident, ELFMAG, SELFMAG);
	e.e_ident[EI_CLASS] = ELFCLASS64;
	e.e_ident[EI_DATA] = ELFDATA2LSB;
	e.e_ident[EI_VERSION] = EV_CURRENT;
	if (fd < 0)
		return -1;
	if (ft_write_all(fd, &e, sizeof(e)) || ft_write_all(fd, &ph, sizeof(ph)) ||
	    ft_write_all(fd, eh, h->eh_len) || ft_write_all(fd, hdr, h->hdr_len) ||
	    ft_write_all(fd, dbg, h->dbg_len) || ft_write_all(fd, names, sizeof(names)) ||
	    ft_write_all(fd, s, sizeof(s))) {
		close(fd);
		return -1;
	}
	return fd;
}

/* dup_exact - @n bytes in a block of exactly that size (ASan sees a read past them) */
static uint8_t *dup_exact(const uint8_t *p, size_t n)
{
	uint8_t *d = malloc(n ? n : 1);

	if (d)
		memcpy(d, p, n);
	return d;
}

/* table - the sections' table: sorted, every row and its neighbours looked up */
static void table(const struct fuzz_cfi_head *h, const uint8_t *eh, const uint8_t *hdr,
		  const uint8_t *dbg, struct ft_cfi *t)
{
	struct ft_cfi_sec se = { eh, h->eh_len, h->eh_vaddr };
	struct ft_cfi_sec sh = { hdr, h->hdr_len, h->hdr_vaddr };
	struct ft_cfi_sec sd = { dbg, h->dbg_len, 0 };
	const struct ft_cfi_row *r;
	size_t i;
	int d;

	memset(t, 0, sizeof(*t));
	if (ft_cfi_build(t, &se, &sh, &sd))
		return;
	for (i = 0; i < t->n; i++) {
		if (i && t->row[i].pc <= t->row[i - 1].pc)
			abort();		/* the look-up's binary search needs them sorted */
		for (d = -1; d <= 1; d++) {
			r = ft_cfi_find(t, t->base + t->row[i].pc + d);
			if (r && (r < t->row || r >= t->row + t->n || r->cfa_kind == FT_CFA_NONE))
				abort();
		}
	}
}

/* walks - the unwinder over the stack copy: from the input's registers, then from rows */
static void walks(const struct fuzz_cfi_head *h, const struct ft_cfi *t, const uint8_t *stack,
		  size_t n, int fd)
{
	struct ft_unwinder *u = ft_unwinder_new();
	struct ft_ustack st = { h->rsp, stack, n };
	struct ft_uregs regs = { .have = 0 };
	enum ft_unwind_end why;
	uint64_t ip[MAXF];
	struct ctx c;
	int k, got;

	if (!u)
		return;
	snprintf(c.path, sizeof(c.path), "/proc/self/fd/%d", fd);
	c.bias = h->bias;
	for (k = 0; k <= WALKS && (k == 0 || (size_t)k <= t->n); k++) {
		memset(&regs, 0, sizeof(regs));
		regs.r[FT_UREG_IP] = k ? h->bias + t->base + t->row[k - 1].pc : h->rip;
		regs.r[FT_UREG_SP] = h->rsp;
		regs.r[FT_UREG_BP] = h->rbp;
		regs.have = 1u << FT_UREG_IP | 1u << FT_UREG_SP |
			    (h->flags & 1 ? 0 : 1u << FT_UREG_BP);
		got = ft_unwind(u, &regs, &st, code, &c, ip, k % 2 ? MAXF : 5, &why);
		if (got < 1 || got > (k % 2 ? MAXF : 5) || why >= FT_UNWIND_NEND ||
		    ip[0] != regs.r[FT_UREG_IP])
			abort();
	}
	ft_unwinder_free(u);
}

/* LLVMFuzzerTestOneInput - build, look up and walk the table of @data */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_cfi_head h;
	uint8_t *eh, *hdr, *dbg, *stack;
	size_t left;
	struct ft_cfi t;
	int fd;

	if (size < sizeof(h))
		return 0;
	memcpy(&h, data, sizeof(h));
	data += sizeof(h);
	left = size - sizeof(h);
	h.eh_len = h.eh_len < left ? h.eh_len : (uint32_t)left;
	left -= h.eh_len;
	h.hdr_len = h.hdr_len < left ? h.hdr_len : (uint32_t)left;
	left -= h.hdr_len;
	h.dbg_len = h.dbg_len < left ? h.dbg_len : (uint32_t)left;
	left -= h.dbg_len;
	eh = dup_exact(data, h.eh_len);
	hdr = dup_exact(data + h.eh_len, h.hdr_len);
	dbg = dup_exact(data + h.eh_len + h.hdr_len, h.dbg_len);
	stack = dup_exact(data + h.eh_len + h.hdr_len + h.dbg_len, left);
	if (eh && hdr && dbg && stack) {
		table(&h, eh, hdr, dbg, &t);
		fd = elf_file(&h, eh, hdr, dbg);
		if (fd >= 0) {
			walks(&h, &t, stack, left, fd);
			close(fd);
		}
		ft_cfi_free(&t);
	}
	free(eh);
	free(hdr);
	free(dbg);
	free(stack);
	return 0;
}
