// SPDX-License-Identifier: GPL-2.0
/*
 * Tracepoints by name (events/tp.c): a made-up event whose fields are of every kind
 * (signed and unsigned integers of 1, 2, 4 and 8 bytes, char[16], __data_loc and
 * __rel_loc strings) is resolved from its format text, and each field read from a
 * record built by hand must equal what was written, and what libtraceevent reads.
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
#include <traceevent/trace-seq.h>

#include "events/decode.h"
#include "events/tep.h"
#include "events/tp.h"

static const char fmt_text[] =
	"name: thing\n"
	"ID: 901\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:s8 a;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield:u16 b;\toffset:10;\tsize:2;\tsigned:0;\n"
	"\tfield:int c;\toffset:12;\tsize:4;\tsigned:1;\n"
	"\tfield:u64 d;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:char comm[16];\toffset:24;\tsize:16;\tsigned:0;\n"
	"\tfield:__data_loc char[] name;\toffset:40;\tsize:4;\tsigned:0;\n"
	"\tfield:__rel_loc char[] rel;\toffset:44;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned long addrs[2];\toffset:48;\tsize:16;\tsigned:0;\n"
	"\n"
	"print fmt: \"a=%d name=%s\", REC->a, __get_str(name)\n";

/* tep_with_thing - a tep that knows ftest:thing */
static struct tep_handle *tep_with_thing(void)
{
	struct tep_handle *tep = tep_alloc();

	assert_non_null(tep);
	tep_set_long_size(tep, 8);
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	assert_int_equal(ft_tep_add_format(tep, "ftest", fmt_text, strlen(fmt_text)), 0);
	return tep;
}

/* record - a thing record: a=-3 b=65000 c=-70000 d=2^40+5 comm "dd" name "eth0" rel "xy" */
static int record(unsigned char *r, size_t len)
{
	uint16_t type = 901, b = 65000;
	int32_t pid = 77, c = -70000;
	uint64_t d = (1ull << 40) + 5;
	uint32_t loc = (5u << 16) | 64, rel = (3u << 16) | 21;	/* rel: from byte 48 */

	memset(r, 0, len);
	memcpy(r, &type, 2);
	memcpy(r + 4, &pid, 4);
	r[8] = (unsigned char)-3;
	memcpy(r + 10, &b, 2);
	memcpy(r + 12, &c, 4);
	memcpy(r + 16, &d, 8);
	memcpy(r + 24, "dd", 3);
	memcpy(r + 40, &loc, 4);
	memcpy(r + 44, &rel, 4);
	memcpy(r + 64, "eth0", 5);
	memcpy(r + 69, "xy", 3);
	return 72;
}

/* test_fields - every kind of field reads back what the record holds */
static void test_fields(void **state)
{
	struct tep_handle *tep = tep_with_thing();
	struct ft_tp tp = { .system = "ftest", .name = "thing",
			    .field = { "a", "b", "c", "d", "comm", "name", "rel", "common_pid" } };
	struct ft_event ev = { 0 };
	unsigned long long v;
	unsigned char r[128];
	char err[256];
	int len, k;
	const char *s;

	assert_int_equal(ft_tp_resolve(&tp, tep, err, sizeof(err)), 0);
	assert_int_equal(tp.id, 901);
	ev.id = 901;
	ev.data = r;
	ev.size = record(r, sizeof(r));
	assert_true(ft_tp_is(&ev, &tp));
	assert_int_equal(ft_tp_num(&ev, &tp, 0), -3);
	assert_int_equal(ft_tp_num(&ev, &tp, 1), 65000);
	assert_int_equal(ft_tp_num(&ev, &tp, 2), -70000);
	assert_int_equal(ft_tp_num(&ev, &tp, 3), (1ll << 40) + 5);
	assert_int_equal(ft_tp_num(&ev, &tp, 7), 77);
	s = ft_tp_str(&ev, &tp, 4, &len);
	assert_int_equal(len, 2);
	assert_memory_equal(s, "dd", 2);
	s = ft_tp_str(&ev, &tp, 5, &len);
	assert_int_equal(len, 4);
	assert_memory_equal(s, "eth0", 4);
	s = ft_tp_str(&ev, &tp, 6, &len);
	assert_int_equal(len, 2);
	assert_memory_equal(s, "xy", 2);
	/* the integers as libtraceevent reads them (its values are not sign-extended) */
	for (k = 0; k < 4; k++) {
		struct tep_format_field *f = tep_find_field(tep_find_event(tep, 901), tp.field[k]);

		assert_int_equal(tep_read_number_field(f, r, &v), 0);
		assert_int_equal((unsigned long long)ft_tp_num(&ev, &tp, k) &
				 (f->size == 8 ? ~0ull : (1ull << (8 * f->size)) - 1), v);
	}
	/* the strings where libtraceevent finds them (__rel_loc counts from the field's end) */
	{
		static const int str[] = { 4, 5, 6 };
		struct tep_record rec = { .data = r, .size = ev.size };
		struct trace_seq seq;
		const char *raw;
		int rlen;

		trace_seq_init(&seq);
		for (k = 0; k < 3; k++) {
			raw = tep_get_field_raw(&seq, tep_find_event(tep, 901), tp.field[str[k]], &rec,
						&rlen, 1);
			s = ft_tp_str(&ev, &tp, str[k], &len);
			assert_non_null(raw);
			assert_ptr_equal(s, raw);
			assert_int_equal(len, (int)strnlen(raw, rlen));
		}
		trace_seq_destroy(&seq);
	}
	/* a string is not a number, nor a number a string */
	assert_int_equal(ft_tp_num(&ev, &tp, 5), 0);
	assert_int_equal(ft_tp_str(&ev, &tp, 0, &len)[0], 0);
	assert_int_equal(len, 0);
	tep_free(tep);
}

