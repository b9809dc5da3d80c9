// SPDX-License-Identifier: GPL-2.0
/*
 * Switch-chain unit tests on hand-built event sequences: which switches are rebuilt,
 * when each is timed (the evidence rules), a task never running on two CPUs at once,
 * and the run time that timehist and latency then report.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analyzers/analyzer.h"
#include "cmd/options.h"
#include "events/chain.h"
#include "events/decode.h"
#include "events/tasks.h"
#include "lib/pidset.h"
#include "output/json.h"
#include "tests/unit/harness.h"
#include "tests/unit/sched_events.h"

#define MS	1000000ULL

/* ev_wake - a sched_waking of @pid recorded by @by */
static struct ft_event ev_wake(uint64_t ts, int cpu, int by, int pid)
{
	return ev_wake_as(FT_EV_WAKING, ts, cpu, by, pid);
}

/* ev_migrate - a sched_migrate_task of @pid to @dest, recorded by @by */
static struct ft_event ev_migrate(uint64_t ts, int cpu, int by, int pid, int dest)
{
	struct ft_event e = { .ts = ts, .cpu = cpu, .type = FT_EV_MIGRATE, .common_pid = by };

	e.mig.pid = pid;
	e.mig.orig_cpu = cpu;
	e.mig.dest_cpu = dest;
	return e;
}

/* ev_other - any other record, made by @pid */
static struct ft_event ev_other(uint64_t ts, int cpu, int pid)
{
	struct ft_event e = { .ts = ts, .cpu = cpu, .type = FT_EV_FUNC, .common_pid = pid };

	return e;
}

/* a switch out of idle that the kernel did not record is rebuilt between idle's last
 * record and the woken task's first one, timed at the wakeup */
static void test_chain_repair(void **state)
{
	struct ft_event e, synth[FT_CHAIN_MAX_SYNTH];
	struct ft_chain c;

	assert_int_equal(ft_chain_init(&c, 2, NULL), 0);
	e = ev_switch(10, 1, 5, 0, 'S');
	assert_int_equal(ft_chain_feed(&c, &e, synth), 0);
	e = ev_wake(20, 1, 0, 7);
	assert_int_equal(ft_chain_feed(&c, &e, synth), 0);
	e = ev_switch(30, 1, 7, 0, 'S');	/* 7 runs: its switch-in was never recorded */
	assert_int_equal(ft_chain_feed(&c, &e, synth), 1);
	assert_int_equal(synth[0].type, FT_EV_SWITCH);
	assert_int_equal(synth[0].cpu, 1);
	assert_int_equal(synth[0].sw.prev_pid, 0);
	assert_int_equal(synth[0].sw.next_pid, 7);
	assert_true(synth[0].sw.synth);
	assert_int_equal(synth[0].sw.ts_lo, 20);
	assert_int_equal(synth[0].sw.ts_est, 20);
	assert_int_equal(ft_switch_time(&synth[0]), 20);
	assert_true(synth[0].sw.unproven);	/* how long an idle CPU takes: not seen yet */
	assert_true(synth[0].sw.unlearned);	/* ... and said so */
	assert_int_equal(synth[0].ts, 30);
	assert_int_equal(c.repaired, 1);
	assert_int_equal(c.repaired_cpu[1], 1);
	e = ev_switch(40, 1, 0, 8, 'R');	/* an unbroken chain: nothing to repair */
	assert_int_equal(ft_chain_feed(&c, &e, synth), 0);
	/* after a loss the repaired switch says so */
	e.type = FT_EV_LOST;
	e.cpu = 1;
	ft_chain_feed(&c, &e, synth);
	e = ev_wake(50, 1, 9, 3);
	assert_int_equal(ft_chain_feed(&c, &e, synth), 1);
	assert_true(synth[0].sw.after_loss);
	ft_chain_fini(&c);
}

/*
 * a task moved to an idle CPU: its switch-in there is timed at its last record
 * elsewhere (the migration), not at the CPU's last record nor at its own first one
 */
