/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Ring-buffer sub-buffer ("page") layout, as described by a kernel's events/header_page.
 */
#ifndef FTSCOPE_EVENTS_PAGE_H
#define FTSCOPE_EVENTS_PAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Flags the kernel adds to the commit word of a sub-buffer in overwrite mode. */
#define FT_RB_MISSED_EVENTS	(1UL << 31)
#define FT_RB_MISSED_STORED	(1UL << 30)
#define FT_RB_COMMIT_MASK	((1UL << 27) - 1)

struct ft_page_fmt {
	int	commit_size;	/* size of the commit word: the kernel's long */
	int	data_offset;	/* where records start */
	int	subbuf_size;	/* whole sub-buffer: data_offset + data size */
};

/* What one sub-buffer header says. */
struct ft_page_info {
	uint64_t	timestamp;	/* absolute time of the first record */
	unsigned int	size;		/* bytes of record data */
	bool		missed;		/* the kernel dropped events before this page */
	long long	missed_count;	/* how many, when it stored the count; -1 if unknown */
};

/*
 * A cursor over the records of one sub-buffer, read directly (the layout of
 * kernel/trace/ring_buffer.c), equal to kbuffer's walk record for record.
 */
struct ft_page_cursor {
	const unsigned char	*data;		/* first record */
	unsigned int		size;		/* bytes of records (the commit size) */
	unsigned int		off;		/* next record header */
	uint64_t		ts;		/* time of the current record */
	const void		*rec;		/* current record's payload, NULL at the end */
	unsigned int		rec_size;	/* its payload size */
	bool			damaged;	/* a record header pointed past the commit */
};

int ft_page_fmt_parse(struct ft_page_fmt *pf, const char *text, size_t len);
void ft_page_cursor_init(struct ft_page_cursor *c, const struct ft_page_fmt *pf,
			 const void *page, unsigned int size, uint64_t ts);
bool ft_page_next(struct ft_page_cursor *c);
int ft_page_info(const struct ft_page_fmt *pf, const void *page, size_t len,
		 struct ft_page_info *info);
unsigned int ft_page_part(const struct ft_page_fmt *pf, const void *page, unsigned int from,
			  unsigned int to, void *out);

/*
 * ft_page_take_data - if the header @hdr at @p (the cursor's offset) is a small data
 * record (type_len 1..28: that many words of payload) lying inside the commit, make
 * it the current record; else leave the cursor as it is
 */
static inline bool ft_page_take_data(struct ft_page_cursor *c, const unsigned char *p,
				     uint32_t hdr)
{
	uint32_t len = (hdr & 31) * 4;

	if (!len || len > 28 * 4 || c->off + 4 + len > c->size)
		return false;
	c->ts += hdr >> 5;
	c->rec = p + 4;
	c->rec_size = len;
	c->off += 4 + len;
	return true;
}

/*
 * ft_page_next_small - ft_page_next for the common case alone, inline for the merge's
 * hot loop: true when the next record is a small data record that fits; false when
 * ft_page_next must decide (anything else, or the end of the page)
 */
static inline bool ft_page_next_small(struct ft_page_cursor *c)
{
	const unsigned char *p = c->data + c->off;
	uint32_t hdr;

	if (c->off + 4 > c->size)
		return false;
	__builtin_memcpy(&hdr, p, 4);
	__builtin_prefetch(p + 2048);
	return ft_page_take_data(c, p, hdr);
}

#endif
