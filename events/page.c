// SPDX-License-Identifier: GPL-2.0
/*
 * Sub-buffer header parsing. The layout comes from the kernel's own header_page
 * text (never from the top-level one when an instance has its own sub-buffer size).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events/page.h"

/* header_field - find "field: ... NAME;	offset:O;	size:S;" in header_page text */
static int header_field(const char *text, size_t len, const char *name, int *off, int *size)
{
	const char *p = text, *end = text + len;
	size_t nlen = strlen(name);

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		const char *lend = nl ? nl : end;
		const char *semi = memchr(p, ';', lend - p);

		/* the name is the last word before the first ';' */
		if (semi && semi - p > (long)nlen && !memcmp(semi - nlen, name, nlen) &&
		    (semi[-(long)nlen - 1] == ' ' || semi[-(long)nlen - 1] == '\t')) {
			char line[256];
			size_t l = lend - p < (long)sizeof(line) - 1 ? (size_t)(lend - p) : sizeof(line) - 1;
			const char *o, *s;

			memcpy(line, p, l);
			line[l] = 0;
			o = strstr(line, "offset:");
			s = strstr(line, "size:");
			if (!o || !s)
				return -1;
			*off = atoi(o + 7);
			*size = atoi(s + 5);
			return 0;
		}
		p = lend + 1;
	}
	return -1;
}

/**
 * ft_page_fmt_parse - read the sub-buffer layout from header_page text
 * Returns 0, or -1 with errno EINVAL when the text does not describe a page.
 */
int ft_page_fmt_parse(struct ft_page_fmt *pf, const char *text, size_t len)
{
	int ts_off, ts_size, c_off, c_size, d_off, d_size;

	if (header_field(text, len, "timestamp", &ts_off, &ts_size) ||
	    header_field(text, len, "commit", &c_off, &c_size) ||
	    header_field(text, len, "data", &d_off, &d_size))
		goto bad;
	if (ts_off != 0 || ts_size != 8 || c_off != 8 || (c_size != 4 && c_size != 8) ||
	    d_off != 8 + c_size || d_size <= 0 || d_size > (64 << 20))
		goto bad;
	pf->commit_size = c_size;
	pf->data_offset = d_off;
	pf->subbuf_size = d_off + d_size;
	return 0;
bad:
	errno = EINVAL;
	return -1;
}

/**
 * ft_page_info - decode the header of one sub-buffer of @len bytes
 * Returns 0, or -1 when the header is damaged (commit size beyond the page).
 */
int ft_page_info(const struct ft_page_fmt *pf, const void *page, size_t len,
		 struct ft_page_info *info)
{
	const unsigned char *p = page;
	unsigned long long commit;

	if (len < (size_t)pf->data_offset)
		return -1;
	memcpy(&info->timestamp, p, 8);
	if (pf->commit_size == 8) {
		memcpy(&commit, p + 8, 8);
	} else {
		unsigned int c32;

		memcpy(&c32, p + 8, 4);
		commit = c32;
	}
	info->size = commit & FT_RB_COMMIT_MASK;
	info->missed = !!(commit & FT_RB_MISSED_EVENTS);
	info->missed_count = -1;
	if (info->size > len - pf->data_offset)
		return -1;
	if (info->missed && (commit & FT_RB_MISSED_STORED) &&
	    info->size + pf->data_offset + (size_t)pf->commit_size <= len) {
		unsigned long long n = 0;

		memcpy(&n, p + pf->data_offset + info->size, pf->commit_size);
		info->missed_count = (long long)n;
	}
	return 0;
}

/* Record header types (the 5-bit type_len of struct ring_buffer_event). */
enum {
	RB_TYPE_DATA_MAX	= 28,	/* 1..28: payload of type_len * 4 bytes */
	RB_TYPE_PADDING		= 29,
	RB_TYPE_TIME_EXTEND	= 30,
	RB_TYPE_TIME_STAMP	= 31,
};

#define RB_TS_SHIFT	27
#define RB_TS_MSB_MASK	(~((1ULL << 59) - 1))	/* bits an absolute TIME_STAMP does not hold */

/* ft_page_cursor_init - point @c before the first record of a sub-buffer */
void ft_page_cursor_init(struct ft_page_cursor *c, const struct ft_page_fmt *pf,
			 const void *page, unsigned int size, uint64_t ts)
{
	c->data = (const unsigned char *)page + pf->data_offset;
	c->size = size;
	c->off = 0;
	c->ts = ts;
	c->rec = NULL;
	c->rec_size = 0;
	c->damaged = false;
}

