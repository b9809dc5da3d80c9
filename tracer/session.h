/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A tracing session: one private tracefs instance per run, configured with tracing
 * off, removed on every exit path. Nothing outside the instance is written.
 */
#ifndef FTSCOPE_TRACER_SESSION_H
#define FTSCOPE_TRACER_SESSION_H

#include <stdbool.h>
#include <stddef.h>

#include "tracer/session_state.h"

struct ft_trace_desc;

/* Instance and dynamic-event names start with this, then "-PID-RANDOM". */
#define FT_INSTANCE_PREFIX	"ftscope"

int ft_tracefs_mount(void);
int ft_session_open(struct ft_session *s, const struct ft_trace_desc *d, unsigned int need,
		    unsigned int want, const int *pids, int npids, bool follow_fork);
int ft_session_start(struct ft_session *s);
void ft_session_stop(struct ft_session *s);
int ft_session_add_pid(struct ft_session *s, int pid);
int ft_session_event_on(struct ft_session *s, const char *system, const char *event);
void ft_session_close(struct ft_session *s);
char *ft_session_format_read(void *ctx, const char *system, const char *event, size_t *len);
int ft_session_enable(struct ft_session *s, const char *spec);
void ft_owned_name(char *buf, size_t len, char sep);
bool ft_session_has_event(struct ft_session *s, const char *system, const char *event);
int ft_session_map_probe(void);

#endif
