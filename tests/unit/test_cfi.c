// SPDX-License-Identifier: GPL-2.0
/*
 * Call frame information tables (events/cfi.c) against a peer and against bytes of
 * known meaning: every FDE row of Debian's libc, ld.so, libcrypto, python3 and this
 * test's own binary against `readelf --debug-dump=frames-interp` (the CFA, return
 * address and rbp rules, each difference printed); hand-built .eh_frame,
 * .eh_frame_hdr and .debug_frame bytes with their exact expected rows.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <fcntl.h>
#include <gelf.h>

#include "events/cfi.h"
#include "tests/unit/cfi_blob.h"
#include "tests/unit/cfi_readelf.h"

/* test_readelf - Debian's libraries and this binary against readelf */
static void test_readelf(void **state)
{
	char self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	against_readelf("/lib/x86_64-linux-gnu/libc.so.6", 0);
	against_readelf("/lib64/ld-linux-x86-64.so.2", 0);
	against_readelf("/lib/x86_64-linux-gnu/libcrypto.so.3", 100);	/* 3 in OpenSSL 3.0.x */
	against_readelf("/usr/bin/python3", 0);	/* 3.11 on Debian 12, 3.13 on 13 */
	assert_true(n > 0);
	self[n] = 0;		/* readelf's own /proc/self/exe is readelf */
	against_readelf(self, 0);
}

/* eh_cie - a CIE "zR" (or "zRS"), pcrel sdata4 addresses, CFA rsp+8, rip at CFA-8 */
static size_t eh_cie(struct blob *b, bool signal)
{
	size_t at = b->n;

	put(b, 0, 4);
	put(b, 0, 4);				/* CIE id */
	put(b, 1, 1);				/* version */
	put_bytes(b, signal ? "zRS" : "zR", signal ? 4 : 3);
	put_bytes(b, "\x01\x78\x10\x01\x1b", 5);	/* code 1, data -8, ra 16, aug 1: R */
	put_bytes(b, "\x0c\x07\x08\x90\x01", 5);	/* def_cfa rsp 8; offset rip c-8 */
	put_len(b, at);
	return at;
}

/* The program of the first FDE: every rule kind, remember/restore, a stop. */
static const char prog[] =
	"\x41\x0e\x10\x86\x02"			/* @1001 rsp+16, rbp c-16 */
	"\x43\x0d\x06"				/* @1004 rbp+16 */
	"\x02\x20\x0a\x0c\x07\x08\xc6"		/* @1024 remember; rsp+8; restore rbp */
	"\x41\x0b"				/* @1025 restore_state */
	"\x4f\x0f\x0b\x77\x08\x80\x00\x3f\x1a\x3b\x2a\x33\x24\x22"	/* @1034 PLT */
	"\x41\x0f\x04\x77\xa0\x01\x06"		/* @1035 *(rsp+160) */
	"\x10\x10\x03\x77\xa8\x01"		/* rip at rsp+168 */
	"\x10\x06\x03\x77\xf8\x00"		/* rbp at rsp+120 */
	"\x41\x0f\x05\x77\x08\x06\x23\x10"	/* @1036 *(rsp+8)+16 */
	"\x41\x0f\x06\x77\x08\x06\x23\xc8\x01"	/* @1037 *(rsp+8)+200: 200 not taken */
	"\x41\x0c\x07\x10\x14\x06\x02\x09\x10\x03"	/* @1038 rsp+16, rbp v-16, rip in rbx */
	"\x41\x07\x10\x08\x06\x2e\x08"		/* @1039 rip undefined, rbp same; args_size */
	"\x02\x07\x3f\x0c\x07\x08";		/* @1040 an unknown opcode: the rest not taken */

/* A row expected: pc, CFA kind, reg, off, aux, ra kind, reg, off, rbp kind, reg, off. */
struct want {
	uint64_t	pc;
	int		ck, cr, co, ca, rk, rr, ro, bk, br, bo;
};

