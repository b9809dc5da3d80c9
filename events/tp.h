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

/* How a number field has names (ft_tp_name). */
enum ft_tpf_names {
	FT_TPN_NONE = 0,
	FT_TPN_SYSCALL,		/* raw_syscalls' id, syscalls' __syscall_nr */
	FT_TPN_PRINT,		/* the print fmt's __print_symbolic or __print_flags */
};

struct ft_tp_field {
	unsigned char	kind;		/* enum ft_tpf_kind */
	bool		is_signed, dynamic, relative;	/* __data_loc, __rel_loc */
	bool		is_ptr;		/* a pointer type (or unsigned long *addr) */
	bool		user_ptr;	/* ... into user space (syscalls' arguments) */
	bool		int32;		/* a C int held in 8 bytes: its low 4 are the value */
	unsigned char	names;		/* enum ft_tpf_names */
	int		off, size;
	const void	*print;		/* FT_TPN_PRINT: the flags/symbol node (the tep's) */
	const void	*suffix;	/* and the conditional suffix after it, or NULL */
	const char	*zero;		/* and the print fmt's text for 0, or NULL */
	const char	*type;		/* the format's type of the field (the tep's) */
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
int ft_tp_name(const struct ft_tp_field *f, long long v, char *buf, int len);
bool ft_tp_value(const struct ft_tp_field *f, const char *word, long long *v);
int ft_tp_fields(struct tep_handle *tep, const char *system, const char *name,
		 char *buf, int len);

#endif
