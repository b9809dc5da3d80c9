/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf_event_open samples, as an analyzer asks for them and as the pipeline hands
 * them over: live from the tracer's per-CPU mmap rings, or read back from a
 * trace.dat that kept them (its FT_TDAT_OPT_SAMPLES option).
 */
#ifndef FTSCOPE_EVENTS_SAMPLE_H
#define FTSCOPE_EVENTS_SAMPLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "events/unwind.h"

/* Deepest callchain kept per sample (perf's default kernel.perf_event_max_stack). */
#define FT_SAMPLE_MAX_STACK	127

/* How user stacks are taken (--call-graph, as perf record's). */
enum ft_callgraph {
	FT_CG_DEFAULT,		/* the analyzer's default */
	FT_CG_FP,		/* the kernel's frame-pointer walk (PERF_SAMPLE_CALLCHAIN) */
	FT_CG_DWARF,		/* a copy of the user stack and registers, unwound by CFI */
};

/* Bytes of user stack copied per sample with dwarf: perf's default, and the kernel's
   most (sample_stack_user below USHRT_MAX, a multiple of 8: 65536 gives EINVAL). */
#define FT_STACK_USER_DEFAULT	8192
#define FT_STACK_USER_MAX	65528


/* What to sample: filled by the analyzer's options, opened by the tracer. */
struct ft_sample_req {
	const char	*event;		/* as `stat -e` and funclat take it: cpu-clock (NULL),
					   page-faults, sched:sched_switch, c:malloc, /bin/x:f */
	uint64_t	freq;		/* samples per second (-F), 0: every period events */
	uint64_t	period;		/* -c: one sample every period events */
	bool		user, kernel;	/* the frames wanted (callchain) */
	uint8_t		callgraph;	/* enum ft_callgraph: how user frames are taken */
	uint32_t	stack_user;	/* dwarf: bytes of stack copied (0: the default) */
	bool		optional;	/* the analyzer's default, not asked for: it yields
					   (sampling_declined) to a request that was, to a
					   kernel that refuses, to a file without such samples */
	/* a second event on the same rings (profile --offcpu: every sched:sched_switch,
	   the same call graph), its samples marked event 1; NULL: none */
	const struct ft_sample_req *second;
	/* a second event's: one per CPU, any task's (not per target), filtered on this
	   field of its tracepoint being one of the run's targets (offcpu --wakers: the
	   wakee's "pid" of sched_waking; every one system wide); NULL: as the first */
	const char	*pid_field;
};

/* One sample. Frames are leaf first: nk kernel addresses, then nu user ones. */
struct ft_sample {
	uint64_t	ts;		/* ns on the trace clock: mono, boot, perf or local */
	uint64_t	period;		/* what it stands for: ns for cpu-clock, else events */
	int		pid, tid, cpu;
	int		nk, nu;
	int		event;		/* 0: the request's event, 1: its second's */
	const uint64_t	*ip;		/* nk + nu frames */
	/* the process's file mappings (trace-cmd's PROCMAPS text) when new or changed
	   since its last sample, live and from a file that kept them (FTSAMP3), for
	   ft_usyms_add_maps; else NULL */
	const char	*maps;
	size_t		maps_len;
	/* the thread's name as the kernel's records gave it (exec, prctl, a parent's at
	   fork) live, or as the file kept it; NULL: unknown (ask env->tasks) */
	const char	*comm;
};

/*
 * The losses of sampling: records the kernel dropped (PERF_RECORD_LOST) and
 * throttling (PERF_RECORD_THROTTLE: the kernel lowered the rate).
 */
struct ft_sample_counts {
	unsigned long long	samples, lost, throttled, bad;
	/* live, a cpu-clock event's own count at its end: the ns it sampled (0 unknown;
	   not kept in a file) */
	unsigned long long	clock_ns;
	/* dwarf: user stacks unwound, by why each walk ended (a file keeps them) */
	unsigned long long	unwound[FT_UNWIND_NEND];
};

/*
 * Samples kept in a file: a little-endian blob of records, each
 *   u64 ts, u64 period, u32 pid, u32 tid, u32 cpu, u16 nk, u16 nu, (nk + nu) x u64 ip
 * after a header "FTSAMP1\0" ("FTSAMP2\0" with the dwarf part) u64 freq, u64 period,
 * u32 flags (1 user, 2 kernel, 4 dwarf), u32 event name length, the name, the counts
 * (4 x u64), with dwarf u32 stack copy size, u32 N and N x u64 user stacks unwound by
 * why each walk ended (enum ft_unwind_end), then u32 ncomm and ncomm names of the
 * sampled threads (u32 tid, char[16]). FTSAMP3 (written now; dwarf as the flags say):
 * a record with nk 0xffff is a process's mappings (PROCMAPS text: u32 length, bytes)
 * as they were at the sample right after it, which is of that process.
 */
struct ft_sample_comm {
	uint32_t	tid;
	char		comm[16];
};

struct ft_sample_file {
	struct ft_sample_req	req;
	char			event[128];
	struct ft_sample_counts	counts;
	const unsigned char	*comms;		/* ncomm x (u32 tid, char[16]) */
	uint32_t		ncomm;
	const unsigned char	*rec, *end;	/* the records */
	bool			maps_recs;	/* FTSAMP3: mappings records among them */
};

/* ft_sample_is_cpu_clock - is @event (a request's or a file's) the time samples' cpu-clock? */
static inline bool ft_sample_is_cpu_clock(const char *event)
{
	return !event || !strcmp(event, "cpu-clock");
}

int ft_sample_callgraph_opt(struct ft_sample_req *r, const char *arg);
void ft_sample_unwind_note(FILE *f, const char *who, const struct ft_sample_req *r,
			   const struct ft_sample_counts *c);
unsigned long long ft_sample_unwound(const struct ft_sample_counts *c);
const char *ft_sample_unwind_key(int why);

int ft_sample_file_open(struct ft_sample_file *f, const void *blob, size_t len);
int ft_sample_file_next(struct ft_sample_file *f, struct ft_sample *s, uint64_t *ip);
void ft_sample_file_comm(const struct ft_sample_file *f, uint32_t i, struct ft_sample_comm *c);
int ft_sample_blob_head(unsigned char **buf, size_t *len, const struct ft_sample_req *r,
			const struct ft_sample_counts *c, const struct ft_sample_comm *comm,
			uint32_t ncomm);
int ft_sample_blob_add(unsigned char **buf, size_t *len, size_t *cap,
		       const struct ft_sample *s);

#endif
