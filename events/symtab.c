// SPDX-License-Identifier: GPL-2.0
/*
 * A sorted symbol table (address, size, name), the one behind kernel symbols,
 * ELF files and JIT perf maps.
 */
#include <stdlib.h>
#include <string.h>

#include "events/syms.h"

/* ft_symtab_add - one symbol, its name cut at @len (symbol versions); 0 or -1 out of memory */
int ft_symtab_add(struct ft_symtab *st, uint64_t addr, uint64_t size, const char *name,
		  size_t len)
{
	long off;

	if (st->n == st->cap) {
		size_t cap = st->cap ? st->cap * 2 : 256;
		struct ft_sym *s = realloc(st->sym, cap * sizeof(*s));

		if (!s)
			return -1;
		st->sym = s;
		st->cap = cap;
	}
	off = ft_names_add(&st->names, name, len);
	if (off < 0)
		return -1;
	st->sym[st->n].addr = addr;
	st->sym[st->n].size = size;
	st->sym[st->n++].name = (uint32_t)off;
	return 0;
}

/* cmp_sym - order by address */
static int cmp_sym(const void *a, const void *b)
{
	const struct ft_sym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* ft_symtab_sort - make the table searchable, after the last ft_symtab_add */
void ft_symtab_sort(struct ft_symtab *st)
{
	if (st->n)
		qsort(st->sym, st->n, sizeof(*st->sym), cmp_sym);
}

/* ft_symtab_find - the symbol covering @addr (size 0: only its own address), or NULL */
const char *ft_symtab_find(const struct ft_symtab *st, uint64_t addr)
{
	size_t lo = 0, hi = st->n;
	const struct ft_sym *s;

	if (!st->n || addr < st->sym[0].addr)
		return NULL;
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;

		if (st->sym[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	/* aliases share an address: any covering one will do */
	for (s = &st->sym[lo]; s >= st->sym && s->addr == st->sym[lo].addr; s--)
		if (addr - s->addr < s->size || addr == s->addr)
			return st->names.buf + s->name;
	return NULL;
}

/* ft_symtab_free - free a table's memory */
void ft_symtab_free(struct ft_symtab *st)
{
	free(st->sym);
	free(st->names.buf);
	memset(st, 0, sizeof(*st));
}
