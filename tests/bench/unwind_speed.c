// SPDX-License-Identifier: GPL-2.0
/*
 * unwind_speed [-n SAMPLES] [-r ROUNDS] [-v] -- CMD...: the CFI unwinder's cost per frame on
 * real samples, beside libdw's (elfutils, what perf's unwind-libdw uses) on the same bytes.
 * CMD runs under a cpu-clock sampling event at 999 Hz taking what ftscope's
 * --call-graph dwarf takes (PERF_SAMPLE_REGS_USER, an 8192-byte PERF_SAMPLE_STACK_USER);
 * SAMPLES records are kept, CMD's mappings read from /proc while it runs, then CMD is
 * killed. Each unwinder walks every sample once (its tables or CFI built: timed apart),
 * then ROUNDS more times (timed, CPU time): ftscope's through ft_sampler_unwind, the
 * sampler's own path (record tail, mapping look-up, ft_unwind); libdw at its best, one
 * Dwfl for the process (modules reported and state attached once, as a long-lived
 * perf report would keep it), memory reads from the stack copy only. Prints ns per frame
 * and per sample of each, and how many samples both walked to the same frames (-v: the
 * frames of the others, from where they part).
 */
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "tracer/sample_unwind.h"
#include "tracer/sampler.h"

#define STACK_COPY	8192
#define RING_PAGES	1024		/* 4 MiB: a drain every 10 ms keeps far below it */
#define MAXF		FT_SAMPLE_MAX_STACK

/* The DWARF number of each register in a record, in perf's bit order (ft_sampler_uregs_mask:
   ax bx cx dx si di bp sp ip r8..r15) */
static const unsigned char dwarf_of[] = {
	0, 3, 2, 1, 4, 5, 6, 7, 16, 8, 9, 10, 11, 12, 13, 14, 15
};
#define NREGS	(sizeof(dwarf_of) / sizeof(dwarf_of[0]))

/* One kept sample: the record's tail from abi on, as ft_sampler_unwind takes it. */
struct rec {
	unsigned char	*tail;
	size_t		len;
};

static struct rec *recs;
static int nrec;
static char *maps_text;	/* the command's file mappings, PROCMAPS text (sample_maps.c) */

/* die - one line, exit 1 */
static void die(const char *what)
{
	int e = errno;

	fprintf(stderr, "unwind_speed: %s%s%s\n", what, e ? ": " : "", e ? strerror(e) : "");
	exit(1);
}

/* cpu_ns - this process's CPU time in ns */
static double cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* start - CMD forked, held at a pipe until the event is open; returns its pid, *gate the pipe */
static pid_t start(char **argv, int *gate)
{
	int p[2];
	pid_t pid;
	char c;

	if (pipe(p))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		close(p[1]);
		if (read(p[0], &c, 1) != 1)
			_exit(127);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(p[0]);
	*gate = p[1];
	return pid;
}

