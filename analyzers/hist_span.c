// SPDX-License-Identifier: GPL-2.0
/*
 * hist --from SYS:EV --to SYS:EV --match F[=G]: the time from one event to another
 * of the same key, as a latency histogram (BCC's layout, count and percentiles), as
 * ftrace's synthetic events (onmatch), bpftrace's @start[tid] = nsecs maps and BCC's
 * argdist compute it, here from the records in user space (live and with -i alike).
 *
 * Pairing: a start (a --from record passing --from-filter) is kept per match key; an
 * end (a --to record passing --to-filter) pairs with the pending start of its key and
 * takes it. A second start before an end replaces the first (the latest unmatched
 * start wins, as onmatch's variables and a bpftrace map hold the last write): counted
 * as restarted. An end with no pending start is counted. Starts still pending at the
 * end are counted as never matched. When --from and --to are one event, a record ends
 * its key's span before it starts one (sched_switch: prev_pid starts, next_pid ends).
 *
 * Lost events: the lost records may hold the end or a restart of any pending start,
 * whatever CPU it was made on (a span may end on another CPU), so every pending start
 * is dropped and counted, as runqlat drops its pending wakeups; the pipeline reports
 * the losses themselves as for every analyzer.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyzers/hist_filter.h"
#include "analyzers/hist_span.h"
#include "events/tasks.h"
#include "lib/intern.h"
#include "lib/util.h"
#include "output/hset.h"
#include "output/json.h"
#include "output/metrics.h"

#define HS_SLOTS	(1 + HF_MAX_NAMES)

/* Where a field's value comes from: the record's field, or the task, pid or CPU. */
enum { HS_FIELD, HS_COMM, HS_PID, HS_CPU };

/* The pseudo-fields; comm, pid and cpu only where the event has no such field. */
static const struct { const char *name; int src; bool always; } hs_pseudo[] = {
	{ "common_comm", HS_COMM, true }, { "common_pid", HS_PID, true },
	{ "common_cpu", HS_CPU, true }, { "comm", HS_COMM, false },
	{ "pid", HS_PID, false }, { "cpu", HS_CPU, false },
};

struct hs_slot {
	const char	*name;
	int		src;		/* HS_*, once the format is known */
	int		pseudo;		/* HS_FIELD, or what stands in when the event lacks it */
	int		k;		/* field k of tp (of tpx, the optional ones, if opt) */
	bool		opt, is_str, is_unsigned;
};

/* One end of the span: its event, filter and match field. */
struct hs_side {
	const char		*which;		/* "--from", "--to" */
	const char		*spec;		/* SYS:EV as given */
	char			*sys, *ev;	/* its copy, split at ':' */
	const char		*filter_text, *match;
	struct hist_filter	flt;
	struct ft_tp		tp, tpx;	/* the event; its comm/pid/cpu fields if any */
	struct hs_slot		slot[HS_SLOTS];
	int			nslots, match_slot;
	bool			task_match;	/* the match field names a task (*pid) */
	uint64_t		records, filtered;
};

/* A start waiting for its end. */
struct hs_pend {
	uint64_t	ts;
	bool		live;
};

struct hist_span {
	const struct ft_env	*env;
	struct hs_side		side[2];	/* from, to */
	char			*matcharg;
	struct ft_hset		h;
	struct ft_intern	keys;		/* match key -> dense id */
	struct hs_pend		*pend;
	size_t			npend_cap;
	uint64_t		pending, spans, restarts, unstarted, dropped, oom, own;
	int			self;
};

/* side_event - SYS:EV of --from or --to, once (@arg lives as long as the run) */
static int side_event(struct hs_side *s, const char *arg)
{
	if (s->spec) {
		ft_err("%s given twice", s->which);
		return FT_OPT_REPORTED;
	}
	s->spec = arg;
	s->sys = strdup(arg);
	if (!s->sys)
		return -1;
	s->ev = strchr(s->sys, ':');
	if (s->ev)
		*s->ev++ = 0;
	if (s->ev && ft_tp_name_ok(s->sys) && ft_tp_name_ok(s->ev))
		return 0;
	ft_err("bad %s '%s': expected SYSTEM:EVENT", s->which, arg);
	return FT_OPT_REPORTED;
}

/* side_filter - --from-filter or --to-filter EXPR */
static int side_filter(struct hs_side *s, const char *opt, const char *arg)
{
	char err[256];

	hf_free(&s->flt);
	s->filter_text = arg;
	if (hf_parse(&s->flt, arg, err, sizeof(err))) {
		ft_err("bad %s '%s': %s", opt, arg, err);
		return FT_OPT_REPORTED;
	}
	return 0;
}

