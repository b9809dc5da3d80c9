// SPDX-License-Identifier: GPL-2.0
/*
 * Symbols a user can read (issue 35): an address no symbol covers as FILE+0xADDR
 * (its ELF address: e_entry as the ELF header states it), the vDSO's functions
 * (glibc's own dlsym of the vDSO as the oracle), and rows merged by what is printed;
 * pprof samples with the same locations and labels merged (libprotobuf-c decodes).
 */
#include <dlfcn.h>
#include <elf.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <cmocka.h>

#include "analyzers/stack_merge.h"
#include "events/syms.h"
#include "output/pprof.h"
#include "profile.pb-c.h"
#include "tests/unit/pprof_unpack.h"

/* A stripped binary of the system's, with no symbol over its entry point. */
#define STRIPPED	"/usr/bin/true"

/* test_unnamed - the entry point of a stripped binary is "true+0xENTRY" */
static void test_unnamed(void **state)
{
	char maps[256], want[64];
	struct ft_usyms u;
	Elf64_Ehdr eh;
	struct stat st;
	uint64_t ip, fr, base = 0x10000000;
	FILE *f;

	(void)state;
	f = fopen(STRIPPED, "rb");
	if (!f || fread(&eh, sizeof(eh), 1, f) != 1 || stat(STRIPPED, &st)) {
		if (f)
			fclose(f);
		skip();
	}
	fclose(f);
	/* a PIE whose text is at its file offset (readelf -l): entry's offset = e_entry */
	snprintf(maps, sizeof(maps), "%x 1 true\n%llx %llx " STRIPPED "\n", 4242,
		 (unsigned long long)base, (unsigned long long)(base + st.st_size));
	assert_int_equal(ft_usyms_init(&u, false), 0);
	assert_int_equal(ft_usyms_add_maps(&u, maps, strlen(maps)), 0);
	ip = base + eh.e_entry;
	assert_int_equal(ft_usyms_frames(&u, 4242, &ip, 1, &fr), 1);
	assert_null(ft_usyms_symbol(&u, 4242, fr));
	snprintf(want, sizeof(want), "true+%#llx", (unsigned long long)eh.e_entry);
	assert_string_equal(ft_usyms_name(&u, 4242, fr), want);
	/* made once: the same pointer again (reports compare names by pointer) */
	assert_ptr_equal(ft_usyms_name(&u, 4242, fr), ft_usyms_name(&u, 4242, fr));
	/* no .symtab, no debug file: at most the functions it exports (Debian 13's true
	   has one in its .dynsym, Debian 12's none), none of which covers the entry */
	assert_true(ft_usyms_source(&u, fr) == FT_SYMS_NONE ||
		    ft_usyms_source(&u, fr) == FT_SYMS_DYNSYM);
	/* no mapping at all: [unknown] */
	ip = 16;
	assert_int_equal(ft_usyms_frames(&u, 4242, &ip, 1, &fr), 1);
	assert_string_equal(ft_usyms_name(&u, 4242, fr), "[unknown]");
	ft_usyms_fini(&u);
}

/* test_vdso - this process's clock_gettime in the vDSO, as glibc's dlsym finds it */
static void test_vdso(void **state)
{
	void *h = dlopen("linux-vdso.so.1", RTLD_LAZY | RTLD_NOLOAD);
	void *fn = h ? dlsym(h, "__vdso_clock_gettime") : NULL;
	uint64_t ip[2], fr[2];
	struct ft_usyms u;
	const char *name;

	(void)state;
	if (!fn)
		skip();
	ip[0] = (uint64_t)(uintptr_t)fn + 1;
	ip[1] = (uint64_t)(uintptr_t)fn + 2;	/* a return address: minus one */
	assert_int_equal(ft_usyms_init(&u, true), 0);
	assert_int_equal(ft_usyms_frames(&u, getpid(), ip, 2, fr), 2);
	assert_string_equal(ft_usyms_path(&u, fr[0]), "[vdso]");
	name = ft_usyms_name(&u, getpid(), fr[0]);
	/* two names for one function: the kernel's vDSO exports both */
	if (strcmp(name, "clock_gettime"))
		assert_string_equal(name, "__vdso_clock_gettime");
	assert_string_equal(ft_usyms_name(&u, getpid(), fr[1]), name);
	assert_int_equal(ft_usyms_source(&u, fr[0]), FT_SYMS_DYNSYM);
	assert_string_equal(ft_usyms_build_id(&u, fr[0]), "");
	ft_usyms_fini(&u);
	dlclose(h);
}

