/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The flight recorder (engine/flight.c): a live run keeps its last pages per CPU in
 * memory, bounded by time and size, and writes the window around a latency over a
 * threshold (or, without one, the last seconds at the end) as a trace.dat.
 */
#ifndef FTSCOPE_ENGINE_FLIGHT_H
#define FTSCOPE_ENGINE_FLIGHT_H

#include <stdbool.h>
#include <stdint.h>

#include "analyzers/analyzer.h"
#include "events/merge.h"
#include "events/page.h"

struct ft_session;
struct ft_tasks;
struct ft_flight_cpu;

/* The options: --flight SECS, --trigger MS, --after SECS, --trigger-max N, --flight-size MB. */
struct ft_flight_opts {
	double		keep_s;		/* 0: no flight recorder */
	double		trigger_ms;	/* 0: no trigger (the last keep_s at the end) */
	double		after_s;
	long		max_files;	/* 0: no limit */
	long		size_mb;
	bool		after_set, max_set;
	char		trigger_of[64];	/* record: ANALYZER (and its options) of ANALYZER>VALUE */
};

/* Windows waiting for their ends at once, at most. */
#define FT_FLIGHT_QUEUE	16

/* The latency that fired, as its line and the file's VERSION text say it. */
struct ft_flight_event {
	uint64_t	ts, ns;
	int		tid, cpu;
	char		comm[FT_TASK_COMM_LEN + 1];
};

/* A window's pages: asked from and to; the earliest kept, the counts. */
struct ft_flight_window {
	uint64_t		from, to, first;
	unsigned long long	events, lost_pages;
	bool			cut;		/* pages of it were dropped (size, or late) */
	bool			ended;		/* the run ended before its end */
	bool			fired;		/* a latency's (else the last SECS) */
};

struct ft_flight {
	struct ft_flight_opts	o;
	const char		*path;		/* -o FILE */
	const char		*name;		/* the analyzer's, for the lines */
	char			what[24];	/* its measure, "wait" */
	struct ft_session	*s;
	struct ft_tasks		*tasks;		/* the run's: the event's task named */
	struct ft_page_fmt	pf;
	int			ncpus;
	struct ft_flight_cpu	*cpu;
	uint64_t		cpu_max;	/* bytes a CPU keeps */
	uint64_t		newest;		/* the latest page's time */
	struct ft_flight_event	ev[FT_FLIGHT_QUEUE];	/* windows waiting for their ends */
	int			nev;
	uint64_t		last_to;	/* the end of the latest window taken */
	int			files;		/* written */
	int			fired;		/* ... of them for a latency */
	unsigned long long	refused;	/* latencies over the trigger, the queue full */
	bool			done;		/* --trigger-max reached: the run ends */
	bool			size_said;	/* the size's line printed */
	int			err;		/* errno of a ring that could not grow */
};

int ft_flight_init(struct ft_flight *f, const struct ft_flight_opts *o, const char *path,
		   const char *name, const char *what, struct ft_session *s,
		   struct ft_tasks *tasks);
void ft_flight_tap(void *ctx, int cpu, const void *page, unsigned int len);
void ft_flight_window(struct ft_flight *f, struct ft_flight_window *w, ft_page_tap_fn fn,
		      void *ctx);
void ft_flight_latency(void *ctx, const struct ft_latency *l);
int ft_flight_round(struct ft_flight *f, uint64_t merged, const char *tool);
int ft_flight_dump(struct ft_flight *f, uint64_t now, const char *tool);
int ft_flight_end(struct ft_flight *f, uint64_t last, const char *tool);
void ft_flight_fini(struct ft_flight *f);

#endif
