// SPDX-License-Identifier: GPL-2.0
/*
 * The analyzers one run drives. Alone, an analyzer prints to stdout. In sections
 * (report), each prints what it would alone: while events flow into a temporary file
 * of its own, copied out in order at each report. All name tasks in the pipeline's
 * table, which the pipeline keeps current before each record reaches them.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine/stages.h"
#include "events/tdat.h"
#include "lib/util.h"
#include "output/json.h"
#include "tracer/pmu.h"
#include "tracer/sampler.h"
#include "tracer/sampler_event.h"

/* ft_stages_events - the events every analyzer needs and wants, for its options */
void ft_stages_events(const struct ft_stages *s, unsigned int *need, unsigned int *want)
{
	int i;

	for (i = 0; i < s->n; i++) {
		*need |= s->st[i].a->need;
		*want |= s->st[i].a->want;
		if (s->st[i].a->events)
			s->st[i].a->events(s->st[i].priv, need, want);
	}
}

/* ft_stages_tps - the tracepoints every analyzer reads by name, chained */
struct ft_tp *ft_stages_tps(const struct ft_stages *s)
{
	struct ft_tp *all = NULL;
	int i;

	for (i = 0; i < s->n; i++)
		if (s->st[i].a->tracepoints)
			all = ft_tp_append(all, s->st[i].a->tracepoints(s->st[i].priv));
	return all;
}

/* req_of - stage @i's sampling request, or NULL */
static const struct ft_sample_req *req_of(const struct ft_stages *s, int i)
{
	return s->st[i].a->sampling ? s->st[i].a->sampling(s->st[i].priv) : NULL;
}

/* optional_req - stage @i's request when it is optional (an analyzer's default), else NULL */
static const struct ft_sample_req *optional_req(const struct ft_stages *s, int i)
{
	const struct ft_sample_req *r = req_of(s, i);

	return r && r->optional ? r : NULL;
}

/* decline - stage @i goes without its optional request, for the reason @why */
static void decline(const struct ft_stages *s, int i, const char *why)
{
	if (s->st[i].a->sampling_declined)
		s->st[i].a->sampling_declined(s->st[i].priv, why);
}

/* ft_stages_decline - each analyzer whose request is optional goes without (@why) */
void ft_stages_decline(const struct ft_stages *s, const char *why)
{
	int i;

	for (i = 0; i < s->n; i++)
		if (optional_req(s, i))
			decline(s, i, why);
}

/*
 * refusal - live: why optional request @r cannot be sampled (into @why), or NULL: the
 * trace clock has no perf twin, or the kernel refuses perf_event_open on its event
 * (asked as root only: without root the run stops at its own check with one line)
 */
static const char *refusal(const struct ft_sample_req *r, const char *clock, char *why,
			   size_t len)
{
	int id, err;

	if (ft_sampler_clock(clock, &id) < 0) {
		snprintf(why, len, "samples cannot be stamped on the %s clock", clock);
		return why;
	}
	if (geteuid() || !r->event)
		return NULL;
	err = ft_pmu_can_sample(r->event);
	if (!err)
		return NULL;
	snprintf(why, len, "perf_event_open refused %s: %s", r->event, strerror(err));
	return why;
}

/*
 * second - the second event of stage @i's request yields where the run keeps its
 * samples in a file (@keep: the file holds one event) or, live, the kernel refuses it
 */
static void second(const struct ft_stages *s, int i, bool live, bool keep, const char *clock)
{
	const struct ft_sample_req *r = req_of(s, i);
	char why[160];

	if (!r || !r->second || !s->st[i].a->second_declined)
		return;
	if (keep)
		snprintf(why, sizeof(why), "a recording keeps one sampled event (%s)",
			 r->event ? r->event : "cpu-clock");
	else if (!live || !refusal(r->second, clock, why, sizeof(why)))
		return;
	s->st[i].a->second_declined(s->st[i].priv, why);
}

/**
 * ft_stages_negotiate - a run has one set of sampling rings: an optional request
 * (an analyzer's default) yields to one asked for, then to the first optional one;
 * live, the one left yields where it cannot be sampled (refusal), and its second
 * event where the run keeps its samples (@keep: -o FILE) or the kernel refuses it.
 * Before ft_stages_events: a declined analyzer asks for other events instead.
 */
void ft_stages_negotiate(const struct ft_stages *s, bool live, bool keep, const char *clock)
{
	const struct ft_sample_req *r;
	int i, taker = -1;
	char why[160];

	for (i = 0; i < s->n; i++)
		if (req_of(s, i) && (taker < 0 || (!optional_req(s, i) && optional_req(s, taker))))
			taker = i;
	if (taker < 0)
		return;
	snprintf(why, sizeof(why), "%s samples this run (one event a run)",
		 s->st[taker].a->cli.name);
	for (i = 0; i < s->n; i++)
		if (i != taker && optional_req(s, i))
			decline(s, i, why);
	r = optional_req(s, taker);
	if (live && r && refusal(r, clock ? clock : "mono", why, sizeof(why)))
		decline(s, taker, why);
	second(s, taker, live, keep, clock ? clock : "mono");
}

/*
 * ft_stages_sampling - what the analyzers sample: the first request, or NULL; *@n
 * says how many ask (a run has one set of rings)
 */
