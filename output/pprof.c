// SPDX-License-Identifier: GPL-2.0
/*
 * pprof profiles (profile.proto), written with libprotobuf-c and gzip-compressed
 * with zlib, as pprof itself writes them.
 *
 * Everything a profile names is kept once, in the ids profile.proto wants: strings
 * by their index in string_table (0 is ""), functions, locations and mappings by
 * id (1, 2, ...: 0 means none). Each is an ft_intern of its fields, so the id is
 * the intern id + 1. The protobuf messages are made only at the end, from these
 * tables, and freed once packed.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "lib/intern.h"
#include "lib/util.h"
#include "output/pprof.h"
#include "profile.pb-c.h"

typedef Perftools__Profiles__Profile	PProfile;
typedef Perftools__Profiles__ValueType	PValueType;
typedef Perftools__Profiles__Sample	PSample;
typedef Perftools__Profiles__Label	PLabel;
typedef Perftools__Profiles__Mapping	PMapping;
typedef Perftools__Profiles__Location	PLocation;
typedef Perftools__Profiles__Line	PLine;
typedef Perftools__Profiles__Function	PFunction;

/* Fields of the interned keys. */
enum { F_NAME, F_SYSNAME, F_FILE, F_LEN };
enum { L_MAPPING, L_ADDR, L_FUNC, L_LEN };
enum { M_START, M_LIMIT, M_OFFSET, M_FILE, M_BUILD_ID, M_LEN };

/* A sample as added: its locations and labels are runs of the pools. */
struct psample {
	size_t		loc, lab;
	uint32_t	nloc, nlab;
	int64_t		v[FT_PPROF_MAX_TYPES];
};

struct plabel {
	int64_t		key, str, num, unit;
};

struct ft_pprof {
	struct ft_intern	strs, funcs, locs, maps;
	struct ft_intern	smps;		/* a sample's locations and labels -> it */
	uint64_t		*skey;		/* a sample's key being made */
	size_t			capskey;
	char			**str;		/* string_table */
	size_t			nstr, capstr;
	int64_t			type[FT_PPROF_MAX_TYPES][2];	/* (type, unit) */
	int			ntypes;
	int64_t			period_type[2], period;
	int64_t			default_type;
	int64_t			time_ns, duration_ns;
	int64_t			*comment;
	size_t			ncomment, capcomment;
	struct psample		*smp;
	size_t			nsmp, capsmp;
	uint64_t		*locpool;
	size_t			nlocpool, caplocpool;
	struct plabel		*labpool;
	size_t			nlabpool, caplabpool;
	int			err;		/* an add failed: out of memory */
};

/* str_id - the index of @s in the string table, added when new; -1 out of memory */
static int64_t str_id(struct ft_pprof *pp, const char *s)
{
	uint64_t small[64], *key = small;
	size_t len = strlen(s), words = len / 8 + 1;
	long id;

	if (!*s)
		return 0;
	if (words > sizeof(small) / sizeof(small[0]) && !(key = malloc(words * 8)))
		goto oom;
	key[words - 1] = 0;
	memcpy(key, s, len);
	id = ft_intern_put(&pp->strs, key, (uint32_t)words);
	if (key != small)
		free(key);
	if (id < 0)
		goto oom;
	if ((size_t)id + 1 < pp->nstr)
		return id + 1;
	if (ft_grow((void **)&pp->str, sizeof(*pp->str), pp->nstr, 1, &pp->capstr) ||
	    !(pp->str[pp->nstr] = strdup(s)))
		goto oom;
	return (int64_t)pp->nstr++;
oom:
	pp->err = ENOMEM;
	return -1;
}

/* ft_pprof_new - an empty profile; NULL when out of memory */
struct ft_pprof *ft_pprof_new(void)
{
	struct ft_pprof *pp = calloc(1, sizeof(*pp));

	if (!pp)
		return NULL;
	if (ft_intern_init(&pp->strs) || ft_intern_init(&pp->funcs) ||
	    ft_intern_init(&pp->locs) || ft_intern_init(&pp->maps) || ft_intern_init(&pp->smps) ||
	    ft_grow((void **)&pp->str, sizeof(*pp->str), 0, 1, &pp->capstr) ||
	    !(pp->str[0] = strdup(""))) {
		ft_pprof_free(pp);
		return NULL;
	}
	pp->nstr = 1;
	return pp;
}

