// SPDX-License-Identifier: GPL-2.0
/*
 * tep construction from a few format files: tep_alloc + header_page + one
 * tep_parse_event per needed event, well under a millisecond, instead of
 * parsing every format on the system.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <traceevent/event-parse.h>

#include "events/decode.h"
#include "events/tep.h"

/**
 * ft_read_file - read a whole file (at most @max bytes) into a NUL-terminated buffer
 * Returns the buffer, or NULL with errno set (EFBIG when larger than @max).
 */
char *ft_read_file(const char *path, size_t max, size_t *len)
{
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap + 1), *nb;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t r;

	if (fd < 0 || !buf)
		goto fail;
	while ((r = read(fd, buf + n, cap - n)) > 0) {
		n += r;
		if (n > max) {
			errno = EFBIG;
			goto fail;
		}
		if (n == cap) {
			cap *= 2;
			nb = realloc(buf, cap + 1);
			if (!nb)
				goto fail;
			buf = nb;
		}
	}
	if (r < 0)
		goto fail;
	close(fd);
	buf[n] = 0;
	if (len)
		*len = n;
	return buf;
fail:
	r = errno;
	if (fd >= 0)
		close(fd);
	free(buf);
	errno = r;
	return NULL;
}

/**
 * ft_write_all - write the whole buffer through short writes and EINTR
 * Returns 0, or -1 with errno set.
 */
int ft_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t w = write(fd, p, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (!w)
				errno = EIO;
			return -1;
		}
		p += w;
		len -= w;
	}
	return 0;
}

/**
 * ft_dir_format_read - format reader over a directory: DIR/header_page, and
 * DIR/events/SYSTEM/EVENT/format or DIR/EVENT.format (the fixtures' layout)
 */
char *ft_dir_format_read(void *dir, const char *system, const char *event, size_t *len)
{
	char path[4096];
	char *text;

	if (!system) {
		snprintf(path, sizeof(path), "%s/%s", (char *)dir, event);
		return ft_read_file(path, FT_FORMAT_MAX, len);
	}
	snprintf(path, sizeof(path), "%s/events/%s/%s/format", (char *)dir, system, event);
	text = ft_read_file(path, FT_FORMAT_MAX, len);
	if (text)
		return text;
	snprintf(path, sizeof(path), "%s/%s.format", (char *)dir, event);
	return ft_read_file(path, FT_FORMAT_MAX, len);
}

/**
 * ft_tep_add_format - parse one event format into @tep
 * Returns 0, or -1 with errno EINVAL when libtraceevent rejects it.
 */
int ft_tep_add_format(struct tep_handle *tep, const char *system, const char *text, size_t len)
{
	if (len > FT_FORMAT_MAX || !memmem(text, len, "format:", 7)) {
		errno = EINVAL;
		return -1;
	}
	if (tep_parse_event(tep, text, len, system)) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

/**
 * ft_tep_load - a tep holding the header page and the formats of the types in @need
 * (FT_NEED bits). A missing format is not an error: the decoder skips that type.
 * Fills @pf with the sub-buffer layout. Returns the tep or NULL with errno set.
 */
struct tep_handle *ft_tep_load(ft_format_read_fn rd, void *ctx, unsigned int need,
			       struct ft_page_fmt *pf)
{
	struct tep_handle *tep;
	size_t len;
	char *text;
	int i, err = 0;

	text = rd(ctx, NULL, "header_page", &len);
	if (!text)
		return NULL;
	if (ft_page_fmt_parse(pf, text, len)) {
		free(text);
		errno = EINVAL;
		return NULL;
	}
	tep = tep_alloc();
	if (!tep) {
		free(text);
		errno = ENOMEM;
		return NULL;
	}
	tep_set_long_size(tep, pf->commit_size);
	tep_set_page_size(tep, pf->subbuf_size);
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_parse_header_page(tep, text, len, pf->commit_size);
	free(text);
	for (i = 1; i < FT_EV_NTYPES; i++) {
		if (!(need & FT_NEED(i)))
			continue;
		text = rd(ctx, ft_event_defs[i].system, ft_event_defs[i].name, &len);
		if (!text)
			continue;
		if (ft_tep_add_format(tep, ft_event_defs[i].system, text, len))
			err = errno;
		free(text);
		if (err)
			goto fail;
	}
	return tep;
fail:
	tep_free(tep);
	errno = err;
	return NULL;
}
