// SPDX-License-Identifier: GPL-2.0
/*
 * Core unit tests on bytes and events with known answers: hand-built ring-buffer
 * pages (merge order, watermark, losses, damage), runqlat
 * pairing, histogram layout and percentiles, the int map, option parsing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <traceevent/event-parse.h>

#include "analyzers/analyzer.h"
#include "analyzers/offcpu_int.h"
#include "cmd/options.h"
#include "events/chain.h"
#include "events/decode.h"
#include "events/merge.h"
#include "events/tasks.h"
#include "events/tep.h"
#include "lib/pidset.h"
#include "lib/util.h"
#include "output/hist.h"
#include "output/line.h"
#include "tests/unit/harness.h"
#include "tests/unit/sched_events.h"

#define K618	"tests/data/k6.18"

/* ---- hand-built pages ---------------------------------------------------- */

struct pagebuild {
	unsigned char	*pg;
	unsigned int	off;
	uint64_t	last;
};

/* pb_start - a page whose first record is at @ts */
static void pb_start(struct pagebuild *b, unsigned char *pg, uint64_t ts)
{
	memset(pg, 0, 4096);
	b->pg = pg;
	b->off = 16;
	b->last = ts;
	memcpy(pg, &ts, 8);
}

/* pb_add - append a data record (len multiple of 4, <= 112) at absolute @ts */
static void pb_add(struct pagebuild *b, uint64_t ts, const void *data, unsigned int len)
{
	uint32_t hdr = (uint32_t)((ts - b->last) << 5) | (len / 4);
	uint64_t commit;

	memcpy(b->pg + b->off, &hdr, 4);
	memcpy(b->pg + b->off + 4, data, len);
	b->off += 4 + len;
	b->last = ts;
	commit = b->off - 16;
	memcpy(b->pg + 8, &commit, 8);
}

struct fixture {
	struct tep_handle	*tep;
	struct ft_page_fmt	pf;
	struct ft_decoder	dec;
};

/* load_618 - tep and decoder over this project's recorded 6.18 formats */
static void load_618(struct fixture *f)
{
	f->tep = ft_tep_load(ft_dir_format_read, (void *)K618, FT_NEED(FT_EV_SWITCH) |
			     FT_NEED(FT_EV_WAKEUP) | FT_NEED(FT_EV_WAKING), &f->pf, 0);
	assert_non_null(f->tep);
	assert_int_equal(ft_decoder_init(&f->dec, f->tep), 0);
}

/* rec_wakeup - a sched_wakeup payload built from the format's own offsets */
static unsigned int rec_wakeup(struct fixture *f, unsigned char *buf, int common_pid, int pid)
{
	struct tep_event *ev = tep_find_event_by_name(f->tep, "sched", "sched_wakeup");
	uint16_t id = ev->id;

	memset(buf, 0, 40);
	memcpy(buf, &id, 2);
	memcpy(buf + f->dec.common_pid.off, &common_pid, 4);
	memcpy(buf + f->dec.wk[1].pid.off, &pid, 4);
	memcpy(buf + f->dec.wk[1].comm.off, "wl", 3);
	return 40;
}

struct seen {
	int		n;
	uint64_t	ts[32];
	int		cpu[32];
	long long	lost[32];
};

/* record_raw - remember what the merge emitted */
static void record_raw(void *ctx, const struct ft_raw *r, unsigned int n)
{
	struct seen *s = ctx;
	unsigned int i;

	for (i = 0; i < n; i++, s->n++)
		if (s->n < 32) {
			s->ts[s->n] = r[i].ts;
			s->cpu[s->n] = r[i].cpu;
			s->lost[s->n] = r[i].lost;
		}
}

/* queue - hand a built page to the merge */
static void queue(struct ft_merge *m, int cpu, const unsigned char *page)
{
	struct ft_pagebuf *pg = ft_merge_page_get(m);

	memcpy(pg->data, page, 4096);
	ft_merge_page_put(m, cpu, pg, 4096);
}

/* records of two CPUs come out in time order, and only up to the watermark */
static void test_merge_order_watermark(void **state)
{
	static const uint64_t want[] = { 100, 200, 300, 400, 500 };
	static const int want_cpu[] = { 0, 1, 0, 1, 0 };
	unsigned char p0[4096], p1[4096], rec[64];
	struct pagebuild b;
	struct fixture f;
	struct seen s = { 0 };
	struct ft_merge m;
	int i;

	load_618(&f);
	rec_wakeup(&f, rec, 1, 7);
	pb_start(&b, p0, 100);
	pb_add(&b, 100, rec, 40);
	pb_add(&b, 300, rec, 40);
	pb_add(&b, 500, rec, 40);
	pb_start(&b, p1, 200);
	pb_add(&b, 200, rec, 40);
	pb_add(&b, 400, rec, 40);
	assert_int_equal(ft_merge_init(&m, &f.pf, 2, record_raw, &s), 0);
	queue(&m, 0, p0);
	queue(&m, 1, p1);
	assert_int_equal(ft_merge_run(&m, 250), 2);
	assert_int_equal(s.n, 2);
	assert_int_equal(ft_merge_run(&m, UINT64_MAX), 3);
	for (i = 0; i < 5; i++) {
		assert_int_equal(s.ts[i], want[i]);
		assert_int_equal(s.cpu[i], want_cpu[i]);
	}
	assert_int_equal(m.unordered, 0);
	ft_merge_fini(&m);
	ft_decoder_fini(&f.dec);
	tep_free(f.tep);
}

struct order {
	int		n;
	uint64_t	ts;
	int		cpu;
	bool		ok;
};

