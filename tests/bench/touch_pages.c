// SPDX-License-Identifier: GPL-2.0
/*
 * touch_pages FILE: the least any reader of FILE must do: map it and load one byte
 * of every 64-byte cache line. bench.sh times it as it times the analyzers (a whole
 * process, exec included), to show what part of a target only reading costs.
 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* main - map FILE, sum a byte per cache line, print the sum (so it is not elided) */
int main(int argc, char **argv)
{
	const volatile unsigned char *p;
	unsigned long sum = 0;
	struct stat st;
	off_t i;
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: touch_pages FILE\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY);
	if (fd < 0 || fstat(fd, &st) || !st.st_size) {
		perror(argv[1]);
		return 1;
	}
	p = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	for (i = 0; i < st.st_size; i += 64)
		sum += p[i];
	printf("%lu\n", sum);
	return 0;
}
