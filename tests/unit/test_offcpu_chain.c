// SPDX-License-Identifier: GPL-2.0
/*
 * offcpu --chain on hand-built records with times known to the ms: a victim's wait
 * split over its waker's doings (running, each piece under the stack of its samples
 * there; blocked, then its own waker's doings), its own run-queue wait, a wakeup from
 * an interrupt, a waker never seen, and --chain-depth; each piece exact, the pieces of
 * a period adding up to it.
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

#include "analyzers/analyzer.h"
#include "events/tasks.h"
#include "harness.h"
#include "sched_events.h"

#define MS	1000000ULL
/* The scene's time 0 (a period starting at 0 would read as none). */
#define T0	(1000 * MS)

/* The kernel's functions, 4 KB each. */
static const char kallsyms[] =
	"ffffffff81000000 T k_pipe_read\nffffffff81001000 T k_pipe_wait\n"
	"ffffffff81002000 T k_nanosleep\nffffffff81003000 T k_end\n";
#define K_READ	0xffffffff81000010ULL
#define K_WAIT	0xffffffff81001010ULL
#define K_SLEEP	0xffffffff81002010ULL

/* spin_a, spin_b, worker_main - named code of this binary for the samples' user frames */
__attribute__((noinline, used)) int spin_a(int x) { return x * 7 + 3; }
__attribute__((noinline, used)) int spin_b(int x) { return spin_a(x) * 5 + 1; }
__attribute__((noinline, used)) int worker_main(int x) { return spin_b(x) * 3 + 2; }
#define U(f)	((uint64_t)(uintptr_t)(f) + 4)

/* The threads: A the victim, B its waker, C B's waker, D woken by an interrupt. */
enum { A = 100, B = 200, C = 300, D = 400, E = 500, F = 600 };

static char ksyms[64];

/* comm_of - each thread's name, as its records give it */
static const char *comm_of(int tid)
{
	static const char names[][FT_TASK_COMM_LEN] = { "swapper", "victim", "worker",
							"source", "timed", "orphan" };

	return names[tid / 100 < 6 ? tid / 100 : 0];
}

/* start - offcpu --chain -f (and --chain-depth @depth when not NULL), live */
static void start(struct ut_run *r, const char *depth)
{
	const struct ft_analyzer *a = ft_analyzer_find("offcpu");
	const struct option *o;
	int fd;

	assert_non_null(a);
	ut_start(r, a);
	strcpy(ksyms, "/tmp/ftscope-chain-ksyms-XXXXXX");
	fd = mkstemp(ksyms);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, kallsyms, strlen(kallsyms)), (ssize_t)strlen(kallsyms));
	close(fd);
	r->env.live = true;
	r->env.kallsyms = ksyms;
	for (o = a->cli.longopts; o->name; o++)
		if (!strcmp(o->name, depth ? "chain-depth" : "chain"))
			ut_opt(r, o->val, depth);
	ut_opt(r, 'f', NULL);
	ut_check(r);
	assert_non_null(r->a->sampling(r->priv));
	ut_init(r);
}

/* sw - a switch on @cpu at @ms, named as the threads are, and @prev's kernel stack */
static void sw(struct ut_run *r, uint64_t ms, int cpu, int prev, int next, char state,
	       const uint64_t *kst)
{
	struct ft_event e = ev_switch(T0 + ms * MS, cpu, prev, next, state);

	e.sw.prev_comm = comm_of(prev);
	e.sw.next_comm = comm_of(next);
	ut_event(r, &e);
	if (!kst)
		return;
	e = (struct ft_event){ .ts = T0 + ms * MS, .cpu = cpu, .type = FT_EV_KSTACK };
	e.stack.n = 1;
	e.stack.word = 8;
	e.stack.ip = (const unsigned char *)kst;
	ut_event(r, &e);
}

/* wake - @by wakes @pid at @ms on @cpu, from an interrupt when @ctx */
static void wake(struct ut_run *r, uint64_t ms, int cpu, int by, int pid, unsigned char ctx)
{
	struct ft_event e = ev_wake_as(FT_EV_WAKING, T0 + ms * MS, cpu, by, pid);

	e.wk.ctx = ctx;
	ut_event(r, &e);
}

/* sample - an on-CPU sample of @tid at @ms: user frames @leaf called by worker_main */
static void sample(struct ut_run *r, uint64_t ms, int tid, uint64_t leaf)
{
	uint64_t ip[2] = { leaf, U(worker_main) };
	struct ft_sample s = { .ts = T0 + ms * MS, .pid = getpid(), .tid = tid, .cpu = 1,
			       .nu = 2, .ip = ip };

	r->a->sample(r->priv, &s);
}

