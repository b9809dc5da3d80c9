/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tracepoints a run's analyzers read by name: enabling, formats, resolution.
 */
#ifndef FTSCOPE_CMD_TPS_H
#define FTSCOPE_CMD_TPS_H

#include <stdbool.h>

#include "events/tep.h"
#include "events/tp.h"

struct ft_decoder;
struct ft_session;

int ft_tps_check(const struct ft_tp *tps);
int ft_tps_formats(const struct ft_tp *tps, struct tep_handle *tep, ft_format_read_fn rd,
		   void *ctx, unsigned int flags);
int ft_tps_resolve(struct ft_tp *tps, const char *who, struct tep_handle *tep,
		   struct ft_decoder *dec, bool live);
int ft_tps_enable(const struct ft_tp *tps, const char *who, struct ft_session *s);

#endif
