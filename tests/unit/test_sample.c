// SPDX-License-Identifier: GPL-2.0
/*
 * The samples blob of a trace.dat (events/sample.c): written with known values and
 * read back exactly; every truncation of it, and each damaged length, read from a
 * buffer of exactly its size so that the ASan build catches a read past the end.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "events/sample.h"

#define NREC	3
/* offset of the event name length in a header: magic, freq, period, flags */
#define NLEN_OFF	(8 + 8 + 8 + 4)

/* The samples written: a small stack, none, and the deepest kept. */
static struct ft_sample rec[NREC];
static uint64_t frames[NREC][2 * FT_SAMPLE_MAX_STACK];
static const struct ft_sample_comm comm[] = {
	{ 4242, "alpha" },
	{ 0xfffffffe, "0123456789abcde" },	/* 15 characters, the most kept */
	{ 7, "" },
};
#define NCOMM	(sizeof(comm) / sizeof(comm[0]))

/* The blob: its bytes, and where its header and each record end. */
struct blob {
	unsigned char	*buf;
	size_t		len, cap, head, end[NREC];
};

/* fill - the known samples: each field a value no other field holds */
static void fill(void)
{
	static const int nk[NREC] = { 2, 0, FT_SAMPLE_MAX_STACK };
	static const int nu[NREC] = { 3, 0, FT_SAMPLE_MAX_STACK };
	int i, j;

	for (i = 0; i < NREC; i++) {
		for (j = 0; j < nk[i] + nu[i]; j++)
			frames[i][j] = 0xffffffff81000000ULL + ((uint64_t)i << 32) + j * 0x10 + 1;
		rec[i] = (struct ft_sample){
			.ts = 1000000000123ULL * (i + 1) + i, .period = 250000 + i * 7,
			.pid = 100 + i, .tid = 200 + i, .cpu = i, .nk = nk[i], .nu = nu[i],
			.ip = frames[i],
		};
	}
	rec[1].pid = -1;		/* u32 in the file: an idle sample's -1 comes back */
	rec[1].tid = 0;
}

/* make - a blob of @event with the known counts, names and samples */
static void make(struct blob *b, const char *event)
{
	const struct ft_sample_req req = { .event = event, .freq = 0, .period = 99991,
					   .user = true, .kernel = false };
	const struct ft_sample_counts c = { .samples = 11, .lost = 22, .throttled = 33,
					    .bad = 44 };
	int i;

	fill();
	assert_int_equal(ft_sample_blob_head(&b->buf, &b->len, &req, &c, comm, NCOMM), 0);
	b->head = b->cap = b->len;
	for (i = 0; i < NREC; i++) {
		assert_int_equal(ft_sample_blob_add(&b->buf, &b->len, &b->cap, &rec[i]), 0);
		b->end[i] = b->len;
	}
}

/* copy - the first @len bytes of @b in a block of exactly that size (ASan's bound) */
static unsigned char *copy(const struct blob *b, size_t len)
{
	unsigned char *p = malloc(len ? len : 1);

	assert_non_null(p);
	memcpy(p, b->buf, len);
	return p;
}

/* same - sample @s read back equals the written @w, every field and frame */
static void same(const struct ft_sample *s, const struct ft_sample *w)
{
	int j;

	assert_int_equal(s->ts, w->ts);
	assert_int_equal(s->period, w->period);
	assert_int_equal(s->pid, w->pid);
	assert_int_equal(s->tid, w->tid);
	assert_int_equal(s->cpu, w->cpu);
	assert_int_equal(s->nk, w->nk);
	assert_int_equal(s->nu, w->nu);
	for (j = 0; j < w->nk + w->nu; j++)
		assert_int_equal(s->ip[j], w->ip[j]);
	assert_null(s->maps);
	assert_null(s->comm);
}