/* check_order - every record comes after the one before it by (time, CPU) */
static void check_order(void *ctx, const struct ft_raw *r, unsigned int n)
{
	struct order *o = ctx;
	unsigned int i;

	for (i = 0; i < n; i++, o->n++) {
		if (o->n && (r[i].ts < o->ts || (r[i].ts == o->ts && r[i].cpu <= o->cpu)))
			o->ok = false;
		o->ts = r[i].ts;
		o->cpu = r[i].cpu;
	}
}

/* many CPUs (merged through a heap) and few (by a scan) give the same order, ties too */
static void test_merge_many_cpus(void **state)
{
	static unsigned char pages[24][4096];
	unsigned char rec[64];
	unsigned int ncpus[] = { 3, 24 }, t, c, k;
	struct pagebuild b;
	struct fixture f;

	load_618(&f);
	rec_wakeup(&f, rec, 1, 7);
	for (t = 0; t < 2; t++) {
		struct order o = { .ok = true };
		struct ft_merge m;

		assert_int_equal(ft_merge_init(&m, &f.pf, ncpus[t], check_order, &o), 0);
		for (c = 0; c < ncpus[t]; c++) {
			/* CPUs c, c + 3, ... share their times: ties across CPUs */
			pb_start(&b, pages[c], 100 + c % 3);
			for (k = 0; k < 60; k++)
				pb_add(&b, 100 + 10 * k * (1 + c % 2) + c % 3, rec, 40);
			queue(&m, c, pages[c]);
		}
		k = (unsigned int)ft_merge_run(&m, 700);
		assert_int_equal(k, o.n);
		assert_true(o.n > 0 && o.ts <= 700);
		ft_merge_run(&m, UINT64_MAX);
		assert_int_equal(o.n, 60 * ncpus[t]);
		assert_true(o.ok);
		assert_int_equal(m.unordered, 0);
		ft_merge_fini(&m);
	}
	ft_decoder_fini(&f.dec);
	tep_free(f.tep);
}

/* a loss noted after a CPU's pages comes out before that CPU's next record;
 * a page whose commit says "missed events" carries a loss of unknown size;
 * a page whose commit is larger than the page is dropped as damaged */
static void test_merge_losses_and_damage(void **state)
{
	unsigned char p[4096], rec[64];
	struct pagebuild b;
	struct fixture f;
	struct seen s = { 0 };
	struct ft_merge m;
	uint64_t commit;

	load_618(&f);
	rec_wakeup(&f, rec, 1, 7);
	assert_int_equal(ft_merge_init(&m, &f.pf, 2, record_raw, &s), 0);
	ft_merge_loss(&m, 1, 7);
	pb_start(&b, p, 1000);
	pb_add(&b, 1000, rec, 40);
	queue(&m, 1, p);
	ft_merge_run(&m, UINT64_MAX);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.lost[0], 7);
	assert_int_equal(s.lost[1], 0);
	assert_int_equal(s.ts[1], 1000);

	pb_start(&b, p, 2000);
	pb_add(&b, 2000, rec, 40);
	commit = (b.off - 16) | (1UL << 31);
	memcpy(p + 8, &commit, 8);
	queue(&m, 0, p);
	ft_merge_run(&m, UINT64_MAX);
	assert_int_equal(s.n, 4);
	assert_int_equal(s.lost[2], -1);
	assert_int_equal(s.ts[3], 2000);

	commit = 5000;
	memcpy(p + 8, &commit, 8);
	queue(&m, 0, p);
	ft_merge_run(&m, UINT64_MAX);
	assert_int_equal(s.n, 4);
	assert_int_equal(m.cpu[0].bad_pages, 1);
	ft_merge_fini(&m);
	ft_decoder_fini(&f.dec);
	tep_free(f.tep);
}

/* header_page parsing: 64-bit and 32-bit kernels, and garbage */
static void test_page_fmt(void **state)
{
	static const char h64[] = "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
		"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
		"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
		"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n";
	static const char h32[] = "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
		"\tfield: local_t commit;\toffset:8;\tsize:4;\tsigned:1;\n"
		"\tfield: char data;\toffset:12;\tsize:4084;\tsigned:1;\n";
	struct ft_page_fmt pf;

	assert_int_equal(ft_page_fmt_parse(&pf, h64, strlen(h64)), 0);
	assert_int_equal(pf.commit_size, 8);
	assert_int_equal(pf.data_offset, 16);
	assert_int_equal(pf.subbuf_size, 4096);
	assert_int_equal(ft_page_fmt_parse(&pf, h32, strlen(h32)), 0);
	assert_int_equal(pf.commit_size, 4);
	assert_int_equal(pf.data_offset, 12);
	assert_int_equal(ft_page_fmt_parse(&pf, "nonsense", 8), -1);
}

/* ---- test events ---------------------------------------------------------- */

/* ev_wake - a sched_wakeup of @pid recorded by @by */
static struct ft_event ev_wake(uint64_t ts, int cpu, int by, int pid)
{
	return ev_wake_as(FT_EV_WAKEUP, ts, cpu, by, pid);
}

/* ---- runqlat ------------------------------------------------------------- */

/* run_waits - analyzer @a (-u) over @evs, its report into @out */
static void run_waits(const struct ft_analyzer *a, const struct ft_event *evs, int n,
		      char *out, size_t len)
{
	struct ut_run r;

	ut_start(&r, a);
	r.env.ncpus = 0;
	ut_opts(&r, "u");
	ut_init(&r);
	ut_feed(&r, evs, n);
	snprintf(out, len, "%s", ut_report(&r, false));
	ut_finish(&r);
}

/* run_runqlat - feed events to runqlat and print its report into @out */
static void run_runqlat(const struct ft_event *evs, int n, char *out, size_t len)
{
	extern const struct ft_analyzer ft_runqlat;

	run_waits(&ft_runqlat, evs, n, out, len);
}

