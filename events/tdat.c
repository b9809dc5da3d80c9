// SPDX-License-Identifier: GPL-2.0
/*
 * trace.dat reader: versions 6 and 7 (trace-cmd.dat.v6(5), trace-cmd.dat.v7(5)),
 * compressed sections and chunked per-CPU data (zstd, zlib). The file is mapped;
 * every length is checked against what is left before it is used.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zlib.h>
#include <zstd.h>

#include "events/tdat.h"
#include "events/tdat_cur.h"
#include "lib/util.h"

/* the reader's short name for ft_tdat_fail */
#define fail	ft_tdat_fail

const unsigned char ft_tdat_magic[10] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };

/*
 * Bounds on decompression, so that a small damaged or hostile file cannot claim
 * gigabytes. One block (a section or a chunk of CPU data): 256 MiB, beyond the
 * largest honest section (kallsyms of a distribution kernel with its modules is
 * 10-20 MB; trace-cmd compresses CPU data in chunks of a few pages). All blocks of a
 * file together: 64 MiB plus 1024 times the file's size. zlib's deflate cannot
 * exceed 1032:1, and whole files shrink 5x to 6x (LISA's and our recordings,
 * trace-cmd's zstd and our zlib: docs/record.md), so no honest file comes near it,
 * while a file of 1 KB can make ftscope decompress at most 65 MB.
 */
#define TDAT_MAX_INFLATE	(256UL << 20)
#define TDAT_INFLATE_RATIO	1024
#define TDAT_INFLATE_SLACK	(64ULL << 20)

/* own - keep @mem until close */
static int own(struct ft_tdat *t, void *mem)
{
	void **n = realloc(t->owned, (t->nowned + 1) * sizeof(*n));

	if (!n) {
		free(mem);
		return -1;
	}
	t->owned = n;
	t->owned[t->nowned++] = mem;
	return 0;
}

/* inflate_buf - decompress @src into a new buffer of exactly @out bytes */
static unsigned char *inflate_buf(struct ft_tdat *t, const unsigned char *src, size_t n,
				  size_t out)
{
	unsigned char *dst;
	uLongf zl = out;

	if (out > TDAT_MAX_INFLATE) {
		fail(t, "a compressed block claims %zu bytes (at most %lu)", out, TDAT_MAX_INFLATE);
		return NULL;
	}
	if (out > TDAT_INFLATE_SLACK + TDAT_INFLATE_RATIO * (uint64_t)t->len - t->inflated) {
		fail(t, "its compressed blocks claim more than %llu bytes in all (64 MiB + 1024 x its size)",
		     TDAT_INFLATE_SLACK + TDAT_INFLATE_RATIO * (unsigned long long)t->len);
		return NULL;
	}
	t->inflated += out;
	dst = malloc(out ? out : 1);
	if (!dst) {
		fail(t, "out of memory");
		return NULL;
	}
	if (t->comp == FT_COMP_ZSTD) {
		size_t r = ZSTD_decompress(dst, out, src, n);

		if (!ZSTD_isError(r) && r == out)
			return dst;
	} else if (t->comp == FT_COMP_ZLIB) {
		if (uncompress(dst, &zl, src, n) == Z_OK && zl == out)
			return dst;
	}
	free(dst);
	fail(t, "a compressed block does not decompress");
	return NULL;
}

/* section - a cursor over the body of the v7 section at @off, decompressed if need be */
static int section(struct ft_tdat *t, uint64_t off, int id, struct cur *body)
{
	struct cur c = at(t, off);
	unsigned int sid = get_u(&c, 2), flags = get_u(&c, 2);
	uint64_t size;
	unsigned char *mem;

	get_u(&c, 4);			/* description string id */
	size = get_u(&c, 8);
	if (c.bad || sid != (unsigned int)id || size > (uint64_t)(c.end - c.p))
		return fail(t, "section %d at offset %llu is damaged", id, (unsigned long long)off);
	if (!(flags & 1)) {
		body->p = c.p;
		body->end = c.p + size;
		body->bad = false;
		return 0;
	}
	{
		size_t zn = get_u(&c, 4), un = get_u(&c, 4);

		/* both sizes are inside the section: a section of under 8 bytes is damaged */
		if (c.bad || size < 8 || zn > size - 8)
			return fail(t, "compressed section %d at offset %llu is damaged", id,
				    (unsigned long long)off);
		mem = inflate_buf(t, c.p, zn, un);
		if (!mem || own(t, mem))
			return -1;
		body->p = mem;
		body->end = mem + un;
		body->bad = false;
	}
	return 0;
}

