// SPDX-License-Identifier: GPL-2.0
/*
 * Any tracepoint, by name: resolving a declaration against a format (and what its
 * number fields mean), and the typed loads of its fields from a record.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "events/decode.h"
#include "events/tp.h"

/* ft_tp_name_ok - is @s a system, event or field name (letters, digits, '_', '-', '.')? */
bool ft_tp_name_ok(const char *s)
{
	if (!s || !*s || strlen(s) > 200)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '-' && *s != '.')
			return false;
	return true;
}

/*
 * What a number field means, from its format: a pointer (its type has a '*', or it is
 * an unsigned long whose name ends in "addr"), one into user space (the arguments of
 * the syscalls events), a system call number (raw_syscalls' id, syscalls'
 * __syscall_nr: named from the uapi <asm/unistd.h> the build saw, as strace does), or
 * a field the event's print fmt shows through __print_symbolic or __print_flags (named
 * as the kernel's own trace output names it).
 *
 * system call names by number (build/gen/syscall_names.h, from <asm/unistd.h>)
 */
static const char *const syscall_names[] = {
#include "syscall_names.h"
};

/* signed_type - is @type a signed C integer type (syscalls' "int" args say signed:0)? */
static bool signed_type(const char *type)
{
	static const char *const t[] = { "int", "long", "short", "long long", "pid_t",
					 "s8", "s16", "s32", "s64", "ssize_t", "loff_t" };
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (!strcmp(type, t[i]))
			return true;
	return false;
}

/* refers - does the print arg @a read field @name? */
static bool refers(const struct tep_print_arg *a, const char *name)
{
	if (!a)
		return false;
	switch (a->type) {
	case TEP_PRINT_FIELD:
		return !strcmp(a->field.name, name);
	case TEP_PRINT_TYPE:
		return refers(a->typecast.item, name);
	case TEP_PRINT_OP:
		return refers(a->op.left, name) || refers(a->op.right, name);
	default:
		return false;
	}
}

/* is_op - is @a the operator @op? */
static bool is_op(const struct tep_print_arg *a, const char *op)
{
	return a && a->type == TEP_PRINT_OP && a->op.op && !strcmp(a->op.op, op);
}

/*
 * find_sym - the __print_flags/__print_symbolic node over field @name within the print
 * arg @a (not its next ones), and in *@zero the text of a "COND ? __print_flags(...) :
 * "TEXT"" around it (sched_switch's prev_state: "R")
 */
static const struct tep_print_arg *find_sym(const struct tep_print_arg *a, const char *name,
					    const char **zero)
{
	const struct tep_print_arg *r;

	switch (a ? a->type : TEP_PRINT_NULL) {
	case TEP_PRINT_FLAGS:
		return refers(a->flags.field, name) ? a : NULL;
	case TEP_PRINT_SYMBOL:
		return refers(a->symbol.field, name) ? a : NULL;
	case TEP_PRINT_TYPE:
		return find_sym(a->typecast.item, name, zero);
	case TEP_PRINT_OP:
		if (is_op(a, "?") && is_op(a->op.right, ":") &&
		    a->op.right->op.right && a->op.right->op.right->type == TEP_PRINT_ATOM &&
		    (r = find_sym(a->op.right->op.left, name, zero))) {
			*zero = a->op.right->op.right->atom.atom;
			return r;
		}
		r = find_sym(a->op.left, name, zero);
		return r ? r : find_sym(a->op.right, name, zero);
	default:
		return NULL;
	}
}

/* suffix_of - @a, when it is "COND(@name) ? "A" : "B"" (prev_state's "+"), or NULL */
static const struct tep_print_arg *suffix_of(const struct tep_print_arg *a, const char *name)
{
	const struct tep_print_arg *c;

	if (!is_op(a, "?") || !refers(a->op.left, name) || !is_op(a->op.right, ":"))
		return NULL;
	c = a->op.right;
	if (!c->op.left || c->op.left->type != TEP_PRINT_ATOM || !c->op.right ||
	    c->op.right->type != TEP_PRINT_ATOM)
		return NULL;
	return a;
}

/* field_kind - fill @r's pointer, signedness and names from field @f of @ev */
static void field_kind(const struct tep_event *ev, const struct tep_format_field *f,
		       struct ft_tp_field *r)
{
	const struct tep_print_arg *t, *s;
	const char *zero = NULL;
	size_t n = strlen(f->name);
	bool sys = !strcmp(ev->system, "syscalls");

