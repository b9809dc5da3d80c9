// SPDX-License-Identifier: GPL-2.0
/*
 * A live run: the command and its targets, the instance and its events, the rounds
 * that read the rings into the pipeline (engine/pipeline.h) with the interval reports and
 * scrapes, then stop, drain, the recording and the final report.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <traceevent/event-parse.h>

#include "engine/clock_map.h"
#include "engine/pipeline.h"
#include "engine/stages.h"
#include "engine/tps.h"
#include "events/tool.h"
#include "lib/util.h"
#include "tracer/capture.h"
#include "tracer/command.h"
#include "tracer/reader.h"
#include "tracer/session.h"
#include "tracer/watch.h"

/* Longest sleep between rounds: bounds the delay of Ctrl-C-free reports and memory. */
#define MAX_WAIT_MS	1000
/* Longest sleep while a capture samples the traced processes' maps. */
#define CAPTURE_MAPS_MS	100
/*
 * How far behind the clock the live merge stays. A record is stamped when its
 * writer reserves it and becomes readable when the writer commits; a writer whose
 * vCPU the host stalls in between commits late, after records stamped later on
 * other CPUs were merged. Records that still arrive later are counted (unordered).
 */
#define COMMIT_LAG_NS	20000000ULL

/* targets - the pids for the in-kernel filter: threads of -p, -t, or the command */
static int targets(struct pipeline *p, const struct ft_child *child, int **pids, int *n)
{
	int i;

	if (ft_targets(&p->td, child ? child->pid : -1, pids, n))
		return -1;
	for (i = 0; i < *n; i++)
		ft_imap_put(&p->traced, (*pids)[i], 1);
	return 0;
}

/*
 * rescan_threads - threads of -p and --cgroup processes made between the first look at /proc and
 * tracing on escaped both the kernel's filter and ours: add them (later ones are
 * followed through event-fork and sched_process_fork)
 */
static int rescan_threads(struct pipeline *p, struct ft_session *s)
{
	int i, j, *tids = NULL, n = 0;

	for (i = 0; i < p->o->npids; i++)
		ft_pid_threads(p->o->pids[i], &tids, &n);
	for (i = 0; i < p->o->ncg; i++)
		ft_pid_threads(p->o->cg_pids[i], &tids, &n);
	for (j = 0; j < n; j++) {
		if (ft_imap_get(&p->traced, tids[j]))
			continue;
		if (ft_session_add_pid(s, tids[j])) {
			ft_err("cannot add thread %d to the pid filter: %s", tids[j], strerror(errno));
			free(tids);
			return -1;
		}
		ft_imap_put(&p->traced, tids[j], 1);
	}
	free(tids);
	return 0;
}

/* A live run's kernel-facing parts, shared by ft_run_live and its steps. */
struct live {
	struct ft_child		child;
	struct ft_session	s;
	struct tep_handle	*tep;
	struct ft_merge		m;
	struct ft_capture	cap;
	struct ft_flight	fl;		/* --flight, its rings made when cpu is set */
	struct ft_clock_map	ck;
	struct ft_watch		w;		/* the targets whose exit ends the run */
	uint64_t		gone_at;	/* when they were all seen gone, or 0 */
	int			*pids, npids;
	unsigned int		max_wait;
};

/*
 * stop_reason - why the main loop should end now, or 0 to go on. Every target of -p
 * and -t gone: the end COMMIT_LAG_NS later, so that their last switches are recorded.
 */
static int stop_reason(struct pipeline *p, struct live *l, uint64_t end, long reports)
{
	if (ft_stop_signal)
		return 1;
	if (p->o->cmd && ft_command_reap(&l->child))
		return 2;
	if (end && ft_now_ns() >= end)
		return 3;
	if (p->o->count && reports >= p->o->count)
		return 4;
	if (!l->gone_at && ft_watch_gone(&l->w))
		l->gone_at = ft_now_ns();
	if (l->gone_at && ft_now_ns() >= l->gone_at + COMMIT_LAG_NS)
		return 5;
	if (l->fl.done)		/* --trigger-max files written */
		return 6;
	return 0;
}

