// SPDX-License-Identifier: GPL-2.0
/*
 * biolatency: block I/O latency, as BCC's biolatency, from the block tracepoints.
 *
 *   block_rq_insert       block_rq_issue              block_rq_complete
 *        |--- OS queue (-Q) ---|------ device latency ------|
 *
 * The tracepoints carry no request pointer (BCC keys by it), so a request is paired
 * by (dev, write or not, sector), as BCC's tracepoint versions do. What cannot be
 * paired is counted and reported, never guessed:
 * - a completion whose issue was not traced (issued before the trace began);
 * - a request still in flight at the end;
 * - a second issue of a (dev, write, sector) already in flight (flushes have sector 0
 *   and no length): the key is ambiguous until all of them complete, and none of
 *   those requests is timed;
 * - after lost events, every request in flight is forgotten (its completion may
 *   have been lost, and a later request of the same key would pair with it).
 * A requeued request (block_rq_requeue) waits for its next issue, which restarts its
 * device time, as a new blk_mq_start_request does under BCC.
 *
 * --min-us N lists each request of N us or more as it completes, in biosnoop's
 * columns. The task is the one current at block_rq_insert (-Q) or block_rq_issue,
 * which for I/O dispatched from a queue is often a kworker, not the submitter
 * (biosnoop has the same caveat).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzers/biolatency.h"
#include "analyzers/bio_rwbs.h"
#include "events/tasks.h"
#include "lib/parse.h"
#include "lib/util.h"

enum { OPT_MIN_US = 0x100 };

static const struct option biolat_longopts[] = {
	{ "milliseconds",	no_argument,       NULL, 'm' },
	{ "disks",		no_argument,       NULL, 'D' },
	{ "flags",		no_argument,       NULL, 'F' },
	{ "queued",		no_argument,       NULL, 'Q' },
	{ "min-us",		required_argument, NULL, OPT_MIN_US },
	{ 0 }
};

/* biolat_parse_opt - the options only biolatency has */
static int biolat_parse_opt(void *priv, int opt, const char *arg)
{
	struct biolat *b = priv;

	switch (opt) {
	case 'm': b->unit = &ft_unit_ms; return 0;
	case 'D': b->per_disk = true; return 0;
	case 'F': b->per_flag = true; return 0;
	case 'Q': b->queued = true; return 0;
	case OPT_MIN_US:
		if (ft_parse_long(arg, 0, 3600L * 1000000, &b->min_us)) {
			ft_err("bad --min-us '%s': want microseconds, 0 to 3600000000", arg);
			return FT_OPT_REPORTED;
		}
		b->min_set = true;
		return 0;
	}
	return -1;
}

/* biolat_check - -D and -F exclude each other, as in BCC; --min-us lists text */
static int biolat_check(void *priv, const struct ft_env *env)
{
	struct biolat *b = priv;

	if (b->per_disk && b->per_flag) {
		ft_err("-D and -F exclude each other");
		return -1;
	}
	return 0;
}

/* declare - one tracepoint and the fields biolatency reads */
static void declare(struct ft_tp *tp, const char *name, const char *last, bool optional)
{
	memset(tp, 0, sizeof(*tp));
	tp->system = "block";
	tp->name = name;
	tp->field[F_DEV] = "dev";
	tp->field[F_SECTOR] = "sector";
	tp->field[F_NR_SECTOR] = "nr_sector";
	tp->field[F_RWBS] = "rwbs";
	tp->field[F_BYTES] = last;
	tp->optional = optional;
}

/*
 * biolat_tracepoints - issue and complete; insert (required with -Q, else optional so
 * that a recording serves -Q too) and requeue when the kernel has them
 */
static struct ft_tp *biolat_tracepoints(void *priv)
{
	struct biolat *b = priv;

