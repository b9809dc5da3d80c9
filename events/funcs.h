/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Functions to probe, as an analyzer asks for them (patterns from its command line,
 * a method, a limit), and as they were resolved (by the tracer live, or from a
 * trace.dat's VERSION text): the table analyzers name their FT_EV_FUNC records by.
 */
#ifndef FTSCOPE_EVENTS_FUNCS_H
#define FTSCOPE_EVENTS_FUNCS_H

#include <stdint.h>

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

/* What an analyzer asks for: filled by its options, read by the tracer. */
struct ft_func_req {
	char			**specs;	/* as given: vfs_read, c:malloc, /bin/x:f*, syscall:read */
	int			nspecs;
	enum ft_fmethod		method;
	unsigned int		limit;		/* refuse more functions than this (0: 256) */
};

/* What was resolved: the functions, in the order their records name them. */
struct ft_funcs {
	struct ft_fn		*fn;
	int			n;
	enum ft_fmethod		used;		/* for kernel functions */
};

/* An event the run reads, and what its records are. */
struct ft_pev {
	char		sys[64], name[64];
	int		func;		/* index in fn; -1: by the record's ip */
	int		kind;		/* enum ft_fcall_kind */
};

int ft_func_req_arg(struct ft_func_req *r, const char *arg);
int ft_func_req_max(struct ft_func_req *r, const char *arg);
void ft_func_req_free(struct ft_func_req *r);
int ft_funcs_find(const struct ft_funcs *f, uint64_t ip);
void ft_funcs_free(struct ft_funcs *f);
const char *ft_fmethod_name(enum ft_fmethod m);

#endif
