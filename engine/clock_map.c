// SPDX-License-Identifier: GPL-2.0
/*
 * The live merge's clock map (engine/clock_map.h).
 */
#include "engine/clock_map.h"

/* ft_clock_learn - after a round: every CPU's newest record was stamped before @now */
void ft_clock_learn(struct ft_clock_map *c, const struct ft_merge *m, uint64_t now)
{
	int i;

	for (i = 0; c->other && i < m->ncpus; i++) {
		int64_t d = (int64_t)(m->cpu[i].newest - now);

		if (m->cpu[i].newest && (!c->known || d > c->off)) {
			c->off = d;
			c->known = true;
		}
	}
}

/* ft_clock_at - the trace clock at CLOCK_MONOTONIC time @mono, never ahead of it (0: unknown) */
uint64_t ft_clock_at(const struct ft_clock_map *c, uint64_t mono)
{
	int64_t t;

	if (!c->other)
		return mono;
	if (!c->known)
		return 0;
	t = (int64_t)mono + c->off;
	return t > 0 ? (uint64_t)t : 0;
}
