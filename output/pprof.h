/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pprof profiles: profile.proto (github.com/google/pprof), gzip-compressed, as
 * `go tool pprof`, Pyroscope and Parca read them. The caller declares the sample
 * types, then adds mappings, locations (an address, and the function when it has
 * a name) and samples (locations leaf first, one value per sample type, labels);
 * strings, functions, locations and mappings are stored once each. The encoding
 * is libprotobuf-c's, from code protoc-c generates at build time.
 */
#ifndef FTSCOPE_OUTPUT_PPROF_H
#define FTSCOPE_OUTPUT_PPROF_H

#include <stdint.h>
#include <stdio.h>

#include "lib/file.h"

/* Most sample types a profile has. */
#define FT_PPROF_MAX_TYPES	4

/* A sample's label: a string (@str set) or a number in @unit (NULL: none). */
struct ft_pprof_label {
	const char	*key;
	const char	*str;
	int64_t		num;
	const char	*unit;
};

struct ft_pprof;

struct ft_pprof *ft_pprof_new(void);
void ft_pprof_free(struct ft_pprof *pp);
int ft_pprof_sample_type(struct ft_pprof *pp, const char *type, const char *unit);
int ft_pprof_default_type(struct ft_pprof *pp, const char *type);
int ft_pprof_period(struct ft_pprof *pp, const char *type, const char *unit, int64_t period);
void ft_pprof_time(struct ft_pprof *pp, int64_t time_ns, int64_t duration_ns);
int ft_pprof_comment(struct ft_pprof *pp, const char *text);
uint64_t ft_pprof_mapping(struct ft_pprof *pp, uint64_t start, uint64_t limit, uint64_t offset,
			  const char *file, const char *build_id);
uint64_t ft_pprof_location(struct ft_pprof *pp, uint64_t mapping, uint64_t addr,
			   const char *name, const char *system_name, const char *file);
int ft_pprof_sample(struct ft_pprof *pp, const uint64_t *loc, int n, const int64_t *value,
		    const struct ft_pprof_label *label, int nlabel);
int ft_pprof_write(struct ft_pprof *pp, FILE *f);
int ft_pprof_finish(struct ft_pprof *pp, struct ft_outfile *out);

#endif