/* open_event - the sampling event on @pid, enabled at its exec; its ring into *ring */
static int open_event(pid_t pid, void **ring)
{
	struct perf_event_attr a = { .size = sizeof(a) };
	int fd;

	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_CPU_CLOCK;
	a.freq = 1;
	a.sample_freq = 999;
	a.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
	a.sample_regs_user = ft_sampler_uregs_mask();
	a.sample_stack_user = STACK_COPY;
	a.disabled = 1;
	a.enable_on_exec = 1;
	a.exclude_kernel = 1;
	a.wakeup_events = 1;
	fd = syscall(SYS_perf_event_open, &a, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		die("perf_event_open (root?)");
	*ring = mmap(NULL, (RING_PAGES + 1) * 4096UL, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (*ring == MAP_FAILED)
		die("mmap of the ring");
	return fd;
}

/* keep - a PERF_RECORD_SAMPLE of @len bytes at @r: its tail after pid, tid kept */
static void keep(const unsigned char *r, size_t len, int max)
{
	size_t off = sizeof(struct perf_event_header) + 8;

	if (nrec >= max || len <= off)
		return;
	recs[nrec].len = len - off;
	recs[nrec].tail = malloc(recs[nrec].len);
	if (!recs[nrec].tail)
		die("out of memory");
	memcpy(recs[nrec].tail, r + off, recs[nrec].len);
	nrec++;
}

/* drain - the ring's records since the last drain, samples kept; the lost ones counted */
static void drain(void *ring, int max, unsigned long long *lost)
{
	struct perf_event_mmap_page *mp = ring;
	unsigned char *data = (unsigned char *)ring + 4096, buf[65536];
	size_t size = RING_PAGES * 4096UL;
	uint64_t head = __atomic_load_n(&mp->data_head, __ATOMIC_ACQUIRE), tail = mp->data_tail;

	while (tail < head) {
		struct perf_event_header h;
		size_t i, o = tail % size;

		for (i = 0; i < sizeof(h); i++)
			((unsigned char *)&h)[i] = data[(o + i) % size];
		if (h.size < sizeof(h))
			break;
		for (i = 0; i < h.size; i++)
			buf[i] = data[(o + i) % size];
		if (h.type == PERF_RECORD_SAMPLE)
			keep(buf, h.size, max);
		else if (h.type == PERF_RECORD_LOST)
			*lost += *(uint64_t *)(buf + sizeof(h) + 8);
		tail += h.size;
	}
	__atomic_store_n(&mp->data_tail, tail, __ATOMIC_RELEASE);
}

/* collect - up to @max samples of CMD, its mappings into @m; CMD killed. Returns its pid. */
static pid_t collect(char **argv, int max, struct ft_smaps *m)
{
	unsigned long long lost = 0;
	struct ft_smaps_hit hit;
	void *ring;
	int gate, fd, st;
	pid_t pid = start(argv, &gate);

	fd = open_event(pid, &ring);
	recs = calloc(max, sizeof(*recs));
	if (!recs || write(gate, "x", 1) != 1)
		die("cannot start the command");
	close(gate);
	while (nrec < max && waitpid(pid, &st, WNOHANG) == 0) {
		struct pollfd p = { .fd = fd, .events = POLLIN };

		poll(&p, 1, 10);
		drain(ring, max, &lost);
		if (nrec > max / 2)	/* a process first seen: its maps from /proc, now */
			ft_smaps_find(m, pid, 0, 0, &hit);
	}
	drain(ring, max, &lost);
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	close(fd);
	printf("  %d samples of '%s' (%llu lost)\n", nrec, argv[0], lost);
	return pid;
}

/* time_ft - ftscope's walks of every sample: a first pass, then @rounds timed */
static void time_ft(pid_t pid, struct ft_smaps *m, int rounds)
{
	struct ft_sampler sp = { .unw = ft_unwinder_new() };
	uint64_t ip[MAXF];
	unsigned long long frames = 0;
	double t0, t1, t2;
	int i, r;

	if (!sp.unw)
		die("ft_unwinder_new");
	sp.maps = *m;
	t0 = cpu_ns();
	for (i = 0; i < nrec; i++)
		ft_sampler_unwind(&sp, pid, 0, recs[i].tail, recs[i].tail + recs[i].len, ip);
	t1 = cpu_ns();
	for (r = 0; r < rounds; r++)
		for (i = 0; i < nrec; i++)
			frames += ft_sampler_unwind(&sp, pid, 0, recs[i].tail,
						    recs[i].tail + recs[i].len, ip);
	t2 = cpu_ns();
	printf("  ftscope (ft_sampler_unwind): first pass %.1f ms (tables built); then %llu frames: "
	       "%.1f ns per frame, %.0f ns per sample\n", (t1 - t0) / 1e6, frames,
	       (t2 - t1) / frames, (t2 - t1) / ((double)rounds * nrec));
	ft_unwinder_free(sp.unw);
}

/* The sample libdw walks: its registers in DWARF order and its stack copy. */
struct dw_ctx {
	pid_t			pid;
	Dwarf_Word		regs[NREGS];
	uint64_t		sp, size;
	const unsigned char	*stack;
	Dwarf_Addr		pc[MAXF];
	int			n;
};

/* dw_sample - the sample @i's tail parsed into @c; false for a sample without user registers */
static bool dw_sample(struct dw_ctx *c, int i)
{
	const unsigned char *p = recs[i].tail;
	uint64_t abi, v, size, dyn;
	unsigned int k;

	if (recs[i].len < 8 * (NREGS + 2))
		return false;
	memcpy(&abi, p, 8);
	if (abi != PERF_SAMPLE_REGS_ABI_64)
		return false;
	for (k = 0; k < NREGS; k++) {
		memcpy(&v, p + 8 + 8 * k, 8);
		c->regs[dwarf_of[k]] = v;
	}
	p += 8 * (NREGS + 1);
	memcpy(&size, p, 8);
	c->stack = p + 8;
	c->size = 0;
	if (size && recs[i].len >= 8 * (NREGS + 3) + size) {
		memcpy(&dyn, c->stack + size, 8);
		c->size = dyn < size ? dyn : size;
	}
	c->sp = c->regs[7];
	c->n = 0;
	return true;
}

/* dw_next_thread - Dwfl_Thread_Callbacks: the one thread, the sample's */
static pid_t dw_next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	struct dw_ctx *c = arg;

	if (*thread_argp)
		return 0;
	*thread_argp = arg;
	return c->pid;
}

/* dw_memory_read - a word of the stack copy (perf's memory_read without its file reads) */
static bool dw_memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	struct dw_ctx *c = arg;

	if (addr < c->sp || addr + 8 > c->sp + c->size)
		return false;
	memcpy(result, c->stack + (addr - c->sp), 8);
	return true;
}

