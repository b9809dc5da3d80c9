/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For tests/unit/test_unwind.c: this process's mappings from /proc/self/maps (the
 * unwinder's ucode callback), and names of its addresses from the ELF files' own
 * symbols (.symtab, else the build-ID debug file's, and .dynsym), read with libelf:
 * the oracle that names the walk's frames, apart from the unwinder's code; a vDSO
 * function's address by its name.
 */
#ifndef FTSCOPE_TESTS_UNIT_UW_MAPS_H
#define FTSCOPE_TESTS_UNIT_UW_MAPS_H

/* (after cmocka.h: the asserts) */
#include <fcntl.h>
#include <gelf.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "events/cfi.h"
#include "events/unwind.h"

/* An executable mapping of this process, from /proc/self/maps. */
struct map {
	uint64_t	start, end, pgoff;
	bool		x;
	char		path[256];
};

static struct map maps[512];
static int nmaps;

/* read_maps - this process's mappings */
static void read_maps(void)
{
	char line[512], perm[8];
	FILE *f = fopen("/proc/self/maps", "r");
	unsigned long s, e, off;
	int n;

	assert_non_null(f);
	nmaps = 0;
	while (fgets(line, sizeof(line), f) && nmaps < 512) {
		struct map *m = &maps[nmaps++];

		assert_true(sscanf(line, "%lx-%lx %7s %lx %*s %*s%n", &s, &e, perm, &off, &n) == 4);
		m->start = s;
		m->end = e;
		m->pgoff = off;
		m->x = perm[2] == 'x';
		sscanf(line + n, " %255[^\n]", m->path) == 1 || (m->path[0] = 0);
	}
	fclose(f);
}

/* map_of - the mapping holding @addr, or NULL */
static const struct map *map_of(uint64_t addr)
{
	int lo = 0, hi = nmaps;

	while (lo < hi) {
		int mid = (lo + hi) / 2;

		if (addr < maps[mid].start)
			hi = mid;
		else if (addr >= maps[mid].end)
			lo = mid + 1;
		else
			return &maps[mid];
	}
	return NULL;
}

/* ucode - the unwinder's callback: executable file mappings only */
static int ucode(void *ctx, uint64_t addr, struct ft_ucode *out)
{
	const struct map *m = map_of(addr);

	if (!m || !m->x || (m->path[0] != '/' && strcmp(m->path, "[vdso]")))
		return -1;
	out->path = m->path;
	out->start = m->start;
	out->end = m->end;
	out->pgoff = m->pgoff;
	return 0;
}

/* A function symbol. */
struct fsym {
	uint64_t	lo, hi;
	char		*name;
};

/* A file's function symbols: .symtab, else its build-ID debug file's; .dynsym too. */
struct symfile {
	char		path[256];
	struct ft_cfi	segs;		/* only its segments are used */
	struct fsym	*s;
	size_t		n;
	bool		full;		/* from a .symtab: static functions named */
};

static struct symfile files[16];
static int nfiles;

/* add_syms - the function symbols of @elf's sections of @type */
static bool add_syms(struct symfile *f, Elf *elf, unsigned int type)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	bool any = false;

	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *d;
		GElf_Sym sym;
		size_t i;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != type || !sh.sh_entsize ||
		    !(d = elf_getdata(scn, NULL)))
			continue;
		for (i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			if (!gelf_getsym(d, (int)i, &sym) || !sym.st_value || !sym.st_size ||
			    GELF_ST_TYPE(sym.st_info) != STT_FUNC)
				continue;
			f->s = realloc(f->s, (f->n + 1) * sizeof(*f->s));
			assert_non_null(f->s);
			f->s[f->n].lo = sym.st_value;
			f->s[f->n].hi = sym.st_value + sym.st_size;
			f->s[f->n++].name = strdup(elf_strptr(elf, sh.sh_link, sym.st_name));
			any = true;
		}
	}
	return any;
}

