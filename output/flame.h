/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Flame graphs: stacks merged into a tree, written as one self-contained
 * interactive SVG (hover details, click to zoom, search). Differential graphs
 * keep two values per frame: width from the second, colour from the change.
 */
#ifndef FTSCOPE_OUTPUT_FLAME_H
#define FTSCOPE_OUTPUT_FLAME_H

#include <stdbool.h>
#include <stdio.h>

#include "lib/file.h"

/* Frame kinds, for colours; FT_FRAME_OFFCPU: a "..._[o]" off-CPU mark (profile --offcpu). */
enum ft_frame_kind {
	FT_FRAME_USER, FT_FRAME_KERNEL, FT_FRAME_META, FT_FRAME_WAKER, FT_FRAME_OFFCPU,
};

enum ft_flame_palette { FT_PALETTE_HOT, FT_PALETTE_IO };

struct ft_flame_opts {
	const char		*title;
	const char		*subtitle;	/* NULL: none */
	const char		*countname;	/* "samples", "us" */
	int			width;		/* pixels, 0: 1200 */
	bool			inverted;	/* icicle: roots at the top */
	enum ft_flame_palette	palette;
};

struct ft_flame;

struct ft_flame *ft_flame_new(bool diff);
void ft_flame_free(struct ft_flame *fg);
int ft_flame_add(struct ft_flame *fg, const char *const *frames, const unsigned char *kinds,
		 int n, double before, double after);
int ft_folded_split(char *line, bool diff, bool before, double *a, double *b);
int ft_flame_add_stack(struct ft_flame *fg, char *stack, double before, double after);
bool ft_folded_is_diff(const char *line);
bool ft_flame_is_diff(const struct ft_flame *fg);
int ft_flame_write(struct ft_flame *fg, FILE *f, const struct ft_flame_opts *o);
int ft_flame_finish(struct ft_flame *fg, struct ft_outfile *out,
		    const struct ft_flame_opts *o);
void ft_flame_abandon(FILE **f, const char *path);

void ft_xml_put(FILE *f, const char *s);

#endif
