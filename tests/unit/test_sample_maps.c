// SPDX-License-Identifier: GPL-2.0
/*
 * The sampled processes' mappings (tracer/sample_maps.c) as the unwinder and the
 * symbol reader ask for them: each mapping with its own file offset (a binary whose
 * segments lld lays out apart has several bases); a mapping replacing those it
 * overlaps (dlclose, then another library at the same place), a sample read against
 * the mappings of its own time even when its round's records came first; a file
 * named by device and inode held open, so that one renamed over it is not read; the
 * PROCMAPS text of a moment, read back by ft_procmaps_each and ft_usyms_add_maps.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "events/syms.h"
#include "tracer/sample_maps.h"

#define PID	4194301		/* made by an exec record: nothing is read from /proc */

/* rec - a MMAP2 record of PID at @ts */
static void rec(struct ft_smaps *m, uint64_t ts, uint64_t addr, uint64_t len, uint64_t pgoff,
		const char *path)
{
	struct ft_smaps_rec r = { .ts = ts, .addr = addr, .len = len, .pgoff = pgoff,
				  .path = path };

	ft_smaps_mmap(m, PID, &r);
}

/* at - the mapping at @addr at @ts: its path ("-" none) and its file offset of @addr */
static const char *at(struct ft_smaps *m, uint64_t addr, uint64_t ts, uint64_t *off)
{
	struct ft_smaps_hit h;

	if (ft_smaps_find(m, PID, addr, ts, &h))
		return "-";
	*off = addr - h.start + h.pgoff;
	assert_true(addr >= h.start && addr < h.end);
	return h.path ? h.path : "";
}

/* lld's layout: the text at another base than the first segment; each keeps its offset */
static void test_maps_bases(void **state)
{
	struct ft_smaps m;
	uint64_t off = 0;

	assert_int_equal(ft_smaps_init(&m), 0);
	ft_smaps_exec(&m, PID, "wl", 0);
	/* r-x at 0x1000 past the headers' page, file offset 0 (PT_LOAD off 0x5f0 vaddr
	   0x15f0); a second r-x at offset 0x1000 two pages on */
	rec(&m, 10, 0x555555555000, 0x1000, 0, "/w/lldprog");
	rec(&m, 11, 0x555555557000, 0x1000, 0x1000, "/w/lldprog");
	assert_string_equal(at(&m, 0x5555555555f0, 20, &off), "/w/lldprog");
	assert_int_equal(off, 0x5f0);
	assert_string_equal(at(&m, 0x555555557010, 20, &off), "/w/lldprog");
	assert_int_equal(off, 0x1010);
	assert_string_equal(at(&m, 0x555555556010, 20, &off), "-");
	ft_smaps_fini(&m);
}

/* dlclose then dlopen at the same place: the new library from its record on, the old
   one before it, whichever record the round walks first */
static void test_maps_replaced(void **state)
{
	struct ft_smaps m;
	uint64_t off = 0;
	int order;

	for (order = 0; order < 2; order++) {
		assert_int_equal(ft_smaps_init(&m), 0);
		ft_smaps_exec(&m, PID, "wl", 0);
		if (order == 0) {
			rec(&m, 100, 0x7f0000001000, 0x3000, 0x1000, "/w/liba.so");
			rec(&m, 200, 0x7f0000002000, 0x3000, 0x2000, "/w/libb.so");
		} else {	/* B's record from another CPU's ring, walked first */
			rec(&m, 200, 0x7f0000002000, 0x3000, 0x2000, "/w/libb.so");
			rec(&m, 100, 0x7f0000001000, 0x3000, 0x1000, "/w/liba.so");
		}
		assert_string_equal(at(&m, 0x7f0000002800, 150, &off), "/w/liba.so");
		assert_int_equal(off, 0x2800);
		assert_string_equal(at(&m, 0x7f0000002800, 250, &off), "/w/libb.so");
		assert_int_equal(off, 0x2800);
		/* what B did not cover of A stays A's only when A's record came first */
		assert_string_equal(at(&m, 0x7f0000001800, 250, &off),
				    order == 0 ? "/w/liba.so" : "-");
		assert_string_equal(at(&m, 0x7f0000000800, 250, &off), "-");
		/* anonymous code (a JIT) over part of B: no file there, B beside it */
		rec(&m, 300, 0x7f0000003000, 0x1000, 0, "//anon");
		assert_string_equal(at(&m, 0x7f0000003800, 350, &off), "-");
		assert_string_equal(at(&m, 0x7f0000003800, 250, &off), "/w/libb.so");
		assert_string_equal(at(&m, 0x7f0000004800, 350, &off), "/w/libb.so");
		assert_int_equal(off, 0x4800);
		ft_smaps_fini(&m);
	}
}

