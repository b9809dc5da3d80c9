// SPDX-License-Identifier: GPL-2.0
/*
 * Traced commands and target processes.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "events/tep.h"
#include "lib/util.h"
#include "tracer/command.h"
#include "tracer/desc.h"

/* executable - a regular file we may execute */
static bool executable(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode) && !access(path, X_OK);
}

/**
 * ft_command_check - find cmd[0] as execvp would, before anything is set up
 * Returns 0, or -1 after printing one error line.
 */
int ft_command_check(char *const *cmd)
{
	const char *path = getenv("PATH");
	char buf[PATH_MAX];
	const char *p, *colon;

	if (strchr(cmd[0], '/')) {
		if (executable(cmd[0]))
			return 0;
		goto missing;
	}
	for (p = path ? path : "/usr/local/bin:/usr/bin:/bin"; p; p = colon ? colon + 1 : NULL) {
		size_t n;

		colon = strchr(p, ':');
		n = colon ? (size_t)(colon - p) : strlen(p);
		snprintf(buf, sizeof(buf), "%.*s/%s", (int)n, n ? p : ".", cmd[0]);
		if (executable(buf))
			return 0;
	}
missing:
	ft_err("cannot run '%s': command not found or not executable", cmd[0]);
	return -1;
}

/*
 * wait_blocked - wait (1 s at most) until the child sleeps on its go pipe: tracing
 * starts after, so its wait before the exec is not in the trace as the command's
 * time off the CPU (profile --offcpu counted it into the command's life)
 */
static void wait_blocked(int pid)
{
	char path[64], *text, *close_paren;
	int i;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	for (i = 0; i < 5000; i++) {
		text = ft_read_file(path, 4096, NULL);
		close_paren = text ? strrchr(text, ')') : NULL;
		if (!close_paren || close_paren[1] != ' ' || close_paren[2] != 'R') {
			free(text);
			return;		/* asleep (or gone) */
		}
		free(text);
		usleep(200);
	}
}

/**
 * ft_command_spawn - fork the command, held before exec until ft_command_release
 * Returns 0, or -1 after printing the error.
 */
