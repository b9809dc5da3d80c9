/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Function probes for funclat and funccount: patterns resolved to functions
 * (kernel, user ELF symbols, system calls), the best method this kernel offers,
 * dynamic events named after the run (removed on every exit path), and the events
 * the decoder turns into FT_EV_FUNC records.
 */
#ifndef FTSCOPE_TRACER_PROBES_H
#define FTSCOPE_TRACER_PROBES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "events/funcs.h"
#include "events/tep.h"

struct ft_session;
struct ft_decoder;
struct tep_handle;
struct tracefs_dynevent;

/* The probes of a run, owned by the tracer. */
struct ft_probes {
	const struct ft_func_req *req;		/* the analyzer's: patterns, method, limit */
	struct ft_funcs		funcs;		/* filled by ft_probes_setup or ft_probes_load */
	struct ft_pev		*ev;		/* what the decoder must know */
	int			nev;
	char			group[64];	/* dynamic event system: ftscope_PID_RANDOM */
	struct tracefs_dynevent	**dyn;
	int			ndyn;
};

int ft_probes_setup(struct ft_probes *pr, struct ft_session *s, const int *pids, int npids,
		    bool follow);
int ft_probes_formats(struct ft_probes *pr, ft_format_read_fn rd, void *ctx,
		      struct tep_handle *tep, bool untrusted);
int ft_probes_decoder(struct ft_probes *pr, struct ft_decoder *d);
int ft_probes_user_fn(const char *spec, char *path, size_t len, uint64_t *off);
void ft_probes_close(struct ft_probes *pr);
void ft_probes_free(struct ft_probes *pr);

#endif
