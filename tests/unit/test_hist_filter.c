// SPDX-License-Identifier: GPL-2.0
/*
 * hist --filter (analyzers/hist_filter.c): expressions over two fields, a number n
 * (signed, or 64-bit unsigned) and a string s, evaluated on values whose answer is
 * known by hand; precedence (&& over ||), !, parentheses, globs; one error line per
 * bad expression, naming the problem and where it is.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "analyzers/hist_filter.h"

static bool n_unsigned;

/* slot - n is slot 0 (a number), s slot 1 (a string) */
static int slot(void *ctx, const char *name, bool *is_str, bool *is_unsigned)
{
	*is_unsigned = false;
	if (!strcmp(name, "n")) {
		*is_str = false;
		*is_unsigned = n_unsigned;
		return 0;
	}
	if (!strcmp(name, "s")) {
		*is_str = true;
		return 1;
	}
	return -1;
}

/* eval - @expr on n = @n, s = @s; -1 when it does not parse or bind */
static int eval(const char *expr, long long n, const char *s)
{
	struct hist_filter f;
	struct hf_val v[2] = { { .num = n }, { .s = s, .len = (int)strlen(s) } };
	char err[256];
	int r = -1;

	if (!hf_parse(&f, expr, err, sizeof(err)) && !hf_bind(&f, slot, NULL, err, sizeof(err)))
		r = hf_eval(&f, v);
	hf_free(&f);
	return r;
}

/* error - the error line of @expr ("" when it is good) */
static const char *error(const char *expr)
{
	static char err[256];
	struct hist_filter f;

	err[0] = 0;
	if (!hf_parse(&f, expr, err, sizeof(err)))
		hf_bind(&f, slot, NULL, err, sizeof(err));
	hf_free(&f);
	return err;
}

/* test_numbers - each operator on both sides of its boundary */
static void test_numbers(void **state)
{
	assert_int_equal(eval("n == 5", 5, ""), 1);
	assert_int_equal(eval("n == 5", 6, ""), 0);
	assert_int_equal(eval("n != 5", 5, ""), 0);
	assert_int_equal(eval("n < 5", 4, ""), 1);
	assert_int_equal(eval("n < 5", 5, ""), 0);
	assert_int_equal(eval("n <= 5", 5, ""), 1);
	assert_int_equal(eval("n <= 5", 6, ""), 0);
	assert_int_equal(eval("n > 5", 5, ""), 0);
	assert_int_equal(eval("n > 5", 6, ""), 1);
	assert_int_equal(eval("n >= 5", 4, ""), 0);
	assert_int_equal(eval("n >= 5", 5, ""), 1);
	assert_int_equal(eval("n == 0x10", 16, ""), 1);
	assert_int_equal(eval("n < -3", -4, ""), 1);
	assert_int_equal(eval("n>=5&&n<=6", 6, ""), 1);
	/* a 64-bit unsigned field: ~0 is the largest value, not -1 */
	n_unsigned = true;
	assert_int_equal(eval("n > 5", -1, ""), 1);
	assert_int_equal(eval("n == 18446744073709551615", -1, ""), 1);
	n_unsigned = false;
	assert_int_equal(eval("n > 5", -1, ""), 0);
}

/* test_strings - equality, globs, quotes */
static void test_strings(void **state)
{
	assert_int_equal(eval("s == dd", 0, "dd"), 1);
	assert_int_equal(eval("s == dd", 0, "ddx"), 0);
	assert_int_equal(eval("s != dd", 0, "ddx"), 1);
	assert_int_equal(eval("s == 'kworker/*'", 0, "kworker/1:0"), 1);
	assert_int_equal(eval("s == \"a b\"", 0, "a b"), 1);
	assert_int_equal(eval("s == *sh", 0, "bash"), 1);
	assert_int_equal(eval("s == b?sh", 0, "bash"), 1);
	assert_int_equal(eval("s == [bz]sh", 0, "zsh"), 1);
	assert_int_equal(eval("s != ba*", 0, "bash"), 0);
	assert_int_equal(eval("s ~ bash", 0, "bash"), 1);
}

/* test_logic - && binds tighter than ||; ! and parentheses */
static void test_logic(void **state)
{
	/* true || (false && false) */
	assert_int_equal(eval("n == 1 || n == 2 && s == x", 1, "y"), 1);
	/* (true || false) && false */
	assert_int_equal(eval("(n == 1 || n == 2) && s == x", 1, "y"), 0);
	assert_int_equal(eval("!(n == 1)", 1, ""), 0);
	assert_int_equal(eval("!n == 1", 2, ""), 1);
	assert_int_equal(eval("!!(n == 1)", 1, ""), 1);
	assert_int_equal(eval("n == 1 && s == a || n == 2 && s == b", 2, "b"), 1);
	assert_int_equal(eval("n == 1 && s == a || n == 2 && s == b", 2, "a"), 0);
}

/* test_errors - one line naming the problem */
static void test_errors(void **state)
{
	assert_string_equal(error("n = 1"), "expected == != < <= > >= or ~ at '= 1'");
	assert_string_equal(error("n == "), "expected a value at the end");
	assert_string_equal(error("(n == 1"), "expected ')' at the end");
	assert_string_equal(error("n == 1 s == 2"), "expected && or || at 's == 2'");
	assert_string_equal(error("s == 'x"), "unterminated string at the end");
	assert_string_equal(error("1 == n"), "expected a field name at '1 == n'");
	assert_string_equal(error("zz == 1"), "no field 'zz'");
	assert_string_equal(error("s < a"), "'s < a': s is a string: compare it with == or !=");
	assert_string_equal(error("n == abc"), "'n == abc': n is a number, and 'abc' is not");
	assert_string_equal(error("n ~ 1"), "'n ~ 1': ~ matches strings, and n is a number");
	assert_string_equal(error("n == 1 &&"), "expected a field name at the end");
	assert_string_equal(error("(((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((("
				  "((((n == 1"), "nested too deep at '((((n == 1'");
	assert_string_equal(error("n == 1"), "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_strings),
		cmocka_unit_test(test_logic),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
