/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Function probes for funclat: patterns resolved to functions
 * (kernel, user ELF symbols, system calls), the best method this kernel offers,
 * dynamic events named after the run (removed on every exit path), and the events
 * the decoder turns into FT_EV_FUNC records.
 */
#ifndef FTSCOPE_TRACER_PROBES_H
#define FTSCOPE_TRACER_PROBES_H

#include <stdbool.h>
#include <stdint.h>

#include "events/tep.h"

struct ft_session;
struct ft_decoder;
struct tep_handle;
struct tracefs_dynevent;

enum ft_fmethod {
	FT_FM_AUTO,
	FT_FM_GRAPH,		/* function_graph tracer in the instance */
	FT_FM_KPROBE,		/* kprobe + kretprobe */
	FT_FM_FUNCTION,		/* the function tracer in the instance: entries only (funccount) */
};

enum ft_fkind { FT_FK_KERNEL, FT_FK_USER, FT_FK_SYSCALL };

/* One function, resolved. */
struct ft_fn {
	char		name[192];	/* as reported: vfs_read, libc.so.6:malloc, syscall:read */
	enum ft_fkind	kind;
	uint64_t	addr;		/* kernel address (graph, function), ELF file offset (user) */
	char		*path;		/* user: the ELF file */
};

/* An event the run reads, and what its records are. */
struct ft_pev {
	char		sys[64], name[64];
	int		func;		/* index in fn; -1: by the record's ip */
	int		kind;		/* enum ft_fcall_kind */
};

struct ft_probes {
	/* set by the analyzer's options */
	char			**specs;	/* as given: vfs_read, c:malloc, /bin/x:f*, syscall:read */
	int			nspecs;
	enum ft_fmethod		method;
	unsigned int		limit;		/* refuse more functions than this */
	/* filled by ft_probes_setup */
	struct ft_fn		*fn;
	int			n;
	enum ft_fmethod		used;		/* for kernel functions */
	struct ft_pev		*ev;		/* what the decoder must know */
	int			nev;
	char			group[64];	/* dynamic event system: ftscope_PID_RANDOM */
	struct tracefs_dynevent	**dyn;
	int			ndyn;
};

int ft_probes_add_spec(struct ft_probes *pr, const char *spec);
int ft_probes_arg(struct ft_probes *pr, const char *arg);
int ft_probes_max(struct ft_probes *pr, const char *arg);
int ft_probes_setup(struct ft_probes *pr, struct ft_session *s, const int *pids, int npids,
		    bool follow);
int ft_probes_formats(struct ft_probes *pr, ft_format_read_fn rd, void *ctx,
		      struct tep_handle *tep, bool untrusted);
char *ft_probes_describe(const struct ft_probes *pr);
int ft_probes_load(struct ft_probes *pr, const char *text, const char *path);
int ft_probes_decoder(struct ft_probes *pr, struct ft_decoder *d);
int ft_probes_find(const struct ft_probes *pr, uint64_t ip);
const char *ft_fmethod_name(enum ft_fmethod m);
void ft_probes_close(struct ft_probes *pr);
void ft_probes_free(struct ft_probes *pr);

#endif