/* parse_match - --match F[=G]: F of --from, G of --to (G defaults to F) */
static int parse_match(struct hist_span *s, const char *arg)
{
	char *eq;

	free(s->matcharg);
	s->matcharg = strdup(arg);
	if (!s->matcharg)
		return -1;
	eq = strchr(s->matcharg, '=');
	if (eq)
		*eq++ = 0;
	s->side[0].match = s->matcharg;
	s->side[1].match = eq ? eq : s->matcharg;
	if (!ft_tp_name_ok(s->side[0].match) || !ft_tp_name_ok(s->side[1].match)) {
		ft_err("bad --match '%s': expected FIELD or FROM_FIELD=TO_FIELD", arg);
		return FT_OPT_REPORTED;
	}
	return 0;
}

/* hist_span_opt - the span's options; made on the first of them */
int hist_span_opt(struct hist_span **sp, int opt, const char *arg)
{
	struct hist_span *s = *sp;

	if (!s) {
		s = *sp = calloc(1, sizeof(*s));
		if (!s)
			return -1;
		s->side[0].which = "--from";
		s->side[1].which = "--to";
		s->h.unit = &ft_unit_us;
	}
	switch (opt) {
	case HS_OPT_FROM:		return side_event(&s->side[0], arg);
	case HS_OPT_TO:			return side_event(&s->side[1], arg);
	case HS_OPT_MATCH:		return parse_match(s, arg);
	case HS_OPT_FROM_FILTER:	return side_filter(&s->side[0], "--from-filter", arg);
	case HS_OPT_TO_FILTER:		return side_filter(&s->side[1], "--to-filter", arg);
	case HS_OPT_MS:			s->h.unit = &ft_unit_ms; return 0;
	case HS_OPT_US:			s->h.unit = &ft_unit_us; return 0;
	case HS_OPT_NS:			s->h.unit = &ft_unit_ns; return 0;
	}
	return -1;
}

/* slot_find - the slot of field @name on side @d, or -1 */
static int slot_find(const struct hs_side *d, const char *name)
{
	int i = d->nslots;

	while (--i >= 0 && strcmp(d->slot[i].name, name))
		;
	return i;
}

/* add_slot - the slot of field @name on side @d, made on first use; -1 when too many */
static int add_slot(struct hs_side *d, const char *name)
{
	struct hs_slot *sl = &d->slot[d->nslots];
	struct ft_tp *tp;
	size_t j;

	if (slot_find(d, name) >= 0)
		return slot_find(d, name);
	*sl = (struct hs_slot){ .name = name, .src = HS_FIELD, .pseudo = HS_FIELD };
	for (j = 0; j < sizeof(hs_pseudo) / sizeof(hs_pseudo[0]); j++)
		if (!strcmp(hs_pseudo[j].name, name)) {
			sl->pseudo = hs_pseudo[j].src;
			sl->src = hs_pseudo[j].always ? sl->pseudo : HS_FIELD;
			sl->opt = !hs_pseudo[j].always;
		}
	if (sl->src != HS_FIELD)
		return d->nslots++;
	/* a field of the event: comm, pid, cpu in tpx, whose fields may be missing */
	tp = sl->opt ? &d->tpx : &d->tp;
	while (sl->k < FT_TP_FIELDS && tp->field[sl->k])
		sl->k++;
	if (sl->k == FT_TP_FIELDS) {
		ft_err("hist reads at most %d fields of an event", FT_TP_FIELDS);
		return -1;
	}
	tp->field[sl->k] = name;
	return d->nslots++;
}

/* check_side - the side's event is given; its match and filter fields get slots */
static int check_side(struct hs_side *d)
{
	int i;

	d->match_slot = add_slot(d, d->match ? d->match : "common_pid");
	if (d->match_slot < 0)
		return -1;
	for (i = 0; i < d->flt.nnames; i++)
		if (add_slot(d, d->flt.names[i]) < 0)
			return -1;
	return 0;
}

/*
 * hist_span_check - the span's options against hist's: -e, --value, --filter and the
 * table's --top and --max-keys (@table) do not apply
 */