/*
 * The scene, on CPU 0 (victim, timed) and CPU 1 (worker, source):
 *   0  victim blocks reading (k_pipe_read); worker runs (samples: spin_a at 5)
 *  10  worker blocks (k_pipe_wait); source runs (a sample: spin_b at 20)
 *  30  source wakes worker and blocks; worker runs (samples: spin_b at 35, spin_a at 40)
 *  45  worker wakes victim, which runs at 50
 * and "timed" blocks at 0 in k_nanosleep, woken by a hard interrupt at 20, runs at 22;
 * "orphan" (E) blocks at 0, woken by F at 8 (never seen switching), runs at 9.
 */
static void scene(struct ut_run *r)
{
	static const uint64_t k_read = K_READ, k_wait = K_WAIT, k_sleep = K_SLEEP;

	sw(r, 0, 1, 0, B, 'R', NULL);
	sw(r, 0, 0, A, D, 'S', &k_read);
	sw(r, 0, 0, D, E, 'S', &k_sleep);
	sw(r, 0, 0, E, 0, 'S', &k_read);
	sample(r, 5, B, U(spin_a));
	wake(r, 8, 0, F, E, 0);
	sw(r, 9, 0, 0, E, 'R', NULL);
	sw(r, 9, 0, E, 0, 'R', NULL);
	sw(r, 10, 1, B, C, 'S', &k_wait);
	sample(r, 20, C, U(spin_b));
	wake(r, 20, 0, 0, D, FT_CTX_HARDIRQ);
	sw(r, 22, 0, 0, D, 'R', NULL);
	sw(r, 22, 0, D, 0, 'R', NULL);
	wake(r, 30, 1, C, B, 0);
	sw(r, 30, 1, C, B, 'S', &k_sleep);
	sample(r, 35, B, U(spin_b));
	sample(r, 40, B, U(spin_a));
	wake(r, 45, 1, B, A, 0);
	sw(r, 50, 0, 0, A, 'R', NULL);
}

/* finish - the final report's folded lines into @out, then everything freed */
static void finish(struct ut_run *r, char *out, size_t len)
{
	snprintf(out, len, "%s", ut_report(r, false));
	ut_finish(r);
	unlink(ksyms);
}

/*
 * Three wakers deep (the default): victim's 50 ms are the worker's running 0-10 and
 * 30-45 under its samples' stacks (one sample in the first: 10 ms to spin_a; two in
 * the second: 7.5 ms each), its block 10-30 given to the source's running then
 * (20 ms, spin_b), and its own 5 ms runnable; timed's 20 ms to the interrupt, 2 ms
 * runnable; orphan's 8 ms to a waker with no record ("?": never named), 1 ms
 * runnable; the worker's own block to the source's running. Seen failing with
 * the worker's block given to the worker, and with the samples' split left out.
 */
static void test_chain_three_deep(void **state)
{
	char out[4096];
	struct ut_run r;

	(void)state;
	start(&r, NULL);
	scene(&r);
	finish(&r, out, sizeof(out));
	assert_string_equal(out,
		"orphan;k_pipe_read;--;[runnable] 1000\n"
		"timed;k_nanosleep;--;[runnable] 2000\n"
		"victim;k_pipe_read;--;[runnable] 5000\n"
		"victim;k_pipe_read;--;worker;worker_main;spin_b 7500\n"
		"orphan;k_pipe_read;--;?;[unknown: no record] 8000\n"
		"victim;k_pipe_read;--;worker;worker_main;spin_a 17500\n"
		"timed;k_nanosleep;--;[hardirq] 20000\n"
		"worker;k_pipe_wait;--;source;worker_main;spin_b 20000\n"
		"victim;k_pipe_read;--;worker;k_pipe_wait;--;source;worker_main;spin_b 20000\n");
}

/* --chain-depth 1: the victim's chain ends at the worker's blocked stack (20 ms) */
static void test_chain_depth_one(void **state)
{
	char out[4096];
	struct ut_run r;

	(void)state;
	start(&r, "1");
	scene(&r);
	finish(&r, out, sizeof(out));
	assert_non_null(strstr(out, "\nvictim;k_pipe_read;--;worker;k_pipe_wait 20000\n"));
	assert_null(strstr(out, "--;worker;k_pipe_wait;--"));
	assert_non_null(strstr(out, "\nvictim;k_pipe_read;--;worker;worker_main;spin_a 17500\n"));
}

/*
 * Counts: each key counts the periods it has a piece of, once each: the worker's
 * spin_a has two pieces (10 and 7.5 ms) of the victim's one period. Seen failing with
 * each piece counted.
 */
static void test_chain_counts(void **state)
{
	const char *out, *row;
	struct ut_run r;

	(void)state;
	start(&r, NULL);
	scene(&r);
	out = ut_report(&r, true);
	row = strstr(out, "\"spin_a\"");
	assert_non_null(row);
	assert_non_null(strstr(out, "\"us\":17500,\"count\":1"));
	ut_finish(&r);
	unlink(ksyms);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_chain_three_deep),
		cmocka_unit_test(test_chain_depth_one),
		cmocka_unit_test(test_chain_counts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