static void test_chain_evidence_elsewhere(void **state)
{
	struct ft_event e, synth[FT_CHAIN_MAX_SYNTH];
	struct ft_chain c;

	assert_int_equal(ft_chain_init(&c, 2, NULL), 0);
	e = ev_switch(10, 1, 5, 0, 'S');		/* CPU 1 idle from 10 */
	ft_chain_feed(&c, &e, synth);
	e = ev_switch(20, 0, 0, 7, 'R');		/* 7 runs on CPU 0 */
	ft_chain_feed(&c, &e, synth);
	e = ev_switch(50, 0, 7, 9, 'R');		/* the stopper takes CPU 0 */
	ft_chain_feed(&c, &e, synth);
	e = ev_migrate(52, 0, 9, 7, 1);			/* and moves 7 to CPU 1 */
	ft_chain_feed(&c, &e, synth);
	e = ev_switch(2052, 1, 7, 0, 'S');		/* 7's first record there */
	assert_int_equal(ft_chain_feed(&c, &e, synth), 1);
	assert_int_equal(synth[0].sw.next_pid, 7);
	assert_int_equal(synth[0].sw.ts_lo, 10);
	assert_int_equal(synth[0].sw.ts_est, 52);
	assert_int_equal(synth[0].ts, 2052);
	ft_chain_fini(&c);
}

/*
 * a stream without wakeups (offcpu without --wakers): a task whose last evidence is
 * its own switch-out to sleep became ready at an unknown time, so its rebuilt
 * switch-in is timed at the record that proves it, not at that switch-out (which
 * made its whole sleep vanish from offcpu and counted it as run time); a preempted
 * task was ready all along and runs as soon as the CPU is idle
 */
static void test_chain_asleep_no_wakeup(void **state)
{
	struct ft_event e, synth[FT_CHAIN_MAX_SYNTH];
	struct ft_chain c;

	assert_int_equal(ft_chain_init(&c, 2, NULL), 0);
	e = ev_switch(10, 1, 7, 0, 'S');		/* 7 sleeps, CPU 1 idle */
	ft_chain_feed(&c, &e, synth);
	e = ev_switch(50010, 1, 7, 0, 'S');		/* 7's next record: asleep again */
	assert_int_equal(ft_chain_feed(&c, &e, synth), 1);
	assert_int_equal(synth[0].sw.next_pid, 7);
	assert_int_equal(synth[0].sw.ts_lo, 10);
	assert_int_equal(synth[0].sw.ts_min, 10);	/* it may have run from there */
	assert_int_equal(synth[0].sw.ts_est, 50010);
	e = ev_switch(60000, 0, 8, 0, 'R');		/* 8 preempted on CPU 0 */
	ft_chain_feed(&c, &e, synth);
	e = ev_other(60500, 1, 8);			/* and seen on idle CPU 1 */
	assert_int_equal(ft_chain_feed(&c, &e, synth), 1);
	assert_int_equal(synth[0].sw.ts_est, 60000);
	ft_chain_fini(&c);
}

/*
 * the task before was seen running after the woken task became ready: how long it
 * waited is unknown, so the switch stays at the record that proves it
 */
static void test_chain_busy_cpu(void **state)
{
	struct ft_event e, synth[FT_CHAIN_MAX_SYNTH];
	struct ft_chain c;

	assert_int_equal(ft_chain_init(&c, 1, NULL), 0);
	e = ev_switch(10, 0, 0, 3, 'R');		/* 3 runs */
	ft_chain_feed(&c, &e, synth);
	e = ev_wake(20, 0, 3, 7);			/* and wakes 7 */
	ft_chain_feed(&c, &e, synth);
	e = ev_other(30, 0, 3);				/* 3 still runs at 30 */
	ft_chain_feed(&c, &e, synth);
	e = ev_other(1000, 0, 7);			/* 3 -> 7 was not recorded */
	assert_int_equal(ft_chain_feed(&c, &e, synth), 1);
	assert_int_equal(synth[0].sw.prev_pid, 3);
	assert_int_equal(synth[0].sw.ts_min, 30);
	assert_int_equal(synth[0].sw.ts_est, 1000);
	assert_true(synth[0].sw.unproven);		/* no wait ends there */
	assert_false(synth[0].sw.unlearned);		/* for another reason than learning */
	/* 3 left at or after 30: its next switch-in elsewhere cannot be timed before */
	assert_int_equal(ft_chain_task(&c, 3)->ts, 1000);
	ft_chain_fini(&c);
}

