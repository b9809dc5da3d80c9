// SPDX-License-Identifier: GPL-2.0
/*
 * Captures: a run's raw pages saved as a trace.dat (version 6) that trace-cmd and
 * KernelShark open. Pages go to one unlinked file per CPU, from the live reader (the
 * page tap, `-o FILE` on any analyzer) or straight from the kernel with splice
 * (`ftscope record`). At the end the metadata (formats, kallsyms, printk formats,
 * cmdlines, CPU stats, clock, uname, the traced processes' maps) is written and
 * each CPU's file copied in after it, in the kernel.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <tracefs/tracefs.h>

#include "events/page.h"
#include "events/tasks.h"
#include "events/tdat.h"
#include "events/tep.h"
#include "lib/util.h"
#include "tracer/capture.h"
#include "tracer/command.h"
#include "tracer/session.h"

/* Largest /proc/kallsyms and saved_cmdlines read into a capture. */
#define CAPTURE_TEXT_MAX	(256UL << 20)

/* tmp_near - an unlinked file beside @path (same file system: in-kernel copies), or in /tmp */
static int tmp_near(const char *path)
{
	char *dup = strdup(path), tmpl[] = "/tmp/ftscope-XXXXXX";
	int fd = -1;

	if (dup)
		fd = open(dirname(dup), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	free(dup);
	if (fd < 0)
		fd = open("/tmp", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0) {
		fd = mkostemp(tmpl, O_CLOEXEC);
		if (fd >= 0)
			unlink(tmpl);
	}
	return fd;
}

/**
 * ft_capture_open - start a capture to @path: the file is created now (an unwritable
 * path fails before tracing starts), one page file per CPU of @s
 * Returns 0 or -1 after printing the error.
 */
int ft_capture_open(struct ft_capture *c, const char *path, struct ft_session *s)
{
	int i;

	memset(c, 0, sizeof(*c));
	c->path = path;
	c->s = s;
	c->ncpus = s->ncpus;
	c->out = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	c->fd = malloc(s->ncpus * sizeof(*c->fd));
	c->bytes = calloc(s->ncpus, sizeof(*c->bytes));
	c->events = calloc(s->ncpus, sizeof(*c->events));
	if (c->out < 0 || !c->fd || !c->bytes || !c->events)
		goto fail;
	for (i = 0; i < s->ncpus; i++)
		c->fd[i] = -1;
	for (i = 0; i < s->ncpus; i++) {
		c->fd[i] = tmp_near(path);
		if (c->fd[i] < 0)
			goto fail;
	}
	/* the processes of the threads that live now: those that end during the
	   recording have no other record of theirs (task_newtask tells the rest) */
	c->tgids = ft_tasks_proc_text();
	return 0;
fail:
	ft_err("cannot write %s: %s", path, strerror(errno ? errno : ENOMEM));
	ft_capture_close(c);
	return -1;
}

/*
 * ft_capture_tap - ft_page_tap_fn: append a raw page to its CPU's file; after a
 * write fails (a full disk) nothing more is written, and ft_capture_check says so
 */
void ft_capture_tap(void *ctx, int cpu, const void *page, unsigned int len)
{
	struct ft_capture *c = ctx;

	if (c->err || cpu < 0 || cpu >= c->ncpus || c->fd[cpu] < 0)
		return;
	if (ft_write_all(c->fd[cpu], page, len))
		c->err = errno ? errno : EIO;
	else
		c->bytes[cpu] += len;
}

/**
 * ft_capture_check - after the tap's writes: one line naming the file and the
 * error when one failed (the caller then ends the run)
 * Returns 0, or -1 after printing the error.
 */
int ft_capture_check(const struct ft_capture *c)
{
	if (!c->err)
		return 0;
	ft_err("cannot write %s: %s", c->path, strerror(c->err));
	return -1;
}

/* flush_write - the CPU's partly filled last page (tracing stopped) to its file */
static int flush_write(struct ft_capture *c, int cpu, void *page)
{
	int r = tracefs_cpu_flush(c->s->tcpu[cpu], page);

	if (r <= 0)
		return r < 0 && errno == EAGAIN ? 0 : r;
	/* every byte, or an error: tracefs_cpu_flush_write takes a short write as done */
	if (ft_write_all(c->fd[cpu], page, r))
		return -1;
	c->bytes[cpu] += r;
	return r;
}

/**
 * ft_capture_splice - move the full pages of every CPU from the kernel to the page
 * files with splice; with @flush (tracing stopped) also the partly filled last ones
 * Returns the bytes moved, or -1 after printing the error.
 */
long ft_capture_splice(struct ft_capture *c, bool flush)
{
	struct ft_session *s = c->s;
	void *page = flush ? malloc(s->pf.subbuf_size) : NULL;
	long total = 0;
	int cpu, r;

	if (flush && !page) {
		ft_err("out of memory");
		return -1;
	}
	for (cpu = 0; cpu < s->ncpus; cpu++) {
		if (!s->tcpu[cpu])
			continue;
		do {
			s->calls++;
			r = tracefs_cpu_write(s->tcpu[cpu], c->fd[cpu], true);
			if (r > 0) {
				c->bytes[cpu] += r;
				total += r;
			}
		} while (r > 0);
		if (r < 0 && errno != EAGAIN && errno != EINTR)
			goto fail;
		while (flush && (r = flush_write(c, cpu, page)) > 0)
			total += r;
		if (r < 0 && errno != EAGAIN && errno != EINTR)
			goto fail;
	}
	free(page);
	s->rounds++;
	s->pages += total / s->pf.subbuf_size;
	return total;
fail:
	ft_err("recording CPU %d to %s: %s", cpu, c->path, strerror(errno));
	free(page);
	return -1;
}

/* maps_line - one range of a PROCMAPS text: START END PATH [DEV INO] */
static void maps_line(FILE *out, unsigned long long lo, unsigned long long hi, const char *lib,
		      unsigned long long dev, unsigned long long ino)
{
	if (ino)
		fprintf(out, "%llx %llx %s %llx %llx\n", lo, hi, lib, dev, ino);
	else
		fprintf(out, "%llx %llx %s\n", lo, hi, lib);
}

/*
 * ft_proc_maps_text - "PID COUNT COMM" (hex, as trace-cmd) and the file-backed ranges of
 * /proc/PID/maps, and [vdso]; each file's device and inode after its path (hex, as
 * ft_procmaps_each reads them: the file mapped, held open when replaced on disk since)
 */
char *ft_proc_maps_text(int pid)
{
	char path[64], comm[64] = "", line[4608], lib[4096] = "", name[4096], *lines = NULL;
	char *text = NULL, perms[8];
	unsigned long long start, end, pgoff, lo = 0, hi = 0, ino, lino = 0, ldev = 0;
	unsigned int maj, mn;
	size_t llen = 0;
	FILE *f, *out = NULL;
	int n = 0;

	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	f = fopen(path, "re");
	if (f) {
		if (fgets(comm, sizeof(comm), f))
			comm[strcspn(comm, "\n")] = 0;
		fclose(f);
	}
	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	f = fopen(path, "re");
	if (!f || !(out = open_memstream(&lines, &llen)))
		goto out;
	/*
	 * one range per mapped file from where its offset 0 would be: its consecutive
	 * mappings are merged, as trace-cmd does, unless code lies at another base (lld)
	 */
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %4095s", &start, &end, perms, &pgoff,
			   &maj, &mn, &ino, name) != 8 || (name[0] != '/' && strcmp(name, "[vdso]")) ||
		    pgoff > start)
			continue;
		if (n && !strcmp(name, lib) && ino == lino &&
		    (!strchr(perms, 'x') || start - pgoff == lo)) {
			hi = end;
			continue;
		}
		if (n)
			maps_line(out, lo, hi, lib, ldev, lino);
		snprintf(lib, sizeof(lib), "%s", name);
		lo = start - pgoff;
		hi = end;
		ldev = ino ? makedev(maj, mn) : 0;
		lino = ino;
		n++;
	}
	if (n)
		maps_line(out, lo, hi, lib, ldev, lino);
	fclose(out);
	out = NULL;
	/* a process that began to exit may have shown part of its maps: keep the last sample */
	if (n && !ft_pid_exiting(pid) && asprintf(&text, "%x %x %s\n%s", pid, n, comm, lines) < 0)
		text = NULL;
