// SPDX-License-Identifier: GPL-2.0
/*
 * The trace.dat writer on a file that cannot take it all (a full disk): each step
 * that fails, the metadata's write (at once or after a short write) and the copy
 * of a CPU's pages after it, is -1 with the file system's errno, never 0; and a
 * file with room is written whole.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "events/tdat.h"

#define PAGE	4096

/* meta - the smallest metadata: one CPU, pages of PAGE bytes, no formats */
static struct ft_tdat_meta meta(void)
{
	struct ft_tdat_meta m = { .page_size = PAGE, .long_size = 8, .ncpus = 1 };

	m.header_page = (struct ft_blob){ "header_page text", 16 };
	m.header_event = (struct ft_blob){ "header_event text", 17 };
	return m;
}

/* cpu_file - a memory file of @size bytes: one CPU's pages */
static int cpu_file(uint64_t size)
{
	int fd = memfd_create("cpu0", MFD_CLOEXEC);

	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, size), 0);
	return fd;
}

/* write_limited - ft_tdat_write of one page of data to a new file that may grow to @limit bytes */
static int write_limited(rlim_t limit, int *err, off_t *size)
{
	struct ft_tdat_meta m = meta();
	struct rlimit old, lim = { limit, RLIM_INFINITY };
	uint64_t bytes = PAGE;
	int in = cpu_file(bytes), out = memfd_create("out", MFD_CLOEXEC), ret;
	struct stat st;

	assert_true(out >= 0);
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	lim.rlim_max = old.rlim_max;
	signal(SIGXFSZ, SIG_IGN);	/* past the limit: EFBIG, as ENOSPC on a full disk */
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	errno = 0;
	ret = ft_tdat_write(out, &m, &in, &bytes);
	*err = errno;
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	assert_int_equal(fstat(out, &st), 0);
	*size = st.st_size;
	close(in);
	close(out);
	return ret;
}

/* test_full - /dev/full takes nothing: -1 with ENOSPC */
static void test_full(void **state)
{
	struct ft_tdat_meta m = meta();
	uint64_t bytes = PAGE;
	int in = cpu_file(bytes), out = open("/dev/full", O_WRONLY | O_CLOEXEC);

	if (out < 0)
		skip();
	assert_int_equal(ft_tdat_write(out, &m, &in, &bytes), -1);
	assert_int_equal(errno, ENOSPC);
	close(out);
	close(in);
}

/* test_short_metadata - room for part of the metadata: a short write, then -1 */
static void test_short_metadata(void **state)
{
	off_t size;
	int err;

	assert_int_equal(write_limited(100, &err, &size), -1);
	assert_int_equal(err, EFBIG);
	assert_int_equal(size, 100);
}

/* test_copy_fails - the metadata fits and the pages do not: the last step's error */
static void test_copy_fails(void **state)
{
	off_t size;
	int err;

	assert_int_equal(write_limited(PAGE + PAGE / 2, &err, &size), -1);
	assert_int_equal(err, EFBIG);
	assert_true(size >= PAGE && size < 2 * PAGE);
}

/* test_room - with room for all: 0, the metadata's page and the data's */
static void test_room(void **state)
{
	off_t size;
	int err;

	assert_int_equal(write_limited(2 * PAGE, &err, &size), 0);
	assert_int_equal(size, 2 * PAGE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full),
		cmocka_unit_test(test_short_metadata),
		cmocka_unit_test(test_copy_fails),
		cmocka_unit_test(test_room),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
