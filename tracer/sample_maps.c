// SPDX-License-Identifier: GPL-2.0
/*
 * The file mappings of sampled processes, kept from the kernel's own records so that
 * a process that exits before the rings are drained still has its user frames named:
 * PERF_RECORD_MMAP2 adds an executable mapping, COMM with COMM_EXEC starts a process
 * image afresh, FORK gives a new process its parent's mappings. A process first seen
 * otherwise (running before the run began) is read from /proc/PID/maps, as perf
 * synthesizes it. Each process's mappings are handed out in trace-cmd's PROCMAPS text
 * ("PID COUNT COMM" in hex, then "START END PATH", START where file offset 0 would be).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tracer/sample_maps.h"
#include "tracer/session.h"

/* One mapped file of a process: where its offset 0 would be, and its end. */
struct smap_file {
	uint64_t	base, end;
	char		*path;
};

/* One process. */
struct smap_proc {
	int		pid;
	char		comm[16];
	struct smap_file *f;
	int		n;
	unsigned int	gen, handed;	/* changes made, and the change last handed out */
	char		*text;		/* PROCMAPS text of change text_gen, or NULL */
	unsigned int	text_gen;
	int		last;		/* the file ft_smaps_find found last */
	uint64_t	vdso_lo, vdso_hi;	/* its [vdso] mapping, 0 0 unknown */
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

/* proc_clear - forget a process's mappings */
static void proc_clear(struct smap_proc *p)
{
	int i;

	for (i = 0; i < p->n; i++)
		free(p->f[i].path);
	free(p->f);
	free(p->text);
	p->f = NULL;
	p->text = NULL;
	p->n = 0;
	p->vdso_lo = p->vdso_hi = 0;	/* an exec maps its own */
	p->root = 0;
	p->gen++;
}

/* add_file - a mapping of @path: a new file, or the same file further on */
static void add_file(struct smap_proc *p, uint64_t base, uint64_t end, const char *path)
{
	struct smap_file *f;
	int i;

	for (i = 0; i < p->n; i++)
		if (p->f[i].base == base && !strcmp(p->f[i].path, path)) {
			if (end > p->f[i].end)
				p->f[i].end = end;
			p->gen++;
			return;
		}
	f = realloc(p->f, (p->n + 1) * sizeof(*f));
	if (!f)
		return;
	p->f = f;
	f[p->n].base = base;
	f[p->n].end = end;
	f[p->n].path = strdup(path);
	if (f[p->n].path)
		p->n++;
	p->gen++;
}

/* from_proc - a process first seen: its mappings as /proc shows them now */
static void from_proc(struct smap_proc *p)
{
	char *text = ft_proc_maps_text(p->pid), *line, *save = NULL, path[4096];
	unsigned long long lo, hi;

	if (!text)
		return;
	line = strtok_r(text, "\n", &save);
	if (line && sscanf(line, "%*x %*x %15s", p->comm) != 1)
		p->comm[0] = 0;
	while ((line = strtok_r(NULL, "\n", &save)))
		if (sscanf(line, "%llx %llx %4095s", &lo, &hi, path) == 3) {
			add_file(p, lo, hi, path);
			if (!strcmp(path, "[vdso]")) {	/* the text holds it: the unwinder's */
				p->vdso_lo = lo;
				p->vdso_hi = hi;
			}
		}
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

/* ft_smaps_mmap - PERF_RECORD_MMAP2 of an executable file mapping, or of the vDSO */
void ft_smaps_mmap(struct ft_smaps *m, int pid, uint64_t addr, uint64_t len, uint64_t pgoff,
		   const char *path)
{
	struct smap_proc *p;

	/* the vDSO: its range for the unwinder's CFI, and a mapping for its names */
	if (pid > 0 && !strcmp(path, "[vdso]")) {
		p = proc_of(m, pid, false);
		if (p) {
			p->vdso_lo = addr;
			p->vdso_hi = addr + len;
		}
	}
	if (pid <= 0 || (path[0] != '/' && strcmp(path, "[vdso]")) || pgoff > addr)
		return;
	p = proc_of(m, pid, false);
	if (p)
		add_file(p, addr - pgoff, addr + len, path);
}

/* ft_smaps_exec - COMM_EXEC: @pid is a new program, mapped from scratch */
void ft_smaps_exec(struct ft_smaps *m, int pid, const char *comm)
{
	struct smap_proc *p = proc_of(m, pid, true);

	if (!p)
		return;
	proc_clear(p);
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
	c->vdso_lo = p->vdso_lo;
	c->vdso_hi = p->vdso_hi;
	for (i = 0; i < p->n; i++)
		add_file(c, p->f[i].base, p->f[i].end, p->f[i].path);
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

/**
 * ft_smaps_find - the file mapping of process @pid holding @addr, for the unwinder
 * (a process first seen is read from /proc). Returns 0 with @hit filled, or -1
 * (no file there: anonymous memory, JIT code, or a process whose maps are unknown).
 */
int ft_smaps_find(struct ft_smaps *m, int pid, uint64_t addr, struct ft_smaps_hit *hit)
{
	struct smap_proc *p = pid > 0 ? proc_of(m, pid, false) : NULL;
	int i, k;

	/* the vDSO first: its names' mapping below is no file the unwinder could open */
	if (p && addr >= p->vdso_lo && addr < p->vdso_hi) {
		hit->path = "[vdso]";	/* the unwinder reads its own: the same image */
		hit->base = p->vdso_lo;
		hit->end = p->vdso_hi;
		hit->own_root = true;
		return 0;
	}
	for (k = 0; p && k < p->n; k++) {
		i = (p->last + k) % p->n;	/* frames of one file come in runs */
		if (addr < p->f[i].base || addr >= p->f[i].end)
			continue;
		p->last = i;
		hit->base = p->f[i].base;
		hit->end = p->f[i].end;
		hit->path = p->f[i].path;
		hit->own_root = own_root(p);
		return 0;
	}
	return -1;
}

/* text_of - @p's PROCMAPS text, made again after a change; NULL on ENOMEM */
static const char *text_of(struct smap_proc *p, size_t *len)
{
	size_t size = 0;
	FILE *f;
	int i;

	if (!p->text || p->text_gen != p->gen) {
		free(p->text);
		p->text = NULL;
		f = open_memstream(&p->text, &size);
		if (!f)
			return NULL;
		fprintf(f, "%x %x %s\n", p->pid, p->n, p->comm[0] ? p->comm : "?");
		for (i = 0; i < p->n; i++)
			fprintf(f, "%llx %llx %s\n", (unsigned long long)p->f[i].base,
				(unsigned long long)p->f[i].end, p->f[i].path);
		fclose(f);
		p->text_gen = p->gen;
	}
	*len = p->text ? strlen(p->text) : 0;
	return p->text;
}

/*
 * ft_smaps_changed - @pid's mappings when they changed since last asked (or the
 * process is new: read from /proc), else NULL
 */
const char *ft_smaps_changed(struct ft_smaps *m, int pid, size_t *len)
{
	struct smap_proc *p;
	const char *text;

	if (pid <= 0 || !(p = proc_of(m, pid, false)) || p->handed == p->gen)
		return NULL;
	text = text_of(p, len);
	p->handed = p->gen;
	return text && p->n ? text : NULL;
}

/* ft_smaps_each - every process's mappings, for a trace.dat's PROCMAPS */
void ft_smaps_each(struct ft_smaps *m, void (*fn)(void *ctx, int pid, const char *text),
		   void *ctx)
{
	unsigned int i;
	size_t len;

	for (i = 0; i < m->procs.n; i++) {
		struct smap_proc *p = ft_tab_at(&m->procs, i);
		const char *text = p->n ? text_of(p, &len) : NULL;

		if (text)
			fn(ctx, p->pid, text);
	}
}

/* ft_smaps_fini - free everything */
void ft_smaps_fini(struct ft_smaps *m)
{
	unsigned int i;

	for (i = 0; m->procs.rec && i < m->procs.n; i++)
		proc_clear(ft_tab_at(&m->procs, i));
	ft_tab_fini(&m->procs);
	ft_tab_fini(&m->names);
}
