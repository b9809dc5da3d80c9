// SPDX-License-Identifier: GPL-2.0
/*
 * A run's samples (engine/samples.h). Live, each round drains the rings before the
 * records are merged; offline, every kept sample is replayed before the records.
 * Either way an analyzer that matches samples to records has them first.
 */
#include <limits.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/samples.h"
#include "events/source.h"
#include "events/tasks.h"
#include "lib/util.h"
#include "tracer/capture.h"
#include "tracer/reader.h"
#include "tracer/sampler_event.h"

/* How far past the merge a round's samples go: a switch's sample is stamped up to
   57 us after its record (offcpu --stacks perf, measured), so 1 ms is ample. */
#define SAMPLE_AHEAD_NS	1000000ULL

/*
 * ft_samples_prepare - what the analyzers of @st sample; live, resolved (the event
 * named, the defaults filled in). Returns 0, or -1 after one line.
 */
int ft_samples_prepare(struct ft_samples *sm, const struct ft_stages *st, bool live,
		       const char *clock)
{
	int n, id;

	sm->req = ft_stages_sampling(st, &n);
	sm->askers = st;
	if (n > 1) {
		ft_err("one run samples one event: only one of its analyzers may sample "
		       "(profile, offcpu --stacks perf)");
		return -1;
	}
	if (!sm->req || !live)
		return 0;
	if (ft_sampler_clock(clock, &id) < 0) {
		ft_err("samples cannot be stamped on the %s clock: use mono (the default), boot, "
		       "mono_raw, tai, perf or local", clock);
		return -1;
	}
	if (ft_sampler_resolve(&sm->sampler, sm->req))
		return -1;
	sm->req = &sm->sampler.req;
	return 0;
}

/*
 * ft_samples_open - live: the rings on the run's targets, the samplers' names kept
 * when @named (-o FILE); 0, or -1 after one line
 */
int ft_samples_open(struct ft_samples *sm, const struct ft_trace_desc *d, bool named,
		    const int *pids, int npids)
{
	if (!sm->req)
		return 0;
	if (named && ft_tab_init(&sm->names, sizeof(struct ft_sample_comm))) {
		ft_err("out of memory");
		return -1;
	}
	return ft_sampler_open(&sm->sampler, d, pids, npids);
}

/* name - -o FILE: a sampled thread's name, as the kernel gave it or as it is now */
static int name(struct ft_samples *sm, const struct ft_sample *s)
{
	struct ft_sample_comm *c;

	if (s->tid < 0)		/* perf's -1: no task (the table takes no such key) */
		return 0;
	c = ft_tab_find(&sm->names, s->tid);
	if (c && !s->comm)
		return 0;
	if (!c && !(c = ft_tab_get(&sm->names, s->tid)))
		return -1;
	snprintf(c->comm, sizeof(c->comm), "%s", s->comm ? s->comm :
		 s->tid ? ft_tasks_comm(sm->tasks, s->tid) : "swapper");
	return 0;
}

/* on_sample - one sample to the analyzers (and to -o FILE's blob) */
static void on_sample(void *ctx, const struct ft_sample *s)
{
	struct ft_samples *sm = ctx;

	/* -p on a file: the samples come before the records that show threads made, so
	   a thread is known by its process too */
	if (s->cpu < 0 || s->cpu >= sm->ncpus || (sm->cpu_on && !sm->cpu_on[s->cpu]) ||
	    (sm->shown && !ft_imap_get(sm->shown, s->tid) && !ft_imap_get(sm->shown, s->pid)))
		return;
	if (sm->cap && !sm->keep_failed && !s->event &&
	    (ft_sample_blob_add(&sm->keep, &sm->keep_len, &sm->keep_cap, s) || name(sm, s)))
		sm->keep_failed = true;
	if (sm->stages)
		ft_stages_sample(sm->stages, s);
}

/*
 * ft_samples_round - live: the samples up to @upto (the time the records are merged
 * to), and SAMPLE_AHEAD_NS more, to the analyzers: an interval holds its own (and
 * the next one's first millisecond), and a switch's sample (stamped microseconds
 * after its record) comes before the record
 */
void ft_samples_round(struct ft_samples *sm, uint64_t upto)
{
	if (!sm->req)
		return;
	if (upto < UINT64_MAX - SAMPLE_AHEAD_NS)
		upto += SAMPLE_AHEAD_NS;
	if (ft_sampler_drain(&sm->sampler, upto, on_sample, sm))
		sm->counts.bad++;
	sm->counts = sm->sampler.counts;
}

/*
 * ft_samples_wait - live: sleep as ft_reader_wait does, waking too at a ring's
 * watermark or at one of the caller's @nextra fds (their revents set on return)
 */
void ft_samples_wait(struct ft_samples *sm, struct ft_session *s, int timeout_ms,
		     struct pollfd *extra, int nextra)
{
	struct pollfd pfd[(sm->req ? sm->sampler.ncpus : 0) + nextra + 1];
	int n = sm->req ? ft_sampler_pollfds(&sm->sampler, pfd, sm->sampler.ncpus) : 0, i;

	memcpy(pfd + n, extra, nextra * sizeof(*pfd));
	ft_reader_wait(s, timeout_ms, pfd, n + nextra);
	memcpy(extra, pfd + n, nextra * sizeof(*pfd));
	/* a ring whose task is gone polls as hung up at once, ever after */
	for (i = 0; i < n; i++)
		if (pfd[i].revents & (POLLHUP | POLLERR))
			ft_sampler_hangup(&sm->sampler, pfd[i].fd);
}

