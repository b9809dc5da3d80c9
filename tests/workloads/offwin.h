/* SPDX-License-Identifier: GPL-2.0 */
/*
 * offwin.h - a thread's own account of the time it spends off the CPU inside
 * chosen windows (a blocking call), from the kernel's counters: wall time from
 * CLOCK_MONOTONIC less the thread's run time (CLOCK_THREAD_CPUTIME_ID, schedstat's
 * first field).
 * That is the oracle of offcpu's figures, load or no load: it holds the sleep and
 * the run-queue wait after the wakeup, as a switch-out to switch-in period does.
 *
 * offcpu does not count preempted periods by default. A window in which the
 * thread was preempted (its involuntary switches grew) may hold run-queue time
 * offcpu leaves out; that window's run-queue delay (schedstat's second field) is
 * the most it can be, summed in @slack_ns. A period whose switch-in the kernel did not
 * record ends at the thread's next record, at most its run time later (@run_ns, from
 * the first window's start to the report). The line printed at the end:
 *   offwin comm=NAME windows=N off_us=N slack_us=N run_us=N preempted=N
 */
#ifndef OFFWIN_H
#define OFFWIN_H

#include <stdio.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <time.h>

struct offwin_mark {
	long long	wall_ns;
	long long	run_ns;
	long long	delay_ns;
	long		nivcsw;
};

struct offwin {
	long long	off_ns;		/* wall less run time, inside the windows */
	long long	slack_ns;	/* run-queue delay of windows with a preemption */
	long long	run0_ns;	/* run time at the first window's start */
	long long	run_ns;		/* run time from the first window to the last */
	long		windows;
	long		preempted;
};

/* ns - a clock's time now, in ns */
static inline long long offwin_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/*
 * offwin_read - the thread's counters now. Run time is CLOCK_THREAD_CPUTIME_ID, the
 * kernel's sum_exec_runtime of schedstat's first field brought up to date, read next
 * to the wall clock (a window opens with the two last and closes with them first), so
 * that the other reads fall outside it.
 */
static inline void offwin_read(struct offwin_mark *m, int begin)
{
	struct rusage ru;
	FILE *f;

	if (!begin) {
		m->wall_ns = offwin_ns(CLOCK_MONOTONIC);
		m->run_ns = offwin_ns(CLOCK_THREAD_CPUTIME_ID);
	}
	getrusage(RUSAGE_THREAD, &ru);
	m->nivcsw = ru.ru_nivcsw;
	m->delay_ns = 0;
	f = fopen("/proc/thread-self/schedstat", "r");
	if (f) {
		if (fscanf(f, "%*[0-9] %lld", &m->delay_ns) != 1)
			m->delay_ns = 0;
		fclose(f);
	}
	if (begin) {
		m->run_ns = offwin_ns(CLOCK_THREAD_CPUTIME_ID);
		m->wall_ns = offwin_ns(CLOCK_MONOTONIC);
	}
}

/* offwin_begin - open a window of @w: read the counters, the clock last */
static inline void offwin_begin(struct offwin *w, struct offwin_mark *m)
{
	offwin_read(m, 1);
	if (!w->windows)
		w->run0_ns = m->run_ns;
}

/* offwin_end - close the window opened at @m (clock first) and add it to @w */
static inline void offwin_end(struct offwin *w, const struct offwin_mark *m)
{
	struct offwin_mark e;

	offwin_read(&e, 0);
	w->off_ns += (e.wall_ns - m->wall_ns) - (e.run_ns - m->run_ns);
	w->windows++;
	w->run_ns = e.run_ns - w->run0_ns;
	if (e.nivcsw != m->nivcsw) {
		w->preempted++;
		w->slack_ns += e.delay_ns - m->delay_ns;
	}
}

/* offwin_print - the thread's line on stderr, named by its comm; run time to here */
static inline void offwin_print(struct offwin *w)
{
	struct offwin_mark e;
	char comm[17] = "";

	offwin_read(&e, 0);
	w->run_ns = e.run_ns - w->run0_ns;
	prctl(PR_GET_NAME, comm, 0, 0, 0);
	fprintf(stderr, "offwin comm=%s windows=%ld off_us=%lld slack_us=%lld run_us=%lld "
		"preempted=%ld\n", comm, w->windows, w->off_ns / 1000, w->slack_ns / 1000,
		w->run_ns / 1000, w->preempted);
}

#endif /* OFFWIN_H */