/* 100 libraries one after the other at one place: the 64 replaced last kept, by time */
static void test_maps_many(void **state)
{
	char path[32];
	struct ft_smaps m;
	uint64_t off = 0;
	int i;

	assert_int_equal(ft_smaps_init(&m), 0);
	ft_smaps_exec(&m, PID, "wl", 0);
	for (i = 0; i < 100; i++) {
		snprintf(path, sizeof(path), "/w/lib%d.so", i);
		rec(&m, 100 + 10 * i, 0x7f0000001000, 0x1000, 0, path);
	}
	assert_string_equal(at(&m, 0x7f0000001800, 2000, &off), "/w/lib99.so");
	assert_string_equal(at(&m, 0x7f0000001800, 1095, &off), "/w/lib99.so");
	assert_string_equal(at(&m, 0x7f0000001800, 1085, &off), "/w/lib98.so");
	assert_string_equal(at(&m, 0x7f0000001800, 455, &off), "/w/lib35.so");
	assert_string_equal(at(&m, 0x7f0000001800, 445, &off), "-");	/* let go */
	ft_smaps_fini(&m);
}

/* pm_got - ft_procmaps_each callback: "START END PGOFF PATH;" appended */
static void pm_got(void *ctx, int pid, const struct ft_procmap *m)
{
	char *out = ctx;

	snprintf(out + strlen(out), 512 - strlen(out), "%llx %llx %llx %s;",
		 (unsigned long long)m->start, (unsigned long long)m->end,
		 (unsigned long long)m->pgoff, m->path);
}

/* the PROCMAPS text of each moment, and the mappings read back from it */
static void test_maps_text(void **state)
{
	char got[512] = "";
	struct ft_smaps m;
	const char *t;
	size_t len;

	assert_int_equal(ft_smaps_init(&m), 0);
	ft_smaps_exec(&m, PID, "wl", 0);
	rec(&m, 10, 0x555555555000, 0x1000, 0, "/w/lldprog");
	rec(&m, 11, 0x555555557000, 0x1000, 0x1000, "/w/lldprog");
	rec(&m, 100, 0x7f0000001000, 0x3000, 0x1000, "/w/liba.so");
	rec(&m, 200, 0x7f0000001000, 0x3000, 0x1000, "/w/libb.so");
	t = ft_smaps_changed(&m, PID, 150, &len);
	assert_non_null(t);
	assert_string_equal(t, "3ffffd 3 wl\n555555555000 555555556000 /w/lldprog\n"
			       "555555556000 555555558000 /w/lldprog\n"
			       "7f0000000000 7f0000004000 /w/liba.so\n");
	assert_null(ft_smaps_changed(&m, PID, 160, &len));	/* the same set */
	t = ft_smaps_changed(&m, PID, 250, &len);
	assert_non_null(t);
	assert_non_null(strstr(t, "7f0000000000 7f0000004000 /w/libb.so\n"));
	assert_null(strstr(t, "liba"));
	/* read back: each line from where the one before ended, its offset kept */
	assert_int_equal(ft_procmaps_each(t, len, NULL, pm_got, got), PID);
	assert_string_equal(got, "555555555000 555555556000 0 /w/lldprog;"
				 "555555556000 555555558000 0 /w/lldprog;"
				 "7f0000000000 7f0000004000 0 /w/libb.so;");
	ft_smaps_fini(&m);
}

