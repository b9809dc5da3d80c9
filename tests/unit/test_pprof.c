// SPDX-License-Identifier: GPL-2.0
/*
 * pprof profiles without a kernel: a profile built through output/pprof.h, written,
 * gunzipped by zlib and decoded by libprotobuf-c's own unpacker, holds exactly what
 * was added (ids, the string table, leaf-first locations, labels, mappings); and a
 * user frame of this process maps back to its address and to the build ID the
 * dynamic loader sees in this binary's PT_NOTE.
 */
#include <elf.h>
#include <link.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include <cmocka.h>

#include "events/syms.h"
#include "lib/util.h"
#include "output/pprof.h"
#include "profile.pb-c.h"
#include "tests/unit/pprof_unpack.h"

typedef Perftools__Profiles__Profile PProfile;


/* str - string @i of @p's table */
static const char *str(const PProfile *p, int64_t i)
{
	assert_true(i >= 0 && (size_t)i < p->n_string_table);
	return p->string_table[i];
}

/* test_pprof_round_trip - what was added, by libprotobuf-c's decoder */
static void test_pprof_round_trip(void **state)
{
	struct ft_pprof *pp = ft_pprof_new();
	struct ft_pprof_label lab[3] = {
		{ .key = "comm", .str = "napper" }, { .key = "pid", .num = 42 },
		{ .key = "bytes", .num = 7, .unit = "bytes" },
	};
	uint64_t km, um, loc[3], again;
	int64_t v1[2] = { 1000, 1 }, v2[2] = { 5, 2 };
	PProfile *p;

	(void)state;
	assert_non_null(pp);
	assert_int_equal(ft_pprof_sample_type(pp, "offcpu", "nanoseconds"), 0);
	assert_int_equal(ft_pprof_sample_type(pp, "periods", "count"), 0);
	assert_int_equal(ft_pprof_default_type(pp, "offcpu"), 0);
	assert_int_equal(ft_pprof_period(pp, "offcpu", "nanoseconds", 1), 0);
	km = ft_pprof_mapping(pp, 0xffffffff81000000ULL, UINT64_MAX, 0, "[kernel.kallsyms]", "ab12");
	um = ft_pprof_mapping(pp, 0x400000, 0x401000, 0x1000, "/bin/napper", NULL);
	assert_int_equal(km, 1);
	assert_int_equal(um, 2);
	assert_int_equal(ft_pprof_mapping(pp, 0x400000, 0x401000, 0x1000, "/bin/napper", ""), um);
	loc[0] = ft_pprof_location(pp, km, 0xffffffff81000010ULL, "schedule", NULL, NULL);
	loc[1] = ft_pprof_location(pp, um, 0x400123, NULL, NULL, NULL);	/* unnamed */
	loc[2] = ft_pprof_location(pp, um, 0x400456, "main", NULL, NULL);
	again = ft_pprof_location(pp, km, 0xffffffff81000010ULL, "schedule", NULL, NULL);
	assert_int_equal(again, loc[0]);
	assert_int_equal(ft_pprof_sample(pp, loc, 3, v1, lab, 2), 0);
	assert_int_equal(ft_pprof_sample(pp, loc + 2, 1, v2, lab + 2, 1), 0);
	p = unpack(pp);
	ft_pprof_free(pp);
	assert_non_null(p);

	assert_string_equal(str(p, 0), "");
	assert_int_equal(p->n_sample_type, 2);
	assert_string_equal(str(p, p->sample_type[0]->type), "offcpu");
	assert_string_equal(str(p, p->sample_type[0]->unit), "nanoseconds");
	assert_string_equal(str(p, p->sample_type[1]->type), "periods");
	assert_string_equal(str(p, p->default_sample_type), "offcpu");
	assert_string_equal(str(p, p->period_type->type), "offcpu");
	assert_int_equal(p->period, 1);

	assert_int_equal(p->n_mapping, 2);
	assert_int_equal(p->mapping[1]->id, um);
	assert_int_equal(p->mapping[1]->memory_start, 0x400000);
	assert_int_equal(p->mapping[1]->memory_limit, 0x401000);
	assert_int_equal(p->mapping[1]->file_offset, 0x1000);
	assert_string_equal(str(p, p->mapping[1]->filename), "/bin/napper");
	assert_string_equal(str(p, p->mapping[1]->build_id), "");
	assert_string_equal(str(p, p->mapping[0]->build_id), "ab12");
	assert_true(p->mapping[0]->has_functions);

	assert_int_equal(p->n_location, 3);
	assert_int_equal(p->location[1]->id, loc[1]);
	assert_int_equal(p->location[1]->address, 0x400123);
	assert_int_equal(p->location[1]->mapping_id, um);
	assert_int_equal(p->location[1]->n_line, 0);
	assert_int_equal(p->location[2]->n_line, 1);
	assert_int_equal(p->n_function, 2);
	assert_int_equal(p->location[2]->line[0]->function_id, p->function[1]->id);
	assert_string_equal(str(p, p->function[1]->name), "main");
	assert_string_equal(str(p, p->function[1]->system_name), "main");

	assert_int_equal(p->n_sample, 2);
	assert_int_equal(p->sample[0]->n_location_id, 3);
	assert_int_equal(p->sample[0]->location_id[0], loc[0]);	/* the leaf first */
	assert_int_equal(p->sample[0]->location_id[2], loc[2]);
	assert_int_equal(p->sample[0]->n_value, 2);
	assert_int_equal(p->sample[0]->value[0], 1000);
	assert_int_equal(p->sample[1]->value[1], 2);
	assert_int_equal(p->sample[0]->n_label, 2);
	assert_string_equal(str(p, p->sample[0]->label[0]->key), "comm");
	assert_string_equal(str(p, p->sample[0]->label[0]->str), "napper");
	assert_string_equal(str(p, p->sample[0]->label[1]->key), "pid");
	assert_int_equal(p->sample[0]->label[1]->num, 42);
	assert_int_equal(p->sample[0]->label[1]->num_unit, 0);
	assert_string_equal(str(p, p->sample[1]->label[0]->num_unit), "bytes");
	perftools__profiles__profile__free_unpacked(p, NULL);
}

