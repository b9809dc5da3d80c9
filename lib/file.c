// SPDX-License-Identifier: GPL-2.0
/*
 * Whole-file reads and complete writes, retried on EINTR and short counts.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/file.h"

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

