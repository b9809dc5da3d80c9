/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A tracing session: one private tracefs instance per run, configured with tracing
 * off, removed on every exit path. Nothing outside the instance is written.
 */
#ifndef FTSCOPE_TRACER_SESSION_H
#define FTSCOPE_TRACER_SESSION_H

#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "events/page.h"

struct tracefs_instance;
struct tracefs_cpu;
struct ft_trace_desc;
struct ft_merge;
struct ft_ringmap;

/* Instance and dynamic-event names start with this, then "-PID-RANDOM". */
#define FT_INSTANCE_PREFIX	"ftscope"

struct ft_session {
	struct tracefs_instance	*inst;
	char			name[64];
	int			ncpus;
	const bool		*cpu_on;
	int			*fd;		/* per-CPU trace_pipe_raw, -1 when not read */
	int			*stats_fd;	/* per-CPU stats, opened once and pread (-1) */
	struct tracefs_cpu	**tcpu;
	struct ft_ringmap	*map;		/* per-CPU mapped ring buffers, NULL: read() */
	int			map_errno;	/* why a CPU could not be mapped (0: none) */
	int			map_unmapped;	/* CPUs read() because they could not be */
	bool			splice;		/* a recording: pages spliced to its file */
	bool			realtime;	/* the reader runs at SCHED_FIFO (--realtime) */
	struct ft_page_fmt	pf;
	unsigned long long	*lost_base;	/* stats when tracing started */
	unsigned long long	*lost_seen;	/* losses already handed to the merge */
	unsigned int		enabled;	/* FT_NEED() of the events enabled */
	unsigned long long	pages;
	unsigned long long	rounds, wakeups;	/* reader rounds; polls a buffer ended */
	unsigned long long	calls;		/* read(), GET_READER or splice calls */
	uint64_t		complete_to;	/* after a round: all CPUs read up to here */
	int			uevent_fd;	/* CPU hotplug's uevents, fd + 1 (0: none) */
	unsigned int		*offline;	/* per CPU: times it went offline */
	bool			*online_again;	/* per CPU: back online since it last went */
	bool			uevents_lost;	/* the uevent socket overflowed (ENOBUFS) */
};

int ft_tracefs_mount(void);
int ft_session_open(struct ft_session *s, const struct ft_trace_desc *d, unsigned int need,
		    unsigned int want, const int *pids, int npids, bool follow_fork);
int ft_session_start(struct ft_session *s);
void ft_session_stop(struct ft_session *s);
int ft_session_add_pid(struct ft_session *s, int pid);
int ft_session_event_on(struct ft_session *s, const char *system, const char *event);
void ft_session_close(struct ft_session *s);
char *ft_session_format_read(void *ctx, const char *system, const char *event, size_t *len);

int ft_reader_open(struct ft_session *s, bool map);
int ft_reader_setup(struct ft_session *s, const struct ft_trace_desc *d, bool splice);
void ft_reader_realtime_end(struct ft_session *s);
void ft_reader_counts(const struct ft_session *s);
void ft_reader_unmap(struct ft_session *s);
void ft_reader_wait(struct ft_session *s, int timeout_ms, struct pollfd *extra, int nextra);
long ft_reader_round(struct ft_session *s, struct ft_merge *m);
int ft_reader_losses(struct ft_session *s, struct ft_merge *m);
unsigned long long ft_session_lost(const struct ft_session *s, int cpu);
unsigned long long ft_session_read_events(const struct ft_session *s, int cpu);
int ft_session_enable(struct ft_session *s, const char *spec);
/* ft_uevent_cpu's answers */
enum { FT_UEVENT_NONE, FT_UEVENT_OFFLINE, FT_UEVENT_ONLINE };

int ft_uevent_cpu(const char *buf, size_t len, int ncpus, int *cpu);
void ft_hotplug_open(struct ft_session *s);
void ft_hotplug_poll(struct ft_session *s);
void ft_hotplug_close(struct ft_session *s);

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
void ft_owned_name(char *buf, size_t len, char sep);
struct tracefs_instance *ft_instance_new(char *name, size_t len);
void ft_instance_remove(struct tracefs_instance *inst);
bool ft_session_has_event(struct ft_session *s, const char *system, const char *event);
long ft_capture_splice(struct ft_capture *c, bool flush);
void ft_capture_maps(struct ft_capture *c, const int *pids, int n);
void ft_capture_set_maps(struct ft_capture *c, int pid, const char *text);
char *ft_proc_maps_text(int pid);
int ft_capture_finish(struct ft_capture *c, const char *tool);
void ft_capture_close(struct ft_capture *c);

#endif