/* An empty profile is still one: pprof reads it as 0 samples. */
static void test_pprof_empty(void **state)
{
	struct ft_pprof *pp = ft_pprof_new();
	PProfile *p;

	(void)state;
	assert_int_equal(ft_pprof_sample_type(pp, "samples", "count"), 0);
	p = unpack(pp);
	ft_pprof_free(pp);
	assert_non_null(p);
	assert_int_equal(p->n_sample, 0);
	assert_int_equal(p->n_sample_type, 1);
	perftools__profiles__profile__free_unpacked(p, NULL);
}

/* the build ID of the main program, as the dynamic loader mapped its PT_NOTE */
static char loader_bid[129];

/* note_of - dl_iterate_phdr callback: the first object (the program)'s GNU build ID */
static int note_of(struct dl_phdr_info *info, size_t size, void *ctx)
{
	int i;

	(void)size;
	(void)ctx;
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		const unsigned char *p = (const unsigned char *)(info->dlpi_addr + ph->p_vaddr);
		const unsigned char *end = p + ph->p_memsz;

		while (ph->p_type == PT_NOTE && p + sizeof(ElfW(Nhdr)) <= end) {
			const ElfW(Nhdr) *nh = (const ElfW(Nhdr) *)p;
			const unsigned char *desc = p + sizeof(*nh) + ((nh->n_namesz + 3) & ~3u);
			unsigned int j;

			if (nh->n_type == NT_GNU_BUILD_ID && nh->n_descsz <= 64) {
				for (j = 0; j < nh->n_descsz; j++)
					sprintf(loader_bid + 2 * j, "%02x", desc[j]);
				return 1;
			}
			p = desc + ((nh->n_descsz + 3) & ~3u);
		}
	}
	return 1;	/* the program only */
}

/* mapped_function - a function of this test binary, for the mapping lookup */
__attribute__((noinline)) int mapped_function(int x)
{
	return x * 5 + 2;
}

