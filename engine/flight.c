// SPDX-License-Identifier: GPL-2.0
/*
 * The flight recorder: `ANALYZER --flight SECS [--trigger MS] -o FILE`. The live
 * reader's pages (the page tap, as `-o` saves them) go into a ring per CPU instead of
 * a file, kept while they may belong to the last SECS (a page's time: from its first
 * record to the next page's) and within --flight-size. When the analyzer measures a
 * latency over MS (ft_env_latency), the window [its end - SECS, its end + --after]
 * is written, once the merge has passed its end, as a trace.dat through the capture
 * code: FILE, then FILE.1, FILE.2, ... Without --trigger the last SECS are written
 * when the run ends. The analysis itself goes on as usual.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "engine/flight.h"
#include "events/tasks.h"
#include "lib/util.h"
#include "tracer/capture.h"
#include "tracer/session.h"

/* How long after a page a trigger may still need it: the merge's lag behind the reads. */
#define FLIGHT_LAG_NS	(2ULL * 1000000000ULL)

/* The arenas' alignment: a transparent huge page's size on x86-64 and arm64 (4 KB pages). */
#define FLIGHT_HUGE	(2UL << 20)

/*
 * One CPU's kept pages, a ring: oldest at (head - n). Each slot keeps its buffer when
 * its page goes, for the page that takes the slot next: a steady run allocates and
 * touches no new memory, and growing the ring moves pointers, not pages. The buffers
 * are cut in turn from one arena of max sub-buffers, huge pages asked for it.
 */
struct ft_flight_cpu {
	unsigned char	**pg;		/* cap buffers of a sub-buffer each, NULL not yet made */
	unsigned char	*arena;		/* max sub-buffers, mapped at the first page */
	uint32_t	made;		/* ... of them handed out */
	uint64_t	*ts;		/* each page's first record */
	uint32_t	*len;
	bool		*missed;	/* the kernel dropped events before it */
	uint32_t	cap, max, n, head;
	uint64_t	cut;		/* the latest page dropped for the size, still wanted */
};

/* slot - the ring index of page @i of @c, oldest first */
static uint32_t slot(const struct ft_flight_cpu *c, uint32_t i)
{
	return (c->head + c->cap - c->n + i) % c->cap;
}

/* grow - double @c's ring (it is full) up to its max, the oldest page first; 0, or -1 */
static int grow(struct ft_flight_cpu *c)
{
	uint32_t cap = c->cap ? c->cap * 2 : 64, i;
	unsigned char **pg;
	uint64_t *ts;
	uint32_t *len;
	bool *missed;

	if (cap > c->max)
		cap = c->max;
	pg = calloc(cap, sizeof(*pg));
	ts = malloc(cap * sizeof(*ts));
	len = malloc(cap * sizeof(*len));
	missed = malloc(cap * sizeof(*missed));
	if (!pg || !ts || !len || !missed) {
		free(pg), free(ts), free(len), free(missed);
		return -1;
	}
	for (i = 0; i < c->n; i++) {
		uint32_t s = slot(c, i);

		pg[i] = c->pg[s];
		ts[i] = c->ts[s];
		len[i] = c->len[s];
		missed[i] = c->missed[s];
	}
	free(c->pg), free(c->ts), free(c->len), free(c->missed);
	c->pg = pg, c->ts = ts, c->len = len, c->missed = missed;
	c->head = c->n;
	c->cap = cap;
	return 0;
}

/*
 * page_buf - @c's next buffer, from its arena (mapped at the first: exactly max
 * sub-buffers from a huge page's boundary, huge pages asked, so that filling the ring
 * faults once in 2 MB, not once a page: 8,000 faults were most of the recorder's cost
 * in a 20 s run); NULL when the mapping fails or all are out
 */