	r->type = f->type;
	if (r->kind != FT_TPF_INT)
		return;
	if (!r->is_signed && signed_type(f->type))
		r->is_signed = true;
	/* syscalls' "int" arguments in 8 bytes: the register, upper half not extended */
	r->int32 = r->size == 8 && (!strcmp(f->type, "int") || !strcmp(f->type, "unsigned int"));
	r->is_ptr = (f->flags & TEP_FIELD_IS_POINTER) || strchr(f->type, '*') ||
		    (!r->is_signed && r->size == 8 && n >= 4 && !strcmp(f->name + n - 4, "addr"));
	r->user_ptr = r->is_ptr && sys;
	if ((!strcmp(ev->system, "raw_syscalls") && !strcmp(f->name, "id")) ||
	    (sys && !strcmp(f->name, "__syscall_nr"))) {
		r->names = FT_TPN_SYSCALL;
		return;
	}
	for (t = ev->print_fmt.args; t; t = t->next) {
		s = find_sym(t, f->name, &zero);
		if (s) {
			r->names = FT_TPN_PRINT;
			r->print = s;
			r->zero = zero;
			r->suffix = suffix_of(t->next, f->name);
			return;
		}
		zero = NULL;
	}
}

/*
 * binop - @l @op @r for the operators a print fmt's flag or symbol argument uses; false
 * for any other (a comparison, &&: no name rather than a wrong one)
 */
static bool binop(const char *op, unsigned long long l, unsigned long long r,
		  unsigned long long *out)
{
	if (!strcmp(op, "&"))
		*out = l & r;
	else if (!strcmp(op, "|"))
		*out = l | r;
	else if (!strcmp(op, "^"))
		*out = l ^ r;
	else if (!strcmp(op, "+"))
		*out = l + r;
	else if (!strcmp(op, "-"))
		*out = l - r;
	else if (!strcmp(op, "*"))
		*out = l * r;
	else if (!strcmp(op, "<<") && r < 64)
		*out = l << r;
	else if (!strcmp(op, ">>") && r < 64)
		*out = l >> r;
	else
		return false;
	return true;
}

/* eval - the value of print arg @a with the field at @v; false when it is not a number */
static bool eval(const struct tep_print_arg *a, unsigned long long v, unsigned long long *out)
{
	unsigned long long l, r;
	const char *op;

	switch (a ? a->type : TEP_PRINT_NULL) {
	case TEP_PRINT_FIELD:
		*out = v;
		return true;
	case TEP_PRINT_ATOM:
		*out = strtoull(a->atom.atom, NULL, 0);
		return true;
	case TEP_PRINT_TYPE:
		return eval(a->typecast.item, v, out);
	case TEP_PRINT_OP:
		op = a->op.op;
		if (!a->op.left || !eval(a->op.left, v, &l) || !eval(a->op.right, v, &r))
			return false;
		return binop(op, l, r, out);
	default:
		return false;
	}
}

/* value_of - the number a flag or symbol stands for; false for a name the kernel left
   unresolved in the format (hrtimer's HRTIMER_MODE_ABS) */
static bool value_of(const struct tep_print_flag_sym *fs, unsigned long long *v)
{
	char *end;

	*v = strtoull(fs->value, &end, 0);
	return end != fs->value && !*end;
}

/* put - append @s to @buf (@len bytes) at *@n */
static void put(char *buf, int len, int *n, const char *s)
{
	if (*n < len)
		*n += snprintf(buf + *n, len - *n, "%s", s);
}

/* flags - __print_flags: the names of the bits set in @x joined by its delimiter */
static void flags(const struct tep_print_arg *a, unsigned long long x, char *buf, int len,
		  int *n)
{
	const struct tep_print_flag_sym *fs;
	unsigned long long fv;
	bool first = true;
	char hex[32];

	for (fs = a->flags.flags; fs; fs = fs->next) {
		if (!value_of(fs, &fv) || (!fv && x) || (fv && (x & fv) != fv))
			continue;
		if (!first)
			put(buf, len, n, a->flags.delim ? a->flags.delim : "|");
		put(buf, len, n, fs->str);
		first = false;
		x &= ~fv;
		if (!fv)
			return;
	}
	if (x) {
		snprintf(hex, sizeof(hex), "0x%llx", x);
		if (!first)
			put(buf, len, n, a->flags.delim ? a->flags.delim : "|");
		put(buf, len, n, hex);
	}
}

/**
 * ft_tp_name - field @f's value @v as the kernel names it, into @buf of @len bytes.
 * Returns the length written, or 0 when @f has no names or none for @v.
 */