/* this kernel's (6.18) formats, as tracefs gives them: the print fmts are the oracle */
static const char switch_fmt[] =
	"name: sched_switch\n"
	"ID: 372\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
	"\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
	"\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> next_comm=%s "
	"next_pid=%d next_prio=%d\", REC->prev_comm, REC->prev_pid, REC->prev_prio, "
	"(REC->prev_state & ((((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | "
	"0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) - 1)) ? __print_flags(REC->prev_state "
	"& ((((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | "
	"0x00000020 | 0x00000040) + 1) << 1) - 1), \"|\", { 0x00000001, \"S\" }, { 0x00000002, "
	"\"D\" }, { 0x00000004, \"T\" }, { 0x00000008, \"t\" }, { 0x00000010, \"X\" }, { "
	"0x00000020, \"Z\" }, { 0x00000040, \"P\" }, { 0x00000080, \"I\" }) : \"R\", "
	"REC->prev_state & (((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | "
	"0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) ? \"+\" : \"\", REC->next_comm, "
	"REC->next_pid, REC->next_prio\n";

static const char softirq_fmt[] =
	"name: softirq_entry\n"
	"ID: 223\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:unsigned int vec;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\n"
	"print fmt: \"vec=%u [action=%s]\", REC->vec, __print_symbolic(REC->vec, { 0, \"HI\" }, "
	"{ 1, \"TIMER\" }, { 2, \"NET_TX\" }, { 3, \"NET_RX\" }, { 4, \"BLOCK\" }, { 5, "
	"\"IRQ_POLL\" }, { 6, \"TASKLET\" }, { 7, \"SCHED\" }, { 8, \"HRTIMER\" }, { 9, \"RCU\" "
	"})\n";

/*
 * names_of - for each value of @vals, field @field of @sys:@ev in a record made from
 * @fmt: ft_tp_name's text against what libtraceevent prints of the same record after
 * "@label=" in the event's info (its own evaluation of the print fmt)
 */
static void names_of(const char *sys, const char *ev, const char *fmt, const char *field,
		     const char *label, int id, int off, int size, const long long *vals, int n)
{
	struct tep_handle *tep = tep_alloc();
	struct ft_tp tp = { .system = sys, .name = ev, .field = { field } };
	unsigned char r[128];
	char err[256], name[64], want[64], *p;
	struct trace_seq seq;
	uint16_t type = (uint16_t)id;
	int i;

	assert_non_null(tep);
	tep_set_long_size(tep, 8);
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	assert_int_equal(ft_tep_add_format(tep, sys, fmt, strlen(fmt)), 0);
	assert_int_equal(ft_tp_resolve(&tp, tep, err, sizeof(err)), 0);
	assert_int_equal(tp.fmt[0].names, FT_TPN_PRINT);
	for (i = 0; i < n; i++) {
		struct tep_record rec = { .data = r, .size = sizeof(r) };

		memset(r, 0, sizeof(r));
		memcpy(r, &type, 2);
		memcpy(r + off, &vals[i], size);
		trace_seq_init(&seq);
		tep_print_event(tep, &seq, &rec, "%s", TEP_PRINT_INFO);
		trace_seq_terminate(&seq);
		snprintf(want, sizeof(want), "%s=", label);
		p = strstr(seq.buffer, want);
		assert_non_null(p);
		p += strlen(want);
		snprintf(want, sizeof(want), "%.*s", (int)strcspn(p, " ]"), p);
		trace_seq_destroy(&seq);
		if (!ft_tp_name(&tp.fmt[0], vals[i], name, sizeof(name)))
			snprintf(name, sizeof(name), "%lld", vals[i]);
		assert_string_equal(name, want);
	}
	tep_free(tep);
}

