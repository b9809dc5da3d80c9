/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Any tracepoint, by name: an analyzer declares SYSTEM:EVENT and the fields it reads;
 * their offsets are resolved once from the trace's own format, and each record of
 * that event reaches the analyzer as FT_EV_TP with typed loads by field index.
 */
#ifndef FTSCOPE_EVENTS_TP_H
#define FTSCOPE_EVENTS_TP_H

#include <stdbool.h>
#include <stdint.h>

struct tep_handle;
struct ft_event;

#define FT_TP_FIELDS	8	/* fields one declaration reads */

/* What a resolved field holds. */
enum ft_tpf_kind {
	FT_TPF_NONE = 0,	/* the format lacks it (optional fields) */
	FT_TPF_INT,		/* an integer of 1, 2, 4 or 8 bytes */
	FT_TPF_STR,		/* char[N], or __data_loc char[] */
};

struct ft_tp_field {
	unsigned char	kind;		/* enum ft_tpf_kind */
	bool		is_signed, dynamic, relative;	/* __data_loc, __rel_loc */
	int		off, size;
};

/*
 * One tracepoint an analyzer reads. The analyzer fills system, name, field and
 * flags; ft_tp_resolve fills id and fmt from the trace's format. Declarations are
 * chained by next, so that report can offer the pipeline those of all its analyzers.
 */
struct ft_tp {
	const char		*system, *name;
	const char		*field[FT_TP_FIELDS];	/* names, NULL after the last */
	bool			optional;	/* the run goes on without the event (id -1) */
	bool			opt_fields;	/* fields the format lacks are FT_TPF_NONE */
	bool			any_task;	/* its records come from any task (block I/O
						   completes in interrupts and kworkers): a live
						   run with a command records every task, the
						   command bounding the run only */
	int			id;		/* the trace's event id; -1 when it lacks it */
	struct ft_tp_field	fmt[FT_TP_FIELDS];
	struct ft_tp		*next;
};

bool ft_tp_name_ok(const char *s);
int ft_tp_resolve(struct ft_tp *tp, struct tep_handle *tep, char *err, int errlen);
struct ft_tp *ft_tp_append(struct ft_tp *head, struct ft_tp *more);
bool ft_tp_is(const struct ft_event *ev, const struct ft_tp *tp);
bool ft_tp_has(const struct ft_event *ev, const struct ft_tp *tp, int k);
long long ft_tp_num(const struct ft_event *ev, const struct ft_tp *tp, int k);
const char *ft_tp_str(const struct ft_event *ev, const struct ft_tp *tp, int k, int *len);
int ft_tp_fields(struct tep_handle *tep, const char *system, const char *name,
		 char *buf, int len);

#endif
