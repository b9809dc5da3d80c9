/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The footer under every report: events processed, lost (per CPU), switch-ins the
 * chain rebuilt, damage. In interval mode each footer gives that interval's figures
 * and the last report adds the whole run's ("total: ..."; JSON "whole_run").
 */
#ifndef FTSCOPE_CMD_FOOTER_H
#define FTSCOPE_CMD_FOOTER_H

#include <stdbool.h>
#include <stdio.h>

struct ft_json;
struct ft_capture;

/* The footer's figures: running totals of the run, or the difference of two. */
struct ft_counts {
	unsigned long long	events, lost, lost_unknown;
	unsigned long long	repaired, split, bad, malformed, unordered;
	unsigned long long	*lost_cpu, *repaired_cpu;	/* per CPU */
	bool			sampled;	/* the run sampled (profile): the next four count */
	unsigned long long	samples, samples_lost, throttled, samples_bad;
};

/* The run's figures now, at the last report, and in between. */
struct ft_footer {
	int			ncpus;
	struct ft_counts	run, base, delta;
	unsigned long long	*mem;
	const unsigned int	*offline;	/* per CPU: times it went offline (live) */
	const bool		*online_again;	/* per CPU: back online at the end */
	bool			uevents_lost;	/* hotplug uevents were lost: some may be missing */
};

int ft_footer_init(struct ft_footer *ft, int ncpus);
void ft_footer_fini(struct ft_footer *ft);
void ft_footer_print(struct ft_footer *ft, FILE *f, struct ft_json *j, bool interval,
		     bool final);
void ft_footer_record(const struct ft_footer *ft, const struct ft_capture *c, FILE *f,
		      struct ft_json *j);

#endif