/* test_names - __print_flags (prev_state: 0 as "R", the "+" suffix, bits joined, bits
   without a name in hex) and __print_symbolic (vec) named as libtraceevent prints them */
static void test_names(void **state)
{
	static const long long st[] = { 0, 1, 2, 3, 0x20, 0x80, 0x100, 0x101, 0x81 };
	static const long long vec[] = { 0, 3, 9 };	/* (10: libtraceevent prints 0xa) */
	struct ft_tp_field f = { .names = FT_TPN_SYSCALL };
	long long v;
	char buf[32];

	(void)state;
	names_of("sched", "sched_switch", switch_fmt, "prev_state", "prev_state", 372, 32, 8,
		 st, 9);
	names_of("irq", "softirq_entry", softirq_fmt, "vec", "action", 223, 8, 4, vec, 3);
	assert_int_equal(ft_tp_name(&f, 0, buf, sizeof(buf)), 4);
	assert_string_equal(buf, "read");
	assert_true(ft_tp_value(&f, "write", &v));
	assert_int_equal(v, 1);
	assert_false(ft_tp_value(&f, "nosuchcall", &v));
	assert_int_equal(ft_tp_name(&f, 100000, buf, sizeof(buf)), 0);
}

/* test_bounds - a record too short, or a __data_loc pointing past it, reads as absent */
static void test_bounds(void **state)
{
	struct tep_handle *tep = tep_with_thing();
	struct ft_tp tp = { .system = "ftest", .name = "thing", .field = { "d", "name" } };
	struct ft_event ev = { .id = 901 };
	unsigned char r[128];
	char err[256];
	uint32_t loc = (200u << 16) | 64;
	int len;

	assert_int_equal(ft_tp_resolve(&tp, tep, err, sizeof(err)), 0);
	ev.data = r;
	ev.size = record(r, sizeof(r));
	memcpy(r + 40, &loc, 4);
	assert_int_equal(ft_tp_str(&ev, &tp, 1, &len)[0], 0);
	assert_int_equal(len, 0);
	ev.size = 20;			/* d ends at 24 */
	assert_false(ft_tp_has(&ev, &tp, 0));
	assert_int_equal(ft_tp_num(&ev, &tp, 0), 0);
	assert_false(ft_tp_has(&ev, &tp, FT_TP_FIELDS));	/* no such index */
	assert_false(ft_tp_has(&ev, &tp, -1));
	ev.id = 902;
	assert_false(ft_tp_is(&ev, &tp));
	tep_free(tep);
}

/* test_resolve_errors - a missing event, field or an array of numbers: one line each */
static void test_resolve_errors(void **state)
{
	struct tep_handle *tep = tep_with_thing();
	struct ft_tp none = { .system = "ftest", .name = "other", .field = { "a" } };
	struct ft_tp nofield = { .system = "ftest", .name = "thing", .field = { "a", "zz" } };
	struct ft_tp array = { .system = "ftest", .name = "thing", .field = { "addrs" } };
	char err[512];

	assert_int_equal(ft_tp_resolve(&none, tep, err, sizeof(err)), -1);
	assert_int_equal(none.id, -1);
	none.optional = true;
	assert_int_equal(ft_tp_resolve(&none, tep, err, sizeof(err)), 0);
	assert_int_equal(ft_tp_resolve(&nofield, tep, err, sizeof(err)), -1);
	assert_string_equal(err, "ftest:thing has no field 'zz' (it has: "
			    "a, b, c, d, comm, name, rel, addrs)");
	assert_int_equal(ft_tp_resolve(&array, tep, err, sizeof(err)), -1);
	assert_string_equal(err, "ftest:thing: field 'addrs' is neither a number nor a string");
	nofield.opt_fields = true;
	assert_int_equal(ft_tp_resolve(&nofield, tep, err, sizeof(err)), 0);
	assert_int_equal(nofield.fmt[1].kind, FT_TPF_NONE);
	assert_false(ft_tp_name_ok("a/b"));
	assert_false(ft_tp_name_ok(""));
	assert_true(ft_tp_name_ok("irq_handler_entry"));
	tep_free(tep);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_bounds),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_resolve_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
