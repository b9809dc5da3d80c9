// SPDX-License-Identifier: GPL-2.0
/*
 * The file mappings of sampled processes, kept from the kernel's own records so that
 * a process that exits before the rings are drained still has its user frames named:
 * PERF_RECORD_MMAP2 adds an executable mapping and replaces those it overlaps (a
 * dlclose sends no record: the next mapping at the same place says it), COMM with
 * COMM_EXEC starts a process image afresh, FORK gives a new process its parent's
 * mappings. A replaced mapping is kept with the time it ended (the records carry the
 * trace clock, sample_id_all), since the rings hand mapping records over before the
 * samples of the same round: a sample is read against the mappings of its moment.
 * A process first seen otherwise (running before the run began) is read from
 * /proc/PID/maps, as perf synthesizes it. Each process's mappings are handed out in
 * trace-cmd's PROCMAPS text ("PID COUNT COMM" in hex, then "START END PATH", START
 * where file offset 0 of the mapping would be: one line per file unless its
 * executable segments are laid out apart, as lld does). The unwinder opens a file
 * the record names by device and inode: held open once, so that a binary replaced on
 * disk while it runs (a rebuild, an upgrade) keeps its own CFI, never the new one's.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "events/syms.h"
#include "lib/file.h"
#include "lib/util.h"
#include "tracer/capture.h"
#include "tracer/sample_maps.h"

#define NOW		UINT64_MAX	/* a mapping not replaced yet */
#define MAX_GONE	64		/* replaced mappings kept per process */
#define MAX_PINS	128		/* files held open */

/* One mapping: the file's @pgoff at @start, from time @since until @until. */
struct smap_map {
	uint64_t	start, end, pgoff;
	uint64_t	since, until;
	uint64_t	dev, ino;	/* 0 0: unknown (read from /proc) */
	char		*path;
	const char	*open;		/* the file the unwinder opens; NULL until asked */
	char		*own;		/* ... when made here (another root) */
	bool		asked;
	bool		stale;		/* the file mapped can no longer be opened */
};

/* A file held open, by identity: "/proc/self/fd/N" names it, whatever its path says now. */
struct smap_pin {
	uint64_t	dev, ino;
	int		fd;
	char		path[32];
};

/* One process. */
struct smap_proc {
	int		pid;
	char		comm[16];
	struct smap_map *m;		/* sorted by start; live and replaced ones */
	int		n, gone;
	unsigned int	gen;		/* changes made */
	uint64_t	handed;		/* the set last handed out (sig) */
	char		*text;		/* PROCMAPS text of set text_sig, or NULL */
	uint64_t	text_sig;
	uint64_t	newest;		/* the latest since */
	int		last;		/* the mapping ft_smaps_find found last */
	signed char	root;		/* 0 not known, 1 our root, -1 another (a container) */
};

/* A thread's name, from the kernel's COMM records (exec, prctl) and forks. */
struct smap_name {
	int	tid;
	char	comm[16];
};

/* ft_smaps_init - empty tables; -1 on ENOMEM */
int ft_smaps_init(struct ft_smaps *m)
{
	m->pins = NULL;
	m->npins = 0;
	if (ft_tab_init(&m->procs, sizeof(struct smap_proc)))
		return -1;
	if (!ft_tab_init(&m->names, sizeof(struct smap_name)))
		return 0;
	ft_tab_fini(&m->procs);
	return -1;
}

/* ft_smaps_name - a COMM record: @tid is called @comm from now on */
void ft_smaps_name(struct ft_smaps *m, int tid, const char *comm)
{
	struct smap_name *n;
	char copy[16];

	snprintf(copy, sizeof(copy), "%s", comm);	/* @comm may be in the table */
	n = tid > 0 ? ft_tab_get(&m->names, tid) : NULL;
	if (n)
		memcpy(n->comm, copy, sizeof(copy));
}

