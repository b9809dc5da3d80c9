// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU readers of the binary trace_pipe_raw buffers. A round takes every page
 * available on every CPU without blocking and queues it for the merge: by read(),
 * or with --mmap from the ring buffer mapped into this process (6.10+). Between
 * rounds the reader sleeps in poll(), which the kernel wakes when buffer_percent of
 * a buffer is filled, so an idle system costs no busy loop.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <tracefs/tracefs.h>

#include "events/decode.h"
#include "events/merge.h"
#include "lib/util.h"
#include "tracer/desc.h"
#include "tracer/hotplug.h"
#include "tracer/reader.h"
#include "tracer/ringmap.h"
#include "tracer/session_state.h"

/* At most this many pages per CPU in one round, so that a flood cannot starve the rest. */
#define ROUND_PAGES	4096

/*
 * map_cpus - map the ring buffer of each CPU opened. A CPU whose buffer cannot be
 * mapped (an offline one has none: EINVAL) is read with read(); when none can be
 * (a kernel before 6.10: ENODEV), nothing stays mapped. s->map_errno: the first error.
 */
static void map_cpus(struct ft_session *s)
{
	int cpu, mapped = 0;

	s->map = calloc(s->ncpus, sizeof(*s->map));
	if (!s->map) {
		s->map_errno = ENOMEM;
		return;
	}
	for (cpu = 0; cpu < s->ncpus; cpu++) {
		if (s->fd[cpu] < 0)
			continue;
		if (!ft_ringmap_open(&s->map[cpu], s->fd[cpu], &s->pf)) {
			mapped++;
			continue;
		}
		if (!s->map_errno)
			s->map_errno = errno;
		s->map_unmapped++;
	}
	if (!mapped)
		ft_reader_unmap(s);
}

/* ft_reader_unmap - undo map_cpus (idempotent): a mapping holds the instance busy */
void ft_reader_unmap(struct ft_session *s)
{
	int cpu;

	for (cpu = 0; s->map && cpu < s->ncpus; cpu++)
		ft_ringmap_close(&s->map[cpu]);
	FT_FREE(s->map);
}

/**
 * reader_open - open trace_pipe_raw of every traced CPU, non-blocking, with the
 * sub-buffer size of this instance's own header_page, and map the ring buffers
 * when @map (and the kernel can)
 * Returns 0 or -1 after printing the error.
 */
static int reader_open(struct ft_session *s, bool map)
{
	char path[64];
	int cpu;

	for (cpu = 0; cpu < s->ncpus; cpu++) {
		if (s->cpu_on && !s->cpu_on[cpu])
			continue;
		snprintf(path, sizeof(path), "per_cpu/cpu%d/trace_pipe_raw", cpu);
		if (!tracefs_file_exists(s->inst, path))
			continue;	/* a possible but offline CPU */
		s->fd[cpu] = tracefs_instance_file_open(s->inst, path, O_RDONLY | O_NONBLOCK);
		if (s->fd[cpu] < 0) {
			ft_err("cannot open %s of instance %s: %s", path, s->name, strerror(errno));
			return -1;
		}
		s->tcpu[cpu] = tracefs_cpu_alloc_fd(s->fd[cpu], s->pf.subbuf_size, true);
		if (!s->tcpu[cpu]) {
			ft_err("cannot set up the reader of CPU %d: %s", cpu, strerror(errno));
			return -1;
		}
	}
	if (map)
		map_cpus(s);
	return 0;
}

/*
 * ft_reader_wait - sleep until a buffer fills to buffer_percent, one of the @nextra
 * fds is ready (the sample rings at their watermark; their revents are set), a
 * signal, or @timeout_ms
 */
void ft_reader_wait(struct ft_session *s, int timeout_ms, struct pollfd *extra, int nextra)
{
	struct pollfd pfd[s->ncpus + nextra];
	int n = 0, cpu, i;

	for (i = 0; i < nextra; i++)
		pfd[n++] = extra[i];
	for (cpu = 0; cpu < s->ncpus; cpu++) {
		if (s->fd[cpu] < 0)
			continue;
		pfd[n].fd = s->fd[cpu];
		pfd[n].events = POLLIN;
		n++;
	}
	if (poll(pfd, n, timeout_ms) > 0) {
		for (i = nextra; i < n; i++)
			if (pfd[i].revents) {
				s->wakeups++;	/* a buffer reached buffer_percent */
				break;
			}
	}
	for (i = 0; i < nextra; i++)
		extra[i].revents = pfd[i].revents;
}