/* a task seen on CPU 0 while the chain has it on CPU 1: the run on CPU 1 is ended */
static void test_chain_two_cpus(void **state)
{
	struct ft_event e, synth[FT_CHAIN_MAX_SYNTH];
	struct ft_chain c;

	assert_int_equal(ft_chain_init(&c, 2, NULL), 0);
	e = ev_switch(5, 0, 0, 4, 'R');			/* 4 on CPU 0 */
	ft_chain_feed(&c, &e, synth);
	e = ev_switch(10, 1, 0, 7, 'R');		/* 7 on CPU 1 */
	ft_chain_feed(&c, &e, synth);
	e = ev_other(40, 1, 7);				/* 7's last record there */
	ft_chain_feed(&c, &e, synth);
	e = ev_other(500, 0, 7);			/* 7 on CPU 0: it left CPU 1 unseen */
	assert_int_equal(ft_chain_feed(&c, &e, synth), 2);
	assert_int_equal(synth[0].cpu, 1);
	assert_int_equal(synth[0].sw.prev_pid, 7);
	assert_int_equal(synth[0].sw.next_pid, 0);
	assert_int_equal(synth[0].sw.ts_est, 40);
	assert_int_equal(synth[1].cpu, 0);
	assert_int_equal(synth[1].sw.prev_pid, 4);
	assert_int_equal(synth[1].sw.next_pid, 7);
	assert_int_equal(synth[1].sw.ts_est, 40);	/* CPU 0 silent: 7's evidence */
	assert_int_equal(c.cpu[1].cur, 0);
	assert_int_equal(c.split, 1);
	/* the same through a recorded switch-in: 7 is back on CPU 1, then 0 -> 7 on 0 */
	e = ev_switch(600, 0, 7, 4, 'R');
	ft_chain_feed(&c, &e, synth);
	e = ev_switch(700, 1, 0, 7, 'R');
	assert_int_equal(ft_chain_feed(&c, &e, synth), 0);
	e = ev_switch(800, 0, 4, 7, 'R');
	assert_int_equal(ft_chain_feed(&c, &e, synth), 1);
	assert_int_equal(synth[0].cpu, 1);
	assert_int_equal(synth[0].sw.prev_pid, 7);
	assert_int_equal(c.split, 2);
	ft_chain_fini(&c);
}

/* a task's first records on two CPUs whose tasks were unknown: the first run ends */
static void test_chain_first_records(void **state)
{
	struct ft_event e, synth[FT_CHAIN_MAX_SYNTH];
	struct ft_chain c;

	assert_int_equal(ft_chain_init(&c, 2, NULL), 0);
	e = ev_other(10, 0, 3);				/* 3 on CPU 0, from the start */
	assert_int_equal(ft_chain_feed(&c, &e, synth), 0);
	e = ev_other(50, 1, 3);				/* then on CPU 1 */
	assert_int_equal(ft_chain_feed(&c, &e, synth), 1);
	assert_int_equal(synth[0].cpu, 0);
	assert_int_equal(synth[0].sw.prev_pid, 3);
	assert_int_equal(synth[0].sw.next_pid, 0);
	assert_int_equal(synth[0].sw.ts_est, 10);
	assert_int_equal(c.cpu[0].cur, 0);
	assert_int_equal(c.cpu[1].cur, 3);
	assert_int_equal(c.split, 1);
	ft_chain_fini(&c);
}

/* in a pid-filtered stream, untraced tasks appear without switch-ins: no repair */
static void test_chain_filtered(void **state)
{
	struct ft_event e, synth[FT_CHAIN_MAX_SYNTH];
	struct ft_imap traced;	/* a filtered stream that records pid 7 only */
	struct ft_chain c;

	assert_int_equal(ft_imap_init(&traced, 4), 0);
	assert_non_null(ft_imap_put(&traced, 7, 1));
	assert_int_equal(ft_chain_init(&c, 1, &traced), 0);
	e = ev_switch(10, 0, 7, 4, 'S');
	ft_chain_feed(&c, &e, synth);
	e = ev_switch(20, 0, 9, 7, 'S');	/* 4 -> 9 was not recorded: expected */
	assert_int_equal(ft_chain_feed(&c, &e, synth), 0);
	assert_int_equal(c.resynced, 1);
	assert_int_equal(c.repaired, 0);
	ft_chain_fini(&c);
	ft_imap_fini(&traced);
}

