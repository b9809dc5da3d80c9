// SPDX-License-Identifier: GPL-2.0
/*
 * tracer/sample_side.c: a round's mapping records put in time order, by the time in
 * their sample_id trailer, ties in the order they came.
 */
#include <linux/perf_event.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tracer/sample_side.h"

/* A record: header, its payload (an id, a name), then the trailer (tid, time, cpu, the
   event's identifier). */
struct rec {
	struct perf_event_header h;
	uint32_t	id;
	char		name[4];
	uint32_t	pid, tid;
	uint64_t	time;
	uint32_t	cpu, res;
	uint64_t	identifier;
};

/* add - one record of @id stamped @time into @q */
static void add(struct ft_side_queue *q, uint32_t id, uint64_t time)
{
	struct rec r = { .h = { .type = PERF_RECORD_MMAP2, .size = sizeof(r) }, .id = id,
			 .name = "abc", .time = time };

	assert_int_equal(ft_sideq_add(q, &r.h), 0);
}

/* id_of - the id of the queue's @i-th record */
static uint32_t id_of(const struct ft_side_queue *q, size_t i)
{
	const struct rec *r = (const struct rec *)ft_sideq_get(q, i);

	assert_int_equal(r->h.size, sizeof(*r));
	assert_string_equal(r->name, "abc");
	return r->id;
}

/* test_side_order - two CPUs' records, each in order, merged by time; ties kept */
static void test_side_order(void **state)
{
	/* CPU 0's ring first: an mmap at 30 and 50; then CPU 1's: the exec at 20, 50 */
	const uint64_t t[] = { 30, 50, 20, 50, 40 };
	const uint32_t want[] = { 2, 0, 4, 1, 3 };
	struct ft_side_queue q = { 0 };
	size_t i;

	for (i = 0; i < 5; i++)
		add(&q, (uint32_t)i, t[i]);
	ft_sideq_sort(&q);
	assert_int_equal(q.n, 5);
	for (i = 0; i < 5; i++)
		assert_int_equal(id_of(&q, i), want[i]);
	ft_sideq_reset(&q);
	assert_int_equal(q.n, 0);
	add(&q, 9, 1);
	ft_sideq_sort(&q);
	assert_int_equal(id_of(&q, 0), 9);
	ft_sideq_free(&q);
	ft_sideq_free(&q);	/* idempotent */
}

/* test_side_many - many records: the copies move as the buffer grows, the order holds */
static void test_side_many(void **state)
{
	struct ft_side_queue q = { 0 };
	size_t i;

	for (i = 0; i < 5000; i++)
		add(&q, (uint32_t)i, 5000 - i / 2);	/* pairs of equal times, descending */
	ft_sideq_sort(&q);
	for (i = 0; i < 5000; i++)
		assert_int_equal(id_of(&q, i), (uint32_t)(4998 - (i & ~(size_t)1) + (i & 1)));
	ft_sideq_free(&q);
}

/* test_side_short - a record too short for a trailer sorts first, as it came */
static void test_side_short(void **state)
{
	struct perf_event_header h = { .type = PERF_RECORD_COMM, .size = sizeof(h) };
	struct ft_side_queue q = { 0 };

	add(&q, 1, 10);
	assert_int_equal(ft_sideq_add(&q, &h), 0);
	ft_sideq_sort(&q);
	assert_int_equal(ft_sideq_get(&q, 0)->type, PERF_RECORD_COMM);
	assert_int_equal(id_of(&q, 1), 1);
	ft_sideq_free(&q);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_side_order),
		cmocka_unit_test(test_side_many),
		cmocka_unit_test(test_side_short),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
