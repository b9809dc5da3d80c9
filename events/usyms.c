// SPDX-License-Identifier: GPL-2.0
/*
 * User-space symbols. A process's executable mappings are read once, when it is
 * first seen; each stack address becomes (file, offset) right away, so that the
 * process may exit, exec or unmap before the report. Names come from the file's
 * ELF symbols through its PT_LOAD segments (which handles PIE and shared-library
 * bias), from elfsyms.c (.symtab, debug files, .dynsym; the vDSO's own). Anonymous
 * executable memory resolves through /tmp/perf-PID.map (JITs write it). An address
 * no symbol covers is named by its file and ELF address, "FILE+0xADDR".
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "events/syms.h"
#include "lib/util.h"

/* Re-reads of one process's maps when its IP is not mapped (exec, dlopen). */
#define MAX_REREADS	8

struct ft_ufile {
	char		*path;
	bool		loaded;
	bool		bid_read;
	enum ft_sym_src	src;
	char		build_id[2 * 64 + 1];	/* hex, "" none */
	struct ft_symtab	st;
	struct ft_useg	seg[16];
	int		nseg;
};

struct uproc {
	int		tgid;
	bool		read, jit_read;
	int		rereads;
	struct ft_umap	*maps;
	unsigned int	n;
	struct ft_symtab	*jit;		/* /tmp/perf-TGID.map */
};

/* ft_usyms_init - no processes, no files yet; @live: /proc may be read */
int ft_usyms_init(struct ft_usyms *u, bool live)
{
	memset(u, 0, sizeof(*u));
	u->live = live;
	if (ft_tab_init(&u->procs, sizeof(struct uproc)) || ft_intern_init(&u->paths) ||
	    ft_intern_init(&u->unnamed))
		return -1;
	return 0;
}

/* ft_usyms_fini - free every process and file */
void ft_usyms_fini(struct ft_usyms *u)
{
	unsigned int i;

	for (i = 0; i < u->procs.n; i++) {
		struct uproc *p = ft_tab_at(&u->procs, i);

		free(p->maps);
		if (p->jit)
			ft_symtab_free(p->jit);
		free(p->jit);
	}
	for (i = 0; i < u->nfiles; i++) {
		ft_symtab_free(&u->files[i]->st);
		free(u->files[i]->path);
		free(u->files[i]);
	}
	free(u->files);
	for (i = 0; i < u->unnamed.n; i++)
		free(u->unnamed_text[i]);
	free(u->unnamed_text);
	ft_intern_fini(&u->unnamed);
	ft_tab_fini(&u->procs);
	ft_intern_fini(&u->paths);
	memset(u, 0, sizeof(*u));
}

/* file_index - the index + 1 of @path among the files, adding it; 0 when out of memory */
static unsigned int file_index(struct ft_usyms *u, const char *path)
{
	uint64_t key[64] = { 0 };
	size_t len = strlen(path);
	struct ft_ufile *f, **files;
	long id;

	if (len >= sizeof(key))
		return 0;
	memcpy(key, path, len);
	id = ft_intern_put(&u->paths, key, (uint32_t)(len / 8 + 1));
	if (id < 0 || id > (long)u->nfiles)
		return 0;
	if (id < (long)u->nfiles)
		return (unsigned int)id + 1;
	files = realloc(u->files, (u->nfiles + 1) * sizeof(*files));
	f = calloc(1, sizeof(*f));
	if (files)
		u->files = files;
	if (!files || !f || !(f->path = strdup(path))) {
		free(f);
		return 0;
	}
	u->files[u->nfiles++] = f;
	return u->nfiles;
}

/* set_maps - @tgid's mappings are now @maps (sorted, @n of them); -1 when out of memory */
static int set_maps(struct ft_usyms *u, int tgid, struct ft_umap *maps, unsigned int n)
{
	struct uproc *p = ft_tab_get(&u->procs, tgid);

	if (!p) {
		free(maps);
		return -1;
	}
	free(p->maps);
	p->maps = maps;
	p->n = n;
	p->read = true;
	return 0;
}