/* a file named by device and inode: held open, a file renamed over it not read */
static void test_maps_identity(void **state)
{
	char dir[] = "/tmp/ft-smaps-XXXXXX", path[64], newer[64];
	struct ft_smaps_rec r = { .ts = 10, .addr = 0x400000, .len = 0x1000 };
	struct ft_smaps_hit h;
	struct ft_smaps m;
	struct stat a, b;
	FILE *f;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/prog", dir);
	snprintf(newer, sizeof(newer), "%s/prog.new", dir);
	f = fopen(path, "w");
	fputs("old", f);
	fclose(f);
	f = fopen(newer, "w");
	fputs("new", f);
	fclose(f);
	assert_int_equal(stat(path, &a), 0);
	r.dev = a.st_dev;
	r.ino = a.st_ino;
	r.path = path;
	/* first asked before the rebuild: the old file, held open */
	assert_int_equal(ft_smaps_init(&m), 0);
	ft_smaps_exec(&m, PID, "wl", 0);
	ft_smaps_mmap(&m, PID, &r);
	assert_int_equal(ft_smaps_find(&m, PID, 0x400010, 20, &h), 0);
	assert_non_null(h.path);
	assert_int_equal(rename(newer, path), 0);
	assert_int_equal(ft_smaps_find(&m, PID, 0x400010, 30, &h), 0);
	assert_int_equal(stat(h.path, &b), 0);
	assert_true(b.st_dev == a.st_dev && b.st_ino == a.st_ino);
	ft_smaps_fini(&m);
	/* first asked after it, the process gone: no file to read (never the new one) */
	assert_int_equal(ft_smaps_init(&m), 0);
	ft_smaps_exec(&m, PID, "wl", 0);
	ft_smaps_mmap(&m, PID, &r);
	assert_int_equal(ft_smaps_find(&m, PID, 0x400010, 20, &h), 0);
	assert_null(h.path);
	ft_smaps_fini(&m);
	unlink(path);
	rmdir(dir);
}

/* write_file - @len bytes of @byte into @path */
static void write_file(const char *path, int byte, size_t len)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	while (len--)
		fputc(byte, f);
	fclose(f);
}

/*
 * mappings read from /proc (a process already running, as -p finds it): each file by
 * device and inode (ft_proc_maps_text), held open when first asked; a file renamed over
 * since is still read as the process maps it (/proc/PID/map_files), though its text's
 * range merges two mappings of it (a page r--, a page r-x). Seen failing with the
 * device and inode left out of the text (the new file's path returned).
 */
static void test_maps_proc_identity(void **state)
{
	char dir[] = "/tmp/ft-smaps-XXXXXX", path[64], newer[64];
	struct ft_smaps_hit h;
	struct ft_smaps m;
	struct stat a, b;
	char *code;
	int fd;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/lib.so", dir);
	snprintf(newer, sizeof(newer), "%s/lib.so.new", dir);
	write_file(path, 0xc3, 8192);
	write_file(newer, 0x90, 8192);
	assert_int_equal(stat(path, &a), 0);
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	code = mmap(NULL, 8192, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	assert_true(code != MAP_FAILED);
	assert_int_equal(mprotect(code + 4096, 4096, PROT_READ | PROT_EXEC), 0);
	assert_int_equal(rename(newer, path), 0);
	assert_int_equal(ft_smaps_init(&m), 0);
	assert_int_equal(ft_smaps_find(&m, getpid(), (uintptr_t)code + 4096 + 16, 0, &h), 0);
	assert_int_equal(h.start, (uintptr_t)code);
	assert_int_equal(h.end, (uintptr_t)code + 8192);
	/* map_files wants CAP_SYS_ADMIN (or CAP_CHECKPOINT_RESTORE): else no file, never
	   the new one */
	if (!geteuid())
		assert_non_null(h.path);
	if (h.path) {
		assert_int_equal(stat(h.path, &b), 0);
		assert_true(b.st_dev == a.st_dev && b.st_ino == a.st_ino);
	}
	ft_smaps_fini(&m);
	munmap(code, 8192);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_maps_bases),
		cmocka_unit_test(test_maps_replaced),
		cmocka_unit_test(test_maps_many),
		cmocka_unit_test(test_maps_text),
		cmocka_unit_test(test_maps_identity),
		cmocka_unit_test(test_maps_proc_identity),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
