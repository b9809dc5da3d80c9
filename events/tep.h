/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Building a tep handle from just the event formats a run needs.
 */
#ifndef FTSCOPE_EVENTS_TEP_H
#define FTSCOPE_EVENTS_TEP_H

#include <stddef.h>

#include "events/page.h"
#include "lib/file.h"

struct tep_handle;

/*
 * Returns the malloc'ed text of events/SYSTEM/EVENT/format, or of header_page when
 * @system is NULL and @event is "header_page"; NULL when it does not exist.
 */
typedef char *(*ft_format_read_fn)(void *ctx, const char *system, const char *event,
				   size_t *len);

/* Largest format text handed to libtraceevent (its 1.7.1 parser is not fuzz-hardened). */
#define FT_FORMAT_MAX	(64 * 1024)

/* ft_tep_load flags: the formats come from a file, not the running kernel */
#define FT_TEP_UNTRUSTED	1u

struct tep_handle *ft_tep_load(ft_format_read_fn rd, void *ctx, unsigned int need,
			       struct ft_page_fmt *pf, unsigned int flags);
int ft_tep_add_event(struct tep_handle *tep, ft_format_read_fn rd, void *ctx,
		     const char *system, const char *event, unsigned int flags);
int ft_format_check(const char *text, size_t len);
int ft_tep_add_format(struct tep_handle *tep, const char *system, const char *text,
		      size_t len);
int ft_tep_add_untrusted(struct tep_handle *tep, const char *system, const char *text,
			 size_t len);
char *ft_dir_format_read(void *dir, const char *system, const char *event, size_t *len);

#endif
