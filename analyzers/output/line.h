/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A row built in a buffer and written once: the per-row printf of a long listing
 * (timehist prints one row per context switch) costs more than decoding the event.
 */
#ifndef FTSCOPE_ANALYZERS_OUTPUT_LINE_H
#define FTSCOPE_ANALYZERS_OUTPUT_LINE_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct ft_line {
	char	buf[512];
	size_t	len;
};

/* ft_line_str - append @n bytes of @s, space-padded to @width (negative: left-aligned) */
static inline void ft_line_strn(struct ft_line *l, const char *s, size_t n, int width)
{
	size_t pad = 0, room = sizeof(l->buf) - 1 - l->len;

	if (width > 0 && (size_t)width > n)
		pad = width - n;
	else if (width < 0 && (size_t)-width > n)
		pad = -width - n;
	if (n + pad > room)
		return;
	if (width > 0) {
		memset(l->buf + l->len, ' ', pad);
		l->len += pad;
	}
	memcpy(l->buf + l->len, s, n);
	l->len += n;
	if (width < 0) {
		memset(l->buf + l->len, ' ', pad);
		l->len += pad;
	}
}

/* ft_line_str - append a string, padded as ft_line_strn */
static inline void ft_line_str(struct ft_line *l, const char *s, int width)
{
	ft_line_strn(l, s, strlen(s), width);
}

/* ft_line_u - append an unsigned number with at least @digits digits (zero-filled), padded */
static inline void ft_line_u(struct ft_line *l, uint64_t v, int digits, int width)
{
	char t[24];
	int n = 0;

	do {
		t[sizeof(t) - 1 - n++] = '0' + v % 10;
		v /= 10;
	} while (v);
	while (n < digits && n < (int)sizeof(t))
		t[sizeof(t) - 1 - n++] = '0';
	ft_line_strn(l, t + sizeof(t) - n, n, width);
}

/* ft_line_c - append one character */
static inline void ft_line_c(struct ft_line *l, char c)
{
	if (l->len < sizeof(l->buf) - 1)
		l->buf[l->len++] = c;
}

/* ft_line_flush - write the row and start a new one */
static inline void ft_line_flush(struct ft_line *l, FILE *f)
{
	fwrite_unlocked(l->buf, 1, l->len, f);
	l->len = 0;
}

#endif