/* read_maps - the executable mappings of @p from /proc/TGID/maps */
static int read_maps(struct ft_usyms *u, int tgid)
{
	char path[64], line[4352], perms[8], file[4096];
	unsigned long long start, end, pgoff;
	struct ft_umap *maps = NULL, *m;
	unsigned int n = 0, cap = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", tgid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		file[0] = 0;
		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %4095[^\n]", &start, &end, perms,
			   &pgoff, file) < 4 || !strchr(perms, 'x'))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 32;
			m = realloc(maps, cap * sizeof(*m));
			if (!m)
				break;
			maps = m;
		}
		maps[n].start = start;
		maps[n].end = end;
		maps[n].pgoff = pgoff;
		maps[n].file = 0;
		if (file[0] == '/' || !strcmp(file, "[vdso]"))
			maps[n].file = file_index(u, file);
		n++;
	}
	fclose(f);
	/* a process that has begun to exit shows no mappings: keep those read before */
	if (!n) {
		const struct uproc *p = ft_tab_find(&u->procs, tgid);

		free(maps);
		return p && p->read ? 0 : -1;
	}
	return set_maps(u, tgid, maps, n);
}

/* cmp_map - order mappings by start address, as find_map searches them */
static int cmp_map(const void *a, const void *b)
{
	const struct ft_umap *x = a, *y = b;

	return (x->start > y->start) - (x->start < y->start);
}

/**
 * ft_usyms_add_maps - a process's file mappings as a trace.dat keeps them (PROCMAPS:
 * "PID COUNT COMM" in hex, then "START END PATH" per file, each file's mappings
 * merged from its first one, at file offset 0). Returns 0, or -1 when damaged.
 */
int ft_usyms_add_maps(struct ft_usyms *u, const char *text, size_t len)
{
	char *copy = strndup(text, len), *line, *save = NULL, file[4096];
	unsigned long long start, end;
	unsigned int pid, count, n = 0;
	struct ft_umap *maps;

	if (!copy)
		return -1;
	line = strtok_r(copy, "\n", &save);
	if (!line || sscanf(line, "%x %x", &pid, &count) != 2 || !pid || pid > (1u << 22) ||
	    count > 65536) {
		free(copy);
		return -1;
	}
	maps = calloc(count ? count : 1, sizeof(*maps));
	while (maps && n < count && (line = strtok_r(NULL, "\n", &save)))
		if (sscanf(line, "%llx %llx %4095s", &start, &end, file) == 3 && start < end &&
		    (file[0] == '/' || !strcmp(file, "[vdso]"))) {
			maps[n].start = start;
			maps[n].end = end;
			maps[n++].file = file_index(u, file);
		}
	free(copy);
	if (!maps)
		return -1;
	qsort(maps, n, sizeof(*maps), cmp_map);
	return set_maps(u, (int)pid, maps, n);
}

/**
 * ft_usyms_note - read a process's mappings when it is first seen
 * Returns 0, or -1 when it is gone (its stacks will show [unknown]).
 */
int ft_usyms_note(struct ft_usyms *u, int tgid)
{
	struct uproc *p = ft_tab_find(&u->procs, tgid);

	if (p && p->read)
		return 0;
	if (!u->live || tgid <= 0)
		return -1;
	return read_maps(u, tgid);
}

/* ft_usyms_known - have @tgid's mappings been read (else its frames stay [unknown])? */
bool ft_usyms_known(const struct ft_usyms *u, int tgid)
{
	const struct uproc *p = ft_tab_find(&u->procs, tgid);

	return p && p->read;
}

/* find_map - the executable mapping holding @ip, or NULL */
static const struct ft_umap *find_map(const struct uproc *p, uint64_t ip)
{
	unsigned int lo = 0, hi = p ? p->n : 0;

	while (lo < hi) {
		unsigned int mid = (lo + hi) / 2;

		if (ip < p->maps[mid].start)
			hi = mid;
		else if (ip >= p->maps[mid].end)
			lo = mid + 1;
		else
			return &p->maps[mid];
	}
	return NULL;
}

/**
 * ft_usyms_frames - turn a user stack into frames that outlive the process
 * @ip: addresses, innermost first; @out: room for @n frames. A return address is
 * stored minus one, so that it names the function of the call. The walk ends at
 * the first return address outside executable memory: a frame-pointer walk went
 * astray there (code built without frame pointers).
 * Returns the number of frames.
 */