out:
	if (out)
		fclose(out);
	if (f)
		fclose(f);
	free(lines);
	return text;
}

/* keep_maps - @text (malloc'ed, NULL: nothing) becomes @pid's maps, replacing any */
static void keep_maps(struct ft_capture *c, int pid, char *text)
{
	int j;

	if (!text)
		return;
	for (j = 0; j < c->nmaps && c->maps[j].pid != pid; j++)
		;
	if (j == c->nmaps) {
		void *nm = realloc(c->maps, (c->nmaps + 1) * sizeof(*c->maps));

		if (!nm) {
			free(text);
			return;
		}
		c->maps = nm;
		c->maps[c->nmaps].pid = pid;
		c->maps[c->nmaps++].text = NULL;
	}
	free(c->maps[j].text);
	c->maps[j].text = text;
}

/**
 * ft_capture_maps - note the current maps of the processes @pids (the traced ones);
 * the last maps seen of a process are kept, so one that exits keeps its last sample
 */
void ft_capture_maps(struct ft_capture *c, const int *pids, int n)
{
	int i;

	for (i = 0; i < n; i++)
		keep_maps(c, pids[i], ft_proc_maps_text(pids[i]));
}

/* ft_capture_set_maps - keep @text (PROCMAPS) as @pid's maps, replacing any */
void ft_capture_set_maps(struct ft_capture *c, int pid, const char *text)
{
	keep_maps(c, pid, strdup(text));
}