/* add_fmt - one event format of @system */
static int add_fmt(struct ft_tdat *t, const char *system, struct ft_blob text)
{
	struct ft_tdat_fmt *f, *n;
	const char *name;
	size_t i;

	if (!text.data)
		return 0;	/* truncated: the caller sees the bad cursor */
	name = memmem(text.data, text.len, "name: ", 6);
	n = realloc(t->fmt, (t->nfmt + 1) * sizeof(*n));
	if (!n)
		return fail(t, "out of memory");
	t->fmt = n;
	f = &t->fmt[t->nfmt++];
	memset(f, 0, sizeof(*f));
	f->system = system;
	f->text = text;
	if (name) {
		name += 6;
		for (i = 0; i < sizeof(f->name) - 1 && name + i < text.data + text.len &&
			    name[i] != '\n' && name[i] != '\r'; i++)
			f->name[i] = name[i];
	}
	return 0;
}

/* read_headers - "header_page" and "header_event", each with an 8-byte size */
static int read_headers(struct ft_tdat *t, struct cur *c)
{
	const char *s = get_str(c);

	if (!s || strcmp(s, "header_page"))
		return fail(t, "no header_page");
	t->header_page = get_blob(c, get_u(c, 8));
	s = get_str(c);
	if (!s || strcmp(s, "header_event"))
		return fail(t, "no header_event");
	t->header_event = get_blob(c, get_u(c, 8));
	return c->bad ? fail(t, "the headers are truncated") : 0;
}

/* read_ftrace_fmts - count, then formats with 8-byte sizes */
static int read_ftrace_fmts(struct ft_tdat *t, struct cur *c)
{
	unsigned int n = get_u(c, 4), i;

	for (i = 0; i < n && !c->bad; i++)
		if (add_fmt(t, "ftrace", get_blob(c, get_u(c, 8))))
			return -1;
	return c->bad ? fail(t, "the ftrace formats are truncated") : 0;
}

/* read_event_fmts - systems, each: name, count, formats with 8-byte sizes */
static int read_event_fmts(struct ft_tdat *t, struct cur *c)
{
	unsigned int nsys = get_u(c, 4), i, j, n;

	for (i = 0; i < nsys && !c->bad; i++) {
		const char *sys = get_str(c);

		n = get_u(c, 4);
		for (j = 0; j < n && !c->bad; j++)
			if (add_fmt(t, sys, get_blob(c, get_u(c, 8))))
				return -1;
	}
	return c->bad ? fail(t, "the event formats are truncated") : 0;
}

/* read_v7_section_at - the metadata section an offset option points to */
static int read_v7_section_at(struct ft_tdat *t, int id, uint64_t off)
{
	struct cur body;

	if (section(t, off, id, &body))
		return -1;
	switch (id) {
	case FT_TDAT_OPT_HEADER_INFO:
		return read_headers(t, &body);
	case FT_TDAT_OPT_FTRACE_EVENTS:
		return read_ftrace_fmts(t, &body);
	case FT_TDAT_OPT_EVENT_FORMATS:
		return read_event_fmts(t, &body);
	case FT_TDAT_OPT_KALLSYMS:
		t->kallsyms = get_blob(&body, get_u(&body, 4));
		break;
	case FT_TDAT_OPT_PRINTK:
		t->printk = get_blob(&body, get_u(&body, 4));
		break;
	case FT_TDAT_OPT_CMDLINES:
		t->cmdlines = get_blob(&body, get_u(&body, 8));
		break;
	}
	return body.bad ? fail(t, "section %d is truncated", id) : 0;
}

/* add_blob - append @b to the array *@v of *@n blobs */
static int add_blob(struct ft_tdat *t, struct ft_blob **v, int *n, struct ft_blob b)
{
	struct ft_blob *nv = realloc(*v, (*n + 1) * sizeof(*nv));

	if (!nv)
		return fail(t, "out of memory");
	*v = nv;
	nv[(*n)++] = b;
	return 0;
}

