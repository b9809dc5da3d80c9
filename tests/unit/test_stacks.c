// SPDX-License-Identifier: GPL-2.0
/*
 * Stacks without a kernel: kernel_stack and user_stack records built byte by byte
 * decode to their addresses; interning gives one id per distinct array; kallsyms
 * text and this test's own ELF file resolve to the right names.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <traceevent/event-parse.h>

#include "events/decode.h"
#include "events/syms.h"
#include "events/tep.h"
#include "events/unwind.h"
#include "lib/intern.h"

/* The two formats as a 6.18 kernel prints them (events/ftrace/.../format). */
static const char kstack_fmt[] =
	"name: kernel_stack\nID: 4\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:int size;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:unsigned long caller[8];\toffset:16;\tsize:64;\tsigned:0;\n\n"
	"print fmt: \"\\t=> %ps\\n\", (void *)REC->caller[0]\n";
static const char ustack_fmt[] =
	"name: user_stack\nID: 13\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:unsigned int tgid;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned long caller[8];\toffset:16;\tsize:64;\tsigned:0;\n\n"
	"print fmt: \"\\t=> %ps\\n\", (void *)REC->caller[0]\n";

/* record - common fields, a 4-byte word at 8, then @n addresses from offset 16 */
static int record(unsigned char *buf, uint16_t id, int pid, uint32_t w8, const uint64_t *ip,
		  int n)
{
	memset(buf, 0, 80);
	memcpy(buf, &id, 2);
	memcpy(buf + 4, &pid, 4);
	memcpy(buf + 8, &w8, 4);
	memcpy(buf + 16, ip, n * 8);
	return 16 + 8 * n;
}

/* test_stack_records - variable-length kernel stacks, zero-ended user stacks, damage */
static void test_stack_records(void **state)
{
	uint64_t k[3] = { 0xffffffff81000010ULL, 0xffffffff81000020ULL, 0xffffffff81000030ULL };
	uint64_t u[8] = { 0x401000, 0x402000, 0 };
	struct tep_handle *tep = tep_alloc();
	struct ft_decoder d;
	struct ft_event ev;
	unsigned char buf[80];
	int len;

	(void)state;
	assert_non_null(tep);
	tep_set_long_size(tep, 8);
	assert_int_equal(ft_tep_add_format(tep, "ftrace", kstack_fmt, strlen(kstack_fmt)), 0);
	assert_int_equal(ft_tep_add_format(tep, "ftrace", ustack_fmt, strlen(ustack_fmt)), 0);
	assert_int_equal(ft_decoder_init(&d, tep), 0);
	assert_true(d.have & FT_NEED(FT_EV_KSTACK));
	assert_true(d.have & FT_NEED(FT_EV_USTACK));

	/* `size` entries follow, although the format says caller[8] */
	len = record(buf, 4, 42, 3, k, 3);
	assert_int_equal(ft_decode(&d, buf, len, &ev), FT_EV_KSTACK);
	assert_int_equal(ev.common_pid, 42);
	assert_int_equal(ev.stack.n, 3);
	assert_true(ft_stack_ip(&ev.stack, 0) == k[0]);
	assert_true(ft_stack_ip(&ev.stack, 2) == k[2]);

	/* a size beyond the record is cut to the record */
	len = record(buf, 4, 42, 50, k, 3);
	assert_int_equal(ft_decode(&d, buf, len, &ev), FT_EV_KSTACK);
	assert_int_equal(ev.stack.n, 3);

	/* user stacks: eight slots, zero-filled after the last frame; tgid kept */
	len = record(buf, 13, 43, 77, u, 8);
	assert_int_equal(ft_decode(&d, buf, len, &ev), FT_EV_USTACK);
	assert_int_equal(ev.stack.n, 2);
	assert_int_equal(ev.stack.tgid, 77);
	assert_true(ft_stack_ip(&ev.stack, 1) == 0x402000);

	/* too short to hold the array's start: malformed, not decoded */
	assert_int_equal(ft_decode(&d, buf, 12, &ev), FT_EV_UNKNOWN);
	assert_int_equal(d.malformed, 1);
	ft_decoder_fini(&d);
	tep_free(tep);
}

/* test_intern - equal arrays share an id; ids stay right across table growth */
static void test_intern(void **state)
{
	struct ft_intern t;
	uint64_t v[3], *back;
	uint32_t n, i;

	(void)state;
	assert_int_equal(ft_intern_init(&t), 0);
	for (i = 0; i < 5000; i++) {
		v[0] = i;
		v[1] = i * 7;
		v[2] = ~(uint64_t)i;
		assert_int_equal(ft_intern_put(&t, v, 1 + i % 3), i);
	}
	for (i = 0; i < 5000; i += 97) {
		v[0] = i;
		v[1] = i * 7;
		v[2] = ~(uint64_t)i;
		assert_int_equal(ft_intern_put(&t, v, 1 + i % 3), i);
		back = (uint64_t *)ft_intern_get(&t, i, &n);
		assert_int_equal(n, 1 + i % 3);
		assert_memory_equal(back, v, n * sizeof(*v));
	}
	assert_int_equal(ft_intern_put(&t, NULL, 0), 5000);	/* the empty array is one too */
	assert_int_equal(ft_intern_put(&t, NULL, 0), 5000);
	ft_intern_fini(&t);
}

