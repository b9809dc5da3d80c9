/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small streaming JSON writer: it places commas and quotes, nothing more.
 */
#ifndef FTSCOPE_OUTPUT_JSON_H
#define FTSCOPE_OUTPUT_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define FT_JSON_DEPTH	32

struct ft_json {
	FILE	*f;
	int	depth;
	bool	first[FT_JSON_DEPTH];
};

void ft_json_init(struct ft_json *j, FILE *f);
void ft_json_obj_begin(struct ft_json *j, const char *key);
void ft_json_obj_end(struct ft_json *j);
void ft_json_arr_begin(struct ft_json *j, const char *key);
void ft_json_arr_end(struct ft_json *j);
void ft_json_str(struct ft_json *j, const char *key, const char *val);
void ft_json_strs(struct ft_json *j, const char *key, const char *const *val, int n);
void ft_json_strn(struct ft_json *j, const char *key, const char *val, size_t max);
void ft_json_u64(struct ft_json *j, const char *key, uint64_t val);
void ft_json_i64(struct ft_json *j, const char *key, int64_t val);
void ft_json_double(struct ft_json *j, const char *key, double val);
void ft_json_bool(struct ft_json *j, const char *key, bool val);
void ft_json_row(struct ft_json *j, FILE *f, const char *analyzer);

#endif
