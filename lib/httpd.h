/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small HTTP/1.1 server inside a poll loop: it listens on [ADDR:]PORT, reads each
 * request, answers it through a callback and closes the connection. Nothing blocks:
 * the caller polls the fds it is given and hands the results back.
 */
#ifndef FTSCOPE_LIB_HTTPD_H
#define FTSCOPE_LIB_HTTPD_H

#include <poll.h>
#include <stddef.h>

struct ft_httpd;

/* An answer: status, content type and a malloc'ed body, which the server frees. */
struct ft_http_answer {
	int		status;		/* 200, 404, 405, ... */
	const char	*type;		/* Content-Type */
	char		*body;
	size_t		len;
};

/* the callback: the request's method, path and Accept header (NULL: none) */
typedef void (*ft_http_fn)(void *ctx, const char *method, const char *path,
			   const char *accept, struct ft_http_answer *a);

void ft_http_text(struct ft_http_answer *a, int status, const char *text);

/* ft_httpd_open - listen on @spec, "[ADDR:]PORT" (ADDR 127.0.0.1); NULL after one line */
struct ft_httpd *ft_httpd_open(const char *spec);
int ft_httpd_spec_check(const char *spec);
void ft_httpd_close(struct ft_httpd *h);
/* where the server waits: up to @max entries for the caller's poll(); their count */
int ft_httpd_pollfds(struct ft_httpd *h, struct pollfd *pfd, int max);
/* after poll(): accept, read, answer through @fn, write, as far as nothing blocks */
void ft_httpd_serve(struct ft_httpd *h, const struct pollfd *pfd, int n, ft_http_fn fn,
		    void *ctx);

#define FT_HTTPD_MAX_FDS	9	/* the listener and up to 8 connections */

#endif