/*
 * read_options - a list of options up to DONE; returns the next options section's
 * offset (v7; 0 when none) in @next
 */
static int read_options(struct ft_tdat *t, struct cur *c, uint64_t *next)
{
	*next = 0;
	for (;;) {
		unsigned int id = get_u(c, 2);
		uint32_t size;
		struct ft_blob b;
		struct cur oc;

		if (c->bad)
			return fail(t, "the options are truncated");
		if (id == FT_TDAT_OPT_DONE && t->version < 7)
			return 0;
		size = get_u(c, 4);
		b = get_blob(c, size);
		if (c->bad)
			return fail(t, "option %u is truncated", id);
		oc.p = (const unsigned char *)b.data;
		oc.end = oc.p + b.len;
		oc.bad = false;
		/* text options keep their terminating NUL out of the length */
		if (b.len && !b.data[b.len - 1] && id != FT_TDAT_OPT_BUFFER &&
		    id != FT_TDAT_OPT_SAMPLES)
			b.len--;
		switch (id) {
		case FT_TDAT_OPT_DONE:
			*next = get_u(&oc, 8);
			return 0;
		case FT_TDAT_OPT_CPUSTAT:
			if (add_blob(t, &t->cpustat, &t->ncpustat, b))
				return -1;
			break;
		case FT_TDAT_OPT_BUFFER:
			if (t->version >= 7 ? ft_tdat_buffer_v7(t, &oc) : ft_tdat_buffer_v6(t, &oc))
				return -1;
			break;
		case FT_TDAT_OPT_TRACECLOCK:
			t->clock = b;
			break;
		case FT_TDAT_OPT_UNAME:
			t->uname = b;
			break;
		case FT_TDAT_OPT_TGIDS:
			t->tgids = b;
			break;
		case FT_TDAT_OPT_PROCMAPS:
			if (add_blob(t, &t->procmaps, &t->nprocmaps, b))
				return -1;
			break;
		case FT_TDAT_OPT_HEADER_INFO ... FT_TDAT_OPT_CMDLINES:
			if (t->version >= 7 && read_v7_section_at(t, id, get_u(&oc, 8)))
				return -1;
			break;
		case FT_TDAT_OPT_VERSION:
			t->tool = b;
			break;
		case FT_TDAT_OPT_SAMPLES:
			t->samples = b;
			break;
		}
	}
}

/* read_v6 - the sequential layout of version 6 */
static int read_v6(struct ft_tdat *t, struct cur *c)
{
	const unsigned char *word;
	uint64_t next, ncpus;

	if (read_headers(t, c) || read_ftrace_fmts(t, c) || read_event_fmts(t, c))
		return -1;
	t->kallsyms = get_blob(c, get_u(c, 4));
	t->printk = get_blob(c, get_u(c, 4));
	t->cmdlines = get_blob(c, get_u(c, 8));
	/* checked before it becomes an int: 0x80000000 and up would be negative */
	ncpus = get_u(c, 4);
	word = take(c, 10);
	if (c->bad)
		return fail(t, "the header is truncated");
	if (ncpus > 4096)
		return fail(t, "bad CPU count %llu", (unsigned long long)ncpus);
	t->ncpus = (int)ncpus;
	if (!memcmp(word, "options  ", 10)) {
		if (read_options(t, c, &next))
			return -1;
		word = take(c, 10);
	}
	if (!word || memcmp(word, "flyrecord", 10))
		return fail(t, "no flyrecord data (latency-format files are not supported)");
	t->cpu = ft_tdat_table(t, c, t->ncpus);
	if (!t->cpu)
		return fail(t, "the CPU table is truncated");
	return ft_tdat_pick_v6(t);
}

/* read_v7 - compression header, then the chain of options sections */
static int read_v7(struct ft_tdat *t, struct cur *c)
{
	const char *alg = get_str(c);
	uint64_t off;
	int hops = 0;

	get_str(c);			/* compression library version */
	off = get_u(c, 8);
	if (c->bad)
		return fail(t, "the header is truncated");
	if (!strcmp(alg, "zstd"))
		t->comp = FT_COMP_ZSTD;
	else if (!strcmp(alg, "zlib"))
		t->comp = FT_COMP_ZLIB;
	else if (strcmp(alg, "none"))
		return fail(t, "compression '%.32s' is not supported (zstd, zlib)", alg);
	while (off) {
		struct cur body;

		if (++hops > 1024 || section(t, off, 0, &body) || read_options(t, &body, &off))
			return fail(t, "the options sections are damaged");
	}
	if (!t->cpu && !t->want)	/* else the one asked for is missing: said later */
		return fail(t, "no flyrecord buffer");
	return 0;
}