/**
 * ft_reader_round - move every available page of every CPU into the merge queues
 * (up to ROUND_PAGES a CPU; s->complete_to says how far a capped CPU is complete)
 * Returns the pages read, or -1 on a read error (printed).
 */
long ft_reader_round(struct ft_session *s, struct ft_merge *m)
{
	long total = 0;
	int cpu, i, r;

	s->complete_to = UINT64_MAX;
	for (cpu = 0; cpu < s->ncpus; cpu++) {
		if (!s->tcpu[cpu])
			continue;
		for (i = 0; i < ROUND_PAGES; i++) {
			struct ft_pagebuf *pg = ft_merge_page_get(m);

			if (!pg) {
				ft_err("out of memory for trace pages");
				return -1;
			}
			r = s->map && s->map[cpu].data ?
			    ft_ringmap_next(&s->map[cpu], &s->pf, pg->data) :
			    tracefs_cpu_read(s->tcpu[cpu], pg->data, true);
			s->calls++;
			if (r <= 0) {
				ft_merge_page_recycle(m, pg);
				if (r < 0 && errno != EAGAIN && errno != EINTR) {
					ft_err("reading CPU %d: %s", cpu, strerror(errno));
					return -1;
				}
				break;
			}
			ft_merge_page_put(m, cpu, pg, r);
			total++;
		}
		/* capped: this CPU's data is complete only up to its newest page's start */
		if (i == ROUND_PAGES && m->cpu[cpu].newest < s->complete_to)
			s->complete_to = m->cpu[cpu].newest;
	}
	s->pages += total;
	s->rounds++;
	return total;
}

/*
 * realtime - the calling thread at SCHED_FIFO @prio, children it may fork not (the
 * command was forked before); 0, or -1 after one line
 */
static int realtime(int prio)
{
	struct sched_param sp = { .sched_priority = prio };

	if (sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &sp) < 0) {
		ft_err("--realtime %d: cannot run at SCHED_FIFO priority %d: %s", prio, prio,
		       strerror(errno));
		return -1;
	}
	return 0;
}

/* ft_reader_realtime_end - the buffers drained: the report runs at normal priority */
void ft_reader_realtime_end(struct ft_session *s)
{
	struct sched_param sp = { 0 };

	if (s->realtime)
		sched_setscheduler(0, SCHED_OTHER, &sp);
	s->realtime = false;
}

/* the ways a run's pages are taken */
enum way { BY_SPLICE, BY_READ, BY_MMAP, BY_MMAP_AND_READ };

/* -v's words for each way and for its system calls */
static const struct {
	const char *how, *calls;
} ways[] = {
	[BY_SPLICE]		= { "splice to the file", "splice (tracefs_cpu_write)" },
	[BY_READ]		= { "read()", "read()" },
	[BY_MMAP]		= { "mmap of the ring buffer (--mmap)", "GET_READER ioctl" },
	[BY_MMAP_AND_READ]	= { "mmap of the ring buffer (--mmap), and read() for CPUs it could "
				    "not map", "GET_READER ioctl and read()" },
};

/* way - how @s's pages are taken */
static enum way way(const struct ft_session *s)
{
	if (s->splice)
		return BY_SPLICE;
	if (!s->map)
		return BY_READ;
	return s->map_unmapped ? BY_MMAP_AND_READ : BY_MMAP;
}

/**
 * ft_reader_setup - the readers of a live run: trace_pipe_raw opened, the ring
 * buffers mapped when @d says --mmap (where the kernel cannot, one line says so and
 * they are read()), unless @splice (a recording splices the pages to its file); the
 * reader at --realtime's priority; -v says how the pages are taken
 * Returns 0 or -1 after printing the error.
 */
