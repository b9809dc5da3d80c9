// SPDX-License-Identifier: GPL-2.0
/*
 * hist: counts of any tracepoint per key, and with --value a log2 histogram of a
 * field per key: what ftrace's hist triggers give (hist:keys=..:vals=..), computed
 * in user space from the records, so it works where the kernel has no hist triggers
 * and on a trace.dat alike.
 *
 * A key is one or more fields of the event, numbers or strings, or the pseudo-fields
 * comm (the task's name when it made the record), pid (common_pid, the thread) and
 * cpu. An event field of that name wins; common_comm and common_cpu always mean the
 * pseudo-fields. Keys are interned into dense ids (lib/intern.h), at most
 * --max-keys of them; records of new keys beyond that are counted as dropped.
 *
 * comm at the time of each record: the task table (env->tasks), kept current by
 * task:task_rename (exec, prctl), sched_process_fork and, in a trace.dat, its
 * sched_switch records; a task none of them names comes from /proc live, or from the
 * file's saved_cmdlines.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyzers/hist_int.h"
#include "events/tasks.h"
#include "lib/parse.h"
#include "lib/util.h"

enum { OPT_KEY = 0x100, OPT_VALUE, OPT_FILTER, OPT_TOP, OPT_MAX_KEYS, OPT_RAW, OPT_SVG };

static const struct option hist_longopts[] = {
	{ "event",	required_argument, NULL, 'e' },
	{ "key",	required_argument, NULL, OPT_KEY },
	{ "value",	required_argument, NULL, OPT_VALUE },
	{ "filter",	required_argument, NULL, OPT_FILTER },
	{ "top",	required_argument, NULL, OPT_TOP },
	{ "max-keys",	required_argument, NULL, OPT_MAX_KEYS },
	{ "raw",	no_argument,	   NULL, OPT_RAW },
	{ "folded",	no_argument,	   NULL, 'f' },
	{ "svg",	required_argument, NULL, OPT_SVG },
	HIST_SPAN_LONGOPTS,
	{ 0 }
};

/* parse_event - -e SYSTEM:EVENT, once */
static int parse_event(struct hist *h, const char *arg)
{
	char *colon;

	if (h->event) {
		ft_err("hist reads one event: -e given twice");
		return FT_OPT_REPORTED;
	}
	h->event = strdup(arg);
	h->sys = strdup(arg);
	if (!h->event || !h->sys)
		return -1;
	colon = strchr(h->sys, ':');
	if (colon) {
		*colon = 0;
		h->ev = colon + 1;
	}
	if (!colon || !ft_tp_name_ok(h->sys) || !ft_tp_name_ok(h->ev)) {
		ft_err("bad event '%s': expected SYSTEM:EVENT", arg);
		return FT_OPT_REPORTED;
	}
	return 0;
}

/* parse_keys - --key FIELD[,FIELD], at most HIST_KEYS */
static int parse_keys(struct hist *h, const char *arg)
{
	char *save = NULL, *k;

	free(h->keyarg);
	h->keyarg = strdup(arg);
	if (!h->keyarg)
		return -1;
	h->nkeys = 0;
	for (k = strtok_r(h->keyarg, ",", &save); k; k = strtok_r(NULL, ",", &save)) {
		if (!ft_tp_name_ok(k)) {
			ft_err("bad --key field '%s'", k);
			return FT_OPT_REPORTED;
		}
		if (h->nkeys == HIST_KEYS) {
			ft_err("--key takes at most %d fields", HIST_KEYS);
			return FT_OPT_REPORTED;
		}
		h->keys[h->nkeys++] = k;
	}
	if (!h->nkeys) {
		ft_err("--key needs a field");
		return FT_OPT_REPORTED;
	}
	return 0;
}