/* test_sample_round_trip - header, names and records read back exactly */
static void test_sample_round_trip(void **state)
{
	uint64_t *ip = malloc(2 * FT_SAMPLE_MAX_STACK * sizeof(*ip));
	struct ft_sample_comm c;
	struct ft_sample_file f;
	struct ft_sample s;
	struct blob b = { 0 };
	unsigned char *p;
	uint32_t i;

	make(&b, "sched:sched_switch");
	p = copy(&b, b.len);
	assert_int_equal(ft_sample_file_open(&f, p, b.len), 0);
	assert_string_equal(f.req.event, "sched:sched_switch");
	assert_int_equal(f.req.freq, 0);
	assert_int_equal(f.req.period, 99991);
	assert_true(f.req.user);
	assert_false(f.req.kernel);
	assert_int_equal(f.counts.samples, 11);
	assert_int_equal(f.counts.lost, 22);
	assert_int_equal(f.counts.throttled, 33);
	assert_int_equal(f.counts.bad, 44);
	assert_int_equal(f.ncomm, NCOMM);
	for (i = 0; i < NCOMM; i++) {
		ft_sample_file_comm(&f, i, &c);
		assert_int_equal(c.tid, comm[i].tid);
		assert_string_equal(c.comm, comm[i].comm);
	}
	for (i = 0; i < NREC; i++) {
		assert_int_equal(ft_sample_file_next(&f, &s, ip), 1);
		same(&s, &rec[i]);
	}
	assert_int_equal(ft_sample_file_next(&f, &s, ip), 0);
	assert_int_equal(ft_sample_file_next(&f, &s, ip), 0);
	free(p);
	free(b.buf);
	free(ip);
}

/* test_sample_defaults - no event is cpu-clock; flags and frequency both ways */
static void test_sample_defaults(void **state)
{
	const struct ft_sample_req req = { .freq = 4999, .kernel = true };
	const struct ft_sample_counts c = { 0 };
	struct ft_sample_file f;
	unsigned char *buf;
	size_t len;

	assert_int_equal(ft_sample_blob_head(&buf, &len, &req, &c, NULL, 0), 0);
	assert_int_equal(ft_sample_file_open(&f, buf, len), 0);
	assert_string_equal(f.req.event, "cpu-clock");
	assert_int_equal(f.req.freq, 4999);
	assert_int_equal(f.req.period, 0);
	assert_false(f.req.user);
	assert_true(f.req.kernel);
	assert_int_equal(f.ncomm, 0);
	assert_ptr_equal(f.rec, f.end);
	free(buf);
}

/*
 * test_sample_dwarf - a dwarf run's header keeps the stack copy's size and why each
 * user stack's walk ended; cut anywhere inside that part, the header is refused
 */
static void test_sample_dwarf(void **state)
{
	struct ft_sample_req req = { .event = "sched:sched_switch", .period = 1, .user = true,
				     .callgraph = FT_CG_DWARF, .stack_user = 16384 };
	struct ft_sample_counts c = { .samples = 7 };
	struct ft_sample_file f;
	unsigned char *buf, *more;
	size_t len, cut;
	uint32_t n;
	int i;

	for (i = 0; i < FT_UNWIND_NEND; i++)
		c.unwound[i] = 100 + i;
	assert_int_equal(ft_sample_blob_head(&buf, &len, &req, &c, NULL, 0), 0);
	assert_int_equal(ft_sample_file_open(&f, buf, len), 0);
	assert_int_equal(f.req.callgraph, FT_CG_DWARF);
	assert_int_equal(f.req.stack_user, 16384);
	assert_int_equal(f.counts.samples, 7);
	for (i = 0; i < FT_UNWIND_NEND; i++)
		assert_int_equal(f.counts.unwound[i], 100 + i);
	for (cut = len - 4 - 8 * FT_UNWIND_NEND - 8; cut < len; cut++)
		assert_int_equal(ft_sample_file_open(&f, buf, cut), -1);
	/* N past the bytes left: refused; N above the reasons known: folded as damaged */
	memcpy(&n, buf + len - 4 - 8 * FT_UNWIND_NEND - 4, 4);
	assert_int_equal(n, FT_UNWIND_NEND);
	n = FT_UNWIND_NEND + 1;
	memcpy(buf + len - 4 - 8 * FT_UNWIND_NEND - 4, &n, 4);
	assert_int_equal(ft_sample_file_open(&f, buf, len), -1);
	n = FT_UNWIND_NEND - 1;		/* the last count then reads as the names' count */
	memcpy(buf + len - 4 - 8 * FT_UNWIND_NEND - 4, &n, 4);
	assert_int_equal(ft_sample_file_open(&f, buf, len), -1);
	free(buf);
	c.unwound[FT_UNWIND_BADCFI] = 5;	/* a reason this reader does not know */
	assert_int_equal(ft_sample_blob_head(&buf, &len, &req, &c, NULL, 0), 0);
	memcpy(&n, buf + len - 4 - 8 * FT_UNWIND_NEND - 4, 4);
	more = realloc(buf, len + 8);
	assert_non_null(more);
	buf = more;
	memmove(buf + len - 4 + 8, buf + len - 4, 4);	/* one more count: 9 */
	memcpy(buf + len - 4, &(uint64_t){ 9 }, 8);
	n++;
	memcpy(buf + len - 4 - 8 * FT_UNWIND_NEND - 4, &n, 4);
	assert_int_equal(ft_sample_file_open(&f, buf, len + 8), 0);
	assert_int_equal(f.counts.unwound[FT_UNWIND_BADCFI], 5 + 9);
	assert_int_equal(f.counts.unwound[FT_UNWIND_DONE], 100);
	/* an old reader's magic with the dwarf flag: refused */
	memcpy(buf, "FTSAMP1", 8);
	assert_int_equal(ft_sample_file_open(&f, buf, len + 8), -1);
	free(buf);
	req.callgraph = FT_CG_FP;	/* frame pointers: nothing more kept */
	assert_int_equal(ft_sample_blob_head(&buf, &len, &req, &c, NULL, 0), 0);
	assert_int_equal(ft_sample_file_open(&f, buf, len), 0);
	assert_int_equal(f.req.callgraph, FT_CG_DEFAULT);
	assert_int_equal(f.counts.unwound[FT_UNWIND_DONE], 0);
	free(buf);
}

