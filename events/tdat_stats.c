// SPDX-License-Identifier: GPL-2.0
/*
 * The ring-buffer counters a trace.dat keeps (CPUSTAT options): the kernel's
 * per_cpu/cpuN/stats text of each CPU when the recording ended. ftscope writes one
 * per CPU in order; trace-cmd puts "CPU: N" first, and writes an instance's after a
 * "Buffer: NAME" text.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "events/tdat.h"

/* stat_line - the rest of the line that starts with "@name:" in @b, or NULL */
static const char *stat_line(struct ft_blob b, const char *name, size_t *len)
{
	size_t n = strlen(name), i = 0;

	while (i < b.len) {
		const char *line = b.data + i, *nl = memchr(line, '\n', b.len - i);
		size_t ll = nl ? (size_t)(nl - line) : b.len - i;

		if (ll > n && !memcmp(line, name, n) && line[n] == ':') {
			*len = ll - n - 1;
			return line + n + 1;
		}
		i += ll + 1;
	}
	return NULL;
}

/* stat_num - the number after "@name:" at the start of a line of @b; false without */
static bool stat_num(struct ft_blob b, const char *name, unsigned long long *v)
{
	char num[24] = { 0 };
	size_t len;
	const char *s = stat_line(b, name, &len);

	if (!s)
		return false;
	memcpy(num, s, len < sizeof(num) - 1 ? len : sizeof(num) - 1);
	*v = strtoull(num, NULL, 10);
	return true;
}

/* buffer_name - the NAME of a "Buffer: NAME" text that starts an instance's stats, or NULL */
static const char *buffer_name(struct ft_blob b, size_t *len)
{
	const char *s = stat_line(b, "Buffer", len);

	while (s && *len && *s == ' ') {
		s++;
		(*len)--;
	}
	return s;
}

/**
 * ft_tdat_lost - the events @cpu's ring buffer lost, by the file's CPUSTAT text:
 * overrun + commit overrun + dropped events, the counters a live run reports, of
 * the buffer the file is read from (the top one, or t->buffer)
 * Returns false when the file has no stats for @cpu.
 */
bool ft_tdat_lost(const struct ft_tdat *t, int cpu, unsigned long long *lost)
{
	static const char *const names[] = { "overrun", "commit overrun", "dropped events" };
	const char *want = t->buffer ? t->buffer : "";
	unsigned long long id, v;
	bool in = !*want;
	int i, k, nth = 0;
	size_t len;

	for (i = 0; i < t->ncpustat; i++) {
		struct ft_blob b = t->cpustat[i];
		const char *name = buffer_name(b, &len);

		if (name) {
			in = *want && len == strlen(want) && !memcmp(name, want, len);
			nth = 0;
			continue;
		}
		if (!in)
			continue;
		if (!stat_num(b, "CPU", &id))
			id = nth;
		nth++;
		if (id != (unsigned long long)cpu)
			continue;
		*lost = 0;
		for (k = 0; k < 3; k++)
			if (stat_num(b, names[k], &v))
				*lost = *lost + v < *lost ? ULLONG_MAX : *lost + v;
		return true;
	}
	return false;
}