/* read4 - a 32-bit little-endian word of the page */
static inline uint32_t read4(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

/**
 * ft_page_next - advance to the next data record, applying time extends, absolute
 * time stamps and padding on the way (padding deltas count, as kbuffer counts them)
 * Returns true with c->rec, c->rec_size and c->ts set; false at the end of the page,
 * with c->damaged when a record reached past the committed data.
 */
bool ft_page_next(struct ft_page_cursor *c)
{
	while (c->off < c->size) {
		const unsigned char *p = c->data + c->off;
		uint32_t hdr, type, delta, len;

		if (c->off + 4 > c->size)
			goto damaged;
		hdr = read4(p);
		type = hdr & 31;
		delta = hdr >> 5;
		if (type >= 1 && type <= RB_TYPE_DATA_MAX) {
			if (ft_page_take_data(c, p, hdr))
				return true;
			goto damaged;	/* the payload reaches past the commit */
		}
		if (type == RB_TYPE_PADDING && !delta)
			break;		/* a null event: the rest of the page is empty */
		if (c->off + 8 > c->size)
			goto damaged;
		len = read4(p + 4);
		switch (type) {
		case 0: {		/* large record: length word, then the payload */
			/* words: a length that is no multiple of 4 is rounded up, then bounded */
			uint64_t words = ((uint64_t)len + 3) & ~3ULL;

			if (len < 4 || c->off + 4 + words > c->size)
				goto damaged;
			c->ts += delta;
			c->rec = p + 8;
			c->rec_size = words - 4;
			c->off += 4 + words;
			return true;
		}
		case RB_TYPE_PADDING:	/* a discarded record */
			c->ts += delta;
			if (c->off + 4 + (uint64_t)len > c->size)
				goto end;
			c->off += 4 + len;
			break;
		case RB_TYPE_TIME_EXTEND:
			c->ts += ((uint64_t)len << RB_TS_SHIFT) + delta;
			c->off += 8;
			break;
		default:		/* RB_TYPE_TIME_STAMP: absolute, upper bits from before */
			c->ts = (c->ts & RB_TS_MSB_MASK) | ((uint64_t)len << RB_TS_SHIFT) | delta;
			c->off += 8;
			break;
		}
	}
end:
	c->off = c->size;
	c->rec = NULL;
	return false;
damaged:
	c->damaged = true;
	goto end;
}

/*
 * ts_at - the time a record at byte @off of the records of @page is a delta from:
 * the header's time moved by every record before @off (time extends, absolute
 * stamps and discarded records included), as a cursor has it there
 */
static uint64_t ts_at(const struct ft_page_fmt *pf, const void *page, unsigned int off)
{
	struct ft_page_cursor c;
	uint64_t ts;

	memcpy(&ts, page, 8);
	ft_page_cursor_init(&c, pf, page, off, ts);
	while (ft_page_next(&c))
		;
	return c.ts;
}

/**
 * ft_page_part - @out: a sub-buffer of the records [@from, @to) of @page (record
 * boundaries within its commit), for a page taken in parts: a part after the start is
 * stamped with the time its first record's delta counts from, so that it decodes as
 * the whole page does. Only the whole page keeps the header's missed-events flags
 * (and the count stored after the records). Returns the bytes of @out used.
 */
unsigned int ft_page_part(const struct ft_page_fmt *pf, const void *page, unsigned int from,
			  unsigned int to, void *out)
{
	const unsigned char *p = page;
	unsigned char *o = out;
	unsigned long long commit = to - from;
	struct ft_page_info info;
	unsigned int len;
	uint64_t ts;

	if (!from) {
		/* the copy read once, then judged: a writer still on the page moves its commit */
		len = pf->data_offset + to + pf->commit_size;
		if (len > (unsigned int)pf->subbuf_size)
			len = pf->subbuf_size;
		memcpy(o, p, len);
		if (!ft_page_info(pf, o, pf->subbuf_size, &info) && info.size == to)
			return info.missed_count >= 0 ? len : pf->data_offset + to;
	}
	ts = ts_at(pf, page, from);
	memcpy(o, &ts, 8);
	memcpy(o + 8, &commit, pf->commit_size);
	if (from)	/* a first part's records are in the copy already */
		memcpy(o + pf->data_offset, p + pf->data_offset + from, to - from);
	return pf->data_offset + to - from;
}