static unsigned char *page_buf(const struct ft_flight *f, struct ft_flight_cpu *c)
{
	size_t len = (size_t)c->max * (size_t)f->pf.subbuf_size;

	if (!c->arena) {
		unsigned char *p = mmap(NULL, len + FLIGHT_HUGE, PROT_READ | PROT_WRITE,
					MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		uintptr_t at;

		if (p == MAP_FAILED)
			return NULL;
		at = ((uintptr_t)p + FLIGHT_HUGE - 1) & ~(uintptr_t)(FLIGHT_HUGE - 1);
		if (at > (uintptr_t)p)
			munmap(p, at - (uintptr_t)p);
		munmap((unsigned char *)at + len, (uintptr_t)p + FLIGHT_HUGE - at);
		c->arena = (unsigned char *)at;
		madvise(c->arena, len, MADV_HUGEPAGE);	/* without THP: 4 KB pages */
	}
	if (c->made >= c->max)
		return NULL;
	return c->arena + (size_t)c->made++ * (size_t)f->pf.subbuf_size;
}

/*
 * keep_page - copy a page of @len bytes into a ring buffer (page-aligned): with x86's
 * streaming stores where there are, as the ring is read back only for a window (the
 * copy neither reads the old page's lines in nor pushes the merge's data out of cache)
 */
static void keep_page(unsigned char *to, const void *page, unsigned int len)
{
#ifdef __SSE2__
	const unsigned char *from = page;
	unsigned int i;

	for (i = 0; i + 64 <= len; i += 64) {
		__m128i a = _mm_loadu_si128((const __m128i *)(from + i));
		__m128i b = _mm_loadu_si128((const __m128i *)(from + i + 16));
		__m128i c = _mm_loadu_si128((const __m128i *)(from + i + 32));
		__m128i d = _mm_loadu_si128((const __m128i *)(from + i + 48));

		_mm_stream_si128((__m128i *)(to + i), a);
		_mm_stream_si128((__m128i *)(to + i + 16), b);
		_mm_stream_si128((__m128i *)(to + i + 32), c);
		_mm_stream_si128((__m128i *)(to + i + 48), d);
	}
	_mm_sfence();
	memcpy(to + i, from + i, len - i);
#else
	memcpy(to, page, len);
#endif
}

/* keep_from - the earliest time a window may still need */
static uint64_t keep_from(const struct ft_flight *f)
{
	uint64_t keep = (uint64_t)(f->o.keep_s * 1e9) + FLIGHT_LAG_NS;
	uint64_t from = f->newest > keep ? f->newest - keep : 0;

	if (f->nev && f->ev[0].ts - (uint64_t)(f->o.keep_s * 1e9) < from)
		from = f->ev[0].ts - (uint64_t)(f->o.keep_s * 1e9);
	return from;
}

/*
 * size_short - @c (@cpu's) dropped a page for the size: once it cuts into the last
 * SECS, one line says now, not an hour later in a window's line, what the size holds
 * at this rate
 */
static void size_short(struct ft_flight *f, int cpu, const struct ft_flight_cpu *c)
{
	uint64_t keep = (uint64_t)(f->o.keep_s * 1e9);
	double held;
	int prec = 1;

	if (f->newest < keep || c->cut <= f->newest - keep)
		return;
	f->size_said = true;
	/* as many decimals as tell it from SECS: 1.96 s is not "2.0 s" */
	held = (f->newest - c->cut) / 1e9;
	while (prec < 9 && round(held * pow(10, prec)) >= round(f->o.keep_s * pow(10, prec)))
		prec++;
	fprintf(stderr, "ftscope %s: flight: --flight-size %ld MB holds the last %.*f s of "
		"CPU %d's events at this rate, not %g s: windows will be shortened (a larger "
		"--flight-size keeps more)\n", f->name, f->o.size_mb, prec, held, cpu,
		f->o.keep_s);
}

/* ft_flight_tap - ft_page_tap_fn: a page read from @cpu kept; the pages no window needs dropped */
void ft_flight_tap(void *ctx, int cpu, const void *page, unsigned int len)
{
	struct ft_flight *f = ctx;
	struct ft_flight_cpu *c;
	struct ft_page_info info;
	uint64_t from;
	uint32_t s;

	if (cpu < 0 || cpu >= f->ncpus || len > (unsigned int)f->pf.subbuf_size ||
	    ft_page_info(&f->pf, page, len, &info))
		return;		/* the merge counts the damage */
	c = &f->cpu[cpu];
	if (info.timestamp > f->newest)
		f->newest = info.timestamp;
	from = keep_from(f);
	while (c->n > 1 && c->ts[slot(c, 1)] <= from) {	/* the oldest ends before */
		c->cut = c->ts[slot(c, 1)];	/* a window reaching back here says so */
		c->n--;
	}
	if (c->n == c->cap && c->cap < c->max && grow(c))
		f->err = ENOMEM;
	if (c->n == c->cap) {		/* full: the oldest goes, still wanted */
		c->cut = c->ts[slot(c, 1 % c->n)];
		c->n--;
		if (!f->size_said)
			size_short(f, cpu, c);
	}
	s = c->head;
	if (!c->pg[s] && !(c->pg[s] = page_buf(f, c))) {
		f->err = ENOMEM;
		return;
	}
	keep_page(c->pg[s], page, len);
	c->ts[s] = info.timestamp;
	c->len[s] = len;
	c->missed[s] = info.missed;
	c->head = (c->head + 1) % c->cap;
	c->n++;
}

/*
 * ft_flight_latency - the analyzer's measure: over the trigger, a window is taken,
 * unless the latency lies inside one taken already (that file holds it), or the
 * files --trigger-max allows are all taken
 */
void ft_flight_latency(void *ctx, const struct ft_latency *l)
{
	struct ft_flight *f = ctx;
	struct ft_flight_event *e;

	if (!f->o.trigger_ms || l->ns <= (uint64_t)(f->o.trigger_ms * 1e6) ||
	    l->ts <= f->last_to || (f->o.max_files && f->fired + f->nev >= f->o.max_files))
		return;
	if (f->nev == FT_FLIGHT_QUEUE) {	/* said at the end */
		f->refused++;
		return;
	}
	e = &f->ev[f->nev++];
	e->ts = l->ts;
	e->ns = l->ns;
	e->tid = l->tid;
	e->cpu = l->cpu;
	snprintf(e->comm, sizeof(e->comm), "%s",
		 l->tid > 0 ? ft_tasks_comm(f->tasks, l->tid) : "-");
	f->last_to = l->ts + (uint64_t)(f->o.after_s * 1e9);
}

/* file_name - the n-th file: FILE, FILE.1, ... */
static void file_name(const struct ft_flight *f, char *buf, size_t len)
{
	if (f->files)
		snprintf(buf, len, "%s.%d", f->path, f->files);
	else
		snprintf(buf, len, "%s", f->path);
}

/*
 * from_part - @page's records from the first at or after @from into @out, a page of
 * *@len bytes (*@len 0 when every record is before; *@ts: the first one's time); false
 * when the page is kept whole (unreadable, or nothing before @from)
 */
static bool from_part(const struct ft_page_fmt *pf, const unsigned char *page, uint64_t from,
		      unsigned char *out, uint32_t *len, uint64_t *ts)
{
	struct ft_page_info info;
	struct ft_page_cursor c;
	unsigned int off = 0;

	if (ft_page_info(pf, page, *len, &info))
		return false;
	ft_page_cursor_init(&c, pf, page, info.size, info.timestamp);
	while (ft_page_next(&c)) {
		if (c.ts >= from) {
			if (off) {	/* the part, its page's size as the file's pages have */
				memset(out, 0, pf->subbuf_size);
				ft_page_part(pf, page, off, info.size, out);
			}
			*ts = c.ts;
			return off != 0;
		}
		off = c.off;
	}
	if (c.damaged)
		return false;
	*len = 0;
	return true;
}

/**
 * ft_flight_window - the kept pages of [w->from, w->to] (each that overlaps it: from its
 * first record to the next page's) of every CPU, oldest first, to @fn, a page that
 * begins before w->from cut to its records from there (left out when all are before;
 * kept whole after a loss); in @w the earliest record's time, the pages after lost
 * events, whether the size cut it
 */
void ft_flight_window(struct ft_flight *f, struct ft_flight_window *w, ft_page_tap_fn fn,
		      void *ctx)
{
	unsigned char *part = malloc((size_t)f->pf.subbuf_size);
	int cpu;
	uint32_t i;

	w->first = UINT64_MAX;
	for (cpu = 0; cpu < f->ncpus; cpu++) {
		struct ft_flight_cpu *c = &f->cpu[cpu];

		w->cut |= c->cut > w->from;
		for (i = 0; i < c->n; i++) {
			uint32_t s = slot(c, i), len = c->len[s];
			bool last = i + 1 == c->n;
			const unsigned char *pg = c->pg[s];
			uint64_t ts = c->ts[s];

			if (ts > w->to || (!last && c->ts[slot(c, i + 1)] <= w->from))
				continue;
			if (ts < w->from && !c->missed[s] && part &&
			    from_part(&f->pf, pg, w->from, part, &len, &ts)) {
				if (!len)
					continue;
				pg = part;
			}
			if (ts < w->first)
				w->first = ts;
			w->lost_pages += c->missed[s];
			fn(ctx, cpu, pg, len);
		}
	}
	free(part);
}

/*
 * describe - the window's line: the event (or none), the times, the pages after lost
 * events, and (@events: once the file is written) the events in it
 */
static void describe(const struct ft_flight *f, const struct ft_flight_window *w, bool events, char *buf,
		     size_t len)
{
	int n = 0;

	if (w->fired) {
		n = snprintf(buf, len, "%.3f ms %s", f->ev[0].ns / 1e6, f->what);
		if (f->ev[0].tid > 0)
			n += snprintf(buf + n, len - n, " of %s[%d]", f->ev[0].comm, f->ev[0].tid);
		if (f->ev[0].cpu >= 0)
			n += snprintf(buf + n, len - n, " on CPU %d", f->ev[0].cpu);
		n += snprintf(buf + n, len - n, " at %.6f, ", f->ev[0].ts / 1e9);
	} else
		n = snprintf(buf, len, "the last %g s, ", f->o.keep_s);
	n += snprintf(buf + n, len - n, "window %.6f .. ",
		      (w->first > w->from && w->first != UINT64_MAX ? w->first : w->from) / 1e9);
	if (w->to == UINT64_MAX)
		n += snprintf(buf + n, len - n, "the last event");
	else
		n += snprintf(buf + n, len - n, "%.6f", w->to / 1e9);
	n += snprintf(buf + n, len - n, "%s%s, ", w->ended ? " (the run ended first)" : "",
		      w->cut ? " (shortened: its first pages were dropped: --flight-size was "
			       "full, or the latency came late)" : "");
	if (events)
		n += snprintf(buf + n, len - n, "%llu events, ", w->events);
	snprintf(buf + n, len - n, "%llu pages after lost events", w->lost_pages);
}

/*
 * write_window - [from, to] as the next file (@fired: the first waiting latency's; its
 * end past @last, the run's last event: cut there), and its line on stderr; 0, or -1
 * printed
 */
static int write_window(struct ft_flight *f, uint64_t from, uint64_t to, uint64_t last,
			bool fired, const char *tool)
{
	struct ft_flight_window w = { .from = from, .to = to < last ? to : last,
				      .ended = to != UINT64_MAX && to > last, .fired = fired };
	struct ft_capture cap;
	char path[4096], line[512], *text;
	int cpu, ret;

	file_name(f, path, sizeof(path));
	if (ft_capture_open(&cap, path, f->s))
		return -1;
	ft_flight_window(f, &w, ft_capture_tap, &cap);
	describe(f, &w, false, line, sizeof(line));	/* its events are counted as written */
	ret = ft_capture_check(&cap);
	text = ret ? NULL : malloc(strlen(tool) + sizeof(line) + 16);
	if (text) {
		sprintf(text, "%s\nflight %s", tool, line);
		ret = ft_capture_finish(&cap, text);
	} else if (!ret) {
		ft_err("out of memory");
		ret = -1;
	}
	for (cpu = 0; !ret && cpu < f->ncpus; cpu++)
		w.events += cap.events[cpu];
	ft_capture_close(&cap);
	free(text);
	if (ret)
		return -1;
	describe(f, &w, true, line, sizeof(line));
	fprintf(stderr, "ftscope %s: flight: %s: %s\n", f->name, path, line);
	f->files++;
	if (!fired)
		return 0;
	f->fired++;
	memmove(f->ev, f->ev + 1, --f->nev * sizeof(*f->ev));
	f->done = f->o.max_files && f->fired >= f->o.max_files;
	return 0;
}

/* window_of - the first waiting event's window */
static void window_of(const struct ft_flight *f, uint64_t *from, uint64_t *to)
{
	uint64_t keep = (uint64_t)(f->o.keep_s * 1e9);

	*from = f->ev[0].ts > keep ? f->ev[0].ts - keep : 0;
	*to = f->ev[0].ts + (uint64_t)(f->o.after_s * 1e9);
}

/* windows - the waiting windows whose end is merged (@merged), their ends cut at @last */
static int windows(struct ft_flight *f, uint64_t merged, uint64_t last, const char *tool)
{
	uint64_t from, to;

	if (f->err) {
		ft_err("flight recorder: %s", strerror(f->err));
		return -1;
	}
	while (f->nev) {
		window_of(f, &from, &to);
		if (merged < to)
			return 0;
		if (write_window(f, from, to, last, true, tool))
			return -1;
	}
	return 0;
}

/**
 * ft_flight_round - after a merge to @merged: a waiting window whose end is merged is
 * written (@tool: the run's VERSION text). Returns 0, or -1 after one line.
 */
int ft_flight_round(struct ft_flight *f, uint64_t merged, const char *tool)
{
	return windows(f, merged, UINT64_MAX, tool);
}

/**
 * ft_flight_dump - the SECS up to @now (the trace's time: the run's last event, or the
 * merge's at a SIGUSR2, with --trigger or not) as the next file, with every page kept
 * after. Returns 0, or -1 after one line.
 */
int ft_flight_dump(struct ft_flight *f, uint64_t now, const char *tool)
{
	uint64_t keep = (uint64_t)(f->o.keep_s * 1e9);

	if (!f->newest)
		return 0;
	return write_window(f, now > keep ? now - keep : 0, UINT64_MAX, UINT64_MAX, false, tool);
}

/**
 * ft_flight_end - the run's end (its last event at @last): the waiting windows
 * written as far as they got; without --trigger, the last SECS; latencies no window
 * could wait for said. Returns 0, or -1 after one line.
 */
int ft_flight_end(struct ft_flight *f, uint64_t last, const char *tool)
{
	if (f->refused)
		ft_err("flight: %llu latencies over the trigger came while %d windows waited: "
		       "not written", f->refused, FT_FLIGHT_QUEUE);
	return f->o.trigger_ms ? windows(f, UINT64_MAX, last, tool) :
				 ft_flight_dump(f, last, tool);
}

/*
 * writable - can the first file be made where @path says? Opened (never truncated; a
 * file made here removed again) now, so that a wrong path fails before the run, not at
 * its first window. 0, or -1 after one line.
 */
static int writable(const char *path)
{
	struct stat st;
	bool made = stat(path, &st) != 0;
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);

	if (fd < 0) {
		ft_err("cannot write %s: %s", path, strerror(errno));
		return -1;
	}
	close(fd);
	if (made)
		unlink(path);
	return 0;
}