/* dw_set_regs - the sample's registers as the first frame's */
static bool dw_set_regs(Dwfl_Thread *thread, void *arg)
{
	struct dw_ctx *c = arg;

	return dwfl_thread_state_registers(thread, 0, NREGS, c->regs);
}

/* dw_frame - a frame's pc, kept (at most MAXF, as ftscope); a zero return address ends the
   walk, as ftscope's (libdw gives it as a frame: the outermost one, ld.so's _start) */
static int dw_frame(Dwfl_Frame *state, void *arg)
{
	struct dw_ctx *c = arg;
	Dwarf_Addr pc;

	if (!dwfl_frame_pc(state, &pc, NULL) || (!pc && c->n))
		return DWARF_CB_ABORT;
	c->pc[c->n++] = pc;
	return c->n < MAXF ? DWARF_CB_OK : DWARF_CB_ABORT;
}

static const Dwfl_Thread_Callbacks dw_thread_cb = {
	.next_thread = dw_next_thread,
	.memory_read = dw_memory_read,
	.set_initial_registers = dw_set_regs,
};

static char *debuginfo_path;
static const Dwfl_Callbacks dw_cb = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &debuginfo_path,
};

/* dw_open - a Dwfl with the process's files (maps_text), state attached */
static Dwfl *dw_open(struct dw_ctx *c)
{
	char *copy, *line, *save = NULL, path[4096];
	unsigned long long base, end;
	Dwfl *dwfl = dwfl_begin(&dw_cb);

	if (!dwfl || !(copy = strdup(maps_text)))
		die("libdw: no Dwfl");
	dwfl_report_begin(dwfl);
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (sscanf(line, "%llx %llx %4095s", &base, &end, path) == 3 && path[0] == '/')
			dwfl_report_elf(dwfl, strrchr(path, '/') + 1, path, -1, base, false);
	dwfl_report_end(dwfl, NULL, NULL);
	free(copy);
	if (!dwfl_attach_state(dwfl, NULL, c->pid, &dw_thread_cb, c))
		die(dwfl_errmsg(-1));
	return dwfl;
}

/* dw_walk - libdw's walk of sample @i into c->pc; its frame count */
static int dw_walk(Dwfl *dwfl, struct dw_ctx *c, int i)
{
	if (!dw_sample(c, i))
		return 0;
	dwfl_getthread_frames(dwfl, c->pid, dw_frame, c);
	return c->n;
}

/* time_dw - libdw's walks, as time_ft's */
static void time_dw(pid_t pid, int rounds)
{
	struct dw_ctx *c = calloc(1, sizeof(*c));
	unsigned long long frames = 0;
	double t0, t1, t2;
	Dwfl *dwfl;
	int i, r;

	if (!c)
		die("out of memory");
	c->pid = pid;
	dwfl = dw_open(c);
	t0 = cpu_ns();
	for (i = 0; i < nrec; i++)
		dw_walk(dwfl, c, i);
	t1 = cpu_ns();
	for (r = 0; r < rounds; r++)
		for (i = 0; i < nrec; i++)
			frames += dw_walk(dwfl, c, i);
	t2 = cpu_ns();
	printf("  libdw %s (dwfl_getthread_frames): first pass %.1f ms; then %llu frames: "
	       "%.1f ns per frame, %.0f ns per sample\n", dwfl_version(dwfl), (t1 - t0) / 1e6,
	       frames, (t2 - t1) / frames, (t2 - t1) / ((double)rounds * nrec));
	dwfl_end(dwfl);
	free(c);
}

