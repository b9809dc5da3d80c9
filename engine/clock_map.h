/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The live merge's map from CLOCK_MONOTONIC, by which rounds are timed, to the
 * trace clock of the records (--clock).
 */
#ifndef FTSCOPE_CMD_CLOCK_MAP_H
#define FTSCOPE_CMD_CLOCK_MAP_H

#include <stdbool.h>
#include <stdint.h>

#include "events/merge.h"

/*
 * A live run's trace clock against CLOCK_MONOTONIC, by which rounds are timed. mono
 * is the same clock. Another (--clock perf, boot, local, ...) is learnt from what is
 * read: a record read when CLOCK_MONOTONIC says now was stamped before the trace
 * clock said so, so the largest (newest record - now) is at most the offset, and
 * times mapped with it are never ahead of the trace clock: the merge can only wait.
 */
struct ft_clock_map {
	bool	other;		/* not mono */
	bool	known;		/* a record has been read */
	int64_t	off;		/* trace clock - CLOCK_MONOTONIC, at most */
};

void ft_clock_learn(struct ft_clock_map *c, const struct ft_merge *m, uint64_t now);
uint64_t ft_clock_at(const struct ft_clock_map *c, uint64_t mono);

#endif