/**
 * ft_flight_init - the rings of @s's CPUs, --flight-size shared among them; @path the
 * first file's name (its directory must be writable now: an error comes before the
 * run); @name and @what, the analyzer's and its measure's, for the lines. Returns 0,
 * or -1 printed.
 */
int ft_flight_init(struct ft_flight *f, const struct ft_flight_opts *o, const char *path,
		   const char *name, const char *what, struct ft_session *s,
		   struct ft_tasks *tasks)
{
	uint64_t per_cpu;
	int i;

	memset(f, 0, sizeof(*f));
	if (writable(path))
		return -1;
	f->o = *o;
	f->path = path;
	f->name = name;
	f->s = s;
	f->tasks = tasks;
	f->pf = s->pf;
	f->ncpus = s->ncpus;
	snprintf(f->what, sizeof(f->what), "%s", what ? what : "latency");
	per_cpu = ((uint64_t)o->size_mb << 20) / (uint64_t)s->ncpus;
	f->cpu = calloc(s->ncpus, sizeof(*f->cpu));
	if (!f->cpu) {
		ft_err("out of memory");
		return -1;
	}
	for (i = 0; i < s->ncpus; i++)
		f->cpu[i].max = (uint32_t)(per_cpu / (uint64_t)f->pf.subbuf_size);
	return 0;
}

/* ft_flight_fini - free the rings (again: nothing) */
void ft_flight_fini(struct ft_flight *f)
{
	int i;

	for (i = 0; f->cpu && i < f->ncpus; i++) {
		struct ft_flight_cpu *c = &f->cpu[i];

		if (c->arena)
			munmap(c->arena, (size_t)c->max * (size_t)f->pf.subbuf_size);
		free(c->pg);
		free(f->cpu[i].ts);
		free(f->cpu[i].len);
		free(f->cpu[i].missed);
	}
	FT_FREE(f->cpu);
}
