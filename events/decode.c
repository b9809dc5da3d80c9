// SPDX-License-Identifier: GPL-2.0
/*
 * Typed decoding of scheduler tracepoints. Every offset comes from the kernel's
 * format file and is looked up once; per record we only load integers.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "events/decode.h"
#include "lib/util.h"

const struct ft_event_def ft_event_defs[FT_EV_NTYPES] = {
	[FT_EV_SWITCH]		= { "sched", "sched_switch" },
	[FT_EV_WAKING]		= { "sched", "sched_waking" },
	[FT_EV_WAKEUP]		= { "sched", "sched_wakeup" },
	[FT_EV_WAKEUP_NEW]	= { "sched", "sched_wakeup_new" },
	[FT_EV_FORK]		= { "sched", "sched_process_fork" },
	[FT_EV_MIGRATE]		= { "sched", "sched_migrate_task" },
	[FT_EV_RESUME]		= { "rseq", "rseq_update" },
	[FT_EV_KSTACK]		= { "ftrace", "kernel_stack" },
	[FT_EV_USTACK]		= { "ftrace", "user_stack" },
	[FT_EV_NEWTASK]		= { "task", "task_newtask" },
};

/* field_of - cache a field's offset, size and sign; off -1 when absent */
static struct ft_field field_of(struct tep_event *ev, const char *name)
{
	struct tep_format_field *f = ev ? tep_find_any_field(ev, name) : NULL;
	struct ft_field r = { -1, 0, false };

	if (f && f->offset >= 0 && f->size > 0 && f->offset + f->size <= 0xffff) {
		r.off = f->offset;
		r.size = f->size;
		r.is_signed = !!(f->flags & TEP_FIELD_IS_SIGNED);
	}
	return r;
}

/*
 * comm_of - a comm field: FT_TASK_COMM_LEN bytes at least (every kernel's), so that
 * readers may load all of them; absent (off -1) otherwise
 */
static struct ft_field comm_of(struct tep_event *ev, const char *name)
{
	struct ft_field f = field_of(ev, name);

	if (f.size < FT_TASK_COMM_LEN)
		f.off = -1;
	return f;
}

/* field_end - the first byte after a field (0 when the field is absent) */
static int field_end(struct ft_field f)
{
	return f.off < 0 ? 0 : f.off + f.size;
}

/* max_end - the record size needed to read every listed field */
static int max_end(const struct ft_field *f, int n)
{
	int i, m = 0;

	for (i = 0; i < n; i++)
		if (field_end(f[i]) > m)
			m = field_end(f[i]);
	return m;
}

/* ft_num - load an integer field, sign-extended when the format says signed */
static inline long long ft_num(const void *data, struct ft_field f)
{
	const unsigned char *p = (const unsigned char *)data + f.off;
	uint16_t v16;
	uint32_t v32;
	int64_t v64;

	switch (f.size) {
	case 1:
		return f.is_signed ? (long long)*(const int8_t *)p : (long long)*p;
	case 2:
		memcpy(&v16, p, 2);
		return f.is_signed ? (long long)(int16_t)v16 : (long long)v16;
	case 4:
		memcpy(&v32, p, 4);
		return f.is_signed ? (long long)(int32_t)v32 : (long long)v32;
	case 8:
		memcpy(&v64, p, 8);
		return v64;
	}
	return 0;
}

/* fork_comm_loc - a sched_process_fork whose child_comm is __data_loc char[] */
static void fork_comm_loc(struct ft_decoder *d, struct tep_event *ev)
{
	struct tep_format_field *f = tep_find_any_field(ev, "child_comm");

	d->fork.child_comm_loc = false;
	if (d->fork.child_comm.off >= 0 || !f || !(f->flags & TEP_FIELD_IS_DYNAMIC) ||
	    f->size != 4 || f->offset < 0 || f->offset + 4 > 0xffff)
		return;
	d->fork.child_comm = (struct ft_field){ f->offset, 4, false };
	d->fork.child_comm_loc = true;
}