int hist_span_check(struct hist_span *s, const struct ft_env *env, const char *event,
		    char *const *keys, int nkeys, const char *value, const char *filter,
		    bool table)
{
	(void)env;
	if (table) {
		ft_err("--top and --max-keys shape hist's table: with --from and --to, --key "
		       "tid|pid|cpu gives one histogram per group");
		return -1;
	}
	if (event || value || filter) {
		ft_err("%s reads one event: with --from and --to, use %s", event ? "-e" :
		       value ? "--value" : "--filter", filter ? "--from-filter and --to-filter" :
		       "--from, --to and --key");
		return -1;
	}
	if (nkeys > 1 || (nkeys && strcmp(keys[0], "tid") && strcmp(keys[0], "pid") &&
			  strcmp(keys[0], "cpu"))) {
		ft_err("with --from and --to, --key is one of tid, pid, cpu (of the end's task)");
		return -1;
	}
	if (nkeys)
		s->h.by = !strcmp(keys[0], "tid") ? FT_BY_TID : !strcmp(keys[0], "pid") ?
			  FT_BY_PID : FT_BY_CPU;
	if (!s->side[0].spec || !s->side[1].spec) {
		ft_err("a span needs --from SYS:EVENT and --to SYS:EVENT: %s is missing",
		       s->side[0].spec ? "--to" : "--from");
		return -1;
	}
	if (check_side(&s->side[0]) || check_side(&s->side[1]))
		return -1;
	return 0;
}

/* hist_span_tracepoints - both events, with their comm/pid/cpu declarations */
struct ft_tp *hist_span_tracepoints(struct hist_span *s)
{
	struct ft_tp *head = NULL;
	int i;

	for (i = 0; i < 2; i++) {
		struct hs_side *d = &s->side[i];

		d->tp.system = d->tpx.system = d->sys;
		d->tp.name = d->tpx.name = d->ev;
		d->tpx.opt_fields = true;
		d->tp.next = d->tpx.field[0] ? &d->tpx : NULL;
		head = head ? ft_tp_append(head, &d->tp) : &d->tp;
	}
	return head;
}

/* hist_span_events - forks name the tasks of --key's groups, task_newtask their process */
void hist_span_events(struct hist_span *s, unsigned int *need, unsigned int *want)
{
	(void)s;
	(void)need;
	*want |= FT_NEED(FT_EV_FORK) | FT_NEED(FT_EV_NEWTASK);
}

/* bind_slot - hf_slot_fn over one side's slots */
static int bind_slot(void *ctx, const char *name, bool *is_str, bool *is_unsigned)
{
	const struct hs_side *d = ctx;
	int i = slot_find(d, name);

	if (i >= 0) {
		*is_str = d->slot[i].is_str;
		*is_unsigned = d->slot[i].is_unsigned;
	}
	return i;
}

/* slot_type - slot @sl's source and type, from its field's format (@f: NULL, none) */
static void slot_type(struct hs_slot *sl, const struct ft_tp_field *f)
{
	bool have = f && f->kind != FT_TPF_NONE;

	if (sl->src == HS_FIELD && !have)
		sl->src = sl->pseudo;	/* comm, pid, cpu the event lacks */
	sl->is_str = sl->src == HS_FIELD ? have && f->kind == FT_TPF_STR : sl->src == HS_COMM;
	sl->is_unsigned = sl->src == HS_FIELD && have && f->kind == FT_TPF_INT && !f->is_signed &&
			  f->size == 8;
}

/* init_side - the slots' types from the event's format; the filter bound */
static int init_side(struct hs_side *d)
{
	struct hs_slot *sl;
	char err[256];
	size_t n;
	int i;

	for (i = 0; i < d->nslots; i++) {
		sl = &d->slot[i];
		slot_type(sl, sl->src != HS_FIELD ? NULL : sl->opt ? &d->tpx.fmt[sl->k] :
			  &d->tp.fmt[sl->k]);
	}
	/* pid, next_pid, prev_pid...: the task the span is about (--key tid, -p) */
	n = strlen(d->slot[d->match_slot].name);
	d->task_match = d->slot[d->match_slot].src == HS_FIELD && n >= 3 &&
			!strcmp(d->slot[d->match_slot].name + n - 3, "pid");
	if (d->slot[d->match_slot].is_str) {
		ft_err("--match %s: a string field of %s; the match key is a number field",
		       d->slot[d->match_slot].name, d->spec);
		return -1;
	}
	if (hf_bind(&d->flt, bind_slot, d, err, sizeof(err))) {
		ft_err("bad %s-filter '%s': %s", d->which, d->filter_text, err);
		return -1;
	}
	return 0;
}