/* ft_smaps_comm - @tid's name as the kernel's records gave it, or NULL */
const char *ft_smaps_comm(const struct ft_smaps *m, int tid)
{
	const struct smap_name *n = ft_tab_find(&m->names, tid);

	return n && n->comm[0] ? n->comm : NULL;
}

/* map_free - a mapping's memory */
static void map_free(struct smap_map *x)
{
	free(x->path);
	free(x->own);
}

/* proc_clear - forget a process's mappings */
static void proc_clear(struct smap_proc *p)
{
	int i;

	for (i = 0; i < p->n; i++)
		map_free(&p->m[i]);
	FT_FREE(p->m);
	FT_FREE(p->text);
	p->n = p->gone = 0;
	p->last = 0;
	p->root = 0;
	p->gen++;
}

/* put - @x (its path owned) into @p's mappings in start order; false when out of memory */
static bool put(struct smap_proc *p, const struct smap_map *x)
{
	struct smap_map *m = realloc(p->m, (p->n + 1) * sizeof(*m));
	int i;

	if (!m)
		return false;
	p->m = m;
	for (i = p->n; i > 0 && m[i - 1].start > x->start; i--)
		m[i] = m[i - 1];
	m[i] = *x;
	p->n++;
	p->gen++;
	if (x->since > p->newest)
		p->newest = x->since;
	return true;
}

/* piece - what is left of @old in [@lo, @hi) stays mapped: a copy of it there */
static void piece(struct smap_proc *p, const struct smap_map *old, uint64_t lo, uint64_t hi)
{
	struct smap_map x = *old;

	if (lo >= hi)
		return;
	x.pgoff = old->pgoff + (lo - old->start);
	x.start = lo;
	x.end = hi;
	x.open = NULL;
	x.own = NULL;
	x.asked = x.stale = false;
	x.path = strdup(old->path);
	if (x.path && !put(p, &x))
		free(x.path);
}

/* drop_gone - the oldest replaced mapping let go, when more than MAX_GONE are kept */
static void drop_gone(struct smap_proc *p)
{
	int i, old = -1;

	if (p->gone <= MAX_GONE)
		return;
	for (i = 0; i < p->n; i++)
		if (p->m[i].until != NOW && (old < 0 || p->m[i].until < p->m[old].until))
			old = i;
	if (old < 0) {		/* none kept after all */
		p->gone = 0;
		return;
	}
	map_free(&p->m[old]);
	memmove(p->m + old, p->m + old + 1, (p->n - old - 1) * sizeof(*p->m));
	p->n--;
	p->gone--;
	p->last = 0;
}

/*
 * replace - the live mappings [@lo, @hi) overlaps end at @ts (those made before it;
 * a later one's record walked first stays); what lies outside [@lo, @hi) stays.
 * Returns the time of the earliest later mapping there (NOW: none).
 */
static uint64_t replace(struct smap_proc *p, uint64_t lo, uint64_t hi, uint64_t ts)
{
	uint64_t later = NOW;
	int i;

	for (i = 0; i < p->n; i++) {
		struct smap_map old = p->m[i];

		if (old.until != NOW || old.end <= lo || old.start >= hi)
			continue;
		if (ts && old.since > ts) {
			later = old.since < later ? old.since : later;
			continue;
		}
		p->m[i].until = ts;
		p->gone++;
		p->gen++;
		piece(p, &old, old.start, lo);	/* put() may move the array: @old is a copy */
		piece(p, &old, hi, old.end);
		i = -1;			/* the array changed: look again from the start */
	}
	while (p->gone > MAX_GONE)
		drop_gone(p);
	return later;
}