/* wakeup -> switch-in and preemption -> switch-in, in BCC's layout */
static void test_runqlat_pairs(void **state)
{
	struct ft_event evs[] = {
		ev_wake(1000, 0, 3, 7),			/* 7 woken */
		ev_switch(4000, 0, 3, 7, 'S'),		/* 3 us on the run queue */
		ev_switch(5000, 0, 7, 8, 'R'),		/* 7 preempted by 8 */
		ev_switch(12000, 0, 8, 7, 'S'),		/* 7 back after 7 us */
		ev_wake(13000, 1, 0, 9),		/* 9 woken for CPU 1 ... */
		{ .ts = 13500, .cpu = 1, .type = FT_EV_LOST, .lost = 4 },
		ev_switch(14000, 1, 0, 9, 'R'),		/* ... events lost there: not measured */
		ev_switch(15000, 1, 0, 0, 'R'),		/* idle is never measured */
	};
	static const char want[] =
		"     usecs               : count     distribution\n"
		"         0 -> 1          : 0        |                                        |\n"
		"         2 -> 3          : 1        |****************************************|\n"
		"         4 -> 7          : 1        |****************************************|\n"
		"count 2, avg 5.0 us, p50 3.0 us, p90 7.0 us, p99 7.0 us, max 7.0 us\n"
		"runqlat: 1 pending wakeups dropped after lost events\n";
	char out[4096] = { 0 };

	run_runqlat(evs, sizeof(evs) / sizeof(evs[0]), out, sizeof(out));
	assert_string_equal(out, want);
}

/*
 * offcpu: a task whose switch-in nobody saw (it woke on a CPU with no record yet,
 * whose current task the chain cannot know) still has its period counted, as an
 * upper bound, when it next switches out: the period is not dropped
 */