/* loc_str - a __data_loc string of a record of @size bytes, "" unless NUL-ended inside */
static const char *loc_str(const void *data, int size, struct ft_field f)
{
	uint32_t v = (uint32_t)ft_num(data, f);
	uint32_t off = v & 0xffff, len = v >> 16;

	if (!len || off + len > (uint32_t)size || ((const char *)data)[off + len - 1])
		return "";
	return (const char *)data + off;
}

/* is_int - does the format have @f as a signed integer of @size bytes? */
static bool is_int(struct ft_field f, int size)
{
	return f.off >= 0 && f.size == size && f.is_signed;
}

/* ld_s32 - the signed 4-byte integer at @off of @data */
static inline int ld_s32(const void *data, int off)
{
	int32_t v;

	memcpy(&v, (const unsigned char *)data + off, 4);
	return v;
}

/* map_type - remember which of our types an event id stands for */
static void map_type(struct ft_decoder *d, struct tep_event *ev, enum ft_ev_type t)
{
	if (ev->id < 0 || ev->id >= d->nids)
		return;
	d->type_of[ev->id] = t;
	d->have |= FT_NEED(t);
}

/* wake_fmt - resolve the fields shared by sched_waking, sched_wakeup and sched_wakeup_new */
static void wake_fmt(struct ft_wake_fmt *w, struct tep_event *ev)
{
	w->comm = comm_of(ev, "comm");
	w->pid = field_of(ev, "pid");
	w->prio = field_of(ev, "prio");
	w->target_cpu = field_of(ev, "target_cpu");
	w->min_size = max_end(&w->comm, 4);
	w->common = w->comm.off >= 0 && is_int(w->pid, 4) && is_int(w->prio, 4) &&
		    is_int(w->target_cpu, 4);
}

/* stack_fmt - resolve kernel_stack / user_stack: optional size or tgid, the caller array */
static bool stack_fmt(struct ft_stack_fmt *k, struct tep_event *ev)
{
	struct tep_format_field *f = tep_find_any_field(ev, "caller");

	k->size = field_of(ev, "size");
	k->tgid = field_of(ev, "tgid");
	k->caller = field_of(ev, "caller");
	k->word = f && f->elementsize ? f->elementsize : 8;
	return k->caller.off >= 0 && (k->word == 4 || k->word == 8);
}

/*
 * decode_stack - the addresses of a stack record, up to the first 0 or all-ones entry.
 * kernel_stack records hold `size` entries, whatever the format's array length says.
 */
static void decode_stack(const struct ft_stack_fmt *k, const void *data, int size,
			 struct ft_stack *s)
{
	int max = (size - k->caller.off) / k->word, n = max, i;
	uint64_t end = k->word == 4 ? 0xffffffffULL : UINT64_MAX;

	if (k->size.off >= 0 && size >= field_end(k->size)) {
		long long want = ft_num(data, k->size);

		if (want >= 0 && want < max)
			n = (int)want;
	}
	s->word = k->word;
	s->tgid = k->tgid.off >= 0 && size >= field_end(k->tgid) ? (int)ft_num(data, k->tgid) : 0;
	s->ip = (const unsigned char *)data + k->caller.off;
	for (i = 0; i < n; i++) {
		uint64_t v = ft_stack_ip(s, i);

		if (!v || v == end)
			break;
	}
	s->n = i;
}

/* switch_fmt - resolve sched_switch; false without its pids */
static bool switch_fmt(struct ft_switch_fmt *s, struct tep_event *ev)
{
	s->prev_comm = comm_of(ev, "prev_comm");
	s->prev_pid = field_of(ev, "prev_pid");
	s->prev_prio = field_of(ev, "prev_prio");
	s->prev_state = field_of(ev, "prev_state");
	s->next_comm = comm_of(ev, "next_comm");
	s->next_pid = field_of(ev, "next_pid");
	s->next_prio = field_of(ev, "next_prio");
	s->min_size = max_end(&s->prev_comm, 7);
	s->common = s->prev_comm.off >= 0 && s->next_comm.off >= 0 && is_int(s->prev_pid, 4) &&
		    is_int(s->next_pid, 4) && is_int(s->prev_prio, 4) && is_int(s->next_prio, 4) &&
		    is_int(s->prev_state, 8);
	return s->prev_pid.off >= 0 && s->next_pid.off >= 0;
}

