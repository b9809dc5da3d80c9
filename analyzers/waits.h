/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Waits for a CPU, shared by the latency and wakeup analyzers: a task becomes ready
 * at its first wakeup after a switch-out (sched_waking when the trace has it, else
 * sched_wakeup; sched_wakeup_new for new tasks) or at a switch-out while runnable
 * (preempted); the wait ends at its next switch-in.
 */
#ifndef FTSCOPE_ANALYZERS_WAITS_H
#define FTSCOPE_ANALYZERS_WAITS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "analyzers/analyzer.h"
#include "lib/tab.h"

/* One finished wait, handed to the analyzer at the switch-in. */
struct ft_wait {
	int		tid;
	uint64_t	start, end;	/* ready, switch-in (ns) */
	bool		preempted;	/* ready since a switch-out while runnable */
	bool		bounded;	/* the switch-in was rebuilt: end is the chain's estimate
					   (wakeup's ^, JSON estimated) */
	int		waker;		/* pid that woke it (-1 when preempted) */
	int		waker_cpu;	/* CPU the wakeup ran on */
	int		target_cpu;	/* CPU the wakeup chose (-1 unknown) */
	int		cpu;		/* CPU it ran on */
};

typedef void (*ft_wait_fn)(void *ctx, const struct ft_wait *w);

/* What could not be measured exactly, reported under every latency analyzer. */
struct ft_wait_notes {
	unsigned long long	bounded;	/* waits ending at a rebuilt switch-in, at the
						   chain's estimate */
	unsigned long long	left_out;	/* such waits left out (exact) */
	unsigned long long	dropped;	/* ready tasks forgotten after lost events */
	unsigned long long	unpaired;	/* switch-ins after lost events: not measured */
	unsigned long long	unlearned;	/* ... of them, before an idle CPU's delay was
						   learned (sw.unlearned) */
	bool			exact;		/* --exact: only waits whose both ends are
						   records */
};

/* --exact, for the analyzers whose reports hold waits (the option's value) */
#define FT_OPT_EXACT	0x1ff
#define FT_EXACT_LONGOPT	{ "exact", no_argument, NULL, FT_OPT_EXACT }
#define FT_EXACT_USAGE \
	"      --exact          leave out latencies that end at a switch-in the kernel\n" \
	"                       did not record (timed at the chain's estimate)\n"

struct ft_waits {
	const struct ft_env	*env;
	struct ft_tab		tasks;		/* tid -> struct ft_wait being built */
	ft_wait_fn		done;
	void			*ctx;
	struct ft_wait_notes	notes;
	bool			wakeups;	/* only waits after a wakeup, in the notes
						   too (wakeup's) */
};

int ft_waits_init(struct ft_waits *w, const struct ft_env *env, ft_wait_fn done, void *ctx);
void ft_waits_fini(struct ft_waits *w);
void ft_waits_event(struct ft_waits *w, const struct ft_event *ev);
void ft_wait_notes_print(FILE *f, const char *who, const struct ft_wait_notes *n);
void ft_wait_notes_json(struct ft_json *j, const struct ft_wait_notes *n);
bool ft_wait_notes_keep(struct ft_wait_notes *n, const struct ft_event *ev);
void ft_wait_notes_unknown(struct ft_wait_notes *n, const struct ft_event *ev);
void ft_wait_notes_reset(struct ft_wait_notes *n);

#endif