/* count_events - records in @len bytes of pages, walked as the reader walks them */
static unsigned long long count_events(int fd, uint64_t len, const struct ft_page_fmt *pf)
{
	unsigned long long n = 0;
	const unsigned char *map;
	uint64_t off;

	if (!len)
		return 0;
	map = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED)
		return 0;
	for (off = 0; off + pf->subbuf_size <= len; off += pf->subbuf_size) {
		struct ft_page_info info;
		struct ft_page_cursor cur;

		if (ft_page_info(pf, map + off, pf->subbuf_size, &info))
			continue;
		ft_page_cursor_init(&cur, pf, map + off, info.size, info.timestamp);
		while (ft_page_next(&cur))
			n++;
	}
	munmap((void *)map, len);
	return n;
}

/* add_fmt - one format of the instance into @m; 0 also when the event has none */
static int add_fmt(struct ft_session *s, struct ft_tdat_fmt **fmt, int *n,
		   const char *system, const char *event)
{
	struct ft_tdat_fmt *nf;
	size_t len;
	char *text = ft_session_format_read(s, system, event, &len), *sys;

	if (!text)
		return 0;
	nf = realloc(*fmt, (*n + 1) * sizeof(**fmt));
	sys = strdup(system);
	if (!nf || !sys) {
		free(text);
		free(sys);
		if (nf)
			*fmt = nf;
		return -1;
	}
	*fmt = nf;
	memset(&nf[*n], 0, sizeof(nf[*n]));
	nf[*n].system = sys;
	snprintf(nf[*n].name, sizeof(nf[*n].name), "%s", event);
	nf[*n].text.data = text;
	nf[*n].text.len = len;
	(*n)++;
	return 0;
}

/* cmp_fmt - by system, so that each system's formats are written together */
static int cmp_fmt(const void *a, const void *b)
{
	const struct ft_tdat_fmt *x = a, *y = b;
	int d = strcmp(x->system, y->system);

	return d ? d : strcmp(x->name, y->name);
}

/*
 * collect_fmts - the formats of every event enabled in the instance (its set_event:
 * scheduler events, probes, -e events) and of all ftrace events (stacks, functions)
 */
