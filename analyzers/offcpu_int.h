/* SPDX-License-Identifier: GPL-2.0 */
/*
 * offcpu: blocked time per (thread, kernel stack, user stack), with the waker's
 * stacks under --wakers. Its private state, shared by the tracking (offcpu.c),
 * perf's stacks (offcpu_perf.c), the reports (offcpu_report.c, offcpu_pprof.c) and
 * profile --offcpu (profile_int.h): a header of its own, no file's (no circles).
 */
#ifndef FTSCOPE_ANALYZERS_OFFCPU_INT_H
#define FTSCOPE_ANALYZERS_OFFCPU_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzers/analyzer.h"
#include "analyzers/ready.h"
#include "analyzers/waits.h"
#include "events/tasks.h"
#include "events/syms.h"
#include "lib/intern.h"
#include "lib/tab.h"
#include "output/pprof.h"

struct offcpu_chain;

/*
 * The parts of an aggregation key (an interned array); stack ids are id + 1, 0 none;
 * K_LOCK the lk_types[] index + 1 of the contention the period blocked in (--locks),
 * 0 none. The blocked thread's part is [0, K_WTID), its waker's [K_WTID, K_LEN).
 */
enum { K_TID, K_TGID, K_KST, K_UST, K_LOCK, K_WTID, K_WTGID, K_WKST, K_WUST, K_LEN };

/* --chain: a link of a key after the victim's part (analyzers/offcpu_chain.c). */
enum { CL_CODE, CL_TID, CL_TGID, CL_KST, CL_UST, CL_LEN };

/* What a link is: its CL_CODE. */
enum {
	CL_RUN = 1,	/* the thread ran: a sample's stacks, none without one */
	CL_BLOCKED,	/* the thread was blocked: its switch-out's stacks; its waker next */
	CL_READY,	/* the thread was runnable (tid -1: the victim itself) */
	CL_IRQ,		/* woken from an interrupt: tid holds the FT_CTX_ bits */
	CL_IDLE,	/* woken by the idle task */
	CL_UNKNOWN,	/* not named: tid holds the reason, tgid the thread's tid */
};

/* Why a link's time is not named (CL_UNKNOWN). */
enum {
	OFFCPU_CHAIN_LOST,		/* events were lost: the thread's state unknown */
	OFFCPU_CHAIN_HISTORY,		/* before the thread's kept history */
	OFFCPU_CHAIN_NOT_FOLLOWED,	/* a thread the trace does not follow */
	OFFCPU_CHAIN_NO_RECORD,		/* a followed thread with no record yet */
	OFFCPU_CHAIN_NO_WAKEUP,		/* blocked, its wakeup not seen */
	OFFCPU_CHAIN_NREASONS
};

/* Most wakers a chain follows (--chain-depth). */
#define OFFCPU_CHAIN_MAX	8

/* --chain's notes: what it could not name. */
struct offcpu_chain_notes {
	unsigned long long	periods, samples;
	uint64_t		unknown_ns[OFFCPU_CHAIN_NREASONS];
	uint64_t		unsampled_ns;	/* running, no sample in it */
};

/* Stack quality, counted over the blocked periods' own stacks. */
struct offcpu_stack_notes {
	unsigned long long	periods, no_kstack, no_ustack;
	unsigned long long	ustack_early;	/* frame-pointer walk left executable memory */
	unsigned long long	ustack_full;	/* all 8 entries used: deeper frames cut */
	unsigned long long	ustack_unmapped;	/* the process's maps were never read */
	unsigned long long	waker_no_kstack;	/* --wakers: the kernel gave no waker stack */
	/* --stacks perf (offcpu_perf.c) */
	unsigned long long	sampled;	/* switch-outs matched with their sample */
	unsigned long long	no_sample;	/* ... that matched none */
	unsigned long long	before_sampling; /* ... none: before sampling began */
	unsigned long long	ustack_limit;	/* user stacks at the 127-frame limit */
	unsigned long long	samples_dropped; /* unmatched samples dropped, queue full */
	unsigned long long	waker_sampled;	/* --wakers: wakeups matched with their sample */
	unsigned long long	waker_no_sample; /* ... sched_waking ones that matched none */
	uint64_t		match_ns;	/* largest |sample - record| time matched */
	unsigned long long	late;		/* ... matched later (offcpu_perf_late) */
	uint64_t		late_ns;	/* ... the latest of them */
	int			kdepth, udepth;	/* deepest kernel and user stacks taken */
};