/* ft_pprof_free - free a profile (NULL: nothing) */
void ft_pprof_free(struct ft_pprof *pp)
{
	size_t i;

	if (!pp)
		return;
	for (i = 0; i < pp->nstr; i++)
		free(pp->str[i]);
	free(pp->str);
	ft_intern_fini(&pp->strs);
	ft_intern_fini(&pp->funcs);
	ft_intern_fini(&pp->locs);
	ft_intern_fini(&pp->maps);
	ft_intern_fini(&pp->smps);
	free(pp->skey);
	free(pp->comment);
	free(pp->smp);
	free(pp->locpool);
	free(pp->labpool);
	free(pp);
}

/**
 * ft_pprof_sample_type - the next value of every sample: its type and unit
 * ("cpu", "nanoseconds"). Returns 0, or -1 when there are too many or out of memory.
 */
int ft_pprof_sample_type(struct ft_pprof *pp, const char *type, const char *unit)
{
	if (pp->ntypes == FT_PPROF_MAX_TYPES || pp->nsmp)
		return -1;
	pp->type[pp->ntypes][0] = str_id(pp, type);
	pp->type[pp->ntypes][1] = str_id(pp, unit);
	pp->ntypes++;
	return pp->err ? -1 : 0;
}

/* ft_pprof_default_type - the sample type pprof shows unless told (default: the last) */
int ft_pprof_default_type(struct ft_pprof *pp, const char *type)
{
	pp->default_type = str_id(pp, type);
	return pp->err ? -1 : 0;
}

/* ft_pprof_period - what one sample stands for (period_type, period); 0 or -1 */
int ft_pprof_period(struct ft_pprof *pp, const char *type, const char *unit, int64_t period)
{
	pp->period_type[0] = str_id(pp, type);
	pp->period_type[1] = str_id(pp, unit);
	pp->period = period;
	return pp->err ? -1 : 0;
}

/* ft_pprof_time - when the profile began (ns since the epoch) and how long it ran */
void ft_pprof_time(struct ft_pprof *pp, int64_t time_ns, int64_t duration_ns)
{
	pp->time_ns = time_ns;
	pp->duration_ns = duration_ns;
}

/* ft_pprof_comment - a line pprof shows with the profile (-comments); 0 or -1 */
int ft_pprof_comment(struct ft_pprof *pp, const char *text)
{
	int64_t s = str_id(pp, text);

	if (s < 0 || ft_grow((void **)&pp->comment, sizeof(*pp->comment), pp->ncomment, 1,
			  &pp->capcomment))
		return -1;
	pp->comment[pp->ncomment++] = s;
	return 0;
}

/* intern_id - the id (1, 2...) of a key of @n fields in @t; 0 out of memory */
static uint64_t intern_id(struct ft_pprof *pp, struct ft_intern *t, const uint64_t *key,
			  uint32_t n)
{
	long id = pp->err ? -1 : ft_intern_put(t, key, n);

	if (id < 0) {
		pp->err = ENOMEM;
		return 0;
	}
	return (uint64_t)id + 1;
}

/**
 * ft_pprof_mapping - a mapped file (@file, its @build_id in hex: NULL or "" when
 * unknown) from @start to @limit, at @offset in the file; the same mapping added
 * twice has one id. Returns the id, or 0 when out of memory.
 */
uint64_t ft_pprof_mapping(struct ft_pprof *pp, uint64_t start, uint64_t limit, uint64_t offset,
			  const char *file, const char *build_id)
{
	uint64_t key[M_LEN] = { start, limit, offset };

	key[M_FILE] = (uint64_t)str_id(pp, file ? file : "");
	key[M_BUILD_ID] = (uint64_t)str_id(pp, build_id ? build_id : "");
	return intern_id(pp, &pp->maps, key, M_LEN);
}

/**
 * ft_pprof_location - the location of @addr in @mapping (0: none), in the function
 * @name (NULL: the stack walk could not name it, the location has its address
 * alone); @system_name and @file may be NULL. Returns its id, or 0 out of memory.
 */