/* pids no kernel gives are not followed, and cost nothing */
static void test_chain_bad_pids(void **state)
{
	struct ft_event e, synth[FT_CHAIN_MAX_SYNTH];
	struct ft_chain c;

	assert_int_equal(ft_chain_init(&c, 1, NULL), 0);
	e = ev_switch(10, 0, -5, 1 << 30, 'S');
	ft_chain_feed(&c, &e, synth);
	e = ev_wake(20, 0, 1 << 30, -1);
	assert_int_equal(ft_chain_feed(&c, &e, synth), 0);
	e = ev_other(30, 0, 3);		/* 3 runs where 1 << 30 did: repaired */
	assert_int_equal(ft_chain_feed(&c, &e, synth), 1);
	assert_int_equal(synth[0].sw.prev_pid, 1 << 30);
	assert_int_equal(synth[0].sw.next_pid, 3);
	assert_int_equal(c.nleaves, 1);		/* 3's: 1 << 30 and -5 are no pids */
	/* the largest pid a kernel gives costs one more leaf, not a table up to it */
	assert_non_null(ft_chain_task(&c, (1 << 22) - 1));
	assert_null(ft_chain_task(&c, 1 << 22));
	assert_int_equal(c.nleaves, 2);
	ft_chain_fini(&c);
}

/*
 * The hopper workload in miniature: 7 spins 2 ms on CPU 0, sleeps, is woken on idle
 * CPU 1 by a timer and spins 2 ms there, where the switch out of idle is never
 * recorded. Its run time is 4 ms (the switch-in at the wakeup), not 2 ms (at its own
 * switch-out, the first record proving it ran).
 */
static const struct ft_event hop[] = {
	{ .ts = 1000, .cpu = 1, .type = FT_EV_SWITCH, .common_pid = 5,
	  .sw = { .prev_pid = 5, .next_pid = 0, .state = 'S', .prev_state = 1 } },
	{ .ts = 10000, .cpu = 0, .type = FT_EV_SWITCH, .common_pid = 0,
	  .sw = { .prev_pid = 0, .next_pid = 7, .state = 'R' } },
	{ .ts = 10000 + 2 * MS, .cpu = 0, .type = FT_EV_SWITCH, .common_pid = 7,
	  .sw = { .prev_pid = 7, .next_pid = 0, .state = 'S', .prev_state = 1 } },
	{ .ts = 10000 + 5 * MS, .cpu = 1, .type = FT_EV_WAKING, .common_pid = 0,
	  .wk = { .pid = 7, .target_cpu = 1 } },
	{ .ts = 10000 + 7 * MS, .cpu = 1, .type = FT_EV_SWITCH, .common_pid = 7,
	  .sw = { .prev_pid = 7, .next_pid = 0, .state = 'S', .prev_state = 1 } },
};

/* run_hop - the events through the chain into @a (options @opts), JSON report in @out */
static void run_hop(const struct ft_analyzer *a, const char *opts, char *out, size_t len)
{
	struct ft_event evs[5], synth[FT_CHAIN_MAX_SYNTH];
	struct ft_chain c;
	struct ut_run r;
	int i, n;

	memcpy(evs, hop, sizeof(evs));
	for (i = 0; i < 5; i++)
		if (evs[i].type == FT_EV_SWITCH)
			evs[i].sw.prev_comm = evs[i].sw.next_comm = comm_t;
		else
			evs[i].wk.comm = comm_t;
	assert_int_equal(ft_chain_init(&c, 2, NULL), 0);
	ut_start(&r, a);
	r.env.json = true;
	r.env.have = FT_NEED(FT_EV_SWITCH) | FT_NEED(FT_EV_WAKING);
	ut_opts(&r, opts);
	ut_init(&r);
	for (i = 0; i < 5; i++) {
		n = ft_chain_feed(&c, &evs[i], synth);
		ut_feed(&r, synth, n);
		ut_feed(&r, &evs[i], 1);
	}
	snprintf(out, len, "%s", ut_report(&r, true));
	ut_finish(&r);
	ft_chain_fini(&c);
}

