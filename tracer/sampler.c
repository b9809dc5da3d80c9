// SPDX-License-Identifier: GPL-2.0
/*
 * The sampling stage. One perf_event_open event per CPU (system wide), or per
 * (target task, CPU) with inherit so children and new threads are sampled too;
 * the events of a CPU share that CPU's ring (PERF_EVENT_IOC_SET_OUTPUT), because
 * the kernel maps no ring of an inherited per-task event. Samples are stamped on
 * the trace's clock (ft_sampler_clock). Each round drains every ring; the
 * kernel's LOST and THROTTLE records are counted. User stacks are the kernel's
 * frame-pointer walk (fp), or with dwarf the frames the unwinder finds in a copy of
 * the user stack (tracer/sample_unwind.c), kernel frames still from the callchain.
 */
#include <errno.h>
#include <poll.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lib/file.h"
#include "lib/util.h"
#include "tracer/desc.h"
#include "tracer/sample_unwind.h"
#include "tracer/sampler.h"
#include "tracer/sampler_event.h"
#include "tracer/sampler_second.h"

/* Data pages of a CPU's ring: 2 MiB, a second of 999 Hz samples with deep stacks;
   with dwarf 32 MiB: the samples are drained only as far as the trace's records are
   merged, and 8 KB stack copies of every switch of perf bench sched pipe (40 000 a
   second here) lost half of them with 8 MiB, none with 32. Less on a machine of many
   CPUs (256 MiB in all, 2 MiB a CPU at least). */
#define RING_PAGES	512
#define RING_PAGES_DWARF	8192
#define RING_DWARF_ALL	(256ULL << 20)

/* max_stack - the deepest callchain to ask for: 127, or kernel.perf_event_max_stack if lower */
static uint16_t max_stack(void)
{
	char *text = ft_read_file("/proc/sys/kernel/perf_event_max_stack", 64, NULL);
	long v = text && *text ? strtol(text, NULL, 10) : FT_SAMPLE_MAX_STACK;

	free(text);
	return (uint16_t)(v > 0 && v < FT_SAMPLE_MAX_STACK ? v : FT_SAMPLE_MAX_STACK);
}

/* open_error - the one line for a failed perf_event_open of @pid */
static void open_error(const struct ft_sampler *sp, int pid)
{
	int e = errno;

	if (e == ESRCH)
		ft_err("cannot sample %s: no task with id %d", sp->name, pid);
	else if (e == EMFILE || e == ENFILE)
		ft_err("cannot sample %s: out of file descriptors: raise ulimit -n", sp->name);
	else if (e == ENOENT || e == EOPNOTSUPP || e == ENODEV)
		ft_err("cannot sample %s: this machine does not support it", sp->name);
	else if (e == EINVAL && sp->req.freq)
		ft_err("cannot sample %s at %llu Hz: %s", sp->name,
		       (unsigned long long)sp->req.freq, strerror(e));
	else
		ft_err("cannot sample %s: %s", sp->name, strerror(e));
}

/*
 * open_or_fp - open_one; with dwarf, where the kernel refuses to copy user stacks
 * (EINVAL, EOPNOTSUPP, ENOSYS, and the same event opens without), one line and the
 * frame-pointer walk from then on: only at the first event (@first), since events
 * already open copy stacks and their samples are read as such
 */
static int open_or_fp(struct ft_sampler *sp, int pid, int cpu, bool inherit, bool first)
{
	int fd = ft_sampler_open_one(sp, pid, cpu, inherit, false), e = errno;

	if (fd >= 0 || !first || !sp->dwarf || (e != EINVAL && e != EOPNOTSUPP && e != ENOSYS))
		return fd;
	sp->dwarf = false;
	fd = ft_sampler_open_one(sp, pid, cpu, inherit, false);
	if (fd < 0) {
		sp->dwarf = true;	/* as asked: the caller reports the first error */
		errno = e;
		return fd;
	}
	sp->req.callgraph = FT_CG_FP;
	sp->req2.callgraph = FT_CG_FP;
	ft_err("this kernel does not copy user stacks into samples (PERF_SAMPLE_STACK_USER: %s): "
	       "user stacks by frame-pointer walk", strerror(e));
	return fd;
}

