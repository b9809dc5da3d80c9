// SPDX-License-Identifier: GPL-2.0
/*
 * The flight recorder's store on hand-built pages with known times: which pages a
 * CPU keeps for --flight SECS (and the merge's lag), which a window holds, the
 * windows a trigger takes (one inside a taken window is in it, --trigger-max), a
 * window that --flight-size cut, and a window's first pages cut to its start.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/flight.h"
#include "events/tasks.h"
#include "tracer/session_state.h"

#define SEC	1000000000ULL
#define MS	1000000ULL
#define PAGE	4096

static struct ft_session sess;
static struct ft_tasks tasks;

/* start - a recorder of 2 CPUs keeping @keep_s, a trigger of 10 ms, after 1 s, @max files */
static void start(struct ft_flight *f, double keep_s, long max, long size_mb)
{
	struct ft_flight_opts o = { .keep_s = keep_s, .trigger_ms = 10, .after_s = 1,
				    .max_files = max, .size_mb = size_mb };

	sess.ncpus = 2;
	sess.pf = (struct ft_page_fmt){ .commit_size = 8, .data_offset = 16, .subbuf_size = PAGE };
	assert_int_equal(ft_tasks_init(&tasks, false), 0);
	assert_int_equal(ft_flight_init(f, &o, "/tmp/ftscope-flight-test.dat", "runqlat", "wait",
					&sess, &tasks), 0);
}

/* page - a page of @cpu whose first record is at @ts, events lost before it when @missed */
static void page(struct ft_flight *f, int cpu, uint64_t ts, bool missed)
{
	unsigned char p[PAGE] = { 0 };
	uint64_t commit = 8 | (missed ? 1ULL << 31 : 0);

	memcpy(p, &ts, 8);
	memcpy(p + 8, &commit, 8);
	ft_flight_tap(f, cpu, p, PAGE);
}

/* Pages a window handed on: their CPUs and times. */
static struct { int cpu; uint64_t ts; } got[4096];
static int ngot;
static unsigned char part0[PAGE];	/* the first page handed on */

/* take - ft_page_tap_fn: a window's page noted */
static void take(void *ctx, int cpu, const void *p, unsigned int len)
{
	(void)ctx;
	assert_int_equal(len, PAGE);
	got[ngot].cpu = cpu;
	memcpy(&got[ngot].ts, p, 8);
	if (!ngot)
		memcpy(part0, p, PAGE);
	ngot++;
}

/* window - the pages of [from, to] (seconds) into got */
static void window(struct ft_flight *f, double from, double to, struct ft_flight_window *w)
{
	*w = (struct ft_flight_window){ .from = (uint64_t)(from * SEC),
					.to = (uint64_t)(to * SEC) };
	ngot = 0;
	ft_flight_window(f, w, take, NULL);
}

/* finish - everything freed */
static void finish(struct ft_flight *f)
{
	ft_flight_fini(f);
	ft_tasks_fini(&tasks);
}

/*
 * --flight 2: pages every 0.5 s from 1 to 11 s on CPU 0, every second on CPU 1. The
 * store keeps what the last 2 s and the 2 s of the merge's lag may need: from 7 s
 * (a page ends where the next begins: the one at 6.5 s goes; CPU 0: 7 .. 11, CPU 1:
 * 7 .. 11). A window of [8.2, 10] holds the pages that overlap it, oldest first per
 * CPU, the one that began before 8.2 and runs into it too; a page after lost events
 * is counted. Seen failing with the page running into the window left out.
 */
static void test_flight_keeps_and_windows(void **state)
{
	struct ft_flight_window w;
	struct ft_flight f;
	uint64_t t;

	(void)state;
	start(&f, 2, 1, 8);
	for (t = 2; t <= 22; t++) {
		page(&f, 0, t * SEC / 2, t == 17);
		if (!(t % 2))
			page(&f, 1, t * SEC / 2, false);
	}
	window(&f, 0, 100, &w);
	assert_int_equal(ngot, 9 + 5);
	assert_true(got[0].cpu == 0 && got[0].ts == 7 * SEC);
	assert_true(got[9].cpu == 1 && got[9].ts == 7 * SEC);
	window(&f, 8.2, 10, &w);
	assert_int_equal(ngot, 5 + 3);
	assert_true(got[0].ts == 8 * SEC && got[4].ts == 10 * SEC);
	assert_true(got[5].cpu == 1 && got[5].ts == 8 * SEC && got[7].ts == 10 * SEC);
	assert_int_equal(w.first, 8 * SEC);
	assert_int_equal(w.lost_pages, 1);	/* CPU 0's page at 8.5 s */
	assert_false(w.cut);
	finish(&f);
}