uint64_t ft_pprof_location(struct ft_pprof *pp, uint64_t mapping, uint64_t addr,
			   const char *name, const char *system_name, const char *file)
{
	uint64_t key[L_LEN] = { mapping, addr, 0 }, fkey[F_LEN];

	if (name) {
		fkey[F_NAME] = (uint64_t)str_id(pp, name);
		fkey[F_SYSNAME] = (uint64_t)str_id(pp, system_name ? system_name : name);
		fkey[F_FILE] = (uint64_t)str_id(pp, file ? file : "");
		key[L_FUNC] = intern_id(pp, &pp->funcs, fkey, F_LEN);
	}
	return intern_id(pp, &pp->locs, key, L_LEN);
}

/*
 * same_sample - the sample with the locations and labels of the one made at the end
 * of the pools (@n locations, @nlabel labels), that one when new; -1 out of memory
 */
static long same_sample(struct ft_pprof *pp, int n, int nlabel)
{
	size_t words = (size_t)n + 1 + 4 * (size_t)nlabel, i;
	uint64_t *k;

	if (ft_grow((void **)&pp->skey, sizeof(*pp->skey), 0, words, &pp->capskey))
		return -1;
	k = pp->skey;
	k[0] = (uint64_t)n;
	memcpy(k + 1, pp->locpool + pp->nlocpool, n * sizeof(*k));
	for (i = 0; i < (size_t)nlabel; i++)
		memcpy(k + n + 1 + 4 * i, &pp->labpool[pp->nlabpool + i], 4 * sizeof(*k));
	return ft_intern_put(&pp->smps, k, (uint32_t)words);
}

/**
 * ft_pprof_sample - a sample: @n location ids, leaf first (loc[0] is where it was),
 * one value per sample type, and its labels; added to the values of an earlier one
 * with the same locations and labels. Returns 0, or -1 out of memory.
 */
int ft_pprof_sample(struct ft_pprof *pp, const uint64_t *loc, int n, const int64_t *value,
		    const struct ft_pprof_label *label, int nlabel)
{
	struct psample *s;
	long same;
	int i;

	if (pp->err || ft_grow((void **)&pp->smp, sizeof(*pp->smp), pp->nsmp, 1, &pp->capsmp) ||
	    ft_grow((void **)&pp->locpool, sizeof(*pp->locpool), pp->nlocpool, (size_t)n,
		 &pp->caplocpool) ||
	    ft_grow((void **)&pp->labpool, sizeof(*pp->labpool), pp->nlabpool, (size_t)nlabel,
		 &pp->caplabpool)) {
		pp->err = ENOMEM;
		return -1;
	}
	s = &pp->smp[pp->nsmp];
	memset(s, 0, sizeof(*s));
	s->loc = pp->nlocpool;
	s->nloc = (uint32_t)n;
	memcpy(pp->locpool + pp->nlocpool, loc, n * sizeof(*loc));
	s->lab = pp->nlabpool;
	s->nlab = (uint32_t)nlabel;
	for (i = 0; i < nlabel; i++) {
		struct plabel *l = &pp->labpool[pp->nlabpool + i];

		l->key = str_id(pp, label[i].key);
		l->str = label[i].str ? str_id(pp, label[i].str) : 0;
		l->num = label[i].str ? 0 : label[i].num;
		l->unit = !label[i].str && label[i].unit ? str_id(pp, label[i].unit) : 0;
	}
	memcpy(s->v, value, pp->ntypes * sizeof(*value));
	same = pp->err ? -1 : same_sample(pp, n, nlabel);
	if (same < 0) {
		pp->err = ENOMEM;
		return -1;
	}
	if ((size_t)same < pp->nsmp) {
		for (i = 0; i < pp->ntypes; i++)
			pp->smp[same].v[i] += value[i];
		return 0;
	}
	pp->nlocpool += n;
	pp->nlabpool += nlabel;
	pp->nsmp++;
	return 0;
}

/* The messages of one profile, made from the tables for packing. */
struct msgs {
	PProfile	prof;
	PValueType	vt[FT_PPROF_MAX_TYPES + 1], *pvt[FT_PPROF_MAX_TYPES];
	PSample		*smp, **psmp;
	PLabel		*lab, **plab;
	PMapping	*map, **pmap;
	PLocation	*loc, **ploc;
	PLine		*line, **pline;
	PFunction	*fn, **pfn;
};