/* ev_resume - @pid returns to user space (rseq_update) */
static struct ft_event ev_resume(uint64_t ts, int cpu, int pid)
{
	struct ft_event e = ev_other(ts, cpu, pid);

	e.type = FT_EV_RESUME;
	return e;
}

/*
 * delays learned where the kernel recorded the switch time those it did not: a
 * return to user space comes as long after a switch-in from idle as it came after the
 * recorded ones (13 us here); without it, or after an uninterruptible sleep (the
 * sooner of the two), an idle CPU takes a woken task as long as it took where
 * recorded (20 us); the estimate never leaves [the latest evidence, hi]
 */
static void test_chain_learned_delays(void **state)
{
	struct ft_event e, synth[FT_CHAIN_MAX_SYNTH];
	struct ft_chain c;
	uint64_t t = 0;
	int i;

	assert_int_equal(ft_chain_init(&c, 2, NULL), 0);
	/* nothing learned yet: an uninterruptible sleep's return to user space is no proof
	   of when it ran */
	e = ev_switch(1000, 1, 9, 0, 'D');
	ft_chain_feed(&c, &e, synth);
	e = ev_wake(2000, 1, 0, 9);
	ft_chain_feed(&c, &e, synth);
	e = ev_resume(400000, 1, 9);
	assert_int_equal(ft_chain_feed(&c, &e, synth), 1);
	assert_int_equal(synth[0].sw.ts_est, 2000);
	assert_true(synth[0].sw.unproven);
	assert_true(synth[0].sw.unlearned);
	e = ev_switch(401000, 1, 9, 0, 'S');
	ft_chain_feed(&c, &e, synth);
	for (i = 0; i < FT_GAP_MIN; i++, t += 100000) {
		assert_int_equal(c.resume[1].median, 0);	/* too few to go by */
		e = ev_switch(t + 10000, 0, 7, 0, 'S');	/* CPU 0 idles */
		ft_chain_feed(&c, &e, synth);
		e = ev_wake(t + 20000, 0, 0, 7);
		ft_chain_feed(&c, &e, synth);
		e = ev_switch(t + 40000, 0, 0, 7, 'R');	/* recorded: 20 us from idle */
		assert_int_equal(ft_chain_feed(&c, &e, synth), 0);
		e = ev_resume(t + 53000, 0, 7);		/* in user space 13 us later */
		assert_int_equal(ft_chain_feed(&c, &e, synth), 0);
	}
	assert_int_equal(c.idle_in.median, 20125);	/* the middle of its 250 ns slot */
	assert_int_equal(c.resume[1].median, 13125);
	assert_int_equal(c.resume[0].count, 0);

	e = ev_switch(300000, 1, 8, 0, 'S');		/* CPU 1 idles */
	ft_chain_feed(&c, &e, synth);
	e = ev_wake(400000, 1, 0, 9);
	ft_chain_feed(&c, &e, synth);
	e = ev_resume(450000, 1, 9);			/* 9's first record: its return */
	assert_int_equal(ft_chain_feed(&c, &e, synth), 1);
	assert_int_equal(synth[0].sw.ts_min, 400000);
	assert_int_equal(synth[0].sw.ts_est, 450000 - 13125);
	assert_false(synth[0].sw.unproven);
	assert_int_equal(c.resume[1].count, FT_GAP_MIN);	/* none from a rebuilt switch */

	e = ev_switch(460000, 1, 9, 0, 'S');
	ft_chain_feed(&c, &e, synth);
	e = ev_wake(500000, 1, 0, 9);
	ft_chain_feed(&c, &e, synth);
	e = ev_switch(900000, 1, 9, 0, 'S');		/* its first record: a switch-out */
	assert_int_equal(ft_chain_feed(&c, &e, synth), 1);
	assert_int_equal(synth[0].sw.ts_est, 500000 + 20125);
	assert_false(synth[0].sw.unproven);

	e = ev_wake(1000000, 1, 0, 9);
	ft_chain_feed(&c, &e, synth);
	e = ev_resume(1005000, 1, 9);			/* sooner than the learned delay */
	assert_int_equal(ft_chain_feed(&c, &e, synth), 1);
	assert_int_equal(synth[0].sw.ts_est, 1000000);	/* not before the wakeup */
	e = ev_switch(1006000, 1, 9, 0, 'S');
	ft_chain_feed(&c, &e, synth);
	e = ev_wake(1100000, 1, 0, 9);
	ft_chain_feed(&c, &e, synth);
	e = ev_switch(1110000, 1, 9, 0, 'S');		/* sooner than the idle delay */
	assert_int_equal(ft_chain_feed(&c, &e, synth), 1);
	assert_int_equal(synth[0].sw.ts_est, 1110000);	/* not after its record */

	/* an uninterruptible sleep woken on idle CPU 1: the kernel work it slept in goes
	   on before the way back (an exec reading from disk): the idle CPU's delay */
	e = ev_switch(1200000, 1, 9, 0, 'D');
	ft_chain_feed(&c, &e, synth);
	e = ev_wake(1300000, 1, 0, 9);
	ft_chain_feed(&c, &e, synth);
	e = ev_resume(1700000, 1, 9);
	assert_int_equal(ft_chain_feed(&c, &e, synth), 1);
	assert_int_equal(synth[0].sw.ts_est, 1300000 + 20125);
	/* ... or the way back when that is sooner */
	e = ev_switch(1710000, 1, 9, 0, 'D');
	ft_chain_feed(&c, &e, synth);
	e = ev_wake(1800000, 1, 0, 9);
	ft_chain_feed(&c, &e, synth);
	e = ev_resume(1815000, 1, 9);
	assert_int_equal(ft_chain_feed(&c, &e, synth), 1);
	assert_int_equal(synth[0].sw.ts_est, 1815000 - 13125);
	/* an interruptible one: the way back, however long */
	e = ev_switch(1820000, 1, 9, 0, 'S');
	ft_chain_feed(&c, &e, synth);
	e = ev_wake(1900000, 1, 0, 9);
	ft_chain_feed(&c, &e, synth);
	e = ev_resume(2300000, 1, 9);
	assert_int_equal(ft_chain_feed(&c, &e, synth), 1);
	assert_int_equal(synth[0].sw.ts_est, 2300000 - 13125);
	ft_chain_fini(&c);
}