/* type_fmt - resolve the fields of our type @t, event @ev; false when it cannot be decoded */
static bool type_fmt(struct ft_decoder *d, struct tep_event *ev, enum ft_ev_type t)
{
	switch (t) {
	case FT_EV_SWITCH:
		return switch_fmt(&d->sw, ev);
	case FT_EV_WAKING:
	case FT_EV_WAKEUP:
	case FT_EV_WAKEUP_NEW:
		wake_fmt(&d->wk[t - FT_EV_WAKING], ev);
		return d->wk[t - FT_EV_WAKING].pid.off >= 0;
	case FT_EV_FORK:
		d->fork.parent_pid = field_of(ev, "parent_pid");
		d->fork.child_pid = field_of(ev, "child_pid");
		d->fork.child_comm = comm_of(ev, "child_comm");
		fork_comm_loc(d, ev);
		d->fork.min_size = max_end(&d->fork.parent_pid, 3);
		return true;
	case FT_EV_MIGRATE:
		d->mig.pid = field_of(ev, "pid");
		d->mig.orig_cpu = field_of(ev, "orig_cpu");
		d->mig.dest_cpu = field_of(ev, "dest_cpu");
		d->mig.min_size = max_end(&d->mig.pid, 3);
		return d->mig.pid.off >= 0 && d->mig.orig_cpu.off >= 0 && d->mig.dest_cpu.off >= 0;
	case FT_EV_NEWTASK:
		d->newtask.pid = field_of(ev, "pid");
		d->newtask.comm = comm_of(ev, "comm");
		d->newtask.clone_flags = field_of(ev, "clone_flags");
		d->newtask.min_size = max_end(&d->newtask.pid, 3);
		return d->newtask.pid.off >= 0 && d->newtask.clone_flags.off >= 0;
	case FT_EV_KSTACK:
	case FT_EV_USTACK:
		return stack_fmt(&d->stk[t - FT_EV_KSTACK], ev);
	default:
		return true;
	}
}

/* common_of - take the common fields from @ev unless known already */
static void common_of(struct ft_decoder *d, struct tep_event *ev)
{
	struct ft_field flags;

	if (d->common_type.off >= 0 && d->common_type.size)
		return;
	d->common_type = field_of(ev, "common_type");
	d->common_pid = field_of(ev, "common_pid");
	flags = field_of(ev, "common_flags");
	d->ctx_off = flags.size == 1 ? flags.off : -1;
}

/* common_fmt - the record header every event shares; -1 (EINVAL) when no event has one */
static int common_fmt(struct ft_decoder *d, struct tep_handle *tep, int n)
{
	int i;

	/* a trace of probes alone: the common fields of any event will do */
	for (i = 0; i < n; i++)
		common_of(d, tep_get_event(tep, i));
	if (d->common_type.off < 0 || !d->common_type.size) {
		errno = EINVAL;
		return -1;
	}
	d->common_end = field_end(d->common_type) > field_end(d->common_pid) ?
			field_end(d->common_type) : field_end(d->common_pid);
	d->common_std = d->common_type.off >= 0 && d->common_type.size == 2 &&
			!d->common_type.is_signed && is_int(d->common_pid, 4);
	return 0;
}

/**
 * ft_decoder_init - resolve every field the typed records need from @tep
 * Events the tep lacks are simply not decoded. Returns 0 or -1 (ENOMEM, EINVAL).
 */