/**
 * ft_sampler_open - the events on what @d names: per (task, CPU) on @pids
 * (ft_targets: -p/-t threads or the command, from its exec; children inherit) or per
 * CPU (-a, -C, or no task). Returns 0, or -1 after printing one line.
 */
int ft_sampler_open(struct ft_sampler *sp, const struct ft_trace_desc *d, const int *pids,
		    int npids)
{
	struct pollfd pfd;
	bool per_task = npids && !(d->cmd && (d->all || d->cpu_on)), opened = false;
	int cpu, t, fd;

	sp->ncpus = d->ncpus;
	sp->clock = d->clock;
	sp->ntgt = per_task ? npids : 1;
	sp->on_exec = per_task && d->cmd;
	sp->dwarf = sp->req.user && sp->req.callgraph == FT_CG_DWARF;
#ifndef __x86_64__
	if (sp->dwarf) {
		sp->dwarf = false;
		sp->req.callgraph = FT_CG_FP;
		ft_err("user stacks are unwound on x86-64 only: by frame-pointer walk here");
	}
#endif
	sp->ring_pages = RING_PAGES;
	if (sp->dwarf)
		for (sp->ring_pages = RING_PAGES_DWARF; sp->ring_pages > RING_PAGES &&
		     (size_t)sp->ring_pages * 4096 * sp->ncpus > RING_DWARF_ALL;)
			sp->ring_pages /= 2;
	sp->ring_len = (sp->ring_pages + 1) * (size_t)sysconf(_SC_PAGESIZE);
	sp->fd = malloc((size_t)sp->ntgt * sp->ncpus * sizeof(*sp->fd));
	for (t = 0; sp->fd && t < sp->ntgt * sp->ncpus; t++)
		sp->fd[t] = -1;
	sp->ring = calloc(sp->ncpus, sizeof(*sp->ring));
	sp->ip = malloc(2 * FT_SAMPLE_MAX_STACK * sizeof(*sp->ip));
	sp->hup = calloc((size_t)sp->ntgt * sp->ncpus, sizeof(*sp->hup));
	sp->side = calloc(sp->ncpus, sizeof(*sp->side));
	if (!sp->fd || !sp->ring || !sp->ip || !sp->hup || !sp->side ||
	    ft_sampler_alloc_second(sp, per_task, pids, npids) || ft_smaps_init(&sp->maps)) {
		ft_err("out of memory");
		return -1;
	}
	sp->maps_on = true;
	sp->max_stack = max_stack();
	if (sp->dwarf && !(sp->unw = ft_unwinder_new())) {
		ft_err("out of memory");
		return -1;
	}
	for (cpu = 0; cpu < sp->ncpus; cpu++) {
		int first = -1;

		if (d->cpu_on && !d->cpu_on[cpu])
			continue;
		for (t = 0; t < sp->ntgt; t++) {
			fd = open_or_fp(sp, per_task ? pids[t] : -1, cpu, per_task, !opened);
			if (fd < 0 && errno == ENODEV && t == 0)
				break;		/* an offline CPU */
			if (fd < 0) {
				open_error(sp, per_task ? pids[t] : -1);
				return -1;
			}
			sp->fd[cpu * sp->ntgt + t] = fd;
			opened = true;
			if (ft_sampler_map_cpu(sp, cpu, fd, first))
				return -1;
			if (first < 0)
				first = fd;
			if (sp->req2.pid_field && t)
				continue;	/* per CPU: once */
			if (sp->fd2 && ft_sampler_open_second(sp, cpu * sp->ntgt + t,
						   per_task && !sp->req2.pid_field ? pids[t] : -1,
						   cpu, per_task && !sp->req2.pid_field, first))
				return -1;
		}
	}
	ft_sampler_sort_ids(sp);
	if (!ft_sampler_pollfds(sp, &pfd, 1)) {
		errno = ENODEV;
		open_error(sp, -1);
		return -1;
	}
	return 0;
}

/* ioctl_all - one ioctl on every open event */
static void ioctl_all(struct ft_sampler *sp, unsigned long req)
{
	int i;

	for (i = 0; sp->fd && i < sp->ntgt * sp->ncpus; i++)
		if (sp->fd[i] >= 0)
			ioctl(sp->fd[i], req, 0);
	for (i = 0; i < sp->nfd2; i++)
		if (sp->fd2[i] >= 0)
			ioctl(sp->fd2[i], req, 0);
}