/* capture_round - sample the traced processes' maps; the progress line of a recording */
static void capture_round(struct pipeline *p, struct ft_session *s, const struct ft_child *child)
{
	unsigned long long ev = 0, lost = 0, bytes = 0;
	int cpu;

	ft_capture_maps(p->cap, p->o->pids, p->o->npids);
	if (child->pid > 0)
		ft_capture_maps(p->cap, &child->pid, 1);
	if (!p->run->record || !isatty(STDERR_FILENO))
		return;
	for (cpu = 0; cpu < s->ncpus; cpu++) {
		if (!s->tcpu[cpu])
			continue;
		ev += ft_session_read_events(s, cpu);
		lost += s->lost_seen[cpu];
		bytes += p->cap->bytes[cpu];
	}
	fprintf(stderr, "\r%llu events, %llu KiB written to %s, %llu lost ", ev,
		bytes / 1024, p->o->output, lost);
	p->progress = true;
}

/* tool_text - a file's VERSION text: probes, every task the filter held; NULL printed */
static char *tool_text(struct pipeline *p)
{
	struct ft_tool_probes tp = { 0 };
	char *tool;

	if (p->probes)
		tp = (struct ft_tool_probes){ p->probes->funcs, p->probes->ev, p->probes->nev };
	tool = ft_tool_text(&p->traced, p->follow, p->o->cpu_on, p->o->ncpus,
			    p->probes ? &tp : NULL);
	if (!tool)
		ft_err("out of memory");
	return tool;
}

/*
 * flight_round - --flight: a window whose end is merged (@to) written, the last SECS
 * on a SIGUSR2 (another came while it wrote: another file); at the @end, what is
 * left. 0, or -1 printed.
 */
static int flight_round(struct pipeline *p, struct live *l, uint64_t to, bool end)
{
	static sig_atomic_t seen;	/* the SIGUSR2s answered */
	bool dump = ft_dump_signal != seen;
	char *tool;
	int ret;

	seen = ft_dump_signal;
	if (!p->flight || (!end && !dump && !l->fl.nev && !l->fl.err))
		return 0;
	tool = tool_text(p);
	if (!tool)
		return -1;
	if (end)
		ret = ft_flight_end(&l->fl, p->last_ts, tool);
	else
		ret = dump ? ft_flight_dump(&l->fl, to, tool) : ft_flight_round(&l->fl, to, tool);
	free(tool);
	return ret;
}

/* capture_end - write the trace.dat with its VERSION text */
static int capture_end(struct pipeline *p, struct ft_capture *cap)
{
	char *tool = tool_text(p);
	int ret;

	if (p->progress)
		fputc('\n', stderr);
	if (ft_samples_keep(&p->sm))
		return -1;
	if (ft_capture_check(cap)) {
		free(tool);
		return -1;
	}
	ret = tool ? ft_capture_finish(cap, tool) : -1;
	free(tool);
	return ret;
}

/*
 * live_instance - the instance with its events, the output file, probes and the
 * formats. Returns 0, or the exit status after one line (the caller unwinds).
 */
