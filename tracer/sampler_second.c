// SPDX-License-Identifier: GPL-2.0
/*
 * A request's second event (tracer/sampler.h): opened beside the first on each
 * CPU's ring and told apart by its ids; where it is per CPU (any task's, offcpu
 * --wakers' sched_waking), filtered on the targets' tids, and on the new threads and
 * children that FORK records bring, by one more event per CPU each round (the kernel
 * sets an event's filter once).
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "lib/util.h"
#include "tracer/sampler_event.h"
#include "tracer/sampler_second.h"

/*
 * ft_sampler_open_second - the second event on @pid and @cpu, slot @i, into the ring
 * of event @first; its id kept. Returns 0, or -1 after one line.
 */
int ft_sampler_open_second(struct ft_sampler *sp, int i, int pid, int cpu, bool inherit,
			   int first)
{
	int fd = ft_sampler_open_one(sp, pid, cpu, inherit, true);
	uint64_t id;

	if (fd < 0) {
		ft_err("cannot sample %s beside %s: %s", sp->name2, sp->name, strerror(errno));
		return -1;
	}
	sp->fd2[i] = fd;
	if (sp->filter2 && ioctl(fd, PERF_EVENT_IOC_SET_FILTER, sp->filter2)) {
		ft_err("cannot filter %s on %s: %s", sp->name2, sp->filter2, strerror(errno));
		return -1;
	}
	if (ft_sampler_map_cpu(sp, cpu, fd, first))
		return -1;
	if (ioctl(fd, PERF_EVENT_IOC_ID, &id)) {
		ft_err("cannot tell the samples of %s apart: %s", sp->name2, strerror(errno));
		return -1;
	}
	sp->id2[sp->nid2++] = id;
	return 0;
}

/* cmp_id - qsort order of event ids */
static int cmp_id(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* The longest filter the kernel takes (strndup_user of a page): tids past it wait for the
   next round's events */
#define FILTER_MAX	4000

/* Rounds that may open events for new tids (ncpus events each): a workload that makes
   threads or processes all the time would otherwise hold ever more open events, each
   waking evaluating every filter; later tids go unfiltered (their wakings unsampled:
   counted as wakings without a sample) */
#define REFILTER_MAX	64

/* ft_sampler_add_ftid - a tid into a per-CPU second event's filter; -1 when out of memory */
int ft_sampler_add_ftid(struct ft_sampler *sp, int tid)
{
	if (ft_grow((void **)&sp->ftid, sizeof(*sp->ftid), sp->nftid, 1, &sp->capftid))
		return -1;
	sp->ftid[sp->nftid++] = tid;
	return 0;
}

/*
 * pid_filter - a per-CPU second event's filter: its pid field one of the tids kept
 * not yet filtered ("pid == 12 || pid == 13"), as many as the kernel takes; -1 when
 * out of memory
 */
static int pid_filter(struct ft_sampler *sp)
{
	size_t len = 0, cap = FILTER_MAX + 64;
	int t;

	if (!sp->filter2 && !(sp->filter2 = malloc(cap)))
		return -1;
	sp->filter2[0] = '\0';
	for (t = sp->ftid_done; t < sp->nftid && len < FILTER_MAX; t++)
		len += (size_t)snprintf(sp->filter2 + len, cap - len, "%s%s == %d",
					t > sp->ftid_done ? " || " : "", sp->req2.pid_field,
					sp->ftid[t]);
	sp->ftid_done = t;
	return 0;
}

/* grow_second - room for @k more second events; -1 when out of memory */
static int grow_second(struct ft_sampler *sp, int k)
{
	if (ft_grow((void **)&sp->fd2, sizeof(*sp->fd2), sp->nfd2, k, &sp->capfd2) ||
	    ft_grow((void **)&sp->id2, sizeof(*sp->id2), sp->nid2, k, &sp->capid2))
		return -1;
	return 0;
}

/*
 * ft_sampler_refilter - the tids FORK records brought since the last round (a
 * target's new threads and children): a per-CPU second event more on each ring,
 * filtered on them (the kernel sets an event's filter once: EEXIST after); at most
 * REFILTER_MAX rounds, and none after a failed open (its one line said why)
 */
void ft_sampler_refilter(struct ft_sampler *sp)
{
	int cpu, t, fd;

	if (sp->refilter_off || sp->nrefilter == REFILTER_MAX || sp->ftid_done == sp->nftid ||
	    pid_filter(sp) || grow_second(sp, sp->ncpus))
		return;
	sp->nrefilter++;
	for (cpu = 0; cpu < sp->ncpus; cpu++) {
		for (t = 0; t < sp->ntgt && sp->fd[cpu * sp->ntgt + t] < 0; t++)
			;
		if (!sp->ring[cpu] || t == sp->ntgt)
			continue;
		fd = sp->fd[cpu * sp->ntgt + t];
		sp->fd2[sp->nfd2] = -1;
		if (ft_sampler_open_second(sp, sp->nfd2++, -1, cpu, false, fd)) {
			sp->refilter_off = true;
			break;
		}
		ioctl(sp->fd2[sp->nfd2 - 1], PERF_EVENT_IOC_ENABLE, 0);
	}
	ft_sampler_sort_ids(sp);
}

/*
 * ft_sampler_alloc_second - the second event's fds (none open) and ids, its filter on
 * @pids where it is per CPU (@per_task: the run has targets); -1 when out of memory
 */
int ft_sampler_alloc_second(struct ft_sampler *sp, bool per_task, const int *pids, int npids)
{
	int i, n = sp->ntgt * sp->ncpus;

	if (!sp->req.second)
		return 0;
	for (i = 0; sp->req2.pid_field && per_task && i < npids; i++)
		if (ft_sampler_add_ftid(sp, pids[i]))
			return -1;
	if (sp->nftid && pid_filter(sp))
		return -1;
	if (grow_second(sp, n))
		return -1;
	sp->nfd2 = n;
	for (i = 0; i < n; i++)
		sp->fd2[i] = -1;
	return 0;
}

/* ft_sampler_sort_ids - the second event's ids in order, for ft_sampler_is_second */
void ft_sampler_sort_ids(struct ft_sampler *sp)
{
	if (sp->nid2)
		qsort(sp->id2, sp->nid2, sizeof(*sp->id2), cmp_id);
}

/* ft_sampler_is_second - is @id the second event's? (a child's samples carry its parent's) */
bool ft_sampler_is_second(const struct ft_sampler *sp, uint64_t id)
{
	return sp->nid2 && bsearch(&id, sp->id2, sp->nid2, sizeof(id), cmp_id);
}
