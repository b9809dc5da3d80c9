/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The file mappings of sampled processes, from the kernel's MMAP2, COMM_EXEC and FORK
 * records (or /proc for a process already running), as trace-cmd's PROCMAPS text.
 */
#ifndef FTSCOPE_TRACER_SAMPLE_MAPS_H
#define FTSCOPE_TRACER_SAMPLE_MAPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/tab.h"

/* A file mapping of a process, as the unwinder asks for it (ft_smaps_find). */
struct ft_smaps_hit {
	uint64_t	base, end;	/* where the file's offset 0 would be, and its end */
	const char	*path;		/* the file, as the process names it */
	bool		own_root;	/* the process sees our root: @path is ours too */
};

struct ft_smaps {
	struct ft_tab	procs;		/* pid -> its mappings */
	struct ft_tab	names;		/* tid -> its comm, as COMM records said */
};

int ft_smaps_init(struct ft_smaps *m);
void ft_smaps_mmap(struct ft_smaps *m, int pid, uint64_t addr, uint64_t len, uint64_t pgoff,
		   const char *path);
void ft_smaps_exec(struct ft_smaps *m, int pid, const char *comm);
void ft_smaps_fork(struct ft_smaps *m, int pid, int ppid);
void ft_smaps_name(struct ft_smaps *m, int tid, const char *comm);
const char *ft_smaps_comm(const struct ft_smaps *m, int tid);
int ft_smaps_find(struct ft_smaps *m, int pid, uint64_t addr, struct ft_smaps_hit *hit);
const char *ft_smaps_changed(struct ft_smaps *m, int pid, size_t *len);
void ft_smaps_each(struct ft_smaps *m, void (*fn)(void *ctx, int pid, const char *text),
		   void *ctx);
void ft_smaps_fini(struct ft_smaps *m);

#endif
