// SPDX-License-Identifier: GPL-2.0
/*
 * hist --filter: parsing (recursive descent over the grammar in hist_filter.h),
 * binding the field names to value slots once the event's format is known, and
 * evaluation on each record.
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzers/hist_filter.h"

#define HF_MAX_DEPTH	64

struct parser {
	struct hist_filter	*f;
	const char		*s, *p;		/* the expression, and where the parse is */
	char			*err;
	int			errlen, depth;
};

static int parse_or(struct parser *ps);

/* bad - one error line: the problem and where it was found */
static int bad(struct parser *ps, const char *what)
{
	if (*ps->p)
		snprintf(ps->err, ps->errlen, "%s at '%.32s'", what, ps->p);
	else
		snprintf(ps->err, ps->errlen, "%s at the end", what);
	return -1;
}

/* skip - past white space */
static void skip(struct parser *ps)
{
	while (isspace((unsigned char)*ps->p))
		ps->p++;
}

/* eat - the token @tok next? then past it */
static bool eat(struct parser *ps, const char *tok)
{
	size_t n = strlen(tok);

	skip(ps);
	if (strncmp(ps->p, tok, n))
		return false;
	ps->p += n;
	return true;
}

/* node - a new node of @kind; -1 when there are too many */
static int node(struct parser *ps, int kind)
{
	struct hist_filter *f = ps->f;

	if (f->nn == HF_MAX_NODES)
		return -1;
	memset(&f->n[f->nn], 0, sizeof(f->n[0]));
	f->n[f->nn].kind = kind;
	return f->nn++;
}

/* name_index - the index of field @name (@len bytes) in the filter's names, added */
static int name_index(struct parser *ps, const char *name, size_t len)
{
	struct hist_filter *f = ps->f;
	int i;

	for (i = 0; i < f->nnames; i++)
		if (strlen(f->names[i]) == len && !strncmp(f->names[i], name, len))
			return i;
	if (f->nnames == HF_MAX_NAMES) {
		snprintf(ps->err, ps->errlen, "more than %d fields", HF_MAX_NAMES);
		return -1;
	}
	f->names[f->nnames] = strndup(name, len);
	if (!f->names[f->nnames]) {
		snprintf(ps->err, ps->errlen, "out of memory");
		return -1;
	}
	return f->nnames++;
}

/* parse_op - a comparison operator into *@op; -1 when there is none */
static int parse_op(struct parser *ps, unsigned char *op, bool *glob_op)
{
	static const struct { const char *tok; unsigned char op; } ops[] = {
		{ "==", HF_EQ }, { "!=", HF_NE }, { "<=", HF_LE }, { ">=", HF_GE },
		{ "<", HF_LT }, { ">", HF_GT }, { "~", HF_EQ },
	};
	unsigned int i;

	*glob_op = false;
	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (eat(ps, ops[i].tok)) {
			*op = ops[i].op;
			*glob_op = ops[i].tok[0] == '~';
			return 0;
		}
	return bad(ps, "expected == != < <= > >= or ~");
}

/* parse_literal - a quoted string or a bare word into @n's text (and number) */
static int parse_literal(struct parser *ps, struct hf_node *n)
{
	const char *start;
	char *end;
	size_t len;

	skip(ps);
	if (*ps->p == '"' || *ps->p == '\'') {
		char q = *ps->p++;

		start = ps->p;
		while (*ps->p && *ps->p != q)
			ps->p++;
		if (!*ps->p)
			return bad(ps, "unterminated string");
		len = ps->p++ - start;
	} else {
		start = ps->p;
		while (*ps->p && !isspace((unsigned char)*ps->p) && *ps->p != ')' &&
		       *ps->p != '(' && strncmp(ps->p, "&&", 2) && strncmp(ps->p, "||", 2))
			ps->p++;
		len = ps->p - start;
		if (!len)
			return bad(ps, "expected a value");
	}
	n->text = strndup(start, len);
	if (!n->text) {
		snprintf(ps->err, ps->errlen, "out of memory");
		return -1;
	}
	n->glob = strpbrk(n->text, "*?[") != NULL;
	errno = 0;
	n->num = strtoll(n->text, &end, 0);
	n->num_ok = len && !*end && !errno;
	if (!n->num_ok && n->text[0] != '-' && len) {
		/* an unsigned 64-bit value above LLONG_MAX */
		errno = 0;
		n->num = (long long)strtoull(n->text, &end, 0);
		n->num_ok = !*end && !errno && isdigit((unsigned char)n->text[0]);
	}
	return 0;
}