#define S	FT_RULE_SAME
static const struct want want_rows[] = {
	{ 0x1000, FT_CFA_REG, 7, 8, 0,		FT_RULE_CFA, 0, -8,	S, 0, 0 },
	{ 0x1001, FT_CFA_REG, 7, 16, 0,		FT_RULE_CFA, 0, -8,	FT_RULE_CFA, 0, -16 },
	{ 0x1004, FT_CFA_REG, 6, 16, 0,		FT_RULE_CFA, 0, -8,	FT_RULE_CFA, 0, -16 },
	{ 0x1024, FT_CFA_REG, 7, 8, 0,		FT_RULE_CFA, 0, -8,	S, 0, 0 },
	{ 0x1025, FT_CFA_REG, 6, 16, 0,		FT_RULE_CFA, 0, -8,	FT_RULE_CFA, 0, -16 },
	{ 0x1034, FT_CFA_PLT, 7, 8, 11,		FT_RULE_CFA, 0, -8,	FT_RULE_CFA, 0, -16 },
	{ 0x1035, FT_CFA_DEREF, 7, 160, 0,	FT_RULE_ATREG, 7, 168,	FT_RULE_ATREG, 7, 120 },
	{ 0x1036, FT_CFA_DEREF, 7, 8, 16,	FT_RULE_ATREG, 7, 168,	FT_RULE_ATREG, 7, 120 },
	{ 0x1037, FT_CFA_BAD, 0, 0, 0,		FT_RULE_ATREG, 7, 168,	FT_RULE_ATREG, 7, 120 },
	{ 0x1038, FT_CFA_REG, 7, 16, 0,		FT_RULE_REG, 3, 0,	FT_RULE_VALCFA, 0, -16 },
	{ 0x1039, FT_CFA_REG, 7, 16, 0,		FT_RULE_UNDEF, 0, 0,	S, 0, 0 },
	{ 0x1040, FT_CFA_BAD, 0, 0, 0,		FT_RULE_UNDEF, 0, 0,	S, 0, 0 },
	{ 0x1100, FT_CFA_NONE, 0, 0, 0,		S, 0, 0,		S, 0, 0 },
	{ 0x1200, FT_CFA_REG, 7, 8, 0,		FT_RULE_CFA, 0, -8,	S, 0, 0 },
	{ 0x1210, FT_CFA_NONE, 0, 0, 0,		S, 0, 0,		S, 0, 0 },
	{ 0x1300, FT_CFA_REG, 7, 8, 0,		FT_RULE_CFA, 0, -8,	S, 0, 0 },
	{ 0x1301, FT_CFA_BAD, 0, 0, 0,		FT_RULE_CFA, 0, -8,	S, 0, 0 },
	{ 0x1310, FT_CFA_REG, 7, 8, 0,		FT_RULE_CFA, 0, -8,	S, 0, 0 },	/* signal */
	{ 0x1318, FT_CFA_NONE, 0, 0, 0,		S, 0, 0,		S, 0, 0 },
	/* .debug_frame's */
	{ 0x1500, FT_CFA_REG, 7, 8, 0,		FT_RULE_CFA, 0, -8,	S, 0, 0 },
	{ 0x1502, FT_CFA_REG, 7, 16, 0,		FT_RULE_CFA, 0, -8,	S, 0, 0 },
	{ 0x1520, FT_CFA_NONE, 0, 0, 0,		S, 0, 0,		S, 0, 0 },
};
#undef S

/* build_eh - the .eh_frame of the hand-made FDEs at address 0x2000, and its header at 0x3000 */
static void build_eh(struct blob *eh, struct blob *hdr)
{
	size_t cie, sig, f[4];
	uint64_t start[4] = { 0x1000, 0x1200, 0x1300, 0x1310 };
	int i;

	memset(eh, 0, sizeof(*eh));
	eh->vaddr = 0x2000;
	cie = eh_cie(eh, false);
	f[0] = eh_fde(eh, cie, 0x1000, 0x1100, prog, sizeof(prog) - 1);
	f[2] = eh_fde(eh, cie, 0x1300, 0x1310, "\x41\x0b", 2);	/* restore_state, none kept */
	f[1] = eh_fde(eh, cie, 0x1200, 0x1210, "", 0);
	sig = eh_cie(eh, true);
	f[3] = eh_fde(eh, sig, 0x1310, 0x1318, "", 0);
	put(eh, 0, 4);					/* terminator */
	memset(hdr, 0, sizeof(*hdr));
	hdr->vaddr = 0x3000;
	put_bytes(hdr, "\x01\x1b\x03\x3b", 4);
	put(hdr, eh->vaddr - (hdr->vaddr + 4), 4);	/* pcrel sdata4 */
	put(hdr, 4, 4);
	for (i = 0; i < 4; i++) {			/* datarel sdata4, sorted */
		put(hdr, start[i] - hdr->vaddr, 4);
		put(hdr, eh->vaddr + f[i] - hdr->vaddr, 4);
	}
}

