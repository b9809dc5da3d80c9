/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A row built in a buffer and written once: the per-row printf of a long listing
 * (timehist prints one row per context switch) costs more than decoding the event.
 */
#ifndef FTSCOPE_OUTPUT_LINE_H
#define FTSCOPE_OUTPUT_LINE_H

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

/* ft_line_init - an empty row (the buffer is not cleared: rows are long-listing hot) */
#define ft_line_init(l)	((l)->len = 0)

/* ft_line_spaces - write @n (at most 24) spaces at @d, in 8-byte stores: up to 24 bytes */
static inline void ft_line_spaces(char *d, int n)
{
	const uint64_t sp = 0x2020202020202020ULL;

	memcpy(d, &sp, 8);
	if (n > 8)
		memcpy(d + 8, &sp, 8);
	if (n > 16)
		memcpy(d + 16, &sp, 8);
}

/* "00" to "99": two digits per division */
static const char ft_digit_pairs[] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

/* ft_digits - how many decimal digits @v has (1 for 0) */
static inline int ft_digits(uint64_t v)
{
	static const uint64_t pow10[20] = {
		1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL,
		100000000ULL, 1000000000ULL, 10000000000ULL, 100000000000ULL,
		1000000000000ULL, 10000000000000ULL, 100000000000000ULL,
		1000000000000000ULL, 10000000000000000ULL, 100000000000000000ULL,
		1000000000000000000ULL, 10000000000000000000ULL,
	};
	/* bits * log10(2), from below: v has t or t + 1 digits */
	int t = ((64 - __builtin_clzll(v | 1)) * 1233) >> 12;

	return t + ((v | 1) >= pow10[t]);
}

/* ft_put_pair - two digits of @v (below 100) at @d; returns the end */
static inline char *ft_put_pair(char *d, unsigned int v)
{
	memcpy(d, ft_digit_pairs + 2 * v, 2);
	return d + 2;
}

/*
 * ft_put_u - write an unsigned number at @d with at least @digits digits (at most
 * 24, zero-filled), padded to @width (negative: left-aligned; at most 24 spaces).
 * The caller has room for the digits and 24 more bytes. Returns the end.
 */
static inline char *ft_put_u(char *d, uint64_t v, int digits, int width)
{
	int n = ft_digits(v), pad = 0, i;

	if (n < digits)
		n = digits < 24 ? digits : 24;
	if (width > n)
		pad = width - n;
	else if (-width > n)
		pad = -width - n;
	if (pad > 24)
		pad = 24;
	if (width > 0) {
		ft_line_spaces(d, pad);
		d += pad;
	}
	for (i = n; v >= 100; v /= 100) {
		i -= 2;
		ft_put_pair(d + i, v % 100);
	}
	if (v >= 10) {
		i -= 2;
		ft_put_pair(d + i, v);
	} else {
		d[--i] = (char)('0' + v);
	}
	while (i > 0)
		d[--i] = '0';
	if (width < 0)
		ft_line_spaces(d + n, pad);
	return d + n + (width < 0 ? pad : 0);
}

/* ft_put_fixed - @v (below 10^@digits) at @d as exactly @digits digits; returns the end */
static inline char *ft_put_fixed(char *d, unsigned int v, int digits)
{
	int i = digits;

	for (; i >= 2; v /= 100) {
		i -= 2;
		ft_put_pair(d + i, v % 100);
	}
	if (i)
		d[0] = (char)('0' + v % 10);
	return d + digits;
}

/* ft_put_6 - @v (below 10^6) as six digits at @d, three pairs unrolled; returns the end */
static inline char *ft_put_6(char *d, unsigned int v)
{
	unsigned int lo = v % 10000;

	ft_put_pair(d, v / 10000);
	ft_put_pair(d + 2, lo / 100);
	ft_put_pair(d + 4, lo % 100);
	return d + 6;
}

/*
 * ft_line_u - append an unsigned number as ft_put_u: the digits go straight into
 * the row, two per division (timehist prints four numbers a row)
 */
static inline void ft_line_u(struct ft_line *l, uint64_t v, int digits, int width)
{
	if (l->len + 24 + 24 + 24 >= sizeof(l->buf))
		return;
	l->len = ft_put_u(l->buf + l->len, v, digits, width) - l->buf;
}

/* ft_line_c - append one character */
static inline void ft_line_c(struct ft_line *l, char c)
{
	if (l->len < sizeof(l->buf) - 1)
		l->buf[l->len++] = c;
}

#endif
