// SPDX-License-Identifier: GPL-2.0
/*
 * The analyzers ftscope knows: one line each.
 */
#include <string.h>

#include "analyzers/analyzer.h"

extern const struct ft_analyzer ft_runqlat, ft_timehist, ft_latency,
				 ft_wakeup, ft_offcpu, ft_funclat, ft_funccount, ft_hist,
				 ft_record, ft_report;

const struct ft_analyzer *const ft_analyzers[] = {
	&ft_runqlat,
	&ft_timehist,
	&ft_latency,
	&ft_wakeup,
	&ft_offcpu,
	&ft_funclat,
	&ft_funccount,
	&ft_hist,
	&ft_record,
	&ft_report,
	NULL,
};

/* ft_analyzer_find - look an analyzer up by its command name */
const struct ft_analyzer *ft_analyzer_find(const char *name)
{
	int i;

	for (i = 0; ft_analyzers[i]; i++)
		if (!strcmp(ft_analyzers[i]->name, name))
			return ft_analyzers[i];
	return NULL;
}