/* check_cpus - every CPU's data lies inside the file */
static int check_cpus(struct ft_tdat *t)
{
	int i;

	for (i = 0; i < t->ncpus; i++) {
		struct ft_tdat_cpu *cp = &t->cpu[i];

		if (cp->off > t->len || cp->size > t->len - cp->off)
			return fail(t, "CPU %d's data lies beyond the end of the file", i);
		if (t->comp && cp->size) {
			struct cur c = at(t, cp->off);

			cp->chunks = get_u(&c, 4);
			cp->next_chunk = cp->off + 4;
			if (c.bad)
				return fail(t, "CPU %d's data is damaged", i);
		}
	}
	return 0;
}

/* ft_tdat_is - does @path start with the trace.dat magic? */
bool ft_tdat_is(const char *path)
{
	unsigned char m[sizeof(ft_tdat_magic)];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	bool ok;

	if (fd < 0)
		return false;
	ok = read(fd, m, sizeof(m)) == sizeof(m) && !memcmp(m, ft_tdat_magic, sizeof(m));
	close(fd);
	return ok;
}

/**
 * ft_tdat_open - map and parse a trace.dat file, to read its buffer @buffer (an
 * instance's name, "top" for the top one; NULL: the top one, or the first instance
 * with data when the top one has none)
 * Returns 0, or -1 with t->err saying what is wrong (errno set for system errors).
 */
int ft_tdat_open(struct ft_tdat *t, const char *path, const char *buffer)
{
	struct stat st;
	struct cur c;
	const char *ver;
	int fd;

	memset(t, 0, sizeof(*t));
	t->path = path;
	t->want = buffer;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		fail(t, "%s", strerror(errno));
		goto out_fd;
	}
	if (!S_ISREG(st.st_mode) || st.st_size < (off_t)sizeof(ft_tdat_magic)) {
		fail(t, "not a trace.dat file");
		goto out_fd;
	}
	t->len = st.st_size;
	t->map = mmap(NULL, t->len, PROT_READ, MAP_PRIVATE, fd, 0);
	if (t->map == MAP_FAILED) {
		t->map = NULL;
		fail(t, "%s", strerror(errno));
		goto out_fd;
	}
	close(fd);
	c = at(t, 0);
	if (memcmp(take(&c, sizeof(ft_tdat_magic)), ft_tdat_magic, sizeof(ft_tdat_magic)))
		return fail(t, "not a trace.dat file (bad magic)");
	ver = get_str(&c);
	t->version = ver ? atoi(ver) : 0;
	if (get_u(&c, 1))
		return fail(t, "big-endian files are not supported");
	t->long_size = get_u(&c, 1);
	t->page_size = get_u(&c, 4);
	if (c.bad || (t->version != 6 && t->version != 7))
		return fail(t, "trace.dat version %.8s is not supported (6, 7)", ver ? ver : "?");
	if (t->long_size != 4 && t->long_size != 8)
		return fail(t, "bad long size %d", t->long_size);
	if (t->version == 6 ? read_v6(t, &c) : read_v7(t, &c))
		return -1;
	if (ft_tdat_check_buffer(t))
		return -1;
	if (!t->header_page.len)
		return fail(t, "no header_page");
	if (t->page_size < 64 || t->page_size > (1U << 24))
		return fail(t, "bad page size %u", t->page_size);
	return check_cpus(t);
out_fd:
	if (fd >= 0)
		close(fd);
	return -1;
}

/* ft_tdat_close - unmap and free */
void ft_tdat_close(struct ft_tdat *t)
{
	int i;

	if (t->map)
		munmap((void *)t->map, t->len);
	for (i = 0; t->cpu && i < t->ncpus; i++)
		free(t->cpu[i].chunk);
	for (i = 0; i < t->nowned; i++)
		free(t->owned[i]);
	FT_FREE(t->owned);
	FT_FREE(t->cpu);
	FT_FREE(t->fmt);
	FT_FREE(t->procmaps);
	FT_FREE(t->cpustat);
	FT_FREE(t->names);
	FT_FREE(t->v6off);
	t->map = NULL;
}