int ft_command_spawn(struct ft_child *c, char *const *cmd)
{
	int go[2], err[2];
	char b;

	memset(c, 0, sizeof(*c));
	c->pid = -1;
	if (pipe2(go, O_CLOEXEC) || pipe2(err, O_CLOEXEC)) {
		ft_err("pipe: %s", strerror(errno));
		return -1;
	}
	c->pid = fork();
	if (c->pid < 0) {
		ft_err("fork: %s", strerror(errno));
		return -1;
	}
	if (!c->pid) {
		int e;

		close(go[1]);
		close(err[0]);
		if (read(go[0], &b, 1) != 1)
			_exit(127);	/* ftscope gave up before tracing started */
		execvp(cmd[0], cmd);
		e = errno;
		if (write(err[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(err[1]);
	c->go_fd = go[1];
	c->err_fd = err[0];
	wait_blocked(c->pid);
	return 0;
}

/**
 * ft_command_release - let the command exec; waits until exec succeeded or failed
 * Returns 0, or the exec errno.
 */
int ft_command_release(struct ft_child *c)
{
	int e = 0;
	ssize_t n;

	if (write(c->go_fd, "g", 1) != 1)
		return errno;
	close(c->go_fd);
	c->go_fd = -1;
	do {
		n = read(c->err_fd, &e, sizeof(e));
	} while (n < 0 && errno == EINTR);
	close(c->err_fd);
	c->err_fd = -1;
	if (n != sizeof(e))
		return 0;
	/* exec failed: the child is on its way out (_exit 127); reap it */
	while (wait4(c->pid, &c->status, 0, &c->ru) < 0 && errno == EINTR)
		;
	c->exited = true;
	return e;
}

/* ft_command_reap - true once the command has exited (status kept) */
bool ft_command_reap(struct ft_child *c)
{
	if (c->pid > 0 && !c->exited && wait4(c->pid, &c->status, WNOHANG, &c->ru) == c->pid)
		c->exited = true;
	return c->exited;
}

/* ft_command_kill - end a command we will not trace (error paths) */
void ft_command_kill(struct ft_child *c)
{
	if (c->go_fd > 0)
		close(c->go_fd);
	if (c->err_fd > 0)
		close(c->err_fd);
	c->go_fd = c->err_fd = -1;
	if (c->pid > 0 && !c->exited) {
		kill(c->pid, SIGKILL);
		while (waitpid(c->pid, &c->status, 0) < 0 && errno == EINTR)
			;
		c->exited = true;
	}
}

/**
 * ft_command_finish - the run ended (-d, interval count, a signal or an error) while
 * the released command still runs: end it, SIGTERM and then SIGKILL after
 * FT_COMMAND_GRACE_MS (the command itself: timeout(1) signals its process group), or
 * with @keep leave it running; either way say so on stderr. Nothing when it has
 * exited or never ran.
 */
void ft_command_finish(struct ft_child *c, char *const *cmd, bool keep)
{
	unsigned int waited = 0;
	bool killed = false;

	if (c->pid <= 0 || c->go_fd >= 0 || ft_command_reap(c))
		return;
	if (keep) {
		ft_err("'%s' (pid %d) runs on, untraced (--keep-command)", cmd[0], c->pid);
		return;
	}
	kill(c->pid, SIGTERM);
	while (!ft_command_reap(c) && waited < FT_COMMAND_GRACE_MS) {
		usleep(10000);
		waited += 10;
	}
	if (!c->exited) {
		killed = true;
		kill(c->pid, SIGKILL);
		while (wait4(c->pid, &c->status, 0, &c->ru) < 0 && errno == EINTR)
			;
		c->exited = true;
	}
	ft_err("the run ended before '%s' (pid %d): ended it with %s (--keep-command lets it "
	       "run on)", cmd[0], c->pid, killed ? "SIGTERM, then SIGKILL 2 s later" :
	       "SIGTERM");
}

/* ft_pid_alive - 1 when a process @pid exists, 0 when not */
int ft_pid_alive(int pid)
{
	return !kill(pid, 0) || errno == EPERM;
}

/* The kernel's PF_EXITING task flag, as /proc/PID/stat shows it. */
#define PF_EXITING_FLAG	0x4

/*
 * ft_pid_exiting - true when process @pid is gone or has begun to exit (PF_EXITING in
 * the flags of /proc/PID/stat): its mappings are being torn down, and a read of
 * /proc/PID/maps from then on may have stopped part way
 */
bool ft_pid_exiting(int pid)
{
	char path[64], *text, *p;
	unsigned long flags = 0;
	bool gone = true;
	int i;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	text = ft_read_file(path, 4096, NULL);
	/* after "(comm)": state ppid pgrp session tty_nr tpgid flags */
	p = text ? strrchr(text, ')') : NULL;
	for (i = 0; p && i < 7; i++)
		p = strchr(p + 1, ' ');
	if (p && sscanf(p, " %lu", &flags) == 1)
		gone = flags & PF_EXITING_FLAG;
	free(text);
	return gone;
}

/**
 * ft_pid_threads - every thread id of process @pid, from /proc/PID/task
 * Returns 0, or -1 when the process is gone.
 */
int ft_pid_threads(int pid, int **tids, int *n)
{
	char path[64];
	struct dirent *de;
	DIR *d;
	int *arr;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	d = opendir(path);
	if (!d)
		return -1;
	while ((de = readdir(d))) {
		int tid = atoi(de->d_name);

		if (tid <= 0)
			continue;
		arr = realloc(*tids, (*n + 1) * sizeof(**tids));
		if (!arr)
			break;
		*tids = arr;
		(*tids)[(*n)++] = tid;
	}
	closedir(d);
	return 0;
}

/* cgroup_dir - the directory of cgroup @path: absolute, or under /sys/fs/cgroup or a
 * hierarchy mounted there (perf -G names them so); 0, or -1 */
static int cgroup_dir(const char *path, char *dir, size_t len)
{
	static const char *const roots[] = { "/sys/fs/cgroup", "/sys/fs/cgroup/unified",
		"/sys/fs/cgroup/perf_event", "/sys/fs/cgroup/cpu", "/sys/fs/cgroup/systemd" };
	char procs[PATH_MAX + 16];
	size_t i;

	for (i = 0; i < (path[0] == '/' ? 1 : sizeof(roots) / sizeof(roots[0])); i++) {
		if (path[0] == '/')
			snprintf(dir, len, "%s", path);
		else
			snprintf(dir, len, "%s/%s", roots[i], path);
		snprintf(procs, sizeof(procs), "%s/cgroup.procs", dir);
		if (!access(procs, R_OK))
			return 0;
	}
	return -1;
}

/**
 * ft_cgroup_procs - the processes in cgroup @path (its cgroup.procs), into *@pids
 * Returns 0, or -1 after printing one line (no such cgroup, or it has none).
 */
int ft_cgroup_procs(const char *path, int **pids, int *n)
{
	char dir[PATH_MAX], file[PATH_MAX + 16];
	int pid, *arr;
	FILE *f;

	if (cgroup_dir(path, dir, sizeof(dir))) {
		ft_err("no cgroup '%s' (absolute, or under /sys/fs/cgroup or its hierarchies)", path);
		return -1;
	}
	snprintf(file, sizeof(file), "%s/cgroup.procs", dir);
	f = fopen(file, "r");
	while (f && fscanf(f, "%d", &pid) == 1) {
		arr = realloc(*pids, (*n + 1) * sizeof(**pids));
		if (!arr)
			break;
		*pids = arr;
		(*pids)[(*n)++] = pid;
	}
	if (f)
		fclose(f);
	if (!*n) {
		ft_err("cgroup %s has no processes", dir);
		return -1;
	}
	return 0;
}

/**
 * ft_targets - the tasks @d names, appended to *@pids: every thread of the
 * -p processes and of the --cgroup ones still alive, the -t threads, and the command
 * @child_pid (-1: none) unless -a asked for every task beside it (perf record -a -- CMD:
 * the command only bounds the run)
 * Returns 0, or -1 after printing one line.
 */
int ft_targets(const struct ft_trace_desc *d, int child_pid, int **pids, int *n)
{
	int i, *arr;

	if (d->all)
		child_pid = -1;

	for (i = 0; i < d->npids; i++)
		if (ft_pid_threads(d->pids[i], pids, n)) {
			ft_err("no process with pid %d", d->pids[i]);
			return -1;
		}
	for (i = 0; i < d->ncg; i++)
		ft_pid_threads(d->cg_pids[i], pids, n);	/* gone since: nothing to trace */
	if (d->ncg && !*n) {
		ft_err("the processes of cgroup %s have all exited", d->cgroup);
		return -1;
	}
	for (i = 0; i < d->ntids + (child_pid > 0); i++) {
		int tid = i < d->ntids ? d->tids[i] : child_pid;

		if (i < d->ntids && !ft_pid_alive(tid)) {
			ft_err("no thread with tid %d", tid);
			return -1;
		}
		arr = realloc(*pids, (*n + 1) * sizeof(**pids));
		if (!arr) {
			ft_err("out of memory");
			return -1;
		}
		*pids = arr;
		(*pids)[(*n)++] = tid;
	}
	return 0;
}