int ft_usyms_frames(struct ft_usyms *u, int tgid, const uint64_t *ip, int n, uint64_t *out)
{
	struct uproc *p;
	const struct ft_umap *m;
	int i;

	p = ft_tab_find(&u->procs, tgid);
	if ((!p || !p->read) && !ft_usyms_note(u, tgid))
		p = ft_tab_find(&u->procs, tgid);
	for (i = 0; i < n; i++) {
		uint64_t a = i ? ip[i] - 1 : ip[i];

		m = find_map(p, a);
		if (!m && !i && u->live && p && p->rereads < MAX_REREADS) {
			/* the IP is always mapped: the process exec'd or mapped code since */
			p->rereads++;
			u->stale++;
			read_maps(u, tgid);
			p = ft_tab_find(&u->procs, tgid);
			m = find_map(p, a);
		}
		if (!m && i)
			break;
		out[i] = m && m->file ? FT_UFRAME(m->file, a - m->start + m->pgoff) : FT_UFRAME(0, a);
	}
	return i;
}

/* load_jit - /tmp/perf-TGID.map: "START SIZE name" lines, hex */
static struct ft_symtab *load_jit(int tgid)
{
	char path[64], line[1024], name[1024];
	unsigned long long start, size;
	struct ft_symtab *st;
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/perf-%d.map", tgid);
	f = fopen(path, "re");
	if (!f)
		return NULL;
	st = calloc(1, sizeof(*st));
	while (st && fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %llx %1023[^\n]", &start, &size, name) == 3)
			ft_symtab_add(st, start, size, name, strlen(name));
	fclose(f);
	if (st)
		ft_symtab_sort(st);
	return st;
}

/* loaded - file @file (index + 1), its segments and symbols read on first use */
static struct ft_ufile *loaded(struct ft_usyms *u, unsigned int file)
{
	struct ft_ufile *f = u->files[file - 1];

	if (!f->loaded) {
		f->loaded = true;
		f->src = ft_elf_symbols(f->path, &f->st, f->seg,
					(int)(sizeof(f->seg) / sizeof(f->seg[0])), &f->nseg);
	}
	return f;
}

/* elf_addr - file offset @off of @f as an address of its ELF (false: in no segment) */
static bool elf_addr(const struct ft_ufile *f, uint64_t off, uint64_t *addr)
{
	int i;

	for (i = 0; i < f->nseg; i++)
		if (off >= f->seg[i].off && off < f->seg[i].off + f->seg[i].filesz) {
			*addr = off - f->seg[i].off + f->seg[i].vaddr;
			return true;
		}
	return false;
}

/**
 * ft_usyms_symbol - the function of a frame made by ft_usyms_frames: its file's
 * symbol, or a JIT's (/tmp/perf-PID.map) in anonymous memory. Returns NULL for none.
 */
const char *ft_usyms_symbol(struct ft_usyms *u, int tgid, uint64_t frame)
{
	unsigned int file = FT_UFRAME_FILE(frame);
	uint64_t off = FT_UFRAME_OFF(frame), addr;
	struct ft_ufile *f;
	struct uproc *p;

	if (!file) {
		p = ft_tab_get(&u->procs, tgid);
		if (p && !p->jit_read) {
			p->jit_read = true;
			p->jit = load_jit(tgid);
		}
		return p && p->jit ? ft_symtab_find(p->jit, off) : NULL;
	}
	if (file > u->nfiles)
		return NULL;
	f = loaded(u, file);
	return elf_addr(f, off, &addr) ? ft_symtab_find(&f->st, addr) : NULL;
}

/*
 * unnamed - "FILE+0xADDR" for a frame of a file that no symbol covers: the file's
 * base name and the ELF address (the file offset when in no segment), made once
 */
static const char *unnamed(struct ft_usyms *u, uint64_t frame)
{
	const struct ft_ufile *f = u->files[FT_UFRAME_FILE(frame) - 1];
	const char *base = strrchr(f->path, '/');
	uint64_t addr = FT_UFRAME_OFF(frame);
	char **text;
	long id;

	id = ft_intern_put(&u->unnamed, &frame, 1);
	if (id < 0)
		return "[unknown]";
	if ((uint32_t)id < u->unnamed_cap && u->unnamed_text[id])
		return u->unnamed_text[id];
	if ((uint32_t)id >= u->unnamed_cap) {
		uint32_t cap = u->unnamed_cap ? 2 * u->unnamed_cap : 64;

		text = realloc(u->unnamed_text, cap * sizeof(*text));
		if (!text)
			return "[unknown]";
		memset(text + u->unnamed_cap, 0, (cap - u->unnamed_cap) * sizeof(*text));
		u->unnamed_text = text;
		u->unnamed_cap = cap;
	}
	elf_addr(f, addr, &addr);
	if (asprintf(&u->unnamed_text[id], "%s+%#llx", base ? base + 1 : f->path,
		     (unsigned long long)addr) < 0) {
		u->unnamed_text[id] = NULL;
		return "[unknown]";
	}
	return u->unnamed_text[id];
}

/**
 * ft_usyms_name - the function of a frame made by ft_usyms_frames, as reports print
 * it: its symbol; "FILE+0xADDR" in a file no symbol covers; "[unknown]" in anonymous
 * memory without a JIT's name. Never NULL.
 */
const char *ft_usyms_name(struct ft_usyms *u, int tgid, uint64_t frame)
{
	const char *name = ft_usyms_symbol(u, tgid, frame);
	unsigned int file = FT_UFRAME_FILE(frame);

	if (name)
		return name;
	return file && file <= u->nfiles ? unnamed(u, frame) : "[unknown]";
}

/* ft_usyms_source - where the symbols of a frame's file came from (it is read first) */
enum ft_sym_src ft_usyms_source(struct ft_usyms *u, uint64_t frame)
{
	unsigned int file = FT_UFRAME_FILE(frame);