	declare(&b->tp_issue, "block_rq_issue", "bytes", false);
	b->tp_issue.field[F_COMM] = "comm";
	declare(&b->tp_complete, "block_rq_complete", NULL, false);	/* error(s): not read */
	declare(&b->tp_insert, "block_rq_insert", "bytes", !b->queued);
	b->tp_insert.field[F_COMM] = "comm";
	declare(&b->tp_requeue, "block_rq_requeue", NULL, true);
	b->tp_issue.next = &b->tp_complete;
	b->tp_complete.next = &b->tp_insert;
	b->tp_insert.next = &b->tp_requeue;
	return &b->tp_issue;
}

/* hash - spread (dev, write, sector) over the table */
static unsigned int hash(uint32_t dev, bool write, uint64_t sector)
{
	uint64_t h = (sector ^ ((uint64_t)dev << 33) ^ ((uint64_t)write << 32)) *
		     0x9e3779b97f4a7c15ULL;

	return (unsigned int)(h >> 32);
}

/* find - the slot of a key in flight, or the free slot where it would go */
static struct req *find(struct biolat *b, uint32_t dev, bool write, uint64_t sector)
{
	unsigned int i;

	for (i = hash(dev, write, sector) & b->mask; b->tab[i].used; i = (i + 1) & b->mask)
		if (b->tab[i].dev == dev && b->tab[i].write == write &&
		    b->tab[i].sector == sector)
			break;
	return &b->tab[i];
}

/* grow - twice the slots, entries placed again; false on ENOMEM */
static bool grow(struct biolat *b)
{
	unsigned int i, old = b->mask + 1;
	struct req *o = b->tab, *n = calloc((size_t)old * 2, sizeof(*n));

	if (!n)
		return false;
	b->tab = n;
	b->mask = old * 2 - 1;
	for (i = 0; i < old; i++)
		if (o[i].used)
			*find(b, o[i].dev, o[i].write, o[i].sector) = o[i];
	free(o);
	return true;
}

/* del - free slot @r, moving back the entries of its probe run (no tombstones) */
static void del(struct biolat *b, struct req *r)
{
	unsigned int i = r - b->tab, j = i, home;

	b->tab[i].used = false;
	b->count--;
	for (;;) {
		j = (j + 1) & b->mask;
		if (!b->tab[j].used)
			return;
		home = hash(b->tab[j].dev, b->tab[j].write, b->tab[j].sector) & b->mask;
		/* j's entry may move to i when its home is not in (i, j] */
		if ((j > i && (home <= i || home > j)) || (j < i && home <= i && home > j)) {
			b->tab[i] = b->tab[j];
			b->tab[j].used = false;
			i = j;
		}
	}
}

/* get - the request of a key, made when missing (NULL on ENOMEM, counted) */
static struct req *get(struct biolat *b, uint32_t dev, bool write, uint64_t sector)
{
	struct req *r = find(b, dev, write, sector);

	if (r->used)
		return r;
	if ((b->count + 1) * 4 > (b->mask + 1) * 3) {
		if (!grow(b)) {
			b->n.oom++;
			return NULL;
		}
		r = find(b, dev, write, sector);
	}
	memset(r, 0, sizeof(*r));
	r->used = true;
	r->dev = dev;
	r->write = write;
	r->sector = sector;
	b->count++;
	return r;
}

/* biolat_init - an empty table */
static int biolat_init(void *priv, const struct ft_env *env)
{
	struct biolat *b = priv;

	b->env = env;
	if (!b->unit)
		b->unit = &ft_unit_us;
	b->h = (struct ft_hset){ .unit = b->unit, .label = b->per_disk ? "disk" : "flags",
				 .name_key = b->per_disk ? "disk" : "flags" };
	b->mask = 1023;
	b->tab = calloc(b->mask + 1, sizeof(*b->tab));
	if (!b->tab) {
		ft_err("out of memory");
		return -1;
	}
	if (b->min_set && !env->json) {
		fprintf(b->env->out, "%-11s %-14s %-6s %-7s %-1s %-10s %-7s ", "TIME(s)", "COMM", "PID",
		       "DISK", "T", "SECTOR", "BYTES");
		if (b->queued)
			fprintf(b->env->out, "%7s ", "QUE(ms)");
		fprintf(b->env->out, "%7s\n", "LAT(ms)");
	}
	return 0;
}