/* hist_parse_opt - the options only hist has */
static int hist_parse_opt(void *priv, int opt, const char *arg)
{
	struct hist *h = priv;
	char err[256];

	switch (opt) {
	case 'e':
		return parse_event(h, arg);
	case OPT_KEY:
		return parse_keys(h, arg);
	case OPT_VALUE:
		if (!ft_tp_name_ok(arg)) {
			ft_err("bad --value field '%s'", arg);
			return FT_OPT_REPORTED;
		}
		h->value = arg;
		return 0;
	case OPT_FILTER:
		hf_free(&h->flt);
		h->filter_text = arg;
		if (hf_parse(&h->flt, arg, err, sizeof(err))) {
			ft_err("bad --filter '%s': %s", arg, err);
			return FT_OPT_REPORTED;
		}
		return 0;
	case OPT_TOP:
		return ft_parse_long(arg, 1, 100000000, &h->top) ? -1 : 0;
	case OPT_MAX_KEYS:
		return ft_parse_long(arg, 1, 100000000, &h->max_keys) ? -1 : 0;
	case OPT_RAW:
		h->raw = true;
		return 0;
	case 'f':
		h->st.folded = true;
		return 0;
	case OPT_SVG:
		h->st.svg_path = arg;
		return 0;
	}
	return hist_span_opt(&h->span, opt, arg);
}

/* add_slot - the value slot of field @name, made on first use; -1 when too many */
static int add_slot(struct hist *h, const char *name)
{
	struct slot *s;
	struct ft_tp *tp;
	int i;

	for (i = 0; i < h->nslots; i++)
		if (!strcmp(h->slot[i].name, name))
			return i;
	s = &h->slot[h->nslots];
	s->name = name;
	if (hist_stack_slot(h, name, &s->src)) {
		/* kstack, ustack: the stacks ftrace writes after the record */
	} else if (!strcmp(name, "common_comm")) {
		s->src = SRC_COMM;
	} else if (!strcmp(name, "common_cpu")) {
		s->src = SRC_CPU;
	} else {
		/* comm, pid, cpu: the event's own field when it has one */
		s->src = !strcmp(name, "comm") || !strcmp(name, "pid") || !strcmp(name, "cpu") ?
			 SRC_MAYBE : SRC_FIELD;
		s->in_x = s->src == SRC_MAYBE;
		tp = s->in_x ? &h->tpx : &h->tp;
		for (s->k = 0; s->k < FT_TP_FIELDS && tp->field[s->k]; s->k++)
			;
		if (s->k == FT_TP_FIELDS) {
			ft_err("hist reads at most %d fields of an event", FT_TP_FIELDS);
			return -1;
		}
		tp->field[s->k] = name;
	}
	return h->nslots++;
}

/* hist_check - the event is required; every field named gets a slot */
static int hist_check(void *priv, const struct ft_env *env)
{
	struct hist *h = priv;
	int i;

	if (h->span && (h->st.folded || h->st.svg_path)) {
		ft_err("%s prints stack keys (-e with --key kstack or ustack): a span has none",
		       h->st.folded ? "-f" : "--svg");
		return -1;
	}
	if (h->span)
		return hist_span_check(h->span, env, h->event, h->keys, h->nkeys, h->value,
				       h->filter_text, h->top || h->max_keys);
	if (env->exports) {
		ft_err("--prometheus and --heatmap export a span's histogram (--from/--to); "
		       "hist -e has none");
		return -1;
	}
	if (!h->event) {
		ft_err("hist needs -e SYSTEM:EVENT (see --help)");
		return -1;
	}
	if (!h->nkeys) {
		h->keys[0] = "comm";
		h->nkeys = 1;
	}
	if (!h->max_keys)
		h->max_keys = 10000;
	h->offline = !env->live;
	for (i = 0; i < h->nkeys; i++)
		if ((h->key_slot[i] = add_slot(h, h->keys[i])) < 0)
			return -1;
	h->val_slot = h->value ? add_slot(h, h->value) : -1;
	if (h->value && h->val_slot < 0)
		return -1;
	for (i = 0; i < h->flt.nnames; i++)
		if (add_slot(h, h->flt.names[i]) < 0)
			return -1;
	return hist_stack_check(h);
}

/* hist_tracepoints - the event, its comm/pid/cpu fields if any, and renames for comm */
static struct ft_tp *hist_tracepoints(void *priv)
{
	struct hist *h = priv;

	if (h->span)
		return hist_span_tracepoints(h->span);
	if (!h->event)
		return NULL;	/* `record hist`: nothing without -e */
	h->tp.system = h->tpx.system = h->sys;
	h->tp.name = h->tpx.name = h->ev;
	h->tpx.opt_fields = true;
	h->tp.next = h->tpx.field[0] ? &h->tpx : NULL;
	/* task:task_rename for comm: exec and prctl rename tasks between switches */
	ft_tasks_rename_tp(&h->ren);
	ft_tp_append(&h->tp, &h->ren);
	return &h->tp;
}