/* build_dbg - a .debug_frame: one FDE under .eh_frame's first (not taken), one of its own */
static void build_dbg(struct blob *d)
{
	static const char cie[] = "\xff\xff\xff\xff\x03\x00\x01\x78\x10\x0c\x07\x08\x90\x01";
	uint64_t at, i, s[2] = { 0x1000, 0x1500 };

	memset(d, 0, sizeof(*d));
	put(d, sizeof(cie) - 1, 4);
	put_bytes(d, cie, sizeof(cie) - 1);
	for (i = 0; i < 2; i++) {
		at = d->n;
		put(d, 0, 4);
		put(d, 0, 4);			/* the CIE at offset 0 */
		put(d, s[i], 8);
		put(d, 0x20, 8);
		put_bytes(d, "\x42\x0e\x10", 3);	/* @+2 rsp+16 */
		put_len(d, at);
	}
}

/* check_rows - the table is exactly want_rows (less the .debug_frame ones without @dbg) */
static void check_rows(const struct ft_cfi *t, bool dbg)
{
	size_t i, n = sizeof(want_rows) / sizeof(want_rows[0]) - (dbg ? 0 : 3);

	assert_int_equal(t->n, n);
	for (i = 0; i < n; i++) {
		const struct want *w = &want_rows[i];
		const struct ft_cfi_row *r = &t->row[i];

		assert_int_equal(t->base + r->pc, w->pc);
		assert_int_equal(r->cfa_kind, w->ck);
		if (w->ck != FT_CFA_BAD && w->ck != FT_CFA_NONE) {
			assert_int_equal(r->cfa_reg, w->cr);
			assert_int_equal(r->cfa_off, w->co);
			assert_int_equal(r->cfa_aux, w->ca);
		}
		if (w->ck == FT_CFA_NONE)
			continue;
		assert_int_equal(r->ra_kind, w->rk);
		assert_int_equal(r->bp_kind, w->bk);
		if (w->rk == FT_RULE_ATREG || w->rk == FT_RULE_REG)
			assert_int_equal(r->ra_reg, w->rr);
		if (w->bk == FT_RULE_ATREG || w->bk == FT_RULE_REG)
			assert_int_equal(r->bp_reg, w->br);
		assert_int_equal(r->ra_off, w->ro);
		assert_int_equal(r->bp_off, w->bo);
		assert_int_equal(r->flags, w->pc == 0x1310 ? FT_CFI_SIGNAL : 0);
	}
}

/* test_blob - hand-made .eh_frame, .eh_frame_hdr and .debug_frame give exactly the rows meant */
static void test_blob(void **state)
{
	struct blob eh, hdr, dbg;
	struct ft_cfi_sec se, sh, sd;
	struct ft_cfi t;

	build_eh(&eh, &hdr);
	build_dbg(&dbg);
	se = (struct ft_cfi_sec){ eh.b, eh.n, eh.vaddr };
	sh = (struct ft_cfi_sec){ hdr.b, hdr.n, hdr.vaddr };
	sd = (struct ft_cfi_sec){ dbg.b, dbg.n, 0 };
	memset(&t, 0, sizeof(t));
	assert_int_equal(ft_cfi_build(&t, &se, NULL, NULL), 0);	/* a scan */
	assert_false(t.used_hdr);
	check_rows(&t, false);
	ft_cfi_free(&t);
	assert_int_equal(ft_cfi_build(&t, &se, &sh, NULL), 0);	/* the header's table */
	assert_true(t.used_hdr);
	assert_int_equal(t.fdes, 3);		/* and 0x1300's: a state restored never kept */
	assert_int_equal(t.damaged, 1);
	check_rows(&t, false);
	ft_cfi_free(&t);
	assert_int_equal(ft_cfi_build(&t, &se, &sh, &sd), 0);
	check_rows(&t, true);
	assert_int_equal(t.fdes, 4);
	assert_int_equal(t.damaged, 1);
	assert_null(ft_cfi_find(&t, 0xfff));
	assert_int_equal(ft_cfi_find(&t, 0x1033)->cfa_reg, 6);
	assert_int_equal(ft_cfi_find(&t, 0x1034)->cfa_kind, FT_CFA_PLT);
	assert_null(ft_cfi_find(&t, 0x1100));
	assert_null(ft_cfi_find(&t, 0x11ff));
	assert_null(ft_cfi_find(&t, 0x1600));
	ft_cfi_free(&t);
}

