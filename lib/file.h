/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Whole-file reads and complete writes.
 */
#ifndef FTSCOPE_LIB_FILE_H
#define FTSCOPE_LIB_FILE_H

#include <stddef.h>

char *ft_read_file(const char *path, size_t max, size_t *len);
int ft_write_all(int fd, const void *buf, size_t len);

#endif
