/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A block request's operation and flags, from the rwbs string of the block
 * tracepoints (blk_fill_rwbs), and their names as BCC's biolatency -F prints them.
 */
#ifndef FTSCOPE_ANALYZERS_BIO_RWBS_H
#define FTSCOPE_ANALYZERS_BIO_RWBS_H

#include <stddef.h>

/* The operation and flags of a request, from its rwbs string (blk_fill_rwbs). */
enum { OP_READ, OP_WRITE, OP_FLUSH, OP_DISCARD, OP_SECURE_ERASE, OP_OTHER, OP_NUM };
#define OP_MASK		7
#define FL_SYNC		(1 << 3)
#define FL_META		(1 << 4)
#define FL_FUA		(1 << 5)
#define FL_RAHEAD	(1 << 6)
#define FL_PREFLUSH	(1 << 7)
#define FL_ATOMIC	(1 << 8)

int ft_bio_rwbs(const char *s, int len);
void ft_bio_flags_name(int flags, char *buf, size_t len);

#endif