/* dup_blob - a malloc'ed, NUL-terminated copy */
static char *dup_blob(struct ft_blob b, size_t *len)
{
	char *s = malloc(b.len + 1);

	if (!s)
		return NULL;
	memcpy(s, b.data, b.len);
	s[b.len] = 0;
	if (len)
		*len = b.len;
	return s;
}

/* ft_tdat_format_read - ft_format_read_fn over the formats in the file */
char *ft_tdat_format_read(void *ctx, const char *system, const char *event, size_t *len)
{
	struct ft_tdat *t = ctx;
	int i;

	if (!system)
		return !strcmp(event, "header_page") ? dup_blob(t->header_page, len) : NULL;
	for (i = 0; i < t->nfmt; i++)
		if (t->fmt[i].system && !strcmp(t->fmt[i].system, system) &&
		    !strcmp(t->fmt[i].name, event))
			return dup_blob(t->fmt[i].text, len);
	errno = ENOENT;
	return NULL;
}

/* next_chunk - decompress the CPU's next chunk; 0 at the end, -1 when damaged */
static int next_chunk(struct ft_tdat *t, struct ft_tdat_cpu *cp)
{
	struct cur c;
	size_t zn, un;
	uint64_t end;

	if (!cp->chunks)
		return 0;
	/*
	 * each chunk lies inside the CPU's data: its size counts the chunks, not the
	 * 4-byte count before them (trace-cmd's writer), and the file ends it
	 */
	end = cp->off + 4 + cp->size < t->len ? cp->off + 4 + cp->size : t->len;
	c.p = t->map + cp->next_chunk;
	c.end = t->map + end;
	c.bad = cp->next_chunk > end;
	zn = get_u(&c, 4);
	un = get_u(&c, 4);
	if (c.bad || zn > (size_t)(c.end - c.p))
		return fail(t, "a chunk of CPU %d's data is damaged", (int)(cp - t->cpu));
	free(cp->chunk);
	cp->chunk = inflate_buf(t, c.p, zn, un);
	if (!cp->chunk)
		return -1;
	cp->chunk_len = un;
	cp->chunk_pos = 0;
	cp->next_chunk += 8 + zn;
	cp->chunks--;
	return 1;
}

/**
 * ft_tdat_map_page - point @page at @cpu's next page inside an uncompressed file's
 * mapping (valid until ft_tdat_close), instead of copying it
 * Returns its bytes (at most the page size), 0 at the end, -1 for a compressed file.
 */
long ft_tdat_map_page(struct ft_tdat *t, int cpu, const void **page)
{
	struct ft_tdat_cpu *cp = &t->cpu[cpu];
	size_t n;

	if (t->comp)
		return -1;
	if (cp->pos >= cp->size)
		return 0;
	*page = t->map + cp->off + cp->pos;
	n = cp->size - cp->pos;
	cp->pos += t->page_size;
	return n < t->page_size ? (long)n : (long)t->page_size;
}

/**
 * ft_tdat_next_page - copy @cpu's next page (up to @size bytes, the rest zeroed)
 * Returns the bytes copied, 0 at the end of the CPU's data, -1 when it is damaged.
 */
long ft_tdat_next_page(struct ft_tdat *t, int cpu, void *buf, size_t size)
{
	struct ft_tdat_cpu *cp = &t->cpu[cpu];
	const void *src;
	size_t n;

	if (size > t->page_size)
		size = t->page_size;
	if (!t->comp) {
		long r = ft_tdat_map_page(t, cpu, &src);

		if (r <= 0)
			return r;
		n = (size_t)r;
	} else {
		while (cp->chunk_pos >= cp->chunk_len) {
			int r = next_chunk(t, cp);

			if (r <= 0)
				return r;
		}
		src = cp->chunk + cp->chunk_pos;
		n = cp->chunk_len - cp->chunk_pos;
		cp->chunk_pos += t->page_size;
	}
	if (n > size)
		n = size;
	memcpy(buf, src, n);
	memset((char *)buf + n, 0, size - n);
	return n;
}
