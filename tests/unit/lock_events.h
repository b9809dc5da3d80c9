/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Hand-made lock:contention_begin/end records for the unit suites (lock, offcpu --locks):
 * their formats, and one record from a line of a test's table.
 */
#ifndef FTSCOPE_TESTS_UNIT_LOCK_EVENTS_H
#define FTSCOPE_TESTS_UNIT_LOCK_EVENTS_H

#include <stdint.h>
#include <string.h>

#include "events/decode.h"
#include "tests/unit/harness.h"

static const char *const lock_formats[] = {
	"name: contention_begin\nID: 408\nformat:\n" UT_COMMON
	"\tfield:void * lock_addr;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned int flags;\toffset:16;\tsize:4;\tsigned:0;\n\n"
	"print fmt: \"%p (flags=%x)\", REC->lock_addr, REC->flags\n",
	"name: contention_end\nID: 407\nformat:\n" UT_COMMON
	"\tfield:void * lock_addr;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:int ret;\toffset:16;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"%p (ret=%d)\", REC->lock_addr, REC->ret\n",
};

/* A record's kind: the two events' ids, lost events, a kernel stack; suites add their own below -2. */
enum { BEGIN = 408, END = 407, LOST = -1, KSTACK = -2 };

/* One record: event, CPU, time, task, lock address, flags (a stack: its one address). */
struct rec {
	int		id, cpu;
	uint64_t	ts;
	int		tid;
	uint64_t	addr;
	unsigned int	flags;
};

/* lock_event - record @p as the pipeline delivers it; a begin's or end's data in @b (24 bytes) */
static inline struct ft_event lock_event(const struct rec *p, unsigned char *b)
{
	struct ft_event ev = { .ts = p->ts, .cpu = p->cpu, .type = FT_EV_TP, .id = p->id,
			       .common_pid = p->tid, .data = b, .size = 20 };
	uint16_t type = p->id;

	if (p->id == LOST) {
		ev = (struct ft_event){ .ts = p->ts, .cpu = p->cpu, .type = FT_EV_LOST,
					.id = -1, .lost = 1 };
	} else if (p->id == KSTACK) {
		ev = (struct ft_event){ .ts = p->ts, .cpu = p->cpu, .type = FT_EV_KSTACK,
					.id = -1, .common_pid = p->tid };
		ev.stack = (struct ft_stack){ .n = 1, .word = 8,
					      .ip = (const unsigned char *)&p->addr };
	} else {
		memset(b, 0, 24);
		memcpy(b, &type, 2);
		memcpy(b + 4, &p->tid, 4);
		memcpy(b + 8, &p->addr, 8);
		memcpy(b + 16, &p->flags, 4);
	}
	return ev;
}

#endif