/* hist_events - forks name children; a trace.dat's switches name tasks too */
static void hist_events(void *priv, unsigned int *need, unsigned int *want)
{
	struct hist *h = priv;

	if (h->span)
		return hist_span_events(h->span, need, want);
	*want |= FT_NEED(FT_EV_FORK);
	if (h->offline)
		*want |= FT_NEED(FT_EV_SWITCH);
	if (h->st.kernel)
		*need |= FT_NEED(FT_EV_KSTACK);
	if (h->st.user)
		*need |= FT_NEED(FT_EV_USTACK);
}

/* bind_slot - hf_slot_fn over the slots */
static int bind_slot(void *ctx, const char *name, bool *is_str, bool *is_unsigned)
{
	struct hist *h = ctx;
	int i;

	for (i = 0; i < h->nslots; i++)
		if (!strcmp(h->slot[i].name, name)) {
			*is_str = h->slot[i].is_str;
			*is_unsigned = h->slot[i].is_unsigned;
			return i;
		}
	return -1;
}

/* resolve_slots - each slot's type, now that the event's format is known */
static void resolve_slots(struct hist *h)
{
	const struct ft_tp_field *f;
	struct slot *s;
	int i;

	for (i = 0; i < h->nslots; i++) {
		s = &h->slot[i];
		f = s->src == SRC_FIELD || s->src == SRC_MAYBE ?
		    (s->in_x ? &h->tpx.fmt[s->k] : &h->tp.fmt[s->k]) : NULL;
		if (s->src == SRC_MAYBE && f->kind == FT_TPF_NONE) {
			/* the event has no such field: the pseudo-field */
			s->src = !strcmp(s->name, "comm") ? SRC_COMM :
				 !strcmp(s->name, "pid") ? SRC_PID : SRC_CPU;
			f = NULL;
		}
		if (s->src == SRC_MAYBE)
			s->src = SRC_FIELD;	/* read through tpx all the same */
		s->is_str = f ? f->kind == FT_TPF_STR : s->src == SRC_COMM;
		s->is_unsigned = f && f->kind == FT_TPF_INT && !f->is_signed && f->size == 8;
		s->fmt = f;
		if (s->src == SRC_COMM)
			h->comm = true;
	}
}

/*
 * filter_names - a word the filter compares a named number field with (id == read,
 * prev_state == D, vec == NET_RX) becomes the number it names
 */
static void filter_names(struct hist *h)
{
	struct hf_node *n;
	int i, k;

	for (i = 0; i < h->flt.nn; i++) {
		n = &h->flt.n[i];
		if (n->kind != HF_CMP || n->num_ok || h->raw)
			continue;
		k = bind_slot(h, h->flt.names[n->name], &(bool){ 0 }, &(bool){ 0 });
		if (k >= 0 && h->slot[k].fmt && h->slot[k].fmt->names &&
		    ft_tp_value(h->slot[k].fmt, n->text, &n->num))
			n->num_ok = true;
	}
}

/* hist_init - types checked, the filter bound, an empty key table */
static int hist_init(void *priv, const struct ft_env *env)
{
	struct hist *h = priv;
	char err[256];

	if (h->span)
		return hist_span_init(h->span, env);
	h->env = env;
	h->offline = !env->live;	/* (report -i: its words' options have no -i) */
	h->self = env->live ? getpid() : -1;
	resolve_slots(h);
	if (h->value && h->slot[h->val_slot].is_str) {
		ft_err("--value %s is a string: a histogram needs a number field", h->value);
		return -1;
	}
	filter_names(h);
	if (hf_bind(&h->flt, bind_slot, h, err, sizeof(err))) {
		ft_err("bad --filter '%s': %s", h->filter_text, err);
		return -1;
	}
	if (ft_intern_init(&h->in)) {
		ft_err("out of memory");
		return -1;
	}
	return hist_stack_init(h);
}