int ft_tp_name(const struct ft_tp_field *f, long long v, char *buf, int len)
{
	const struct tep_print_arg *a = f->print, *s = f->suffix;
	const struct tep_print_flag_sym *fs;
	unsigned long long x, fv;
	int n = 0;

	buf[0] = 0;
	if (f->names == FT_TPN_SYSCALL) {
		if (v < 0 || v >= (long long)(sizeof(syscall_names) / sizeof(syscall_names[0])) ||
		    !syscall_names[v])
			return 0;
		return snprintf(buf, len, "%s", syscall_names[v]);
	}
	if (f->names != FT_TPN_PRINT ||
	    !eval(a->type == TEP_PRINT_FLAGS ? a->flags.field : a->symbol.field,
		  (unsigned long long)v, &x))
		return 0;
	if (!x && f->zero) {
		put(buf, len, &n, f->zero);
	} else if (a->type == TEP_PRINT_FLAGS) {
		flags(a, x, buf, len, &n);
	} else {
		for (fs = a->symbol.symbols; fs; fs = fs->next)
			if (value_of(fs, &fv) && fv == x)
				break;
		if (!fs)
			return 0;
		put(buf, len, &n, fs->str);
	}
	if (s && eval(s->op.left, (unsigned long long)v, &x))
		put(buf, len, &n, x ? s->op.right->op.left->atom.atom :
			s->op.right->op.right->atom.atom);
	return n < len ? n : len - 1;
}

/**
 * ft_tp_value - the number @word names for field @f (ft_tp_name's inverse: a system call,
 * a __print_symbolic name, one __print_flags flag, the print fmt's text for 0).
 * Returns true with *@v set, false when @word names nothing of @f.
 */
bool ft_tp_value(const struct ft_tp_field *f, const char *word, long long *v)
{
	const struct tep_print_arg *a = f->print;
	const struct tep_print_flag_sym *fs;
	unsigned long long fv;
	size_t i;

	if (f->names == FT_TPN_SYSCALL) {
		for (i = 0; i < sizeof(syscall_names) / sizeof(syscall_names[0]); i++)
			if (syscall_names[i] && !strcmp(syscall_names[i], word)) {
				*v = (long long)i;
				return true;
			}
		return false;
	}
	if (f->names != FT_TPN_PRINT)
		return false;
	if (f->zero && !strcmp(f->zero, word)) {
		*v = 0;
		return true;
	}
	fs = a->type == TEP_PRINT_FLAGS ? a->flags.flags : a->symbol.symbols;
	for (; fs; fs = fs->next)
		if (!strcmp(fs->str, word) && value_of(fs, &fv)) {
			*v = (long long)fv;
			return true;
		}
	return false;
}

/* field_fmt - @name of @ev as an integer or a string; kind FT_TPF_NONE when unusable */
static struct ft_tp_field field_fmt(struct tep_event *ev, const char *name)
{
	struct tep_format_field *f = tep_find_any_field(ev, name);
	struct ft_tp_field r = { 0 };

	if (!f || f->offset < 0 || f->size <= 0 || f->offset + f->size > 0xffff)
		return r;
	r.off = f->offset;
	r.size = f->size;
	r.is_signed = !!(f->flags & TEP_FIELD_IS_SIGNED);
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		/* __data_loc: a 4-byte word, offset in the low half and length in the high */
		if (f->size != 4 || !(f->flags & TEP_FIELD_IS_STRING))
			return r;
		r.dynamic = true;
		r.relative = !!(f->flags & TEP_FIELD_IS_RELATIVE);
		r.kind = FT_TPF_STR;
	} else if (f->flags & (TEP_FIELD_IS_STRING | TEP_FIELD_IS_ARRAY)) {
		if (!(f->flags & TEP_FIELD_IS_STRING))
			return r;	/* arrays of numbers: not a key or a value */
		r.kind = FT_TPF_STR;
	} else if (f->size == 1 || f->size == 2 || f->size == 4 || f->size == 8) {
		r.kind = FT_TPF_INT;
	}
	field_kind(ev, f, &r);
	return r;
}

/**
 * ft_tp_fields - the field names of @system:@name in @tep, comma-separated, common_*
 * left out, into @buf of @len bytes. Returns the count, or -1 without the event.
 */
int ft_tp_fields(struct tep_handle *tep, const char *system, const char *name,
		 char *buf, int len)
{
	struct tep_event *ev = tep_find_event_by_name(tep, system, name);
	struct tep_format_field *f;
	int n = 0, used = 0;

	if (!ev)
		return -1;
	buf[0] = 0;
	for (f = ev->format.fields; f; f = f->next) {
		if (used < len)
			used += snprintf(buf + used, len - used, "%s%s", n ? ", " : "", f->name);
		n++;
	}
	return n;
}