/* hist_span_init - types checked, filters bound, empty tables */
int hist_span_init(struct hist_span *s, const struct ft_env *env)
{
	s->env = env;
	s->self = env->live ? getpid() : -1;
	if (init_side(&s->side[0]) || init_side(&s->side[1]))
		return -1;
	if (ft_hgroups_init(&s->h, env->tasks) || ft_intern_init(&s->keys)) {
		ft_err("out of memory");
		return -1;
	}
	return 0;
}

/* load - slot @i of side @d in @ev into @v */
static void load(const struct hist_span *s, const struct hs_side *d, const struct ft_event *ev,
		 int i, struct hf_val *v)
{
	const struct hs_slot *sl = &d->slot[i];
	const struct ft_tp *tp = sl->opt ? &d->tpx : &d->tp;

	v->s = NULL;
	v->len = 0;
	if (sl->src == HS_COMM) {
		v->s = ft_tasks_comm(s->env->tasks, ev->common_pid);
		v->len = (int)strlen(v->s);
	} else if (sl->src == HS_PID) {
		v->num = ev->common_pid;
	} else if (sl->src == HS_CPU) {
		v->num = ev->cpu;
	} else if (sl->is_str) {
		v->s = ft_tp_str(ev, tp, sl->k, &v->len);
	} else {
		v->num = ft_tp_num(ev, tp, sl->k);
	}
}

/*
 * side_key - @ev's match key on side @d, when it passes the side's filter and its task
 * is traced (-p, -t, a command) and not ftscope: the task the match field names, else
 * the record's
 */
static bool side_key(struct hist_span *s, struct hs_side *d, const struct ft_event *ev,
		     uint64_t *key)
{
	struct hf_val v[HS_SLOTS];
	int i, task;

	d->records++;
	for (i = 0; i < d->nslots; i++)
		load(s, d, ev, i, &v[i]);
	if (!hf_eval(&d->flt, v)) {
		d->filtered++;
		return false;
	}
	*key = (uint64_t)v[d->match_slot].num;
	task = d->task_match ? (int)*key : ev->common_pid;
	if (task == s->self) {
		s->own++;	/* live: ftscope's own reads of the trace */
		return false;
	}
	return ft_env_traced(s->env, task);
}

/* pend_of - the pending slot of key id @id, the table grown to hold it; NULL on ENOMEM */
static struct hs_pend *pend_of(struct hist_span *s, long id)
{
	if (id < 0 || ft_grow_at((void **)&s->pend, sizeof(*s->pend), id, &s->npend_cap))
		return NULL;
	return &s->pend[id];
}

/* end - an end of key @key: the span of its pending start, if any, is counted */
static void end(struct hist_span *s, const struct ft_event *ev, uint64_t key)
{
	long id = ft_intern_find(&s->keys, &key, 1);
	struct hs_pend *p = id >= 0 && (size_t)id < s->npend_cap ? &s->pend[id] : NULL;
	int tid = s->side[1].task_match ? (int)key : ev->common_pid;

	if (!p || !p->live) {
		s->unstarted++;
		return;
	}
	p->live = false;
	s->pending--;
	s->spans++;
	(void)ft_tasks_comm(s->env->tasks, tid);	/* live: named while it runs */
	ft_hgroups_add(&s->h, tid, ev->cpu, ev->ts >= p->ts ? ev->ts - p->ts : 0);
}

/* start - a start of key @key: pending from now (a pending one is replaced) */
static void start(struct hist_span *s, const struct ft_event *ev, uint64_t key)
{
	long id = ft_intern_find(&s->keys, &key, 1);
	struct hs_pend *p = pend_of(s, id >= 0 ? id : ft_intern_put(&s->keys, &key, 1));

	if (!p) {
		s->oom++;
		return;
	}
	if (p->live)
		s->restarts++;
	else
		s->pending++;
	p->live = true;
	p->ts = ev->ts;
}

/* drop_all - events were lost: forget every pending start */
static void drop_all(struct hist_span *s)
{
	size_t i;

	for (i = 0; i < s->npend_cap; i++)
		s->pend[i].live = false;
	s->dropped += s->pending;
	s->pending = 0;
}

/* hist_span_event - one record, in time order: an end first, then a start */
void hist_span_event(struct hist_span *s, const struct ft_event *ev)
{
	uint64_t key;

	if (ev->type == FT_EV_LOST) {
		drop_all(s);
		return;
	}
	if (!ft_tp_is(ev, &s->side[0].tp) && !ft_tp_is(ev, &s->side[1].tp))
		return;
	if (ft_tp_is(ev, &s->side[1].tp) && side_key(s, &s->side[1], ev, &key))
		end(s, ev, key);
	if (ft_tp_is(ev, &s->side[0].tp) && side_key(s, &s->side[0], ev, &key))
		start(s, ev, key);
}

