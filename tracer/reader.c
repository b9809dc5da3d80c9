// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU readers of the binary trace_pipe_raw buffers. A round reads every page
 * available on every CPU without blocking and queues it for the merge; between
 * rounds the reader sleeps in poll(), which the kernel wakes when buffer_percent
 * of a buffer is filled, so an idle system costs no busy loop.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <tracefs/tracefs.h>

#include "events/decode.h"
#include "events/merge.h"
#include "tracer/session.h"
#include "tracer/util.h"

/* At most this many pages per CPU in one round, so that a flood cannot starve the rest. */
#define ROUND_PAGES	4096

/**
 * ft_reader_open - open trace_pipe_raw of every traced CPU, non-blocking, with the
 * sub-buffer size of this instance's own header_page
 * Returns 0 or -1 after printing the error.
 */
int ft_reader_open(struct ft_session *s)
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
	return 0;
}

/* ft_reader_wait - sleep until a buffer fills to buffer_percent, a signal, or @timeout_ms */
void ft_reader_wait(struct ft_session *s, int timeout_ms)
{
	struct pollfd pfd[s->ncpus];
	int n = 0, cpu;

	for (cpu = 0; cpu < s->ncpus; cpu++) {
		if (s->fd[cpu] < 0)
			continue;
		pfd[n].fd = s->fd[cpu];
		pfd[n].events = POLLIN;
		n++;
	}
	poll(pfd, n, timeout_ms);
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
			r = tracefs_cpu_read(s->tcpu[cpu], pg->data, true);
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
	return total;
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

/**
 * ft_session_lost - events the ring buffer of @cpu has lost since the instance was
 * made: overruns and commit overruns (overwrite mode) and dropped events (no-overwrite)
 */
unsigned long long ft_session_lost(const struct ft_session *s, int cpu)
{
	char path[64], *text;
	unsigned long long n;

	snprintf(path, sizeof(path), "per_cpu/cpu%d/stats", cpu);
	text = tracefs_instance_file_read(s->inst, path, NULL);
	if (!text)
		return 0;
	n = stat_value(text, "overrun") + stat_value(text, "commit overrun") +
	    stat_value(text, "dropped events");
	free(text);
	return n;
}

/**
 * ft_reader_losses - compare each CPU's loss counters with what we already know and
 * hand new losses to the merge. In no-overwrite mode the kernel drops new events
 * while a buffer is full, so the gap lies after the pages read so far.
 * Returns the number of CPUs with new losses.
 */
int ft_reader_losses(struct ft_session *s, struct ft_merge *m)
{
	int cpu, n = 0;

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

/* write_all - write a whole buffer, or fail */
static int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t w = write(fd, p, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		len -= w;
	}
	return 0;
}

/* save_text - DIR/REL with the given text, creating DIR/events/SYS/EVENT as needed */
static int save_text(const char *dir, const char *rel, const char *text, size_t len)
{
	char path[8192], *slash;
	int fd, ret;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, rel) >= sizeof(path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	for (slash = path + strlen(dir) + 1; (slash = strchr(slash, '/')); slash++) {
		*slash = 0;
		mkdir(path, 0755);
		*slash = '/';
	}
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	ret = write_all(fd, text, len);
	return close(fd) || ret ? -1 : 0;
}

/**
 * ft_capture_open - start a capture in @dir: header_page, the formats of the
 * enabled events, and one cpuN.raw per CPU that the tap fills with raw pages
 * Returns 0 or -1 after printing the error.
 */
int ft_capture_open(struct ft_capture *c, const char *dir, struct ft_session *s)
{
	char path[8192];
	size_t len;
	char *text;
	int i;

	memset(c, 0, sizeof(*c));
	c->ncpus = s->ncpus;
	c->fd = malloc(s->ncpus * sizeof(*c->fd));
	if (!c->fd)
		return -1;
	for (i = 0; i < s->ncpus; i++)
		c->fd[i] = -1;
	if (mkdir(dir, 0755) && errno != EEXIST)
		goto fail;
	for (i = 0; i < FT_EV_NTYPES; i++) {
		const char *sys = i ? ft_event_defs[i].system : NULL;
		const char *ev = i ? ft_event_defs[i].name : "header_page";

		if (i && !(s->enabled & FT_NEED(i)))
			continue;
		text = ft_session_format_read(s, sys, ev, &len);
		if (!text)
			goto fail;
		if (sys)
			snprintf(path, sizeof(path), "events/%s/%s/format", sys, ev);
		else
			snprintf(path, sizeof(path), "header_page");
		if (save_text(dir, path, text, len)) {
			free(text);
			goto fail;
		}
		free(text);
	}
	for (i = 0; i < s->ncpus; i++) {
		snprintf(path, sizeof(path), "%s/cpu%d.raw", dir, i);
		c->fd[i] = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (c->fd[i] < 0)
			goto fail;
	}
	return 0;
fail:
	ft_err("cannot write the capture to %s: %s", dir, strerror(errno));
	ft_capture_close(c);
	return -1;
}

/* ft_capture_tap - ft_page_tap_fn: append a raw page to its CPU's file */
void ft_capture_tap(void *ctx, int cpu, const void *page, unsigned int len)
{
	struct ft_capture *c = ctx;

	if (cpu < 0 || cpu >= c->ncpus || c->fd[cpu] < 0)
		return;
	if (write_all(c->fd[cpu], page, len))
		c->errors++;
	c->pages++;
}

/* ft_capture_close - close the page files */
void ft_capture_close(struct ft_capture *c)
{
	int i;

	for (i = 0; c->fd && i < c->ncpus; i++)
		if (c->fd[i] >= 0)
			close(c->fd[i]);
	free(c->fd);
	c->fd = NULL;
}
