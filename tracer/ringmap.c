// SPDX-License-Identifier: GPL-2.0
/*
 * The per-CPU ring buffer mapped into the reader (Linux 6.10+: mmap of trace_pipe_raw,
 * Documentation/trace/ring-buffer-map.rst). The first mapping is the meta page; the
 * sub-buffers follow it. TRACE_MMAP_IOCTL_GET_READER hands the reader the next
 * sub-buffer (or more data on the one it holds, when the writer is still on it) and
 * advances the kernel's read position to that sub-buffer's commit, which the meta
 * page then gives as reader.read. No record is copied by the kernel.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "events/page.h"
#include "tracer/ringmap.h"

/* The kernel's struct trace_buffer_meta (include/uapi/linux/trace_mmap.h, 6.10). */
struct rb_meta {
	uint32_t	meta_page_size;
	uint32_t	meta_struct_len;
	uint32_t	subbuf_size;	/* a whole sub-buffer, header included */
	uint32_t	nr_subbufs;
	uint64_t	reader_lost_events;
	uint32_t	reader_id;	/* the sub-buffer the reader holds */
	uint32_t	reader_read;	/* bytes of its records the kernel counts as read */
	uint64_t	flags;
	uint64_t	entries;
	uint64_t	overrun;
	uint64_t	read;
};

#define RB_IOCTL_GET_READER	_IO('R', 0x20)

/*
 * map_meta - map the meta page behind @fd whole (a page, or more when it says it is
 * larger); sets r->meta and r->meta_len. Returns 0, or -1 with errno.
 */
static int map_meta(struct ft_ringmap *r, int fd)
{
	size_t len = sysconf(_SC_PAGESIZE);
	uint32_t size;

	for (;;) {
		r->meta = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
		if (r->meta == MAP_FAILED) {
			r->meta = NULL;
			return -1;
		}
		r->meta_len = len;
		size = ((const struct rb_meta *)r->meta)->meta_page_size;
		if (size <= len)
			return 0;
		munmap(r->meta, len);
		len = size;
	}
}

/**
 * ft_ringmap_open - map the ring buffer behind @fd, a trace_pipe_raw opened for
 * reading, whose sub-buffers are laid out as @pf says
 * Returns 0, or -1 with errno (ENODEV: the kernel cannot map it; the caller reads).
 */
int ft_ringmap_open(struct ft_ringmap *r, int fd, const struct ft_page_fmt *pf)
{
	const struct rb_meta *meta;
	int e;

	memset(r, 0, sizeof(*r));
	r->fd = fd;
	r->id = UINT32_MAX;
	if (map_meta(r, fd))
		return -1;
	meta = r->meta;
	if (meta->meta_struct_len < offsetof(struct rb_meta, flags) ||
	    meta->subbuf_size != (uint32_t)pf->subbuf_size || !meta->nr_subbufs) {
		ft_ringmap_close(r);
		errno = EPROTO;
		return -1;
	}
	r->subbuf_size = meta->subbuf_size;
	r->nr_subbufs = meta->nr_subbufs;
	r->data_len = (size_t)r->subbuf_size * r->nr_subbufs;
	r->data = mmap(NULL, r->data_len, PROT_READ, MAP_SHARED, fd, meta->meta_page_size);
	if (r->data == MAP_FAILED) {
		e = errno;
		r->data = NULL;
		ft_ringmap_close(r);
		errno = e;
		return -1;
	}
	return 0;
}

/**
 * ft_ringmap_next - copy the records of this CPU not yet delivered, up to one
 * sub-buffer, into @out (pf->subbuf_size bytes) as a sub-buffer of their own, zero
 * past its records
 * Returns the sub-buffer's size, 0 when there is nothing new, or -1 with errno.
 */
int ft_ringmap_next(struct ft_ringmap *r, const struct ft_page_fmt *pf, unsigned char *out)
{
	const volatile struct rb_meta *meta = r->meta;
	unsigned int id, from, to, used;

	if (ioctl(r->fd, RB_IOCTL_GET_READER) < 0)
		return -1;
	id = meta->reader_id;
	to = meta->reader_read;
	if (id >= r->nr_subbufs || to > r->subbuf_size - (unsigned int)pf->data_offset) {
		errno = EPROTO;
		return -1;
	}
	from = id == r->id ? r->off : 0;
	r->id = id;
	r->off = to;
	if (from >= to)
		return 0;
	r->parts += from > 0;
	used = ft_page_part(pf, r->data + (size_t)id * r->subbuf_size, from, to, out);
	/* a whole sub-buffer, as read() gives: a trace.dat's pages are all this size */
	memset(out + used, 0, r->subbuf_size - used);
	return (int)r->subbuf_size;
}

/* ft_ringmap_close - unmap (idempotent): a mapping holds the instance busy */
void ft_ringmap_close(struct ft_ringmap *r)
{
	if (r->data)
		munmap(r->data, r->data_len);
	if (r->meta)
		munmap(r->meta, r->meta_len);
	r->data = NULL;
	r->meta = NULL;
}

/* ft_ringmap_try - 0 when the meta page of the buffer behind @path maps, or the errno */
int ft_ringmap_try(const char *path)
{
	struct ft_ringmap r = { 0 };
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC), e = 0;

	if (fd < 0)
		return errno;
	if (map_meta(&r, fd))
		e = errno;
	ft_ringmap_close(&r);
	close(fd);
	return e;
}
