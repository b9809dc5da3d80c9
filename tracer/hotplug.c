// SPDX-License-Identifier: GPL-2.0
/*
 * CPU hotplug during a run. The kernel announces a CPU going offline or coming back
 * by a uevent ("offline@/devices/system/cpu/cpuN", "online@...") on the kobject
 * netlink socket, which queues them until read: the reader drains it each round, so
 * a CPU away for less than a round is seen too. Only the kernel's own messages count
 * (sender port 0; a uevent written to a device's uevent file, which carries
 * SYNTH_UUID=, is not a change). When the socket overflows (ENOBUFS) the footer says
 * hotplug events may have been missed. Nothing else changes for the reader: the
 * per-CPU files stay open, the pages an offline CPU wrote before it went stay in its
 * buffer and are read on, and once the CPU is back its new events are read as before.
 * The footer names the CPUs that went.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/netlink.h>

#include "lib/util.h"
#include "tracer/hotplug.h"
#include "tracer/session_state.h"

#define CPU_DEVPATH	"/devices/system/cpu/cpu"
#define UEVENT_RCVBUF	(1 << 20)	/* bytes: some thousand uevents of a burst */

/* devpath_cpu - "N" after the CPU devpath, the header's end at @end: N, or -1 */
static int devpath_cpu(const char *p, const char *end, int ncpus)
{
	long cpu = 0;

	if (p >= end || *p < '0' || *p > '9')
		return -1;
	for (; p < end && *p >= '0' && *p <= '9'; p++) {
		cpu = cpu * 10 + (*p - '0');
		if (cpu >= ncpus)
			return -1;
	}
	return p == end ? (int)cpu : -1;
}

/**
 * ft_uevent_cpu - one kobject uevent message of @len bytes ("ACTION@DEVPATH", a NUL,
 * then NUL-separated KEY=VALUE): a CPU of @ncpus going offline or coming online, its
 * number in @cpu. A synthetic uevent (SYNTH_UUID=: written to a uevent file) is none.
 * Returns FT_UEVENT_OFFLINE, FT_UEVENT_ONLINE, or FT_UEVENT_NONE.
 */
int ft_uevent_cpu(const char *buf, size_t len, int ncpus, int *cpu)
{
	static const char off[] = "offline@" CPU_DEVPATH, on[] = "online@" CPU_DEVPATH;
	const char *hend = memchr(buf, 0, len), *end = buf + len, *p;
	int kind;

	if (!hend)
		return FT_UEVENT_NONE;
	if ((size_t)(hend - buf) > sizeof(off) - 1 && !memcmp(buf, off, sizeof(off) - 1)) {
		kind = FT_UEVENT_OFFLINE;
		*cpu = devpath_cpu(buf + sizeof(off) - 1, hend, ncpus);
	} else if ((size_t)(hend - buf) > sizeof(on) - 1 && !memcmp(buf, on, sizeof(on) - 1)) {
		kind = FT_UEVENT_ONLINE;
		*cpu = devpath_cpu(buf + sizeof(on) - 1, hend, ncpus);
	} else {
		return FT_UEVENT_NONE;
	}
	if (*cpu < 0)
		return FT_UEVENT_NONE;
	for (p = hend + 1; p < end; p += strnlen(p, end - p) + 1)
		if ((size_t)(end - p) >= 11 && !memcmp(p, "SYNTH_UUID=", 11))
			return FT_UEVENT_NONE;
	return kind;
}

/**
 * ft_hotplug_open - listen for CPUs going offline and online (best effort: without
 * the socket, as in a network namespace of its own, the run goes on unwatched)
 */
void ft_hotplug_open(struct ft_session *s)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK, .nl_groups = 1 };
	int fd, size = UEVENT_RCVBUF;

	fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
		    NETLINK_KOBJECT_UEVENT);
	if (fd < 0)
		return;
	/* root may pass rmem_max; else what it allows */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size)))
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
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
	char buf[8192];
	struct sockaddr_nl from;
	struct iovec iov = { .iov_base = buf, .iov_len = sizeof(buf) };
	struct msghdr msg = { .msg_name = &from, .msg_iov = &iov, .msg_iovlen = 1 };
	ssize_t n;
	int cpu;

	if (!s->uevent_fd)
		return;
	for (;;) {
		msg.msg_namelen = sizeof(from);
		n = recvmsg(s->uevent_fd - 1, &msg, 0);
		if (n < 0 && errno == ENOBUFS) {	/* the queue overflowed: some are gone */
			s->uevents_lost = true;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		/* the kernel's (port 0), whole; not udev's rebroadcast nor a process's */
		if (msg.msg_namelen != sizeof(from) || from.nl_pid || (msg.msg_flags & MSG_TRUNC))
			continue;
		switch (ft_uevent_cpu(buf, n, s->ncpus, &cpu)) {
		case FT_UEVENT_OFFLINE:
			s->offline[cpu]++;
			s->online_again[cpu] = false;
			break;
		case FT_UEVENT_ONLINE:
			if (s->offline[cpu])
				s->online_again[cpu] = true;
			break;
		}
	}
}

/* ft_hotplug_close - stop listening and free the counts (idempotent) */
void ft_hotplug_close(struct ft_session *s)
{
	if (s->uevent_fd)
		close(s->uevent_fd - 1);
	s->uevent_fd = 0;
	FT_FREE(s->offline);
	FT_FREE(s->online_again);
}
