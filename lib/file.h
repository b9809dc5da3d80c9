/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Whole-file reads, complete writes and output files put in place whole.
 */
#ifndef FTSCOPE_LIB_FILE_H
#define FTSCOPE_LIB_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * An output file written at the end of a run (--svg, --pprof, --heatmap,
 * --prometheus-file). The path is untouched until the commit; a run that fails
 * abandons it. A regular file goes through a temporary file in its directory.
 */
struct ft_outfile {
	FILE		*f;		/* where to write; NULL: nothing open */
	const char	*path;		/* as given */
	char		*final;		/* the path, symlinks followed (NULL: in place) */
	char		*tmp;		/* the temporary file (NULL: written in place) */
};

char *ft_read_file(const char *path, size_t max, size_t *len);
bool ft_fd_is(int fd, uint64_t dev, uint64_t ino);
int ft_write_all(int fd, const void *buf, size_t len);
int ft_outfile_open(struct ft_outfile *o, const char *path);
int ft_outfile_commit(struct ft_outfile *o);
void ft_outfile_abandon(struct ft_outfile *o);

#endif
