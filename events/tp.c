// SPDX-License-Identifier: GPL-2.0
/*
 * Any tracepoint, by name: resolving a declaration against a format, and the typed
 * loads of its fields from a record.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "events/decode.h"
#include "events/tp.h"
#include "events/tp_names.h"

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
	ft_tp_field_kind(ev, f, &r);
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
