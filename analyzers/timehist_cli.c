// SPDX-License-Identifier: GPL-2.0
/*
 * timehist's command line: perf sched timehist's options, their help and examples.
 */
#include <string.h>

#include "analyzers/timehist_int.h"
#include "lib/parse.h"
#include "lib/util.h"

enum { OPT_STATE = 0x100, OPT_TIME };

const struct option th_longopts[] = {
	{ "summary",		no_argument,       NULL, 's' },
	{ "with-summary",	no_argument,       NULL, 'S' },
	{ "wakeups",		no_argument,       NULL, 'w' },
	{ "migrations",		no_argument,       NULL, 'M' },
	{ "next",		no_argument,       NULL, 'n' },
	{ "cpu-visual",		no_argument,       NULL, 'V' },
	{ "idle-hist",		no_argument,       NULL, 'I' },
	{ "state",		no_argument,       NULL, OPT_STATE },
	{ "time",		required_argument, NULL, OPT_TIME },
	{ 0 }
};

/* parse_time - "START,STOP" in seconds, either may be empty (perf --time) */
static int parse_time(struct timehist *th, const char *arg)
{
	const char *comma = strchr(arg, ',');
	char buf[64];
	double v;

	if (!comma || comma - arg >= (long)sizeof(buf) || strlen(comma + 1) >= sizeof(buf))
		return -1;
	memcpy(buf, arg, comma - arg);
	buf[comma - arg] = 0;
	if (buf[0]) {
		if (ft_parse_double(buf, 0, 1e10, &v))
			return -1;
		th->t_start = (uint64_t)(v * 1e9 + 0.5);
	}
	if (comma[1]) {
		if (ft_parse_double(comma + 1, 0, 1e10, &v))
			return -1;
		th->t_stop = (uint64_t)(v * 1e9 + 0.5);
	}
	if (th->t_stop && th->t_start > th->t_stop)
		return -1;
	return 0;
}

/* th_parse_opt - perf sched timehist's own options */
int th_parse_opt(void *priv, int opt, const char *arg)
{
	struct timehist *th = priv;

	switch (opt) {
	case 's': th->summary_only = th->summary = true; return 0;
	case 'S': th->summary = true; return 0;
	case 'w': th->wakeups = true; return 0;
	case 'M': th->migrations = true; return 0;
	case 'n': th->next = true; return 0;
	case 'V': th->visual = true; return 0;
	case 'I': th->idle_hist = true; return 0;
	case OPT_STATE: th->state = true; return 0;
	case OPT_TIME:
		if (parse_time(th, arg)) {
			ft_err("bad --time '%s': want START,STOP in seconds (either may be empty)", arg);
			return FT_OPT_REPORTED;
		}
		return 0;
	}
	return -1;
}

/* The help text after the common options, and the examples */
const char th_usage[] =
	"  -s, --summary        only the summary (per task run-time statistics)\n"
	"  -S, --with-summary   rows, then the summary\n"
	"  -w, --wakeups        show wakeup rows\n"
	"  -M, --migrations     show migration rows\n"
	"  -n, --next           show the task switched in\n"
	"      --state          show the task state; with -s/-S a wait-time summary\n"
	"                       (sleep / iowait / preempt / delay)\n"
	"  -V, --cpu-visual     one column per CPU: s switch, i idle, m migration\n"
	"  -I, --idle-hist      rows of idle periods only (as perf), then the Idle-time\n"
	"                       summary: each idle period charged to the task that\n"
	"                       ended it (perf charges the task that ran before it)\n"
	"      --time START,STOP  only this window (trace seconds; either may be empty)\n"
	"Rows name a thread comm[tid/pid] as perf does, comm[tid] for a process's main\n"
	"thread. Live the process comes from /proc; a trace.dat records no thread's\n"
	"process (perf.data does), so from -i FILE threads show as comm[tid].\n";

const char th_examples[] =
	"  ftscope timehist -d 2                 # every switch for 2 seconds\n"
	"  ftscope timehist -S --state -- make    # a build, then its wait-time summary\n"
	"  ftscope timehist -w -n -p 1234         # pid 1234 with wakeups and next task\n"
	"  ftscope timehist -s -i /tmp/cap        # summary of a capture\n";
