// SPDX-License-Identifier: GPL-2.0
/*
 * The function symbols of one ELF file, as perf and gdb find them: the file's own
 * .symtab; else a separate debug file, by GNU build ID under
 * /usr/lib/debug/.build-id/NN/REST.debug (where Debian's -dbgsym packages put them),
 * then by .gnu_debuglink (beside the file, in its .debug/, under /usr/lib/debug/DIR/);
 * else .dynsym. "[vdso]" is the running kernel's vDSO, read from this process's own
 * image (the same for every 64-bit process).
 */
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>
#include <zlib.h>

#include "events/syms.h"
#include "lib/util.h"

#define DEBUG_DIR	"/usr/lib/debug"

/**
 * ft_elf_funcs - call @cb for every defined function symbol of @elf's sections of
 * @type (SHT_SYMTAB or SHT_DYNSYM; 0: both); @cb returns non-zero to stop
 */
void ft_elf_funcs(Elf *elf, unsigned int type, ft_elf_func_cb cb, void *ctx)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *data;
		size_t i, n;

		if (!gelf_getshdr(scn, &sh) || !sh.sh_entsize ||
		    (type ? sh.sh_type != type : sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM))
			continue;
		data = elf_getdata(scn, NULL);
		n = sh.sh_size / sh.sh_entsize;
		for (i = 0; data && i < n; i++) {
			GElf_Sym sym;
			const char *name;

			if (!gelf_getsym(data, (int)i, &sym) || !sym.st_value ||
			    sym.st_shndx == SHN_UNDEF ||
			    (GELF_ST_TYPE(sym.st_info) != STT_FUNC &&
			     GELF_ST_TYPE(sym.st_info) != STT_GNU_IFUNC))
				continue;
			name = elf_strptr(elf, sh.sh_link, sym.st_name);
			if (name && *name && cb(ctx, name, sym.st_value, sym.st_size))
				return;
		}
	}
}

/* add_sym - ft_elf_funcs callback filling a symbol table (names without @VERSION) */
static int add_sym(void *ctx, const char *name, uint64_t value, uint64_t size)
{
	return ft_symtab_add(ctx, value, size, name, strcspn(name, "@"));
}

/* ft_elf_build_id - the NT_GNU_BUILD_ID note of @elf: its bytes in @id, their number */
size_t ft_elf_build_id(Elf *elf, unsigned char *id, size_t len)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *data;
		size_t n;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		data = elf_getdata(scn, NULL);
		if (data && data->d_buf &&
		    (n = ft_note_build_id(data->d_buf, data->d_size, sh.sh_addralign, id, len)))
			return n;
	}
	return 0;
}

/* section - the data of @elf's section named @name, or NULL */
static Elf_Data *section(Elf *elf, const char *name)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t shstr;
	const char *s;

	if (elf_getshdrstrndx(elf, &shstr))
		return NULL;
	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && (s = elf_strptr(elf, shstr, sh.sh_name)) &&
		    !strcmp(s, name) && sh.sh_type != SHT_NOBITS)
			return elf_getdata(scn, NULL);
	return NULL;
}

/* file_crc - the CRC-32 of a whole file (.gnu_debuglink's); false when unreadable */
static bool file_crc(int fd, uint32_t *crc)
{
	unsigned char buf[65536];
	uLong c = crc32(0, Z_NULL, 0);
	ssize_t n;

	if (lseek(fd, 0, SEEK_SET))
		return false;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		c = crc32(c, buf, (uInt)n);
	*crc = (uint32_t)c;
	return !n;
}

/*
 * debug_symtab - the .symtab of debug file @path into @st when it belongs to @elf:
 * the same build ID when @elf has one, else the CRC .gnu_debuglink states (@crc set)
 */
