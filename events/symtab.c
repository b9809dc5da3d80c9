// SPDX-License-Identifier: GPL-2.0
/*
 * A sorted symbol table (address, size, name), the one behind kernel symbols,
 * ELF files and JIT perf maps.
 */
#include <elf.h>
#include <stdint.h>
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

/* pad - @v rounded up to @align (a power of two) */
static size_t pad(size_t v, size_t align)
{
	return (v + align - 1) & ~(align - 1);
}

/**
 * ft_note_build_id - the GNU build ID among ELF notes (@buf, @n bytes in host byte
 * order, each name and desc padded to @align: 4, or 8 in an 8-aligned section):
 * its bytes into @id (at most @len). Returns their number, 0 for none.
 */
size_t ft_note_build_id(const unsigned char *buf, size_t n, size_t align, unsigned char *id,
			size_t len)
{
	size_t off = 0, name, desc;
	uint32_t nh[3];		/* namesz, descsz, type: Elf32_Nhdr and Elf64_Nhdr alike */

	align = align == 8 ? 8 : 4;
	while (off + sizeof(nh) <= n) {
		memcpy(nh, buf + off, sizeof(nh));
		name = off + sizeof(nh);
		desc = name + pad(nh[0], align);
		if (desc > n || nh[1] > n - desc)
			break;
		if (nh[2] == NT_GNU_BUILD_ID && nh[0] == 4 && !memcmp(buf + name, "GNU", 4) &&
		    nh[1] >= 2 && nh[1] <= len) {
			memcpy(id, buf + desc, nh[1]);
			return nh[1];
		}
		off = desc + pad(nh[1], align);
	}
	return 0;
}