/* load - slot @i's value in @ev into @v */
static void load(struct hist *h, const struct ft_event *ev, int i, struct hf_val *v)
{
	const struct slot *s = &h->slot[i];
	const struct ft_tp *tp = s->in_x ? &h->tpx : &h->tp;

	v->s = NULL;
	v->len = 0;
	switch (s->src) {
	case SRC_COMM:
		v->s = ft_tasks_comm(h->env->tasks, ev->common_pid);
		v->len = (int)strlen(v->s);
		break;
	case SRC_PID:
		v->num = ev->common_pid;
		break;
	case SRC_CPU:
		v->num = ev->cpu;
		break;
	case SRC_KSTACK:
	case SRC_USTACK:
		v->num = 0;	/* the stacks come after the record */
		break;
	default:
		if (s->is_str)
			v->s = ft_tp_str(ev, tp, s->k, &v->len);
		else
			v->num = ft_tp_num(ev, tp, s->k);
	}
}

/*
 * key_words - the words of the key made of @v's key slots into @w; the word of each
 * key slot in @pos (stack keys are filled in later). Returns the number of words.
 */
static uint32_t key_words(const struct hist *h, const struct hf_val *v, uint64_t *w, int *pos)
{
	uint32_t n = 0;
	int i, len;

	for (i = 0; i < h->nkeys; i++) {
		const struct hf_val *x = &v[h->key_slot[i]];

		pos[i] = (int)n;
		if (!h->slot[h->key_slot[i]].is_str) {
			w[n++] = (uint64_t)x->num;
			continue;
		}
		len = x->len < HIST_STR_MAX ? x->len : HIST_STR_MAX;
		w[n++] = (uint64_t)len;
		memset(w + n, 0, (len + 7) / 8 * 8);
		memcpy(w + n, x->s, len);
		n += (len + 7) / 8;
	}
	return n;
}

/* count - record @ev, whose slots are @v, passed the filter: counted, or held for its stacks */
static void count(struct hist *h, const struct ft_event *ev, const struct hf_val *v)
{
	uint64_t w[HIST_WORDS];
	int pos[HIST_KEYS];
	uint32_t n = key_words(h, v, w, pos);
	int64_t x = h->val_slot < 0 ? 0 : v[h->val_slot].num;

	if (h->st.on)
		hist_stack_hold(h, ev, w, n, pos, x);
	else
		hist_count_words(h, w, n, x);
}

/* hist_event - one record, in time order */
static void hist_event(void *priv, const struct ft_event *ev)
{
	struct hist *h = priv;
	struct hf_val v[HIST_SLOTS];
	int i;

	if (h->span)
		return hist_span_event(h->span, ev);
	if (h->st.on && hist_stack_event(h, ev))
		return;
	if (ft_tp_is(ev, &h->tp) && ev->common_pid == h->self) {
		h->own++;
	} else if (ft_tp_is(ev, &h->tp) && ft_env_traced(h->env, ev->common_pid)) {
		for (i = 0; i < h->nslots; i++)
			load(h, ev, i, &v[i]);
		if (hf_eval(&h->flt, v))
			count(h, ev, v);
		else
			h->filtered++;
	}
	/* task_rename records: the pipeline notes them after this, under the old name */
}


/* hist_fini - the keys and their totals */
static void hist_fini(void *priv)
{
	if (((struct hist *)priv)->span)
		hist_span_fini(((struct hist *)priv)->span);
	hist_reset(priv);
	hist_stack_fini(priv);
}

/* hist_report_hook - the span's, the stacks' or the keys' report */
static void hist_report_hook(void *priv, struct ft_report *rep)
{
	struct hist *h = priv;

	if (h->span)
		return hist_span_report(h->span, rep);
	if (h->st.on)
		hist_stack_report(h, rep);
	else
		hist_report(h, rep);
}

/* hist_reset_hook - the next interval: the span's counts, or the keys and their stacks */
static void hist_reset_hook(void *priv)
{
	struct hist *h = priv;

	if (h->span)
		return hist_span_reset(h->span);
	hist_reset(h);
	if (ft_intern_init(&h->in))
		ft_err("out of memory");
	hist_stack_reset(h);
}

/* hist_metrics - the span's histograms for the exports (plain hist has none) */
static void hist_metrics(void *priv, struct ft_metrics *m)
{
	hist_span_metrics(((struct hist *)priv)->span, m);
}