const struct ft_sample_req *ft_stages_sampling(const struct ft_stages *s, int *n)
{
	const struct ft_sample_req *r, *first = NULL;
	int i;

	*n = 0;
	for (i = 0; i < s->n; i++) {
		r = req_of(s, i);
		if (!r)
			continue;
		first = first ? first : r;
		(*n)++;
	}
	return first;
}

/* ft_stages_sample - one sample to every analyzer that samples */
void ft_stages_sample(struct ft_stages *s, const struct ft_sample *smp)
{
	int i;

	for (i = 0; i < s->n; i++)
		if (s->st[i].a->sample)
			s->st[i].a->sample(s->st[i].priv, smp);
}

/* ft_stages_max_wait - live: the shortest read interval any analyzer asks for */
unsigned int ft_stages_max_wait(const struct ft_stages *s, unsigned int dflt)
{
	unsigned int w = dflt;
	int i;

	for (i = 0; i < s->n; i++)
		if (s->st[i].a->max_wait_ms && s->st[i].a->max_wait_ms < w)
			w = s->st[i].a->max_wait_ms;
	return w;
}

/* ft_stages_init - each analyzer over @env; in sections, with its own output */
int ft_stages_init(struct ft_stages *s, const struct ft_env *env)
{
	int i;

	for (i = 0; i < s->n; i++) {
		struct ft_stage *st = &s->st[i];

		st->env = *env;
		if (s->sections) {
			/* JSON rows name their analyzer: they go out as they come, never
			   inside a report's object */
			st->out = env->json ? NULL : tmpfile();
			if (!st->out && !env->json) {
				ft_err("cannot set up %s: %m", st->a->cli.name);
				return -1;
			}
			st->env.out = st->out ? st->out : env->out;
		}
		if (st->a->init(st->priv, &st->env))
			return -1;	/* init printed why */
		st->inited = true;
	}
	return 0;
}

/* drain - copy what a section printed so far to @f, and start its file again */
static void drain(struct ft_stage *st, FILE *f)
{
	char buf[65536];
	size_t n;

	if (!st->out)
		return;
	fflush(st->out);
	rewind(st->out);
	while ((n = fread(buf, 1, sizeof(buf), st->out)) > 0)
		fwrite(buf, 1, n, f);
	rewind(st->out);
	if (ftruncate(fileno(st->out), 0))
		ft_err("cannot reuse a temporary file: %m");
}

/*
 * ft_stages_head - a report's start: with @j, its JSON object (analyzer @name, final,
 * time); without, an interval report's blank line and, with @timestamps, the time
 */
void ft_stages_head(struct ft_report *r, struct ft_json *j, const char *name, bool timestamps)
{
	char tbuf[32];
	time_t now;

	if (j) {
		ft_json_init(j, r->f);
		r->json = j;
		ft_json_obj_begin(j, NULL);
		ft_json_str(j, "analyzer", name);
		ft_json_bool(j, "final", r->final);
		ft_json_u64(j, "time_ns", r->ts);
		ft_json_u64(j, "start_ns", r->start);
	} else if (r->interval && timestamps) {
		now = time(NULL);
		strftime(tbuf, sizeof(tbuf), "%H:%M:%S", localtime(&now));
		fprintf(r->f, "\n%s\n", tbuf);
	} else if (r->interval) {
		fputc('\n', r->f);
	}
}

/* ft_stages_report - alone, the analyzer's report; in sections, each under its title */
void ft_stages_report(struct ft_stages *s, struct ft_report *r)
{
	int i;

	if (!s->sections) {
		for (i = 0; i < s->n; i++)
			s->st[i].a->report(s->st[i].priv, r);
		return;
	}
	if (r->json)
		ft_json_arr_begin(r->json, "reports");
	for (i = 0; i < s->n; i++) {
		struct ft_report sub = *r;

		sub.footer = NULL;
		if (r->json) {
			ft_json_obj_begin(r->json, NULL);
			ft_json_str(r->json, "analyzer", s->st[i].a->cli.name);
		} else {
			fprintf(r->f, "%s==> %s <==\n", i ? "\n" : "", s->st[i].title);
		}
		drain(&s->st[i], r->f);
		/* what it still holds back (timehist's queued rows) goes out in its place */
		s->st[i].env.out = r->f;
		s->st[i].a->report(s->st[i].priv, &sub);
		r->failed |= sub.failed;
		s->st[i].env.out = s->st[i].out ? s->st[i].out : r->f;
		if (r->json)
			ft_json_obj_end(r->json);
	}
	if (r->json)
		ft_json_arr_end(r->json);
}

/* ft_stages_reset - after an interval report: each analyzer forgets the interval */
void ft_stages_reset(struct ft_stages *s)
{
	int i;

	for (i = 0; i < s->n; i++)
		if (s->st[i].a->reset)
			s->st[i].a->reset(s->st[i].priv);
}

/* ft_stages_fini - end each analyzer that began, and what its section held */
void ft_stages_fini(struct ft_stages *s)
{
	int i;

	for (i = 0; i < s->n; i++) {
		struct ft_stage *st = &s->st[i];

		if (st->inited)
			st->a->fini(st->priv);
		st->inited = false;
		if (st->out)
			fclose(st->out);
		st->out = NULL;
	}
}