/* debug_syms - the .symtab of @elf's debug file under /usr/lib/debug/.build-id */
static bool debug_syms(struct symfile *f, Elf *elf)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	char path[256];
	bool ok = false;

	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *d = elf_getdata(scn, NULL);
		size_t off = 0, name, desc, i;
		GElf_Nhdr nh;
		int n, fd;
		Elf *de;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE || !d)
			continue;
		while ((off = gelf_getnote(d, off, &nh, &name, &desc)) > 0) {
			const unsigned char *id = (const unsigned char *)d->d_buf + desc;

			if (nh.n_type != NT_GNU_BUILD_ID || nh.n_descsz < 2)
				continue;
			n = snprintf(path, sizeof(path), "/usr/lib/debug/.build-id/%02x/", id[0]);
			for (i = 1; i < nh.n_descsz; i++)
				n += snprintf(path + n, sizeof(path) - n, "%02x", id[i]);
			snprintf(path + n, sizeof(path) - n, ".debug");
			fd = open(path, O_RDONLY);
			if (fd < 0)
				return false;
			de = elf_begin(fd, ELF_C_READ_MMAP, NULL);
			ok = de && add_syms(f, de, SHT_SYMTAB);
			if (de)
				elf_end(de);
			close(fd);
			return ok;
		}
	}
	return false;
}

/* symfile_of - the symbols of the file at @path, read once */
static struct symfile *symfile_of(const char *path)
{
	struct symfile *f;
	int i, fd;
	Elf *elf;

	for (i = 0; i < nfiles; i++)
		if (!strcmp(files[i].path, path))
			return &files[i];
	assert_true(nfiles < 16);
	f = &files[nfiles++];
	snprintf(f->path, sizeof(f->path), "%s", path);
	assert_int_equal(ft_cfi_load(&f->segs, path, 0), 0);
	elf_version(EV_CURRENT);
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	assert_non_null(elf);
	f->full = add_syms(f, elf, SHT_SYMTAB) || debug_syms(f, elf);
	add_syms(f, elf, SHT_DYNSYM);
	elf_end(elf);
	close(fd);
	return f;
}

/* A frame named: its function (or NULL), its file's base name ("[anon]" outside files). */
struct fname {
	const char	*fn, *file;
	bool		full;
};

/* name_of - the function and file of address @addr */
static struct fname name_of(uint64_t addr)
{
	const struct map *m = map_of(addr);
	struct fname r = { NULL, "[anon]", false };
	struct symfile *f;
	uint64_t v;
	size_t i;

	if (!m || m->path[0] != '/')
		return r;
	r.file = strrchr(m->path, '/') + 1;
	f = symfile_of(m->path);
	r.full = f->full;
	if (ft_cfi_vaddr(&f->segs, addr - m->start + m->pgoff, &v))
		return r;
	for (i = 0; i < f->n; i++)
		if (v >= f->s[i].lo && v < f->s[i].hi) {
			r.fn = f->s[i].name;
			if (!strchr(r.fn, '@') && strncmp(r.fn, "__GI_", 5))
				break;	/* prefer a plain name among aliases */
		}
	return r;
}

/* vdso_func - the address of a function of this process's vDSO, by its .dynsym name */
static uint64_t vdso_func(const char *name)
{
	size_t size, i;
	const char *image = ft_vdso(&size);
	Elf *elf = elf_memory((char *)image, size);
	Elf_Scn *scn = NULL;
	uint64_t addr = 0;
	GElf_Shdr sh;
	GElf_Sym sym;
	Elf_Data *d;

	while (elf && (scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_DYNSYM &&
		    (d = elf_getdata(scn, NULL)))
			for (i = 0; i < sh.sh_size / sh.sh_entsize; i++)
				if (gelf_getsym(d, (int)i, &sym) &&
				    !strcmp(elf_strptr(elf, sh.sh_link, sym.st_name), name))
					addr = (uintptr_t)image + sym.st_value;	/* linked at 0 */
	if (elf)
		elf_end(elf);
	return addr;
}

#endif