int ft_decoder_init(struct ft_decoder *d, struct tep_handle *tep)
{
	struct tep_event *ev;
	int i, n = tep_get_events_count(tep);

	memset(d, 0, sizeof(*d));
	d->tep = tep;
	d->ctx_off = -1;	/* until common_of finds common_flags */
	for (i = 0; i < n; i++) {
		ev = tep_get_event(tep, i);
		if (ev && ev->id >= d->nids)
			d->nids = ev->id + 1;
	}
	d->type_of = calloc(d->nids ? d->nids : 1, 1);
	if (!d->type_of)
		return -1;
	for (i = 1; i < FT_EV_NTYPES; i++) {
		ev = tep_find_event_by_name(tep, ft_event_defs[i].system, ft_event_defs[i].name);
		if (!ev)
			continue;
		common_of(d, ev);
		map_type(d, ev, i);
		if (!type_fmt(d, ev, i))
			d->have &= ~FT_NEED(i);
	}
	if (common_fmt(d, tep, n)) {
		ft_decoder_fini(d);
		return -1;
	}
	if (d->have & FT_NEED(FT_EV_SWITCH))
		ft_states_from_print_fmt(&d->states, tep);
	return 0;
}

/**
 * ft_decoder_add_func - decode event @system:@name of the tep as FT_EV_FUNC records
 * of function @func (-1: by the record's ip) and @kind. Fields resolved once: the
 * return value (ret, or retval), ip (func, ip, __probe_func), depth,
 * calltime and rettime, whichever the format has.
 * Returns 0, or -1 with errno ENOENT when the tep lacks the event (ENOMEM).
 */
int ft_decoder_add_func(struct ft_decoder *d, const char *system, const char *name, int func,
			enum ft_fcall_kind kind)
{
	struct tep_event *ev = tep_find_event_by_name(d->tep, system, name);
	struct ft_func_fmt *fn, *f;
	int i;

	if (!ev || ev->id < 0 || ev->id >= d->nids) {
		errno = ENOENT;
		return -1;
	}
	if (!d->fn_of) {
		d->fn_of = malloc(d->nids * sizeof(*d->fn_of));
		if (!d->fn_of)
			return -1;
		for (i = 0; i < d->nids; i++)
			d->fn_of[i] = -1;
	}
	fn = realloc(d->fn, (d->nfn + 1) * sizeof(*fn));
	if (!fn)
		return -1;
	d->fn = fn;
	f = &fn[d->nfn];
	f->func = func;
	f->kind = kind;
	f->ret = field_of(ev, "ret");
	if (f->ret.off < 0)
		f->ret = field_of(ev, "retval");
	f->ip = field_of(ev, kind == FT_FC_GRAPH_ENTRY || kind == FT_FC_GRAPH_EXIT ? "func" : "ip");
	if (f->ip.off < 0)
		f->ip = field_of(ev, "__probe_func");
	if (f->ip.off < 0)
		f->ip = field_of(ev, "__probe_ip");
	f->depth = field_of(ev, "depth");
	f->calltime = field_of(ev, "calltime");
	f->rettime = field_of(ev, "rettime");
	d->fn_of[ev->id] = d->nfn++;
	d->type_of[ev->id] = FT_EV_FUNC;
	return 0;
}

/**
 * ft_decoder_add_tp - records of event @id reach the analyzers (as FT_EV_TP unless a
 * fast path already decodes them). Returns 0, or -1 when the id is out of range.
 */
int ft_decoder_add_tp(struct ft_decoder *d, int id)
{
	if (id < 0 || id >= d->nids)
		return -1;
	if (d->type_of[id] == FT_EV_UNKNOWN)
		d->type_of[id] = FT_EV_TP;
	return 0;
}

/* opt_num - a field's value when the record holds it, else @def */
static long long opt_num(const void *data, int size, struct ft_field f, long long def)
{
	return f.off >= 0 && size >= field_end(f) ? ft_num(data, f) : def;
}

/* ft_decode_func - the FT_EV_FUNC record of event @id */
void ft_decode_func(const struct ft_decoder *d, unsigned int id, const void *data, int size,
		    struct ft_event *ev)
{
	const struct ft_func_fmt *f = &d->fn[d->fn_of[id]];
	struct ft_fcall *fc = &ev->fc;