static int collect_fmts(struct ft_session *s, struct ft_tdat_fmt **fmt, int *n)
{
	char *set = tracefs_instance_file_read(s->inst, "set_event", NULL), *line, *save = NULL;
	char *dir = tracefs_instance_get_file(s->inst, "events/ftrace");
	struct dirent *de;
	DIR *d = dir ? opendir(dir) : NULL;
	int ret = 0;

	for (line = set ? strtok_r(set, "\n", &save) : NULL; line && !ret;
	     line = strtok_r(NULL, "\n", &save)) {
		char *colon = strchr(line, ':');

		if (!colon)
			continue;
		*colon = 0;
		ret = add_fmt(s, fmt, n, line, colon + 1);
	}
	while (d && !ret && (de = readdir(d)))
		if (de->d_name[0] != '.' && de->d_type == DT_DIR)
			ret = add_fmt(s, fmt, n, "ftrace", de->d_name);
	if (d)
		closedir(d);
	tracefs_put_tracing_file(dir);
	free(set);
	if (!ret)
		qsort(*fmt, *n, sizeof(**fmt), cmp_fmt);
	return ret;
}

/* text_blob - a whole file as a blob (empty when unreadable) */
static struct ft_blob text_blob(const char *path)
{
	struct ft_blob b = { 0 };

	b.data = ft_read_file(path, CAPTURE_TEXT_MAX, &b.len);
	if (!b.data)
		b.len = 0;
	return b;
}

/* instance_blob - a file of the instance (or the top level with a NULL instance) */
static struct ft_blob instance_blob(struct tracefs_instance *inst, const char *file)
{
	struct ft_blob b = { 0 };
	int size = 0;

	b.data = tracefs_instance_file_read(inst, file, &size);
	b.len = b.data ? (size_t)size : 0;
	return b;
}

/*
 * cpu_stats_blob - the instance's per_cpu/cpuN/stats as trace-cmd writes a CPUSTAT
 * option: "CPU: N" first, so that readers never count on the options' order
 */
static struct ft_blob cpu_stats_blob(struct tracefs_instance *inst, int cpu)
{
	struct ft_blob b = { 0 }, text;
	char path[64], *data;
	int len;

	snprintf(path, sizeof(path), "per_cpu/cpu%d/stats", cpu);
	text = instance_blob(inst, path);
	if (!text.len) {
		free((void *)text.data);
		return b;
	}
	len = asprintf(&data, "CPU: %d\n%.*s", cpu, (int)text.len, text.data);
	free((void *)text.data);
	if (len >= 0) {
		b.data = data;
		b.len = (size_t)len;
	}
	return b;
}

/* run_meta - the run's formats, CPU stats (events counted), maps, threads, samples, @tool */
static int run_meta(struct ft_capture *c, const char *tool, struct ft_tdat_meta *m)
{
	struct ft_session *s = c->s;
	struct ft_blob *stats = calloc(c->ncpus, sizeof(*stats));
	struct ft_blob *maps = calloc(c->nmaps ? c->nmaps : 1, sizeof(*maps));
	struct ft_tdat_fmt *fmt = NULL;
	int i, bad;

	m->cpustat = stats;
	m->procmaps = maps;
	bad = !stats || !maps || collect_fmts(s, &fmt, &m->nfmt);
	m->fmt = fmt;
	if (bad) {
		errno = ENOMEM;
		return -1;
	}
	m->ncpus = c->ncpus;
	for (i = 0; i < c->ncpus; i++) {
		stats[i] = cpu_stats_blob(s->inst, i);
		c->events[i] = count_events(c->fd[i], c->bytes[i], &s->pf);
	}
	for (i = 0; i < c->nmaps; i++) {
		maps[i].data = c->maps[i].text;
		maps[i].len = strlen(c->maps[i].text);
	}
	m->nprocmaps = c->nmaps;
	m->tgids.data = c->tgids;
	m->tgids.len = c->tgids ? strlen(c->tgids) : 0;
	m->samples.data = c->samples;
	m->samples.len = c->samples_len;
	m->tool.data = tool;
	m->tool.len = strlen(tool);
	return 0;
}