/* One finished blocked period, as offcpu's tracking hands it to a caller's period_cb. */
struct offcpu_period {
	int		tid, tgid;
	uint32_t	kst, ust;	/* stack ids + 1 in kst and ust, 0 none */
	char		state;		/* the switch-out's state, 'R' when preempted */
	uint64_t	ns;
	uint64_t	start;		/* its switch-out */
	bool		bound;		/* its end is an upper bound: a switch-in rebuilt, unseen,
					   or not yet (a report's) */
};

/* --locks: the contentions open per thread, the marks made (offcpu_lock.c). */
struct offcpu_locks {
	bool			on;		/* --locks given */
	struct ft_tp		begin, end;	/* lock:contention_begin/end, optional */
	struct ft_tab		tasks;		/* tid -> its open contentions */
	unsigned long long	marked;		/* periods marked */
	unsigned long long	lost;		/* contentions forgotten at lost events */
	unsigned long long	too_deep;	/* begins beyond the nesting kept */
};

/* Blocked time and periods of one key. */
struct offcpu_sum {
	uint64_t	ns, n;
	uint64_t	period;		/* --chain: the last period counted in n (its number) */
};

/* One thread: blocked since start, with the stacks it blocked on. */
struct offcpu_task {
	int		tid;
	int		tgid;
	uint64_t	start;		/* 0: not blocked in a counted state */
	uint32_t	kst, ust;	/* id + 1, 0 none */
	char		state;		/* the switch-out's, 'R' when preempted */
	char		comm[FT_TASK_COMM_LEN + 1];	/* its comm at the last such switch-out */
	unsigned char	lock;		/* --locks: K_LOCK's value of the period */
	struct ft_ready	r;		/* waker: the first wakeup of the period (-1 none) */
	int		wtgid;
	uint32_t	wkst, wust;
};

/* --pprof FILE: the file, open from init on, and the profile of the final report. */
struct offcpu_pprof {
	const char		*path;
	struct ft_outfile	out;
	struct ft_pprof		*pp;
	int64_t			t0;		/* live: when the run began (ns since the epoch) */
	uint64_t		kmap;		/* the kernel's mapping */
};

struct offcpu {
	const struct ft_env	*env;
	/* options */
	bool			folded, delimited, wakers;
	struct offcpu_locks	locks;		/* --locks (offcpu_lock.c) */
	bool			user_threads, kernel_threads;	/* -u, -k */
	bool			ustack_only, kstack_only;	/* -U, -K */
	bool			state_on[128];			/* switch-out states counted */
	bool			states_set, min_set;
	uint64_t		min_ns, max_ns;
	const char		*svg_path;
	struct ft_outfile	svg;		/* --svg FILE, open from init on */
	struct offcpu_pprof	pprof;		/* --pprof FILE (offcpu_pprof.c) */
	bool			stacks_perf;	/* --stacks perf: stacks from samples */
	bool			stacks_set;	/* --stacks given (--call-graph implies perf) */
	/* the default where a process is chosen (a command, -p, -t) or a file read:
	   perf samples with dwarf stacks, unless the run declines them (another
	   analyzer samples, the kernel refuses, the file has none): then ftrace's */
	bool			stacks_auto;
	bool			auto_live;	/* ... live: a decline is said */
	struct ft_sample_req	sreq;
	struct ft_sample_req	wreq;		/* --wakers: every sched_waking of the targets */
	bool			wakers_perf;	/* ... sampled beside (not declined) */
	struct offcpu_perf	*perf;		/* ... their queues (offcpu_perf.c) */
	/* --chain: each period's critical path (offcpu_chain.c) */
	bool			chain_on;
	int			chain_depth;	/* wakers followed */
	bool			chain_sampled;	/* on-CPU samples taken (or a file's) */
	struct ft_sample_req	creq;		/* ... cpu-clock, -F */
	struct offcpu_chain	*chain;
	/* tracking */
	struct ft_tab		tasks;		/* tid -> struct offcpu_task */
	int			*pend;		/* per CPU: task whose stacks come next, -1 */
	bool			*pend_waker;	/* ... as its waker's stacks */
	struct ft_intern	kst, ust, keys;
	struct offcpu_sum	*sum;		/* per key id */
	uint32_t		vcap;
	struct ft_wait_notes	notes;		/* bounded: ended at a rebuilt switch-in */
	unsigned long long	unseen_in;	/* ended at a switch-out: upper bounds */
	struct offcpu_stack_notes sn;
	/* set: each period goes to period_cb instead of the keys and sums (profile) */
	void			(*period_cb)(void *ctx, const struct offcpu_period *p);
	void			*period_ctx;
	/* report */
	struct ft_ksyms		ksyms;
	struct ft_usyms		usyms;
};

