/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lock types of lock:contention_begin's flags (LCB_F_*), named as perf lock contention
 * names them: shared by lock (its rows, -Y) and offcpu --locks (its marks).
 */
#ifndef FTSCOPE_ANALYZERS_LOCK_TYPE_H
#define FTSCOPE_ANALYZERS_LOCK_TYPE_H

#define NTYPES		14	/* lock types, "unknown" last */

/* A lock type of the begin's flags (LCB_F_*), perf lock contention's names. */
struct lk_type {
	unsigned int	flags;
	const char	*name, *group;
};
extern const struct lk_type lk_types[NTYPES];

int lk_type_of(unsigned int flags);

#endif
