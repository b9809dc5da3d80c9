/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Typed records: raw tracepoint payloads decoded with field offsets resolved once
 * from each kernel's own format files.
 */
#ifndef FTSCOPE_EVENTS_DECODE_H
#define FTSCOPE_EVENTS_DECODE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

struct tep_handle;

enum ft_ev_type {
	FT_EV_UNKNOWN = 0,	/* delivered only where stacks are recorded: the place of
				   a record no analyzer reads, whose stacks follow it */
	FT_EV_SWITCH,		/* sched:sched_switch */
	FT_EV_WAKING,		/* sched:sched_waking (preferred over sched_wakeup) */
	FT_EV_WAKEUP,		/* sched:sched_wakeup */
	FT_EV_WAKEUP_NEW,	/* sched:sched_wakeup_new */
	FT_EV_FORK,		/* sched:sched_process_fork */
	FT_EV_MIGRATE,		/* sched:sched_migrate_task */
	FT_EV_RESUME,		/* rseq:rseq_update: the task returns to user space after
				   it was switched in (the chain's prompt evidence) */
	FT_EV_KSTACK,		/* ftrace:kernel_stack, after an event (options/stacktrace) */
	FT_EV_USTACK,		/* ftrace:user_stack, after an event (options/userstacktrace) */
	FT_EV_NEWTASK,		/* task:task_newtask: a clone, and whether it made a thread */
	FT_EV_NTYPES,
	FT_EV_LOST = FT_EV_NTYPES,	/* not a kernel event: events were lost on a CPU */
	FT_EV_FUNC,		/* a traced function's entry or return (ft_decoder_add_func) */
	FT_EV_TP,		/* any other tracepoint an analyzer declared (events/tp.h) */
};

#define FT_NEED(t)	(1u << (t))
#define FT_ALL_TYPES	((1u << FT_EV_NTYPES) - 2)	/* every kernel event type */
#define FT_TASK_COMM_LEN 16

/*
 * ft_want_wakeups - @want without sched_wakeup when that only repeats sched_waking:
 * wanted beside it, needed by no analyzer, and the trace (@have_waking) has sched_waking.
 * Live, such a sched_wakeup is not enabled; from a file, it is read only for the chain.
 */
static inline unsigned int ft_want_wakeups(unsigned int need, unsigned int want, bool have_waking)
{
	if ((want & FT_NEED(FT_EV_WAKING)) && !(need & FT_NEED(FT_EV_WAKEUP)) && have_waking)
		want &= ~FT_NEED(FT_EV_WAKEUP);
	return want;
}

/* The tracepoint behind each type: system and name. */
struct ft_event_def {
	const char *system;
	const char *name;
};
extern const struct ft_event_def ft_event_defs[FT_EV_NTYPES];

struct ft_field {
	int	off;		/* -1 when the format lacks the field */
	int	size;
	bool	is_signed;
};

struct ft_switch {
	int		prev_pid, prev_prio, next_pid, next_prio;
	long long	prev_state;	/* raw value; -1 when unknown (synthesised switch) */
	char		state;		/* letter from the event's print fmt, 'R' runnable, '?' unknown */
	bool		preempt;	/* switched out while runnable (R+) */
	const char	*prev_comm;	/* FT_TASK_COMM_LEN bytes (a record's field, or a
					   constant that long), not always NUL-ended */
	const char	*next_comm;
	bool		synth;		/* reconstructed by the switch-chain repair */
	bool		after_loss;	/* synthesised across lost events: timing unknown */
	bool		unproven;	/* synth: nothing says when in [ts_min, ts] (the task
					   there ran on after the switched-in one was ready,
					   or an idle CPU's delay is not known yet, and no
					   prompt record followed): no wait ends at it */
	bool		unlearned;	/* unproven as the idle CPU's delay was not known
					   yet (FT_GAP_MIN such delays not seen) */
	uint64_t	ts_lo;		/* synth: the CPU's last record before the switch */
	uint64_t	ts_min;		/* synth: the latest record proving it had not happened
					   yet: the switch lies in [ts_min, ts] */
	uint64_t	ts_est;		/* synth: the estimate, ts_min <= ts_est <= ts: ts_min
					   on a CPU idle since, ts when how long the task
					   waited is unknown */
};


