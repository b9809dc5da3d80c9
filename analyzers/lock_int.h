/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lock's state, shared by its events and options (lock.c) and its report
 * (lock_report.c: the rows merged by caller, address or thread, in perf lock
 * contention's table, --dist, JSON and the exports' series).
 */
#ifndef FTSCOPE_ANALYZERS_LOCK_INT_H
#define FTSCOPE_ANALYZERS_LOCK_INT_H

#include "analyzers/analyzer.h"
#include "analyzers/lock_type.h"
#include "events/syms.h"
#include "lib/intern.h"
#include "lib/tab.h"
#include "output/hset.h"

#define NEST		4	/* waits open at once per task */
#define MAX_FRAMES	64	/* of a stack, named */

enum lk_mode { BY_CALLER, BY_ADDR, BY_TASK };
enum lk_key { K_TOTAL, K_CONTENDED, K_MAX, K_MIN, K_AVG, K_P99 };
/* A wait under way. */
struct lk_wait {
	uint64_t	addr, since;
	uint32_t	stack;		/* its kernel stack's id + 1, 0 none (yet) */
	unsigned char	type;		/* index in lk_types[] */
	bool		lost;		/* events were lost since it began */
};

/* A task's waits under way (the table's key: tid; the idle tasks FT_TAB_DIRECT + cpu). */
struct lk_task {
	int		key;
	int		n;
	struct lk_wait	w[NEST];
};

/*
 * The records of a CPU whose kernel stacks have not come yet, innermost last: ftrace
 * writes a record's stack right after it, but an interrupt may write its own record
 * and stack in between (hist's stack keys wait the same way).
 */
struct lk_cpu {
	int		depth;
	struct {
		int		key;	/* a begin's task, -1 another record */
		uint64_t	addr;
	} p[NEST];
};

/* A row of a report: rows of the run merged by what the report shows. */
struct lk_out {
	int		type;		/* -1: all (--threads) */
	uint64_t	what;		/* caller address, lock address or tid */
	uint32_t	stack;		/* --stack: the stack */
	struct ft_hist	h;
	char		name[160];	/* caller, symbol or comm */
};

struct lock {
	const struct ft_env	*env;
	struct ft_tp		begin, end;
	enum lk_mode		mode;
	enum lk_key		key;
	int			top;
	bool			stacks, dist, threads_opt;
	unsigned int		type_mask;	/* -Y: bit per types[] index, 0 all */
	char			*addr_arg;	/* -L */
	uint64_t		*addrs;
	int			naddrs;
	struct ft_tab		tasks;		/* struct lk_task */
	struct ft_intern	keys;		/* (type, stack/addr/tid) -> row */
	struct ft_hset		rows;		/* the run's rows, member i of key i */
	struct ft_intern	kst;		/* kernel stacks */
	struct ft_ksyms		ksyms;
	uint64_t		sched[2], locks[2];	/* __sched_text, __lock_text */
	bool			sections;
	struct lk_cpu		*cpu;		/* the records waiting for their stacks */
	struct lk_out		*out;
	uint32_t		nout;		/* rows of the last merge */
	unsigned long long	unpaired, repeated, too_deep, dropped, no_stack, filtered;
};

/* Kernel symbols -L names, looked up in one pass over kallsyms. */
struct sym_find {
	struct lock	*x;
	char		**names;
	int		n;
};

int lock_find_sym(void *ctx, uint64_t addr, char type, const char *name, bool module);
void lock_report(void *priv, struct ft_report *rep);
void lock_metrics(void *priv, struct ft_metrics *m);
void lock_reset(void *priv);
void lock_out_free(struct lock *x);

#endif