/* test_blob_cut - the .eh_frame cut at every length: FDEs whole before the cut, nothing past */
static void test_blob_cut(void **state)
{
	struct blob eh, hdr;
	struct ft_cfi_sec se, sh;
	struct ft_cfi t;
	size_t len;

	build_eh(&eh, &hdr);
	for (len = 0; len <= eh.n; len++) {
		unsigned char *p = malloc(len + 1);	/* exactly the bytes: ASan sees past them */

		assert_non_null(p);
		memcpy(p, eh.b, len);
		se = (struct ft_cfi_sec){ p, len, eh.vaddr };
		sh = (struct ft_cfi_sec){ hdr.b, hdr.n, hdr.vaddr };
		memset(&t, 0, sizeof(t));
		assert_int_equal(ft_cfi_build(&t, &se, len % 2 ? &sh : NULL, NULL), 0);
		/* four FDEs, 0x1300's damaged by design (test_blob) */
		assert_true(t.fdes + t.damaged <= 4);
		if (len < eh.n - 4)
			assert_true(t.fdes < 3);
		else
			assert_true(t.fdes == 3 && t.damaged == 1);
		ft_cfi_free(&t);
		free(p);
	}
}

/*
 * test_blob_flip - every single-bit flip of the .eh_frame and of its header, each in a block
 * of exactly its size (ASan sees a read past it): a table or none, rows in order, no crash
 */
static void test_blob_flip(void **state)
{
	struct blob eh, hdr, *b;
	struct ft_cfi_sec se, sh;
	struct ft_cfi t;
	unsigned long tables = 0, flips = 0;
	size_t bit, i;
	uint64_t pc;

	build_eh(&eh, &hdr);
	for (b = &eh; b; b = b == &eh ? &hdr : NULL)
		for (bit = 0; bit < 8 * b->n; bit++) {
			unsigned char *p = malloc(b->n);

			assert_non_null(p);
			memcpy(p, b->b, b->n);
			p[bit / 8] ^= 1 << (bit % 8);
			se = (struct ft_cfi_sec){ b == &eh ? p : eh.b, eh.n, eh.vaddr };
			sh = (struct ft_cfi_sec){ b == &hdr ? p : hdr.b, hdr.n, hdr.vaddr };
			memset(&t, 0, sizeof(t));
			assert_int_equal(ft_cfi_build(&t, &se, &sh, NULL), 0);
			for (i = 1; i < t.n; i++)
				assert_true(t.row[i].pc > t.row[i - 1].pc);
			for (pc = 0xff0; pc < 0x1400; pc += 3)
				ft_cfi_find(&t, pc);
			tables += t.n > 0;
			flips++;
			ft_cfi_free(&t);
			free(p);
		}
	print_message("%lu flips, %lu with a table\n", flips, tables);
}

/* test_hdr_scan - libc's table from .eh_frame_hdr's table and from a scan are the same */
static void test_hdr_scan(void **state)
{
	const char *libc = "/lib/x86_64-linux-gnu/libc.so.6";
	struct ft_cfi a, b;
	struct timespec t0, t1;
	double ms[2];
	int i, k;

	for (k = 0; k < 2; k++) {
		clock_gettime(CLOCK_MONOTONIC, &t0);
		for (i = 0; i < 20; i++) {
			assert_int_equal(ft_cfi_load(k ? &b : &a, libc, k ? FT_CFI_NOHDR : 0), 0);
			if (i < 19)
				ft_cfi_free(k ? &b : &a);
		}
		clock_gettime(CLOCK_MONOTONIC, &t1);
		ms[k] = ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) / 20 / 1e6;
	}
	print_message("libc.so.6: table built in %.2f ms (.eh_frame_hdr), %.2f ms (scan); %zu rows "
		      "of %zu bytes, %u FDEs\n", ms[0], ms[1], a.n, sizeof(*a.row), a.fdes);
	assert_true(a.used_hdr);
	assert_false(b.used_hdr);
	assert_int_equal(a.n, b.n);
	assert_int_equal(a.base, b.base);
	assert_memory_equal(a.row, b.row, a.n * sizeof(*a.row));
	ft_cfi_free(&a);
	ft_cfi_free(&b);
}