/* add - a new mapping of @path; it replaces what it overlaps */
static void add(struct smap_proc *p, const struct ft_smaps_rec *r)
{
	struct smap_map x = { .start = r->addr, .end = r->addr + r->len, .pgoff = r->pgoff,
			      .since = r->ts, .dev = r->dev, .ino = r->ino };

	x.until = replace(p, x.start, x.end, r->ts);
	if ((r->path[0] != '/' || r->path[1] == '/') && strcmp(r->path, "[vdso]"))
		return;		/* anonymous ("//anon": JIT code): replaces, names nothing */
	x.path = strdup(r->path);
	if (x.path && !put(p, &x))
		free(x.path);
	else if (x.path && x.until != NOW)
		p->gone++;	/* replaced already: its record came late */
}

/* proc_line - ft_procmaps_each callback: a mapping read from /proc */
static void proc_line(void *ctx, int pid, const struct ft_procmap *pm)
{
	struct ft_smaps_rec r = { .addr = pm->start, .len = pm->end - pm->start,
				  .pgoff = pm->pgoff, .dev = pm->dev, .ino = pm->ino,
				  .path = pm->path };

	add(ctx, &r);
}

/* from_proc - a process first seen: its mappings as /proc shows them now */
static void from_proc(struct smap_proc *p)
{
	char *text = ft_proc_maps_text(p->pid);

	if (text && ft_procmaps_each(text, strlen(text), p->comm, proc_line, p) < 0)
		p->comm[0] = 0;
	free(text);
}

/* proc_of - the entry of @pid, made (from /proc unless @fresh) when new; NULL on ENOMEM */
static struct smap_proc *proc_of(struct ft_smaps *m, int pid, bool fresh)
{
	struct smap_proc *p = ft_tab_find(&m->procs, pid);

	if (p)
		return p;
	p = ft_tab_get(&m->procs, pid);
	if (!p)
		return NULL;
	p->pid = pid;
	if (!fresh)
		from_proc(p);
	p->gen++;
	return p;
}

/* ft_smaps_mmap - PERF_RECORD_MMAP2 of an executable mapping (a file, the vDSO, or none) */
void ft_smaps_mmap(struct ft_smaps *m, int pid, const struct ft_smaps_rec *r)
{
	struct smap_proc *p;

	if (pid <= 0 || !r->len || r->addr + r->len < r->addr)
		return;
	p = proc_of(m, pid, false);
	if (p)
		add(p, r);
}

/* ft_smaps_exec - COMM_EXEC at @ts: @pid is a new program, mapped from scratch */
void ft_smaps_exec(struct ft_smaps *m, int pid, const char *comm, uint64_t ts)
{
	struct smap_proc *p = proc_of(m, pid, true);

	if (!p)
		return;
	if (ts)		/* the old image's mappings end (its samples may come after) */
		replace(p, 0, NOW, ts);
	else
		proc_clear(p);
	p->root = 0;
	snprintf(p->comm, sizeof(p->comm), "%s", comm);
}

/* ft_smaps_fork - a new process @pid starts with its parent @ppid's mappings */
void ft_smaps_fork(struct ft_smaps *m, int pid, int ppid)
{
	struct smap_proc *c, *p = ft_tab_find(&m->procs, ppid);
	int i;

	if (!p || pid == ppid || ft_tab_find(&m->procs, pid))
		return;
	c = proc_of(m, pid, true);
	p = ft_tab_find(&m->procs, ppid);	/* the table may have moved */
	if (!c || !p)
		return;
	memcpy(c->comm, p->comm, sizeof(c->comm));
	for (i = 0; i < p->n; i++)
		if (p->m[i].until == NOW)
			piece(c, &p->m[i], p->m[i].start, p->m[i].end);
}

/* own_root - does process @p see the files as we do (same root directory)? */
static bool own_root(struct smap_proc *p)
{
	struct stat a, b;
	char path[64];

	if (!p->root) {
		snprintf(path, sizeof(path), "/proc/%d/root", p->pid);
		/* gone: its files are taken as ours (the same for nearly every process) */
		p->root = stat(path, &a) || stat("/", &b) ||
			  (a.st_dev == b.st_dev && a.st_ino == b.st_ino) ? 1 : -1;
	}
	return p->root > 0;
}

