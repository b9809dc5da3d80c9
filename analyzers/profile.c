// SPDX-License-Identifier: GPL-2.0
/*
 * profile: where threads run, from perf_event_open samples with callchains (perf
 * record -g, BCC profile, bpftrace profile:hz:99), and with --offcpu where they
 * run or wait: a wall-clock profile.
 *
 * Each sample is kept per (thread, process, kernel stack, user stack), user
 * addresses turned into (file, offset) frames at once (the process may exit before
 * the report). With --offcpu, offcpu's tracking runs on the same records and hands
 * over every off-CPU period (all switch-out states, preemption included) with its
 * stacks; a sample counts its period (ns for cpu-clock), a period its length, so a
 * thread's stacks add up to its time in the window.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analyzers/profile_int.h"
#include "events/tasks.h"
#include "lib/parse.h"
#include "output/flame.h"
#include "output/json.h"
#include "lib/util.h"

#define DEFAULT_HZ	99	/* perf record -F 99 -g, bpftrace profile:hz:99 */
/* user stacks at a frequency: CFI unwinding of a stack copy (docs/profile.md: its cost) */
#define DEFAULT_CALLGRAPH	FT_CG_DWARF
#define DEFAULT_TOP	20

enum {
	OPT_SVG = 0x100, OPT_OFFCPU, OPT_STATE, OPT_TOP, OPT_PPROF, OPT_CALL_GRAPH,
};

static const struct option profile_longopts[] = {
	{ "freq",		required_argument,	NULL, 'F' },
	{ "frequency",		required_argument,	NULL, 'F' },
	{ "count",		required_argument,	NULL, 'c' },
	{ "event",		required_argument,	NULL, 'e' },
	{ "user-stacks-only",	no_argument,		NULL, 'u' },
	{ "kernel-stacks-only",	no_argument,		NULL, 'k' },
	{ "folded",		no_argument,		NULL, 'f' },
	{ "svg",		required_argument,	NULL, OPT_SVG },
	{ "pprof",		required_argument,	NULL, OPT_PPROF },
	{ "offcpu",		no_argument,		NULL, OPT_OFFCPU },
	{ "state",		no_argument,		NULL, OPT_STATE },
	{ "top",		required_argument,	NULL, OPT_TOP },
	{ "call-graph",		required_argument,	NULL, OPT_CALL_GRAPH },
	{ 0 }
};

/* profile_parse_opt - the options only profile has */
static int profile_parse_opt(void *priv, int opt, const char *arg)
{
	struct profile *p = priv;
	long v;

	switch (opt) {
	case 'F':
	case 'c':
		if (ft_parse_long(arg, 1, opt == 'F' ? 1000L * 1000 * 1000 : (1L << 62), &v))
			return -1;
		*(opt == 'F' ? &p->req.freq : &p->req.period) = (uint64_t)v;
		*(opt == 'F' ? &p->freq_set : &p->period_set) = true;
		return 0;
	case 'e':
		if (!*arg)
			return -1;
		p->req.event = arg;
		p->event_set = true;
		return 0;
	case 'u': case 'U': p->ustack_only = true; return 0;
	case 'k': case 'K': p->kstack_only = true; return 0;
	case 'f': p->folded = true; return 0;
	case OPT_SVG: p->svg_path = arg; return 0;
	case OPT_PPROF: p->oc.pprof.path = arg; return 0;
	case OPT_OFFCPU: p->offcpu = true; return 0;
	case OPT_STATE: p->state = true; return 0;
	case OPT_CALL_GRAPH:
		return ft_sample_callgraph_opt(&p->req, arg) ? FT_OPT_REPORTED : 0;
	case OPT_TOP:
		if (ft_parse_long(arg, 0, 1L << 30, &v))
			return -1;
		p->top = v ? v : -1;	/* 0: every row */
		return 0;
	}
	return -1;
}

/* max_sample_rate - kernel.perf_event_max_sample_rate, 0 when it cannot be read */
static long max_sample_rate(void)
{
	char buf[32];
	long v = 0;
	FILE *f = fopen("/proc/sys/kernel/perf_event_max_sample_rate", "re");

	if (!f)
		return 0;
	if (fgets(buf, sizeof(buf), f))
		v = strtol(buf, NULL, 10);
	fclose(f);
	return v;
}