static bool debug_symtab(Elf *elf, const char *path, const uint32_t *crc, struct ft_symtab *st)
{
	unsigned char id[64], did[64];
	size_t n = ft_elf_build_id(elf, id, sizeof(id)), dn;
	bool ok = false;
	uint32_t c;
	Elf *delf;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	delf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (delf && elf_kind(delf) == ELF_K_ELF) {
		dn = ft_elf_build_id(delf, did, sizeof(did));
		if (n)
			ok = dn == n && !memcmp(id, did, n);
		else
			ok = crc && file_crc(fd, &c) && c == *crc;
	}
	if (ok)
		ft_elf_funcs(delf, SHT_SYMTAB, add_sym, st);
	if (delf)
		elf_end(delf);
	close(fd);
	return ok && st->n;
}

/* by_build_id - the debug file /usr/lib/debug/.build-id/NN/REST.debug of @elf */
static bool by_build_id(Elf *elf, struct ft_symtab *st)
{
	unsigned char id[64];
	char hex[2 * sizeof(id) + 1], path[256];
	size_t n = ft_elf_build_id(elf, id, sizeof(id));

	if (n < 2)
		return false;
	ft_hex(hex, id, n);
	snprintf(path, sizeof(path), DEBUG_DIR "/.build-id/%.2s/%s.debug", hex, hex + 2);
	return debug_symtab(elf, path, NULL, st);
}

/* by_debuglink - .gnu_debuglink's file beside @path, in its .debug/, or under /usr/lib/debug */
static bool by_debuglink(Elf *elf, const char *path, struct ft_symtab *st)
{
	Elf_Data *d = section(elf, ".gnu_debuglink");
	char dir[4096], file[8192];
	const char *name, *slash;
	size_t len, at;
	uint32_t crc;
	int i;

	if (!d || !d->d_buf || d->d_size < 8)
		return false;
	name = d->d_buf;
	len = strnlen(name, d->d_size);
	at = (len + 4) & ~(size_t)3;		/* the name, its NUL, padding to 4 */
	if (!len || len == d->d_size || at + 4 > d->d_size || strchr(name, '/'))
		return false;
	memcpy(&crc, (const char *)d->d_buf + at, 4);
	slash = strrchr(path, '/');
	if (!slash || (size_t)(slash - path) >= sizeof(dir))
		return false;
	snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	for (i = 0; i < 3; i++) {
		static const char *const fmt[] = { "%s/%s", "%s/.debug/%s", DEBUG_DIR "%s/%s" };

		snprintf(file, sizeof(file), fmt[i], dir, name);
		if (strcmp(file, path) && debug_symtab(elf, file, &crc, st))
			return true;
	}
	return false;
}

/* ft_elf_segments - the PT_LOAD segments of @elf into @seg (at most @max); their number */
int ft_elf_segments(Elf *elf, struct ft_useg *seg, int max)
{
	size_t i, phnum;
	int n = 0;

	if (elf_getphdrnum(elf, &phnum))
		return 0;
	for (i = 0; i < phnum && n < max; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD)
			seg[n++] = (struct ft_useg){ ph.p_offset, ph.p_vaddr, ph.p_filesz };
	}
	return n;
}

/* ft_useg_vaddr - file offset @off as an ELF address through @n segments; false: in none */
bool ft_useg_vaddr(const struct ft_useg *seg, int n, uint64_t off, uint64_t *vaddr)
{
	int i;

	for (i = 0; i < n; i++)
		if (off >= seg[i].off && off - seg[i].off < seg[i].filesz) {
			*vaddr = off - seg[i].off + seg[i].vaddr;
			return true;
		}
	return false;
}

/* symbols - @elf's segments and functions (file at @path, NULL: none); where they came from */
static enum ft_sym_src symbols(Elf *elf, const char *path, struct ft_symtab *st,
			       struct ft_useg *seg, int max, int *nseg)
{
	enum ft_sym_src src = FT_SYMS_NONE;