/*
 * pin - the file of device @dev, inode @ino held open (as @path names it, else as the
 * process @pid maps it at @x: ft_map_file_open, even replaced or deleted); its
 * "/proc/self/fd/N" (past MAX_PINS: @path, if it is that file), or NULL when neither
 * is that file
 */
static const char *pin(struct ft_smaps *m, int pid, const struct smap_map *x, const char *path)
{
	struct smap_pin *p, **pins;
	unsigned int i;
	int fd;

	for (i = 0; i < m->npins; i++)
		if (m->pins[i]->dev == x->dev && m->pins[i]->ino == x->ino)
			return m->pins[i]->path;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (m->npins >= MAX_PINS || !(pins = realloc(m->pins, (m->npins + 1) * sizeof(*pins)))) {
		/* no more held open: the path, if it is still the file */
		i = fd >= 0 && ft_fd_is(fd, x->dev, x->ino);
		if (fd >= 0)
			close(fd);
		return i ? path : NULL;
	}
	m->pins = pins;
	if (fd < 0 || !ft_fd_is(fd, x->dev, x->ino)) {	/* deleted, or another file now */
		if (fd >= 0)
			close(fd);
		fd = ft_map_file_open(pid, x->end, x->dev, x->ino);
	}
	if (fd < 0 || !(p = malloc(sizeof(*p)))) {	/* its name outlives the array's moves */
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	p->dev = x->dev;
	p->ino = x->ino;
	p->fd = fd;
	snprintf(p->path, sizeof(p->path), "/proc/self/fd/%d", fd);
	m->pins[m->npins++] = p;
	return p->path;
}

/* opened - the file the unwinder opens for mapping @x of @p, decided on first use */
static const char *opened(struct ft_smaps *m, struct smap_proc *p, struct smap_map *x)
{
	const char *view = x->path;

	if (x->asked)
		return x->open;
	x->asked = true;
	if (x->path[0] == '/' && !own_root(p)) {	/* the file as the process sees it */
		if (asprintf(&x->own, "/proc/%d/root%s", p->pid, x->path) < 0)
			x->own = NULL;
		view = x->own ? x->own : x->path;
	}
	x->open = view;
	if (x->path[0] == '/' && (x->dev || x->ino)) {	/* the record said which file */
		x->open = pin(m, p->pid, x, view);
		x->stale = !x->open;
	}
	return x->open;
}

/* live_at - was mapping @x there at time @ts (0: now)? */
static bool live_at(const struct smap_map *x, uint64_t ts)
{
	return ts ? x->since <= ts && ts < x->until : x->until == NOW;
}

/**
 * ft_smaps_find - the file mapping of process @pid holding @addr at time @ts, for the
 * unwinder (a process first seen is read from /proc). Returns 0 with @hit filled
 * (hit->path NULL: the file mapped is replaced on disk and could not be opened), or
 * -1 (no file there: anonymous memory, JIT code, or a process whose maps are unknown).
 */
int ft_smaps_find(struct ft_smaps *m, int pid, uint64_t addr, uint64_t ts,
		  struct ft_smaps_hit *hit)
{
	struct smap_proc *p = pid > 0 ? proc_of(m, pid, false) : NULL;
	struct smap_map *x;
	int i, k;

	for (k = 0; p && k < p->n; k++) {
		i = (p->last + k) % p->n;	/* frames of one file come in runs */
		x = &p->m[i];
		if (addr < x->start || addr >= x->end || !live_at(x, ts))
			continue;
		p->last = i;
		hit->start = x->start;
		hit->end = x->end;
		hit->pgoff = x->pgoff;
		hit->path = opened(m, p, x);
		return 0;
	}
	return -1;
}

/* sig_of - which of @p's mappings were there at @ts, as one number */
static uint64_t sig_of(const struct smap_proc *p, uint64_t ts)
{
	uint64_t h = 14695981039346656037ULL;
	int i;

	if (!p->gone && p->newest <= ts)
		return p->gen;		/* all of them: the usual case */
	for (i = 0; i < p->n; i++)
		h = (h ^ (live_at(&p->m[i], ts) ? p->m[i].start ^ p->m[i].since : 1)) *
		    1099511628211ULL;
	return h | 1ULL << 63;
}

/* text_of - @p's PROCMAPS text at @ts, made again when the set differs; NULL on ENOMEM */
static const char *text_of(struct smap_proc *p, uint64_t ts, size_t *len)
{
	uint64_t sig = sig_of(p, ts), base;
	size_t size = 0;
	char *lines = NULL;
	int i, j, end, n = 0;
	FILE *f;

	if (!p->text || p->text_sig != sig) {
		FT_FREE(p->text);
		f = open_memstream(&lines, &size);
		if (!f)
			return NULL;
		for (i = 0; i < p->n; i = j) {	/* a line per run of one file at one base */
			for (; i < p->n && !live_at(&p->m[i], ts); i++)
				;
			if (i == p->n)
				break;
			base = p->m[i].start - p->m[i].pgoff;
			for (end = i, j = i + 1; j < p->n; j++) {
				if (!live_at(&p->m[j], ts))
					continue;
				if (p->m[j].start - p->m[j].pgoff != base ||
				    p->m[j].ino != p->m[i].ino || strcmp(p->m[j].path, p->m[i].path))
					break;
				end = j;
			}
			fprintf(f, "%llx %llx %s", (unsigned long long)base,
				(unsigned long long)p->m[end].end, p->m[i].path);
			if (p->m[i].ino)	/* the file mapped (trace-cmd reads the path) */
				fprintf(f, " %llx %llx", (unsigned long long)p->m[i].dev,
					(unsigned long long)p->m[i].ino);
			fputc('\n', f);
			n++;
		}
		fclose(f);
		if (lines && asprintf(&p->text, "%x %x %s\n%s", p->pid, n,
				      p->comm[0] ? p->comm : "?", lines) < 0)
			p->text = NULL;
		free(lines);
		p->text_sig = sig;
		if (!n && p->text)
			p->text[0] = 0;
	}
	*len = p->text ? strlen(p->text) : 0;
	return p->text;
}

/*
 * ft_smaps_changed - @pid's mappings at @ts when they differ from those last handed
 * out (or the process is new: read from /proc), else NULL
 */
const char *ft_smaps_changed(struct ft_smaps *m, int pid, uint64_t ts, size_t *len)
{
	struct smap_proc *p;
	const char *text;

	if (pid <= 0 || !(p = proc_of(m, pid, false)) || !p->n)
		return NULL;
	text = text_of(p, ts, len);
	if (!text || !*len || p->handed == p->text_sig)
		return NULL;
	p->handed = p->text_sig;
	return text;
}

/* ft_smaps_each - every process's mappings, for a trace.dat's PROCMAPS */
void ft_smaps_each(struct ft_smaps *m, void (*fn)(void *ctx, int pid, const char *text),
		   void *ctx)
{
	unsigned int i;
	size_t len;

	for (i = 0; i < m->procs.n; i++) {
		struct smap_proc *p = ft_tab_at(&m->procs, i);
		const char *text = p->n ? text_of(p, 0, &len) : NULL;

		if (text && len)
			fn(ctx, p->pid, text);
	}
}

/* ft_smaps_fini - free everything, close the files held open */
void ft_smaps_fini(struct ft_smaps *m)
{
	unsigned int i;

	for (i = 0; m->procs.rec && i < m->procs.n; i++)
		proc_clear(ft_tab_at(&m->procs, i));
	for (i = 0; i < m->npins; i++) {
		close(m->pins[i]->fd);
		free(m->pins[i]);
	}
	FT_FREE(m->pins);
	m->npins = 0;
	ft_tab_fini(&m->procs);
	ft_tab_fini(&m->names);
}