/* show - sample @i's two walks, where they part, and why ftscope's ended (compare -v) */
static void show(int i, const uint64_t *ip, int n, const struct dw_ctx *c, int k,
		 const char *why)
{
	int j;

	printf("  sample %d parts at frame %d (ftscope %d frames, ended: %s; libdw %d):\n", i, k,
	       n, why, c->n);
	for (j = k > 2 ? k - 2 : 0; j < n || j < c->n; j++)
		printf("    #%d %#18llx %#18llx\n", j, j < n ? (unsigned long long)ip[j] : 0ULL,
		       j < c->n ? (unsigned long long)c->pc[j] : 0ULL);
}

/* compare - per sample, do both unwinders give the same frames? One line of counts. */
static void compare(pid_t pid, struct ft_smaps *m, bool verbose)
{
	struct ft_sampler sp = { .unw = ft_unwinder_new() };
	struct dw_ctx *c = calloc(1, sizeof(*c));
	int i, n, k, same = 0, ours = 0, theirs = 0, differ = 0;
	uint64_t ip[MAXF];
	Dwfl *dwfl;

	if (!sp.unw || !c)
		die("out of memory");
	sp.maps = *m;
	c->pid = pid;
	dwfl = dw_open(c);
	for (i = 0; i < nrec; i++) {
		struct ft_sample_counts was = sp.counts;
		const char *why = "?";

		n = ft_sampler_unwind(&sp, pid, 0, recs[i].tail, recs[i].tail + recs[i].len, ip);
		if (n && FT_UNWIND_IS_MARK(ip[n - 1]))	/* a stopped walk's marker: no frame */
			n--;
		for (k = 0; k < FT_UNWIND_NEND; k++)
			if (sp.counts.unwound[k] != was.unwound[k])
				why = ft_sample_unwind_key(k);
		dw_walk(dwfl, c, i);
		for (k = 0; k < n && k < c->n && ip[k] == c->pc[k]; k++)
			;
		if (k == n && k == c->n) {
			same++;
			continue;
		}
		if (verbose)
			show(i, ip, n, c, k, why);
		if (k == c->n)
			ours++;
		else if (k == n)
			theirs++;
		else
			differ++;
	}
	if (verbose && same < nrec)
		printf("  the mappings both walked with:\n%s", maps_text);
	printf("  the same frames in %d of %d samples; ftscope's longer in %d, libdw's in %d; "
	       "they differ in %d\n", same, nrec, ours, theirs, differ);
	dwfl_end(dwfl);
	ft_unwinder_free(sp.unw);
	free(c);
}

/* main - collect, then time both unwinders on the same samples */
int main(int argc, char **argv)
{
	int opt, max = 3000, rounds = 10;
	bool verbose = false;
	struct ft_smaps m;
	const char *text;
	size_t len;
	pid_t pid;

	while ((opt = getopt(argc, argv, "+n:r:v")) != -1) {
		if (opt == 'v')
			verbose = true;
		else if (opt == 'n')
			max = atoi(optarg);
		else if (opt == 'r')
			rounds = atoi(optarg);
		else
			break;
	}
	if (optind >= argc || max <= 0 || rounds <= 0) {
		fprintf(stderr, "usage: unwind_speed [-n SAMPLES] [-r ROUNDS] [-v] -- CMD...\n");
		return 2;
	}
	if (ft_smaps_init(&m))
		die("out of memory");
	pid = collect(argv + optind, max, &m);
	if (!nrec)
		die("no samples");
	text = ft_smaps_changed(&m, pid, 0, &len);
	if (!text || !(maps_text = strdup(text)))
		die("no maps of the command (it ended before half the samples)");
	time_ft(pid, &m, rounds);
	time_dw(pid, rounds);
	compare(pid, &m, verbose);
	return 0;
}