/*
 * Triggers: a latency over 10 ms takes a window; one inside it (before its end: 1 s
 * after) is in that file; one after it takes a second; with --trigger-max 2 a third
 * is refused; latencies at or under the trigger take none. Seen failing with a
 * latency inside a taken window taking its own.
 */
static void test_flight_triggers(void **state)
{
	struct ft_latency l = { .ns = 20 * MS, .tid = 42, .cpu = 1 };
	struct ft_flight f;

	(void)state;
	start(&f, 2, 2, 8);
	l.ts = 5 * SEC;
	l.ns = 10 * MS;
	ft_flight_latency(&f, &l);		/* at the trigger: not over it */
	assert_int_equal(f.nev, 0);
	l.ns = 20 * MS;
	ft_flight_latency(&f, &l);
	l.ts = 5500 * MS;			/* inside [3, 6] */
	ft_flight_latency(&f, &l);
	assert_int_equal(f.nev, 1);
	l.ts = 6100 * MS;
	ft_flight_latency(&f, &l);
	l.ts = 9 * SEC;				/* the third: --trigger-max 2 */
	ft_flight_latency(&f, &l);
	assert_int_equal(f.nev, 2);
	assert_int_equal(f.ev[0].ts, 5 * SEC);
	assert_int_equal(f.ev[1].ts, 6100 * MS);
	assert_int_equal(f.ev[0].tid, 42);
	finish(&f);
}

/*
 * --flight-size: 2 MB for 2 CPUs keeps 256 pages of CPU 0; 400 pages 1 ms apart all
 * inside the last 2 s: the oldest 144 go, and a window reaching back before them says
 * it was cut, from its first kept page. Seen failing with the cut not marked.
 */
static void test_flight_size_cut(void **state)
{
	struct ft_flight_window w;
	struct ft_flight f;
	int i;

	(void)state;
	start(&f, 2, 1, 2);
	for (i = 0; i < 400; i++)
		page(&f, 0, 10 * SEC + i * MS, false);
	window(&f, 9, 11, &w);
	assert_int_equal(ngot, 256);
	assert_int_equal(got[0].ts, 10 * SEC + 144 * MS);
	assert_true(w.cut);
	window(&f, 10.3, 11, &w);		/* after the pages that went: whole */
	assert_false(w.cut);
	finish(&f);
}

/* rpage - a page of @cpu with @n 4-byte records from @ts, @step apart */
static void rpage(struct ft_flight *f, int cpu, uint64_t ts, int n, uint64_t step)
{
	unsigned char p[PAGE] = { 0 };
	uint64_t commit = (uint64_t)n * 8;
	int i;

	memcpy(p, &ts, 8);
	memcpy(p + 8, &commit, 8);
	for (i = 0; i < n; i++) {
		uint32_t hdr = 1 | (uint32_t)((i ? step : 0) << 5);	/* type_len 1 */

		memcpy(p + 16 + i * 8, &hdr, 4);
	}
	ft_flight_tap(f, cpu, p, PAGE);
}

/*
 * A window's pages begin at its start: CPU 0's only page (records at 1 and 1.05 s)
 * stays in the store as its last, but a window of [8.2, 10] leaves it out; CPU 1's
 * page of 8.1 .. 8.25 s (50 ms apart) comes cut to its records from 8.2 s, stamped
 * 8.15 s (the time the first one's delta counts from), 2 records; the window starts
 * at 8.2 s. Seen failing with pages kept whole (3 pages: CPU 0's of 1 s, whose wakeups
 * timehist paired with switch-ins 7 s later).
 */
static void test_flight_window_cut(void **state)
{
	struct ft_flight_window w;
	struct ft_flight f;
	uint64_t commit;

	(void)state;
	start(&f, 2, 1, 8);
	rpage(&f, 0, 1 * SEC, 2, 50 * MS);
	rpage(&f, 1, 8100 * MS, 4, 50 * MS);
	rpage(&f, 1, 8500 * MS, 1, 0);
	window(&f, 8.2, 10, &w);
	assert_int_equal(ngot, 2);
	assert_true(got[0].cpu == 1 && got[0].ts == 8150 * MS);
	assert_true(got[1].cpu == 1 && got[1].ts == 8500 * MS);
	memcpy(&commit, part0 + 8, 8);
	assert_int_equal(commit, 16);
	assert_int_equal(w.first, 8200 * MS);
	finish(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flight_keeps_and_windows),
		cmocka_unit_test(test_flight_triggers),
		cmocka_unit_test(test_flight_size_cut),
		cmocka_unit_test(test_flight_window_cut),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