/* the record's key: device, write or not (and its flags), sector */
struct key {
	uint32_t	dev;
	uint64_t	sector;
	int		flags;
	bool		write;
};

/* rec_key - the key of a block record of @tp */
static struct key rec_key(const struct ft_event *ev, const struct ft_tp *tp)
{
	struct key k;
	int len = 0;
	const char *s = ft_tp_str(ev, tp, F_RWBS, &len);

	k.dev = (uint32_t)ft_tp_num(ev, tp, F_DEV);
	k.sector = (uint64_t)ft_tp_num(ev, tp, F_SECTOR);
	k.flags = s ? ft_bio_rwbs(s, len) : OP_OTHER;
	k.write = (k.flags & OP_MASK) == OP_WRITE;
	return k;
}

/* note_task - the task current at @ev, its comm from the record's own comm field */
static int note_task(struct biolat *b, const struct ft_event *ev, const struct ft_tp *tp)
{
	int len = 0;
	const char *s = ft_tp_str(ev, tp, F_COMM, &len);
	char comm[FT_TASK_COMM_LEN + 1];

	if (s && len > 0 && ev->common_pid > 0) {
		snprintf(comm, sizeof(comm), "%.*s", len, s);
		ft_tasks_note(b->env->tasks, ev->common_pid, comm);
	}
	return ev->common_pid;
}

/* on_insert - -Q: the request enters the OS queue */
static void on_insert(struct biolat *b, const struct ft_event *ev)
{
	struct key k = rec_key(ev, &b->tp_insert);
	struct req *r = get(b, k.dev, k.write, k.sector);

	if (!r)
		return;
	if (r->requeued)
		return;		/* inserted again: its queue time runs from the first */
	if (r->issued || r->inserted) {
		r->dups++;	/* the same key twice in flight: ambiguous */
		return;
	}
	r->inserted = true;
	r->t_insert = ev->ts;
	r->pid = note_task(b, ev, &b->tp_insert);
}

/* on_issue - the request goes to the driver */
static void on_issue(struct biolat *b, const struct ft_event *ev)
{
	struct key k = rec_key(ev, &b->tp_issue);
	struct req *r = get(b, k.dev, k.write, k.sector);

	if (!r)
		return;
	if (r->issued) {
		r->dups++;	/* the same key twice in flight: ambiguous */
		return;
	}
	r->issued = true;
	r->t_issue = ev->ts;
	r->flags = k.flags;
	r->bytes = (uint32_t)ft_tp_num(ev, &b->tp_issue, F_BYTES);
	if (!r->inserted || !r->pid)
		r->pid = note_task(b, ev, &b->tp_issue);
	else
		note_task(b, ev, &b->tp_issue);
}

/* on_requeue - back to the queue: the next issue starts its device time again */
static void on_requeue(struct biolat *b, const struct ft_event *ev)
{
	struct key k = rec_key(ev, &b->tp_requeue);
	struct req *r = find(b, k.dev, k.write, k.sector);

	if (r->used && !r->dups) {
		r->issued = false;
		r->requeued = true;
	}
}

/* disk_note - -D: count a request of disk @dev that was not timed (@ambiguous or not issued) */
static void disk_note(struct biolat *b, uint32_t dev, bool ambiguous)
{
	struct ft_hentry *g = b->per_disk ? biolat_group(b, dev) : NULL;

	if (g)
		g->n[ambiguous]++;
}

