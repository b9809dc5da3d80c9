/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `-- command`: start a command held at the gate until tracing is on.
 */
#ifndef FTSCOPE_TRACER_COMMAND_H
#define FTSCOPE_TRACER_COMMAND_H

#include <stdbool.h>
#include <sys/resource.h>
#include <sys/types.h>

struct ft_trace_desc;

/* How long a command may take to exit on SIGTERM before SIGKILL, once the run ended. */
#define FT_COMMAND_GRACE_MS	2000

struct ft_child {
	pid_t	pid;
	int	go_fd;		/* write a byte: the child may exec */
	int	err_fd;		/* the child's exec errno, or EOF when exec worked */
	bool	exited;
	int	status;
	struct rusage ru;	/* its (and its waited-for children's) CPU time */
};

int ft_command_check(char *const *cmd);
int ft_command_spawn(struct ft_child *c, char *const *cmd);
int ft_command_release(struct ft_child *c);
bool ft_command_reap(struct ft_child *c);
void ft_command_kill(struct ft_child *c);
void ft_command_finish(struct ft_child *c, char *const *cmd, bool keep);
int ft_pid_alive(int pid);
bool ft_pid_exiting(int pid);
int ft_pid_threads(int pid, int **tids, int *n);
int ft_targets(const struct ft_trace_desc *d, int child_pid, int **pids, int *n);
int ft_cgroup_procs(const char *path, int **pids, int *n);

#endif
