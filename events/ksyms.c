// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel symbols from /proc/kallsyms: text symbols sorted by address, looked up by
 * binary search. With kptr_restrict the file shows zeros: that is reported, and
 * kernel frames print as [unknown] instead of the symbol at address 0.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events/syms.h"

/* cmp_ksym - order by address */
static int cmp_ksym(const void *a, const void *b)
{
	const struct ft_ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/**
 * ft_ksyms_load - read the text symbols of @path (/proc/kallsyms)
 * Returns 0 (k->hidden set when every address reads as zero), or -1 with errno.
 */
int ft_ksyms_load(struct ft_ksyms *k, const char *path)
{
	size_t ncap = 0, zeros = 0;
	char line[512], name[256], type;
	unsigned long long addr;
	FILE *f = fopen(path, "re");

	memset(k, 0, sizeof(*k));
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		long off;

		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3)
			continue;
		if (type != 't' && type != 'T' && type != 'w' && type != 'W')
			continue;
		if (!addr) {
			zeros++;
			continue;
		}
		if (k->n == ncap) {
			struct ft_ksym *s;

			ncap = ncap ? ncap * 2 : 65536;
			s = realloc(k->sym, ncap * sizeof(*s));
			if (!s)
				goto nomem;
			k->sym = s;
		}
		off = ft_names_add(&k->names, name, strlen(name));
		if (off < 0)
			goto nomem;
		k->sym[k->n].addr = addr;
		k->sym[k->n++].name = (uint32_t)off;
	}
	fclose(f);
	k->hidden = !k->n && zeros;
	qsort(k->sym, k->n, sizeof(*k->sym), cmp_ksym);
	k->loaded = true;
	return 0;
nomem:
	fclose(f);
	ft_ksyms_fini(k);
	errno = ENOMEM;
	return -1;
}

/* ft_ksyms_fini - free the table */
void ft_ksyms_fini(struct ft_ksyms *k)
{
	free(k->sym);
	free(k->names.buf);
	memset(k, 0, sizeof(*k));
}

/* ft_ksyms_name - the function holding @addr, or NULL */
const char *ft_ksyms_name(const struct ft_ksyms *k, uint64_t addr)
{
	size_t lo = 0, hi = k->n;

	if (!k->n || addr < k->sym[0].addr)
		return NULL;
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;

		if (k->sym[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	return k->names.buf + k->sym[lo].name;
}