/* test_merge - rows by numbers and text: same text one row, sums added */
static void test_merge(void **state)
{
	const char *a[] = { "prog", "start_thread", "thr", "burn" };
	char copy[3][16] = { "prog", "thr", "burn" };
	const char *b[] = { copy[0], "start_thread", copy[1], copy[2] };
	const char *c[] = { "prog", "start_thread", "thr" };
	const char *d[] = { "prog", "start_thread", "thrb", "urn" };
	int64_t h1[1] = { 7 }, h2[1] = { 8 };
	struct ft_smerge m;

	(void)state;
	assert_int_equal(ft_smerge_init(&m), 0);
	assert_int_equal(ft_smerge_add(&m, NULL, 0, a, 4, 3, 54, 540), 0);
	/* the same names in other strings: the same row */
	assert_int_equal(ft_smerge_add(&m, NULL, 0, b, 4, 5, 43, 430), 0);
	assert_int_equal(ft_smerge_add(&m, NULL, 0, c, 3, 6, 1, 10), 1);
	/* "thr;burn" is not "thrb;urn" (each name ends with its NUL) */
	assert_int_equal(ft_smerge_add(&m, NULL, 0, d, 4, 8, 1, 10), 2);
	/* the numbers printed with it (a thread id) part rows */
	assert_int_equal(ft_smerge_add(&m, h1, 1, a, 4, 9, 1, 1), 3);
	assert_int_equal(ft_smerge_add(&m, h2, 1, a, 4, 10, 1, 1), 4);
	assert_int_equal(ft_smerge_add(&m, h1, 1, b, 4, 11, 1, 1), 3);
	assert_int_equal(m.rows.n, 5);
	assert_int_equal(m.first[0], 3);
	assert_int_equal(m.sum[0][0], 97);
	assert_int_equal(m.sum[0][1], 970);
	assert_int_equal(m.first[3], 9);
	assert_int_equal(m.sum[3][0], 2);
	ft_smerge_fini(&m);
}


/* test_pprof_merge - two samples with the same locations and labels are one, values summed */
static void test_pprof_merge(void **state)
{
	struct ft_pprof *pp = ft_pprof_new();
	struct ft_pprof_label lab[2] = { { .key = "tid", .num = 7 }, { .key = "tid", .num = 8 } };
	int64_t v1[2] = { 1000, 1 }, v2[2] = { 500, 2 };
	Perftools__Profiles__Profile *p;
	uint64_t loc[2];

	(void)state;
	assert_non_null(pp);
	assert_int_equal(ft_pprof_sample_type(pp, "offcpu", "nanoseconds"), 0);
	assert_int_equal(ft_pprof_sample_type(pp, "periods", "count"), 0);
	loc[0] = ft_pprof_location(pp, 0, 0x10, "leaf", NULL, NULL);
	loc[1] = ft_pprof_location(pp, 0, 0x20, "root", NULL, NULL);
	assert_int_equal(ft_pprof_sample(pp, loc, 2, v1, lab, 1), 0);
	assert_int_equal(ft_pprof_sample(pp, loc, 2, v2, lab, 1), 0);	/* the same: merged */
	assert_int_equal(ft_pprof_sample(pp, loc, 2, v2, lab + 1, 1), 0);	/* another tid */
	assert_int_equal(ft_pprof_sample(pp, loc + 1, 1, v2, lab, 1), 0);	/* another stack */
	p = unpack(pp);
	assert_non_null(p);
	assert_int_equal(p->n_sample, 3);
	assert_int_equal(p->sample[0]->value[0], 1500);
	assert_int_equal(p->sample[0]->value[1], 3);
	assert_int_equal(p->sample[1]->value[0], 500);
	assert_int_equal(p->sample[1]->label[0]->num, 8);
	assert_int_equal(p->sample[2]->n_location_id, 1);
	perftools__profiles__profile__free_unpacked(p, NULL);
	ft_pprof_free(pp);
}

/* main - run the symbol tests */
int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unnamed),
		cmocka_unit_test(test_vdso),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_pprof_merge),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
