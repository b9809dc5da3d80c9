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
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "events/syms.h"
#include "events/unwind.h"
#include "lib/file.h"
#include "lib/util.h"

/* Re-reads of one process's maps when its IP is not mapped (exec, dlopen). */
#define MAX_REREADS	8

/* Files held open by identity (a binary replaced on disk while its process runs). */
#define MAX_PINS	128

struct ft_ufile {
	char		*path;
	uint64_t	dev, ino;	/* the file mapped; 0 0 not known */
	int		fd;		/* held open when known (else -1) */
	bool		loaded;
	bool		bid_read;
	enum ft_sym_src	src;
	char		build_id[2 * 64 + 1];	/* hex, "" none */
	struct ft_symtab	st;
	struct ft_useg	seg[FT_USEGS];
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
		if (u->files[i]->fd >= 0)
			close(u->files[i]->fd);
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

/**
 * ft_map_file_open - the file of device @dev, inode @ino that process @pid maps in its
 * mapping ending at @end, opened through /proc/PID/map_files (the file even when
 * replaced on disk or deleted since; @end alone names it, as a PROCMAPS range may
 * merge several mappings of a file). Returns the fd, or -1.
 */
int ft_map_file_open(int pid, uint64_t end, uint64_t dev, uint64_t ino)
{
	char dir[64], path[64 + 256];
	unsigned long long lo, hi;
	struct dirent *d;
	int fd = -1;
	DIR *md;

	snprintf(dir, sizeof(dir), "/proc/%d/map_files", pid);
	md = pid > 0 ? opendir(dir) : NULL;
	while (md && (d = readdir(md)))
		if (sscanf(d->d_name, "%llx-%llx", &lo, &hi) == 2 && hi == end) {
			snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
			fd = open(path, O_RDONLY | O_CLOEXEC);
			if (fd >= 0 && !ft_fd_is(fd, dev, ino)) {
				close(fd);
				fd = -1;
			}
			break;
		}
	if (md)
		closedir(md);
	return fd;
}

/*
 * pin - @f's file held open, while its process @tgid lives: at its path if that is
 * still the file mapped, else as the process maps it (ft_map_file_open, the mapping
 * ending at @end)
 */
static void pin(struct ft_usyms *u, struct ft_ufile *f, int tgid, uint64_t end)
{
	int fd;

	if (!u->live || u->npins >= MAX_PINS)
		return;
	fd = open(f->path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0 && !ft_fd_is(fd, f->dev, f->ino)) {
		close(fd);
		fd = -1;
	}
	if (fd < 0)
		fd = ft_map_file_open(tgid, end, f->dev, f->ino);
	f->fd = fd;
	u->npins += fd >= 0;
}

/*
 * file_index - the index + 1 of the file at @path (of device @dev, inode @ino when
 * @ino) among the files, adding it (held open: pin); 0 when out of memory
 */
static unsigned int file_index(struct ft_usyms *u, const char *path, uint64_t dev, uint64_t ino,
			       int tgid, uint64_t end)
{
	uint64_t key[66] = { 0 };
	size_t len = strlen(path);
	struct ft_ufile *f, **files;
	long id;

	if (len >= 512 || u->nfiles >= FT_UFRAME_MARKS - 1)
		return 0;	/* index FT_UFRAME_MARKS is the markers' */
	memcpy(key, path, len);
	key[len / 8 + 1] = dev;
	key[len / 8 + 2] = ino;
	id = ft_intern_put(&u->paths, key, (uint32_t)(len / 8 + 3));
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
	f->dev = dev;
	f->ino = ino;
	f->fd = -1;
	if (ino && path[0] == '/')
		pin(u, f, tgid, end);
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
	unsigned long long start, end, pgoff, ino;
	struct ft_umap *maps = NULL, *m;
	unsigned int n = 0, cap = 0, maj, mn;
	size_t len;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", tgid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		file[0] = 0;
		if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %4095[^\n]", &start, &end, perms,
			   &pgoff, &maj, &mn, &ino, file) < 7 || !strchr(perms, 'x'))
			continue;
		len = strlen(file);	/* replaced or removed since: the inode says which */
		if (len > 10 && !strcmp(file + len - 10, " (deleted)"))
			file[len - 10] = 0;
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
			maps[n].file = file_index(u, file, ino ? makedev(maj, mn) : 0, ino, tgid,
						   end);
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

