/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Symbols for stack addresses.
 *
 * Kernel: /proc/kallsyms, sorted once. User: a process's executable mappings are
 * read from /proc/PID/maps when the process is first seen (it may exit before the
 * report), and each address is turned at once into (file, file offset); names come
 * later from the file's ELF symbols (.symtab, else a debug file found by build ID or
 * .gnu_debuglink, else .dynsym: elfsyms.c), one cache per file; the vDSO is "[vdso]".
 * Addresses in anonymous memory resolve through /tmp/perf-PID.map when a JIT
 * wrote one. An address of a file no symbol covers is "FILE+0xADDR" (its ELF
 * virtual address, as nm, objdump and addr2line -e FILE take it); what cannot be
 * resolved at all is "[unknown]".
 */
#ifndef FTSCOPE_EVENTS_SYMS_H
#define FTSCOPE_EVENTS_SYMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "events/elfseg.h"
#include "lib/intern.h"
#include "lib/tab.h"

struct ft_sym {
	uint64_t	addr, size;
	uint32_t	name;		/* offset in names */
};

/* Symbols sorted by address, for kallsyms, ELF files and perf maps alike. */
struct ft_symtab {
	struct ft_sym	*sym;
	size_t		n, cap;
	struct ft_names	names;
};

int ft_symtab_add(struct ft_symtab *st, uint64_t addr, uint64_t size, const char *name,
		  size_t len);
void ft_symtab_sort(struct ft_symtab *st);
const char *ft_symtab_find(const struct ft_symtab *st, uint64_t addr);
void ft_symtab_free(struct ft_symtab *st);

struct ft_ksyms {
	struct ft_symtab st;		/* each symbol reaches to the next */
	bool		loaded;
	bool		hidden;		/* kallsyms shows zeros (kptr_restrict) */
};

typedef int (*ft_kallsyms_cb)(void *ctx, uint64_t addr, char type, const char *name, bool module);
int ft_kallsyms_each(const char *path, ft_kallsyms_cb cb, void *ctx);
int ft_ksyms_load(struct ft_ksyms *k, const char *path);
void ft_ksyms_fini(struct ft_ksyms *k);
const char *ft_ksyms_name(const struct ft_ksyms *k, uint64_t addr);

/* A user frame: the file (index + 1) and the offset in it, or 0 and the raw address. */
#define FT_UFRAME(file, off)	(((uint64_t)(file) << 48) | ((off) & ((1ULL << 48) - 1)))
#define FT_UFRAME_FILE(f)	((unsigned int)((f) >> 48))
#define FT_UFRAME_OFF(f)	((f) & ((1ULL << 48) - 1))
/* The marker of a CFI walk that stopped short (why: enum ft_unwind_end), after its
 * frames: a file index no file has, named by ft_usyms_name as "[unwind stopped: ...]". */
#define FT_UFRAME_MARKS		0xffffu
#define FT_UFRAME_MARK(why)	FT_UFRAME(FT_UFRAME_MARKS, (why))
#define FT_UFRAME_IS_MARK(f)	(FT_UFRAME_FILE(f) == FT_UFRAME_MARKS)

struct ft_umap {
	uint64_t	start, end, pgoff;
	unsigned int	file;		/* index + 1 in ft_usyms.files */
};

struct ft_ufile;

struct ft_usyms {
	struct ft_tab	procs;		/* tgid -> maps */
	struct ft_intern paths;		/* file path -> index in files */
	struct ft_ufile	**files;
	unsigned int	nfiles;
	struct ft_intern unnamed;	/* frames no symbol covers -> their "FILE+0xADDR" */
	char		**unnamed_text;
	uint32_t	unnamed_cap;
	bool		live;		/* may read /proc */
	unsigned int	npins;		/* files held open */
	unsigned long long stale;	/* maps re-read because an address was not mapped */
};

int ft_usyms_init(struct ft_usyms *u, bool live);
void ft_usyms_fini(struct ft_usyms *u);
int ft_usyms_note(struct ft_usyms *u, int tgid);
int ft_usyms_add_maps(struct ft_usyms *u, const char *text, size_t len);
/* A mapping of a PROCMAPS text: the file's @pgoff at [@start, @end); dev, ino 0 unknown. */
struct ft_procmap {
	uint64_t	start, end, pgoff, dev, ino;
	const char	*path;
};

typedef void (*ft_procmap_fn)(void *ctx, int pid, const struct ft_procmap *m);
int ft_procmaps_each(const char *text, size_t len, char *comm, ft_procmap_fn fn, void *ctx);
bool ft_usyms_known(const struct ft_usyms *u, int tgid);
int ft_map_file_open(int pid, uint64_t end, uint64_t dev, uint64_t ino);
int ft_usyms_frames(struct ft_usyms *u, int tgid, const uint64_t *ip, int n, uint64_t *out);
const char *ft_usyms_name(struct ft_usyms *u, int tgid, uint64_t frame);
const char *ft_usyms_symbol(struct ft_usyms *u, int tgid, uint64_t frame);
const char *ft_usyms_path(const struct ft_usyms *u, uint64_t frame);
int ft_usyms_map_of(const struct ft_usyms *u, int tgid, uint64_t frame, struct ft_umap *m);
const char *ft_usyms_build_id(struct ft_usyms *u, uint64_t frame);
int ft_kernel_build_id(char *hex, size_t len);
size_t ft_note_build_id(const unsigned char *buf, size_t n, size_t align, unsigned char *id,
			size_t len);

typedef struct Elf Elf;
typedef int (*ft_elf_func_cb)(void *ctx, const char *name, uint64_t value, uint64_t size);
void ft_elf_funcs(Elf *elf, unsigned int type, ft_elf_func_cb cb, void *ctx);
size_t ft_elf_build_id(Elf *elf, unsigned char *id, size_t len);

/* Where a file's function symbols came from (elfsyms.c). */
enum ft_sym_src {
	FT_SYMS_NONE,
	FT_SYMS_SYMTAB,		/* its own .symtab */
	FT_SYMS_BUILD_ID,	/* /usr/lib/debug/.build-id/NN/REST.debug */
	FT_SYMS_DEBUGLINK,	/* the file .gnu_debuglink names */
	FT_SYMS_DYNSYM,		/* its exported ones alone */
};

enum ft_sym_src ft_usyms_source(struct ft_usyms *u, uint64_t frame);
enum ft_sym_src ft_elf_symbols(const char *path, const char *open_at, struct ft_symtab *st,
			       struct ft_useg *seg, int max, int *nseg);

#endif
