// SPDX-License-Identifier: GPL-2.0
/*
 * Offline sources: a trace.dat or a capture directory, opened, read page by page
 * and streamed through the merge in bounded steps.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "events/merge.h"
#include "events/source.h"
#include "events/tep.h"
#include "events/tool.h"
#include "lib/parse.h"
#include "lib/util.h"

/* dir_cpus - the number of cpuN.raw files of a capture directory (at most 4096) */
static int dir_cpus(const char *dir)
{
	char path[4096];
	int n = 0;

	while (n < FT_FILE_MAX_CPUS) {
		snprintf(path, sizeof(path), "%s/cpu%d.raw", dir, n);
		if (access(path, R_OK))
			return n;
		n++;
	}
	return n;
}

/* note_buffers - say which buffer is read when not the top one, and what was skipped */
static void note_buffers(const struct ft_tdat *t)
{
	if (t->picked)
		fprintf(stderr, "%s: %s; reading instance '%s' (-B NAME picks one of: %s)\n",
			t->path, t->has_top ? "the top buffer holds no events" :
			"the file has no top buffer", t->buffer, t->buffers);
	if (t->skipped)
		fprintf(stderr, "%s: %d instance buffer%s with a damaged CPU table skipped\n",
			t->path, t->skipped, t->skipped > 1 ? "s" : "");
}

/**
 * ft_source_open - open @path as a trace.dat (its buffer @buffer: ft_tdat_open) or a
 * capture directory, which has one buffer
 * Returns 0, or -1 after printing the error (ft_source_close frees what was opened).
 */
int ft_source_open(struct ft_source *src, const char *path, const char *buffer)
{
	char file[4096];
	int cpu;

	memset(src, 0, sizeof(*src));
	if (access(path, R_OK)) {
		ft_err("%s: %s", path, strerror(errno));
		return -1;
	}
	if (ft_tdat_is(path)) {
		src->is_tdat = true;
		if (ft_tdat_open(&src->tdat, path, buffer)) {
			ft_err("%s: %s", path, src->tdat.err);
			return -1;
		}
		note_buffers(&src->tdat);
		src->ncpus = src->tdat.ncpus;
		return 0;
	}
	if (buffer) {
		ft_err("%s: a capture directory has one buffer: -B is for trace.dat files", path);
		return -1;
	}
	src->dir = path;
	src->ncpus = dir_cpus(path);
	src->fd = malloc((src->ncpus ? src->ncpus : 1) * sizeof(*src->fd));
	if (!src->ncpus || !src->fd) {
		ft_err("%s is not a trace.dat file or an ftscope capture directory", path);
		return -1;
	}
	for (cpu = 0; cpu < src->ncpus; cpu++)
		src->fd[cpu] = -1;
	for (cpu = 0; cpu < src->ncpus; cpu++) {
		snprintf(file, sizeof(file), "%s/cpu%d.raw", path, cpu);
		src->fd[cpu] = open(file, O_RDONLY | O_CLOEXEC);
		if (src->fd[cpu] < 0) {
			ft_err("cannot open %s: %s", file, strerror(errno));
			return -1;
		}
	}
	return 0;
}

/* ft_source_close - close what ft_source_open opened */
void ft_source_close(struct ft_source *src)
{
	int cpu;

	if (src->is_tdat)
		ft_tdat_close(&src->tdat);
	for (cpu = 0; src->fd && cpu < src->ncpus; cpu++)
		if (src->fd[cpu] >= 0)
			close(src->fd[cpu]);
	FT_FREE(src->fd);
}

/*
 * src_page - the next page of @cpu: where an uncompressed trace.dat maps it (*@page),
 * else copied into @buf; its bytes, 0 at the end, -1 when damaged
 */
static long src_page(struct ft_source *src, int cpu, void *buf, size_t size,
		     const void **page)
{
	ssize_t r;

	*page = buf;
	if (src->is_tdat && !src->tdat.comp) {
		r = ft_tdat_map_page(&src->tdat, cpu, page);
		return r > (ssize_t)size ? (ssize_t)size : r;
	}
	if (src->is_tdat)
		return ft_tdat_next_page(&src->tdat, cpu, buf, size);
	if (src->fd[cpu] < 0)
		return 0;
	r = read(src->fd[cpu], buf, size);
	if (r <= 0) {
		close(src->fd[cpu]);
		src->fd[cpu] = -1;
	}
	return r;
}

/*
 * file_losses - a trace.dat's CPU has been read to its end: the losses its CPUSTAT
 * counts (what the live run reported) beyond those its pages' headers already
 * marked (a ring buffer in overwrite mode marks the pages after an overrun)
 */
static void file_losses(struct ft_source *src, struct ft_merge *m, int cpu)
{
	unsigned long long lost;

	if (src->is_tdat && ft_tdat_lost(&src->tdat, cpu, &lost) &&
	    lost > m->cpu[cpu].marked_lost)
		ft_merge_loss(m, cpu, (long long)(lost - m->cpu[cpu].marked_lost));
}

/* ft_source_format_read - ft_format_read_fn over the source */
char *ft_source_format_read(void *ctx, const char *system, const char *event, size_t *len)
{
	struct ft_source *src = ctx;

	if (src->is_tdat)
		return ft_tdat_format_read(&src->tdat, system, event, len);
	return ft_dir_format_read((void *)src->dir, system, event, len);
}

