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

/**
 * ft_ksyms_load - read the text symbols of @path (/proc/kallsyms)
 * Returns 0 (k->hidden set when every address reads as zero), or -1 with errno.
 */
int ft_ksyms_load(struct ft_ksyms *k, const char *path)
{
	size_t zeros = 0, i;
	char line[512], name[256], type;
	unsigned long long addr;
	FILE *f = fopen(path, "re");

	memset(k, 0, sizeof(*k));
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3)
			continue;
		if (type != 't' && type != 'T' && type != 'w' && type != 'W')
			continue;
		if (!addr) {
			zeros++;
			continue;
		}
		if (ft_symtab_add(&k->st, addr, 0, name, strlen(name)))
			goto nomem;
	}
	fclose(f);
	k->hidden = !k->st.n && zeros;
	ft_symtab_sort(&k->st);
	/* kallsyms has no sizes: a symbol reaches to the next one, the last one to the end */
	for (i = 0; i < k->st.n; i++)
		k->st.sym[i].size = (i + 1 < k->st.n ? k->st.sym[i + 1].addr : UINT64_MAX) -
				    k->st.sym[i].addr;
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
	ft_symtab_free(&k->st);
	memset(k, 0, sizeof(*k));
}

/* ft_ksyms_name - the function holding @addr, or NULL */
const char *ft_ksyms_name(const struct ft_ksyms *k, uint64_t addr)
{
	return ft_symtab_find(&k->st, addr);
}
