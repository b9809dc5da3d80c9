/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For the CFI table tests (tests/unit/test_cfi.c, test_cfi_damage.c): sections built
 * byte by byte, .eh_frame entries with their lengths filled in once they end.
 */
#ifndef FTSCOPE_TESTS_UNIT_CFI_BLOB_H
#define FTSCOPE_TESTS_UNIT_CFI_BLOB_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* A section built byte by byte. */
struct blob {
	unsigned char	b[1024];
	size_t		n;
	uint64_t	vaddr;
};

/* put - @n little-endian bytes of @v */
static void put(struct blob *b, uint64_t v, int n)
{
	while (n--) {
		b->b[b->n++] = (unsigned char)v;
		v >>= 8;
	}
}

/* put_bytes - bytes as they are */
static void put_bytes(struct blob *b, const char *p, size_t n)
{
	memcpy(b->b + b->n, p, n);
	b->n += n;
}

/* put_len - the 4-byte length of the entry that started at @at, now that it ends */
static void put_len(struct blob *b, size_t at)
{
	uint32_t len = (uint32_t)(b->n - at - 4);

	memcpy(b->b + at, &len, 4);
}

/* eh_fde - an FDE of [@start, @end) with the program @ins */
static size_t eh_fde(struct blob *b, size_t cie, uint64_t start, uint64_t end, const char *ins,
		     size_t n)
{
	size_t at = b->n;

	put(b, 0, 4);
	put(b, b->n - cie, 4);			/* back to the CIE */
	put(b, start - (b->vaddr + b->n), 4);	/* pcrel */
	put(b, end - start, 4);
	put(b, 0, 1);				/* no augmentation data */
	put_bytes(b, ins, n);
	put_len(b, at);
	return at;
}

#endif
