// SPDX-License-Identifier: GPL-2.0
/*
 * Samples kept in a trace.dat: written by a live run with -o, read back with -i.
 * The blob is untrusted when read: every length is checked against its end.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "events/sample.h"
#include "lib/util.h"

/* FTSAMP2: with the dwarf part (FLAG_DWARF), which a reader of FTSAMP1 would take for
   the names: it refuses the blob instead of misreading it. FTSAMP3 (what is written
   now; the dwarf part as FLAG_DWARF says): records may be a process's mappings as they
   changed (MAPS_REC), which older readers would take for damage: they refuse it */
static const char magic[8] = "FTSAMP1", magic2[8] = "FTSAMP2", magic3[8] = "FTSAMP3";

/* nk of a mappings record: u32 length and that many bytes of PROCMAPS text follow; it
   belongs to the sample right after it (of the same process) */
#define MAPS_REC	0xffff

#define HEAD_FIXED	(8 + 8 + 8 + 4 + 4)
#define REC_FIXED	(8 + 8 + 4 + 4 + 4 + 2 + 2)
#define COMM_REC	(4 + 16)
/* Header flags: 1 user frames, 2 kernel frames, 4 dwarf (the stack copy's size and the
   user stacks' unwinding counts follow the counts) */
#define FLAG_DWARF	4

/* put - append @n bytes at @off of @buf */
static void put(unsigned char *buf, size_t *off, const void *v, size_t n)
{
	memcpy(buf + *off, v, n);
	*off += n;
}

/* get - take @n bytes from @p, false past @end */
static bool get(const unsigned char **p, const unsigned char *end, void *v, size_t n)
{
	if ((size_t)(end - *p) < n)
		return false;
	memcpy(v, *p, n);
	*p += n;
	return true;
}

/**
 * ft_sample_callgraph_opt - --call-graph fp|dwarf[,SIZE] into @r, as perf record takes
 * it: SIZE the bytes of user stack copied per sample, a multiple of 8 up to the
 * kernel's limit. Returns 0, or -1 after one error line.
 */
int ft_sample_callgraph_opt(struct ft_sample_req *r, const char *arg)
{
	const char *size = strchr(arg, ',');
	size_t mode = size ? (size_t)(size - arg) : strlen(arg);
	unsigned long long v;
	char *end;

	if (mode == 2 && !strncmp(arg, "fp", 2) && !size) {
		r->callgraph = FT_CG_FP;
		return 0;
	}
	if (mode != 5 || strncmp(arg, "dwarf", 5)) {
		ft_err("--call-graph takes fp or dwarf[,SIZE], not '%s'", arg);
		return -1;
	}
	r->callgraph = FT_CG_DWARF;
	r->stack_user = 0;
	if (!size)
		return 0;
	errno = 0;
	v = size[1] >= '0' && size[1] <= '9' ? strtoull(size + 1, &end, 10) : 0;
	if (errno || !v || *end || v % 8 || v > FT_STACK_USER_MAX) {
		ft_err("--call-graph dwarf,SIZE: SIZE is the bytes of user stack copied per "
		       "sample, a multiple of 8 from 8 to %d (the kernel's limit), not '%s'",
		       FT_STACK_USER_MAX, size + 1);
		return -1;
	}
	r->stack_user = (uint32_t)v;
	return 0;
}

/* ft_sample_unwind_key - a JSON key for why user stacks ended (enum ft_unwind_end) */
const char *ft_sample_unwind_key(int why)
{
	static const char *const key[FT_UNWIND_NEND] = {
		[FT_UNWIND_DONE] = "whole", [FT_UNWIND_MAX] = "at_frame_limit",
		[FT_UNWIND_STACK] = "beyond_stack_copy", [FT_UNWIND_NOMAP] = "at_unmapped_code",
		[FT_UNWIND_NOCFI] = "without_cfi", [FT_UNWIND_BADCFI] = "at_unhandled_cfi",
		[FT_UNWIND_LOOP] = "looped",
	};

	return why >= 0 && why < FT_UNWIND_NEND ? key[why] : "other";
}

/* ft_sample_unwound - how many user stacks were unwound by CFI */
unsigned long long ft_sample_unwound(const struct ft_sample_counts *c)
{
	unsigned long long n = 0;
	int i;

	for (i = 0; i < FT_UNWIND_NEND; i++)
		n += c->unwound[i];
	return n;
}

/*
 * ft_sample_unwind_note - "WHO: user stacks unwound by CFI ...": how many, and where
 * the walks that did not reach the outermost frame stopped (nothing when none was)
 */