/* test_sample_truncated - each length: refused, or the whole records before it */
static void test_sample_truncated(void **state)
{
	uint64_t *ip = malloc(2 * FT_SAMPLE_MAX_STACK * sizeof(*ip));
	struct ft_sample_comm c;
	struct ft_sample_file f;
	struct ft_sample s;
	struct blob b = { 0 };
	size_t len;

	make(&b, "page-faults");
	for (len = 0; len < b.len; len++) {
		unsigned char *p = copy(&b, len);
		int i, r, whole = 0;
		uint32_t k;

		errno = 0;
		r = ft_sample_file_open(&f, p, len);
		if (len < b.head) {		/* the header and names are read whole */
			assert_int_equal(r, -1);
			assert_int_equal(errno, EINVAL);
			free(p);
			continue;
		}
		assert_int_equal(r, 0);
		for (k = 0; k < f.ncomm; k++)
			ft_sample_file_comm(&f, k, &c);
		while (whole < NREC && b.end[whole] <= len)
			whole++;
		for (i = 0; i < whole; i++) {
			assert_int_equal(ft_sample_file_next(&f, &s, ip), 1);
			same(&s, &rec[i]);
		}
		/* at a record's boundary the blob just ends; inside one it is damaged */
		r = ft_sample_file_next(&f, &s, ip);
		assert_int_equal(r, len == (whole ? b.end[whole - 1] : b.head) ? 0 : -1);
		assert_int_equal(ft_sample_file_next(&f, &s, ip), 0);	/* the rest dropped */
		free(p);
	}
	free(b.buf);
	free(ip);
}

/* one_record - a header and one record of @nk, @nu frames, all frames present */
static unsigned char *one_record(size_t *len, uint16_t nk, uint16_t nu)
{
	const struct ft_sample_req req = { 0 };
	const struct ft_sample_counts c = { 0 };
	size_t hlen, n = 8 + 8 + 4 + 4 + 4 + 2 + 2 + 8 * ((size_t)nk + nu);
	unsigned char *head, *p;

	assert_int_equal(ft_sample_blob_head(&head, &hlen, &req, &c, NULL, 0), 0);
	p = calloc(1, hlen + n);
	assert_non_null(p);
	memcpy(p, head, hlen);
	memcpy(p + hlen + 28, &nk, 2);
	memcpy(p + hlen + 30, &nu, 2);
	free(head);
	*len = hlen + n;
	return p;
}

