/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A profile built through output/pprof.h, as a reader gets it: written to a file, read
 * back, gunzipped by zlib and decoded by libprotobuf-c's own unpacker (test_pprof,
 * test_syms). Include after cmocka.h.
 */
#ifndef FTSCOPE_TESTS_PPROF_UNPACK_H
#define FTSCOPE_TESTS_PPROF_UNPACK_H

#include <stdio.h>
#include <zlib.h>

#include "output/pprof.h"
#include "profile.pb-c.h"

/* unpack - @pp written to a file, read back, gunzipped and decoded */
static Perftools__Profiles__Profile *unpack(struct ft_pprof *pp)
{
	static unsigned char gz[1 << 16], raw[1 << 18];
	FILE *f = tmpfile();
	z_stream zs = { 0 };
	size_t n;

	assert_non_null(f);
	assert_int_equal(ft_pprof_write(pp, f), 0);
	rewind(f);
	n = fread(gz, 1, sizeof(gz), f);
	fclose(f);
	assert_true(n > 18 && gz[0] == 0x1f && gz[1] == 0x8b);	/* a gzip member */
	assert_int_equal(inflateInit2(&zs, 15 + 16), Z_OK);
	zs.next_in = gz;
	zs.avail_in = (uInt)n;
	zs.next_out = raw;
	zs.avail_out = sizeof(raw);
	assert_int_equal(inflate(&zs, Z_FINISH), Z_STREAM_END);
	n = zs.total_out;
	inflateEnd(&zs);
	return perftools__profiles__profile__unpack(NULL, n, raw);
}

#endif