/* profile_check - the options against each other and the kernel's sample-rate limit */
static int profile_check(void *priv, const struct ft_env *env)
{
	struct profile *p = priv;
	long max;

	if (p->freq_set && p->period_set) {
		ft_err("-F and -c exclude each other");
		return -1;
	}
	if (p->ustack_only && p->kstack_only) {
		ft_err("-u and -k exclude each other");
		return -1;
	}
	if (p->state && !p->offcpu) {
		ft_err("--state splits off-CPU time: it needs --offcpu");
		return -1;
	}
	if (p->offcpu && (p->period_set || !ft_sample_is_cpu_clock(p->req.event))) {
		ft_err("--offcpu adds on-CPU time from cpu-clock samples at a frequency: "
		       "-c and -e other than cpu-clock do not apply");
		return -1;
	}
	if (!env->live && (p->freq_set || p->period_set || p->event_set || p->req.callgraph)) {
		ft_err("-F, -c, -e and --call-graph choose what is sampled live: a file (-i) "
		       "holds the samples it was recorded with");
		return -1;
	}
	/* every switch copying its stack (dwarf: 8 KB) costs too much system wide: as
	   offcpu's default, where a process is chosen */
	p->sw_on = p->offcpu && env->live && !p->period_set &&
		   (env->task_filter || env->command) && !env->all && !env->cpu_on;
	max = env->live ? max_sample_rate() : 0;
	p->max_rate = max;
	if (max > 0 && p->freq_set && p->req.freq > (uint64_t)max) {
		ft_err("-F %llu is above kernel.perf_event_max_sample_rate (%ld Hz)",
		       (unsigned long long)p->req.freq, max);
		return -1;
	}
	return 0;
}

/* profile_events - --offcpu: offcpu's events, the stacks the options ask for */
static void profile_events(void *priv, unsigned int *need, unsigned int *want)
{
	struct profile *p = priv;

	/* the tasks born during the run, named as they fork (and a trace to stand on) */
	*want |= FT_NEED(FT_EV_FORK);
	if (!p->offcpu)
		return;
	*need |= FT_NEED(FT_EV_SWITCH);
	if (p->sw_on)		/* the stacks come with the switches' samples */
		return;
	if (!p->ustack_only)
		*need |= FT_NEED(FT_EV_KSTACK);
	if (!p->kstack_only)
		*need |= FT_NEED(FT_EV_USTACK);
}

/* profile_sampling - the request, completed with the defaults */
static const struct ft_sample_req *profile_sampling(void *priv)
{
	struct profile *p = priv;

	if (!p->period_set && !p->freq_set)
		p->req.freq = DEFAULT_HZ;
	p->req.user = !p->kstack_only;
	p->req.kernel = !p->ustack_only;
	/* -c N: every Nth event, exact counts; 8 KB copies of page faults at -c 1 lost
	   2640 of 20000 samples where the frame-pointer walk lost none */
	if (!p->req.callgraph)
		p->req.callgraph = p->period_set ? FT_CG_FP : DEFAULT_CALLGRAPH;
	p->req.second = NULL;
	if (p->sw_on) {		/* the off-CPU stacks: every switch, as the samples' */
		p->sw = (struct ft_sample_req){ .event = "sched:sched_switch", .period = 1,
						.user = p->req.user, .kernel = p->req.kernel,
						.callgraph = p->req.callgraph,
						.stack_user = p->req.stack_user };
		p->req.second = &p->sw;
	}
	return &p->req;
}

/* profile_second_declined - the switches' samples not taken: ftrace's off-CPU stacks */
static void profile_second_declined(void *priv, const char *why)
{
	struct profile *p = priv;

	ft_err("profile's off-CPU stacks from ftrace (frame pointers, 8 user frames): %s", why);
	p->sw_on = false;
}

/* sum_of - the totals of key @key (@n parts), made when new; NULL when out of memory */
static struct profile_sum *sum_of(struct profile *p, const uint64_t *key)
{
	long id = ft_intern_put(&p->keys, key, PK_LEN);

	if (id < 0)
		return NULL;
	if ((uint32_t)id >= p->vcap) {
		uint32_t cap = p->vcap ? p->vcap * 2 : 1024;
		struct profile_sum *sum = realloc(p->sum, cap * sizeof(*sum));

		if (!sum)
			return NULL;
		memset(sum + p->vcap, 0, (cap - p->vcap) * sizeof(*sum));
		p->sum = sum;
		p->vcap = cap;
	}
	return &p->sum[id];
}

/* Sample times kept per thread for clamp(), live: the oldest half go when full (a file
   replays every sample before its records: all are kept). 64 Ki: 65 s at 999 Hz of a
   thread that never switches out. */
