// SPDX-License-Identifier: GPL-2.0
/*
 * mkseed - a small trace.dat (v6) for the fuzzers' seed corpus, from a capture
 * directory of this repository (header_page, events/SYS/EVENT/format, cpuN.raw),
 * with a few lines of kallsyms, cmdlines, per-CPU stats, process maps and perf
 * samples (events/sample.h: kernel and user frames, a thread's name, an idle CPU's
 * sample) so that each section of the file is there to mutate.
 *
 *   mkseed DIR OUT.dat
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "events/sample.h"
#include "events/tdat.h"
#include "events/tep.h"

#define MAX_FMT	32
#define MAX_CPU	8

static const char header_event[] =
	"# compressed entry header\n\ttype_len    :    5 bits\n\ttime_delta  :   27 bits\n"
	"\tarray       :   32 bits\n\n\tpadding     : type == 29\n\ttime_extend : type == 30\n"
	"\ttime_stamp : type == 31\n\tdata max type_len  == 28\n";
static const char kallsyms[] =
	"ffffffff81000000 T _stext\nffffffff81100000 T schedule\n"
	"ffffffff81100400 t __schedule\nffffffff81200000 T do_nanosleep\n";
static const char cmdlines[] = "1 init\n4242 sleeper\n";
static const char stats[] = "entries: 0\noverrun: 0\ncommit overrun: 0\nbytes: 0\n"
	"oldest event ts: 0.000000\nnow ts: 0.000000\ndropped events: 0\nread events: 40\n";
static const char maps[] = "4242 1 sleeper\n55d0c0000000 55d0c0001000 0 /usr/bin/sleeper\n";

/* blob - a blob over a constant string */
static struct ft_blob blob(const char *s)
{
	return (struct ft_blob){ .data = s, .len = strlen(s) };
}

/* read_formats - every DIR/events/SYS/EVENT/format, sorted by system */
static int read_formats(const char *dir, struct ft_tdat_fmt *fmt)
{
	struct dirent **sys;
	char path[4096];
	int i, nsys, n = 0;

	snprintf(path, sizeof(path), "%s/events", dir);
	nsys = scandir(path, &sys, NULL, alphasort);
	for (i = 0; i < nsys; i++) {
		struct dirent **ev;
		int j, nev;

		snprintf(path, sizeof(path), "%s/events/%s", dir, sys[i]->d_name);
		nev = sys[i]->d_name[0] == '.' ? 0 : scandir(path, &ev, NULL, alphasort);
		for (j = 0; j < nev; j++) {
			char *fpath;
			size_t len;
			char *text;

			if (ev[j]->d_name[0] != '.' && n < MAX_FMT &&
			    asprintf(&fpath, "%s/%s/format", path, ev[j]->d_name) > 0) {
				text = ft_read_file(fpath, FT_FORMAT_MAX, &len);
				free(fpath);
				if (text) {
					fmt[n].system = strdup(sys[i]->d_name);
					snprintf(fmt[n].name, sizeof(fmt[n].name), "%s", ev[j]->d_name);
					fmt[n].text = (struct ft_blob){ .data = text, .len = len };
					n++;
				}
			}
			free(ev[j]);
		}
		if (nev > 0)
			free(ev);
		free(sys[i]);
	}
	if (nsys > 0)
		free(sys);
	return n;
}

/* samples - the samples blob: sleeper's stacks in kallsyms and maps, and an idle one */
static int samples(struct ft_blob *out)
{
	static const uint64_t ip[] = { 0xffffffff81200010ULL, 0xffffffff81100410ULL,
				       0x55d0c0000100ULL, 0x55d0c0000200ULL };
	const struct ft_sample_req req = { .freq = 99, .user = true, .kernel = true };
	const struct ft_sample_counts c = { .samples = 4, .lost = 1, .throttled = 1 };
	const struct ft_sample_comm comm = { 4242, "sleeper" };
	const struct ft_sample s[] = {
		{ .ts = 1000000, .period = 10101010, .pid = 4242, .tid = 4242, .cpu = 0,
		  .nk = 2, .nu = 2, .ip = ip },
		{ .ts = 2000000, .period = 10101010, .pid = 4242, .tid = 4242, .cpu = 1,
		  .nk = 0, .nu = 2, .ip = ip + 2 },
		{ .ts = 3000000, .period = 10101010, .pid = 4242, .tid = 4242, .cpu = 1,
		  .nk = 2, .nu = 0, .ip = ip },
		{ .ts = 4000000, .period = 10101010, .pid = 0, .tid = 0, .cpu = 1,
		  .nk = 1, .nu = 0, .ip = ip + 1 },
	};
	unsigned char *buf;
	size_t len, cap, i;

	if (ft_sample_blob_head(&buf, &len, &req, &c, &comm, 1))
		return -1;
	cap = len;
	for (i = 0; i < sizeof(s) / sizeof(s[0]); i++)
		if (ft_sample_blob_add(&buf, &len, &cap, &s[i]))
			return -1;
	*out = (struct ft_blob){ .data = (const char *)buf, .len = len };
	return 0;
}

/* main - write the seed */
int main(int argc, char **argv)
{
	struct ft_tdat_fmt fmt[MAX_FMT] = { 0 };
	struct ft_blob cpustat[MAX_CPU], procmaps = blob(maps);
	struct ft_tdat_meta m = { 0 };
	uint64_t size[MAX_CPU];
	int fd[MAX_CPU], out, n, ret;
	char path[4096];
	size_t len;

	if (argc != 3) {
		fprintf(stderr, "usage: mkseed DIR OUT.dat\n");
		return 2;
	}
	for (n = 0; n < MAX_CPU; n++) {
		struct stat st;

		snprintf(path, sizeof(path), "%s/cpu%d.raw", argv[1], n);
		fd[n] = open(path, O_RDONLY);
		if (fd[n] < 0)
			break;
		fstat(fd[n], &st);
		size[n] = st.st_size;
		cpustat[n] = blob(stats);
	}
	snprintf(path, sizeof(path), "%s/header_page", argv[1]);
	m.header_page.data = ft_read_file(path, FT_FORMAT_MAX, &len);
	m.header_page.len = len;
	if (!n || !m.header_page.data) {
		fprintf(stderr, "mkseed: %s is not a capture directory\n", argv[1]);
		return 1;
	}
	m.page_size = 4096;
	m.long_size = 8;
	m.header_event = blob(header_event);
	m.kallsyms = blob(kallsyms);
	m.printk = blob("");
	m.cmdlines = blob(cmdlines);
	m.fmt = fmt;
	m.nfmt = read_formats(argv[1], fmt);
	m.ncpus = n;
	m.cpustat = cpustat;
	m.clock = blob("[local] global counter");
	m.uname = blob("Linux seed 6.18.0 #1 x86_64");
	m.tool = blob("ftscope 0.1");
	m.procmaps = &procmaps;
	m.nprocmaps = 1;
	if (samples(&m.samples)) {
		fprintf(stderr, "mkseed: out of memory\n");
		return 1;
	}
	out = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (out < 0) {
		perror(argv[2]);
		return 1;
	}
	ret = ft_tdat_write(out, &m, fd, size);
	close(out);
	return ret ? 1 : 0;
}
