// SPDX-License-Identifier: GPL-2.0
/*
 * Lock types of lock:contention_begin's flags, perf lock contention's names (lock and
 * offcpu --locks).
 */
#include "analyzers/lock_type.h"

/* The lock types of the begin's flags (LCB_F_*), perf lock contention's names. */
const struct lk_type lk_types[NTYPES] = {
	{ 0, "semaphore", "semaphore" },	{ 1, "spinlock", "spinlock" },
	{ 3, "rwlock:R", "rwlock" },		{ 5, "rwlock:W", "rwlock" },
	{ 2, "rwsem:R", "rwsem" },		{ 4, "rwsem:W", "rwsem" },
	{ 8, "rt-mutex", "rt-mutex" },		{ 10, "rwlock-rt:R", "rwlock-rt" },
	{ 12, "rwlock-rt:W", "rwlock-rt" },	{ 18, "pcpu-sem:R", "percpu-rwsem" },
	{ 20, "pcpu-sem:W", "percpu-rwsem" },	{ 32, "mutex", "mutex" },
	{ 33, "mutex", "mutex" },		{ 64, "unknown", "unknown" },
};

/* lk_type_of - the lk_types[] index of a begin's flags (perf keeps the low 6 bits) */
int lk_type_of(unsigned int flags)
{
	int i;

	for (i = 0; i < NTYPES - 1; i++)
		if (lk_types[i].flags == (flags & 63))
			return i;
	return NTYPES - 1;
}
