// SPDX-License-Identifier: GPL-2.0
/*
 * mapmeta PATH: map the meta page of the ring buffer behind PATH (a per-CPU
 * trace_pipe_raw, Linux 6.10+) and unmap it at once, nothing read; prints "mapped", or
 * the error of the open or the mapping (strerror), and exits 0 or 1 accordingly. The
 * tests ask the kernel with it, not through ftscope, whether a buffer maps.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* main - one try of PATH */
int main(int argc, char **argv)
{
	long page = sysconf(_SC_PAGESIZE);
	void *meta;
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: mapmeta PATH\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY | O_NONBLOCK);
	if (fd < 0) {
		printf("%s\n", strerror(errno));
		return 1;
	}
	meta = mmap(NULL, page, PROT_READ, MAP_SHARED, fd, 0);
	if (meta == MAP_FAILED) {
		printf("%s\n", strerror(errno));
		close(fd);
		return 1;
	}
	munmap(meta, page);
	close(fd);
	printf("mapped\n");
	return 0;
}
