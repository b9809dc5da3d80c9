/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The file mappings of sampled processes, from the kernel's MMAP2, COMM_EXEC and FORK
 * records (or /proc for a process already running), as trace-cmd's PROCMAPS text.
 * Each mapping keeps when it was made and when a later one replaced it (the records'
 * times), so that a sample is read against the mappings of its own moment.
 */
#ifndef FTSCOPE_TRACER_SAMPLE_MAPS_H
#define FTSCOPE_TRACER_SAMPLE_MAPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/tab.h"

/* A file mapping of a process, as the unwinder asks for it (ft_smaps_find). */
struct ft_smaps_hit {
	uint64_t	start, end, pgoff;	/* the mapping, and its offset in the file */
	const char	*path;		/* the file to open: NULL, the one mapped is gone */
};

/* What a MMAP2 record says of a mapping (dev, ino: 0 0 unknown). */
struct ft_smaps_rec {
	uint64_t	ts;		/* when (the trace's clock), 0 unknown */
	uint64_t	addr, len, pgoff;
	uint64_t	dev, ino;	/* the file mapped (st_dev, st_ino) */
	const char	*path;
};

struct smap_pin;

struct ft_smaps {
	struct ft_tab	procs;		/* pid -> its mappings */
	struct ft_tab	names;		/* tid -> its comm, as COMM records said */
	struct smap_pin	**pins;		/* mapped files held open (ft_smaps_find) */
	unsigned int	npins;
};

int ft_smaps_init(struct ft_smaps *m);
void ft_smaps_mmap(struct ft_smaps *m, int pid, const struct ft_smaps_rec *r);
void ft_smaps_exec(struct ft_smaps *m, int pid, const char *comm, uint64_t ts);
void ft_smaps_fork(struct ft_smaps *m, int pid, int ppid);
void ft_smaps_name(struct ft_smaps *m, int tid, const char *comm);
const char *ft_smaps_comm(const struct ft_smaps *m, int tid);
int ft_smaps_find(struct ft_smaps *m, int pid, uint64_t addr, uint64_t ts,
		  struct ft_smaps_hit *hit);
const char *ft_smaps_changed(struct ft_smaps *m, int pid, uint64_t ts, size_t *len);
void ft_smaps_each(struct ft_smaps *m, void (*fn)(void *ctx, int pid, const char *text),
		   void *ctx);
void ft_smaps_fini(struct ft_smaps *m);

#endif
