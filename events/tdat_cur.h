/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The trace.dat reader's own helpers, shared by its files (events/tdat*.c): a
 * bounded cursor over file bytes, little-endian.
 */
#ifndef FTSCOPE_EVENTS_TDAT_CUR_H
#define FTSCOPE_EVENTS_TDAT_CUR_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "events/tdat_types.h"

/* ft_tdat_fail - record why the file is unusable (the first reason); returns -1 */
static inline __attribute__((format(printf, 2, 3)))
int ft_tdat_fail(struct ft_tdat *t, const char *fmt, ...)
{
	va_list ap;

	if (t->err[0])
		return -1;
	va_start(ap, fmt);
	vsnprintf(t->err, sizeof(t->err), fmt, ap);
	va_end(ap);
	return -1;
}

/* Highest CPU id a file may name: a damaged id must not size the CPU table. */
#define TDAT_MAX_CPU	4096

/* A bounded cursor over file bytes. */
struct cur {
	const unsigned char	*p, *end;
	bool			bad;
};

/* take - advance over @n bytes, or mark the cursor bad */
static inline const unsigned char *take(struct cur *c, size_t n)
{
	const unsigned char *p = c->p;

	if (c->bad || (size_t)(c->end - c->p) < n) {
		c->bad = true;
		return NULL;
	}
	c->p += n;
	return p;
}

/* get_u - a little-endian unsigned of @n bytes */
static inline uint64_t get_u(struct cur *c, int n)
{
	const unsigned char *p = take(c, n);
	uint64_t v = 0;

	while (p && n--)
		v = v << 8 | p[n];
	return v;
}

/* get_str - a NUL-terminated string, or NULL */
static inline const char *get_str(struct cur *c)
{
	const unsigned char *nul;
	const char *s = (const char *)c->p;

	if (c->bad || !(nul = memchr(c->p, 0, c->end - c->p))) {
		c->bad = true;
		return NULL;
	}
	c->p = nul + 1;
	return s;
}

/* get_blob - @n bytes as a blob */
static inline struct ft_blob get_blob(struct cur *c, uint64_t n)
{
	struct ft_blob b = { 0 };

	if (n > (uint64_t)(c->end - c->p)) {
		c->bad = true;
		return b;
	}
	b.data = (const char *)take(c, n);
	b.len = b.data ? n : 0;
	return b;
}

/* at - a cursor from file offset @off to the end */
static inline struct cur at(const struct ft_tdat *t, uint64_t off)
{
	struct cur c = { t->map + t->len, t->map + t->len, off > t->len };

	if (!c.bad)
		c.p = t->map + off;
	return c;
}

int ft_tdat_buffer_v7(struct ft_tdat *t, struct cur *c);
int ft_tdat_buffer_v6(struct ft_tdat *t, struct cur *c);
int ft_tdat_pick_v6(struct ft_tdat *t);
struct ft_tdat_cpu *ft_tdat_table(struct ft_tdat *t, struct cur *c, int n);
int ft_tdat_check_buffer(struct ft_tdat *t);

#endif
