// SPDX-License-Identifier: GPL-2.0
/*
 * The analyzers ftscope knows: one line each.
 */
#include <string.h>

#include "analyzers/analyzer.h"

/* One line per analyzer: X(NAME) is `struct ft_analyzer ft_NAME`, in --help's order. */
#define ANALYZERS(X)	\
	X(runqlat)	\
	X(cpudist)	\
	X(timehist)	\
	X(latency)	\
	X(wakeup)	\
	X(offcpu)	\
	X(profile)	\
	X(funclat)	\
	X(funccount)	\
	X(hardirqs)	\
	X(softirqs)	\
	X(biolatency)	\
	X(lock)		\
	X(hist)

#define DECLARE(name)	extern const struct ft_analyzer ft_##name;
#define ENTRY(name)	&ft_##name,

ANALYZERS(DECLARE)

const struct ft_analyzer *const ft_analyzers[] = {
	ANALYZERS(ENTRY)
	NULL,
};

/* ft_analyzer_find - look an analyzer up by its command name */
const struct ft_analyzer *ft_analyzer_find(const char *name)
{
	int i;

	for (i = 0; ft_analyzers[i]; i++)
		if (!strcmp(ft_analyzers[i]->cli.name, name))
			return ft_analyzers[i];
	return NULL;
}