/* damaged - the error line for a CPU whose data cannot be read on */
static void damaged(const struct ft_source *src, int cpu)
{
	if (src->is_tdat && src->tdat.err[0])
		ft_err("%s: %s", src->tdat.path, src->tdat.err);
	else
		ft_err("%s: CPU %d's data is damaged", src->is_tdat ? src->tdat.path : src->dir,
		       cpu);
}

/* Pages read from each CPU per step of offline analysis: bounds memory, not speed. */
#define OFFLINE_BATCH	64

/*
 * ft_source_stream - feed the source's per-CPU pages through the merge in steps.
 * A page's header holds the time of its first record, and every record of the pages
 * before it is older; so after a step, everything up to the oldest "newest page
 * start" of the CPUs still being read is complete and can be merged.
 */
int ft_source_stream(struct ft_source *src, struct ft_merge *m)
{
	bool *done = calloc(m->ncpus, sizeof(*done));
	int cpu, left = m->ncpus, ret = -1;

	if (!done) {
		ft_err("out of memory");
		return -1;
	}
	while (left) {
		uint64_t wm = UINT64_MAX;

		for (cpu = 0; cpu < m->ncpus; cpu++) {
			int i;

			for (i = 0; !done[cpu] && i < OFFLINE_BATCH; i++) {
				struct ft_pagebuf *pg = ft_merge_page_get(m);
				const void *page;
				long r;

				if (!pg) {
					ft_err("out of memory");
					goto out;
				}
				r = src_page(src, cpu, pg->data, m->pf.subbuf_size, &page);
				if (r <= 0) {
					ft_merge_page_recycle(m, pg);
					if (r < 0) {
						damaged(src, cpu);
						goto out;
					}
					file_losses(src, m, cpu);
					done[cpu] = true;
					left--;
					break;
				}
				ft_merge_page_map(m, cpu, pg, page, r);
			}
			if (!done[cpu] && m->cpu[cpu].newest < wm)
				wm = m->cpu[cpu].newest;
		}
		ft_merge_run(m, wm);
	}
	ft_merge_run(m, UINT64_MAX);
	ret = 0;
out:
	free(done);
	return ret;
}

/*
 * ft_source_filter - the pid filter a capture recorded (its VERSION text, or
 * DIR/filter), into @traced and the flags; 0 (none is 0 too), or -1 when damaged
 */
int ft_source_filter(const struct ft_source *src, bool *filtered, bool *follow,
		     struct ft_imap *traced)
{
	char path[4096], *text = NULL;
	const char *filter;
	int ret = 0;

	if (src->is_tdat) {
		const struct ft_blob *b = &src->tdat.tool;

		if (!ft_tool_ours(b->data, b->len))
			return 0;
		text = strndup(b->data, b->len);
		filter = text ? ft_tool_line(text, "filter") : NULL;
	} else {
		snprintf(path, sizeof(path), "%s/filter", src->dir);
		filter = text = ft_read_file(path, 1 << 20, NULL);
	}
	if (filter && filter[0]) {
		*filtered = true;
		ret = ft_tool_filter(filter, follow, traced);
	}
	free(text);
	return ret;
}

/*
 * ft_source_cpus - the -C a trace.dat was recorded with (its VERSION text's "cpus"
 * line) into @on, FT_FILE_MAX_CPUS long (left NULL when there is none); 0, or -1
 * when it is damaged
 */
int ft_source_cpus(const struct ft_source *src, bool **on)
{
	char *line = ft_source_tool(src, "cpus");
	int ret = line ? (ft_parse_cpus(line, FT_FILE_MAX_CPUS, on) ? -1 : 0) : 0;

	free(line);
	return ret;
}

/**
 * ft_source_tool - the rest of the "KEY ..." line of a trace.dat's VERSION text, when
 * ftscope wrote it (a copy, to free), or NULL
 */
char *ft_source_tool(const struct ft_source *src, const char *key)
{
	const struct ft_blob *b = &src->tdat.tool;
	char *text, *line = NULL;
	const char *at;

	if (!src->is_tdat || !ft_tool_ours(b->data, b->len))
		return NULL;
	text = strndup(b->data, b->len);
	at = text ? ft_tool_line(text, key) : NULL;
	if (at)
		line = strndup(at, strcspn(at, "\n"));
	free(text);
	return line;
}

/*
 * ft_source_kallsyms - a trace.dat's kallsyms, for symbolising its kernel stacks:
 * they belong to the traced kernel, not this one. Copied into a memfd that the
 * symbol loader reads by @path. Returns the fd (kept open until the end), or -1.
 */
int ft_source_kallsyms(const struct ft_source *src, char *path, size_t len)
{
	const struct ft_blob *k = &src->tdat.kallsyms;
	int fd;

	if (!src->is_tdat || !k->len)
		return -1;
	fd = memfd_create("ftscope-kallsyms", MFD_CLOEXEC);
	if (fd < 0)
		return -1;
	if (ft_write_all(fd, k->data, k->len)) {
		close(fd);
		return -1;
	}
	snprintf(path, len, "/proc/self/fd/%d", fd);
	return fd;
}
