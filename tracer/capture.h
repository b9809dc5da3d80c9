/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A live run's pages saved as a trace.dat (tracer/capture.c).
 */
#ifndef FTSCOPE_TRACER_CAPTURE_H
#define FTSCOPE_TRACER_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ft_session;

/* A capture: the run's raw pages, saved as a trace.dat (`-o FILE`, `ftscope record`). */
struct ft_capture {
	const char		*path;
	int			out;		/* the trace.dat */
	int			ncpus;
	int			*fd;		/* per-CPU page files, unlinked */
	uint64_t		*bytes;		/* in each */
	unsigned long long	*events;	/* records in each, after ft_capture_finish */
	int			err;		/* errno of the first write that failed (0: none) */
	struct ft_session	*s;
	struct {
		int	pid;
		char	*text;
	}			*maps;		/* last maps seen of each traced process */
	int			nmaps;
	bool			finished;
	const void		*samples;	/* profile's samples to keep (events/sample.h) */
	size_t			samples_len;
	char			*tgids;		/* the threads when it was opened (events/tasks.h) */
};

int ft_capture_open(struct ft_capture *c, const char *path, struct ft_session *s);
void ft_capture_tap(void *ctx, int cpu, const void *page, unsigned int len);
int ft_capture_check(const struct ft_capture *c);
long ft_capture_splice(struct ft_capture *c, bool flush);
void ft_capture_maps(struct ft_capture *c, const int *pids, int n);
void ft_capture_set_maps(struct ft_capture *c, int pid, const char *text);
char *ft_proc_maps_text(int pid);
int ft_capture_finish(struct ft_capture *c, const char *tool);
void ft_capture_close(struct ft_capture *c);

#endif
