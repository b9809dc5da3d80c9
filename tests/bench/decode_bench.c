// SPDX-License-Identifier: GPL-2.0
/*
 * decode_bench TRACE.DAT: offline throughput on the same recorded pages of
 *  - ftscope: `ftscope runqlat -i FILE` end to end (read, decode, merge, chain, runqlat)
 *  - libtracefs: tracefs_iterate_raw_events() over the same pages, with a callback
 *    that reads next_pid through a field resolved once (the iterator's own cost)
 * Prints events/s (CPU time) of each and their ratio.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <tracefs/tracefs.h>
#include <traceevent/event-parse.h>

#include "analyzers/analyzer.h"
#include "cmd/analyze.h"
#include "events/decode.h"
#include "events/tdat.h"
#include "events/tep.h"

/* cpu_now - process CPU time in seconds */
static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

struct iter_ctx {
	struct tep_format_field	*next_pid;
	int			switch_id;
	unsigned long long	events, sum;
};

/* iter_cb - what a libtracefs user's callback minimally does per record */
static int iter_cb(struct tep_event *ev, struct tep_record *rec, int cpu, void *data)
{
	struct iter_ctx *c = data;
	unsigned long long v;

	c->events++;
	if (ev->id == c->switch_id && !tep_read_number_field(c->next_pid, rec->data, &v))
		c->sum += v;
	return 0;
}

/* put_file - @len bytes of @data as the file @path */
static int put_file(const char *path, const void *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644), ret;

	if (fd < 0)
		return -1;
	ret = ft_write_all(fd, data, len);
	return close(fd) || ret ? -1 : 0;
}

/*
 * fake_tree - a tracing dir whose instance's trace_pipe_raw files hold the
 * trace.dat's pages, for libtracefs's iterator
 */
static int fake_tree(struct ft_tdat *t, const char *root)
{
	char path[8192], *page = malloc(t->page_size);
	int cpu, fd, ret = -1;
	long n = 0;

	snprintf(path, sizeof(path), "mkdir -p %s/events %s/instances/bench", root, root);
	if (!page || system(path))
		goto out;
	snprintf(path, sizeof(path), "%s/events/header_page", root);
	if (put_file(path, t->header_page.data, t->header_page.len))
		goto out;
	for (cpu = 0; cpu < t->ncpus && !n; cpu++) {
		snprintf(path, sizeof(path), "mkdir -p %s/instances/bench/per_cpu/cpu%d", root, cpu);
		if (system(path))
			goto out;
		snprintf(path, sizeof(path), "%s/instances/bench/per_cpu/cpu%d/trace_pipe_raw", root, cpu);
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0)
			goto out;
		while ((n = ft_tdat_next_page(t, cpu, page, t->page_size)) > 0)
			if (ft_write_all(fd, page, t->page_size))
				break;
		close(fd);
	}
	ret = n ? -1 : 0;
out:
	free(page);
	return ret;
}

/* main - time both, several rounds each, and print the figures */
int main(int argc, char **argv)
{
	char abs[4096], root[] = "/tmp/ftscope-bench-XXXXXX", *args[] = { "runqlat", "-i", abs, NULL };
	struct tracefs_instance *inst;
	struct iter_ctx ic = { 0 };
	struct ft_page_fmt pf;
	struct tep_handle *tep;
	struct ft_tdat t;
	double t0, ours_s, base_s;
	unsigned long long events = 0;
	int ncpus = 0, rounds, i, devnull, saved;

	if (argc != 2 || !realpath(argv[1], abs)) {
		fprintf(stderr, "usage: decode_bench TRACE.DAT\n");
		return 2;
	}
	if (ft_tdat_open(&t, abs, NULL)) {
		fprintf(stderr, "decode_bench: %s: %s\n", abs, t.err);
		return 1;
	}
	ncpus = t.ncpus;
	tep = ft_tep_load(ft_tdat_format_read, &t, ~0u, &pf, FT_TEP_UNTRUSTED);
	if (!tep || !ncpus || !mkdtemp(root) || fake_tree(&t, root)) {
		fprintf(stderr, "decode_bench: cannot use %s\n", abs);
		return 1;
	}
	ic.switch_id = tep_find_event_by_name(tep, "sched", "sched_switch")->id;
	ic.next_pid = tep_find_field(tep_find_event_by_name(tep, "sched", "sched_switch"),
				     "next_pid");

	/* the baseline: libtracefs's iterator over the same pages */
	inst = tracefs_instance_alloc(root, "bench");
	t0 = cpu_now();
	for (rounds = 0; cpu_now() - t0 < 1.0; rounds++) {
		ic.events = 0;
		tracefs_iterate_raw_events(tep, inst, NULL, 0, iter_cb, &ic);
	}
	base_s = (cpu_now() - t0) / rounds;

	/* ftscope runqlat -i, report to /dev/null */
	fflush(stdout);
	saved = dup(1);
	devnull = open("/dev/null", O_WRONLY);
	dup2(devnull, 1);
	t0 = cpu_now();
	for (i = 0; cpu_now() - t0 < 1.0; i++)
		ft_run_analyzer(ft_analyzer_find("runqlat"), 3, args);
	ours_s = (cpu_now() - t0) / i;
	fflush(stdout);
	dup2(saved, 1);
	close(devnull);
	events = ic.events;

	printf("offline, %llu events on %d CPUs (%s)\n", events, ncpus, abs);
	printf("  ftscope runqlat -i (read+decode+merge+chain+runqlat): %8.2f M events/s\n",
	       events / ours_s / 1e6);
	printf("  tracefs_iterate_raw_events (iterate+one field):       %8.2f M events/s\n",
	       events / base_s / 1e6);
	printf("  ratio ftscope / libtracefs iterator:                  %8.2fx\n", base_s / ours_s);
	snprintf(abs, sizeof(abs), "rm -rf %s", root);
	if (system(abs))
		return 1;
	tracefs_instance_free(inst);
	tep_free(tep);
	ft_tdat_close(&t);
	return 0;
}
