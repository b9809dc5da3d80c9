// SPDX-License-Identifier: GPL-2.0
/*
 * knowncalls N: N getppid system calls (through syscall(2), so that no library
 * answers one), then N reads of one byte from /dev/zero, and nothing else after the
 * C library's startup: known counts of the kernel functions behind them for funccount
 * (__do_sys_getppid, and ksys_read, vfs_read and /dev/zero's read_zero). The startup
 * (the dynamic loader) makes no getppid call and reads no /dev/zero; its own read()
 * calls are what knowncalls 0 shows.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

/* main - N calls of each */
int main(int argc, char **argv)
{
	long i, n, sum = 0;
	char b;
	int fd;

	if (argc != 2 || (n = atol(argv[1])) < 0) {
		fprintf(stderr, "usage: knowncalls N\n");
		return 2;
	}
	for (i = 0; i < n; i++)
		sum += syscall(SYS_getppid);
	fd = open("/dev/zero", O_RDONLY);
	if (fd < 0)
		return 1;
	for (i = 0; i < n; i++)
		if (read(fd, &b, 1) != 1)
			return 1;
	return sum < 0;
}