/* ft_sampler_enable - start sampling now (a command's events start at its exec) */
void ft_sampler_enable(struct ft_sampler *sp)
{
	int i;

	if (!sp->on_exec)
		ioctl_all(sp, PERF_EVENT_IOC_ENABLE);
	else	/* a per-CPU second event: no exec enables it */
		for (i = 0; sp->req2.pid_field && i < sp->nfd2; i++)
			if (sp->fd2[i] >= 0)
				ioctl(sp->fd2[i], PERF_EVENT_IOC_ENABLE, 0);
}

/*
 * clock_count - how long a cpu-clock event ran (its time_running: a CPU's wall time, a
 * task's time on CPUs, children's folded in as they exited; throttled time included,
 * which its count leaves out), against which the rate obtained is told
 */
static void clock_count(struct ft_sampler *sp)
{
	uint64_t v[2], sum = 0;	/* value, time_running */
	int i;

	if (sp->type != PERF_TYPE_SOFTWARE || sp->config != PERF_COUNT_SW_CPU_CLOCK)
		return;
	for (i = 0; sp->fd && i < sp->ntgt * sp->ncpus; i++)
		if (sp->fd[i] >= 0 && read(sp->fd[i], v, sizeof(v)) == sizeof(v))
			sum += v[1];
	sp->counts.clock_ns = sum;
}

/* ft_sampler_disable - stop sampling; what the rings hold stays to be drained */
void ft_sampler_disable(struct ft_sampler *sp)
{
	ioctl_all(sp, PERF_EVENT_IOC_DISABLE);
	clock_count(sp);
	sp->refilter_off = true;	/* the last drain opens no new events */
}

/* ft_sampler_pollfds - one live event of each ring, to poll (up to @max); returns how many */
int ft_sampler_pollfds(const struct ft_sampler *sp, struct pollfd *pfd, int max)
{
	int cpu, t, n = 0;

	for (cpu = 0; cpu < sp->ncpus && n < max; cpu++)
		for (t = 0; t < sp->ntgt; t++)
			if (sp->ring[cpu] && sp->fd[cpu * sp->ntgt + t] >= 0 &&
			    !sp->hup[cpu * sp->ntgt + t]) {
				pfd[n++] = (struct pollfd){ .fd = sp->fd[cpu * sp->ntgt + t],
							    .events = POLLIN };
				break;
			}
	return n;
}

/*
 * entry_return - the return address on the stack top of a sample at a function's
 * entry: PERF_SAMPLE_REGS_USER (abi, sp) then PERF_SAMPLE_STACK_USER (size, data, dyn_size)
 */
static bool entry_return(const unsigned char *p, const unsigned char *end, uint64_t *ret)
{
	struct ft_sample_tail t;

	if (!ft_sampler_tail(p, end, 1, &t) || t.size < 8)
		return false;
	memcpy(ret, t.stack, 8);
	return true;
}

/* frames - split a callchain at its context markers: kernel frames, then user ones */
static bool frames(struct ft_sampler *sp, struct ft_sample *s, const unsigned char *p,
		   const unsigned char *end)
{
	uint64_t nr, ip, ctx = PERF_CONTEXT_KERNEL, *user = sp->ip + FT_SAMPLE_MAX_STACK;
	uint64_t i, ret;

	s->nk = s->nu = 0;
	if (!ft_take8(&p, end, &nr) || nr > (uint64_t)(end - p) / 8)
		return false;
	for (i = 0; i < nr; i++, p += 8) {
		memcpy(&ip, p, 8);
		if (ip >= (uint64_t)PERF_CONTEXT_MAX) {
			ctx = ip;
			continue;
		}
		if (ctx == PERF_CONTEXT_KERNEL && s->nk < FT_SAMPLE_MAX_STACK)
			sp->ip[s->nk++] = ip;
		else if (ctx == PERF_CONTEXT_USER && s->nu < FT_SAMPLE_MAX_STACK)
			user[s->nu++] = ip;
	}
	if (sp->dwarf) {	/* the callchain held no user frames: the unwinder's */
		int n = ft_sampler_unwind(sp, s->pid, s->ts, p, end, user);

		if (n < 0)
			return false;
		s->nu = n;
	} else if (sp->entry_probe && !s->event && s->nu && s->nu < FT_SAMPLE_MAX_STACK &&
		   entry_return(p, end, &ret) && (s->nu < 2 || user[1] != ret)) {
		memmove(user + 2, user + 1, (s->nu - 1) * sizeof(*user));
		user[1] = ret;
		s->nu++;
	}
	memmove(sp->ip + s->nk, user, s->nu * sizeof(*user));
	s->ip = sp->ip;
	return true;
}