struct ft_wake {
	int		pid, prio, target_cpu;	/* target_cpu -1 when the format lacks it */
	const char	*comm;
	unsigned char	ctx;	/* the waker's context, the record's common_flags:
				   FT_CTX_HARDIRQ, FT_CTX_SOFTIRQ, FT_CTX_NMI; 0 a task's */
};

/* The kernel's TRACE_FLAG_ bits of common_flags naming a record's context (5.10 .. 6.18). */
#define FT_CTX_HARDIRQ	0x08
#define FT_CTX_SOFTIRQ	0x10
#define FT_CTX_NMI	0x40
#define FT_CTX_IRQ	(FT_CTX_HARDIRQ | FT_CTX_SOFTIRQ | FT_CTX_NMI)

struct ft_fork {
	int		parent_pid, child_pid;
	const char	*child_comm;
};

struct ft_newtask {
	int		pid;		/* the new task; its creator is the record's common_pid */
	bool		thread;		/* CLONE_THREAD: it joins its creator's process */
	const char	*comm;
};

struct ft_migrate {
	int		pid, orig_cpu, dest_cpu;
};

/*
 * A stack that follows the event it belongs to on the same CPU: return addresses,
 * innermost first, ending at the first 0 or all-ones entry.
 */
struct ft_stack {
	int			n;		/* entries */
	int			word;		/* bytes per entry: 8, or 4 for 32-bit kernels */
	int			tgid;		/* user_stack: the process, 0 when unknown */
	const unsigned char	*ip;		/* n entries of @word bytes, unaligned */
};

/* ft_stack_ip - the @i-th address of a decoded stack */
static inline uint64_t ft_stack_ip(const struct ft_stack *s, int i)
{
	uint64_t v = 0;
	uint32_t w;

	if (s->word == 4) {
		memcpy(&w, s->ip + 4 * i, 4);
		return w;
	}
	memcpy(&v, s->ip + 8 * i, 8);
	return v;
}

/* What a function record is. */
enum ft_fcall_kind {
	FT_FC_ENTRY,		/* kprobe, uprobe, syscalls:sys_enter_* */
	FT_FC_EXIT,		/* kretprobe, uretprobe, syscalls:sys_exit_* */
	FT_FC_GRAPH_ENTRY,	/* ftrace:funcgraph_entry (function by ip) */
	FT_FC_GRAPH_EXIT,	/* ftrace:funcgraph_exit: calltime and rettime when present */
	FT_FC_FUNCTION,		/* ftrace:function: the function tracer's entry, by ip */
};

struct ft_fcall {
	int		func;		/* the run's function index; -1: look it up by ip */
	unsigned char	kind;		/* enum ft_fcall_kind */
	bool		has_ret, has_times;
	int		depth;		/* function_graph depth, 0 otherwise */
	uint64_t	ip;		/* function_graph: the function */
	uint64_t	calltime, rettime;	/* graph exit, when has_times */
	long long	ret;		/* return value, when has_ret */
};

/*
 * One decoded record. Pointers refer to the raw record, valid during the callback.
 * Every kernel record keeps its event id and payload, so that a declared tracepoint
 * (events/tp.h) reads its fields whatever type the fast paths gave it.
 */
struct ft_event {
	uint64_t	ts;
	int		cpu;
	enum ft_ev_type	type;
	int		common_pid;
	int		id;		/* the trace's event id; -1 when no kernel record */
	int		size;		/* payload bytes */
	const void	*data;		/* the payload; NULL for losses and rebuilt switches */
	union {
		struct ft_switch	sw;
		struct ft_wake		wk;
		struct ft_fork		fork;
		struct ft_newtask	newtask;
		struct ft_migrate	mig;
		struct ft_stack		stack;
		struct ft_fcall		fc;
		long long		lost;	/* FT_EV_LOST: count, -1 when unknown */
	};
};