static void test_offcpu_unseen_switch_in(void **state)
{
	extern const struct ft_analyzer ft_offcpu;
	struct ft_event evs[] = {
		ev_switch(1000000, 0, 7, 0, 'S'),	/* 7 sleeps on CPU 0 */
		ev_switch(51000000, 1, 7, 0, 'S'),	/* woke on CPU 1 unseen, sleeps again */
		ev_switch(101000000, 1, 0, 7, 'R'),	/* seen back on CPU 1 */
	};
	unsigned long long us = 0;
	char *line, *save = NULL;
	struct ut_run r;

	ut_start(&r, &ft_offcpu);
	ut_opts(&r, "f");
	ut_init(&r);
	ut_feed(&r, evs, sizeof(evs) / sizeof(evs[0]));
	ut_report(&r, false);
	/* folded lines "t[;STACK] US" (no stacks here): both periods, 50 ms each */
	for (line = strtok_r(r.text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (line[0] == 't' && (line[1] == ';' || line[1] == ' '))
			us += strtoull(strrchr(line, ' ') + 1, NULL, 10);
	assert_int_equal(us, 100000);
	ut_finish(&r);
}

/* The kernel symbols of the offcpu --stacks perf tests' samples. */
#define K_SEVEN	0xffffffff81000010ULL
#define K_LATE	0xffffffff81001010ULL
#define K_LATER	0xffffffff81002010ULL
#define K_EIGHT	0xffffffff81003010ULL

/*
 * perf_run - offcpu --stacks perf -f over hand-made samples (all first, as from a file)
 * and switches, an interval report after the @cut-th switch (@ne: none) and the final
 * one into @out, one after the other; the final notes into *@sn
 */
static void perf_run(const struct ft_sample *smp, size_t ns, const struct ft_event *evs,
		     size_t ne, size_t cut, char *out, size_t len, struct offcpu_stack_notes *sn)
{
	extern const struct ft_analyzer ft_offcpu;
	char ksyms[] = "/tmp/ftscope-test-ksyms-XXXXXX";
	int fd = mkstemp(ksyms);
	const struct option *o;
	struct ut_run r;
	size_t i;

	assert_true(fd >= 0);
	assert_int_equal(dprintf(fd, "ffffffff81000000 T k_seven\nffffffff81001000 T k_late\n"
				 "ffffffff81002000 T k_later\nffffffff81003000 T k_eight\n"
				 "ffffffff81004000 T k_end\n") > 0, 1);
	close(fd);
	ut_start(&r, &ft_offcpu);
	r.env.kallsyms = ksyms;
	for (o = ft_offcpu.cli.longopts; strcmp(o->name, "stacks"); o++)
		;
	ut_opt(&r, o->val, "perf");
	ut_opts(&r, "f");
	assert_non_null(ft_offcpu.sampling(r.priv));
	ut_init(&r);
	for (i = 0; i < ns; i++)
		ft_offcpu.sample(r.priv, &smp[i]);
	out[0] = '\0';
	for (i = 0; i < ne; i++) {
		ut_feed(&r, &evs[i], 1);
		if (i + 1 == cut && i + 1 < ne)
			snprintf(out, len, "%s",
				 ut_report_as(&r, (struct ft_report){ .interval = true }, false));
	}
	snprintf(out + strlen(out), len - strlen(out), "%s", ut_report(&r, false));
	unlink(ksyms);
	*sn = ((struct offcpu *)r.priv)->sn;
	ut_finish(&r);
}

/*
 * offcpu --stacks perf: a switch-out takes its own task's sample on its CPU, not the
 * one nearest in time (task 8's, 1 us off); a sample later than 100 us is still its
 * own if it came before the task ran again (QEMU's TCG: 2.3 ms), even once another
 * switch-out on that CPU has moved the queue past it; one after the task ran again
 * is a later switch-out's, never taken
 */
static void test_offcpu_perf_pairing(void **state)
{
	static const uint64_t k[] = { K_SEVEN, K_LATE, K_LATER, K_EIGHT };
	struct ft_sample smp[] = {
		{ .ts = 1001000, .pid = 8, .tid = 8, .nk = 1, .ip = &k[3] },
		{ .ts = 1002000, .pid = 7, .tid = 7, .nk = 1, .ip = &k[0] },
		{ .ts = 61200000, .pid = 7, .tid = 7, .nk = 1, .ip = &k[1] },	/* late */
		{ .ts = 70001000, .pid = 8, .tid = 8, .nk = 1, .ip = &k[3] },
		{ .ts = 111002000, .pid = 7, .tid = 7, .nk = 1, .ip = &k[2] },
	};
	struct ft_event evs[] = {
		ev_switch(1000000, 0, 7, 0, 'S'),	/* its sample 2 us later */
		ev_switch(51000000, 0, 0, 7, 'R'),
		ev_switch(61000000, 0, 7, 0, 'S'),	/* its sample 200 us later */
		ev_switch(70000000, 0, 8, 0, 'S'),	/* 8's: the queue passes 7's */
		ev_switch(75000000, 1, 0, 8, 'R'),
		ev_switch(81000000, 0, 0, 7, 'R'),
		ev_switch(91000000, 0, 7, 0, 'S'),	/* its sample lost */
		ev_switch(101000000, 0, 0, 7, 'R'),
		ev_switch(111000000, 0, 7, 0, 'S'),	/* the sample 91's must not take */
		ev_switch(131000000, 0, 0, 7, 'R'),
	};
	struct offcpu_stack_notes sn;
	char out[4096] = { 0 };

	perf_run(smp, 5, evs, 10, 10, out, sizeof(out), &sn);
	/* folded: 50 ms on 7's prompt sample, 20 ms on its late one, 10 ms with none
	   (the sample after its switch-in is not its own), 20 ms on that later one */
	assert_non_null(strstr(out, ";k_seven 50000\n"));
	assert_non_null(strstr(out, ";k_late 20000\n"));
	assert_non_null(strstr(out, ";k_later 20000\n"));
	assert_non_null(strstr(out, ";k_eight 5000\n"));
	assert_non_null(strstr(out, "\nt 10000\n"));
	/* the notes (on stderr with -f): 4 of 5 matched, 1 of them late (200 us), 1 none */
	assert_int_equal(sn.sampled, 4);
	assert_int_equal(sn.late, 1);
	assert_int_equal(sn.late_ns, 200000);
	assert_int_equal(sn.match_ns, 2000);
	assert_int_equal(sn.no_sample + sn.before_sampling, 1);
}

/*
 * offcpu --stacks perf: a sample before its switch-out by more than 100 us is still its
 * own when the task ran on that CPU since the switch before (another perf session's
 * probe first on the tracepoint, and the vCPU preempted between the two: 400 us); one
 * from before the task's switch-in is not
 */
static void test_offcpu_perf_early(void **state)
{
	static const uint64_t k[] = { K_SEVEN, K_LATE };
	struct ft_sample smp[] = {
		{ .ts = 9600000, .pid = 7, .tid = 7, .nk = 1, .ip = &k[0] },	/* early */
		{ .ts = 19000000, .pid = 7, .tid = 7, .nk = 1, .ip = &k[1] },	/* not 30's */
	};
	struct ft_event evs[] = {
		ev_switch(5000000, 0, 9, 7, 'R'),	/* 7 in */
		ev_switch(10000000, 0, 7, 0, 'S'),	/* its sample 400 us before */
		ev_switch(20000000, 0, 0, 7, 'R'),
		ev_switch(30000000, 0, 7, 0, 'S'),	/* none since its switch-in */
		ev_switch(40000000, 0, 0, 7, 'R'),
	};
	struct offcpu_stack_notes sn;
	char out[4096] = { 0 };

	(void)state;
	perf_run(smp, 2, evs, 5, 5, out, sizeof(out), &sn);
	assert_non_null(strstr(out, ";k_seven 10000\n"));
	assert_null(strstr(out, "k_late"));
	assert_non_null(strstr(out, "\nt 10000\n"));
	assert_int_equal(sn.sampled, 1);
	assert_int_equal(sn.match_ns, 400000);
	assert_int_equal(sn.no_sample, 1);
}

/*
 * offcpu --stacks perf: a rebuilt switch-out of the task (the kernel did not record it)
 * moves the window's start: the sample it had is not a later switch-out's
 */
static void test_offcpu_perf_early_rebuilt(void **state)
{
	static const uint64_t k[] = { K_SEVEN, K_LATE };
	struct ft_sample smp[] = {
		{ .ts = 9990000, .pid = 7, .tid = 7, .nk = 1, .ip = &k[0] },
		{ .ts = 24900000, .pid = 7, .tid = 7, .nk = 1, .ip = &k[1] },	/* 25's */
	};
	struct ft_event evs[] = {
		ev_switch(5000000, 0, 9, 7, 'R'),	/* 7 in */
		ev_switch(10000000, 0, 7, 0, 'S'),	/* its sample 10 us before */
		ev_switch(20000000, 0, 0, 7, 'R'),
		ev_switch(25000000, 0, 7, 0, 'S'),	/* rebuilt: not recorded */
		ev_switch(27000000, 0, 0, 7, 'R'),	/* rebuilt too */
		ev_switch(30000000, 0, 7, 0, 'S'),	/* no sample of its own */
		ev_switch(40000000, 0, 0, 7, 'R'),
	};
	struct offcpu_stack_notes sn;
	char out[4096] = { 0 };

	(void)state;
	evs[3].sw.synth = evs[4].sw.synth = true;
	evs[3].sw.ts_lo = evs[3].sw.ts_min = evs[3].sw.ts_est = 25000000;
	evs[4].sw.ts_lo = evs[4].sw.ts_min = evs[4].sw.ts_est = 27000000;
	perf_run(smp, 2, evs, 7, 7, out, sizeof(out), &sn);
	assert_non_null(strstr(out, ";k_seven 10000\n"));
	assert_null(strstr(out, "k_late"));
	assert_int_equal(sn.sampled, 1);
	assert_int_equal(sn.no_sample, 1);
}

/*
 * offcpu --stacks perf, late samples across lost events and interval reports: a
 * switch-out left waiting when events were lost (its switch-in unseen) lends no sample
 * to a later period of its thread (a preemption's at 4 ms is not the 10 ms one's); a
 * late match after an interval report counts no switch-out below zero
 */
static void test_offcpu_perf_late_stale(void **state)
{
	static const uint64_t k[] = { K_EIGHT, K_LATE };
	struct ft_sample smp[] = {
		{ .ts = 4001000, .pid = 7, .tid = 7, .nk = 1, .ip = &k[0] },	/* R, uncounted */
		{ .ts = 51500000, .pid = 7, .tid = 7, .nk = 1, .ip = &k[1] },	/* 500 us late */
	};
	struct ft_event evs[] = {
		ev_switch(1000000, 0, 7, 0, 'S'),	/* no sample: waits */
		{ .ts = 2000000, .cpu = 0, .type = FT_EV_LOST, .lost = 4 },
		ev_switch(3000000, 0, 0, 7, 'R'),	/* its period dropped */
		ev_switch(4000000, 0, 7, 0, 'R'),	/* preempted: not counted */
		ev_switch(5000000, 0, 0, 7, 'R'),
		ev_switch(10000000, 0, 7, 0, 'S'),	/* no sample */
		ev_switch(30000000, 0, 0, 7, 'R'),
		ev_switch(51000000, 0, 7, 0, 'S'),	/* its sample late; an interval */
		ev_switch(61000000, 0, 0, 7, 'R'),
	};
	struct offcpu_stack_notes sn;
	char out[4096] = { 0 };

	perf_run(smp, 2, evs, 9, 8, out, sizeof(out), &sn);
	assert_null(strstr(out, "k_eight"));
	assert_non_null(strstr(out, ";k_late 10000\n"));
	assert_int_equal(sn.late, 1);
	assert_int_equal(sn.no_sample, 0);	/* reset by the interval: not wrapped */
	assert_int_equal(sn.before_sampling, 0);
}

/*
 * offcpu --stacks perf: a thread whose switch-in went unseen switches out again; that
 * switch-out's sample, stamped 5 us before its record (perf's probe first: a perf
 * record -a started earlier), is its own, not the unseen period's late one (a fresh
 * Debian 12 root once: nap 1 without its stack, the pre-exec wait with it)
 */
static void test_offcpu_perf_late_unseen(void **state)
{
	static const uint64_t k[] = { K_LATE };
	struct ft_sample smp[] = {
		{ .ts = 59995000, .pid = 7, .tid = 7, .nk = 1, .ip = &k[0] },
	};
	struct ft_event evs[] = {
		ev_switch(1000000, 0, 7, 0, 'S'),	/* no sample: waits */
		ev_switch(60000000, 0, 7, 0, 'S'),	/* switched in unseen; out again */
		ev_switch(80000000, 0, 0, 7, 'R'),
	};
	struct offcpu_stack_notes sn;
	char out[4096] = { 0 };

	perf_run(smp, 1, evs, 3, 3, out, sizeof(out), &sn);
	assert_non_null(strstr(out, ";k_late 20000\n"));	/* the second period's */
	assert_non_null(strstr(out, "\nt 59000\n"));		/* the first's: none */
	assert_int_equal(sn.late, 0);
	assert_int_equal(sn.sampled, 1);
}

/*
 * a latency ending at a reconstructed switch-in ends at the chain's estimate (11 us,
 * not the 20 us to the record that proved it) and is counted; one the chain could
 * time only at that record (unproven) is not measured
 */
static void test_runqlat_reconstructed(void **state)
{
	struct ft_event evs[] = {
		ev_wake(1000, 1, 0, 7),
		ev_switch(21000, 1, 0, 7, 'R'),
		ev_switch(22000, 1, 7, 0, 'S'),
		ev_wake(30000, 1, 0, 7),
		ev_switch(70000, 1, 5, 7, 'R'),
	};
	char out[4096] = { 0 };

	evs[1].sw.synth = true;
	evs[1].sw.ts_lo = evs[1].sw.ts_min = 1000;
	evs[1].sw.ts_est = 12000;
	evs[4].sw.synth = evs[4].sw.unproven = true;
	evs[4].sw.ts_lo = evs[4].sw.ts_min = 30000;
	evs[4].sw.ts_est = 70000;
	run_runqlat(evs, 5, out, sizeof(out));
	assert_non_null(strstr(out, "         8 -> 15         : 1 "));
	assert_null(strstr(out, "32 -> 63"));	/* the last row: 8 -> 15 */
	assert_non_null(strstr(out, "1 latencies end at a switch-in the kernel did not record"));
	assert_non_null(strstr(out, "1 switch-ins the kernel did not record not measured"));
}

/*
 * wakeup's notes count its own waits: a preemption's wait ending at an unproven rebuilt
 * switch-in is runqlat's unmeasured one, not wakeup's; a wakeup's at an estimate is
 * wakeup's estimated one, a preemption's there is not
 */
static void test_wakeup_notes_own(void **state)
{
	extern const struct ft_analyzer ft_runqlat, ft_wakeup;
	struct ft_event evs[] = {
		ev_wake(1000, 1, 0, 7),
		ev_switch(21000, 1, 0, 7, 'R'),		/* rebuilt: estimated */
		ev_switch(22000, 1, 7, 5, 'R'),		/* 7 preempted by 5 */
		ev_switch(40000, 1, 5, 7, 'S'),		/* rebuilt: estimated */
		ev_switch(42000, 1, 7, 5, 'R'),		/* preempted again */
		ev_switch(70000, 1, 5, 7, 'S'),		/* rebuilt, unproven */
	};
	char out[4096] = { 0 };

	(void)state;
	evs[1].sw.synth = evs[3].sw.synth = evs[5].sw.synth = true;
	evs[1].sw.ts_lo = evs[1].sw.ts_min = 1000;
	evs[1].sw.ts_est = 12000;
	evs[3].sw.ts_lo = evs[3].sw.ts_min = 22000;
	evs[3].sw.ts_est = 30000;
	evs[5].sw.unproven = evs[5].sw.unlearned = true;	/* the idle delay not known yet */
	evs[5].sw.ts_lo = evs[5].sw.ts_min = 42000;
	evs[5].sw.ts_est = 70000;
	run_waits(&ft_runqlat, evs, 6, out, sizeof(out));
	assert_non_null(strstr(out, "2 latencies end at a switch-in the kernel did not record"));
	assert_non_null(strstr(out, "1 switch-ins the kernel did not record not measured"));
	assert_non_null(strstr(out, "1 of them before the delay an idle CPU takes a woken task"));
	run_waits(&ft_wakeup, evs, 6, out, sizeof(out));
	assert_non_null(strstr(out, "1 latencies end at a switch-in the kernel did not record"));
	assert_null(strstr(out, "not measured"));
}

/* ---- histogram and map ------------------------------------------------- */

/* BCC's slots: 0 and 1 in the first row, then powers of two; percentiles within 1% */
static void test_hist(void **state)
{
	struct ft_hist *h = calloc(1, sizeof(*h));
	uint64_t v, p50, p99;

	ft_hist_add(h, &ft_unit_us, 0);
	ft_hist_add(h, &ft_unit_us, 1999);	/* 1 us */
	ft_hist_add(h, &ft_unit_us, 2000);	/* 2 us */
	assert_int_equal(h->log2[1], 2);
	assert_int_equal(h->log2[2], 1);
	ft_hist_reset(h);
	for (v = 1; v <= 1000; v++)
		ft_hist_add(h, &ft_unit_us, v * 1000);
	p50 = ft_hist_percentile(h, 0.5);
	p99 = ft_hist_percentile(h, 0.99);
	assert_true(p50 >= 500000 * 0.99 && p50 <= 500000 * 1.01);
	assert_true(p99 >= 990000 * 0.99 && p99 <= 990000 * 1.01);
	assert_int_equal(ft_hist_percentile(h, 1.0), 1000000);
	assert_int_equal(h->sum_ns, 500500000ULL);
	ft_hist_fini(h);
	free(h);
}

/* the display slot is found without dividing: it must equal the slot of ns / div */
static void test_hist_slot_no_division(void **state)
{
	static const struct ft_unit *units[] = { &ft_unit_ns, &ft_unit_us, &ft_unit_ms };
	struct ft_hist *h = calloc(1, sizeof(*h));
	uint64_t want[FT_LOG2_SLOTS], ns, q;
	unsigned int u, k, i;
	int d;

	for (u = 0; u < 3; u++) {
		memset(want, 0, sizeof(want));
		ft_hist_reset(h);
		/* each power-of-two boundary of the quotient, and one either side */
		for (k = 0; k < 64; k++)
			for (d = -1; d <= 1; d++) {
				if (k > 40 && units[u]->div > 1)
					break;	/* div << k overflows */
				ns = (units[u]->div << k) + d;
				q = ns / units[u]->div;
				want[q ? 64 - __builtin_clzll(q) : 1]++;
				ft_hist_add(h, units[u], ns);
			}
		ns = ~0ULL;
		q = ns / units[u]->div;
		want[64 - __builtin_clzll(q)]++;
		ft_hist_add(h, units[u], ns);
		for (i = 0; i < FT_LOG2_SLOTS; i++)
			assert_int_equal(h->log2[i], want[i]);
	}
	ft_hist_fini(h);
	free(h);
}

/* the int map against a plain array, through growth and deletions */
static void test_imap(void **state)
{
	static uint64_t ref[5000];
	struct ft_imap m;
	int i, k;

	assert_int_equal(ft_imap_init(&m, 4), 0);
	srand(1);
	for (i = 0; i < 200000; i++) {
		k = rand() % 5000;
		if (rand() % 3) {
			ref[k] = i + 1;
			assert_non_null(ft_imap_put(&m, k, i + 1));
		} else if (rand() % 2) {
			assert_int_equal(ft_imap_del(&m, k), ref[k] != 0);
			ref[k] = 0;
		} else {
			uint64_t v = 0;

			assert_int_equal(ft_imap_take(&m, k, &v), ref[k] != 0);
			assert_int_equal(v, ref[k]);
			ref[k] = 0;
		}
	}
	for (k = 0; k < 5000; k++) {
		uint64_t *v = ft_imap_get(&m, k);

		assert_int_equal(v ? *v : 0, ref[k]);
	}
	ft_imap_fini(&m);
}

/* one record of the ft_tab test: the key, and what the test stored */
struct tab_rec {
	int		key;
	unsigned int	val;
};

/* tab_rec_desc - qsort order for ft_tab_sort: keys descending */
static int tab_rec_desc(const void *a, const void *b)
{
	const struct tab_rec *x = a, *y = b;

	return (x->key < y->key) - (x->key > y->key);
}

/*
 * ft_tab: pids through the direct index, other keys through the map; every record is
 * found again after growth, a sort and a clear
 */
static void test_tab(void **state)
{
	static const int edge[] = { 0, 1, FT_TAB_LEAF - 1, FT_TAB_LEAF, FT_TAB_DIRECT - 1,
				    FT_TAB_DIRECT, FT_TAB_DIRECT + 1, INT32_MAX - 1 };
	int keys[3000 + sizeof(edge) / sizeof(edge[0])];
	unsigned int n = 0, i, sorted;
	struct tab_rec *r, *prev;
	struct ft_tab t;

	assert_int_equal(ft_tab_init(&t, sizeof(struct tab_rec)), 0);
	for (i = 0; i < sizeof(edge) / sizeof(edge[0]); i++)
		keys[n++] = edge[i];
	srand(2);
	while (n < sizeof(keys) / sizeof(keys[0])) {
		int k = rand() % (FT_TAB_DIRECT + 4096);	/* a few beyond the direct range */

		for (i = 0; i < n && keys[i] != k; i++)
			;
		if (i == n)
			keys[n++] = k;
	}
	assert_null(ft_tab_get(&t, -1));	/* keys are 0 .. INT_MAX - 1 */
	for (i = 0; i < n; i++) {
		assert_null(ft_tab_find(&t, keys[i]));
		r = ft_tab_get(&t, keys[i]);
		assert_non_null(r);
		assert_int_equal(r->key, keys[i]);
		assert_int_equal(r->val, 0);
		r->val = i + 1;
	}
	assert_int_equal(t.n, n);
	ft_tab_sort(&t, tab_rec_desc);
	for (i = 0, prev = NULL, sorted = 0; i < t.n; prev = r, i++) {
		r = ft_tab_at(&t, i);
		sorted += !prev || prev->key > r->key;
	}
	assert_int_equal(sorted, n);
	for (i = 0; i < n; i++) {
		r = ft_tab_find(&t, keys[i]);
		assert_non_null(r);
		assert_int_equal(r->key, keys[i]);
		assert_int_equal(r->val, i + 1);
		assert_ptr_equal(ft_tab_get(&t, keys[i]), r);
	}
	ft_tab_clear(&t);
	for (i = 0; i < n; i++)
		assert_null(ft_tab_find(&t, keys[i]));
	r = ft_tab_get(&t, keys[5]);
	assert_int_equal(r->key, keys[5]);
	assert_int_equal(r->val, 0);
	assert_int_equal(t.n, 1);
	ft_tab_fini(&t);
}

/* ---- rows ---------------------------------------------------------------- */

/* the row writers print numbers as printf does, at every digit-count boundary */
static void test_line_numbers(void **state)
{
	static const int widths[] = { 0, 6, 15, -8, -24 }, mins[] = { 0, 3, 6 };
	uint64_t vals[64], p = 1;
	unsigned int n = 0, i, w, d;
	char want[64];

	vals[n++] = 0;
	for (i = 0; i < 20; i++, p *= 10) {
		vals[n++] = p - 1;
		vals[n++] = p;
		vals[n++] = p + 1;
	}
	vals[n++] = UINT64_MAX;
	for (i = 0; i < n; i++) {
		snprintf(want, sizeof(want), "%llu", (unsigned long long)vals[i]);
		assert_int_equal(ft_digits(vals[i]), strlen(want));
		for (w = 0; w < sizeof(widths) / sizeof(widths[0]); w++)
			for (d = 0; d < sizeof(mins) / sizeof(mins[0]); d++) {
				struct ft_line l;

				ft_line_init(&l);
				ft_line_u(&l, vals[i], mins[d], widths[w]);
				snprintf(want, sizeof(want), "%*.*llu", widths[w], mins[d] ? mins[d] : 1,
					 (unsigned long long)vals[i]);
				assert_int_equal(l.len, strlen(want));
				assert_memory_equal(l.buf, want, l.len);
			}
		if (vals[i] < 1000000) {
			char six[6];

			snprintf(want, sizeof(want), "%06u", (unsigned int)vals[i]);
			assert_ptr_equal(ft_put_6(six, (unsigned int)vals[i]), six + 6);
			assert_memory_equal(six, want, 6);
		}
		if (vals[i] < 100000000) {
			char eight[8];

			assert_ptr_equal(ft_put_fixed(eight, (unsigned int)vals[i], 8), eight + 8);
			snprintf(want, sizeof(want), "%08u", (unsigned int)vals[i]);
			assert_memory_equal(eight, want, 8);
		}
		if (vals[i] < 1000) {
			char three[3];

			assert_ptr_equal(ft_put_fixed(three, (unsigned int)vals[i], 3), three + 3);
			snprintf(want, sizeof(want), "%03u", (unsigned int)vals[i]);
			assert_memory_equal(three, want, 3);
		}
	}
}

/* an event's comm is kept as its bytes: equal names cost a compare, new ones replace */
static void test_tasks_note_field(void **state)
{
	char field[FT_TASK_COMM_LEN] = "worker\0garbage";
	struct ft_tasks t;

	assert_int_equal(ft_tasks_init(&t, false), 0);
	assert_string_equal(ft_tasks_note_field(&t, 7, field)->comm, "worker");
	memcpy(field, "renamed\0", 8);
	assert_string_equal(ft_tasks_note_field(&t, 7, field)->comm, "renamed");
	memcpy(field, "sixteen_chars_xy", FT_TASK_COMM_LEN);	/* no NUL in the field */
	assert_string_equal(ft_tasks_note_field(&t, 7, field)->comm, "sixteen_chars_xy");
	field[0] = 0;						/* an empty name keeps the old */
	assert_string_equal(ft_tasks_note_field(&t, 7, field)->comm, "sixteen_chars_xy");
	assert_string_equal(ft_tasks_comm(&t, 7), "sixteen_chars_xy");
	ft_tasks_fini(&t);
}

/* ---- options ------------------------------------------------------------- */

/* parse - run the common parser over a command line for runqlat */
static int parse(struct ft_opts *o, const char *line)
{
	extern const struct ft_analyzer ft_runqlat;
	static char buf[512];
	static char *argv[32];
	static char priv[4096];
	int argc = 0;
	char *tok, *save = NULL;

	memset(o, 0, sizeof(*o));
	o->ncpus = 4;
	snprintf(buf, sizeof(buf), "%s", line);
	for (tok = strtok_r(buf, " ", &save); tok && argc < 31; tok = strtok_r(NULL, " ", &save))
		argv[argc++] = tok;
	argv[argc] = NULL;
	return ft_opts_parse(o, &ft_runqlat.cli, priv, argc, argv);
}

/* good and bad command lines */
static void test_options(void **state)
{
	struct ft_opts o;

	assert_int_equal(parse(&o, "runqlat -p 12,34 -C 0,2-3 -d 1.5 -T 2 5"), FT_PARSE_RUN);
	assert_int_equal(o.npids, 2);
	assert_int_equal(o.pids[1], 34);
	assert_true(o.cpu_on[0] && !o.cpu_on[1] && o.cpu_on[2] && o.cpu_on[3]);
	assert_true(o.duration == 1.5 && o.interval == 2 && o.count == 5 && o.timestamps);
	ft_opts_free(&o);
	assert_int_equal(parse(&o, "runqlat -m -- sleep 1"), FT_PARSE_RUN);
	assert_string_equal(o.cmd[0], "sleep");
	assert_string_equal(o.cmd[1], "1");
	ft_opts_free(&o);
	assert_int_equal(parse(&o, "runqlat --json -b 1024 --per-cpu"), FT_PARSE_RUN);
	assert_true(o.json && o.buffer_kb == 1024);
	ft_opts_free(&o);
	ft_set_prog("test");
	assert_int_equal(parse(&o, "runqlat --bogus"), FT_EXIT_USAGE);
	assert_int_equal(parse(&o, "runqlat -d abc"), FT_EXIT_USAGE);
	assert_int_equal(parse(&o, "runqlat -d"), FT_EXIT_USAGE);
	assert_int_equal(parse(&o, "runqlat -p 0"), FT_EXIT_USAGE);
	assert_int_equal(parse(&o, "runqlat -p x"), FT_EXIT_USAGE);
	assert_int_equal(parse(&o, "runqlat -C 9"), FT_EXIT_USAGE);
	assert_int_equal(parse(&o, "runqlat -C 3-1"), FT_EXIT_USAGE);
	assert_int_equal(parse(&o, "runqlat 1 2 3"), FT_EXIT_USAGE);
	assert_int_equal(parse(&o, "runqlat 0"), FT_EXIT_USAGE);
	assert_int_equal(parse(&o, "runqlat --"), FT_EXIT_USAGE);
	assert_int_equal(parse(&o, "runqlat -p 1 -- ls"), FT_EXIT_USAGE);
	ft_opts_free(&o);
}

/*
 * no analyzer has an option a common one would take before its parse_opt saw it
 * (a letter, a long option's value or name), and a clash is caught
 */
static void test_option_clashes(void **state)
{
	static const struct option bad_long[] = {
		{ "json", no_argument, NULL, 0x100 }, { NULL, 0, NULL, 0 } };
	const struct ft_cli bad_short = { .name = "bad", .shortopts = "mp:" };
	const struct ft_cli bad_name = { .name = "bad", .longopts = bad_long };
	struct ft_opts o;
	int i;

	for (i = 0; ft_analyzers[i]; i++)
		assert_int_equal(ft_cli_clash(&ft_analyzers[i]->cli), 0);
	ft_set_prog("test");
	assert_int_equal(ft_cli_clash(&bad_short), -1);
	assert_int_equal(ft_cli_clash(&bad_name), -1);
	memset(&o, 0, sizeof(o));
	assert_int_equal(ft_opts_parse(&o, &bad_short, NULL, 1, (char *[]){ "bad", NULL }),
			 FT_EXIT_ERR);
}

/* main - the core suite */
int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_merge_order_watermark),
		cmocka_unit_test(test_merge_losses_and_damage),
		cmocka_unit_test(test_merge_many_cpus),
		cmocka_unit_test(test_page_fmt),
		cmocka_unit_test(test_runqlat_pairs),
		cmocka_unit_test(test_runqlat_reconstructed),
		cmocka_unit_test(test_wakeup_notes_own),
		cmocka_unit_test(test_hist),
		cmocka_unit_test(test_hist_slot_no_division),
		cmocka_unit_test(test_imap),
		cmocka_unit_test(test_tab),
		cmocka_unit_test(test_line_numbers),
		cmocka_unit_test(test_tasks_note_field),
		cmocka_unit_test(test_options),
		cmocka_unit_test(test_option_clashes),
		cmocka_unit_test(test_offcpu_unseen_switch_in),
		cmocka_unit_test(test_offcpu_perf_pairing),
		cmocka_unit_test(test_offcpu_perf_early),
		cmocka_unit_test(test_offcpu_perf_early_rebuilt),
		cmocka_unit_test(test_offcpu_perf_late_stale),
		cmocka_unit_test(test_offcpu_perf_late_unseen),
	};

	return cmocka_run_group_tests_name("core", tests, NULL, NULL);
}
