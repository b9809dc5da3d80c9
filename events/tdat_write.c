// SPDX-License-Identifier: GPL-2.0
/*
 * trace.dat writer, version 6 (trace-cmd.dat.v6(5)): the metadata is built in
 * memory and written once; each CPU's pages follow, page aligned, copied in the
 * kernel (copy_file_range, or sendfile across file systems) from the files the
 * recorder filled with splice.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sendfile.h>
#include <unistd.h>

#include "events/tdat.h"
#include "events/tep.h"

/* A growing byte buffer; @err sticks after the first failed allocation. */
struct obuf {
	unsigned char	*p;
	size_t		len, cap;
	bool		err;
};

/* put - append @n bytes (none from an empty blob, whose data may be NULL) */
static void put(struct obuf *b, const void *data, size_t n)
{
	if (b->err || !n)
		return;
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 65536;
		unsigned char *np;

		while (cap < b->len + n)
			cap *= 2;
		np = realloc(b->p, cap);
		if (!np) {
			b->err = true;
			return;
		}
		b->p = np;
		b->cap = cap;
	}
	memcpy(b->p + b->len, data, n);
	b->len += n;
}

/* put_u - a little-endian unsigned of @n bytes */
static void put_u(struct obuf *b, uint64_t v, int n)
{
	unsigned char le[8];
	int i;

	for (i = 0; i < n; i++)
		le[i] = v >> (8 * i);
	put(b, le, n);
}

/* put_str - a string with its NUL */
static void put_str(struct obuf *b, const char *s)
{
	put(b, s, strlen(s) + 1);
}

/* put_sized - a size of @n bytes, then the blob */
static void put_sized(struct obuf *b, struct ft_blob blob, int n)
{
	put_u(b, blob.len, n);
	put(b, blob.data, blob.len);
}

/* put_text_opt - a text option with its terminating NUL; nothing when empty */
static void put_text_opt(struct obuf *b, int id, struct ft_blob text)
{
	if (!text.len)
		return;
	put_u(b, id, 2);
	put_u(b, text.len + 1, 4);
	put(b, text.data, text.len);
	put_u(b, 0, 1);
}

/* put_blob_opt - a binary option as it is; nothing when empty */
static void put_blob_opt(struct obuf *b, int id, struct ft_blob blob)
{
	if (!blob.len)
		return;
	put_u(b, id, 2);
	put_u(b, blob.len, 4);
	put(b, blob.data, blob.len);
}

/* put_formats - ftrace formats, then the other systems grouped */
static void put_formats(struct obuf *b, const struct ft_tdat_meta *m)
{
	int i, j, n = 0, nsys = 0;

	for (i = 0; i < m->nfmt; i++)
		n += !strcmp(m->fmt[i].system, "ftrace");
	put_u(b, n, 4);
	for (i = 0; i < m->nfmt; i++)
		if (!strcmp(m->fmt[i].system, "ftrace"))
			put_sized(b, m->fmt[i].text, 8);
	for (i = 0; i < m->nfmt; i++)
		if (strcmp(m->fmt[i].system, "ftrace") &&
		    (!i || strcmp(m->fmt[i].system, m->fmt[i - 1].system)))
			nsys++;
	put_u(b, nsys, 4);
	for (i = 0; i < m->nfmt; i = j) {
		for (j = i; j < m->nfmt && !strcmp(m->fmt[j].system, m->fmt[i].system); j++)
			;
		if (!strcmp(m->fmt[i].system, "ftrace"))
			continue;
		put_str(b, m->fmt[i].system);
		put_u(b, j - i, 4);
		for (n = i; n < j; n++)
			put_sized(b, m->fmt[n].text, 8);
	}
}

/* copy_in_kernel - @size bytes of @in from offset 0 to the end of @out */
static int copy_in_kernel(int in, int out, uint64_t size)
{
	loff_t off = 0;
	bool fallback = false;

	while ((uint64_t)off < size) {
		size_t want = size - off > (1U << 30) ? (1U << 30) : size - off;
		ssize_t n;

		if (!fallback) {
			n = copy_file_range(in, &off, out, NULL, want, 0);
			if (n < 0 && (errno == EXDEV || errno == EINVAL || errno == ENOSYS ||
				      errno == EOPNOTSUPP)) {
				fallback = true;
				continue;
			}
		} else {
			n = sendfile(out, in, &off, want);
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (!n)
				errno = EIO;
			return -1;
		}
	}
	return 0;
}

/**
 * ft_tdat_write - write a version 6 trace.dat to @out (at its start): the metadata
 * of @meta, then each CPU's @cpu_size[i] bytes read from @cpu_fd[i] at offset 0
 * Returns 0, or -1 with errno set.
 */
int ft_tdat_write(int out, const struct ft_tdat_meta *m, const int *cpu_fd,
		  const uint64_t *cpu_size)
{
	struct obuf b = { 0 };
	uint64_t off;
	int i, ret = -1;

	put(&b, ft_tdat_magic, sizeof(ft_tdat_magic));
	put_str(&b, "6");
	put_u(&b, 0, 1);			/* little endian */
	put_u(&b, m->long_size, 1);
	put_u(&b, m->page_size, 4);
	put_str(&b, "header_page");
	put_sized(&b, m->header_page, 8);
	put_str(&b, "header_event");
	put_sized(&b, m->header_event, 8);
	put_formats(&b, m);
	put_sized(&b, m->kallsyms, 4);
	put_sized(&b, m->printk, 4);
	put_sized(&b, m->cmdlines, 8);
	put_u(&b, m->ncpus, 4);
	put(&b, "options  ", 10);
	for (i = 0; m->cpustat && i < m->ncpus; i++)
		put_text_opt(&b, FT_TDAT_OPT_CPUSTAT, m->cpustat[i]);
	put_text_opt(&b, FT_TDAT_OPT_TRACECLOCK, m->clock);
	put_text_opt(&b, FT_TDAT_OPT_UNAME, m->uname);
	put_text_opt(&b, FT_TDAT_OPT_VERSION, m->tool);
	for (i = 0; i < m->nprocmaps; i++)
		put_text_opt(&b, FT_TDAT_OPT_PROCMAPS, m->procmaps[i]);
	put_blob_opt(&b, FT_TDAT_OPT_SAMPLES, m->samples);
	put_text_opt(&b, FT_TDAT_OPT_TGIDS, m->tgids);
	put_u(&b, FT_TDAT_OPT_CPUCOUNT, 2);
	put_u(&b, 4, 4);
	put_u(&b, m->ncpus, 4);
	put_u(&b, FT_TDAT_OPT_DONE, 2);
	put(&b, "flyrecord", 10);
	/* the CPU table, then padding to a page boundary, then the data */
	off = b.len + 16ULL * m->ncpus;
	off = (off + m->page_size - 1) / m->page_size * m->page_size;
	for (i = 0; i < m->ncpus; i++) {
		put_u(&b, off, 8);
		put_u(&b, cpu_size[i], 8);
		off += cpu_size[i];
	}
	while (b.len % m->page_size)
		put_u(&b, 0, 1);
	if (b.err) {
		errno = ENOMEM;
		goto out;
	}
	if (ft_write_all(out, b.p, b.len))
		goto out;
	for (i = 0; i < m->ncpus; i++)
		if (cpu_size[i] && copy_in_kernel(cpu_fd[i], out, cpu_size[i]))
			goto out;
	ret = 0;
out:
	free(b.p);
	return ret;
}