/* Deepest stack a report shows, per side. */
#define OFFCPU_MAX_FRAMES	300

/* One side of a row: a thread and its frames, innermost first. */
struct offcpu_side {
	int		tid, tgid;
	const char	*comm;
	unsigned char	lock;		/* --locks: K_LOCK of the blocked thread, 0 none */
	const char	*k[OFFCPU_MAX_FRAMES], *u[OFFCPU_MAX_FRAMES];
	uint64_t	ka[OFFCPU_MAX_FRAMES];	/* the kernel frames' addresses */
	uint64_t	uf[OFFCPU_MAX_FRAMES];	/* the user frames (ft_usyms_frames) */
	int		nk, nu;
};

/* --chain: a key's links as a report shows them (offcpu_chain_report.c). */
struct offcpu_chain_view {
	int			n;
	struct offcpu_side	l[OFFCPU_CHAIN_MAX + 2];	/* comm NULL: no thread */
	const char		*what[OFFCPU_CHAIN_MAX + 2];	/* "waker running", ... */
	const char		*mark[OFFCPU_CHAIN_MAX + 2];	/* a frame after its stacks */
};

/* The tracking, for offcpu and for analyzers that drive it (profile --offcpu). */
int offcpu_track_init(struct offcpu *o, const struct ft_env *env);
void offcpu_track_event(struct offcpu *o, const struct ft_event *ev);
void offcpu_track_flush(struct offcpu *o, uint64_t ts);
void offcpu_track_fini(struct offcpu *o);


/*
 * offcpu_sum_put - @ns and @n added to key @key of @len entries (offcpu's add: a
 * period's key; --chain: a piece's); the key's id, or -1 out of memory. Inline: once
 * per period, in offcpu.c's and the chain's loops alike.
 */
static inline long offcpu_sum_put(struct offcpu *o, const uint64_t *key, uint32_t len,
				  uint64_t ns, uint64_t n)

{
	long id = ft_intern_put(&o->keys, key, len);

	if (id < 0)
		return -1;
	if ((uint32_t)id >= o->vcap) {
		uint32_t cap = o->vcap ? o->vcap * 2 : 1024;
		struct offcpu_sum *sum = realloc(o->sum, cap * sizeof(*sum));

		if (!sum)
			return -1;
		memset(sum + o->vcap, 0, (cap - o->vcap) * sizeof(*sum));
		o->sum = sum;
		o->vcap = cap;
	}
	o->sum[id].ns += ns;
	o->sum[id].n += n;
	return id;
}

/* --chain (offcpu_chain.c) */
int offcpu_chain_check(struct offcpu *o, const struct ft_env *env);
void offcpu_chain_declined(struct offcpu *o, const char *why);
int offcpu_chain_init(struct offcpu *o);
void offcpu_chain_event(struct offcpu *o, const struct ft_event *ev);
void offcpu_chain_sample(struct offcpu *o, const struct ft_sample *s);
void offcpu_chain_period(struct offcpu *o, const uint64_t *vkey, int vlen, int tid,
			 uint64_t start, uint64_t end);
int offcpu_chain_view(struct offcpu *o, const uint64_t *link, int n,
		      struct offcpu_chain_view *v, const char **f, unsigned char *kind);
