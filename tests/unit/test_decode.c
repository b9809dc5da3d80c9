// SPDX-License-Identifier: GPL-2.0
/*
 * Decode tests that need no kernel: raw pages from ../shared/fixtures and from this
 * project's own captures must decode to exactly what libtraceevent's tep_print_event
 * prints for the same records, and prev_state letters must follow each kernel's
 * own print fmt.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <traceevent/event-parse.h>
#include <traceevent/kbuffer.h>
#include <traceevent/trace-seq.h>

#include "events/decode.h"
#include "events/merge.h"
#include "events/tep.h"

#define ALL_SCHED (FT_NEED(FT_EV_SWITCH) | FT_NEED(FT_EV_WAKING) | FT_NEED(FT_EV_WAKEUP) | \
		   FT_NEED(FT_EV_WAKEUP_NEW) | FT_NEED(FT_EV_FORK))

struct collect {
	struct tep_handle	*tep;
	struct ft_decoder	dec;
	int			n, mismatches;
	uint64_t		last_ts;
	bool			ordered;
	char			text[128][256];	/* ours, first 128 records */
	uint64_t		ts[128];
};

/* shared_dir - ../shared/fixtures/third_party (or $FTSCOPE_SHARED/...) */
static const char *fixture(const char *rel)
{
	static char path[1024];
	const char *base = getenv("FTSCOPE_SHARED") ? getenv("FTSCOPE_SHARED") : "../shared";

	snprintf(path, sizeof(path), "%s/fixtures/third_party/%s", base, rel);
	return path;
}

/* ours - format a decoded record the way the event's print fmt does */
static void ours(const struct ft_event *ev, char *buf, size_t len)
{
	switch (ev->type) {
	case FT_EV_SWITCH:
		snprintf(buf, len, "prev_comm=%.16s prev_pid=%d prev_prio=%d prev_state=%c%s ==> "
			 "next_comm=%.16s next_pid=%d next_prio=%d", ev->sw.prev_comm,
			 ev->sw.prev_pid, ev->sw.prev_prio, ev->sw.state, ev->sw.preempt ? "+" : "",
			 ev->sw.next_comm, ev->sw.next_pid, ev->sw.next_prio);
		break;
	case FT_EV_WAKING:
	case FT_EV_WAKEUP:
	case FT_EV_WAKEUP_NEW:
		snprintf(buf, len, "comm=%.16s pid=%d prio=%d target_cpu=%03d", ev->wk.comm,
			 ev->wk.pid, ev->wk.prio, ev->wk.target_cpu);
		break;
	default:
		snprintf(buf, len, "?");
	}
}

/* on_raw - compare our decode of each record with tep_print_event's */
static void on_raw(void *ctx, const struct ft_raw *raw)
{
	struct collect *c = ctx;
	struct tep_record rec = { 0 };
	struct ft_event ev = { .ts = raw->ts, .cpu = raw->cpu };
	struct trace_seq s;
	char mine[256];

	if (raw->lost)
		return;
	if (raw->ts < c->last_ts)
		c->ordered = false;
	c->last_ts = raw->ts;
	ft_decode(&c->dec, raw->data, raw->size, &ev);
	ours(&ev, mine, sizeof(mine));
	rec.ts = raw->ts;
	rec.data = (void *)raw->data;
	rec.size = raw->size;
	rec.cpu = raw->cpu;
	trace_seq_init(&s);
	tep_print_event(c->tep, &s, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&s);
	if (strcmp(mine, s.buffer)) {
		print_message("record %d differs:\n  ours: %s\n  tep:  %s\n", c->n, mine, s.buffer);
		c->mismatches++;
	}
	trace_seq_destroy(&s);
	if (c->n < 128) {
		snprintf(c->text[c->n], sizeof(c->text[0]), "%s", mine);
		c->ts[c->n] = raw->ts;
	}
	c->n++;
}

/* on_raws - each record of a merge batch */
static void on_raws(void *ctx, const struct ft_raw *raw, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		on_raw(ctx, &raw[i]);
}