static int live_instance(struct pipeline *p, struct live *l)
{
	struct ft_opts *o = p->o;
	struct ft_session *s = &l->s;
	char **ev;
	int e;

	if (ft_session_open(s, &p->td, p->need,
			    p->want | (p->filtered ? FT_NEED(FT_EV_FORK) : 0), l->pids, l->npids,
			    p->follow))
		return FT_EXIT_ERR;
	/* the output file first: an unwritable path fails before any report is begun */
	if (o->output && !o->flight.keep_s && ft_capture_open(&l->cap, o->output, s))
		return FT_EXIT_ERR;
	if (o->flight.keep_s &&
	    ft_flight_init(&l->fl, &o->flight, o->output, p->run->name,
			   p->run->stages.n ? p->run->stages.st[0].a->cli.latency : NULL, s,
			   &p->tasks))
		return FT_EXIT_ERR;
	for (ev = p->run->extra; ev && *ev; ev++)	/* ENOENT: the kernel lacks it */
		if (ft_session_enable(s, *ev))
			return errno == ENOENT ? FT_EXIT_NOFEAT : FT_EXIT_ERR;
	e = ft_tps_enable(p->tps, p->run->name, s);
	if (e)
		return e > 0 ? e : FT_EXIT_ERR;
	if (p->probes) {
		e = ft_probes_setup(p->probes, s, l->pids, l->npids, p->follow);
		if (e)
			return e > 0 ? e : FT_EXIT_ERR;
	}
	l->tep = ft_tep_load(ft_session_format_read, s, s->enabled, &s->pf, 0);
	if (!l->tep) {
		ft_err("cannot parse the event formats of instance %s: %s", s->name, strerror(errno));
		return FT_EXIT_ERR;
	}
	if (p->probes && ft_probes_formats(p->probes, ft_session_format_read, s, l->tep, false))
		return FT_EXIT_ERR;
	if (ft_tps_formats(p->tps, l->tep, ft_session_format_read, s, 0))
		return FT_EXIT_ERR;
	return 0;
}

/* live_start - counters, samples and tracing on, then the command let go; 0 or -1 */
static int live_start(struct pipeline *p, struct live *l)
{
	struct ft_opts *o = p->o;
	int e;

	if (p->pmu && ft_pmu_open_desc(p->pmu, &p->td, l->pids, l->npids))
		return -1;
	/* samples from before the first record: a switch's sample is there for its record */
	if (p->sm.req)
		ft_sampler_enable(&p->sm.sampler);
	if (ft_reader_setup(&l->s, &p->td, p->run->record) || ft_session_start(&l->s) ||
	    rescan_threads(p, &l->s))
		return -1;
	if (p->pmu)
		ft_pmu_enable(p->pmu);
	if (o->cmd) {
		e = ft_command_release(&l->child);
		if (e) {
			ft_err("cannot run '%s': %s", o->cmd[0], strerror(e));
			return -1;
		}
	} else if (!o->json) {
		fprintf(stderr, "Tracing... Hit Ctrl-C to end.\n");
	}
	return 0;
}