	return file && file <= u->nfiles ? loaded(u, file)->src : FT_SYMS_NONE;
}

/* ft_usyms_path - the file of a frame made by ft_usyms_frames; NULL: anonymous memory */
const char *ft_usyms_path(const struct ft_usyms *u, uint64_t frame)
{
	unsigned int file = FT_UFRAME_FILE(frame);

	return file && file <= u->nfiles ? u->files[file - 1]->path : NULL;
}

/**
 * ft_usyms_map_of - the mapping of process @tgid that a frame made by
 * ft_usyms_frames lies in, into @m; its address is m->start + offset - m->pgoff
 * (anonymous memory, m->file 0: the offset is the address). Returns 0, or -1 when the
 * process's maps hold it no more (or never did).
 */
int ft_usyms_map_of(const struct ft_usyms *u, int tgid, uint64_t frame, struct ft_umap *m)
{
	const struct uproc *p = ft_tab_find(&u->procs, tgid);
	unsigned int file = FT_UFRAME_FILE(frame), i;
	uint64_t off = FT_UFRAME_OFF(frame);
	const struct ft_umap *found;

	if (!p || !p->read)
		return -1;
	if (!file) {
		found = find_map(p, off);
		if (!found)
			return -1;
		*m = *found;
		return 0;
	}
	for (i = 0; i < p->n; i++)
		if (p->maps[i].file == file && off >= p->maps[i].pgoff &&
		    off - p->maps[i].pgoff < p->maps[i].end - p->maps[i].start) {
			*m = p->maps[i];
			return 0;
		}
	return -1;
}

/* ft_usyms_build_id - the GNU build ID of a frame's file in hex ("" none, NULL anonymous) */
const char *ft_usyms_build_id(struct ft_usyms *u, uint64_t frame)
{
	unsigned int file = FT_UFRAME_FILE(frame);
	unsigned char id[64] = { 0 };
	struct ft_ufile *f;
	size_t n = 0;
	Elf *elf;
	int fd;

	if (!file || file > u->nfiles)
		return NULL;
	f = u->files[file - 1];
	if (f->bid_read)
		return f->build_id;
	f->bid_read = true;
	if (f->path[0] != '/')
		return f->build_id;	/* [vdso]: the kernel's, not a file */
	elf_version(EV_CURRENT);
	fd = open(f->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return f->build_id;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf && elf_kind(elf) == ELF_K_ELF)
		n = ft_elf_build_id(elf, id, sizeof(id));
	ft_hex(f->build_id, id, n);
	if (elf)
		elf_end(elf);
	close(fd);
	return f->build_id;
}
