// SPDX-License-Identifier: GPL-2.0
/*
 * spiker CPU SECS SPIKES SPIKE_MS GAP_S: rare known spikes among frequent short waits,
 * for the flight recorder (--flight --trigger). Three threads pinned to CPU:
 *   "sp-waker"   SCHED_FIFO 60: every 1 ms for SECS seconds writes its CLOCK_MONOTONIC
 *                time (8 bytes) into a pipe, waking "sp-waiter" (above sp-hog, so the
 *                wakeups go on during a spike: the one that lands in it waits for it)
 *   "sp-waiter"  SCHED_FIFO 40: reads the pipe; its wait of each wakeup is the read's
 *                return time minus the stamp in the message (real-time: the machine's
 *                other tasks do not delay it, sp-hog does; as SCHED_OTHER beside a
 *                build it once waited 54 ms outside the spikes)
 *   "sp-hog"     SCHED_FIFO 50: SPIKES times, the first GAP_S seconds after the start
 *                and then every GAP_S seconds, spins SPIKE_MS ms by its own clock:
 *                a wakeup that lands in the spin waits for its end (~SPIKE_MS)
 * On stdout: "waker TID", "waiter TID", "hog TID"; "spike N start_ns=S end_ns=E" as
 * each spike ends (CLOCK_MONOTONIC, the trace clock; flushed: a run that ends the
 * workload early keeps them); at the end "normal_max_ns=M normal_n=K": the waiter's
 * largest wait of the K that do not meet a spike (by 2 ms), so a test can put a trigger
 * above every normal wait; then "spike_wait N max_ns=W": the largest wait that meets
 * spike N (sent in it, returning in it, or spanning it).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "pin.h"

#define MARGIN_NS 2000000LL

static int cpu, secs, spikes, fds[2];
static long spike_ms, gap_s;
static long long t_start, *sp_start, *sp_end;
/* each wakeup's send and read-return times, kept for the judging at the end */
static long long *sent, *got;
static long nwait;

/* now_ns - CLOCK_MONOTONIC in ns */
static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* sleep_until - sleep to the absolute CLOCK_MONOTONIC time @t */
static void sleep_until(long long t)
{
	struct timespec ts = { t / 1000000000LL, t % 1000000000LL };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL))
		;
}

/* pin_tid - name the calling thread, keep it on the CPU (pin.h) and print its tid */
static void pin_tid(const char *name, const char *tag)
{
	pin(cpu, name);
	printf("%s %ld\n", tag, (long)syscall(SYS_gettid));
	fflush(stdout);
}

/* fifo - make the calling thread SCHED_FIFO at @prio, or end the run */
static void fifo(int prio)
{
	struct sched_param sp = { .sched_priority = prio };
	int err = pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);

	if (err) {
		fprintf(stderr, "spiker: SCHED_FIFO: error %d\n", err);
		exit(1);
	}
}

/* waiter - read stamps until the pipe closes, keeping each send and return time */
static void *waiter(void *arg __attribute__((unused)))
{
	long long stamp;

	pin_tid("sp-waiter", "waiter");
	fifo(40);
	while (read(fds[0], &stamp, sizeof(stamp)) == sizeof(stamp)) {
		long long t = now_ns();

		if (nwait < (long)secs * 1000 + 16) {
			sent[nwait] = stamp;
			got[nwait++] = t;
		}
	}
	return NULL;
}

/* waker - every 1 ms for SECS seconds, write the time into the pipe */
static void *waker(void *arg __attribute__((unused)))
{
	long long t, end = t_start + secs * 1000000000LL;

	pin_tid("sp-waker", "waker");
	fifo(60);
	for (t = t_start + 1000000; t < end; t += 1000000) {
		long long now;

		sleep_until(t);
		now = now_ns();
		if (write(fds[1], &now, sizeof(now)) != sizeof(now))
			exit(1);
	}
	close(fds[1]);
	return NULL;
}

/* hog - SPIKES times, every GAP_S seconds, spin SPIKE_MS ms as SCHED_FIFO 50 */
static void *hog(void *arg __attribute__((unused)))
{
	int i;

	pin_tid("sp-hog", "hog");
	fifo(50);
	for (i = 0; i < spikes; i++) {
		sleep_until(t_start + (i + 1) * gap_s * 1000000000LL);
		sp_start[i] = now_ns();
		while (now_ns() - sp_start[i] < spike_ms * 1000000LL)
			;
		sp_end[i] = now_ns();
		printf("spike %d start_ns=%lld end_ns=%lld\n", i, sp_start[i], sp_end[i]);
		fflush(stdout);
	}
	return NULL;
}

/*
 * spike_of - the spike whose [start - MARGIN, end + MARGIN] meets the wait [@from, @to],
 * or -1: a wait that began before it and ended after it is its wait too (under QEMU's
 * TCG a wakeup sent 19 ms before a 400 ms spike was still waiting when it began)
 */
static int spike_of(long long from, long long to)
{
	int i;

	for (i = 0; i < spikes; i++)
		if (to >= sp_start[i] - MARGIN_NS && from <= sp_end[i] + MARGIN_NS)
			return i;
	return -1;
}

/* report - the largest normal wait and each spike's largest wait */
static void report(void)
{
	long long normal = 0, *spw = calloc(spikes + 1, sizeof(*spw));
	long i, n = 0;
	int s;

	for (i = 0; i < nwait; i++) {
		long long w = got[i] - sent[i];

		s = spike_of(sent[i], got[i]);
		if (s >= 0) {
			if (w > spw[s])
				spw[s] = w;
		} else {
			n++;
			if (w > normal)
				normal = w;
		}
	}
	printf("normal_max_ns=%lld normal_n=%ld\n", normal, n);
	for (s = 0; s < spikes; s++)
		printf("spike_wait %d max_ns=%lld\n", s, spw[s]);
	free(spw);
}

int main(int argc, char **argv)
{
	pthread_t a, b, c;

	if (argc != 6) {
		fprintf(stderr, "usage: spiker CPU SECS SPIKES SPIKE_MS GAP_S\n");
		return 2;
	}
	cpu = atoi(argv[1]);
	secs = atoi(argv[2]);
	spikes = atoi(argv[3]);
	spike_ms = atol(argv[4]);
	gap_s = atol(argv[5]);
	if (secs <= 0 || spikes < 0 || spike_ms <= 0 || gap_s <= 0) {
		fprintf(stderr, "spiker: SECS, SPIKE_MS and GAP_S must be positive\n");
		return 2;
	}
	sp_start = calloc(spikes + 1, sizeof(*sp_start));
	sp_end = calloc(spikes + 1, sizeof(*sp_end));
	sent = calloc((long)secs * 1000 + 16, sizeof(*sent));
	got = calloc((long)secs * 1000 + 16, sizeof(*got));
	if (!sp_start || !sp_end || !sent || !got || pipe(fds)) {
		perror("spiker");
		return 1;
	}
	t_start = now_ns();
	pthread_create(&b, NULL, waiter, NULL);
	pthread_create(&c, NULL, hog, NULL);
	pthread_create(&a, NULL, waker, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	pthread_join(c, NULL);
	report();
	return 0;
}
