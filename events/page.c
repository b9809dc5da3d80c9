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