/* kallsyms_file - write @text to a temporary file and return its path */
static const char *kallsyms_file(const char *text)
{
	static char path[] = "/tmp/ftscope-kallsyms-XXXXXX";
	int fd;

	strcpy(path, "/tmp/ftscope-kallsyms-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

/* test_ksyms - text symbols only, nearest below wins; zeros mean hidden */
static void test_ksyms(void **state)
{
	struct ft_ksyms k;
	const char *p;

	(void)state;
	p = kallsyms_file("ffffffff81000100 T schedule\nffffffff81000000 t __schedule\n"
			  "ffffffff81000180 D some_data\nffffffffc0001000 t mod_func\t[mod]\n");
	assert_int_equal(ft_ksyms_load(&k, p), 0);
	unlink(p);
	assert_false(k.hidden);
	assert_null(ft_ksyms_name(&k, 0xffffffff80ffffffULL));
	assert_string_equal(ft_ksyms_name(&k, 0xffffffff81000010ULL), "__schedule");
	assert_string_equal(ft_ksyms_name(&k, 0xffffffff810001a0ULL), "schedule");
	assert_string_equal(ft_ksyms_name(&k, 0xffffffffc0001004ULL), "mod_func");
	ft_ksyms_fini(&k);

	p = kallsyms_file("0000000000000000 T schedule\n0000000000000000 t __schedule\n");
	assert_int_equal(ft_ksyms_load(&k, p), 0);
	unlink(p);
	assert_true(k.hidden);
	assert_null(ft_ksyms_name(&k, 0xffffffff81000010ULL));
	ft_ksyms_fini(&k);
}

/* named_function - a function of this test binary, for the ELF lookup */
__attribute__((noinline)) int named_function(int x)
{
	return x * 3 + 1;
}

/* test_usyms - this process's own code: PIE bias and a shared library (libc) */
static void test_usyms(void **state)
{
	uint64_t ip[2] = { (uint64_t)(uintptr_t)named_function + 4,
			   (uint64_t)(uintptr_t)nanosleep + 1 }, fr[2];
	struct ft_usyms u;

	(void)state;
	assert_int_equal(ft_usyms_init(&u, true), 0);
	/* the second address is a return address: looked up minus one, still inside */
	assert_int_equal(ft_usyms_frames(&u, getpid(), ip, 2, fr), 2);
	assert_string_equal(ft_usyms_name(&u, getpid(), fr[0]), "named_function");
	assert_non_null(strstr(ft_usyms_name(&u, getpid(), fr[1]), "nanosleep"));
	/* outside any mapping: an IP keeps an [unknown] frame, a return address ends it */
	ip[0] = 16;
	assert_int_equal(ft_usyms_frames(&u, getpid(), ip, 2, fr), 2);
	assert_string_equal(ft_usyms_name(&u, getpid(), fr[0]), "[unknown]");
	ip[0] = (uint64_t)(uintptr_t)named_function;
	ip[1] = 16;
	assert_int_equal(ft_usyms_frames(&u, getpid(), ip, 2, fr), 1);
	ft_usyms_fini(&u);
}

/*
 * a CFI walk that stopped short ends in its marker (FT_UNWIND_MARK | why): it stays
 * the last frame, named by the reason, even when a frame before it is in no mapping
 * (where the frames end), and has no file; alone, or not last, it is no marker
 */
static void test_usyms_marker(void **state)
{
	uint64_t ip[3] = { (uint64_t)(uintptr_t)named_function + 4,
			   (uint64_t)(uintptr_t)nanosleep + 1,
			   FT_UNWIND_MARK | FT_UNWIND_STACK }, fr[3];
	struct ft_usyms u;

	(void)state;
	assert_int_equal(ft_usyms_init(&u, true), 0);
	assert_int_equal(ft_usyms_frames(&u, getpid(), ip, 3, fr), 3);
	assert_string_equal(ft_usyms_name(&u, getpid(), fr[0]), "named_function");
	assert_true(FT_UFRAME_IS_MARK(fr[2]) && !FT_UFRAME_IS_MARK(fr[1]));
	assert_string_equal(ft_usyms_name(&u, getpid(), fr[2]),
			    "[unwind stopped: stack copy too small]");
	assert_string_equal(ft_usyms_symbol(&u, getpid(), fr[2]),
			    "[unwind stopped: stack copy too small]");
	assert_null(ft_usyms_path(&u, fr[2]));
	assert_null(ft_usyms_build_id(&u, fr[2]));
	ip[2] = FT_UNWIND_MARK | FT_UNWIND_NOCFI;
	assert_int_equal(ft_usyms_frames(&u, getpid(), ip, 3, fr), 3);
	assert_string_equal(ft_usyms_name(&u, getpid(), fr[2]), "[unwind stopped: no CFI]");
	/* a return address in no mapping ends the frames: the marker follows the cut */
	ip[1] = 16;
	assert_int_equal(ft_usyms_frames(&u, getpid(), ip, 3, fr), 2);
	assert_string_equal(ft_usyms_name(&u, getpid(), fr[1]), "[unwind stopped: no CFI]");
	/* not last: an address in no mapping, where the frames end */
	ip[1] = FT_UNWIND_MARK | FT_UNWIND_STACK;
	ip[2] = (uint64_t)(uintptr_t)nanosleep + 1;
	assert_int_equal(ft_usyms_frames(&u, getpid(), ip, 3, fr), 1);
	ft_usyms_fini(&u);
}

/* main - run the stack tests */
int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stack_records),
		cmocka_unit_test(test_intern),
		cmocka_unit_test(test_ksyms),
		cmocka_unit_test(test_usyms),
		cmocka_unit_test(test_usyms_marker),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