/* ft_switch_time - when a switch happened: its record's time, or a rebuilt one's estimate */
static inline uint64_t ft_switch_time(const struct ft_event *ev)
{
	return ev->sw.synth ? ev->sw.ts_est : ev->ts;
}

/* prev_state values below this have their letter in ft_states.small. */
#define FT_STATE_SMALL	256

/* Task-state letters, read from the sched_switch print fmt by evaluating it. */
struct ft_states {
	char		letter[64];	/* letter for each prev_state bit, 0 when none */
	uint64_t	preempt_mask;	/* bits that print "+" */
	char		small[FT_STATE_SMALL];	/* ft_state_letter of each small value */
};

struct ft_switch_fmt {
	struct ft_field prev_comm, prev_pid, prev_prio, prev_state;
	struct ft_field next_comm, next_pid, next_prio;
	int min_size;
	bool common;	/* every field there, ints of 4 bytes and a 64-bit prev_state */
};

struct ft_wake_fmt {
	struct ft_field comm, pid, prio, target_cpu;
	int min_size;
	bool common;	/* every field there, ints of 4 bytes */
};

struct ft_fork_fmt {
	struct ft_field parent_pid, child_pid, child_comm;
	bool child_comm_loc;	/* a __data_loc string (6.x kernels), not char[16] */
	int min_size;
};

struct ft_newtask_fmt {
	struct ft_field pid, comm, clone_flags;
	int min_size;
};

struct ft_migrate_fmt {
	struct ft_field pid, orig_cpu, dest_cpu;
	int min_size;
};

struct ft_stack_fmt {
	struct ft_field size, tgid, caller;
	int word;
};

struct ft_func_fmt {
	int		func;
	unsigned char	kind;
	struct ft_field	ret, ip, depth, calltime, rettime;
};

struct ft_decoder {
	struct tep_handle	*tep;
	struct ft_field		common_type, common_pid;
	int			ctx_off;	/* common_flags's byte, -1 none: a wakeup's ctx */
	int			common_end;	/* record bytes the common fields need */
	bool			common_std;	/* a 2-byte type and a 4-byte pid */
	int			nids;
	unsigned char		*type_of;	/* event id -> enum ft_ev_type */
	struct ft_switch_fmt	sw;
	struct ft_wake_fmt	wk[3];		/* waking, wakeup, wakeup_new */
	struct ft_fork_fmt	fork;
	struct ft_migrate_fmt	mig;
	struct ft_newtask_fmt	newtask;
	struct ft_stack_fmt	stk[2];		/* kernel_stack, user_stack */
	struct ft_states	states;
	unsigned int		have;		/* FT_NEED() of each type the tep knows */
	unsigned int		bare;		/* FT_NEED() of wakeup types decoded only up to
						   common_pid and the woken pid: nobody else
						   reads their fields */
	unsigned long long	malformed;	/* records too short for their format */
	int			*fn_of;		/* event id -> index in fn, for FT_EV_FUNC */
	struct ft_func_fmt	*fn;
	int			nfn;
};

int ft_decoder_init(struct ft_decoder *d, struct tep_handle *tep);
void ft_decoder_fini(struct ft_decoder *d);
int ft_decoder_add_tp(struct ft_decoder *d, int id);
int ft_decoder_add_func(struct ft_decoder *d, const char *system, const char *name, int func,
			enum ft_fcall_kind kind);
void ft_decode_func(const struct ft_decoder *d, unsigned int id, const void *data, int size,
		    struct ft_event *ev);
enum ft_ev_type ft_decode(struct ft_decoder *d, const void *data, int size,
			  struct ft_event *ev);
char ft_state_letter(const struct ft_states *st, long long state);
int ft_states_from_print_fmt(struct ft_states *st, struct tep_handle *tep);

#endif