	fc->func = f->func;
	fc->kind = f->kind;
	fc->has_ret = f->ret.off >= 0 && size >= field_end(f->ret);
	fc->ret = fc->has_ret ? ft_num(data, f->ret) : 0;
	fc->ip = (uint64_t)opt_num(data, size, f->ip, 0);
	fc->depth = (int)opt_num(data, size, f->depth, 0);
	fc->has_times = f->calltime.off >= 0 && f->rettime.off >= 0 &&
			size >= field_end(f->calltime) && size >= field_end(f->rettime);
	fc->calltime = fc->has_times ? (uint64_t)ft_num(data, f->calltime) : 0;
	fc->rettime = fc->has_times ? (uint64_t)ft_num(data, f->rettime) : 0;
}

/* ft_decoder_fini - free what ft_decoder_init allocated */
void ft_decoder_fini(struct ft_decoder *d)
{
	FT_FREE(d->type_of);
	FT_FREE(d->fn_of);
	FT_FREE(d->fn);
	d->nids = d->nfn = 0;
}

/**
 * ft_state_letter - the task-state letter for a prev_state value
 * The lowest set bit that the print fmt names wins, as perf prints it; 'R' when none.
 */
char ft_state_letter(const struct ft_states *st, long long state)
{
	uint64_t v = (uint64_t)state & ~st->preempt_mask;

	if (state < 0)
		return '?';
	for (; v; v &= v - 1)
		if (st->letter[__builtin_ctzll(v)])
			return st->letter[__builtin_ctzll(v)];
	return 'R';
}

/* render_state - print a fake sched_switch with prev_state = @v and return what follows "prev_state=" */
static int render_state(struct tep_handle *tep, struct tep_event *ev, struct ft_field f,
			uint64_t v, char *out, size_t outlen)
{
	unsigned char buf[512] = { 0 };
	struct tep_record rec = { 0 };
	struct trace_seq s;
	uint16_t id = ev->id;
	const char *p;
	size_t i = 0;

	if (f.off < 0 || f.off + f.size > (int)sizeof(buf) || f.size > 8)
		return -1;
	memcpy(buf, &id, sizeof(id));
	memcpy(buf + f.off, &v, f.size);	/* little-endian host: low bytes first */
	rec.data = buf;
	rec.size = sizeof(buf);
	trace_seq_init(&s);
	tep_print_event(tep, &s, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&s);
	p = s.buffer ? strstr(s.buffer, "prev_state=") : NULL;
	if (p) {
		for (p += 11; *p && *p != ' ' && i + 1 < outlen; p++)
			out[i++] = *p;
	}
	out[i] = 0;
	trace_seq_destroy(&s);
	return p ? 0 : -1;
}

/**
 * ft_states_from_print_fmt - learn prev_state letters and the preempt bit
 * from the sched_switch event's own print fmt, by letting libtraceevent evaluate it
 * for each bit. Plugins are never loaded, so old hard-coded tables cannot interfere.
 * Returns 0, or -1 when the tep has no usable sched_switch.
 */
int ft_states_from_print_fmt(struct ft_states *st, struct tep_handle *tep)
{
	struct tep_event *ev = tep_find_event_by_name(tep, "sched", "sched_switch");
	struct ft_field f = field_of(ev, "prev_state");
	char out[64];
	int b, nbits;

	memset(st, 0, sizeof(*st));
	if (!ev || f.off < 0)
		return -1;
	nbits = f.size * 8 > 63 ? 63 : f.size * 8;
	for (b = 0; b < nbits; b++) {
		if (render_state(tep, ev, f, 1ULL << b, out, sizeof(out)) < 0)
			return -1;
		if (!strcmp(out, "R+"))
			st->preempt_mask |= 1ULL << b;
		else if (out[0] && out[0] != 'R' && !out[1])
			st->letter[b] = out[0];
	}
	for (b = 0; b < FT_STATE_SMALL; b++)
		st->small[b] = ft_state_letter(st, b);
	return 0;
}

