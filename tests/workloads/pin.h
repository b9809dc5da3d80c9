/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pin.h - a workload thread named and kept on one CPU (fifowake, waits), so that the
 * names a test looks for and the CPU its waits happen on are the workload's own.
 */
#ifndef PIN_H
#define PIN_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <sched.h>
#include <stdio.h>
#include <sys/prctl.h>

/* pin - name the calling thread @name and keep it on @cpu */
static inline void pin(int cpu, const char *name)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		perror("sched_setaffinity");
	prctl(PR_SET_NAME, name);
}

#endif