/* print_footer - what was paired, and what was not */
static void print_footer(const struct hist_span *s, FILE *f)
{
	const struct hs_side *a = &s->side[0], *b = &s->side[1];

	fprintf(f, "hist: %llu spans %s -> %s matched on %s=%s; %llu starts never matched "
		"(pending at the end), %llu restarted before an end (the latest start kept), "
		"%llu ends without a start", (unsigned long long)s->spans, a->spec, b->spec,
		a->slot[a->match_slot].name, b->slot[b->match_slot].name,
		(unsigned long long)s->pending, (unsigned long long)s->restarts,
		(unsigned long long)s->unstarted);
	if (a->filter_text || b->filter_text)
		fprintf(f, "; filtered out: %llu starts, %llu ends",
			(unsigned long long)a->filtered, (unsigned long long)b->filtered);
	if (s->dropped)
		fprintf(f, "; %llu pending starts dropped after lost events",
			(unsigned long long)s->dropped);
	if (s->oom)
		fprintf(f, "; %llu starts not kept: out of memory", (unsigned long long)s->oom);
	if (s->own)
		fprintf(f, "; ftscope's own %llu records left out", (unsigned long long)s->own);
	fputc('\n', f);
}

/* span_json - the histograms and the footer's counts */
static void span_json(const struct hist_span *s, struct ft_json *j)
{
	const struct hs_side *a = &s->side[0], *b = &s->side[1];
	const struct { const char *key; uint64_t n; } c[] = {
		{ "spans", s->spans }, { "unmatched_starts", s->pending },
		{ "restarts", s->restarts }, { "ends_without_start", s->unstarted },
		{ "starts_filtered_out", a->filtered }, { "ends_filtered_out", b->filtered },
		{ "dropped_after_lost", s->dropped }, { "not_kept_oom", s->oom },
		{ "own_records_left_out", s->own },
	};
	size_t i;

	ft_json_str(j, "from", a->spec);
	ft_json_str(j, "to", b->spec);
	ft_json_str(j, "match_from", a->slot[a->match_slot].name);
	ft_json_str(j, "match_to", b->slot[b->match_slot].name);
	if (a->filter_text)
		ft_json_str(j, "from_filter", a->filter_text);
	if (b->filter_text)
		ft_json_str(j, "to_filter", b->filter_text);
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		ft_json_u64(j, c[i].key, c[i].n);
	ft_hgroups_json((struct ft_hset *)&s->h, j);
}

/* hist_span_report - BCC's histogram with its summary line, then the footer */
void hist_span_report(struct hist_span *s, struct ft_report *rep)
{
	if (rep->json) {
		span_json(s, rep->json);
	} else {
		ft_hgroups_print(&s->h, rep->f);
		print_footer(s, rep->f);
	}
}

/* hist_span_reset - the next interval's histograms and counts */
void hist_span_reset(struct hist_span *s)
{
	/* pending starts carry over: their ends fall in a later interval */
	ft_hgroups_reset(&s->h);
	s->spans = s->restarts = s->unstarted = s->dropped = s->oom = s->own = 0;
	s->side[0].filtered = s->side[1].filtered = 0;
}

/* hist_span_metrics - the histograms as series of ftscope_span_seconds{from,to} */
void hist_span_metrics(struct hist_span *s, struct ft_metrics *m)
{
	struct ft_label l[2] = { { "from", NULL }, { "to", NULL } };

	if (!s)
		return;
	l[0].value = s->side[0].spec;
	l[1].value = s->side[1].spec;
	ft_hgroups_metrics(&s->h, m, "span", l, 2);
}

/* hist_span_fini - the tables and histograms */
void hist_span_fini(struct hist_span *s)
{
	ft_hset_fini(&s->h);
	ft_intern_fini(&s->keys);
	free(s->pend);
	s->pend = NULL;
	s->npend_cap = 0;
}

/* hist_span_free - what the options allocated, and the span itself */
void hist_span_free(struct hist_span *s)
{
	int i;

	if (!s)
		return;
	for (i = 0; i < 2; i++) {
		hf_free(&s->side[i].flt);
		free(s->side[i].sys);
	}
	free(s->matcharg);
	free(s);
}