/* decode_files - decode page files (one per CPU) with the formats in @fmtdir */
static int decode_files(struct collect *c, const char *fmtdir, const char **pages, int ncpus)
{
	struct ft_page_fmt pf;
	struct ft_merge m;
	int cpu;

	memset(c, 0, sizeof(*c));
	c->ordered = true;
	c->tep = ft_tep_load(ft_dir_format_read, (void *)fmtdir, ALL_SCHED, &pf, 0);
	if (!c->tep)
		return -1;
	assert_int_equal(ft_decoder_init(&c->dec, c->tep), 0);
	assert_int_equal(ft_merge_init(&m, &pf, ncpus, on_raws, c), 0);
	for (cpu = 0; cpu < ncpus; cpu++) {
		size_t len, off;
		char *data = ft_read_file(pages[cpu], 64 << 20, &len);

		assert_non_null(data);
		for (off = 0; off < len; off += pf.subbuf_size) {
			struct ft_pagebuf *pg = ft_merge_page_get(&m);
			size_t n = len - off < (size_t)pf.subbuf_size ? len - off : (size_t)pf.subbuf_size;

			memset(pg->data, 0, pf.subbuf_size);
			memcpy(pg->data, data + off, n);
			ft_merge_page_put(&m, cpu, pg, pf.subbuf_size);
		}
		free(data);
	}
	ft_merge_run(&m, UINT64_MAX);
	ft_merge_fini(&m);
	return 0;
}

/* finish - free what decode_files made */
static void finish(struct collect *c)
{
	ft_decoder_fini(&c->dec);
	tep_free(c->tep);
}

/* expected_lines - count the event lines of a kernel text dump, and check timestamps */
static int expected_lines(const char *path, const struct collect *c)
{
	char *text = ft_read_file(path, 1 << 20, NULL), *line, *save = NULL;
	int n = 0;

	assert_non_null(text);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *colon, *p;
		unsigned long long sec, usec;

		if (line[0] == '#')
			continue;
		p = strstr(line, "] ");
		assert_non_null(p);
		p = strchr(p + 2, ' ');		/* skip the flags column */
		assert_non_null(p);
		assert_int_equal(sscanf(p, " %llu.%llu:", &sec, &usec), 2);
		if (n < c->n) {
			/* the kernel prints ns2usecs(): rounded to the nearest microsecond */
			assert_int_equal((c->ts[n] + 500) / 1000, sec * 1000000 + usec);
			colon = strstr(p, ": ");
			colon = colon ? strstr(colon + 2, ": ") : NULL;
			assert_non_null(colon);
			assert_string_equal(c->text[n], colon + 2);
		}
		n++;
	}
	free(text);
	return n;
}

/* skip_without_shared - the fixtures are third-party data kept beside the repo */
static bool skip_without_shared(void)
{
	if (access(fixture("perfetto"), R_OK)) {
		print_message("SKIP: ../shared/fixtures not present\n");
		return true;
	}
	return false;
}

/* decode_fixture - decode one fixture page file; NULL when ../shared is absent */
static struct collect *decode_fixture(const char *fmtrel, const char *binrel)
{
	struct collect *c;
	const char *pages[1];
	char fmt[1024], bin[1024];

	if (skip_without_shared())
		return NULL;
	snprintf(fmt, sizeof(fmt), "%s", fixture(fmtrel));
	snprintf(bin, sizeof(bin), "%s", fixture(binrel));
	pages[0] = bin;
	c = calloc(1, sizeof(*c));
	assert_non_null(c);
	assert_int_equal(decode_files(c, fmt, pages, 1), 0);
	assert_int_equal(c->mismatches, 0);
	assert_true(c->ordered);
	return c;
}

/* release - free a decode_fixture result */
static void release(struct collect *c)
{
	finish(c);
	free(c);
}