/* timehist -s: 4 ms of run time for 7, one run resting on a rebuilt switch */
static void test_timehist_runtime_rebuilt(void **state)
{
	extern const struct ft_analyzer ft_timehist;
	char out[8192] = { 0 }, *t;

	run_hop(&ft_timehist, "s", out, sizeof(out));
	t = strstr(out, "\"tid\":7");
	assert_non_null(t);
	assert_non_null(strstr(t, "\"run_ns\":4000000,"));
	assert_non_null(strstr(t, "\"rebuilt_runs\":1,"));
	/* the switch lies between the wakeup and 7's switch-out: 2 ms less at most */
	assert_non_null(strstr(t, "\"run_min_ns\":2000000,"));
	assert_non_null(strstr(t, "\"run_max_ns\":4000000"));
}

/* latency: the same 4 ms in its Runtime column */
static void test_latency_runtime_rebuilt(void **state)
{
	extern const struct ft_analyzer ft_latency;
	char out[8192] = { 0 }, *t;

	run_hop(&ft_latency, "", out, sizeof(out));
	t = strstr(out, "\"pid\":7");
	assert_non_null(t);
	assert_non_null(strstr(t, "\"runtime_ns\":4000000,"));
	assert_non_null(strstr(t, "\"rebuilt_runs\":1,"));
}

/* main - run the suite */
int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_chain_repair),
		cmocka_unit_test(test_chain_evidence_elsewhere),
		cmocka_unit_test(test_chain_asleep_no_wakeup),
		cmocka_unit_test(test_chain_busy_cpu),
		cmocka_unit_test(test_chain_two_cpus),
		cmocka_unit_test(test_chain_first_records),
		cmocka_unit_test(test_chain_filtered),
		cmocka_unit_test(test_chain_bad_pids),
		cmocka_unit_test(test_chain_learned_delays),
		cmocka_unit_test(test_timehist_runtime_rebuilt),
		cmocka_unit_test(test_latency_runtime_rebuilt),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
