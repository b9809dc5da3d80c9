// SPDX-License-Identifier: GPL-2.0
/*
 * tracer/sampler_second.c: a request's second event, told apart by its ids, and a
 * per-CPU second event's kernel filter on the traced tids (the ones named at the
 * start, then those FORK records bring, filtered by the next round's events).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tracer/sampler.h"
#include "tracer/sampler_second.h"

/* second - a sampler of 2 CPUs x @ntgt targets whose request has a per-CPU second */
static void second(struct ft_sampler *sp, int ntgt, const char *field)
{
	memset(sp, 0, sizeof(*sp));
	sp->ncpus = 2;
	sp->ntgt = ntgt;
	sp->req.second = &sp->req2;
	sp->req2.pid_field = field;
}

/* release - what the helpers allocated */
static void release(struct ft_sampler *sp)
{
	free(sp->fd2);
	free(sp->id2);
	free(sp->filter2);
	free(sp->ftid);
}

/* test_second_filter - the targets' tids filtered, one slot per (CPU, target), none open */
static void test_second_filter(void **state)
{
	const int pids[] = { 12, 345, 6789 };
	struct ft_sampler sp;
	int i;

	second(&sp, 3, "pid");
	assert_int_equal(ft_sampler_alloc_second(&sp, true, pids, 3), 0);
	assert_string_equal(sp.filter2, "pid == 12 || pid == 345 || pid == 6789");
	assert_int_equal(sp.nfd2, 6);
	for (i = 0; i < sp.nfd2; i++)
		assert_int_equal(sp.fd2[i], -1);
	assert_int_equal(sp.ftid_done, 3);
	/* a whole-system run (no targets): no filter, every waking */
	release(&sp);
	second(&sp, 1, "pid");
	assert_int_equal(ft_sampler_alloc_second(&sp, false, pids, 3), 0);
	assert_null(sp.filter2);
	release(&sp);
	/* a second event per target (profile's sched_switch): no filter either */
	second(&sp, 3, NULL);
	assert_int_equal(ft_sampler_alloc_second(&sp, true, pids, 3), 0);
	assert_null(sp.filter2);
	assert_int_equal(sp.nfd2, 6);
	release(&sp);
}

/* test_second_many - more tids than one filter takes: the rest wait for the next one */
static void test_second_many(void **state)
{
	int pids[600], i;
	struct ft_sampler sp;

	for (i = 0; i < 600; i++)
		pids[i] = 100000 + i;
	second(&sp, 600, "pid");
	assert_int_equal(ft_sampler_alloc_second(&sp, true, pids, 600), 0);
	/* the kernel takes a page (4096 with its NUL): the filter stops past 4000 bytes,
	   its last " || pid == 100NNN" (17 bytes) the only one after */
	assert_true(strlen(sp.filter2) >= 4000 && strlen(sp.filter2) < 4000 + 17);
	assert_true(sp.ftid_done > 100 && sp.ftid_done < 600);
	assert_non_null(strstr(sp.filter2, "pid == 100000 || pid == 100001"));
	assert_null(strstr(sp.filter2, "pid == 100599"));
	/* new tids are added behind those filtered already */
	assert_int_equal(ft_sampler_add_ftid(&sp, 7), 0);
	assert_int_equal(sp.nftid, 601);
	assert_int_equal(sp.ftid[600], 7);
	release(&sp);
}

/* test_second_ids - samples of the second event known by their ids, whatever order */
static void test_second_ids(void **state)
{
	uint64_t ids[] = { 907, 15, 300, 16 };
	struct ft_sampler sp;

	memset(&sp, 0, sizeof(sp));
	assert_false(ft_sampler_is_second(&sp, 15));	/* none: every sample is the first's */
	sp.id2 = ids;
	sp.nid2 = 4;
	ft_sampler_sort_ids(&sp);
	assert_true(ft_sampler_is_second(&sp, 15));
	assert_true(ft_sampler_is_second(&sp, 907));
	assert_true(ft_sampler_is_second(&sp, 300));
	assert_false(ft_sampler_is_second(&sp, 14));
	assert_false(ft_sampler_is_second(&sp, 301));
	assert_false(ft_sampler_is_second(&sp, 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_second_filter),
		cmocka_unit_test(test_second_many),
		cmocka_unit_test(test_second_ids),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