/* A line of a PROCMAPS text. */
struct pm_line {
	uint64_t	start, end, dev, ino;
	const char	*path;
};

/* cmp_end - order lines by end address */
static int cmp_end(const void *a, const void *b)
{
	const struct pm_line *x = a, *y = b;

	return (x->end > y->end) - (x->end < y->end);
}

/**
 * ft_procmaps_each - the mappings of a PROCMAPS text ("PID COUNT COMM" in hex, then
 * "START END PATH" per line: START where the file's offset 0 would be, END the
 * mapping's end; a file whose executable segments lie apart, as lld lays them out,
 * has a line per segment), each to @fn as a mapping and its file offset: as the lines
 * overlap below where a mapping begins, each starts at the end of the one before (the
 * mappings never overlap). A line may end in the file's device and inode (hex, as
 * ftscope writes them; trace-cmd reads the path alone). @comm (16 bytes, or NULL) gets
 * the name.
 * Returns the PID, or -1 when the text is damaged.
 */
int ft_procmaps_each(const char *text, size_t len, char *comm, ft_procmap_fn fn, void *ctx)
{
	char *copy = strndup(text, len), *line, *save = NULL;
	unsigned long long start, end, prev = 0, dev, ino;
	unsigned int pid, count, n = 0, i;
	struct ft_procmap pm;
	struct pm_line *l;
	int path, cut;

	if (!copy)
		return -1;
	line = strtok_r(copy, "\n", &save);
	if (!line || sscanf(line, "%x %x", &pid, &count) != 2 || !pid || pid > (1u << 22) ||
	    count > 65536) {
		free(copy);
		return -1;
	}
	if (comm && sscanf(line, "%*x %*x %15s", comm) != 1)
		comm[0] = 0;
	l = calloc(count ? count : 1, sizeof(*l));
	while (l && n < count && (line = strtok_r(NULL, "\n", &save)))
		if (sscanf(line, "%llx %llx %n%*s", &start, &end, &path) == 2 && start < end &&
		    (line[path] == '/' || !strncmp(line + path, "[vdso]", 6))) {
			cut = path + (int)strcspn(line + path, " ");
			if (!line[cut] || sscanf(line + cut, "%llx %llx", &dev, &ino) != 2)
				dev = ino = 0;
			line[cut] = 0;
			l[n++] = (struct pm_line){ start, end, dev, ino, line + path };
		}
	qsort(l, l ? n : 0, sizeof(*l), cmp_end);
	for (i = 0; l && i < n; i++) {
		start = l[i].start > prev ? l[i].start : prev;
		pm = (struct ft_procmap){ start, l[i].end, start - l[i].start, l[i].dev, l[i].ino,
					  l[i].path };
		if (start < l[i].end)
			fn(ctx, pid, &pm);
		prev = l[i].end;
	}
	free(copy);
	if (!l)
		return -1;
	free(l);
	return (int)pid;
}

/* A PROCMAPS text being read into a process's mappings. */
struct pm_read {
	struct ft_usyms		*u;
	struct ft_umap		*maps;
	unsigned int		n, cap;
};

/* pm_add - ft_procmaps_each callback: one mapping into @ctx's */
static void pm_add(void *ctx, int pid, const struct ft_procmap *pm)
{
	struct pm_read *r = ctx;
	struct ft_umap *m;

	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 32;
		m = realloc(r->maps, r->cap * sizeof(*m));
		if (!m) {
			r->cap = r->n;
			return;
		}
		r->maps = m;
	}
	r->maps[r->n] = (struct ft_umap){ pm->start, pm->end, pm->pgoff, 0 };
	r->maps[r->n++].file = file_index(r->u, pm->path, pm->dev, pm->ino, pid, pm->end);
}

/**
 * ft_usyms_add_maps - a process's file mappings as a trace.dat keeps them (PROCMAPS,
 * ft_procmaps_each). Returns 0, or -1 when damaged.
 */