/* msgs_free - free what msgs_alloc allocated */
static void msgs_free(struct msgs *m)
{
	free(m->smp);
	free(m->psmp);
	free(m->lab);
	free(m->plab);
	free(m->map);
	free(m->pmap);
	free(m->loc);
	free(m->ploc);
	free(m->line);
	free(m->pline);
	free(m->fn);
	free(m->pfn);
}

/* msgs_alloc - room for every message (at least one of each: calloc(0) may be NULL) */
static int msgs_alloc(struct ft_pprof *pp, struct msgs *m)
{
	size_t ns = pp->nsmp + 1, nl = pp->nlabpool + 1, nm = pp->maps.n + 1;
	size_t no = pp->locs.n + 1, nf = pp->funcs.n + 1;

	m->smp = calloc(ns, sizeof(*m->smp));
	m->psmp = calloc(ns, sizeof(*m->psmp));
	m->lab = calloc(nl, sizeof(*m->lab));
	m->plab = calloc(nl, sizeof(*m->plab));
	m->map = calloc(nm, sizeof(*m->map));
	m->pmap = calloc(nm, sizeof(*m->pmap));
	m->loc = calloc(no, sizeof(*m->loc));
	m->ploc = calloc(no, sizeof(*m->ploc));
	m->line = calloc(no, sizeof(*m->line));
	m->pline = calloc(no, sizeof(*m->pline));
	m->fn = calloc(nf, sizeof(*m->fn));
	m->pfn = calloc(nf, sizeof(*m->pfn));
	if (m->smp && m->psmp && m->lab && m->plab && m->map && m->pmap && m->loc && m->ploc &&
	    m->line && m->pline && m->fn && m->pfn)
		return 0;
	msgs_free(m);
	return -1;
}

/* make_samples - the samples and their labels */
static void make_samples(struct ft_pprof *pp, struct msgs *m)
{
	size_t i, j;

	for (i = 0; i < pp->nlabpool; i++) {
		PLabel *l = &m->lab[i];

		perftools__profiles__label__init(l);
		l->key = pp->labpool[i].key;
		l->str = pp->labpool[i].str;
		l->num = pp->labpool[i].num;
		l->num_unit = pp->labpool[i].unit;
		m->plab[i] = l;
	}
	for (i = 0; i < pp->nsmp; i++) {
		struct psample *s = &pp->smp[i];
		PSample *o = &m->smp[i];

		perftools__profiles__sample__init(o);
		o->n_location_id = s->nloc;
		o->location_id = pp->locpool + s->loc;
		o->n_value = (size_t)pp->ntypes;
		o->value = s->v;
		o->n_label = s->nlab;
		o->label = m->plab + s->lab;
		m->psmp[i] = o;
	}
	for (j = 0; j < (size_t)pp->ntypes; j++) {
		perftools__profiles__value_type__init(&m->vt[j]);
		m->vt[j].type = pp->type[j][0];
		m->vt[j].unit = pp->type[j][1];
		m->pvt[j] = &m->vt[j];
	}
}

/* make_tables - mappings, locations (a line each when named) and functions */
static void make_tables(struct ft_pprof *pp, struct msgs *m)
{
	const uint64_t *k;
	uint32_t i, n;

	for (i = 0; i < pp->maps.n; i++) {
		PMapping *o = &m->map[i];

		k = ft_intern_get(&pp->maps, i, &n);
		perftools__profiles__mapping__init(o);
		o->id = i + 1;
		o->memory_start = k[M_START];
		o->memory_limit = k[M_LIMIT];
		o->file_offset = k[M_OFFSET];
		o->filename = (int64_t)k[M_FILE];
		o->build_id = (int64_t)k[M_BUILD_ID];
		o->has_functions = 1;	/* symbolised: pprof must not try again */
		m->pmap[i] = o;
	}
	for (i = 0; i < pp->locs.n; i++) {
		PLocation *o = &m->loc[i];

		k = ft_intern_get(&pp->locs, i, &n);
		perftools__profiles__location__init(o);
		o->id = i + 1;
		o->mapping_id = k[L_MAPPING];
		o->address = k[L_ADDR];
		if (k[L_FUNC]) {
			perftools__profiles__line__init(&m->line[i]);
			m->line[i].function_id = k[L_FUNC];
			m->pline[i] = &m->line[i];
			o->n_line = 1;
			o->line = &m->pline[i];
		}
		m->ploc[i] = o;
	}
	for (i = 0; i < pp->funcs.n; i++) {
		PFunction *o = &m->fn[i];

		k = ft_intern_get(&pp->funcs, i, &n);
		perftools__profiles__function__init(o);
		o->id = i + 1;
		o->name = (int64_t)k[F_NAME];
		o->system_name = (int64_t)k[F_SYSNAME];
		o->filename = (int64_t)k[F_FILE];
		m->pfn[i] = o;
	}
}

