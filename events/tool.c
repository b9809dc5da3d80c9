// SPDX-License-Identifier: GPL-2.0
/*
 * ftscope's VERSION text in a trace.dat (events/tool.h): written at the end of a
 * recording, read back by every `-i FILE`. A recording of funclat keeps which
 * function each probe event belongs to, so that `funclat -i FILE PATTERN...` reads
 * the records as the live run did; a pid-filtered one, which tasks the kernel
 * recorded, so that offline analysis knows them exactly as the live run did.
 */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events/decode.h"
#include "events/tool.h"
#include "lib/util.h"

#define FTSCOPE_VERSION_LINE	"ftscope " FTSCOPE_VERSION

static const char kind_letter[] = { [FT_FK_KERNEL] = 'k', [FT_FK_USER] = 'u',
				    [FT_FK_SYSCALL] = 's' };

/* cpus_line - "cpus 0,2-3": the CPUs of @on (-C), when given */
static void cpus_line(FILE *f, const bool *on, int ncpus)
{
	const char *sep = "";
	int a, b;

	if (!on)
		return;
	fputs("\ncpus ", f);
	for (a = 0; a < ncpus; a = b) {
		if (!on[a]) {
			b = a + 1;
			continue;
		}
		for (b = a + 1; b < ncpus && on[b]; b++)
			;
		fprintf(f, b - a > 1 ? "%s%d-%d" : "%s%d", sep, a, b - 1);
		sep = ",";
	}
}

/**
 * ft_tool_text - the VERSION text of a recording: ftscope's version; for a
 * pid-filtered run the filter, the tasks of @traced; with @cpu_on (-C, @ncpus long)
 * the CPUs the live run reported; with @pr, the probes. Returns it malloc'ed, or NULL.
 */
char *ft_tool_text(const struct ft_imap *traced, bool follow, const bool *cpu_on, int ncpus,
		   const struct ft_tool_probes *pr)
{
	char *text = NULL;
	size_t len = 0;
	int i, *pids, npids = ft_imap_keys(traced, &pids);
	FILE *f = npids < 0 ? NULL : open_memstream(&text, &len);

	if (!f) {
		free(pids);
		return NULL;
	}
	fputs(FTSCOPE_VERSION_LINE, f);
	if (npids) {
		fprintf(f, "\nfilter %s", follow ? "follow" : "exact");
		for (i = 0; i < npids; i++)
			fprintf(f, " %d", pids[i]);
	}
	free(pids);
	cpus_line(f, cpu_on, ncpus);
	if (pr) {
		fprintf(f, "\nprobes %d\n", (int)pr->funcs.used);
		for (i = 0; i < pr->funcs.n; i++)
			fprintf(f, "fn %c %llx %s\n", kind_letter[pr->funcs.fn[i].kind],
				(unsigned long long)pr->funcs.fn[i].addr, pr->funcs.fn[i].name);
		for (i = 0; i < pr->nev; i++)
			fprintf(f, "ev %d %d %s %s\n", pr->ev[i].func, pr->ev[i].kind,
				pr->ev[i].sys, pr->ev[i].name);
	}
	if (fclose(f)) {
		free(text);
		return NULL;
	}
	return text;
}

/* ft_tool_ours - is a VERSION text of @len bytes ftscope's? */
bool ft_tool_ours(const char *text, size_t len)
{
	return len >= 8 && !memcmp(text, "ftscope ", 8);
}

/* ft_tool_line - what follows "KEY " on a line of @text after the first, or NULL */
const char *ft_tool_line(const char *text, const char *key)
{
	size_t n = strlen(key);
	const char *p;

	for (p = strchr(text, '\n'); p; p = strchr(p + 1, '\n'))
		if (!strncmp(p + 1, key, n) && p[1 + n] == ' ')
			return p + 2 + n;
	return NULL;
}

/*
 * ft_tool_filter - "follow|exact PID..." (a filter line's rest) into @follow and @pids.
 * Returns 0, or -1 when it is damaged.
 */
int ft_tool_filter(const char *filter, bool *follow, struct ft_imap *pids)
{
	char mode[16];
	int pid, n;

	if (sscanf(filter, "%15s%n", mode, &n) != 1 || (strcmp(mode, "follow") && strcmp(mode, "exact")))
		return -1;
	*follow = !strcmp(mode, "follow");
	for (filter += n; sscanf(filter, "%d%n", &pid, &n) == 1; filter += n)
		ft_imap_put(pids, pid, 1);
	return 0;
}