/* six sched_switch: kernel text and tep agree with ours, record for record */
static void test_six_sched_switch(void **state)
{
	struct collect *c = decode_fixture("perfetto/formats/synthetic",
					   "perfetto/g_six_sched_switch.bin");

	if (!c)
		skip();
	assert_int_equal(c->n, 6);
	assert_int_equal(expected_lines(fixture("perfetto/g_six_sched_switch.expected.txt"), c), 6);
	release(c);
}

/* a full page of 59 sched_switch, as perfetto asserts */
static void test_full_page(void **state)
{
	struct collect *c = decode_fixture("perfetto/formats/synthetic",
					   "perfetto/g_full_page_sched_switch.bin");

	if (!c)
		skip();
	assert_int_equal(c->n, 59);
	release(c);
}

/* sched_switch + sched_waking with the newer state encoding (Z, I) */
static void test_sched_page(void **state)
{
	struct collect *c = decode_fixture("perfetto/formats/synthetic_alt",
					   "perfetto/g_sched_page.bin");

	if (!c)
		skip();
	assert_int_equal(c->n, expected_lines(fixture("perfetto/g_sched_page.expected.txt"), c));
	release(c);
}

/* pages recorded on this project's 6.18 VM: two CPUs merged in time order */
static void test_own_capture(void **state)
{
	const char *pages[] = { "tests/data/cap-sleeper/cpu0.raw", "tests/data/cap-sleeper/cpu1.raw" };
	struct collect *c = calloc(1, sizeof(*c));

	assert_int_equal(decode_files(c, "tests/data/cap-sleeper", pages, 2), 0);
	/* 43 sched_switch + 25 sched_waking + 23 sched_wakeup, counted when recorded */
	assert_int_equal(c->n, 91);
	assert_int_equal(c->mismatches, 0);
	assert_true(c->ordered);
	release(c);
}

/* walk_both - walk one page with kbuffer and with ft_page_cursor: same records */
static int walk_both(const struct ft_page_fmt *pf, unsigned char *page)
{
	struct kbuffer *kb = kbuffer_alloc(pf->commit_size == 8 ? KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4,
					   KBUFFER_ENDIAN_LITTLE);
	struct ft_page_cursor cur;
	struct ft_page_info info;
	unsigned long long ts;
	void *data;
	int n = 0;

	assert_int_equal(ft_page_info(pf, page, pf->subbuf_size, &info), 0);
	assert_true(kbuffer_load_subbuffer(kb, page) >= 0);
	ft_page_cursor_init(&cur, pf, page, info.size, info.timestamp);
	for (data = kbuffer_read_event(kb, &ts); data; data = kbuffer_next_event(kb, &ts)) {
		assert_true(ft_page_next(&cur));
		assert_ptr_equal(cur.rec, data);
		assert_int_equal(cur.ts, ts);
		assert_int_equal(cur.rec_size, kbuffer_event_size(kb));
		n++;
	}
	assert_false(ft_page_next(&cur));
	assert_false(cur.damaged);
	kbuffer_free(kb);
	return n;
}

/* walk_file - walk_both over every page of a file; returns the records */
static int walk_file(const struct ft_page_fmt *pf, const char *path)
{
	size_t len, off;
	char *data = ft_read_file(path, 64 << 20, &len);
	unsigned char *page = calloc(1, pf->subbuf_size + 64);
	int n = 0;

	assert_non_null(data);
	for (off = 0; off + pf->subbuf_size <= len; off += pf->subbuf_size) {
		memcpy(page, data + off, pf->subbuf_size);
		n += walk_both(pf, page);
	}
	free(page);
	free(data);
	return n;
}

