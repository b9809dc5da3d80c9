// SPDX-License-Identifier: GPL-2.0
/*
 * CPU hotplug uevent parsing unit tests (tracer/hotplug.c's ft_uevent_cpu): the
 * kernel's offline and online messages of a CPU, and what is not one: a synthetic
 * uevent (SYNTH_UUID=, written to a uevent file), a devpath without a digit after
 * "cpu" or with more after the number, a CPU past the count, other devices, a
 * header without its NUL. As root, ft_hotplug_poll on the kernel's socket: a queue
 * that overflowed is reported (ENOBUFS), one that did not is not.
 */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>

#include "tracer/hotplug.h"
#include "tracer/session.h"

/* msg - a uevent of @n bytes: "HEADER\0KEY=VALUE\0..." as the kernel sends it */
#define msg(lit)	(lit), sizeof(lit) - 1

/* parse - ft_uevent_cpu of 16 CPUs; @cpu: what it says, -2 when it says none */
static int parse(const char *buf, size_t len, int *cpu)
{
	*cpu = -2;
	return ft_uevent_cpu(buf, len, 16, cpu);
}

/* test_kernel - the kernel's own messages of cpu5 and cpu15 */
static void test_kernel(void **state)
{
	int cpu;

	assert_int_equal(parse(msg("offline@/devices/system/cpu/cpu5\0ACTION=offline\0"
				   "DEVPATH=/devices/system/cpu/cpu5\0SUBSYSTEM=cpu\0SEQNUM=2811\0"),
			       &cpu), FT_UEVENT_OFFLINE);
	assert_int_equal(cpu, 5);
	assert_int_equal(parse(msg("online@/devices/system/cpu/cpu15\0ACTION=online\0"
				   "DEVPATH=/devices/system/cpu/cpu15\0SUBSYSTEM=cpu\0SEQNUM=2812\0"),
			       &cpu), FT_UEVENT_ONLINE);
	assert_int_equal(cpu, 15);
	/* the header alone, with its NUL */
	assert_int_equal(parse(msg("offline@/devices/system/cpu/cpu0\0"), &cpu), FT_UEVENT_OFFLINE);
	assert_int_equal(cpu, 0);
}

/* test_synthetic - `echo offline > .../cpu5/uevent`: SYNTH_UUID= anywhere in the env */
static void test_synthetic(void **state)
{
	int cpu;

	assert_int_equal(parse(msg("offline@/devices/system/cpu/cpu5\0ACTION=offline\0"
				   "DEVPATH=/devices/system/cpu/cpu5\0SUBSYSTEM=cpu\0"
				   "SYNTH_UUID=0\0SEQNUM=2813\0"), &cpu), FT_UEVENT_NONE);
	assert_int_equal(parse(msg("online@/devices/system/cpu/cpu5\0ACTION=online\0"
				   "SYNTH_UUID=1b4e28ba-2fa1-11d2-883f-0016d3cca427\0"), &cpu),
			 FT_UEVENT_NONE);
	/* a value that only contains the word is no synthetic mark */
	assert_int_equal(parse(msg("offline@/devices/system/cpu/cpu5\0X=SYNTH_UUID=0\0"), &cpu),
			 FT_UEVENT_OFFLINE);
}

/* test_devpath - a digit right after "cpu", nothing after the number, below the count */
static void test_devpath(void **state)
{
	static const struct { const char *s; size_t n; } bad[] = {
		{ msg("offline@/devices/system/cpu/cpu\0ACTION=offline\0") },
		{ msg("offline@/devices/system/cpu/cpu 5\0ACTION=offline\0") },
		{ msg("offline@/devices/system/cpu/cpu+5\0ACTION=offline\0") },
		{ msg("offline@/devices/system/cpu/cpu-1\0ACTION=offline\0") },
		{ msg("offline@/devices/system/cpu/cpu5x\0ACTION=offline\0") },
		{ msg("offline@/devices/system/cpu/cpu5/cache\0ACTION=offline\0") },
		{ msg("offline@/devices/system/cpu/cpu16\0ACTION=offline\0") },
		{ msg("offline@/devices/system/cpu/cpu99999999999999999999\0") },
		{ msg("offline@/devices/system/cpu/cpufreq\0ACTION=offline\0") },
		{ msg("offline@/devices/system/memory/memory5\0ACTION=offline\0") },
		{ msg("change@/devices/system/cpu/cpu5\0ACTION=change\0") },
		{ msg("libudev\0offline@/devices/system/cpu/cpu5\0") },
		{ msg("offline@/devices/system/cpu/cpu5") },	/* no NUL: cut short */
		{ msg("") },
	};
	unsigned int i;
	int cpu;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		print_message("%u: %s\n", i, bad[i].s);
		assert_int_equal(parse(bad[i].s, bad[i].n, &cpu), FT_UEVENT_NONE);
	}
}

/*
 * changes - @n "change" uevents of cpu0 (synthetic, no CPU going: none counts as one),
 * sent by the kernel to every listener as each write returns
 */
static void changes(int n)
{
	int fd = open("/sys/devices/system/cpu/cpu0/uevent", O_WRONLY);

	assert_true(fd >= 0);
	while (n-- > 0)
		assert_int_equal(write(fd, "change", 6), 6);
	close(fd);
}

/*
 * test_poll - the session's uevent socket (root): 2 uevents are read with nothing lost;
 * 200 into the smallest queue the kernel allows (about 2 KB, a uevent of cpu0 takes
 * some 700 B) overflow it, and the round says so
 */
static void test_poll(void **state)
{
	struct ft_session s = { .ncpus = 1 };
	int size = 0;

	if (geteuid())
		skip();
	ft_hotplug_open(&s);
	assert_true(s.uevent_fd > 0);
	changes(2);
	ft_hotplug_poll(&s);
	assert_false(s.uevents_lost);
	assert_int_equal(setsockopt(s.uevent_fd - 1, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size)), 0);
	changes(200);
	ft_hotplug_poll(&s);
	assert_true(s.uevents_lost);
	assert_int_equal(s.offline[0], 0);
	ft_hotplug_close(&s);
	assert_int_equal(s.uevent_fd, 0);
}

/* main - run the tests */
int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kernel),
		cmocka_unit_test(test_synthetic),
		cmocka_unit_test(test_devpath),
		cmocka_unit_test(test_poll),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
