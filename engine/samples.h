/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A run's samples: the sampler's rings live, the trace.dat's kept samples offline,
 * handed to the analyzers that sample, and kept in the trace.dat with -o FILE.
 */
#ifndef FTSCOPE_CMD_SAMPLES_H
#define FTSCOPE_CMD_SAMPLES_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/stages.h"
#include "events/sample.h"
#include "lib/pidset.h"
#include "tracer/sampler.h"

struct ft_capture;
struct ft_tasks;
struct ft_session;
struct ft_source;
struct ft_trace_desc;

struct ft_samples {
	const struct ft_sample_req *req;	/* what is sampled, or NULL: nothing */
	const struct ft_stages	*askers;	/* whose request it is */
	struct ft_sampler	sampler;	/* live: the rings */
	struct ft_sample_file	file;		/* offline: the file's samples */
	struct ft_sample_counts	counts;		/* what was sampled and lost */
	/* set by the run */
	struct ft_stages	*stages;	/* who gets them (NULL: a recording keeps them) */
	const bool		*cpu_on;	/* -C */
	int			ncpus;
	const struct ft_imap	*shown;		/* -p/-t on a file: the tasks reported */
	struct ft_capture	*cap;		/* -o FILE: keep them there */
	struct ft_tasks		*tasks;		/* the run's names, for threads the kernel named not */
	/* -o FILE */
	unsigned char		*keep;
	size_t			keep_len, keep_cap;
	bool			keep_failed;
	struct ft_tab		names;		/* tid -> struct ft_sample_comm: -o keeps them,
						   -i gives them back */
};

int ft_samples_prepare(struct ft_samples *sm, const struct ft_stages *st, bool live,
		       const char *clock);
int ft_samples_open(struct ft_samples *sm, const struct ft_trace_desc *d, bool named,
		    const int *pids, int npids);
void ft_samples_round(struct ft_samples *sm, uint64_t upto);
void ft_samples_wait(struct ft_samples *sm, struct ft_session *s, int timeout_ms,
		     struct pollfd *extra, int nextra);
int ft_samples_keep(struct ft_samples *sm);
int ft_samples_of_file(struct ft_samples *sm, struct ft_source *src, const char *input,
		       const char *name);
void ft_samples_replay(struct ft_samples *sm);
void ft_samples_fini(struct ft_samples *sm);

#endif