/* parse_sample - a PERF_RECORD_SAMPLE of ft_sampler_open_one's sample_type; false when malformed */
static bool parse_sample(struct ft_sampler *sp, const unsigned char *p, const unsigned char *end,
			 struct ft_sample *s)
{
	uint64_t id, ip, pt, cpu;

	if (!ft_take8(&p, end, &id) || !ft_take8(&p, end, &ip) || !ft_take8(&p, end, &pt) ||
	    !ft_take8(&p, end, &s->ts) ||
	    !ft_take8(&p, end, &cpu) || !ft_take8(&p, end, &s->period))
		return false;
	s->pid = (int)(uint32_t)pt;
	s->tid = (int)(uint32_t)(pt >> 32);
	s->cpu = (int)(uint32_t)cpu;
	s->event = ft_sampler_is_second(sp, id);
	s->maps = NULL;
	s->maps_len = 0;
	s->comm = NULL;
	return frames(sp, s, p, end);
}

/* one_record - count or deliver one record */
static void one_record(struct ft_sampler *sp, const struct perf_event_header *h,
		       ft_sample_fn fn, void *ctx)
{
	const unsigned char *p = (const unsigned char *)(h + 1), *end = (const unsigned char *)h + h->size;
	struct ft_sample s;
	uint64_t v;

	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		if (!parse_sample(sp, p, end, &s)) {
			sp->counts.bad++;
			return;
		}
		sp->counts.samples++;
		if (sp->maps_on && s.nu)
			s.maps = ft_smaps_changed(&sp->maps, s.pid, s.ts, &s.maps_len);
		if (sp->maps_on)
			s.comm = ft_smaps_comm(&sp->maps, s.tid);
		fn(ctx, &s);
		return;
	case PERF_RECORD_LOST:		/* u64 id, u64 lost */
		if (ft_take8(&p, end, &v) && ft_take8(&p, end, &v))
			sp->counts.lost += v;
		return;
	case PERF_RECORD_LOST_SAMPLES:
		if (ft_take8(&p, end, &v))
			sp->counts.lost += v;
		return;
	case PERF_RECORD_THROTTLE:
		sp->counts.throttled++;
		return;
	default:
		return;
	}
}

/* sample_ts - the time of a PERF_RECORD_SAMPLE (after its id, ip, pid and tid); 0 if short */
static uint64_t sample_ts(const struct perf_event_header *h)
{
	uint64_t ts;

	if (h->size < sizeof(*h) + 32)
		return 0;
	memcpy(&ts, (const unsigned char *)(h + 1) + 24, 8);
	return ts;
}

/*
 * walk_ring - the records of ring @cpu up to @head: the mapping records not walked
 * yet (@side), or the samples up to the first one after @upto, which are consumed
 */
static void walk_ring(struct ft_sampler *sp, int cpu, uint64_t head, bool side, uint64_t upto,
		      ft_sample_fn fn, void *ctx)
{
	struct perf_event_mmap_page *meta = sp->ring[cpu];
	unsigned char *data = (unsigned char *)meta + meta->data_offset;
	uint64_t size = meta->data_size, tail = meta->data_tail;

	if (side && sp->side[cpu] > tail)
		tail = sp->side[cpu];
	while (tail < head) {
		struct perf_event_header h;
		uint64_t off = tail % size, first;
		const struct perf_event_header *rec;

		first = size - off < sizeof(h) ? size - off : sizeof(h);
		memcpy(&h, data + off, first);
		memcpy((unsigned char *)&h + first, data, sizeof(h) - first);
		if (h.size < sizeof(h) || h.size > head - tail) {
			if (!side)
				sp->counts.bad++;	/* a damaged ring: skip what is left */
			tail = head;
			break;
		}
		if (off + h.size <= size) {
			rec = (const void *)(data + off);
		} else {		/* wraps: copy it whole */
			memcpy(sp->wrap, data + off, size - off);
			memcpy(sp->wrap + (size - off), data, h.size - (size - off));
			rec = (const void *)sp->wrap;
		}
		if (side) {
			if (ft_side_is(rec) && ft_sideq_add(&sp->sideq, rec))
				ft_side_record(&sp->maps, rec);	/* out of memory: now */
			if (rec->type == PERF_RECORD_FORK && sp->nftid && h.size >= sizeof(h) + 16)
				ft_sampler_add_ftid(sp, (int)((const uint32_t *)(rec + 1))[2]);
		} else if (rec->type == PERF_RECORD_SAMPLE && sample_ts(rec) > upto)
			break;		/* the next round's */
		else
			one_record(sp, rec, fn, ctx);
		tail += h.size;
	}
	if (side)
		sp->side[cpu] = tail;
	else
		__atomic_store_n(&meta->data_tail, tail, __ATOMIC_RELEASE);
}