/* hist_free - what the options allocated */
static void hist_free(void *priv)
{
	struct hist *h = priv;

	hist_span_free(h->span);
	hf_free(&h->flt);
	free(h->event);
	free(h->sys);
	free(h->keyarg);
}

const struct ft_analyzer ft_hist = {
	.cli = {
		.name		= "hist",
		.summary	= "counts of any tracepoint per key, and log2 histograms of a field (hist triggers)",
		.usage		= "  -e, --event SYS:EV   the tracepoint (one; or --from and --to below)\n"
				  "      --key F[,F]      key fields (at most 4): any field of the event, number\n"
				  "                       or string, and comm, pid (common_pid), cpu (default comm)\n"
				  "      --value F        a log2 histogram of number field F per key, with its\n"
				  "                       count, sum, min, percentiles and max\n"
				  "      --filter EXPR    count only records where EXPR holds: FIELD OP VALUE,\n"
				  "                       OP == != < <= > >= (numbers), == != ~ (strings, glob\n"
				  "                       * ? [...]), joined by && || with ! and ( )\n"
				  "      --top N          only the N keys with most records\n"
				  "      --max-keys N     at most N distinct keys (10000); records of new keys\n"
				  "                       beyond are counted as dropped\n"
				  "      --raw            numbers as the record holds them, not their names\n"
				  "      --key kstack,ustack  the stacks that made the record (ftrace's: the\n"
				  "                       kernel's; the user's by frame-pointer walk), alone\n"
				  "                       or with fields: stackcount on any tracepoint\n"
				  "  -f, --folded         with a stack key: folded lines (fields;user;kernel N)\n"
				  "      --svg FILE       with a stack key: a flame graph of the records\n"
				  "  Rows are sorted by count, most first. comm is the task's name when it made\n"
				  "  the record; common_comm and common_cpu name the pseudo-fields even where the\n"
				  "  event has fields called comm or cpu. A number key is shown as the kernel\n"
				  "  means it: system call ids by name, fields the event prints through\n"
				  "  __print_symbolic or __print_flags by those names (NET_RX, S, D, R+),\n"
				  "  pointers in hex, unsigned fields unsigned; a user pointer gets a note.\n"
				  HIST_SPAN_USAGE,
		.examples	= "  ftscope hist -e syscalls:sys_enter_read -d 5     # reads per comm\n"
				  "  ftscope hist -e syscalls:sys_enter_read --key comm --value count \\\n"
				  "      --filter 'count >= 4096' -- make              # read sizes of a build\n"
				  "  ftscope hist -e raw_syscalls:sys_enter --key id --top 10 -d 5  # syscount\n"
				  "  ftscope hist -e sched:sched_switch --key prev_state -d 5  # S, D, R, R+\n"
				  "  ftscope hist -e sched:sched_process_exec --key filename -d 5\n"
				  "  ftscope hist -e sched:sched_wakeup --key comm,target_cpu 1 5  # each second\n"
				  "  ftscope hist -e block:block_rq_issue --key dev --value bytes --json -d 5\n"
				  "  ftscope hist -e sched:sched_wakeup --key kstack -d 5  # who wakes: stackcount\n"
				  "  ftscope hist -e syscalls:sys_enter_write --key comm,ustack -f -p PID\n"
				  "  ftscope record -o r.dat -e syscalls:sys_enter_read -e task:task_rename -d 5\n"
				  "  ftscope hist -i r.dat -e syscalls:sys_enter_read --filter 'comm == dd*'\n"
				  HIST_SPAN_EXAMPLES,
		.shortopts	= "e:f",
		.longopts	= hist_longopts,
		.parse_opt	= hist_parse_opt,
		.check		= hist_check,
	},
	.priv_size	= sizeof(struct hist),
	.max_wait_ms	= 100,	/* a user stack's process read while it lives */
	.tracepoints	= hist_tracepoints,
	.events		= hist_events,
	.init		= hist_init,
	.event		= hist_event,
	.report		= hist_report_hook,
	.reset		= hist_reset_hook,
	.metrics	= hist_metrics,
	.fini		= hist_fini,
	.free		= hist_free,
};