	*nseg = ft_elf_segments(elf, seg, max);
	ft_elf_funcs(elf, SHT_SYMTAB, add_sym, st);
	if (st->n)
		src = FT_SYMS_SYMTAB;
	else if (by_build_id(elf, st))
		src = FT_SYMS_BUILD_ID;
	else if (path && by_debuglink(elf, path, st))
		src = FT_SYMS_DEBUGLINK;
	if (!st->n) {
		ft_elf_funcs(elf, SHT_DYNSYM, add_sym, st);
		src = st->n ? FT_SYMS_DYNSYM : FT_SYMS_NONE;
	}
	ft_symtab_sort(st);
	return src;
}

/*
 * ft_vdso - this process's vDSO image (the running kernel's: the same in every 64-bit
 * process) and its size, the ELF's furthest extent (section headers, PT_LOAD bytes);
 * NULL when it has none. Read-only: libelf gets a copy (ft_elf_mem).
 */
const void *ft_vdso(size_t *size)
{
	const Elf64_Ehdr *e = (const void *)getauxval(AT_SYSINFO_EHDR);
	const Elf64_Phdr *ph;
	size_t end;
	int i;

	*size = 0;
	if (!e || memcmp(e->e_ident, ELFMAG, SELFMAG) || e->e_ident[EI_CLASS] != ELFCLASS64)
		return NULL;
	end = e->e_shoff + (size_t)e->e_shnum * e->e_shentsize;
	ph = (const void *)((const char *)e + e->e_phoff);
	for (i = 0; i < e->e_phnum; i++)
		if (ph[i].p_type == PT_LOAD && ph[i].p_offset + ph[i].p_filesz > end)
			end = ph[i].p_offset + ph[i].p_filesz;
	if (end < sizeof(*e) || end > (1u << 20))	/* a few pages at most */
		return NULL;
	*size = end;
	return e;
}

/*
 * ft_elf_mem - libelf's view of an ELF image in memory, on a private copy (libelf may
 * write into the memory it is given; the vDSO is read-only): *@copy to free after
 * elf_end. NULL when out of memory.
 */
Elf *ft_elf_mem(const void *image, size_t size, void **copy)
{
	Elf *elf;

	*copy = malloc(size ? size : 1);
	if (!*copy)
		return NULL;
	memcpy(*copy, image, size);
	elf_version(EV_CURRENT);
	elf = elf_memory(*copy, size);
	if (!elf) {
		FT_FREE(*copy);
	}
	return elf;
}

/**
 * ft_elf_symbols - the PT_LOAD segments (into @seg, at most @max, their number in
 * *@nseg) and the function symbols (into @st, sorted) of the file at @path (read at
 * @open when given: the file held open; debug files are found from @path), or of the
 * vDSO for "[vdso]". Returns where the symbols came from (FT_SYMS_NONE: none).
 */
enum ft_sym_src ft_elf_symbols(const char *path, const char *open_at, struct ft_symtab *st,
			       struct ft_useg *seg, int max, int *nseg)
{
	enum ft_sym_src src = FT_SYMS_NONE;
	const void *vdso;
	void *img = NULL;
	size_t size = 0;
	Elf *elf;
	int fd = -1;

	*nseg = 0;
	elf_version(EV_CURRENT);
	if (!strcmp(path, "[vdso]")) {
		vdso = ft_vdso(&size);
		elf = vdso ? ft_elf_mem(vdso, size, &img) : NULL;
	} else {
		fd = open(open_at ? open_at : path, O_RDONLY | O_CLOEXEC);
		elf = fd >= 0 ? elf_begin(fd, ELF_C_READ_MMAP, NULL) : NULL;
	}
	if (elf && elf_kind(elf) == ELF_K_ELF)
		src = symbols(elf, fd < 0 ? NULL : path, st, seg, max, nseg);
	if (elf)
		elf_end(elf);
	if (fd >= 0)
		close(fd);
	free(img);
	return src;
}