/* the inline page walker reads exactly the records kbuffer reads */
static void test_walker_equals_kbuffer(void **state)
{
	static const char h64[] = "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
		"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
		"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n";
	unsigned char page[4096 + 64] = { 0 };
	struct ft_page_fmt pf;
	uint32_t w[64];
	uint64_t ts = 1000, commit;
	int i = 0, n;

	assert_int_equal(ft_page_fmt_parse(&pf, h64, strlen(h64)), 0);
	/* bytes with known meaning: data, time extend, data, large, padding, stamp, data: 4 records */
	w[i++] = (5 << 5) | 2;   w[i++] = 0x11111111; w[i++] = 0x22222222;
	w[i++] = (7 << 5) | 30;  w[i++] = 3;				/* ts += 3 << 27 + 7 */
	w[i++] = (1 << 5) | 1;   w[i++] = 0x33333333;
	w[i++] = (2 << 5) | 0;   w[i++] = 4 + 120;			/* 120-byte payload */
	memset(&w[i], 0x44, 120); i += 30;
	w[i++] = (9 << 5) | 29;  w[i++] = 12; w[i++] = 0; w[i++] = 0;	/* discarded: 4 + 12 bytes */
	w[i++] = (0x55 << 5) | 31; w[i++] = 2;				/* absolute: 2 << 27 | 0x55 */
	w[i++] = (4 << 5) | 1;   w[i++] = 0x66666666;
	memcpy(page, &ts, 8);
	commit = i * 4;
	memcpy(page + 8, &commit, 8);
	memcpy(page + 16, w, i * 4);
	assert_int_equal(walk_both(&pf, page), 4);

	/* a length that points past the commit is damage, not a crash */
	{
		struct ft_page_cursor c;

		w[8] = 4000;
		memcpy(page + 16, w, i * 4);
		ft_page_cursor_init(&c, &pf, page, i * 4, ts);
		n = 0;
		while (ft_page_next(&c))
			n++;
		assert_int_equal(n, 2);
		assert_true(c.damaged);
	}

	assert_int_equal(ft_page_fmt_parse(&pf, h64, strlen(h64)), 0);
	n = walk_file(&pf, "tests/data/cap-sleeper/cpu0.raw") +
	    walk_file(&pf, "tests/data/cap-sleeper/cpu1.raw");
	assert_int_equal(n, 91);
	if (skip_without_shared())
		skip();
	assert_int_equal(walk_file(&pf, fixture("perfetto/g_full_page_sched_switch.bin")), 59);
}

/*
 * part_equal - the part [@from, @to) of @page, as ft_page_part makes it, walks to the
 * records of the whole page that end in (@from, @to], at the same times and bytes
 */
static void part_equal(const struct ft_page_fmt *pf, const unsigned char *page,
		       unsigned int from, unsigned int to)
{
	struct ft_page_cursor whole, part;
	unsigned char *out = calloc(1, pf->subbuf_size);
	struct ft_page_info info, pinfo;

	assert_int_equal(ft_page_info(pf, page, pf->subbuf_size, &info), 0);
	ft_page_part(pf, page, from, to, out);
	assert_int_equal(ft_page_info(pf, out, pf->subbuf_size, &pinfo), 0);
	assert_int_equal(pinfo.size, to - from);
	/* only the whole page keeps what was missed before it */
	assert_int_equal(pinfo.missed, info.missed && !from && to == info.size);
	ft_page_cursor_init(&whole, pf, page, info.size, info.timestamp);
	ft_page_cursor_init(&part, pf, out, pinfo.size, pinfo.timestamp);
	while (ft_page_next(&whole)) {
		if (whole.off <= from || whole.off > to)
			continue;
		assert_true(ft_page_next(&part));
		assert_int_equal(part.ts, whole.ts);
		assert_int_equal(part.rec_size, whole.rec_size);
		assert_memory_equal(part.rec, whole.rec, whole.rec_size);
	}
	assert_false(ft_page_next(&part));
	assert_false(part.damaged);
	free(out);
}

/*
 * parts_equal - part_equal for every pair of cuts: the start, the end of each record,
 * and the @nextra offsets of @extra (where a commit can also end: after a discarded
 * record). Returns the cuts.
 */