/* next_of - ft_sample_file_next's answer on a one-record blob of @nk, @nu frames */
static int next_of(uint16_t nk, uint16_t nu)
{
	uint64_t *ip = malloc(2 * FT_SAMPLE_MAX_STACK * sizeof(*ip));
	struct ft_sample_file f;
	struct ft_sample s;
	unsigned char *p;
	size_t len;
	int r;

	p = one_record(&len, nk, nu);
	assert_int_equal(ft_sample_file_open(&f, p, len), 0);
	errno = 0;
	r = ft_sample_file_next(&f, &s, ip);
	if (r < 0)
		assert_int_equal(errno, EINVAL);
	else
		assert_int_equal(ft_sample_file_next(&f, &s, ip), 0);
	free(p);
	free(ip);
	return r;
}

/* test_sample_deep_stack - frames beyond FT_SAMPLE_MAX_STACK are refused, even whole */
static void test_sample_deep_stack(void **state)
{
	assert_int_equal(next_of(FT_SAMPLE_MAX_STACK, FT_SAMPLE_MAX_STACK), 1);
	assert_int_equal(next_of(FT_SAMPLE_MAX_STACK + 1, FT_SAMPLE_MAX_STACK), -1);
	assert_int_equal(next_of(FT_SAMPLE_MAX_STACK, FT_SAMPLE_MAX_STACK + 1), -1);
	assert_int_equal(next_of(FT_SAMPLE_MAX_STACK + 1, 0), -1);
	assert_int_equal(next_of(0, FT_SAMPLE_MAX_STACK + 1), -1);
	assert_int_equal(next_of(0xffff, 0xffff), -1);
}

/* open_patched - open @b with the u32 at @off set to @v; the answer */
static int open_patched(const struct blob *b, size_t off, uint32_t v)
{
	struct ft_sample_file f;
	unsigned char *p = copy(b, b->len);
	int r;

	memcpy(p + off, &v, 4);
	errno = 0;
	r = ft_sample_file_open(&f, p, b->len);
	if (r < 0)
		assert_int_equal(errno, EINVAL);
	free(p);
	return r;
}

/* test_sample_comm_count - a names table longer than the blob is refused */
static void test_sample_comm_count(void **state)
{
	struct blob b = { 0 };
	size_t off;

	make(&b, "cpu-clock");
	off = NLEN_OFF + 4 + strlen("cpu-clock") + 4 * 8;	/* the u32 ncomm */
	assert_int_equal(open_patched(&b, off, NCOMM), 0);
	/* the records' bytes hold this many more names: they are taken as names */
	assert_int_equal(open_patched(&b, off, (b.len - b.head) / 20 + NCOMM), 0);
	assert_int_equal(open_patched(&b, off, (b.len - b.head) / 20 + NCOMM + 1), -1);
	assert_int_equal(open_patched(&b, off, 0x0ccccccd), -1);	/* x 20 wraps in u32 */
	assert_int_equal(open_patched(&b, off, UINT32_MAX), -1);
	free(b.buf);
}

/* open_longer - @b (a 127-byte event name) with one more byte of name, nlen 128 */
static int open_longer(const struct blob *b)
{
	size_t name_end = NLEN_OFF + 4 + 127;
	unsigned char *p = malloc(b->len + 1);
	struct ft_sample_file f;
	uint32_t nlen = 128;
	int r;

	assert_non_null(p);
	memcpy(p, b->buf, name_end);
	p[name_end] = 'e';
	memcpy(p + name_end + 1, b->buf + name_end, b->len - name_end);
	memcpy(p + NLEN_OFF, &nlen, 4);
	errno = 0;
	r = ft_sample_file_open(&f, p, b->len + 1);
	if (r < 0)
		assert_int_equal(errno, EINVAL);
	free(p);
	return r;
}