/**
 * ft_tp_resolve - fill @tp's id and field formats from @tep. A missing event gives id
 * -1, an error unless the declaration is optional; a missing or unusable field is an
 * error unless opt_fields. Returns 0, or -1 with one line in @err.
 */
int ft_tp_resolve(struct ft_tp *tp, struct tep_handle *tep, char *err, int errlen)
{
	struct tep_event *ev = tep_find_event_by_name(tep, tp->system, tp->name);
	char names[256];
	int k;

	memset(tp->fmt, 0, sizeof(tp->fmt));
	tp->id = ev ? ev->id : -1;
	if (!ev) {
		snprintf(err, errlen, "no event %s:%s", tp->system, tp->name);
		return tp->optional ? 0 : -1;
	}
	for (k = 0; k < FT_TP_FIELDS && tp->field[k]; k++) {
		tp->fmt[k] = field_fmt(ev, tp->field[k]);
		if (tp->fmt[k].kind != FT_TPF_NONE || tp->opt_fields)
			continue;
		if (tep_find_any_field(ev, tp->field[k])) {
			snprintf(err, errlen, "%s:%s: field '%s' is neither a number nor a string",
				 tp->system, tp->name, tp->field[k]);
			return -1;
		}
		ft_tp_fields(tep, tp->system, tp->name, names, sizeof(names));
		snprintf(err, errlen, "%s:%s has no field '%s' (it has: %s)", tp->system,
			 tp->name, tp->field[k], names);
		return -1;
	}
	return 0;
}

/* ft_tp_append - the declarations @head, then those of @more (either may be NULL) */
struct ft_tp *ft_tp_append(struct ft_tp *head, struct ft_tp *more)
{
	struct ft_tp *t = head;

	if (!head)
		return more;
	while (t->next)
		t = t->next;
	t->next = more;
	return head;
}

/* ft_tp_is - is @ev a record of the event @tp declares? */
bool ft_tp_is(const struct ft_event *ev, const struct ft_tp *tp)
{
	return ev->data && tp->id >= 0 && ev->id == tp->id;
}

/* ft_tp_has - does @ev hold field @k of @tp (in the format and within the record)? */
bool ft_tp_has(const struct ft_event *ev, const struct ft_tp *tp, int k)
{
	const struct ft_tp_field *f;

	if (k < 0 || k >= FT_TP_FIELDS || !ev->data)
		return false;
	f = &tp->fmt[k];
	return f->kind != FT_TPF_NONE && f->off + f->size <= ev->size;
}

/* ft_tp_num - integer field @k of @tp in @ev, sign-extended as the format says; 0 without */
long long ft_tp_num(const struct ft_event *ev, const struct ft_tp *tp, int k)
{
	const struct ft_tp_field *f;
	union { uint8_t u8; uint16_t u16; uint32_t u32; uint64_t u64; } v;

	if (!ft_tp_has(ev, tp, k) || tp->fmt[k].kind != FT_TPF_INT)
		return 0;
	f = &tp->fmt[k];
	memcpy(&v, (const unsigned char *)ev->data + f->off, f->size);
	switch (f->int32 ? 4 : f->size) {	/* (little-endian: the low half first) */
	case 1:
		return f->is_signed ? (long long)(int8_t)v.u8 : (long long)v.u8;
	case 2:
		return f->is_signed ? (long long)(int16_t)v.u16 : (long long)v.u16;
	case 4:
		return f->is_signed ? (long long)(int32_t)v.u32 : (long long)v.u32;
	default:
		return (long long)v.u64;
	}
}

/*
 * ft_tp_str - string field @k of @tp in @ev: its bytes up to the first NUL, *@len of
 * them (not NUL-ended). "" when the record lacks it or its __data_loc points outside.
 */
const char *ft_tp_str(const struct ft_event *ev, const struct ft_tp *tp, int k, int *len)
{
	const char *p = (const char *)ev->data;
	const struct ft_tp_field *f;
	uint32_t loc;
	int off, n;

	*len = 0;
	if (!ft_tp_has(ev, tp, k) || tp->fmt[k].kind != FT_TPF_STR)
		return "";
	f = &tp->fmt[k];
	off = f->off;
	n = f->size;
	if (f->dynamic) {
		memcpy(&loc, p + f->off, 4);
		off = (loc & 0xffff) + (f->relative ? f->off + 4 : 0);
		n = loc >> 16;
		if (off + n > ev->size)
			return "";
	}
	*len = (int)strnlen(p + off, n);
	return p + off;
}