/* wanted - does function @name match one of the patterns given offline? */
static bool wanted(const struct ft_func_req *req, const char *name)
{
	const char *colon = strrchr(name, ':');
	int i;

	for (i = 0; i < req->nspecs; i++) {
		const char *spec = req->specs[i], *sc = strrchr(spec, ':');

		if (!fnmatch(spec, name, 0))
			return true;
		/* /path/bin:func and bin:func name the same function as recorded */
		if (sc && colon && !fnmatch(sc + 1, colon + 1, 0) &&
		    strncmp(spec, "syscall:", 8) && strncmp(name, "syscall:", 8))
			return true;
	}
	return false;
}

/* parse_fn - one "fn" line into @pr (kept when a pattern wants it); @map: old -> new */
static int parse_fn(const struct ft_func_req *req, struct ft_tool_probes *pr, const char *line,
		    int **map, int *nmap)
{
	char kind, name[192];
	unsigned long long addr;
	int *m = realloc(*map, (*nmap + 1) * sizeof(*m));
	struct ft_fn *fn;

	if (!m)
		return -1;
	*map = m;
	if (sscanf(line, "fn %c %llx %191s", &kind, &addr, name) != 3 ||
	    !strchr("kus", kind))
		return -1;
	m[(*nmap)++] = -1;
	if (!wanted(req, name))
		return 0;
	fn = realloc(pr->funcs.fn, (pr->funcs.n + 1) * sizeof(*fn));
	if (!fn)
		return -1;
	pr->funcs.fn = fn;
	memset(&fn[pr->funcs.n], 0, sizeof(*fn));
	snprintf(fn[pr->funcs.n].name, sizeof(fn[pr->funcs.n].name), "%s", name);
	fn[pr->funcs.n].kind = kind == 'k' ? FT_FK_KERNEL : kind == 'u' ? FT_FK_USER : FT_FK_SYSCALL;
	fn[pr->funcs.n].addr = addr;
	m[*nmap - 1] = pr->funcs.n++;
	return 0;
}

/* parse_ev - one "ev" line: kept when its function is, or when it is found by ip */
static int parse_ev(struct ft_tool_probes *pr, const char *line, const int *map, int nmap)
{
	struct ft_pev e = { 0 }, *ev;

	if (sscanf(line, "ev %d %d %63s %63s", &e.func, &e.kind, e.sys, e.name) != 4 ||
	    e.func < -1 || e.func >= nmap || e.kind < FT_FC_ENTRY || e.kind > FT_FC_FUNCTION)
		return -1;
	if (e.func >= 0 && map[e.func] < 0)
		return 0;
	if (e.func >= 0)
		e.func = map[e.func];
	ev = realloc(pr->ev, (pr->nev + 1) * sizeof(*ev));
	if (!ev)
		return -1;
	pr->ev = ev;
	ev[pr->nev++] = e;
	return 0;
}

/**
 * ft_tool_probes - the probes a capture recorded (@text: its VERSION text), keeping
 * the functions the patterns of @req name. Returns 0, or -1 after printing the error.
 */
int ft_tool_probes(const char *text, const struct ft_func_req *req, struct ft_tool_probes *pr,
		   const char *path)
{
	const char *p = text ? strstr(text, "\nprobes ") : NULL;
	char *copy, *line, *save = NULL;
	int *map = NULL, nmap = 0, ret = 0;

	if (!p) {
		ft_err("%s holds no function probes (record them with ftscope funclat PATTERN... "
		       "-o FILE)", path);
		return -1;
	}
	copy = strdup(p + 1);
	if (!copy) {
		ft_err("out of memory");
		return -1;
	}
	if (sscanf(copy, "probes %d", &nmap) != 1 || nmap < FT_FM_AUTO || nmap > FT_FM_FUNCTION)
		ret = -1;
	pr->funcs.used = (enum ft_fmethod)nmap;
	nmap = 0;
	for (line = strtok_r(copy, "\n", &save); line && !ret; line = strtok_r(NULL, "\n", &save))
		if (!strncmp(line, "fn ", 3))
			ret = parse_fn(req, pr, line, &map, &nmap);
		else if (!strncmp(line, "ev ", 3))
			ret = parse_ev(pr, line, map, nmap);
	free(copy);
	free(map);
	if (ret)
		ft_err("%s: its probe list is damaged", path);
	else if (!pr->funcs.n)
		ft_err("no pattern matches a function recorded in %s", path);
	return ret || !pr->funcs.n ? -1 : 0;
}
