/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hist --filter: a small expression over an event's fields, evaluated in user space
 * on every record (so a trace.dat filters the same as a live run). Comparisons
 * FIELD OP VALUE, OP one of == != < <= > >= for numbers, == != (and ~, ftrace's glob
 * match) for strings with the glob characters * ? [...]; joined by && and ||, with
 * ! and parentheses. The grammar:
 *
 *   or   := and ( '||' and )*
 *   and  := unary ( '&&' unary )*
 *   unary:= '!' unary | '(' or ')' | FIELD OP VALUE
 *
 * VALUE is a number (decimal, 0x hex, negative), a quoted string, or a bare word.
 */
#ifndef FTSCOPE_ANALYZERS_HIST_FILTER_H
#define FTSCOPE_ANALYZERS_HIST_FILTER_H

#include <stdbool.h>

#define HF_MAX_NAMES	16	/* distinct fields one filter names */
#define HF_MAX_NODES	256
#define HF_MAX_LEN	4096	/* bytes of expression */

enum hf_kind { HF_CMP, HF_AND, HF_OR, HF_NOT };
enum hf_op { HF_EQ, HF_NE, HF_LT, HF_LE, HF_GT, HF_GE };

struct hf_node {
	unsigned char	kind, op;	/* enum hf_kind, enum hf_op */
	bool		is_str;		/* bound: the field is a string */
	bool		is_unsigned;	/* bound: a 64-bit unsigned number */
	bool		glob;		/* the string pattern has * ? or [, or ~ */
	bool		tilde;		/* written with ~ (strings only) */
	bool		num_ok;		/* the literal is a number */
	int		l, r;		/* children: AND, OR (both), NOT (l) */
	int		name;		/* CMP: index in names */
	int		slot;		/* CMP: bound value slot */
	long long	num;
	char		*text;		/* the literal, unquoted */
};

struct hist_filter {
	struct hf_node	*n;
	int		nn, root;
	char		*names[HF_MAX_NAMES];
	int		nnames;
};

/* One field's value in a record: a number, or len bytes at s. */
struct hf_val {
	long long	num;
	const char	*s;
	int		len;
};

/* How a field name binds: its value slot, and whether it is a string (-1: unknown). */
typedef int (*hf_slot_fn)(void *ctx, const char *name, bool *is_str, bool *is_unsigned);

int hf_parse(struct hist_filter *f, const char *expr, char *err, int errlen);
int hf_bind(struct hist_filter *f, hf_slot_fn slot, void *ctx, char *err, int errlen);
bool hf_eval(const struct hist_filter *f, const struct hf_val *v);
void hf_free(struct hist_filter *f);

#endif