/* test_vdso - the vDSO's table from its image in memory, and from a copy on disk against readelf */
static void test_vdso(void **state)
{
	char path[] = "/tmp/ftscope-vdso-XXXXXX";
	struct ft_cfi m, f;
	size_t size;
	const void *image = ft_vdso(&size);
	int fd;

	assert_non_null(image);
	assert_int_equal(ft_cfi_load_mem(&m, image, size), 0);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, image, size), size);
	close(fd);
	against_readelf(path, 0);
	assert_int_equal(ft_cfi_load(&f, path, 0), 0);
	unlink(path);
	print_message("vDSO: %zu bytes, %u FDEs, %zu rows\n", size, m.fdes, m.n);
	assert_true(m.fdes > 0);
	assert_int_equal(m.n, f.n);
	assert_memory_equal(m.row, f.row, m.n * sizeof(*m.row));
	ft_cfi_free(&m);
	ft_cfi_free(&f);
}

/* eh_frame_at - the file offset and address of @path's .eh_frame, from its section headers */
static void eh_frame_at(const char *path, uint64_t *off, uint64_t *addr, uint64_t *size)
{
	int fd = open(path, O_RDONLY);
	Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
	Elf_Scn *scn = NULL;
	size_t shstr;
	GElf_Shdr sh;

	assert_non_null(elf);
	assert_int_equal(elf_getshdrstrndx(elf, &shstr), 0);
	*size = 0;
	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) &&
		    !strcmp(elf_strptr(elf, shstr, sh.sh_name), ".eh_frame")) {
			*off = sh.sh_offset;
			*addr = sh.sh_addr;
			*size = sh.sh_size;
		}
	elf_end(elf);
	close(fd);
	assert_true(*size > 0);
}

/*
 * test_damaged - a copy of this binary whose second FDE names no CIE: that FDE alone is
 * counted damaged and its addresses have no row (never another FDE's), with and without
 * .eh_frame_hdr
 */
static void test_damaged(void **state)
{
	char self[4096], path[] = "/tmp/ftscope-damaged-XXXXXX", cmd[8300];
	uint64_t off = 0, addr = 0, size = 0, at = 0, pc = 0;
	unsigned char *eh;
	struct ft_cfi a, b[2];
	uint32_t len, id;
	int fd, fdes = 0, k;
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	assert_true(n > 0);
	self[n] = 0;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", self, path);
	assert_int_equal(system(cmd), 0);
	elf_version(EV_CURRENT);
	eh_frame_at(path, &off, &addr, &size);
	eh = malloc(size);
	fd = open(path, O_RDWR);
	assert_int_equal(pread(fd, eh, size, off), size);
	while (at + 8 <= size && fdes < 2) {	/* the second FDE (pcrel sdata4 start) */
		memcpy(&len, eh + at, 4);
		memcpy(&id, eh + at + 4, 4);
		if (id && ++fdes == 2) {
			int32_t rel;

			memcpy(&rel, eh + at + 8, 4);
			pc = addr + at + 8 + rel;
			id += 4;		/* into the middle of its CIE */
			assert_int_equal(pwrite(fd, &id, 4, off + at + 4), 4);
		}
		at += 4 + len;
	}
	close(fd);
	free(eh);
	assert_int_equal(fdes, 2);
	k = ft_cfi_load(&b[0], path, 0) | ft_cfi_load(&b[1], path, FT_CFI_NOHDR);
	unlink(path);				/* before any assert can end the test */
	assert_int_equal(k, 0);
	assert_int_equal(ft_cfi_load(&a, self, 0), 0);
	for (k = 0; k < 2; k++) {
		print_message("damaged copy (%s): %u FDEs of %u, %u damaged; at %#lx: %s\n",
			      k ? "scan" : ".eh_frame_hdr", b[k].fdes, a.fdes, b[k].damaged,
			      (unsigned long)pc, ft_cfi_find(&b[k], pc) ? "a row" : "none");
		assert_int_equal(b[k].fdes, a.fdes - 1);
		assert_int_equal(b[k].damaged, 1);
		assert_non_null(ft_cfi_find(&a, pc));
		assert_null(ft_cfi_find(&b[k], pc));
		ft_cfi_free(&b[k]);
	}
	ft_cfi_free(&a);
}

/* main - run the CFI table tests */
int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_readelf),
		cmocka_unit_test(test_hdr_scan),
		cmocka_unit_test(test_blob),
		cmocka_unit_test(test_blob_cut),
		cmocka_unit_test(test_blob_flip),
		cmocka_unit_test(test_vdso),
		cmocka_unit_test(test_damaged),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
