// SPDX-License-Identifier: GPL-2.0
/*
 * A small HTTP server in a poll loop (lib/httpd.h). A stub until the exporter lands.
 */
#include <stddef.h>

#include "lib/httpd.h"
#include "lib/util.h"

/* ft_httpd_open - listen (stub: refused) */
struct ft_httpd *ft_httpd_open(const char *spec)
{
	ft_err("--prometheus %s: not built yet", spec);
	return NULL;
}

/* ft_httpd_close - stop */
void ft_httpd_close(struct ft_httpd *h)
{
	(void)h;
}

/* ft_httpd_pollfds - the fds to poll */
int ft_httpd_pollfds(struct ft_httpd *h, struct pollfd *pfd, int max)
{
	(void)h; (void)pfd; (void)max;
	return 0;
}

/* ft_httpd_serve - answer what came */
void ft_httpd_serve(struct ft_httpd *h, const struct pollfd *pfd, int n, ft_http_fn fn,
		    void *ctx)
{
	(void)h; (void)pfd; (void)n; (void)fn; (void)ctx;
}
