// SPDX-License-Identifier: GPL-2.0
/*
 * CPU hotplug during a run. The kernel announces a CPU going offline or coming back
 * by a uevent ("offline@/devices/system/cpu/cpuN", "online@...") on the kobject
 * netlink socket, which queues them until read: the reader drains it each round, so
 * a CPU away for less than a round is seen too. Nothing else changes for the reader:
 * the ring buffer of an offline CPU keeps its pages and is read on, and once the CPU
 * is back its new events are read as before. The footer names the CPUs that went.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/netlink.h>

#include "tracer/session.h"

#define CPU_DEVPATH	"/devices/system/cpu/cpu"

/**
 * ft_hotplug_open - listen for CPUs going offline and online (best effort: without
 * the socket, as in a network namespace of its own, the run goes on unwatched)
 */
void ft_hotplug_open(struct ft_session *s)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK, .nl_groups = 1 };
	int fd;

	fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
		    NETLINK_KOBJECT_UEVENT);
	if (fd < 0)
		return;
	s->offline = calloc(s->ncpus, sizeof(*s->offline));
	s->online_again = calloc(s->ncpus, sizeof(*s->online_again));
	if (!s->offline || !s->online_again ||
	    bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		close(fd);
		ft_hotplug_close(s);
		return;
	}
	s->uevent_fd = fd + 1;
}

/* ft_hotplug_poll - take the uevents queued since the last round; counts CPUs gone */
void ft_hotplug_poll(struct ft_session *s)
{
	static const char off[] = "offline@" CPU_DEVPATH, on[] = "online@" CPU_DEVPATH;
	char buf[2048], *end;
	ssize_t n;
	long cpu;

	if (!s->uevent_fd)
		return;
	while ((n = recv(s->uevent_fd - 1, buf, sizeof(buf) - 1, 0)) > 0) {
		buf[n] = 0;
		if (!strncmp(buf, off, sizeof(off) - 1)) {
			cpu = strtol(buf + sizeof(off) - 1, &end, 10);
			if (!*end && cpu >= 0 && cpu < s->ncpus) {
				s->offline[cpu]++;
				s->online_again[cpu] = false;
			}
		} else if (!strncmp(buf, on, sizeof(on) - 1)) {
			cpu = strtol(buf + sizeof(on) - 1, &end, 10);
			if (!*end && cpu >= 0 && cpu < s->ncpus && s->offline[cpu])
				s->online_again[cpu] = true;
		}
	}
}

/* ft_hotplug_close - stop listening and free the counts (idempotent) */
void ft_hotplug_close(struct ft_session *s)
{
	if (s->uevent_fd)
		close(s->uevent_fd - 1);
	s->uevent_fd = 0;
	free(s->offline);
	free(s->online_again);
	s->offline = NULL;
	s->online_again = NULL;
}
