/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A per-CPU ring buffer mapped into the reader (Linux 6.10+), read sub-buffer by
 * sub-buffer through the meta page and TRACE_MMAP_IOCTL_GET_READER.
 */
#ifndef FTSCOPE_TRACER_RINGMAP_H
#define FTSCOPE_TRACER_RINGMAP_H

#include <stddef.h>
#include <stdint.h>

struct ft_page_fmt;

struct ft_ringmap {
	int			fd;		/* trace_pipe_raw (the session owns it) */
	void			*meta;		/* the meta page */
	size_t			meta_len;
	unsigned char		*data;		/* the sub-buffers, by id */
	size_t			data_len;
	unsigned int		subbuf_size;
	unsigned int		nr_subbufs;	/* as mapped */
	unsigned int		id;		/* the reader sub-buffer last seen */
	unsigned int		off;		/* bytes of its records delivered */
	unsigned long long	parts;		/* sub-buffers taken after their start */
};

int ft_ringmap_open(struct ft_ringmap *r, int fd, const struct ft_page_fmt *pf);
int ft_ringmap_next(struct ft_ringmap *r, const struct ft_page_fmt *pf, unsigned char *out);
void ft_ringmap_close(struct ft_ringmap *r);
int ft_ringmap_try(const char *path);

#endif