#define MAX_RAN	65536

/* ran - --offcpu: a thread's sample time, proof that it ran then */
static void ran(struct profile *p, const struct ft_sample *s)
{
	struct profile_thread *t = ft_tab_find(&p->seen, s->tid);
	uint64_t *n;

	if (!t)
		return;
	if (t->head && t->head >= t->nran / 2) {	/* what periods passed, gone */
		memmove(t->ran, t->ran + t->head, (t->nran - t->head) * sizeof(*t->ran));
		t->nran -= t->head;
		t->head = 0;
	}
	if (t->nran == MAX_RAN && p->env->live) {
		memmove(t->ran, t->ran + MAX_RAN / 2, MAX_RAN / 2 * sizeof(*t->ran));
		t->nran = MAX_RAN / 2;
	}
	if (t->nran == t->capran) {
		n = realloc(t->ran, (t->capran ? t->capran * 2 : 16) * sizeof(*n));
		if (!n)
			return;
		t->ran = n;
		t->capran = t->capran ? t->capran * 2 : 16;
	}
	t->unsorted |= t->nran > t->head && s->ts < t->ran[t->nran - 1];
	t->ran[t->nran++] = s->ts;
}

/* cmp_u64 - qsort order of sample times */
static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* after - the first index from @lo on of sorted @v[@n] with a value above @ts */
static uint32_t after(const uint64_t *v, uint32_t lo, uint32_t n, uint64_t ts)
{
	while (lo < n) {
		uint32_t mid = lo + (n - lo) / 2;

		if (v[mid] > ts)
			n = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/*
 * clamp - a period whose end is an upper bound (a switch-in this VM's kernel did
 * not record, rebuilt at the task's next record, or one still open at a report)
 * ends by the thread's first sample after it began: the thread was running then.
 * Samples come before the records of their time, so they are all here. The times
 * up to the period's end are passed over.
 */
static uint64_t clamp(struct profile *p, const struct offcpu_period *op)
{
	struct profile_thread *t = ft_tab_find(&p->seen, op->tid);
	uint64_t ns = op->ns;
	uint32_t i;

	if (!t || t->head == t->nran)
		return ns;
	if (t->unsorted) {
		qsort(t->ran + t->head, t->nran - t->head, sizeof(*t->ran), cmp_u64);
		t->unsorted = false;
	}
	i = after(t->ran, t->head, t->nran, op->start);
	if (op->bound && i < t->nran && t->ran[i] - op->start < ns)
		ns = t->ran[i] - op->start;
	t->head = after(t->ran, t->head, t->nran, op->start + op->ns);
	p->n.clamped += ns < op->ns;
	return ns;
}

/* on_period - one off-CPU period from offcpu's tracking */
static void on_period(void *ctx, const struct offcpu_period *op)
{
	struct profile *p = ctx;
	uint64_t key[PK_LEN] = { op->tid, op->tgid, op->kst, op->ust,
				 p->state ? (uint64_t)(unsigned char)op->state : PROFILE_OFFCPU };
	struct profile_sum *s = sum_of(p, key);
	uint64_t ns = clamp(p, op);

	if (!s)
		return;
	s->value += ns;
	p->n.periods++;
	p->n.off_ns += ns;
}

static void profile_fini(void *priv);

/*
 * profile_init - the tracking's tables, offcpu's with every state counted, the SVG
 * and pprof files; on a failure, what it opened abandoned and what it allocated freed
 */
static int profile_init(void *priv, const struct ft_env *env)
{
	struct profile *p = priv;

	p->env = env;
	/* the files first: a path that cannot be written fails with nothing to free */
	if (p->svg_path) {
		if (ft_outfile_open(&p->svg, p->svg_path)) {
			ft_err("cannot write %s: %s", p->svg_path, strerror(errno));
			return -1;
		}
	}
	if (offcpu_pprof_open(&p->oc))
		goto fail;
	if (!p->top)
		p->top = DEFAULT_TOP;
	profile_sampling(p);
	/* a wall-clock profile counts every wait, however short, but not a dead task's */
	memset(p->oc.state_on, 1, sizeof(p->oc.state_on));
	p->oc.state_on['X'] = p->oc.state_on['Z'] = false;
	p->oc.ustack_only = p->ustack_only;
	p->oc.kstack_only = p->kstack_only;
	p->oc.period_cb = on_period;
	p->oc.period_ctx = p;
	/* the switches sampled: off-CPU stacks matched from their samples */
	p->oc.stacks_perf = p->sw_on && env->sampled && env->sampled->second;
	if (offcpu_track_init(&p->oc, env))
		goto fail;
	if (ft_tab_init(&p->seen, sizeof(struct profile_thread)) || ft_intern_init(&p->keys)) {
		ft_err("out of memory");
		goto fail;
	}
	return 0;
fail:
	profile_fini(p);
	return -1;
}

/*
 * first_seen - a thread's name (the kernel's word in the sample, else the task
 * table's while it is alive), and its process's maps on its first sample
 */
static void first_seen(struct profile *p, const struct ft_sample *s)
{
	struct profile_thread *t = ft_tab_find(&p->seen, s->tid);

	if (t) {
		if (s->comm && strncmp(t->comm, s->comm, sizeof(t->comm) - 1))
			snprintf(t->comm, sizeof(t->comm), "%s", s->comm);
		return;
	}
	t = ft_tab_get(&p->seen, s->tid);
	if (!t)
		return;
	if (s->tid)
		snprintf(t->comm, sizeof(t->comm), "%s",
			 s->comm ? s->comm : ft_tasks_comm(p->env->tasks, s->tid));
	if (s->pid && !p->kstack_only)
		ft_usyms_note(&p->oc.usyms, s->pid);
}

/* profile_sample - one sample: its stacks interned, its period added to its key */
static void profile_sample(void *priv, const struct ft_sample *s)
{
	struct profile *p = priv;
	uint64_t key[PK_LEN] = { 0 }, fr[FT_SAMPLE_MAX_STACK];
	struct profile_sum *sum;
	int nk = s->nk, nu = s->nu, i;
	long id;

	if (s->event) {		/* a switch's: offcpu's queues, for its switch-out record */
		struct ft_sample sw = *s;

		sw.event = 0;	/* offcpu's own first event (its second: wakings) */
		offcpu_sample(&p->oc, &sw);
		return;
	}
	/* no filter here: the kernel samples only the traced tasks and CPUs (per-task
	   events, and their children from birth, before any fork record is read), a file
	   keeps only those, and -C, -p and -t on a file are applied before samples come */
	if (s->maps)		/* the kernel's word on its mappings, before its frames */
		ft_usyms_add_maps(&p->oc.usyms, s->maps, s->maps_len);
	first_seen(p, s);
	key[PK_TID] = (uint64_t)s->tid;
	key[PK_TGID] = (uint64_t)s->pid;
	nk = nk < FT_SAMPLE_MAX_STACK ? nk : FT_SAMPLE_MAX_STACK;
	nu = nu < FT_SAMPLE_MAX_STACK ? nu : FT_SAMPLE_MAX_STACK;
	if (nk > 0 && !p->ustack_only) {
		id = ft_intern_put(&p->oc.kst, s->ip, nk);
		key[PK_KST] = (uint64_t)(id + 1);
	}
	if (nu > 0 && !p->kstack_only && s->pid) {
		i = ft_usyms_frames(&p->oc.usyms, s->pid, s->ip + s->nk, nu, fr);
		p->n.ustack_early += i < nu && ft_usyms_known(&p->oc.usyms, s->pid);
		p->n.ustack_unmapped += !ft_usyms_known(&p->oc.usyms, s->pid);
		id = ft_intern_put(&p->oc.ust, fr, i);
		key[PK_UST] = (uint64_t)(id + 1);
	}
	sum = sum_of(p, key);
	if (!sum)
		return;
	sum->samples++;
	sum->value += s->period;
	p->n.samples++;
	p->n.idle += !s->tid;
	p->n.on_value += s->period;
	if (p->offcpu && s->tid)
		ran(p, s);
}

/* profile_event - --offcpu: a record for offcpu's tracking */
static void profile_event(void *priv, const struct ft_event *ev)
{
	struct profile *p = priv;

	if (p->offcpu)
		offcpu_track_event(&p->oc, ev);
}

/* profile_unwind_notes - live, dwarf: where the user stacks' unwinding stopped, run-long */
static void profile_unwind_notes(struct profile *p, struct ft_report *r)
{
	const struct ft_sample_counts *c = p->env->samples;
	int i;

	if (!c || !ft_sample_unwound(c))
		return;
	if (!r->json) {
		ft_sample_unwind_note(r->footer ? r->footer : r->f, "profile", profile_req(p), c);
		return;
	}
	ft_json_obj_begin(r->json, "user_stacks_unwound");
	for (i = 0; i < FT_UNWIND_NEND; i++)
		ft_json_u64(r->json, ft_sample_unwind_key(i), c->unwound[i]);
	ft_json_obj_end(r->json);
}

/* profile_report - the profile, with the unwinding's notes at the end */
static void profile_report(void *priv, struct ft_report *r)
{
	struct profile *p = priv;

	if (p->offcpu)
		offcpu_track_flush(&p->oc, r->ts);	/* waits still open count to now */
	profile_print(p, r);
	if (r->final)
		profile_unwind_notes(p, r);
}

/* profile_reset - the next interval's totals and notes (the stacks' names stay) */
static void profile_reset(void *priv)
{
	struct profile *p = priv;

	if (p->sum)
		memset(p->sum, 0, p->vcap * sizeof(*p->sum));
	memset(&p->n, 0, sizeof(p->n));
	memset(&p->oc.notes, 0, sizeof(p->oc.notes));
	memset(&p->oc.sn, 0, sizeof(p->oc.sn));
	p->oc.unseen_in = 0;
}

/* profile_fini - free everything; an unfinished SVG or pprof file leaves its path as it was */
static void profile_fini(void *priv)
{
	struct profile *p = priv;
	unsigned int i;

	ft_outfile_abandon(&p->svg);
	offcpu_pprof_abandon(&p->oc);
	free(p->sum);
	p->sum = NULL;
	for (i = 0; p->seen.rec && i < p->seen.n; i++)
		free(((struct profile_thread *)ft_tab_at(&p->seen, i))->ran);
	ft_tab_fini(&p->seen);
	ft_intern_fini(&p->keys);
	offcpu_track_fini(&p->oc);
}

const struct ft_analyzer ft_profile = {
	.cli = {
		.name		= "profile",
		.summary	= "CPU samples by kernel and user stack (perf record -g, BCC profile)",
		.usage		= "  -F, --freq HZ        samples per second per CPU (default 99)\n"
				  "  -c, --count N        one sample every N events (exclusive with -F)\n"
				  "  -e, --event EVENT    what to sample, as stat -e takes it (default\n"
				  "                       cpu-clock): page-faults, a tracepoint, c:malloc\n"
				  "  -u, -U, --user-stacks-only    user frames only\n"
				  "  -k, -K, --kernel-stacks-only  kernel frames only\n"
				  "  -f, --folded         folded stacks (comm;user;kernel COUNT) for flame graphs\n"
				  "      --svg FILE       write an interactive flame graph to FILE\n"
				  "      --pprof FILE     write a pprof profile (gzipped profile.proto) to FILE\n"
				  "      --top N          rows of each table (default 20, 0: all)\n"
				  "      --offcpu         wall-clock: add off-CPU time from the sched events,\n"
				  "                       every stack in microseconds, off-CPU ones end in\n"
				  "                       [off-cpu]_[o]\n"
				  "      --state          with --offcpu: [sleeping], [uninterruptible],\n"
				  "                       [runnable] (preempted) instead of [off-cpu]\n"
				  "      --call-graph fp|dwarf[,SIZE]  user stacks: the kernel's frame-\n"
				  "                       pointer walk (the default with -c), or (the default\n"
				  "                       with -F) SIZE bytes of user stack copied per sample\n"
				  "                       (8192; at most 65528) and unwound by CFI (.eh_frame):\n"
				  "                       whole stacks of code built without frame pointers\n",
		.examples	= "  ftscope profile -a -d 10               # whole system, 99 Hz, 10 s\n"
				  "  ftscope profile -F 499 --svg cpu.svg -- ./app   # flame graph of a command\n"
				  "  ftscope profile -p 1234 -f > cpu.folded # folded, for flamegraph.pl\n"
				  "  ftscope profile --pprof cpu.pb.gz -a -d 10  # go tool pprof cpu.pb.gz\n"
				  "  ftscope profile --offcpu --state -f -p 1234 -d 5  # wall-clock\n"
				  "  ftscope profile -e page-faults -c 1 -- ./app     # faults per stack\n",
		.shortopts	= "F:c:e:uUkKf",
		.longopts	= profile_longopts,
		.parse_opt	= profile_parse_opt,
		.check		= profile_check,
	},
	.priv_size	= sizeof(struct profile),
	.max_wait_ms	= 100,
	.events		= profile_events,
	.sampling	= profile_sampling,
	.second_declined = profile_second_declined,
	.sample		= profile_sample,
	.init		= profile_init,
	.event		= profile_event,
	.report		= profile_report,
	.reset		= profile_reset,
	.fini		= profile_fini,
};