/* test_usyms_map_and_build_id - a frame back to its address, its file's build ID */
static void test_usyms_map_and_build_id(void **state)
{
	uint64_t ip = (uint64_t)(uintptr_t)mapped_function + 2, fr;
	struct ft_usyms u;
	struct ft_umap m;

	(void)state;
	assert_int_equal(ft_usyms_init(&u, true), 0);
	assert_int_equal(ft_usyms_frames(&u, getpid(), &ip, 1, &fr), 1);
	assert_int_equal(ft_usyms_map_of(&u, getpid(), fr, &m), 0);
	assert_int_not_equal(m.file, 0);
	assert_int_equal(m.start + FT_UFRAME_OFF(fr) - m.pgoff, ip);
	assert_true(ip >= m.start && ip < m.end);
	dl_iterate_phdr(note_of, NULL);
	assert_true(strlen(loader_bid) >= 16);
	assert_string_equal(ft_usyms_build_id(&u, fr), loader_bid);
	assert_int_equal(ft_usyms_map_of(&u, getpid() + 1000000, fr, &m), -1);
	ft_usyms_fini(&u);
}

/* note - one ELF note at @p (name "GNU" or @name, padded to @align); its length */
static size_t note(unsigned char *p, const char *name, uint32_t type,
		   const unsigned char *desc, uint32_t dlen, size_t align)
{
	uint32_t nh[3] = { strlen(name) + 1, dlen, type };
	size_t o = sizeof(nh);

	memcpy(p, nh, sizeof(nh));
	memcpy(p + o, name, nh[0]);
	o += (nh[0] + align - 1) & ~(align - 1);
	memcpy(p + o, desc, dlen);
	return o + ((dlen + align - 1) & ~(align - 1));
}

/*
 * test_note_build_id - the GNU build ID among hand-built notes: after a note of
 * another type with an odd name length, in 4- and 8-aligned sections; a desc cut
 * short, a name not "GNU" and a one-byte ID refused; ft_hex's digits
 */
static void test_note_build_id(void **state)
{
	static const unsigned char bid[20] = { 0x00, 0x01, 0xab, 0xcd, 0xef, 0x10, 0x99, 0x7f,
					      0x80, 0xff, 0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc,
					      0xde, 0xf0, 0x0f, 0xf0 };
	unsigned char buf[256] = { 0 }, id[64];
	char hex[41];
	size_t align, n;

	(void)state;
	for (align = 4; align <= 8; align += 4) {
		memset(buf, 0xee, sizeof(buf));
		n = note(buf, "GNUX", 5, bid, 7, align);	/* another type, odd sizes */
		n += note(buf + n, "GNU", NT_GNU_BUILD_ID, bid, sizeof(bid), align);
		assert_int_equal(ft_note_build_id(buf, n, align, id, sizeof(id)), sizeof(bid));
		assert_memory_equal(id, bid, sizeof(bid));
		/* the desc cut one byte short: none */
		assert_int_equal(ft_note_build_id(buf, n - (align == 8 ? 5 : 1), align, id,
						  sizeof(id)), 0);
		/* an ID longer than the room: none */
		assert_int_equal(ft_note_build_id(buf, n, align, id, 19), 0);
	}
	n = note(buf, "GNV", NT_GNU_BUILD_ID, bid, sizeof(bid), 4);
	assert_int_equal(ft_note_build_id(buf, n, 4, id, sizeof(id)), 0);
	n = note(buf, "GNU", NT_GNU_BUILD_ID, bid, 1, 4);
	assert_int_equal(ft_note_build_id(buf, n, 4, id, sizeof(id)), 0);
	ft_hex(hex, bid, sizeof(bid));
	assert_string_equal(hex, "0001abcdef10997f80ff123456789abcdef00ff0");
}

/* main - run the pprof tests */
int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pprof_round_trip),
		cmocka_unit_test(test_pprof_empty),
		cmocka_unit_test(test_usyms_map_and_build_id),
		cmocka_unit_test(test_note_build_id),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