/* test_sample_event_length - an event name of 128 bytes or more is refused */
static void test_sample_event_length(void **state)
{
	char name[200];
	struct ft_sample_file f;
	struct blob b = { 0 };

	memset(name, 'e', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	make(&b, name);		/* the writer keeps 127 bytes of it */
	assert_int_equal(ft_sample_file_open(&f, b.buf, b.len), 0);
	assert_int_equal(strlen(f.req.event), 127);
	/* 128 bytes of name, the rest of the blob whole after it: only the length is
	   too long for event[128] with its NUL */
	assert_int_equal(open_longer(&b), -1);
	assert_int_equal(open_patched(&b, NLEN_OFF, 200), -1);
	assert_int_equal(open_patched(&b, NLEN_OFF, UINT32_MAX), -1);
	free(b.buf);
}

/*
 * test_sample_maps_records - a sample that came with its process's mappings comes back
 * with them (the recording keeps them as they changed); a mappings record followed by
 * another process's sample, or cut, or in an FTSAMP2 blob, is damage
 */
static void test_sample_maps_records(void **state)
{
	static const char m1[] = "1000 2000 0 /lib/liba.so\n", m2[] = "1000 2000 0 /lib/libb.so\n";
	uint64_t *ip = malloc(2 * FT_SAMPLE_MAX_STACK * sizeof(*ip));
	struct ft_sample_file f;
	struct ft_sample s;
	struct blob b = { 0 };
	unsigned char *p;
	size_t cut;

	const struct ft_sample_req req = { .period = 1, .user = true };
	const struct ft_sample_counts c = { .samples = 3 };
	int i;

	fill();
	rec[0].maps = m1;
	rec[0].maps_len = sizeof(m1) - 1;
	rec[2].maps = m2;
	rec[2].maps_len = sizeof(m2) - 1;
	assert_int_equal(ft_sample_blob_head(&b.buf, &b.len, &req, &c, NULL, 0), 0);
	b.head = b.cap = b.len;
	for (i = 0; i < NREC; i++) {
		assert_int_equal(ft_sample_blob_add(&b.buf, &b.len, &b.cap, &rec[i]), 0);
		b.end[i] = b.len;
	}
	rec[0].maps = rec[2].maps = NULL;
	p = copy(&b, b.len);
	assert_int_equal(ft_sample_file_open(&f, p, b.len), 0);
	assert_int_equal(ft_sample_file_next(&f, &s, ip), 1);
	assert_int_equal(s.pid, 100);
	assert_int_equal(s.maps_len, sizeof(m1) - 1);
	assert_memory_equal(s.maps, m1, sizeof(m1) - 1);
	assert_int_equal(ft_sample_file_next(&f, &s, ip), 1);
	assert_null(s.maps);
	assert_int_equal(ft_sample_file_next(&f, &s, ip), 1);
	assert_int_equal(s.pid, 102);
	assert_memory_equal(s.maps, m2, sizeof(m2) - 1);
	assert_int_equal(ft_sample_file_next(&f, &s, ip), 0);
	free(p);
	/* the second mappings record's sample of another process: damage */
	memcpy(b.buf + b.end[1] + 8 + 8, &(uint32_t){ 101 }, 4);
	p = copy(&b, b.len);
	assert_int_equal(ft_sample_file_open(&f, p, b.len), 0);
	assert_int_equal(ft_sample_file_next(&f, &s, ip), 1);
	assert_int_equal(ft_sample_file_next(&f, &s, ip), 1);
	assert_int_equal(ft_sample_file_next(&f, &s, ip), -1);
	free(p);
	/* cut inside the first mappings text: damage, no sample */
	cut = b.head + 28 + 4 + 4;
	p = copy(&b, cut);
	assert_int_equal(ft_sample_file_open(&f, p, cut), 0);
	assert_int_equal(ft_sample_file_next(&f, &s, ip), -1);
	free(p);
	/* the same records under FTSAMP2's magic (no mappings records): damage */
	memcpy(b.buf, "FTSAMP2", 8);
	p = copy(&b, b.len);
	assert_int_equal(ft_sample_file_open(&f, p, b.len), -1);	/* and no dwarf part */
	free(p);
	free(b.buf);
	free(ip);
}

/* test_sample_not_a_blob - a wrong magic is refused */
static void test_sample_not_a_blob(void **state)
{
	struct ft_sample_file f;
	struct blob b = { 0 };

	make(&b, NULL);
	b.buf[6] = '2';		/* FTSAMP2 */
	errno = 0;
	assert_int_equal(ft_sample_file_open(&f, b.buf, b.len), -1);
	assert_int_equal(errno, EINVAL);
	free(b.buf);
}

/* main - the tests */
int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sample_round_trip),
		cmocka_unit_test(test_sample_defaults),
		cmocka_unit_test(test_sample_dwarf),
		cmocka_unit_test(test_sample_truncated),
		cmocka_unit_test(test_sample_deep_stack),
		cmocka_unit_test(test_sample_comm_count),
		cmocka_unit_test(test_sample_event_length),
		cmocka_unit_test(test_sample_not_a_blob),
		cmocka_unit_test(test_sample_maps_records),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