/* keep_maps - ft_smaps_each callback: a sampled process's maps into the trace.dat */
static void keep_maps(void *ctx, int pid, const char *text)
{
	ft_capture_set_maps(ctx, pid, text);
}

/*
 * ft_samples_keep - -o FILE: the samples go into the trace.dat, after their header,
 * with the last mappings of every sampled process
 */
int ft_samples_keep(struct ft_samples *sm)
{
	unsigned char *head, *all;
	size_t hlen;

	if (!sm->req || !sm->cap)
		return 0;
	if (sm->keep_failed || ft_sample_blob_head(&head, &hlen, sm->req, &sm->counts,
						   (const void *)sm->names.rec, sm->names.n) ||
	    !(all = malloc(hlen + sm->keep_len))) {
		ft_err("out of memory keeping the samples for %s", sm->cap->path);
		return -1;
	}
	memcpy(all, head, hlen);
	if (sm->keep_len)
		memcpy(all + hlen, sm->keep, sm->keep_len);
	free(head);
	free(sm->keep);
	sm->keep = all;
	sm->keep_len = sm->keep_cap = hlen + sm->keep_len;
	sm->cap->samples = all;
	sm->cap->samples_len = sm->keep_len;
	if (sm->sampler.maps_on)
		ft_smaps_each(&sm->sampler.maps, keep_maps, sm->cap);
	return 0;
}

/* file_names - -i: the names the file kept of the sampled threads; -1 printed */
static int file_names(struct ft_samples *sm)
{
	struct ft_sample_comm c, *e;
	uint32_t i;

	if (ft_tab_init(&sm->names, sizeof(struct ft_sample_comm))) {
		ft_err("out of memory");
		return -1;
	}
	for (i = 0; i < sm->file.ncomm; i++) {
		ft_sample_file_comm(&sm->file, i, &c);
		e = ft_tab_get(&sm->names, (int)c.tid);
		if (!e) {
			ft_err("out of memory");
			return -1;
		}
		memcpy(e->comm, c.comm, sizeof(c.comm));
	}
	return 0;
}

/*
 * same_event - does a file sampled as @f hold what @r asks: its event, each one of it,
 * or, for time samples at a rate, time samples at any?
 */
static bool same_event(const struct ft_sample_req *f, const struct ft_sample_req *r)
{
	if (r->freq && ft_sample_is_cpu_clock(r->event))
		return ft_sample_is_cpu_clock(f->event);
	return f->event && r->event && !strcmp(f->event, r->event) && f->period == r->period &&
	       !f->freq;
}

/*
 * ft_samples_of_file - -i: the samples @src kept; -1 after one line when it has none
 * (an optional request is then declined: its analyzer goes on without)
 */
int ft_samples_of_file(struct ft_samples *sm, struct ft_source *src, const char *input,
		       const char *name)
{
	const struct ft_blob *b = src->is_tdat ? &src->tdat.samples : NULL;
	bool has = b && b->len;
	char why[160];

	if (!sm->req)
		return 0;
	if (has && ft_sample_file_open(&sm->file, b->data, b->len)) {
		if (!sm->req->optional) {
			ft_err("%s: its samples are damaged", input);
			return -1;
		}
		has = false;	/* the default goes without them */
	}
	if (sm->req->optional && (!has || !same_event(&sm->file.req, sm->req))) {
		snprintf(why, sizeof(why), "%s holds no samples of %s%s", input,
			 sm->req->freq ? "" : "every ",
			 sm->req->event ? sm->req->event : "cpu-clock");
		ft_stages_decline(sm->askers, why);
		sm->req = NULL;
		return 0;
	}
	if (!has) {
		ft_err("%s holds no perf samples for %s (a live run with -o FILE keeps them)",
		       input, name);
		return -1;
	}
	sm->req = &sm->file.req;
	sm->counts = sm->file.counts;
	sm->counts.samples = 0;		/* counted again as they are read */
	return file_names(sm);
}

/* ft_samples_replay - -i: every kept sample to the analyzers, before the records */
void ft_samples_replay(struct ft_samples *sm)
{
	uint64_t ip[2 * FT_SAMPLE_MAX_STACK];
	struct ft_sample s;
	int r;

	if (!sm->req)
		return;
	while ((r = ft_sample_file_next(&sm->file, &s, ip)) > 0) {
		const struct ft_sample_comm *c = ft_tab_find(&sm->names, s.tid);

		s.comm = c && c->comm[0] ? c->comm : NULL;
		sm->counts.samples++;
		on_sample(sm, &s);
	}
	if (r < 0)
		sm->counts.bad++;
}

/*
 * say_damaged - one line for a binary whose call frame information is damaged, by its
 * name (a file the sampler holds open is named by a /proc link: the file it points to)
 */
static void say_damaged(void *ctx, const char *path, unsigned int n)
{
	char name[PATH_MAX];
	ssize_t len = strncmp(path, "/proc/", 6) ? -1 : readlink(path, name, sizeof(name) - 1);

	if (len > 0)
		name[len] = '\0';
	ft_err("%s: %u entries of its call frame information (.eh_frame, .debug_frame) are "
	       "damaged: user stacks through their code stop there", len > 0 ? name : path, n);
}

/* ft_samples_fini - close the rings, free the kept samples (idempotent) */
void ft_samples_fini(struct ft_samples *sm)
{
	ft_unwinder_damaged(sm->sampler.unw, say_damaged, NULL);
	ft_sampler_close(&sm->sampler);
	FT_FREE(sm->keep);
	ft_tab_fini(&sm->names);
}