/* live_loop - rounds until the run ends, with the interval reports; 0, or -1 printed */
static int live_loop(struct pipeline *p, struct live *l)
{
	struct ft_opts *o = p->o;
	uint64_t start = ft_now_ns(), end = 0, next_report = 0, h, due, to;
	long reports = 0;

	if (o->duration)
		end = start + (uint64_t)(o->duration * 1e9);
	if (o->interval)
		next_report = start + (uint64_t)(o->interval * 1e9);
	while (!stop_reason(p, l, end, reports)) {
		uint64_t now = ft_now_ns(), wake = now + l->max_wait * 1000000ULL;
		struct pollfd pfd[FT_EXPORT_MAX_FDS + l->w.n];
		int npfd = ft_export_pollfds(&p->ex, pfd, FT_EXPORT_MAX_FDS);
		/* after the scrapes' fds, the targets': an exit wakes the loop */
		int nw = ft_watch_pollfds(&l->w, pfd + npfd, l->w.n);

		if (end && end < wake)
			wake = end;
		if (next_report && next_report + COMMIT_LAG_NS < wake)
			wake = next_report + COMMIT_LAG_NS;
		if (l->gone_at && l->gone_at + COMMIT_LAG_NS < wake)
			wake = l->gone_at + COMMIT_LAG_NS;
		if (wake > now)
			ft_samples_wait(&p->sm, &l->s, (int)((wake - now + 999999) / 1000000),
					pfd, npfd + nw);
		now = ft_now_ns();
		if (p->run->record ? ft_capture_splice(&l->cap, false) < 0 :
				     ft_reader_round(&l->s, &l->m) < 0)
			return -1;
		ft_reader_losses(&l->s, &l->m);
		/* -o FILE: a page that could not be written (a full disk) ends the run */
		if (p->cap && ft_capture_check(p->cap))
			return -1;
		if (p->cap)
			capture_round(p, &l->s, &l->child);
		ft_clock_learn(&l->ck, &l->m, ft_now_ns());
		/* every CPU has been read up to the start of this round, and records
		   stamped COMMIT_LAG_NS before it are committed: merge to there */
		now = now > COMMIT_LAG_NS ? now - COMMIT_LAG_NS : 0;
		h = ft_clock_at(&l->ck, now);
		if (l->s.complete_to < h)
			h = l->s.complete_to;
		/* an interval is due once merged to its end (at once when nothing was read) */
		due = next_report && (l->ck.known || !l->ck.other) ?
		      ft_clock_at(&l->ck, next_report) : 0;
		to = due && h >= due ? due : h;
		/* a recording keeps pace with no merge, and before the first record the
		   merge has no time: every sample goes then */
		ft_samples_round(&p->sm, p->run->record || !h ? UINT64_MAX : to);
		ft_merge_run(&l->m, to);
		if (flight_round(p, l, to, false))
			return -1;
		fflush(stdout);		/* rows printed as they came: a pipe's reader sees
					   them each round */
		if (next_report && (due ? h >= due : now >= next_report)) {
			/* the last of count: printed after the final drain, with what it read */
			if (++reports == o->count)
				break;
			ft_pipe_report(p, &l->m, false);
			next_report += (uint64_t)(o->interval * 1e9);
		}
		if (npfd)	/* scrapes: answered with what is merged now */
			ft_export_serve(&p->ex, pfd, npfd, ft_pipe_events(p, &l->m));
	}
	return 0;
}

/* live_finish - stop, drain everything, write -o FILE, the final report; 0 or -1 */
static int live_finish(struct pipeline *p, struct live *l)
{
	int i;

	ft_session_stop(&l->s);
	if (p->pmu)
		ft_pmu_disable(p->pmu);
	if (p->sm.req) {
		ft_sampler_disable(&p->sm.sampler);
		ft_samples_round(&p->sm, UINT64_MAX);
	}
	if (p->run->record) {
		if (ft_capture_splice(&l->cap, true) < 0)
			return -1;
	} else {
		while (ft_reader_round(&l->s, &l->m) > 0)
			;
	}
	ft_reader_losses(&l->s, &l->m);
	ft_reader_realtime_end(&l->s);
	ft_merge_run(&l->m, UINT64_MAX);
	ft_merge_flush_losses(&l->m);
	if (p->cap && capture_end(p, &l->cap))
		return -1;
	if (flight_round(p, l, UINT64_MAX, true))
		return -1;
	if (p->o->verbose)
		ft_reader_counts(&l->s);
	/* an analyzer names the CPUs it reports; a recording those its file holds */
	for (i = 0; l->s.offline && i < l->s.ncpus; i++)
		if (!cpu_counted(p, i))
			l->s.offline[i] = 0;
	p->foot.offline = l->s.offline;
	p->foot.online_again = l->s.online_again;
	p->foot.uevents_lost = l->s.uevents_lost;
	return ft_pipe_report(p, &l->m, true);
}

/* ft_trace_desc_of - the tracer's part of the options @o: tasks, CPUs, buffer, reading */
void ft_trace_desc_of(struct ft_trace_desc *d, const struct ft_opts *o)
{
	*d = (struct ft_trace_desc){
		.pids = o->pids, .npids = o->npids, .tids = o->tids, .ntids = o->ntids,
		.cg_pids = o->cg_pids, .ncg = o->ncg, .cgroup = o->cgroup,
		.cmd = o->cmd, .all = o->all,
		.cpu_on = o->cpu_on, .cpus_named = o->cpu_arg != NULL, .ncpus = o->ncpus,
		.clock = o->clock, .buffer_kb = o->buffer_kb,
		.mmap = o->mmap, .rt_prio = o->rt_prio, .verbose = o->verbose,
	};
}