/* parse_cmp - FIELD OP VALUE */
static int parse_cmp(struct parser *ps)
{
	const char *start;
	bool glob_op;
	int i, name;

	skip(ps);
	start = ps->p;
	if (isdigit((unsigned char)*start))
		return bad(ps, "expected a field name");
	while (isalnum((unsigned char)*ps->p) || *ps->p == '_' || *ps->p == '.')
		ps->p++;
	if (ps->p == start)
		return bad(ps, "expected a field name");
	name = name_index(ps, start, ps->p - start);
	if (name < 0)
		return -1;
	i = node(ps, HF_CMP);
	if (i < 0)
		return bad(ps, "too long");
	ps->f->n[i].name = name;
	if (parse_op(ps, &ps->f->n[i].op, &glob_op) || parse_literal(ps, &ps->f->n[i]))
		return -1;
	ps->f->n[i].tilde = glob_op;
	if (glob_op)
		ps->f->n[i].glob = true;	/* ~ always matches as a glob */
	return i;
}

/* parse_unary - ! unary, ( or ), or a comparison */
static int parse_unary(struct parser *ps)
{
	int i, l;

	if (++ps->depth > HF_MAX_DEPTH)
		return bad(ps, "nested too deep");
	skip(ps);
	if (*ps->p == '!' && ps->p[1] != '=') {
		ps->p++;
		l = parse_unary(ps);
		if (l < 0)
			return -1;
		i = node(ps, HF_NOT);
		if (i < 0)
			return bad(ps, "too long");
		ps->f->n[i].l = l;
	} else if (eat(ps, "(")) {
		i = parse_or(ps);
		if (i < 0)
			return -1;
		if (!eat(ps, ")"))
			return bad(ps, "expected ')'");
	} else {
		i = parse_cmp(ps);
	}
	ps->depth--;
	return i;
}

/* parse_bin - @sub ( @tok @sub )*, left-associative nodes of @kind */
static int parse_bin(struct parser *ps, int (*sub)(struct parser *), const char *tok, int kind)
{
	int l = sub(ps), r, i;

	while (l >= 0 && eat(ps, tok)) {
		r = sub(ps);
		if (r < 0)
			return -1;
		i = node(ps, kind);
		if (i < 0)
			return bad(ps, "too long");
		ps->f->n[i].l = l;
		ps->f->n[i].r = r;
		l = i;
	}
	return l;
}

/* parse_and - unary ( && unary )* */
static int parse_and(struct parser *ps)
{
	return parse_bin(ps, parse_unary, "&&", HF_AND);
}

/* parse_or - and ( || and )* */
static int parse_or(struct parser *ps)
{
	return parse_bin(ps, parse_and, "||", HF_OR);
}

/**
 * hf_parse - parse @expr into @f. Returns 0, or -1 with one line in @err (what is
 * wrong, and where).
 */
int hf_parse(struct hist_filter *f, const char *expr, char *err, int errlen)
{
	struct parser ps = { .f = f, .s = expr, .p = expr, .err = err, .errlen = errlen };

	memset(f, 0, sizeof(*f));
	if (strlen(expr) > HF_MAX_LEN) {
		snprintf(err, errlen, "longer than %d bytes", HF_MAX_LEN);
		return -1;
	}
	f->n = calloc(HF_MAX_NODES, sizeof(*f->n));
	if (!f->n) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	f->root = parse_or(&ps);
	if (f->root < 0)
		return -1;
	skip(&ps);
	if (*ps.p)
		return bad(&ps, "expected && or ||");
	return 0;
}