static int parts_equal(const struct ft_page_fmt *pf, const unsigned char *page,
		       const unsigned int *extra, int nextra)
{
	unsigned int cut[512];
	struct ft_page_cursor c;
	struct ft_page_info info;
	int n = 0, i, j;

	assert_int_equal(ft_page_info(pf, page, pf->subbuf_size, &info), 0);
	cut[n++] = 0;
	ft_page_cursor_init(&c, pf, page, info.size, info.timestamp);
	while (ft_page_next(&c) && n < 500)
		cut[n++] = c.off;
	for (i = 0; i < nextra; i++)
		cut[n++] = extra[i];
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			if (cut[i] < cut[j])
				part_equal(pf, page, cut[i], cut[j]);
	return n - 1;
}

/* a mapped buffer read in parts: each part decodes to the records the whole page has */
static void test_page_parts(void **state)
{
	static const char h64[] = "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
		"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
		"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n";
	unsigned char page[4096] = { 0 }, out[4096];
	const char *files[] = { "tests/data/cap-sleeper/cpu0.raw", "tests/data/cap-sleeper/cpu1.raw" };
	/* after the discarded record: a commit can end there too */
	const unsigned int after_discard[] = { 44 };
	struct ft_page_fmt pf;
	struct ft_page_info info;
	uint32_t w[64];
	uint64_t ts = 1000, commit, lost = 77;
	size_t len, off;
	int i = 0, f, cuts = 0;

	assert_int_equal(ft_page_fmt_parse(&pf, h64, strlen(h64)), 0);
	/* data, time extend + data, discarded, data, absolute stamp + data, data: every kind
	   of header a cut can follow moves the time the next part starts from */
	w[i++] = (5 << 5) | 2;   w[i++] = 0x11111111; w[i++] = 0x22222222;
	w[i++] = (7 << 5) | 30;  w[i++] = 3;
	w[i++] = (1 << 5) | 1;   w[i++] = 0x33333333;
	w[i++] = (9 << 5) | 29;  w[i++] = 12; w[i++] = 0; w[i++] = 0;
	w[i++] = (3 << 5) | 1;   w[i++] = 0x44444444;
	w[i++] = (0x55 << 5) | 31; w[i++] = 2;
	w[i++] = (4 << 5) | 1;   w[i++] = 0x66666666;
	w[i++] = (6 << 5) | 1;   w[i++] = 0x77777777;
	memcpy(page, &ts, 8);
	commit = i * 4 | FT_RB_MISSED_EVENTS | FT_RB_MISSED_STORED;
	memcpy(page + 8, &commit, 8);
	memcpy(page + 16, w, i * 4);
	memcpy(page + 16 + i * 4, &lost, 8);	/* the count of missed events, stored */
	assert_int_equal(parts_equal(&pf, page, after_discard, 1), 6);
	/* the whole page keeps the stored count; a first part does not reach it */
	assert_int_equal(ft_page_part(&pf, page, 0, i * 4, out), 16 + i * 4 + 8);
	assert_int_equal(ft_page_info(&pf, out, sizeof(out), &info), 0);
	assert_int_equal(info.missed_count, 77);
	assert_int_equal(ft_page_part(&pf, page, 0, 12, out), 16 + 12);
	assert_int_equal(ft_page_info(&pf, out, sizeof(out), &info), 0);
	assert_false(info.missed);

	for (f = 0; f < 2; f++) {
		char *data = ft_read_file(files[f], 64 << 20, &len);

		assert_non_null(data);
		for (off = 0; off + pf.subbuf_size <= len; off += pf.subbuf_size)
			cuts += parts_equal(&pf, (const unsigned char *)data + off, NULL, 0);
		free(data);
	}
	assert_int_equal(cuts, 91);	/* one cut after each record of the capture */
}