void ft_sample_unwind_note(FILE *f, const char *who, const struct ft_sample_req *r,
			   const struct ft_sample_counts *c)
{
	static const char *const why[FT_UNWIND_NEND] = {
		[FT_UNWIND_MAX] = "at %d frames (deeper ones cut)",
		[FT_UNWIND_STACK] = "beyond the stack copy (a stack deeper than --call-graph "
				    "dwarf,SIZE: raise SIZE)",
		[FT_UNWIND_NOMAP] = "at code in no file (JIT, or mappings unknown)",
		[FT_UNWIND_NOCFI] = "at code without CFI and a sound frame pointer",
		[FT_UNWIND_BADCFI] = "at a CFI rule not taken, or a damaged table",
		[FT_UNWIND_LOOP] = "where the stack pointer did not grow",
	};

	unsigned long long n = ft_sample_unwound(c);
	const char *sep = "; stopped: ";
	int i;

	if (!n || !r || r->callgraph != FT_CG_DWARF)
		return;
	fprintf(f, "%s: user stacks unwound by CFI from %u-byte stack copies: %llu of %llu whole",
		who, r->stack_user, c->unwound[FT_UNWIND_DONE], n);
	for (i = 1; i < FT_UNWIND_NEND; i++) {
		if (!c->unwound[i])
			continue;
		fprintf(f, "%s%llu ", sep, c->unwound[i]);
		fprintf(f, why[i], FT_SAMPLE_MAX_STACK);
		sep = ", ";
	}
	fputs(*sep == ',' ? " (the frames before the stop kept)\n" : "\n", f);
}

/**
 * ft_sample_blob_head - the header of a blob: what was sampled and what was lost
 * Returns 0, or -1 when out of memory (*buf malloc'ed, *len its size).
 */
int ft_sample_blob_head(unsigned char **buf, size_t *len, const struct ft_sample_req *r,
			const struct ft_sample_counts *c, const struct ft_sample_comm *comm,
			uint32_t ncomm)
{
	const char *ev = r->event ? r->event : "cpu-clock";
	uint32_t nlen = (uint32_t)strnlen(ev, 127), flags = (r->user ? 1 : 0) | (r->kernel ? 2 : 0);
	uint64_t counts[4] = { c->samples, c->lost, c->throttled, c->bad };
	uint32_t dwarf[2] = { r->stack_user, FT_UNWIND_NEND };
	size_t off = 0;
	uint32_t i;

	if (r->callgraph == FT_CG_DWARF)
		flags |= FLAG_DWARF;
	*buf = malloc(HEAD_FIXED + nlen + sizeof(counts) + sizeof(dwarf) + sizeof(c->unwound) + 4 +
		      (size_t)ncomm * COMM_REC);
	if (!*buf)
		return -1;
	put(*buf, &off, magic3, 8);
	put(*buf, &off, &r->freq, 8);
	put(*buf, &off, &r->period, 8);
	put(*buf, &off, &flags, 4);
	put(*buf, &off, &nlen, 4);
	put(*buf, &off, ev, nlen);
	put(*buf, &off, counts, sizeof(counts));
	if (flags & FLAG_DWARF) {
		put(*buf, &off, dwarf, sizeof(dwarf));
		put(*buf, &off, c->unwound, sizeof(c->unwound));
	}
	put(*buf, &off, &ncomm, 4);
	for (i = 0; i < ncomm; i++) {
		put(*buf, &off, &comm[i].tid, 4);
		put(*buf, &off, comm[i].comm, 16);
	}
	*len = off;
	return 0;
}

/* rec_head - a record's fixed part at *@off: @s's time, period, ids, and @nk, @nu */
static void rec_head(unsigned char *buf, size_t *off, const struct ft_sample *s, uint16_t nk,
		     uint16_t nu)
{
	uint32_t pid = (uint32_t)s->pid, tid = (uint32_t)s->tid, cpu = (uint32_t)s->cpu;

	put(buf, off, &s->ts, 8);
	put(buf, off, &s->period, 8);
	put(buf, off, &pid, 4);
	put(buf, off, &tid, 4);
	put(buf, off, &cpu, 4);
	put(buf, off, &nk, 2);
	put(buf, off, &nu, 2);
}

/*
 * ft_sample_blob_add - append one sample's record, after its process's mappings where
 * they came with it (s->maps: new or changed); -1 when out of memory
 */
int ft_sample_blob_add(unsigned char **buf, size_t *len, size_t *cap, const struct ft_sample *s)
{
	uint32_t mlen = s->maps && s->maps_len < UINT32_MAX ? (uint32_t)s->maps_len : 0;
	size_t need = REC_FIXED + 8 * (size_t)(s->nk + s->nu) + (mlen ? REC_FIXED + 4 + mlen : 0);
	size_t off = *len;

	if (*len + need > *cap) {
		size_t ncap = *cap ? *cap * 2 : 1 << 16;
		unsigned char *n;

		while (ncap < *len + need)
			ncap *= 2;
		n = realloc(*buf, ncap);
		if (!n)
			return -1;
		*buf = n;
		*cap = ncap;
	}
	if (mlen) {
		rec_head(*buf, &off, s, MAPS_REC, 0);
		put(*buf, &off, &mlen, 4);
		put(*buf, &off, s->maps, mlen);
	}
	rec_head(*buf, &off, s, (uint16_t)s->nk, (uint16_t)s->nu);
	put(*buf, &off, s->ip, 8 * (size_t)(s->nk + s->nu));
	*len = off;
	return 0;
}

/*
 * file_dwarf - a dwarf header's part: the stack copy's size and why each user stack's
 * walk ended (reasons this reader does not know are counted as damaged tables); true
 * when it is damaged (cut short)
 */