/* make_profile - the whole message, pointing into @m and the tables */
static void make_profile(struct ft_pprof *pp, struct msgs *m)
{
	PProfile *p = &m->prof;

	make_samples(pp, m);
	make_tables(pp, m);
	perftools__profiles__profile__init(p);
	p->n_sample_type = (size_t)pp->ntypes;
	p->sample_type = m->pvt;
	p->n_sample = pp->nsmp;
	p->sample = m->psmp;
	p->n_mapping = pp->maps.n;
	p->mapping = m->pmap;
	p->n_location = pp->locs.n;
	p->location = m->ploc;
	p->n_function = pp->funcs.n;
	p->function = m->pfn;
	p->n_string_table = pp->nstr;
	p->string_table = pp->str;
	p->time_nanos = pp->time_ns;
	p->duration_nanos = pp->duration_ns;
	if (pp->period_type[0]) {
		perftools__profiles__value_type__init(&m->vt[FT_PPROF_MAX_TYPES]);
		m->vt[FT_PPROF_MAX_TYPES].type = pp->period_type[0];
		m->vt[FT_PPROF_MAX_TYPES].unit = pp->period_type[1];
		p->period_type = &m->vt[FT_PPROF_MAX_TYPES];
	}
	p->period = pp->period;
	p->default_sample_type = pp->default_type;
	p->n_comment = pp->ncomment;
	p->comment = pp->comment;
}

/* gzip_write - @len bytes of @buf, gzip-compressed, into @f; 0 or -1 with errno */
static int gzip_write(const uint8_t *buf, size_t len, FILE *f)
{
	z_stream zs = { 0 };
	uint8_t *out;
	size_t cap;
	int ret;

	if (deflateInit2(&zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
			 Z_DEFAULT_STRATEGY) != Z_OK) {
		errno = ENOMEM;
		return -1;
	}
	cap = deflateBound(&zs, len);
	out = malloc(cap);
	if (!out) {
		deflateEnd(&zs);
		errno = ENOMEM;
		return -1;
	}
	zs.next_in = (uint8_t *)buf;
	zs.avail_in = (uInt)len;
	zs.next_out = out;
	zs.avail_out = (uInt)cap;
	ret = deflate(&zs, Z_FINISH);
	deflateEnd(&zs);
	if (ret != Z_STREAM_END) {
		free(out);
		errno = EIO;
		return -1;
	}
	ret = fwrite(out, 1, zs.total_out, f) == zs.total_out && !fflush(f) ? 0 : -1;
	free(out);
	return ret;
}

/**
 * ft_pprof_write - the profile, packed and gzip-compressed, into @f
 * Returns 0, or -1 with errno set.
 */
int ft_pprof_write(struct ft_pprof *pp, FILE *f)
{
	struct msgs m = { 0 };
	uint8_t *buf;
	size_t len;
	int ret;

	if (pp->err || msgs_alloc(pp, &m)) {
		errno = ENOMEM;
		return -1;
	}
	make_profile(pp, &m);
	len = perftools__profiles__profile__get_packed_size(&m.prof);
	buf = malloc(len + 1);
	if (!buf) {
		msgs_free(&m);
		errno = ENOMEM;
		return -1;
	}
	perftools__profiles__profile__pack(&m.prof, buf);
	msgs_free(&m);
	ret = gzip_write(buf, len, f);
	free(buf);
	return ret;
}

/**
 * ft_pprof_finish - write @pp into the open @out and put it in place; on a failure
 * the path is left as it was. Returns 0, or -1 with errno set. Nothing open after.
 */
int ft_pprof_finish(struct ft_pprof *pp, struct ft_outfile *out)
{
	int err;

	if (!ft_pprof_write(pp, out->f))
		return ft_outfile_commit(out);
	err = errno ? errno : EIO;
	ft_outfile_abandon(out);
	errno = err;
	return -1;
}
