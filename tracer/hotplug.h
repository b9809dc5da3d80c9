/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CPU hotplug during a run, from the kernel's uevents: which CPUs went offline and
 * came back, for the footer (tracer/hotplug.c).
 */
#ifndef FTSCOPE_TRACER_HOTPLUG_H
#define FTSCOPE_TRACER_HOTPLUG_H

#include <stddef.h>

struct ft_session;

/* ft_uevent_cpu's answers */
enum { FT_UEVENT_NONE, FT_UEVENT_OFFLINE, FT_UEVENT_ONLINE };

int ft_uevent_cpu(const char *buf, size_t len, int ncpus, int *cpu);
void ft_hotplug_open(struct ft_session *s);
void ft_hotplug_poll(struct ft_session *s);
void ft_hotplug_close(struct ft_session *s);

#endif