int ft_usyms_add_maps(struct ft_usyms *u, const char *text, size_t len)
{
	struct pm_read r = { .u = u };
	int pid = ft_procmaps_each(text, len, NULL, pm_add, &r);

	if (pid < 0) {
		free(r.maps);
		return -1;
	}
	return set_maps(u, pid, r.maps, r.n);	/* in start order: they do not overlap */
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
 * astray there (code built without frame pointers). The marker of a CFI walk that
 * stopped short (FT_UNWIND_MARK, the last address) stays the last frame.
 * Returns the number of frames.
 */
int ft_usyms_frames(struct ft_usyms *u, int tgid, const uint64_t *ip, int n, uint64_t *out)
{
	uint64_t mark = n > 1 && FT_UNWIND_IS_MARK(ip[n - 1]) ? ip[--n] : 0;
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
	if (mark)
		out[i++] = FT_UFRAME_MARK(mark & 0xff);
	return i;
}

/* mark_name - what a walk's marker frame says (enum ft_unwind_end), as reports print it */
static const char *mark_name(uint64_t frame)
{
	static const char *const name[FT_UNWIND_NEND] = {
		[FT_UNWIND_MAX] = "[unwind stopped: frame limit]",
		[FT_UNWIND_STACK] = "[unwind stopped: stack copy too small]",
		[FT_UNWIND_NOMAP] = "[unwind stopped: code in no file]",
		[FT_UNWIND_NOCFI] = "[unwind stopped: no CFI]",
		[FT_UNWIND_BADCFI] = "[unwind stopped: bad CFI]",
		[FT_UNWIND_LOOP] = "[unwind stopped: stack loop]",
	};
	uint64_t why = FT_UFRAME_OFF(frame);

	return why < FT_UNWIND_NEND && name[why] ? name[why] : "[unwind stopped]";
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

/*
 * file_path - where to read @f: held open ("/proc/self/fd/N" in @buf), its path, or
 * NULL when the file at its path is not the one mapped (replaced on disk since)
 */
static const char *file_path(const struct ft_ufile *f, char *buf, size_t len)
{
	struct stat sb;

	if (f->fd >= 0) {
		snprintf(buf, len, "/proc/self/fd/%d", f->fd);
		return buf;
	}
	if (f->ino && f->path[0] == '/' && (stat(f->path, &sb) || (uint64_t)sb.st_dev != f->dev ||
					    (uint64_t)sb.st_ino != f->ino))
		return NULL;
	return f->path;
}

/* loaded - file @file (index + 1), its segments and symbols read on first use */
static struct ft_ufile *loaded(struct ft_usyms *u, unsigned int file)
{
	struct ft_ufile *f = u->files[file - 1];
	const char *open;
	char buf[32];

	if (!f->loaded) {
		f->loaded = true;
		open = file_path(f, buf, sizeof(buf));
		if (open)	/* else named FILE+0xOFFSET: never another build's function */
			f->src = ft_elf_symbols(f->path, open, &f->st, f->seg, FT_USEGS, &f->nseg);
	}
	return f;
}

/* elf_addr - file offset @off of @f as an address of its ELF (false: in no segment) */
static bool elf_addr(const struct ft_ufile *f, uint64_t off, uint64_t *addr)
{
	return ft_useg_vaddr(f->seg, f->nseg, off, addr);
}

/**
 * ft_usyms_symbol - the function of a frame made by ft_usyms_frames: its file's
 * symbol, or a JIT's (/tmp/perf-PID.map) in anonymous memory; a marker's words (a walk
 * stopped short). Returns NULL for none.
 */
const char *ft_usyms_symbol(struct ft_usyms *u, int tgid, uint64_t frame)
{
	unsigned int file = FT_UFRAME_FILE(frame);
	uint64_t off = FT_UFRAME_OFF(frame), addr;
	struct ft_ufile *f;
	struct uproc *p;

	if (file == FT_UFRAME_MARKS)
		return mark_name(frame);
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
	const char *path;
	char buf[32];
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
	path = file_path(f, buf, sizeof(buf));
	elf_version(EV_CURRENT);
	fd = path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
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