/* system_meta - the kernel's headers, kallsyms, printk formats, comms, clock, uname */
static int system_meta(struct ft_session *s, struct ft_tdat_meta *m)
{
	char *uname_text = NULL;
	struct utsname u;

	if (!uname(&u) && asprintf(&uname_text, "%s %s %s %s %s", u.sysname, u.nodename,
				   u.release, u.version, u.machine) < 0)
		uname_text = NULL;
	m->uname.data = uname_text;
	m->uname.len = uname_text ? strlen(uname_text) : 0;
	m->page_size = s->pf.subbuf_size;
	m->long_size = sizeof(long);
	/* the page layout the session parsed (the instance's own, or the top level's) */
	m->header_page.data = ft_session_format_read(s, NULL, "header_page", &m->header_page.len);
	if (!m->header_page.data)
		m->header_page.len = 0;
	m->header_event = instance_blob(s->inst, "events/header_event");
	m->kallsyms = text_blob("/proc/kallsyms");
	m->printk = instance_blob(NULL, "printk_formats");
	m->cmdlines = instance_blob(NULL, "saved_cmdlines");
	m->clock = instance_blob(s->inst, "trace_clock");
	if (m->clock.len && m->clock.data[m->clock.len - 1] == '\n')
		m->clock.len--;
	if (!m->header_page.len || !m->header_event.len) {
		errno = ENOENT;
		return -1;
	}
	return 0;
}

/* free_meta - free what run_meta and system_meta allocated */
static void free_meta(struct ft_tdat_meta *m)
{
	int i;

	free((void *)m->header_page.data);
	free((void *)m->header_event.data);
	free((void *)m->kallsyms.data);
	free((void *)m->printk.data);
	free((void *)m->cmdlines.data);
	free((void *)m->clock.data);
	free((void *)m->uname.data);
	for (i = 0; m->cpustat && i < m->ncpus; i++)
		free((void *)m->cpustat[i].data);
	for (i = 0; i < m->nfmt; i++) {
		free((void *)m->fmt[i].system);
		free((void *)m->fmt[i].text.data);
	}
	free((void *)m->fmt);
	free((void *)m->cpustat);
	free((void *)m->procmaps);
}

/**
 * ft_capture_finish - write the trace.dat: metadata (run_meta, system_meta), then every
 * CPU's pages; @tool is the VERSION text (ftscope's version and, for filtered runs, the
 * pid filter). Returns 0 or -1 after printing the error.
 */
int ft_capture_finish(struct ft_capture *c, const char *tool)
{
	struct ft_tdat_meta m = { 0 };
	int ret = -1;

	if (!run_meta(c, tool, &m) && !system_meta(c->s, &m))
		ret = ft_tdat_write(c->out, &m, c->fd, c->bytes);
	/* a file system that reports write errors late (NFS) reports them at close */
	if (!ret) {
		ret = close(c->out);
		c->out = -1;
		if (ret) {
			int e = errno;

			unlink(c->path);
			errno = e;
		}
	}
	c->finished = !ret;
	if (ret)
		ft_err("cannot write %s: %s", c->path, strerror(errno));
	free_meta(&m);
	return ret;
}

/* ft_capture_close - close the files; a capture that was not finished is removed */
void ft_capture_close(struct ft_capture *c)
{
	int i;

	for (i = 0; c->fd && i < c->ncpus; i++)
		if (c->fd[i] >= 0)
			close(c->fd[i]);
	for (i = 0; i < c->nmaps; i++)
		free(c->maps[i].text);
	FT_FREE(c->tgids);
	if (c->out >= 0 && c->path) {
		close(c->out);
		if (!c->finished)
			unlink(c->path);
	}
	free(c->fd);
	free(c->bytes);
	free(c->events);
	free(c->maps);
	memset(c, 0, sizeof(*c));
	c->out = -1;
}
