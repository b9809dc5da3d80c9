// SPDX-License-Identifier: GPL-2.0
/*
 * Whole-file reads and complete writes, retried on EINTR and short counts, and
 * output files that replace their path only once they are whole.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

/* resolve - @path with its symlinks followed (the last name may not exist); NULL: errno */
static char *resolve(const char *path)
{
	char *cur = strdup(path), *next, link[PATH_MAX], *slash;
	struct stat st;
	ssize_t n;
	int hops;

	for (hops = 0; cur && hops < 40; hops++) {
		if (lstat(cur, &st) || !S_ISLNK(st.st_mode))
			return cur;
		n = readlink(cur, link, sizeof(link) - 1);
		if (n < 0)
			break;
		link[n] = 0;
		slash = strrchr(cur, '/');
		if (link[0] == '/' || !slash) {
			next = strdup(link);
		} else if ((next = malloc(slash - cur + 2 + n))) {
			memcpy(next, cur, slash - cur + 1);
			strcpy(next + (slash - cur + 1), link);
		}
		free(cur);
		cur = next;
	}
	if (cur && hops == 40)
		errno = ELOOP;
	free(cur);
	return NULL;
}

/* temp - a new file beside @final, mode 0666 less the umask; its fd, or -1 */
static int temp(struct ft_outfile *o, const char *final)
{
	static unsigned int seq;
	const char *base = strrchr(final, '/');
	int dlen = base ? (int)(base - final) + 1 : 0, i, fd;

	base = base ? base + 1 : final;
	o->tmp = malloc(strlen(final) + 40);
	if (!o->tmp)
		return -1;
	for (i = 0; i < 100; i++) {
		sprintf(o->tmp, "%.*s.%s.%d-%u.tmp", dlen, final, base, (int)getpid(), seq++);
		fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (fd >= 0 || errno != EEXIST)
			break;
	}
	if (fd < 0) {
		free(o->tmp);
		o->tmp = NULL;
	}
	return fd;
}

/**
 * ft_outfile_open - an output file written at the end: a regular file (or a new
 * one) through a temporary file beside it, renamed over it on commit; anything
 * else (/dev/stdout, /dev/null, a fifo) in place. A symlink's target is replaced.
 * Returns 0, or -1 with errno set (nothing then to abandon).
 */
int ft_outfile_open(struct ft_outfile *o, const char *path)
{
	struct stat st;
	int fd, e;

	memset(o, 0, sizeof(*o));
	o->path = path;
	if (!stat(path, &st) && !S_ISREG(st.st_mode)) {
		o->f = fopen(path, "we");
		return o->f ? 0 : -1;
	}
	o->final = resolve(path);
	fd = o->final ? temp(o, o->final) : -1;
	if (fd >= 0 && !stat(o->final, &st) && fchmod(fd, st.st_mode & 07777))
		goto fail;	/* a file replaced keeps its permissions, as fopen leaves them */
	if (fd >= 0 && (o->f = fdopen(fd, "w")))
		return 0;
fail:
	e = errno;
	if (fd >= 0) {
		close(fd);
		unlink(o->tmp);
	}
	free(o->tmp);
	free(o->final);
	memset(o, 0, sizeof(*o));
	errno = e;
	return -1;
}

/* release - forget the names */
static void release(struct ft_outfile *o)
{
	free(o->tmp);
	free(o->final);
	o->tmp = o->final = NULL;
	o->f = NULL;
}

/**
 * ft_outfile_commit - close the file and put it in place; on a failure the
 * temporary file is removed and the path left as it was.
 * Returns 0, or -1 with errno set. Nothing is open after.
 */
int ft_outfile_commit(struct ft_outfile *o)
{
	int e = 0;

	errno = 0;
	if (fflush(o->f) || ferror(o->f))
		e = errno ? errno : EIO;
	if (fclose(o->f) && !e)
		e = errno ? errno : EIO;
	if (o->tmp && !e && rename(o->tmp, o->final))
		e = errno;
	if (o->tmp && e)
		unlink(o->tmp);
	release(o);
	errno = e;
	return e ? -1 : 0;
}

/* ft_outfile_abandon - close a file never finished: the path is left as it was */
void ft_outfile_abandon(struct ft_outfile *o)
{
	if (!o->f)
		return;
	fclose(o->f);
	if (o->tmp)
		unlink(o->tmp);
	release(o);
}

/* ft_fd_is - is @fd's file the one of device @dev, inode @ino? */
bool ft_fd_is(int fd, uint64_t dev, uint64_t ino)
{
	struct stat sb;

	return !fstat(fd, &sb) && (uint64_t)sb.st_dev == dev && (uint64_t)sb.st_ino == ino;
}