/* a large record whose length, rounded up to words, ends past the commit is damage */
static void test_large_record_rounding(void **state)
{
	static const char h64[] = "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
		"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
		"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n";
	unsigned char page[16 + 16] = { 0 };
	struct ft_page_fmt pf;
	struct ft_page_cursor c;
	uint32_t w[4] = { 0, 0, 0x11111111, 0x22222222 };
	unsigned int len;

	assert_int_equal(ft_page_fmt_parse(&pf, h64, strlen(h64)), 0);
	/* type 0, then the length word (counting itself): 8 is a 4-byte payload, whole */
	w[1] = 8;
	memcpy(page + 16, w, sizeof(w));
	ft_page_cursor_init(&c, &pf, page, 12, 0);
	assert_true(ft_page_next(&c));
	assert_int_equal(c.rec_size, 4);
	assert_ptr_equal(c.rec, page + 16 + 8);
	assert_false(ft_page_next(&c));
	assert_false(c.damaged);
	/* 9, 10, 11: inside the commit of 4 + len bytes, but the words reach 1-3 past it */
	for (len = 9; len <= 11; len++) {
		w[1] = len;
		memcpy(page + 16, w, sizeof(w));
		ft_page_cursor_init(&c, &pf, page, 4 + len, 0);
		assert_false(ft_page_next(&c));
		assert_true(c.damaged);
	}
}

/* states_of - state letters learned from one sched_switch format file */
static void states_of(const char *dir, struct ft_states *st)
{
	struct ft_page_fmt pf;
	struct tep_handle *tep = ft_tep_load(ft_dir_format_read, (void *)dir,
					     FT_NEED(FT_EV_SWITCH), &pf, 0);

	assert_non_null(tep);
	assert_int_equal(ft_states_from_print_fmt(st, tep), 0);
	tep_free(tep);
}

/* check_letters - @letters names bits 0.. in order ('.' for none); @preempt_bit */
static void check_letters(const struct ft_states *st, const char *letters, int preempt_bit)
{
	size_t i;

	for (i = 0; i < strlen(letters); i++)
		assert_int_equal(st->letter[i], letters[i] == '.' ? 0 : letters[i]);
	assert_int_equal(st->preempt_mask, 1ULL << preempt_bit);
	assert_int_equal(ft_state_letter(st, 0), 'R');
	assert_int_equal(ft_state_letter(st, 1ULL << preempt_bit), 'R');
	assert_int_equal(ft_state_letter(st, 1 | (1ULL << preempt_bit)), 'S');
}

/* prev_state letters follow each kernel's own print fmt: 3.4, 3.10, 4.4, 5.10, 6.18 */
static void test_state_letters(void **state)
{
	static const struct { const char *dir, *letters; int preempt; } k[] = {
		{ "android_hammerhead_MRA59G_3.4.0", "SDTtZXxW.", 9 },
		{ "android_seed_N2F62_3.10.49", "SDTtZXxKWP.", 10 },
		{ "android_walleye_OPM5.171019.017.A1_4.4.88", "SDTtZXxKWPN.", 11 },
		{ "android_raven_AOSP.MASTER_5.10.43", "SDTtXZPI", 8 },
	};
	struct ft_states st;
	char dir[2200];
	size_t i;

	states_of("tests/data/k6.18", &st);
	check_letters(&st, "SDTtXZPI", 8);
	assert_int_equal(ft_state_letter(&st, 0x80), 'I');	/* libtraceevent's plugin says W */
	if (skip_without_shared())
		skip();
	for (i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
		snprintf(dir, sizeof(dir), "%s/%s", fixture("perfetto/formats/device"), k[i].dir);
		states_of(dir, &st);
		check_letters(&st, k[i].letters, k[i].preempt);
	}
}

/* the guard in front of libtraceevent: kernel formats pass, the damage fuzzing found does not */
static void test_format_guard(void **state)
{
	static const char *const events[] = { "sched_switch", "sched_waking", "sched_wakeup",
					      "sched_wakeup_new", "sched_process_fork" };
	char path[256], *text, *p, c;
	size_t len, i;

	for (i = 0; i < sizeof(events) / sizeof(events[0]); i++) {
		snprintf(path, sizeof(path), "tests/data/k6.18/events/sched/%s/format", events[i]);
		text = ft_read_file(path, FT_FORMAT_MAX, &len);
		assert_non_null(text);
		assert_int_equal(ft_format_check(text, len), 0);
		free(text);
	}
	text = ft_read_file("tests/data/k6.18/events/sched/sched_switch/format", FT_FORMAT_MAX, &len);
	assert_non_null(text);
	p = strstr(text, "REC->prev_state");
	assert_non_null(p);
	p[6] = (char)0xed;		/* the byte fuzz_tdat's first crash had there */
	assert_int_equal(ft_format_check(text, len), -1);
	p[6] = 'p';
	assert_int_equal(ft_format_check(text, len), 0);
	c = p[-1];
	p[-1] = '[';			/* an unbalanced bracket */
	assert_int_equal(ft_format_check(text, len), -1);
	p[-1] = c;
	assert_int_equal(ft_format_check(text, len), 0);
	p = strrchr(text, '"');		/* an unterminated string */
	*p = ' ';
	assert_int_equal(ft_format_check(text, len), -1);
	free(text);
}

