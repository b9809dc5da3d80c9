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
#include "lib/util.h"

/**
 * ft_kallsyms_each - call @cb for every "address type name [module]" line of @path;
 * @cb returns an errno value to stop
 * Returns 0, the callback's errno value, or -1 with errno when @path cannot be read.
 */
int ft_kallsyms_each(const char *path, ft_kallsyms_cb cb, void *ctx)
{
	char line[512], name[256], type;
	unsigned long long addr;
	FILE *f = fopen(path, "re");
	int ret = 0;

	if (!f)
		return -1;
	while (!ret && fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) == 3)
			ret = cb(ctx, addr, type, name, strchr(line, '[') != NULL);
	fclose(f);
	return ret;
}

struct ksyms_load {
	struct ft_ksyms	*k;
	size_t		zeros;
};

/* add_text - ft_kallsyms_each callback keeping text symbols with an address */
static int add_text(void *ctx, uint64_t addr, char type, const char *name, bool module)
{
	struct ksyms_load *l = ctx;

	if (type != 't' && type != 'T' && type != 'w' && type != 'W')
		return 0;
	if (!addr) {
		l->zeros++;
		return 0;
	}
	return ft_symtab_add(&l->k->st, addr, 0, name, strlen(name)) ? ENOMEM : 0;
}

/**
 * ft_ksyms_load - read the text symbols of @path (/proc/kallsyms)
 * Returns 0 (k->hidden set when every address reads as zero), or -1 with errno.
 */
int ft_ksyms_load(struct ft_ksyms *k, const char *path)
{
	struct ksyms_load l = { .k = k };
	size_t i;
	int ret;

	memset(k, 0, sizeof(*k));
	ret = ft_kallsyms_each(path, add_text, &l);
	if (ret) {
		ft_ksyms_fini(k);
		if (ret > 0)
			errno = ret;
		return -1;
	}
	k->hidden = !k->st.n && l.zeros;
	ft_symtab_sort(&k->st);
	/* kallsyms has no sizes: a symbol reaches to the next one, the last one to the end */
	for (i = 0; i < k->st.n; i++)
		k->st.sym[i].size = (i + 1 < k->st.n ? k->st.sym[i + 1].addr : UINT64_MAX) -
				    k->st.sym[i].addr;
	k->loaded = true;
	return 0;
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

/**
 * ft_kernel_build_id - the running kernel's GNU build ID, in hex, from the notes it
 * exports in /sys/kernel/notes (Elf_Nhdr, name and desc each padded to 4 bytes)
 * Returns 0, or -1 when there is none (@hex is "" then).
 */
int ft_kernel_build_id(char *hex, size_t len)
{
	unsigned char buf[4096], id[64];
	size_t n;
	FILE *f = fopen("/sys/kernel/notes", "re");

	hex[0] = 0;
	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	n = ft_note_build_id(buf, n, 4, id, sizeof(id));
	if (!n || 2 * n >= len)
		return -1;
	ft_hex(hex, id, n);
	return 0;
}