/* switch_state - prev_state's letter and preemption, from the print fmt's tables */
static inline void switch_state(const struct ft_states *st, struct ft_switch *sw)
{
	uint64_t v = (uint64_t)sw->prev_state;

	sw->state = v < FT_STATE_SMALL ? st->small[v] : ft_state_letter(st, sw->prev_state);
	sw->preempt = sw->prev_state >= 0 && (v & st->preempt_mask);
	sw->synth = sw->after_loss = false;
}

/* decode_switch_common - a sched_switch of the usual layout: fixed-size loads */
static inline void decode_switch_common(const struct ft_decoder *d, const void *data,
					struct ft_event *ev)
{
	const struct ft_switch_fmt *f = &d->sw;
	int64_t state;

	ev->sw.prev_pid = ld_s32(data, f->prev_pid.off);
	ev->sw.next_pid = ld_s32(data, f->next_pid.off);
	ev->sw.prev_prio = ld_s32(data, f->prev_prio.off);
	ev->sw.next_prio = ld_s32(data, f->next_prio.off);
	memcpy(&state, (const unsigned char *)data + f->prev_state.off, 8);
	ev->sw.prev_state = state;
	ev->sw.prev_comm = (const char *)data + f->prev_comm.off;
	ev->sw.next_comm = (const char *)data + f->next_comm.off;
	ev->sw.ts_lo = ev->ts;
	switch_state(&d->states, &ev->sw);
}

/* decode_switch - a sched_switch of any other layout (older or 32-bit kernels) */
static void decode_switch(const struct ft_decoder *d, const void *data, struct ft_event *ev)
{
	const struct ft_switch_fmt *f = &d->sw;

	ev->sw.prev_pid = (int)ft_num(data, f->prev_pid);
	ev->sw.next_pid = (int)ft_num(data, f->next_pid);
	ev->sw.prev_prio = f->prev_prio.off < 0 ? 0 : (int)ft_num(data, f->prev_prio);
	ev->sw.next_prio = f->next_prio.off < 0 ? 0 : (int)ft_num(data, f->next_prio);
	ev->sw.prev_state = f->prev_state.off < 0 ? -1 : ft_num(data, f->prev_state);
	ev->sw.prev_comm = f->prev_comm.off < 0 ? "" : (const char *)data + f->prev_comm.off;
	ev->sw.next_comm = f->next_comm.off < 0 ? "" : (const char *)data + f->next_comm.off;
	ev->sw.ts_lo = ev->ts;
	switch_state(&d->states, &ev->sw);
}

/* wake_pid - the woken task of a wakeup record of format @w */
static inline int wake_pid(const struct ft_wake_fmt *w, const void *data)
{
	return w->common ? ld_s32(data, w->pid.off) : (int)ft_num(data, w->pid);
}

/* decode_wake - a wakeup record of format @w; false when too short */
static inline bool decode_wake(const struct ft_wake_fmt *w, const void *data, int size,
			       struct ft_event *ev)
{
	if (size < w->min_size)
		return false;
	ev->wk.pid = wake_pid(w, data);
	if (w->common) {
		ev->wk.prio = ld_s32(data, w->prio.off);
		ev->wk.target_cpu = ld_s32(data, w->target_cpu.off);
		ev->wk.comm = (const char *)data + w->comm.off;
		return true;
	}
	ev->wk.prio = w->prio.off < 0 ? 0 : (int)ft_num(data, w->prio);
	ev->wk.target_cpu = w->target_cpu.off < 0 ? -1 : (int)ft_num(data, w->target_cpu);
	ev->wk.comm = w->comm.off < 0 ? "" : (const char *)data + w->comm.off;
	return true;
}