/* op_name - how @op is written */
static const char *op_name(int op)
{
	static const char *const names[] = { "==", "!=", "<", "<=", ">", ">=" };

	return names[op];
}

/**
 * hf_bind - bind each field name of @f to its value slot through @slot, and check
 * each comparison against the field's type. Returns 0, or -1 with one line in @err.
 */
int hf_bind(struct hist_filter *f, hf_slot_fn slot, void *ctx, char *err, int errlen)
{
	struct hf_node *n;
	const char *name;
	int i;

	for (i = 0; i < f->nn; i++) {
		n = &f->n[i];
		if (n->kind != HF_CMP)
			continue;
		name = f->names[n->name];
		n->slot = slot(ctx, name, &n->is_str, &n->is_unsigned);
		if (n->slot < 0) {
			snprintf(err, errlen, "no field '%s'", name);
			return -1;
		}
		if (n->is_str && n->op != HF_EQ && n->op != HF_NE) {
			snprintf(err, errlen, "'%s %s %s': %s is a string: compare it with == or !=",
				 name, op_name(n->op), n->text, name);
			return -1;
		}
		if (!n->is_str && n->tilde) {
			snprintf(err, errlen, "'%s ~ %s': ~ matches strings, and %s is a number",
				 name, n->text, name);
			return -1;
		}
		if (!n->is_str && !n->num_ok) {
			snprintf(err, errlen, "'%s %s %s': %s is a number, and '%s' is not", name,
				 op_name(n->op), n->text, name, n->text);
			return -1;
		}
	}
	return 0;
}

/* str_match - @v (not NUL-ended) against @n's literal: equal, or a glob match */
static bool str_match(const struct hf_node *n, const struct hf_val *v)
{
	char buf[4096];
	int len = v->len < (int)sizeof(buf) - 1 ? v->len : (int)sizeof(buf) - 1;

	if (!n->glob)
		return (size_t)v->len == strlen(n->text) && !memcmp(v->s, n->text, v->len);
	memcpy(buf, v->s, len);
	buf[len] = 0;
	return !fnmatch(n->text, buf, 0);
}

/* cmp - one comparison on the record's values @v */
static bool cmp(const struct hf_node *n, const struct hf_val *v)
{
	const struct hf_val *x = &v[n->slot];
	int c;

	if (n->is_str)
		return str_match(n, x) == (n->op == HF_EQ);
	if (n->is_unsigned)
		c = ((unsigned long long)x->num > (unsigned long long)n->num) -
		    ((unsigned long long)x->num < (unsigned long long)n->num);
	else
		c = (x->num > n->num) - (x->num < n->num);
	switch (n->op) {
	case HF_EQ: return c == 0;
	case HF_NE: return c != 0;
	case HF_LT: return c < 0;
	case HF_LE: return c <= 0;
	case HF_GT: return c > 0;
	default:    return c >= 0;
	}
}

/* eval - node @i of @f on @v */
static bool eval(const struct hist_filter *f, int i, const struct hf_val *v)
{
	const struct hf_node *n = &f->n[i];

	switch (n->kind) {
	case HF_AND: return eval(f, n->l, v) && eval(f, n->r, v);
	case HF_OR:  return eval(f, n->l, v) || eval(f, n->r, v);
	case HF_NOT: return !eval(f, n->l, v);
	default:     return cmp(n, v);
	}
}

/* hf_eval - does the record whose fields are @v (by slot) pass @f? */
bool hf_eval(const struct hist_filter *f, const struct hf_val *v)
{
	return !f->n || eval(f, f->root, v);
}

/* hf_free - what hf_parse allocated */
void hf_free(struct hist_filter *f)
{
	int i;

	for (i = 0; f->n && i < f->nn; i++)
		free(f->n[i].text);
	for (i = 0; i < f->nnames; i++)
		free(f->names[i]);
	free(f->n);
	memset(f, 0, sizeof(*f));
}