/* on_complete - the request is done: its latency, or a note of why it has none */
static void on_complete(struct biolat *b, const struct ft_event *ev)
{
	struct key k = rec_key(ev, &b->tp_complete);
	struct req *r = find(b, k.dev, k.write, k.sector);
	uint64_t start, ns, que = 0;

	if (!r->used || !r->issued) {
		b->n.not_issued++;
		disk_note(b, k.dev, false);
		if (r->used && !r->dups)
			del(b, r);
		return;
	}
	if (r->dups) {
		/* which of them completes cannot be told: none of them is timed */
		b->n.ambiguous++;
		disk_note(b, k.dev, true);
		r->dups--;
		return;
	}
	start = r->t_issue;
	if (b->queued) {
		if (r->inserted && r->t_insert <= r->t_issue)
			start = r->t_insert;
		else
			b->n.direct++;
		que = r->t_issue - start;
	}
	ns = ev->ts > start ? ev->ts - start : 0;
	ft_hset_add(&b->h, b->per_disk ? biolat_group(b, r->dev) :
		    b->per_flag ? biolat_group(b, r->flags) : NULL, ns);
	ft_env_latency(b->env, ns, ev->ts, 0, ev->cpu);
	if (b->min_set && ns >= (uint64_t)b->min_us * 1000)
		biolat_slow(b, r, ev->ts, que, ns - que);
	del(b, r);
}

/* forget_all - events were lost: no request in flight can be paired safely */
static void forget_all(struct biolat *b)
{
	unsigned int i;

	for (i = 0; i <= b->mask; i++)
		if (b->tab[i].used) {
			b->n.dropped += 1 + b->tab[i].dups;
			b->tab[i].used = false;
		}
	b->count = 0;
}

/* biolat_event - one record, in time order */
static void biolat_event(void *priv, const struct ft_event *ev)
{
	struct biolat *b = priv;

	if (ev->type == FT_EV_LOST)
		forget_all(b);
	else if (ft_tp_is(ev, &b->tp_issue))
		on_issue(b, ev);
	else if (ft_tp_is(ev, &b->tp_complete))
		on_complete(b, ev);
	else if (b->queued && ft_tp_is(ev, &b->tp_insert))
		on_insert(b, ev);
	else if (ft_tp_is(ev, &b->tp_requeue))
		on_requeue(b, ev);
}

/* biolat_fini - free everything */
static void biolat_fini(void *priv)
{
	struct biolat *b = priv;

	ft_hset_fini(&b->h);
	free(b->disks);
	free(b->tab);
	b->disks = NULL;
	b->tab = NULL;
}

const struct ft_analyzer ft_biolatency = {
	.cli = {
		.name		= "biolatency",
		.latency	= "I/O",
		.summary	= "block I/O latency histogram, as BCC's biolatency (biosnoop with --min-us)",
		.usage		= "  -m, --milliseconds   histogram in milliseconds (default: microseconds)\n"
				  "  -D, --disks          one histogram per disk\n"
				  "  -F, --flags          one histogram per set of I/O flags (Sync-Write, ...)\n"
				  "  -Q, --queued         include the OS queue time (from block_rq_insert)\n"
				  "      --min-us N       list each request of N us or more as it completes\n"
				  "                       (biosnoop's columns; 0 lists every request)\n",
		.examples	= "  ftscope biolatency                  # whole system until Ctrl-C\n"
				  "  ftscope biolatency 1 10 -T          # ten 1-second histograms, timestamped\n"
				  "  ftscope biolatency -mD -d 5         # per disk, in ms, for 5 seconds\n"
				  "  ftscope biolatency -F -- dd if=/dev/zero of=/dev/loop0 bs=4k count=100 oflag=direct\n"
				  "  ftscope biolatency -Q --min-us 10000  # every request slower than 10 ms\n"
				  "  ftscope record -o io.dat biolatency -d 5; ftscope biolatency -i io.dat -D\n",
		.shortopts	= "mDFQ",
		.longopts	= biolat_longopts,
		.parse_opt	= biolat_parse_opt,
		.check		= biolat_check,
	},
	.whole_system	= true,		/* completions run in interrupts and kworkers */
	.priv_size	= sizeof(struct biolat),
	.tracepoints	= biolat_tracepoints,
	.init		= biolat_init,
	.event		= biolat_event,
	.report		= biolat_report,
	.reset		= biolat_reset,
	.metrics	= biolat_metrics,
	.fini		= biolat_fini,
};