/* decode_body - the fields of a record of type ev->type; false when too short */
static inline bool decode_body(const struct ft_decoder *d, unsigned int id, const void *data,
			       int size, struct ft_event *ev)
{
	switch (ev->type) {
	case FT_EV_SWITCH:
		if (size < d->sw.min_size)
			return false;
		if (d->sw.common)
			decode_switch_common(d, data, ev);
		else
			decode_switch(d, data, ev);
		return true;
	case FT_EV_WAKING:
	case FT_EV_WAKEUP:
	case FT_EV_WAKEUP_NEW:
		ev->wk.ctx = d->ctx_off >= 0 ?
			     ((const unsigned char *)data)[d->ctx_off] & FT_CTX_IRQ : 0;
		return decode_wake(&d->wk[ev->type - FT_EV_WAKING], data, size, ev);
	case FT_EV_FORK:
		if (size < d->fork.min_size)
			return false;
		ev->fork.parent_pid = (int)ft_num(data, d->fork.parent_pid);
		ev->fork.child_pid = (int)ft_num(data, d->fork.child_pid);
		if (d->fork.child_comm.off < 0)
			ev->fork.child_comm = "";
		else if (d->fork.child_comm_loc)
			ev->fork.child_comm = size < field_end(d->fork.child_comm) ? "" :
					      loc_str(data, size, d->fork.child_comm);
		else
			ev->fork.child_comm = (const char *)data + d->fork.child_comm.off;
		return true;
	case FT_EV_NEWTASK:
		if (size < d->newtask.min_size)
			return false;
		ev->newtask.pid = (int)ft_num(data, d->newtask.pid);
		ev->newtask.thread = ft_num(data, d->newtask.clone_flags) & 0x10000; /* CLONE_THREAD */
		ev->newtask.comm = d->newtask.comm.off < 0 ? "" :
				   (const char *)data + d->newtask.comm.off;
		return true;
	case FT_EV_MIGRATE:
		if (size < d->mig.min_size)
			return false;
		ev->mig.pid = (int)ft_num(data, d->mig.pid);
		ev->mig.orig_cpu = (int)ft_num(data, d->mig.orig_cpu);
		ev->mig.dest_cpu = (int)ft_num(data, d->mig.dest_cpu);
		return true;
	case FT_EV_FUNC:
		ft_decode_func(d, id, data, size, ev);
		return true;
	case FT_EV_KSTACK:
	case FT_EV_USTACK:
		if (!(d->have & FT_NEED(ev->type)) || size < d->stk[ev->type - FT_EV_KSTACK].caller.off)
			return false;
		decode_stack(&d->stk[ev->type - FT_EV_KSTACK], data, size, &ev->stack);
		return true;
	default:
		return true;
	}
}

/* record_id - the record's event id and common_pid, from the header every record has */
static inline unsigned int record_id(const struct ft_decoder *d, const void *data,
				     struct ft_event *ev)
{
	uint16_t id16;

	if (!d->common_std) {
		ev->common_pid = (int)ft_num(data, d->common_pid);
		return (unsigned int)ft_num(data, d->common_type);
	}
	memcpy(&id16, (const unsigned char *)data + d->common_type.off, 2);
	ev->common_pid = ld_s32(data, d->common_pid.off);
	return id16;
}

/**
 * ft_decode - decode one raw record into @ev (ts and cpu are the caller's)
 * Returns the record's type; FT_EV_UNKNOWN for events we do not decode or
 * records too short for their format (counted as malformed).
 */
enum ft_ev_type ft_decode(struct ft_decoder *d, const void *data, int size,
			  struct ft_event *ev)
{
	const struct ft_wake_fmt *w;
	unsigned int id;

	ev->data = data;
	ev->size = size;
	ev->id = -1;
	if (size < d->common_end)
		goto bad;
	id = record_id(d, data, ev);
	if (id >= (unsigned int)d->nids)
		return ev->type = FT_EV_UNKNOWN;
	ev->id = (int)id;
	ev->type = d->type_of[id];
	if (d->bare & FT_NEED(ev->type)) {
		/* a wakeup nobody reads: the woken pid alone, when it became ready, for the
		   switch chain (its estimates must not depend on the analyzers reading) */
		w = &d->wk[ev->type - FT_EV_WAKING];
		ev->wk.pid = size < w->min_size ? -1 : wake_pid(w, data);
		return ev->type;
	}
	if (decode_body(d, id, data, size, ev))
		return ev->type;
bad:
	d->malformed++;
	return ev->type = FT_EV_UNKNOWN;
}