/* 6.x's sched_process_fork names the child in a __data_loc string: read it as libtraceevent does */
static void test_fork_data_loc(void **state)
{
	struct tep_handle *tep = tep_alloc();
	unsigned char rec[64] = { 0 };
	struct tep_record r = { .data = rec, .size = sizeof(rec) };
	struct ft_decoder d;
	struct ft_event ev = { 0 };
	struct tep_event *te;
	struct trace_seq s;
	char *text;
	size_t len;
	uint32_t loc;
	uint16_t id;
	int32_t pid;
	int flen;
	void *raw;

	text = ft_read_file("tests/data/k6.18/events/sched/sched_process_fork/format",
			    FT_FORMAT_MAX, &len);
	assert_non_null(text);
	assert_int_equal(tep_parse_event(tep, text, len, "sched"), 0);
	free(text);
	te = tep_find_event_by_name(tep, "sched", "sched_process_fork");
	assert_non_null(te);
	id = (uint16_t)te->id;
	memcpy(rec, &id, 2);
	loc = 24 | (5u << 16);			/* parent_comm "dad\0\0" at 24 */
	memcpy(rec + 8, &loc, 4);
	pid = 100;
	memcpy(rec + 12, &pid, 4);
	loc = 29 | (4u << 16);			/* child_comm "kid\0" at 29 */
	memcpy(rec + 16, &loc, 4);
	pid = 101;
	memcpy(rec + 20, &pid, 4);
	memcpy(rec + 24, "dad\0\0kid", 9);
	assert_int_equal(ft_decoder_init(&d, tep), 0);
	assert_int_equal(ft_decode(&d, rec, 33, &ev), FT_EV_FORK);
	trace_seq_init(&s);
	raw = tep_get_field_raw(&s, te, "child_comm", &r, &flen, 0);
	assert_non_null(raw);
	assert_string_equal(ev.fork.child_comm, (const char *)raw);
	assert_string_equal(ev.fork.child_comm, "kid");
	assert_int_equal(ev.fork.parent_pid, 100);
	assert_int_equal(ev.fork.child_pid, 101);
	rec[32] = 'x';				/* not NUL-ended inside its length: no name */
	assert_int_equal(ft_decode(&d, rec, 33, &ev), FT_EV_FORK);
	assert_string_equal(ev.fork.child_comm, "");
	rec[32] = 0;				/* past the record's end: no name */
	assert_int_equal(ft_decode(&d, rec, 32, &ev), FT_EV_FORK);
	assert_string_equal(ev.fork.child_comm, "");
	trace_seq_destroy(&s);
	ft_decoder_fini(&d);
	tep_free(tep);
}

/* main - the decode suite */
int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_six_sched_switch),
		cmocka_unit_test(test_full_page),
		cmocka_unit_test(test_sched_page),
		cmocka_unit_test(test_own_capture),
		cmocka_unit_test(test_state_letters),
		cmocka_unit_test(test_format_guard),
		cmocka_unit_test(test_walker_equals_kbuffer),
		cmocka_unit_test(test_large_record_rounding),
		cmocka_unit_test(test_page_parts),
		cmocka_unit_test(test_fork_data_loc),
	};

	return cmocka_run_group_tests_name("decode", tests, NULL, NULL);
}
