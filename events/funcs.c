// SPDX-License-Identifier: GPL-2.0
/*
 * Functions to probe: the request an analyzer's options build, and look-ups in the
 * resolved table. Nothing here touches the kernel (tracer/probes.c does).
 */
#include <stdlib.h>
#include <string.h>

#include "events/funcs.h"
#include "lib/parse.h"
#include "lib/util.h"

/**
 * ft_func_req_arg - an analyzer's positional PATTERN: kept as given
 * Returns 0, or FT_OPT_REPORTED after printing the error.
 */
int ft_func_req_arg(struct ft_func_req *r, const char *arg)
{
	char **s = realloc(r->specs, (r->nspecs + 1) * sizeof(*s));

	if (s) {
		r->specs = s;
		s[r->nspecs] = strdup(arg);
	}
	if (!s || !s[r->nspecs]) {
		ft_err("out of memory");
		return FT_OPT_REPORTED;
	}
	r->nspecs++;
	return 0;
}

/* ft_func_req_max - --max-funcs N: refuse patterns matching more; 0 or -1 (bad value) */
int ft_func_req_max(struct ft_func_req *r, const char *arg)
{
	long v;

	if (ft_parse_long(arg, 1, 100000, &v))
		return -1;
	r->limit = (unsigned int)v;
	return 0;
}

/* ft_func_req_free - free the patterns */
void ft_func_req_free(struct ft_func_req *r)
{
	int i;

	for (i = 0; i < r->nspecs; i++)
		free(r->specs[i]);
	FT_FREE(r->specs);
	r->nspecs = 0;
}

/*
 * ft_funcs_find - the kernel function an ip of the function or function_graph
 * tracer belongs to (the ip may sit a few bytes into it, after endbr64), or -1
 */
int ft_funcs_find(const struct ft_funcs *f, uint64_t ip)
{
	int i, best = -1;

	for (i = 0; i < f->n; i++)
		if (f->fn[i].kind == FT_FK_KERNEL && f->fn[i].addr <= ip && ip - f->fn[i].addr < 32 &&
		    (best < 0 || f->fn[i].addr > f->fn[best].addr))
			best = i;
	return best;
}

/* ft_funcs_free - free the resolved functions */
void ft_funcs_free(struct ft_funcs *f)
{
	int i;

	for (i = 0; i < f->n; i++)
		free(f->fn[i].path);
	FT_FREE(f->fn);
	f->n = 0;
}

/* ft_fmethod_name - how a method is called in messages and JSON */
const char *ft_fmethod_name(enum ft_fmethod m)
{
	switch (m) {
	case FT_FM_GRAPH:	return "function_graph";
	case FT_FM_KPROBE:	return "kprobe";
	case FT_FM_FUNCTION:	return "function";
	default:		return "auto";
	}
}