void offcpu_chain_json(struct ft_json *j, const struct offcpu_chain_view *v);
const struct offcpu_chain_notes *offcpu_chain_notes(const struct offcpu *o);
void offcpu_chain_print_notes(struct offcpu *o, FILE *f);
void offcpu_chain_notes_json(struct offcpu *o, struct ft_json *j);
int offcpu_pprof_chain(struct offcpu *o, const struct offcpu_side *t,
		       const struct offcpu_chain_view *v, const int64_t *value);
void offcpu_chain_reset(struct offcpu *o);
void offcpu_chain_fini(struct offcpu *o);

/* offcpu_comm - @tid's name at its last counted switch-out, else the run's name for it */
static inline const char *offcpu_comm(struct offcpu *o, int tid)
{
	struct offcpu_task *t = ft_tab_find(&o->tasks, tid);

	return t && t->comm[0] ? t->comm : ft_tasks_comm(o->env->tasks, tid);
}

/* Symbols and folded frames, shared with profile (offcpu_report.c). */
void offcpu_kernel_syms(struct offcpu *o);
int offcpu_kframes(struct offcpu *o, uint32_t id, bool strip_trace, const char **out,
		   uint64_t *addr);
int offcpu_uframes(struct offcpu *o, int tgid, uint32_t id, const char **out, uint64_t *frame);
int offcpu_folded_frames(struct offcpu *o, const struct offcpu_side *t,
			 const struct offcpu_side *w, const char **f, unsigned char *kind);
void offcpu_print(struct offcpu *o, struct ft_report *r);

/* --pprof FILE, for offcpu and profile (offcpu_pprof.c) */
int offcpu_pprof_open(struct offcpu *o);
int offcpu_pprof_begin(struct offcpu *o, const char *const (*type)[2], int ntypes, int dflt,
		       const char *const *period_type, int64_t period);
int offcpu_pprof_add(struct offcpu *o, const struct offcpu_side *t,
		     const struct offcpu_side *w, const char *mark, const char *state,
		     const int64_t *value);
int offcpu_pprof_finish(struct offcpu *o);
void offcpu_pprof_abandon(struct offcpu *o);

/* --locks: periods that block in a lock's contention, marked with its type (offcpu_lock.c) */
struct ft_tp *offcpu_lock_tracepoints(struct offcpu *o);
int offcpu_lock_init(struct offcpu *o);
void offcpu_lock_event(struct offcpu *o, const struct ft_event *ev);
unsigned char offcpu_lock_mark(struct offcpu *o, int tid);
const char *offcpu_lock_frame(uint64_t mark);
const char *offcpu_lock_name(uint64_t mark);
void offcpu_lock_notes(struct offcpu *o, FILE *f);
void offcpu_lock_json(struct offcpu *o, struct ft_json *j);
void offcpu_lock_reset(struct offcpu *o);
void offcpu_lock_fini(struct offcpu *o);

/* --stacks perf: stacks from perf_event_open samples of sched_switch (offcpu_perf.c) */
int offcpu_stacks_opt(struct offcpu *o, const char *arg);
int offcpu_callgraph_opt(struct offcpu *o, const char *arg);
int offcpu_perf_check(struct offcpu *o, const struct ft_env *env);
const struct ft_sample_req *offcpu_sampling(void *priv);
void offcpu_sampling_declined(void *priv, const char *why);
void offcpu_second_declined(void *priv, const char *why);
void offcpu_perf_waker(struct offcpu *o, const struct ft_event *ev, uint32_t *kst,
		       uint32_t *ust, int *tgid);
void offcpu_sample(void *priv, const struct ft_sample *s);
int offcpu_perf_init(struct offcpu *o);
void offcpu_perf_late(struct offcpu *o, int tid, uint64_t start, uint64_t end, bool guard,
		      uint32_t *kst, uint32_t *ust, int *tgid);
void offcpu_perf_lost(struct offcpu *o);
void offcpu_perf_switch(struct offcpu *o, const struct ft_event *ev);
void offcpu_perf_stacks(struct offcpu *o, const struct ft_event *ev, uint32_t *kst,
			uint32_t *ust, int *tgid);
void offcpu_perf_notes(struct offcpu *o, FILE *f);
void offcpu_perf_json(struct offcpu *o, struct ft_json *j);
void offcpu_perf_fini(struct offcpu *o);

#endif
