/* SPDX-License-Identifier: GPL-2.0 */
/*
 * biolatency's state, shared by its events (biolatency.c) and its report
 * (biolatency_report.c: the lists, histograms, notes and metrics).
 */
#ifndef FTSCOPE_ANALYZERS_BIOLATENCY_H
#define FTSCOPE_ANALYZERS_BIOLATENCY_H

#include "analyzers/analyzer.h"
#include "output/hset.h"

/* Field indexes, the same in each declaration (complete: error where others have bytes). */
enum { F_DEV, F_SECTOR, F_NR_SECTOR, F_RWBS, F_BYTES, F_COMM };

/* One request in flight. */
struct req {
	bool		used, write, issued, inserted, requeued;
	unsigned int	dups;		/* more requests of this key in flight: ambiguous */
	uint32_t	dev;
	uint64_t	sector;
	uint64_t	t_insert, t_issue;
	int		pid;
	uint32_t	bytes;
	int		flags;
};

/* A device's name: /sys/dev/block live, MAJ:MIN from a file. */
struct disk {
	uint32_t	dev;
	char		name[32];
};

struct notes {
	unsigned long long	not_issued;	/* completions without a traced issue */
	unsigned long long	ambiguous;	/* requests sharing a key in flight */
	unsigned long long	dropped;	/* in flight when events were lost */
	unsigned long long	direct;		/* -Q: issued without an insert */
	unsigned long long	oom;		/* requests there was no memory for */
};

struct biolat {
	const struct ft_env	*env;
	const struct ft_unit	*unit;
	bool			per_disk, per_flag, queued;
	bool			min_set;
	long			min_us;		/* --min-us N */
	struct ft_tp		tp_issue, tp_complete, tp_insert, tp_requeue;
	struct req		*tab;		/* open addressing, linear probing */
	unsigned int		mask, count;
	/* histograms per disk (-D) or per flags (-F), keyed by dev or flags, and the total;
	   -D: n[0] and n[1] are the disk's share of not_issued and ambiguous */
	struct ft_hset		h;
	struct disk		*disks;
	unsigned int		ndisks;
	struct notes		n;
	uint64_t		first_ts;	/* biosnoop's TIME(s) origin */
};

void biolat_slow(struct biolat *b, const struct req *r, uint64_t end, uint64_t que, uint64_t lat);
struct ft_hentry *biolat_group(struct biolat *b, uint32_t key);
void biolat_report(void *priv, struct ft_report *rep);
void biolat_reset(void *priv);
void biolat_metrics(void *priv, struct ft_metrics *m);

#endif
