// SPDX-License-Identifier: GPL-2.0
/*
 * Streaming JSON writer.
 */
#include <string.h>

#include "output/json.h"

/* ft_json_init - write to @f, at top level */
void ft_json_init(struct ft_json *j, FILE *f)
{
	memset(j, 0, sizeof(*j));
	j->f = f;
	j->first[0] = true;
}

/* put_string - a JSON string literal of at most @max bytes, escaped */
static void put_string(FILE *f, const char *s, size_t max)
{
	size_t i;

	fputc('"', f);
	for (i = 0; i < max && s[i]; i++) {
		unsigned char c = s[i];

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/* key - the separator and, inside an object, the key */
static void key(struct ft_json *j, const char *k)
{
	if (!j->first[j->depth])
		fputc(',', j->f);
	j->first[j->depth] = false;
	if (k) {
		put_string(j->f, k, (size_t)-1);
		fputc(':', j->f);
	}
}

/* open - start a nested object or array */
static void open(struct ft_json *j, const char *k, char c)
{
	key(j, k);
	fputc(c, j->f);
	if (j->depth + 1 < FT_JSON_DEPTH)
		j->depth++;
	j->first[j->depth] = true;
}

/* close - end a nested object or array; a newline after the top-level value */
static void close_(struct ft_json *j, char c)
{
	fputc(c, j->f);
	if (j->depth > 0)
		j->depth--;
	if (!j->depth)
		fputc('\n', j->f);
}

/* ft_json_obj_begin - "key":{ (key NULL inside arrays and at top level) */
void ft_json_obj_begin(struct ft_json *j, const char *k) { open(j, k, '{'); }
/* ft_json_obj_end - } */
void ft_json_obj_end(struct ft_json *j) { close_(j, '}'); }
/* ft_json_arr_begin - "key":[ */
void ft_json_arr_begin(struct ft_json *j, const char *k) { open(j, k, '['); }
/* ft_json_arr_end - ] */
void ft_json_arr_end(struct ft_json *j) { close_(j, ']'); }

/* ft_json_str - "key":"value" */
void ft_json_str(struct ft_json *j, const char *k, const char *v)
{
	key(j, k);
	put_string(j->f, v ? v : "", (size_t)-1);
}

/* ft_json_strn - "key":"value" from a fixed-size, maybe unterminated, field */
void ft_json_strn(struct ft_json *j, const char *k, const char *v, size_t max)
{
	key(j, k);
	put_string(j->f, v ? v : "", max);
}

/* ft_json_u64 - "key":N */
void ft_json_u64(struct ft_json *j, const char *k, uint64_t v)
{
	key(j, k);
	fprintf(j->f, "%llu", (unsigned long long)v);
}

/* ft_json_i64 - "key":-N */
void ft_json_i64(struct ft_json *j, const char *k, int64_t v)
{
	key(j, k);
	fprintf(j->f, "%lld", (long long)v);
}

/* ft_json_double - "key":N.NNN */
void ft_json_double(struct ft_json *j, const char *k, double v)
{
	key(j, k);
	fprintf(j->f, "%.3f", v);
}

/* ft_json_bool - "key":true */
void ft_json_bool(struct ft_json *j, const char *k, bool v)
{
	key(j, k);
	fputs(v ? "true" : "false", j->f);
}

/*
 * ft_json_row - one row of a list as its own line, as the run goes (jq filters a long
 * run): {"analyzer":A,"type":"row", then the row's fields; ft_json_obj_end ends it
 */
void ft_json_row(struct ft_json *j, FILE *f, const char *analyzer)
{
	ft_json_init(j, f);
	ft_json_obj_begin(j, NULL);
	ft_json_str(j, "analyzer", analyzer);
	ft_json_str(j, "type", "row");
}

/* ft_json_strs - an array of @n strings under @key */
void ft_json_strs(struct ft_json *j, const char *key, const char *const *val, int n)
{
	int i;

	ft_json_arr_begin(j, key);
	for (i = 0; i < n; i++)
		ft_json_str(j, NULL, val[i]);
	ft_json_arr_end(j);
}