int ft_reader_setup(struct ft_session *s, const struct ft_trace_desc *d, bool splice)
{
	int cpus = 0, cpu;

	s->splice = splice;
	if (reader_open(s, d->mmap && !splice))
		return -1;
	if (d->mmap && s->map_errno)
		ft_err("--mmap: %s the ring buffer (%s): reading %s with read()",
		       s->map ? "some CPUs could not map" : "this kernel cannot map",
		       strerror(s->map_errno), s->map ? "those" : "it");
	if (d->rt_prio && realtime(d->rt_prio))
		return -1;
	s->realtime = d->rt_prio > 0;
	ft_hotplug_open(s);
	if (!d->verbose)
		return 0;
	for (cpu = 0; cpu < s->ncpus; cpu++)
		cpus += s->tcpu[cpu] != NULL;
	ft_err("instance %s, %d CPU%s, sub-buffers of %d bytes, read by %s", s->name, cpus,
	       cpus == 1 ? "" : "s", s->pf.subbuf_size, ways[way(s)].how);
	return 0;
}

/* ft_reader_counts - -v at the end: what the reader did */
void ft_reader_counts(const struct ft_session *s)
{
	unsigned long long parts = 0;
	char mapped[64] = "";
	int cpu;

	for (cpu = 0; s->map && cpu < s->ncpus; cpu++)
		parts += s->map[cpu].parts;
	if (s->map)
		snprintf(mapped, sizeof(mapped), " (%llu taken after their start)", parts);
	ft_err("%llu rounds, %llu woken by a buffer's fill, %llu pages%s, %llu %s calls",
	       s->rounds, s->wakeups, s->pages, mapped, s->calls, ways[way(s)].calls);
}

/* stat_value - the number after "NAME:" in a per_cpu stats text */
static unsigned long long stat_value(const char *text, const char *name)
{
	const char *p = text;
	size_t n = strlen(name);

	while (p && *p) {
		if (!strncmp(p, name, n) && p[n] == ':')
			return strtoull(p + n + 1, NULL, 10);
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return 0;
}

/*
 * cpu_stat - the sum of the NULL-terminated @names in per_cpu/cpuN/stats of @cpu. The
 * file is opened once and read again from its start each time (the kernel makes the
 * text anew at every read from offset 0): no path lookup, open and close each round.
 */
static unsigned long long cpu_stat(const struct ft_session *s, int cpu, const char *const *names)
{
	char path[64], text[1024];
	unsigned long long n = 0;
	ssize_t len;

	if (s->stats_fd[cpu] < 0) {
		snprintf(path, sizeof(path), "per_cpu/cpu%d/stats", cpu);
		s->stats_fd[cpu] = tracefs_instance_file_open(s->inst, path, O_RDONLY | O_CLOEXEC);
		if (s->stats_fd[cpu] < 0)
			return 0;
	}
	len = pread(s->stats_fd[cpu], text, sizeof(text) - 1, 0);
	if (len <= 0)
		return 0;
	text[len] = 0;
	while (*names)
		n += stat_value(text, *names++);
	return n;
}

/**
 * ft_session_lost - events the ring buffer of @cpu has lost since the instance was
 * made: overruns and commit overruns (overwrite mode) and dropped events (no-overwrite)
 */
unsigned long long ft_session_lost(const struct ft_session *s, int cpu)
{
	static const char *const lost[] = { "overrun", "commit overrun", "dropped events", NULL };

	return cpu_stat(s, cpu, lost);
}

/* ft_session_read_events - events the reader has consumed from @cpu's buffer */
unsigned long long ft_session_read_events(const struct ft_session *s, int cpu)
{
	static const char *const read[] = { "read events", NULL };

	return cpu_stat(s, cpu, read);
}

/**
 * ft_reader_losses - compare each CPU's loss counters with what we already know and
 * hand new losses to the merge. In no-overwrite mode the kernel drops new events
 * while a buffer is full, so the gap lies after the pages read so far. CPUs gone
 * offline or back since the last round are counted too (ft_hotplug_poll).
 * Returns the number of CPUs with new losses.
 */
int ft_reader_losses(struct ft_session *s, struct ft_merge *m)
{
	int cpu, n = 0;

	ft_hotplug_poll(s);
	for (cpu = 0; cpu < s->ncpus; cpu++) {
		unsigned long long now;

		if (!s->tcpu[cpu])
			continue;
		now = ft_session_lost(s, cpu) - s->lost_base[cpu];
		if (now > s->lost_seen[cpu]) {
			ft_merge_loss(m, cpu, (long long)(now - s->lost_seen[cpu]));
			s->lost_seen[cpu] = now;
			n++;
		}
	}
	return n;
}
