// SPDX-License-Identifier: GPL-2.0
/*
 * A small HTTP server in a poll loop (lib/httpd.h). One request per connection: read
 * until the end of its headers, answer, write as far as the socket takes it (POLLOUT
 * for the rest), close. A client that sends more than HTTPD_HDR_MAX bytes of headers,
 * or has not been answered HTTPD_STALL_NS after it connected, is dropped.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include "lib/httpd.h"
#include "lib/util.h"

#define HTTPD_CONNS	(FT_HTTPD_MAX_FDS - 1)
#define HTTPD_HDR_MAX	8192
#define HTTPD_STALL_NS	10000000000ULL	/* 10 s from connect to the last byte out */
/* an answer's status line and headers: status, reason, type, length */
#define HTTPD_HEAD	"HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n" \
			"Connection: close\r\n\r\n"

struct conn {
	int		fd;		/* -1: free */
	uint64_t	since;		/* connected at, ft_now_ns() */
	char		in[HTTPD_HDR_MAX + 1];
	size_t		inlen;
	char		*out;		/* the answer, once made */
	size_t		outlen, outoff;
};

struct ft_httpd {
	int		lfd;
	struct conn	c[HTTPD_CONNS];
	uint64_t	deaf_until;	/* accept failed for want of fds: not polled till then */
};

/* After accept fails for want of fds (EMFILE, ENFILE, ENOBUFS, ENOMEM), the listener
   stays readable: it is left out of the poll this long, or the loop would spin. */
#define HTTPD_DEAF_NS	100000000ULL

/* parse_spec - "[ADDR:]PORT", "[V6]:PORT": the address in @ss; 0, or -1 */
static int parse_spec(const char *spec, struct sockaddr_storage *ss, socklen_t *sl)
{
	struct sockaddr_in *s4 = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)ss;
	char host[64] = "127.0.0.1";
	const char *port = spec, *colon = strrchr(spec, ':');
	unsigned long v;
	char *end;

	memset(ss, 0, sizeof(*ss));
	if (spec[0] == '[') {
		const char *close = strchr(spec, ']');

		if (!close || close[1] != ':' || (size_t)(close - spec - 1) >= sizeof(host))
			return -1;
		snprintf(host, sizeof(host), "%.*s", (int)(close - spec - 1), spec + 1);
		port = close + 2;
	} else if (colon) {
		if ((size_t)(colon - spec) >= sizeof(host))
			return -1;
		snprintf(host, sizeof(host), "%.*s", (int)(colon - spec), spec);
		port = colon + 1;
	}
	if (*port < '0' || *port > '9')
		return -1;
	errno = 0;
	v = strtoul(port, &end, 10);
	if (errno || *end || v < 1 || v > 65535)
		return -1;
	if (spec[0] != '[' && inet_pton(AF_INET, host, &s4->sin_addr) == 1) {
		s4->sin_family = AF_INET;
		s4->sin_port = htons((uint16_t)v);
		*sl = sizeof(*s4);
		return 0;
	}
	if (spec[0] == '[' && inet_pton(AF_INET6, host, &s6->sin6_addr) == 1) {
		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons((uint16_t)v);
		*sl = sizeof(*s6);
		return 0;
	}
	return -1;
}

/* ft_httpd_spec_check - is @spec "[ADDR:]PORT"? 0, or -1 after one line */
int ft_httpd_spec_check(const char *spec)
{
	struct sockaddr_storage ss;
	socklen_t sl;

	if (!parse_spec(spec, &ss, &sl))
		return 0;
	ft_err("--prometheus %s: expected [ADDR:]PORT (ADDR an IPv4 address, or [IPv6]),"
	       " PORT 1-65535", spec);
	return -1;
}

/**
 * ft_httpd_open - listen on @spec, "[ADDR:]PORT" (ADDR 127.0.0.1) or "[V6]:PORT"
 * Returns the server, or NULL after one error line naming @spec.
 */
