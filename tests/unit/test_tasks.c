// SPDX-License-Identifier: GPL-2.0
/*
 * The task table (events/tasks.c): a process's name is its main thread's (tid ==
 * tgid) when any source names it, else that of its lowest thread looked up, whatever
 * the order of the lookups.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "events/tasks.h"

static const char tgids[] = "10 10\n11 10\n12 10\n";

/* table - an offline table: threads 11 and 12 of process 10, named; 10 not named */
static void table(struct ft_tasks *t, const char *saved)
{
	assert_int_equal(ft_tasks_init(t, false), 0);
	assert_int_equal(ft_tasks_tgids(t, tgids, sizeof(tgids) - 1), 0);
	if (saved)
		assert_int_equal(ft_tasks_saved(t, saved, strlen(saved)), 0);
	assert_non_null(ft_tasks_note(t, 11, "worker-a"));
	assert_non_null(ft_tasks_note(t, 12, "worker-b"));
}

/* process 10's name after looking up @first then @second */
static void lookups(int first, int second, const char *saved, const char *want)
{
	struct ft_tasks t;

	table(&t, saved);
	assert_int_equal(ft_tasks_tgid(&t, first), 10);
	assert_int_equal(ft_tasks_tgid(&t, second), 10);
	assert_string_equal(ft_tasks_comm(&t, 10), want);
	ft_tasks_fini(&t);
}

/* no source names the main thread: its lowest thread's name, in either order */
static void test_process_name_order(void **state)
{
	lookups(11, 12, NULL, "worker-a");
	lookups(12, 11, NULL, "worker-a");
}

/* a file's saved_cmdlines names the main thread: that, whichever thread came first */
static void test_process_name_saved(void **state)
{
	lookups(12, 11, "10 server\n12 worker-b\n", "server");
	lookups(11, 12, "10 server\n", "server");
}

/* the main thread's own name (a switch's comm) replaces a borrowed one, and stays */
static void test_process_name_own(void **state)
{
	char field[FT_TASK_COMM_LEN] = "worker-a";
	struct ft_tasks t;

	table(&t, NULL);
	assert_int_equal(ft_tasks_tgid(&t, 12), 10);
	assert_string_equal(ft_tasks_comm(&t, 10), "worker-b");
	/* the same bytes as the borrowed name, now the main thread's own */
	assert_non_null(ft_tasks_note_field(&t, 10, "worker-b\0\0\0\0\0\0\0"));
	assert_int_equal(ft_tasks_tgid(&t, 11), 10);
	assert_string_equal(ft_tasks_comm(&t, 10), "worker-b");
	assert_non_null(ft_tasks_note_field(&t, 10, field));
	assert_int_equal(ft_tasks_tgid(&t, 12), 10);
	assert_string_equal(ft_tasks_comm(&t, 10), "worker-a");
	ft_tasks_fini(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_process_name_order),
		cmocka_unit_test(test_process_name_saved),
		cmocka_unit_test(test_process_name_own),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
