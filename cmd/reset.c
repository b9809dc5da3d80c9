// SPDX-License-Identifier: GPL-2.0
/*
 * `ftscope reset`: remove the instances and dynamic events that ftscope runs left
 * behind when they were killed. Only names of the form ftscope-PID-RANDOM (or
 * ftscope_PID_RANDOM for event groups) whose PID is no longer an ftscope process.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracefs/tracefs.h>

#include "cmd/commands.h"
#include "events/tep.h"
#include "lib/util.h"
#include "tracer/command.h"
#include "tracer/session.h"

/* owner_pid - the PID in an ftscope name (sep '-' or '_'), -1 when not one of ours */
static int owner_pid(const char *name, char sep)
{
	size_t n = strlen(FT_INSTANCE_PREFIX);
	char *end;
	long pid;

	if (strncmp(name, FT_INSTANCE_PREFIX, n) || name[n] != sep)
		return -1;
	pid = strtol(name + n + 1, &end, 10);
	if (end == name + n + 1 || *end != sep || pid <= 0 || strspn(end + 1, "0123456789abcdef")
	    != strlen(end + 1) || !end[1])
		return -1;
	return (int)pid;
}

/* owner_alive - whether @pid is a running ftscope (pids are reused) */
static bool owner_alive(int pid)
{
	char path[64], *comm;
	bool ours;

	if (!ft_pid_alive(pid))
		return false;
	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	comm = ft_read_file(path, 64, NULL);
	ours = comm && !strncmp(comm, "ftscope", 7);
	free(comm);
	return ours;
}

/* reset_instances - destroy leftover instances; returns how many, or -1 */
static int reset_instances(void)
{
	char **list = tracefs_instances(NULL);
	int i, n = 0, pid;

	for (i = 0; list && list[i]; i++) {
		struct tracefs_instance *inst;

		pid = owner_pid(list[i], '-');
		if (pid < 0 || owner_alive(pid))
			continue;
		inst = tracefs_instance_alloc(NULL, list[i]);
		if (!inst || tracefs_instance_destroy(inst)) {
			ft_err("cannot remove instance %s: %s", list[i], strerror(errno));
			tracefs_instance_free(inst);
			n = -1;
			break;
		}
		tracefs_instance_free(inst);
		printf("removed instance %s (pid %d is gone)\n", list[i], pid);
		n++;
	}
	tracefs_list_free(list);
	return n;
}

/* seen - was "system/event" met before in @names (then true), else remember it */
static bool seen(char ***names, int *n, const char *system, const char *event)
{
	char *name, **nn;
	int i;

	if (asprintf(&name, "%s/%s", system, event) < 0)
		return false;
	for (i = 0; i < *n; i++)
		if (!strcmp((*names)[i], name)) {
			free(name);
			return true;
		}
	nn = realloc(*names, (*n + 1) * sizeof(*nn));
	if (!nn) {
		free(name);
		return false;
	}
	nn[(*n)++] = name;
	*names = nn;
	return false;
}

/*
 * reset_dynevents - destroy leftover kprobe/uprobe events; returns how many, or -1.
 * libtracefs lists a probe once from dynamic_events and again from uprobe_events
 * (or kprobe_events): each is removed once.
 */
static int reset_dynevents(void)
{
	struct tracefs_dynevent **all = tracefs_dynevent_get_all(TRACEFS_DYNEVENT_ALL, NULL);
	char **names = NULL;
	int i, n = 0, nnames = 0, pid;

	for (i = 0; all && all[i]; i++) {
		char *system = NULL, *event = NULL;

		tracefs_dynevent_info(all[i], &system, &event, NULL, NULL, NULL);
		pid = system ? owner_pid(system, '_') : -1;
		if (pid > 0 && !owner_alive(pid) && !seen(&names, &nnames, system, event ? event : "")) {
			if (tracefs_dynevent_destroy(all[i], true)) {
				ft_err("cannot remove event %s/%s: %s", system, event, strerror(errno));
				n = -1;
			} else {
				printf("removed event %s/%s (pid %d is gone)\n", system, event, pid);
				if (n >= 0)
					n++;
			}
		}
		free(system);
		free(event);
	}
	for (i = 0; i < nnames; i++)
		free(names[i]);
	free(names);
	tracefs_dynevent_list_free(all);
	return n;
}

/**
 * ft_cmd_reset - remove what dead ftscope runs left behind, and only that
 * Returns the exit status.
 */
int ft_cmd_reset(int argc, char **argv)
{
	int a, b;

	ft_set_prog("ftscope reset");
	a = ft_no_args(argc, argv, "Usage: ftscope reset\n\nRemove tracefs instances and dynamic "
		       "events left by ftscope runs that were killed\n(their owner pid is gone). "
		       "Instances and probes of anyone else are never touched.\n\nEXAMPLES:\n"
		       "  ftscope reset\n");
	if (a >= 0)
		return a;
	if (geteuid() != 0) {
		ft_err("needs root (tracefs and its instances belong to root)");
		return FT_EXIT_ERR;
	}
	if (ft_tracefs_mount())
		return FT_EXIT_ERR;
	a = reset_instances();
	b = reset_dynevents();
	if (a < 0 || b < 0)
		return FT_EXIT_ERR;
	if (!a && !b)
		puts("nothing to reset");
	return FT_EXIT_OK;
}