struct ft_httpd *ft_httpd_open(const char *spec)
{
	struct sockaddr_storage ss;
	struct ft_httpd *h;
	socklen_t sl;
	int one = 1, i;

	if (parse_spec(spec, &ss, &sl)) {
		ft_httpd_spec_check(spec);
		return NULL;
	}
	h = calloc(1, sizeof(*h));
	if (!h) {
		ft_err("out of memory");
		return NULL;
	}
	for (i = 0; i < HTTPD_CONNS; i++)
		h->c[i].fd = -1;
	h->lfd = socket(ss.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (h->lfd < 0 ||
	    setsockopt(h->lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(h->lfd, (struct sockaddr *)&ss, sl) || listen(h->lfd, 16)) {
		ft_err("--prometheus %s: %s", spec, strerror(errno));
		if (h->lfd >= 0)
			close(h->lfd);
		free(h);
		return NULL;
	}
	return h;
}

/* conn_drop - close a connection and free its slot */
static void conn_drop(struct conn *c)
{
	close(c->fd);
	free(c->out);
	c->fd = -1;
	c->out = NULL;
	c->inlen = c->outlen = c->outoff = 0;
}

/* ft_httpd_close - stop listening, drop every connection */
void ft_httpd_close(struct ft_httpd *h)
{
	int i;

	for (i = 0; i < HTTPD_CONNS; i++)
		if (h->c[i].fd >= 0)
			conn_drop(&h->c[i]);
	close(h->lfd);
	free(h);
}

/**
 * ft_httpd_pollfds - where the server waits: the listener while a slot is free, each
 * connection for input or for room to write
 * Returns the entries filled in @pfd (at most @max).
 */
int ft_httpd_pollfds(struct ft_httpd *h, struct pollfd *pfd, int max)
{
	int i, n = 0, used = 0;

	for (i = 0; i < HTTPD_CONNS && n < max; i++) {
		if (h->c[i].fd < 0)
			continue;
		used++;
		pfd[n++] = (struct pollfd){ .fd = h->c[i].fd,
					    .events = h->c[i].out ? POLLOUT : POLLIN };
	}
	if (used < HTTPD_CONNS && n < max && ft_now_ns() >= h->deaf_until)
		pfd[n++] = (struct pollfd){ .fd = h->lfd, .events = POLLIN };
	return n;
}

/* status_text - the reason phrase of @status */
static const char *status_text(int status)
{
	switch (status) {
	case 200: return "OK";
	case 400: return "Bad Request";
	case 404: return "Not Found";
	case 405: return "Method Not Allowed";
	default: return "Internal Server Error";
	}
}

/* ft_http_text - answer @status with the plain text @text (no body: out of memory) */
void ft_http_text(struct ft_http_answer *a, int status, const char *text)
{
	a->status = status;
	a->type = "text/plain; charset=utf-8";
	a->body = strdup(text);
	a->len = a->body ? strlen(a->body) : 0;
}

/* header - the value of header @name in the request's header lines, or NULL */
static const char *header(char *lines, const char *name)
{
	size_t nl = strlen(name);
	char *l, *save = NULL, *v;

	for (l = strtok_r(lines, "\r\n", &save); l; l = strtok_r(NULL, "\r\n", &save)) {
		if (strncasecmp(l, name, nl) || l[nl] != ':')
			continue;
		for (v = l + nl + 1; *v == ' ' || *v == '\t'; v++)
			;
		return v;
	}
	return NULL;
}

/* respond - the answer to a whole request in c->in, made through @fn; 0 or -1 */
static int respond(struct conn *c, ft_http_fn fn, void *ctx)
{
	struct ft_http_answer a = { .status = 400, .type = "text/plain; charset=utf-8" };
	char *method = c->in, *path = NULL, *ver = NULL, *rest, *q;
	const char *accept = NULL;
	int n, head = 0;

	rest = strpbrk(c->in, "\r\n");
	*rest++ = '\0';		/* the request line; the headers follow */
	path = strchr(method, ' ');
	if (path) {
		*path++ = '\0';
		ver = strchr(path, ' ');
	}
	if (ver && !strncmp(ver + 1, "HTTP/1.", 7) && *method && *path == '/') {
		*ver = '\0';
		q = strchr(path, '?');
		if (q)
			*q = '\0';
		accept = header(rest, "Accept");
		head = !strcmp(method, "HEAD");
		fn(ctx, method, path, accept, &a);
	} else {
		ft_http_text(&a, 400, "bad request\n");
	}
	n = snprintf(NULL, 0, HTTPD_HEAD, a.status, status_text(a.status), a.type, a.len);
	c->out = malloc(n + 1 + (head ? 0 : a.len));
	if (c->out) {
		snprintf(c->out, n + 1, HTTPD_HEAD, a.status, status_text(a.status), a.type, a.len);
		if (!head && a.len)
			memcpy(c->out + n, a.body, a.len);
		c->outlen = n + (head ? 0 : a.len);
	}
	free(a.body);
	return c->out ? 0 : -1;
}

/* conn_read - read what came; the request ends at an empty line. 1: whole, 0: more, -1 */
static int conn_read(struct conn *c)
{
	ssize_t r;

	for (;;) {
		if (c->inlen == HTTPD_HDR_MAX)
			return -1;	/* headers too long */
		r = recv(c->fd, c->in + c->inlen, HTTPD_HDR_MAX - c->inlen, 0);
		if (r < 0)
			return errno == EAGAIN || errno == EINTR ? 0 : -1;
		if (r == 0)
			return -1;	/* closed before the end of its headers */
		c->inlen += r;
		c->in[c->inlen] = '\0';
		if (strstr(c->in, "\r\n\r\n") || strstr(c->in, "\n\n"))
			return 1;
	}
}

/* conn_write - write what the socket takes. 1: all written, 0: more, -1: failed */
static int conn_write(struct conn *c)
{
	ssize_t r;

	while (c->outoff < c->outlen) {
		r = send(c->fd, c->out + c->outoff, c->outlen - c->outoff, MSG_NOSIGNAL);
		if (r < 0)
			return errno == EAGAIN || errno == EINTR ? 0 : -1;
		c->outoff += r;
	}
	return 1;
}

/* conn_step - a connection as far as it goes without blocking: answered, closed */
static void conn_step(struct conn *c, ft_http_fn fn, void *ctx, uint64_t now)
{
	int r = 1;

	if (!c->out) {
		r = conn_read(c);
		if (r > 0 && respond(c, fn, ctx))
			r = -1;
	}
	if (r > 0)
		r = conn_write(c);
	if (r > 0)
		shutdown(c->fd, SHUT_WR);
	if (r || now - c->since > HTTPD_STALL_NS)
		conn_drop(c);
}

/* conn_accept - take the connections waiting, while slots are free */
static void conn_accept(struct ft_httpd *h, uint64_t now)
{
	int i, fd;

	for (i = 0; i < HTTPD_CONNS; i++) {
		if (h->c[i].fd >= 0)
			continue;
		fd = accept4(h->lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0) {
			if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS ||
			    errno == ENOMEM)
				h->deaf_until = now + HTTPD_DEAF_NS;
			return;
		}
		h->c[i].fd = fd;
		h->c[i].since = now;
	}
}

/**
 * ft_httpd_serve - after poll(): accept, read, answer through @fn, write, as far as
 * nothing blocks. Every connection is tried (each call is non-blocking), so
 * @pfd's results only say a round is worth it.
 */
void ft_httpd_serve(struct ft_httpd *h, const struct pollfd *pfd, int n, ft_http_fn fn,
		    void *ctx)
{
	uint64_t now = ft_now_ns();
	int i;

	(void)pfd;
	(void)n;
	if (now >= h->deaf_until)
		conn_accept(h, now);
	for (i = 0; i < HTTPD_CONNS; i++)
		if (h->c[i].fd >= 0)
			conn_step(&h->c[i], fn, ctx, now);
}
