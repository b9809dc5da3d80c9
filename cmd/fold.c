// SPDX-License-Identifier: GPL-2.0
/*
 * The table of stacks `ftscope flamegraph` draws, and the frame clean-ups the
 * readers share (the readers, cmd/fold_*.c, use them; the command picks a reader).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/fold.h"
#include "lib/util.h"
#include "output/flame.h"

/* by_stack - qsort order of table entries: their stacks, bytewise */
static int by_stack(const void *x, const void *y)
{
	const struct ft_fold_ent *a = x, *b = y;

	return strcmp(a->stack, b->stack);
}

/* compact - sort the table and merge equal stacks, adding their values */
static void compact(struct ft_fold *fo)
{
	size_t i, out = 0;

	if (!fo->n)
		return;
	qsort(fo->e, fo->n, sizeof(*fo->e), by_stack);
	for (i = 1; i < fo->n; i++) {
		if (!strcmp(fo->e[out].stack, fo->e[i].stack)) {
			fo->e[out].a += fo->e[i].a;
			fo->e[out].b += fo->e[i].b;
			free(fo->e[i].stack);
		} else {
			fo->e[++out] = fo->e[i];
		}
	}
	fo->n = out + 1;
}

/* grow - room for one more entry: merge first, and grow only when that freed too little */
static int grow(struct ft_fold *fo)
{
	size_t cap = fo->cap ? fo->cap * 2 : 1024;
	struct ft_fold_ent *e;

	if (fo->n) {
		compact(fo);
		if (fo->n < fo->cap / 2)
			return 0;
	}
	e = reallocarray(fo->e, cap, sizeof(*e));
	if (e) {
		fo->e = e;
		fo->cap = cap;
	}
	return e ? 0 : -1;
}

/**
 * ft_fold_add - add @stack ("root;...;leaf") with its values before and after.
 * Returns 0, or -1 when out of memory.
 */
int ft_fold_add(struct ft_fold *fo, const char *stack, double a, double b)
{
	char *s;

	if (fo->n == fo->cap && grow(fo))
		return -1;
	s = strdup(stack);
	if (!s)
		return -1;
	fo->e[fo->n++] = (struct ft_fold_ent){ .stack = s, .a = a, .b = b };
	return 0;
}

/**
 * ft_fold_add_frames - add a stack of @n frames, root first, counted @count times
 * (as before when @before). A stack without frames is "[unknown]".
 * Returns 0, or -1 when out of memory.
 */
int ft_fold_add_frames(struct ft_fold *fo, const char *const *frames, int n, double count,
		       bool before)
{
	size_t len = 16, at = 0;
	int i;

	for (i = 0; i < n; i++)
		len += strlen(frames[i]) + 1;
	if (len > fo->bufcap) {
		char *b = realloc(fo->buf, len);

		if (!b)
			return -1;
		fo->buf = b;
		fo->bufcap = len;
	}
	for (i = 0; i < n; i++)
		at += sprintf(fo->buf + at, "%s%s", i ? ";" : "", frames[i]);
	if (!n)
		strcpy(fo->buf, "[unknown]");
	return ft_fold_add(fo, fo->buf, before ? count : 0, before ? 0 : count);
}

/* ft_fold_finish - sort the table by stack and merge equal stacks */
void ft_fold_finish(struct ft_fold *fo)
{
	compact(fo);
}

/* put_num - @v as short as it reads back exactly: 30, 1.5, 0.1 */
static void put_num(FILE *f, double v)
{
	char s[40];

	snprintf(s, sizeof(s), "%.15g", v);
	if (strtod(s, NULL) != v)
		snprintf(s, sizeof(s), "%.17g", v);
	fprintf(f, " %s", s);
}

/**
 * ft_fold_print - the table as folded stacks, "stack COUNT" (with @diff
 * "stack BEFORE AFTER"), in byte order of the stacks as stackcollapse prints them.
 * Returns 0, or -1 when writing failed.
 */
int ft_fold_print(const struct ft_fold *fo, FILE *f, bool diff)
{
	size_t i;

	for (i = 0; i < fo->n; i++) {
		fputs(fo->e[i].stack, f);
		if (diff)
			put_num(f, fo->e[i].a);
		put_num(f, fo->e[i].b);
		fputc('\n', f);
	}
	return fflush(f) || ferror(f) ? -1 : 0;
}

/* ft_fold_free - free the table */
void ft_fold_free(struct ft_fold *fo)
{
	size_t i;

	for (i = 0; i < fo->n; i++)
		free(fo->e[i].stack);
	free(fo->e);
	free(fo->buf);
	*fo = (struct ft_fold){ 0 };
}

/* ft_fold_trim - @s without white space (and the newline) at either end */
char *ft_fold_trim(char *s)
{
	size_t len;

	s += strspn(s, " \t");
	len = strlen(s);
	while (len && isspace((unsigned char)s[len - 1]))
		s[--len] = 0;
	return s;
}

/* ft_fold_tidy - make a frame name safe in folded stacks: ';' separates frames */
void ft_fold_tidy(char *frame)
{
	for (; *frame; frame++)
		if (*frame == ';')
			*frame = ':';
}

/**
 * ft_fold_dso - cut a trailing " (module)" off a frame, as perf prints it after a
 * symbol: "foo(int) (/usr/lib/libx.so)". Returns the module's name, or NULL.
 */
char *ft_fold_dso(char *frame)
{
	size_t len = strlen(frame);
	char *p;

	if (!len || frame[len - 1] != ')')
		return NULL;
	for (p = frame + len - 1; p > frame; p--) {
		if (p[0] == '(' && p[-1] == ' ') {
			p[-1] = 0;
			frame[len - 1] = 0;
			return p + 1;
		}
	}
	return NULL;
}

/* ft_fold_strip_offset - drop a "+0x1f" or "+31" offset from the end of a frame */
void ft_fold_strip_offset(char *frame)
{
	char *plus = strrchr(frame, '+');
	const char *d;

	if (!plus || plus == frame)
		return;
	d = plus + 1;
	if (d[0] == '0' && d[1] == 'x' && d[2] && !d[2 + strspn(d + 2, "0123456789abcdefABCDEF")])
		*plus = 0;
	else if (d[0] && !d[strspn(d, "0123456789")])
		*plus = 0;
}

/* ft_fold_hex - @len characters of @s as a hex number (an optional "0x" first) */
bool ft_fold_hex(const char *s, size_t len, uint64_t *v)
{
	size_t i;

	if (len > 2 && s[0] == '0' && s[1] == 'x') {
		s += 2;
		len -= 2;
	}
	if (!len || len > 16)
		return false;
	*v = 0;
	for (i = 0; i < len; i++) {
		if (!isxdigit((unsigned char)s[i]))
			return false;
		*v = *v << 4 | (uint64_t)(isdigit((unsigned char)s[i]) ? s[i] - '0' :
					  (tolower((unsigned char)s[i]) - 'a' + 10));
	}
	return true;
}