/*
 * ft_sampler_drain - hand @fn every sample the rings hold up to time @upto (later
 * ones stay for the next call), after every ring's mapping records (a process may
 * map on one CPU and be sampled on another). Returns 0, or -1 when out of memory.
 */
int ft_sampler_drain(struct ft_sampler *sp, uint64_t upto, ft_sample_fn fn, void *ctx)
{
	uint64_t head[sp->ncpus > 0 ? sp->ncpus : 1];
	size_t i;
	int cpu;

	if (!sp->wrap) {
		sp->wrap = malloc(65536);	/* perf_event_header.size is a u16 */
		if (!sp->wrap)
			return -1;
	}
	for (cpu = 0; sp->ring && cpu < sp->ncpus; cpu++) {
		if (!sp->ring[cpu])
			continue;
		head[cpu] = __atomic_load_n(&((struct perf_event_mmap_page *)sp->ring[cpu])->data_head,
					    __ATOMIC_ACQUIRE);
		walk_ring(sp, cpu, head[cpu], true, upto, fn, ctx);
	}
	ft_sideq_sort(&sp->sideq);	/* an exec on one CPU before its mappings on another */
	for (i = 0; i < sp->sideq.n; i++)
		ft_side_record(&sp->maps, ft_sideq_get(&sp->sideq, i));
	ft_sideq_reset(&sp->sideq);
	if (sp->nftid)
		ft_sampler_refilter(sp);
	for (cpu = 0; sp->ring && cpu < sp->ncpus; cpu++)
		if (sp->ring[cpu])
			walk_ring(sp, cpu, head[cpu], false, upto, fn, ctx);
	return 0;
}

/*
 * ft_sampler_hangup - the event of @fd hung up (its task and children are gone):
 * its ring is polled through another target's event, or not at all
 */
void ft_sampler_hangup(struct ft_sampler *sp, int fd)
{
	int i;

	for (i = 0; i < sp->ntgt * sp->ncpus; i++)
		if (sp->fd[i] == fd)
			sp->hup[i] = true;
}

/* ft_sampler_close - unmap and close everything (idempotent) */
void ft_sampler_close(struct ft_sampler *sp)
{
	int i;

	for (i = 0; sp->ring && i < sp->ncpus; i++)
		if (sp->ring[i])
			munmap(sp->ring[i], sp->ring_len);
	for (i = 0; sp->fd && i < sp->ntgt * sp->ncpus; i++)
		if (sp->fd[i] >= 0)
			close(sp->fd[i]);
	for (i = 0; i < sp->nfd2; i++)
		if (sp->fd2[i] >= 0)
			close(sp->fd2[i]);
	FT_FREE(sp->fd2);
	FT_FREE(sp->id2);
	FT_FREE(sp->filter2);
	FT_FREE(sp->ftid);
	sp->nftid = 0;
	sp->capftid = 0;
	sp->nid2 = sp->nfd2 = sp->ftid_done = 0;
	sp->capfd2 = sp->capid2 = 0;
	FT_FREE(sp->fd);
	FT_FREE(sp->ring);
	FT_FREE(sp->wrap);
	FT_FREE(sp->ip);
	FT_FREE(sp->hup);
	FT_FREE(sp->side);
	ft_sideq_free(&sp->sideq);
	if (sp->maps_on)
		ft_smaps_fini(&sp->maps);
	sp->maps_on = false;
	ft_unwinder_free(sp->unw);
	sp->unw = NULL;
}