/* ft_run_live - trace: the whole lifecycle with unwinding on every path */
int ft_run_live(struct pipeline *p)
{
	struct ft_opts *o = p->o;
	struct live l = { .child = { .pid = -1, .go_fd = -1, .err_fd = -1 },
			  .ck = { .other = o->clock && strcmp(o->clock, "mono") } };
	int ret = FT_EXIT_ERR, e;

	if (geteuid() != 0) {
		ft_err("tracing needs root (tracefs and its instances belong to root)");
		return FT_EXIT_ERR;
	}
	ft_trace_desc_of(&p->td, o);
	l.max_wait = ft_stages_max_wait(&p->run->stages, MAX_WAIT_MS);
	/* a capture samples the traced processes' maps each round: short-lived ones
	   need rounds often enough to be seen alive */
	if (o->output && (o->cmd || o->npids) && l.max_wait > CAPTURE_MAPS_MS)
		l.max_wait = CAPTURE_MAPS_MS;
	if (o->cmd && (ft_command_check(o->cmd) || ft_command_spawn(&l.child, o->cmd)))
		goto out_child;
	if (ft_imap_init(&p->traced, 64))
		goto out_child;
	/* events of no task (interrupts): a command only bounds the run */
	if (!p->run->whole_system &&
	    targets(p, o->cmd ? &l.child : NULL, &l.pids, &l.npids))
		goto out_child;
	if (ft_watch_open(&l.w, &p->td, o->cmd ? l.child.pid : -1))
		goto out_child;
	p->filtered = l.npids > 0;
	p->follow = l.npids > 0 && (o->npids || o->ncg || o->cmd);
	e = live_instance(p, &l);
	if (e) {
		ret = e;
		goto out_session;
	}
	p->flight = o->flight.keep_s ? &l.fl : NULL;	/* the analyzer's measures */
	if (ft_merge_init(&l.m, &l.s.pf, l.s.ncpus, ft_pipe_raws, p)) {
		ft_err("out of memory");
		goto out_session;
	}
	if (ft_pipe_init(p, l.tep, l.s.ncpus, true))
		goto out_an;	/* the analyzers that began end there */
	if (ft_samples_open(&p->sm, &p->td, o->output != NULL, l.pids, l.npids))
		goto out_an;
	if (p->flight) {		/* the pages go to its rings; SIGUSR2 writes them */
		ft_install_dump_signal();
		l.m.tap = ft_flight_tap;
		l.m.tap_ctx = &l.fl;
	} else if (o->output) {
		p->cap = &l.cap;
		p->sm.cap = &l.cap;
		if (!p->run->record) {
			l.m.tap = ft_capture_tap;
			l.m.tap_ctx = &l.cap;
		}
	}
	if (live_start(p, &l) || live_loop(p, &l) || live_finish(p, &l))
		goto out_an;
	ret = FT_EXIT_OK;
out_an:
	ft_capture_close(&l.cap);
	ft_stages_fini(&p->run->stages);
	ft_pipe_fini(p);
	ft_merge_fini(&l.m);
out_session:
	ft_flight_fini(&l.fl);
	ft_samples_fini(&p->sm);
	ft_capture_close(&l.cap);	/* again after out_an: it is idempotent */
	if (l.tep)
		tep_free(l.tep);
	ft_session_close(&l.s);
	if (p->probes)
		ft_probes_close(p->probes);	/* probes go once no instance uses them */
out_child:
	/* a command we never released must not run untraced */
	if (o->cmd && l.child.pid > 0 && l.child.go_fd >= 0)
		ft_command_kill(&l.child);
	if (o->cmd)
		ft_command_finish(&l.child, o->cmd, o->keep_cmd);
	ft_watch_close(&l.w);
	free(l.pids);
	ft_imap_fini(&p->traced);
	return ret;
}