static bool file_dwarf(struct ft_sample_file *f, const unsigned char **p,
		       const unsigned char *end)
{
	uint32_t dwarf[2], i;
	uint64_t n = 0;

	if (!get(p, end, dwarf, sizeof(dwarf)) || dwarf[1] > (size_t)(end - *p) / 8)
		return true;
	f->req.callgraph = FT_CG_DWARF;
	f->req.stack_user = dwarf[0];
	for (i = 0; i < dwarf[1]; i++) {
		get(p, end, &n, 8);
		f->counts.unwound[i < FT_UNWIND_NEND ? i : FT_UNWIND_BADCFI] += n;
	}
	return false;
}

/**
 * ft_sample_file_open - read a blob's header
 * Returns 0, or -1 (errno EINVAL) when it is not a sample blob or is damaged.
 */
int ft_sample_file_open(struct ft_sample_file *f, const void *blob, size_t len)
{
	const unsigned char *p = blob, *end = p + len;
	uint64_t counts[4];
	uint32_t flags, nlen;
	char m[8];

	memset(f, 0, sizeof(*f));
	if (!get(&p, end, m, 8) ||
	    (memcmp(m, magic, 8) && memcmp(m, magic2, 8) && memcmp(m, magic3, 8)) ||
	    !get(&p, end, &f->req.freq, 8) ||
	    !get(&p, end, &f->req.period, 8) || !get(&p, end, &flags, 4) ||
	    !get(&p, end, &nlen, 4) || nlen >= sizeof(f->event) ||
	    (memcmp(m, magic3, 8) && !(flags & FLAG_DWARF) != !memcmp(m, magic, 8)) ||
	    !get(&p, end, f->event, nlen) || !get(&p, end, counts, sizeof(counts)) ||
	    ((flags & FLAG_DWARF) && file_dwarf(f, &p, end)) ||
	    !get(&p, end, &f->ncomm, 4) || f->ncomm > (size_t)(end - p) / COMM_REC) {
		errno = EINVAL;
		return -1;
	}
	f->comms = p;
	p += (size_t)f->ncomm * COMM_REC;
	f->event[nlen] = '\0';
	f->req.event = f->event;
	f->req.user = flags & 1;
	f->req.kernel = flags & 2;
	f->counts.samples = counts[0];
	f->counts.lost = counts[1];
	f->counts.throttled = counts[2];
	f->counts.bad = counts[3];
	f->rec = p;
	f->end = end;
	f->maps_recs = !memcmp(m, magic3, 8);
	return 0;
}

/* ft_sample_file_comm - the @i-th name the file kept (i < f->ncomm), NUL-ended */
void ft_sample_file_comm(const struct ft_sample_file *f, uint32_t i, struct ft_sample_comm *c)
{
	memcpy(&c->tid, f->comms + (size_t)i * COMM_REC, 4);
	memcpy(c->comm, f->comms + (size_t)i * COMM_REC + 4, 16);
	c->comm[15] = '\0';
}

/**
 * ft_sample_file_next - the next sample; its frames go to @ip (FT_SAMPLE_MAX_STACK x 2)
 * Returns 1, 0 at the end, or -1 (errno EINVAL) at a damaged record (the rest is dropped).
 */
int ft_sample_file_next(struct ft_sample_file *f, struct ft_sample *s, uint64_t *ip)
{
	uint32_t pid, tid, cpu, mlen = 0, mpid = 0;
	const unsigned char *maps = NULL;
	uint16_t nk, nu;

	if (f->rec == f->end)
		return 0;
	for (;;) {
		if (!get(&f->rec, f->end, &s->ts, 8) || !get(&f->rec, f->end, &s->period, 8) ||
		    !get(&f->rec, f->end, &pid, 4) || !get(&f->rec, f->end, &tid, 4) ||
		    !get(&f->rec, f->end, &cpu, 4) || !get(&f->rec, f->end, &nk, 2) ||
		    !get(&f->rec, f->end, &nu, 2))
			goto bad;
		if (nk != MAPS_REC || maps || !f->maps_recs)
			break;
		/* a process's mappings, for the sample that follows (of that process) */
		if (nu || !get(&f->rec, f->end, &mlen, 4) || !mlen ||
		    mlen > (size_t)(f->end - f->rec))
			goto bad;
		maps = f->rec;
		mpid = pid;
		f->rec += mlen;
	}
	if (nk > FT_SAMPLE_MAX_STACK || nu > FT_SAMPLE_MAX_STACK || (maps && pid != mpid) ||
	    !get(&f->rec, f->end, ip, 8 * (size_t)(nk + nu)))
		goto bad;
	s->pid = (int)pid;
	s->tid = (int)tid;
	s->cpu = (int)cpu;
	s->nk = nk;
	s->nu = nu;
	s->event = 0;		/* a file keeps one event (a second is never recorded) */
	s->ip = ip;
	s->maps = (const char *)maps;
	s->maps_len = mlen;
	s->comm = NULL;
	return 1;
bad:
	f->rec = f->end;
	errno = EINVAL;
	return -1;
}
