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

#include "analyzers/analyzer.h"
#include "analyzers/bio_rwbs.h"
#include "events/tasks.h"
#include "lib/parse.h"
#include "lib/util.h"
#include "output/hist.h"
#include "output/json.h"
#include "output/metrics.h"

/* Field indexes, the same in each declaration (complete: error where others have bytes). */
enum { F_DEV, F_SECTOR, F_NR_SECTOR, F_RWBS, F_BYTES, F_COMM };

/* One request in flight. */
struct req {
	bool		used, write, issued, inserted, requeued;
	unsigned int	dups;		/* more requests of this key in flight: ambiguous */
	uint32_t	dev;
	uint64_t	sector;
	uint64_t	t_insert, t_issue;
	int		pid;
	uint32_t	bytes;
	int		flags;
};

/* Histograms per disk (-D) or per flags (-F): few, so a plain array. */
struct group {
	uint32_t		key;
	struct ft_hist		hist;
	unsigned long long	not_issued, ambiguous;	/* -D: the disk's share of the notes */
};

/* A device's name: /sys/dev/block live, MAJ:MIN from a file. */
struct disk {
	uint32_t	dev;
	char		name[32];
};

struct notes {
	unsigned long long	not_issued;	/* completions without a traced issue */
	unsigned long long	ambiguous;	/* requests sharing a key in flight */
	unsigned long long	dropped;	/* in flight when events were lost */
	unsigned long long	direct;		/* -Q: issued without an insert */
	unsigned long long	oom;		/* requests there was no memory for */
};

struct biolat {
	const struct ft_env	*env;
	const struct ft_unit	*unit;
	bool			per_disk, per_flag, queued;
	bool			min_set;
	long			min_us;		/* --min-us N */
	struct ft_tp		tp_issue, tp_complete, tp_insert, tp_requeue;
	struct req		*tab;		/* open addressing, linear probing */
	unsigned int		mask, count;
	struct ft_hist		total;
	struct group		*groups;
	unsigned int		ngroups;
	struct disk		*disks;
	unsigned int		ndisks;
	struct notes		n;
	uint64_t		first_ts;	/* biosnoop's TIME(s) origin */
	bool			oom;
};

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
	if (b->min_set && env->json) {
		ft_err("--min-us lists requests as text; it does not go with --json");
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

/* read_devname - DEVNAME of /sys/dev/block/MAJ:MIN/uevent into @buf; false when none */
static bool read_devname(unsigned int maj, unsigned int min, char *buf, size_t len)
{
	char path[64], line[128];
	bool found = false;
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/uevent", maj, min);
	f = fopen(path, "re");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		if (!strncmp(line, "DEVNAME=", 8)) {
			n = strcspn(line + 8, "\n");
			n = n < len ? n : len - 1;
			memcpy(buf, line + 8, n);
			buf[n] = 0;
			found = n > 0;
		}
	fclose(f);
	return found;
}

/* disk_name - the name of @dev (the kernel's MAJOR << 20 | MINOR), looked up once */
static const char *disk_name(struct biolat *b, uint32_t dev)
{
	unsigned int i, maj = dev >> 20, min = dev & 0xfffff;
	struct disk *d;

	for (i = 0; i < b->ndisks; i++)
		if (b->disks[i].dev == dev)
			return b->disks[i].name;
	d = realloc(b->disks, (b->ndisks + 1) * sizeof(*d));
	if (!d)
		return "?";
	b->disks = d;
	d += b->ndisks++;
	d->dev = dev;
	if (!b->env->live || !read_devname(maj, min, d->name, sizeof(d->name)))
		snprintf(d->name, sizeof(d->name), "%u:%u", maj, min);
	return d->name;
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

/* get - the request of a key, made when missing (NULL on ENOMEM) */
static struct req *get(struct biolat *b, uint32_t dev, bool write, uint64_t sector)
{
	struct req *r = find(b, dev, write, sector);

	if (r->used)
		return r;
	if ((b->count + 1) * 4 > (b->mask + 1) * 3) {
		if (!grow(b))
			return NULL;
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
	b->mask = 1023;
	b->tab = calloc(b->mask + 1, sizeof(*b->tab));
	if (!b->tab) {
		ft_err("out of memory");
		return -1;
	}
	if (b->min_set) {
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

	if (!r) {
		b->n.oom++;
		return;
	}
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

	if (!r) {
		b->n.oom++;
		return;
	}
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

/* group_get - the group of @key, made when missing; NULL on ENOMEM */
static struct group *group_get(struct biolat *b, uint32_t key)
{
	struct group *g;
	unsigned int i;

	for (i = 0; i < b->ngroups; i++)
		if (b->groups[i].key == key)
			return &b->groups[i];
	g = realloc(b->groups, (b->ngroups + 1) * sizeof(*g));
	if (!g) {
		b->oom = true;
		return NULL;
	}
	b->groups = g;
	memset(&g[i], 0, sizeof(g[i]));
	g[i].key = key;
	b->ngroups++;
	return &g[i];
}

/* group_add - the value also goes to its disk's or flags' histogram */
static void group_add(struct biolat *b, uint32_t key, uint64_t ns)
{
	struct group *g = group_get(b, key);

	if (g)
		ft_hist_add(&g->hist, b->unit, ns);
}

/* disk_note - -D: count a request of disk @dev that was not timed (@ambiguous or not issued) */
static void disk_note(struct biolat *b, uint32_t dev, bool ambiguous)
{
	struct group *g = b->per_disk ? group_get(b, dev) : NULL;

	if (g && ambiguous)
		g->ambiguous++;
	else if (g)
		g->not_issued++;
}

/* print_slow - biosnoop's line for a request of at least --min-us */
static void print_slow(struct biolat *b, const struct req *r, uint64_t end, uint64_t que,
		       uint64_t lat)
{
	if (!b->first_ts)
		b->first_ts = end;
	fprintf(b->env->out, "%-11.6f %-14.14s %-6d %-7s %-1s %-10llu %-7u ", (end - b->first_ts) / 1e9,
	       ft_tasks_comm(b->env->tasks, r->pid), r->pid, disk_name(b, r->dev),
	       r->write ? "W" : "R", (unsigned long long)r->sector, r->bytes);
	if (b->queued)
		fprintf(b->env->out, "%7.3f ", que / 1e6);
	fprintf(b->env->out, "%7.3f\n", lat / 1e6);
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
	ft_hist_add(&b->total, b->unit, ns);
	if (b->per_disk)
		group_add(b, r->dev, ns);
	else if (b->per_flag)
		group_add(b, r->flags, ns);
	if (b->min_set && ns >= (uint64_t)b->min_us * 1000)
		print_slow(b, r, ev->ts, que, ns - que);
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

/*
 * group_label - the name a group prints under, the disk's or the flags', copied into
 * @buf (a disk's name moves when the next disk is added)
 */
static const char *group_label(struct biolat *b, const struct group *g, char *buf, size_t len)
{
	if (b->per_flag)
		ft_bio_flags_name((int)g->key, buf, len);
	else
		snprintf(buf, len, "%s", disk_name(b, g->key));
	return buf;
}

/* cmp_group_name - groups by the name each element of sort_groups starts with */
static int cmp_group_name(const void *x, const void *y)
{
	return strcmp(x, y);
}

/* sort_groups - the groups in the order of their names (loop0 before loop1, vda) */
static void sort_groups(struct biolat *b)
{
	struct { char name[96]; struct group g; } *t;
	unsigned int i;

	t = calloc(b->ngroups ? b->ngroups : 1, sizeof(*t));
	if (!t)
		return;	/* printed in the order first seen */
	for (i = 0; i < b->ngroups; i++) {
		t[i].g = b->groups[i];
		group_label(b, &t[i].g, t[i].name, sizeof(t[i].name));
	}
	qsort(t, b->ngroups, sizeof(*t), cmp_group_name);
	for (i = 0; i < b->ngroups; i++)
		b->groups[i] = t[i].g;
	free(t);
}

/* in_flight - requests issued or queued and not completed (now: the end of the trace) */
static unsigned long long in_flight(const struct biolat *b)
{
	unsigned long long n = 0;
	unsigned int i;

	for (i = 0; i <= b->mask; i++)
		if (b->tab[i].used)
			n += 1 + b->tab[i].dups;
	return n;
}

/* print_notes - every request that has no latency, and why */
static void print_notes(struct biolat *b, FILE *f, bool final)
{
	const struct notes *n = &b->n;

	if (n->not_issued)
		fprintf(f, "biolatency: %llu completions whose issue was not traced (issued "
			"before the trace began): not timed\n", n->not_issued);
	if (n->ambiguous)
		fprintf(f, "biolatency: %llu requests shared (disk, sector) with another in flight: "
			"not timed\n", n->ambiguous);
	if (n->dropped)
		fprintf(f, "biolatency: %llu requests in flight when events were lost: not timed\n",
			n->dropped);
	if (n->direct)
		fprintf(f, "biolatency: %llu requests had no block_rq_insert (issued directly, or "
			"queued before the trace): timed from their issue\n", n->direct);
	if (n->oom || b->oom)
		fprintf(f, "biolatency: out of memory: %llu requests not timed%s\n", n->oom,
			b->oom ? ", some only in the total" : "");
	if (final && in_flight(b))
		fprintf(f, "biolatency: %llu requests still in flight at the end: not timed\n",
			in_flight(b));
}

/* print_json - the histograms and the notes */
static void print_json(struct biolat *b, struct ft_json *j, bool final)
{
	char buf[96];
	unsigned int i;

	ft_json_str(j, "group_by", b->per_disk ? "disk" : b->per_flag ? "flags" : "none");
	ft_json_bool(j, "queued", b->queued);
	ft_hist_json(j, "total", &b->total, b->unit);
	ft_json_arr_begin(j, "groups");
	for (i = 0; i < b->ngroups; i++) {
		struct group *g = &b->groups[i];

		ft_json_obj_begin(j, NULL);
		ft_json_str(j, b->per_flag ? "flags" : "disk", group_label(b, g, buf, sizeof(buf)));
		if (b->per_disk) {
			snprintf(buf, sizeof(buf), "%u:%u", g->key >> 20, g->key & 0xfffff);
			ft_json_str(j, "dev", buf);
			ft_json_u64(j, "not_issued_in_trace", g->not_issued);
			ft_json_u64(j, "ambiguous", g->ambiguous);
		}
		ft_hist_json(j, "hist", &g->hist, b->unit);
		ft_json_obj_end(j);
	}
	ft_json_arr_end(j);
	ft_json_u64(j, "not_issued_in_trace", b->n.not_issued);
	ft_json_u64(j, "ambiguous", b->n.ambiguous);
	ft_json_u64(j, "dropped_after_loss", b->n.dropped);
	if (b->queued)
		ft_json_u64(j, "without_insert", b->n.direct);
	ft_json_u64(j, "out_of_memory", b->n.oom);
	if (final)
		ft_json_u64(j, "in_flight_at_end", in_flight(b));
}

/* biolat_report - BCC's histograms (per disk or flags), then what was not timed */
static void biolat_report(void *priv, struct ft_report *rep)
{
	struct biolat *b = priv;
	char buf[96];
	unsigned int i;

	sort_groups(b);
	if (rep->json) {
		print_json(b, rep->json, rep->final);
		goto done;
	}
	if (b->min_set)
		fputc('\n', rep->f);
	if (!b->per_disk && !b->per_flag) {
		ft_hist_print_log2(rep->f, &b->total, b->unit->label);
		ft_hist_print_summary(rep->f, &b->total, b->unit);
	}
	for (i = 0; i < b->ngroups; i++) {
		fprintf(rep->f, "\n%s = %s\n", b->per_disk ? "disk" : "flags",
			group_label(b, &b->groups[i], buf, sizeof(buf)));
		ft_hist_print_log2(rep->f, &b->groups[i].hist, b->unit->label);
		ft_hist_print_summary(rep->f, &b->groups[i].hist, b->unit);
	}
	print_notes(b, rep->f, rep->final);
done:
	if (rep->interval) {
		ft_hist_reset(&b->total);
		for (i = 0; i < b->ngroups; i++)
			ft_hist_fini(&b->groups[i].hist);
		b->ngroups = 0;
		memset(&b->n, 0, sizeof(b->n));
		b->oom = false;
	}
}

/*
 * biolat_metrics - ftscope_biolatency_seconds as the report groups it: one series,
 * or one per disk (-D) or set of flags (-F), labelled disk or flags
 */
static void biolat_metrics(void *priv, struct ft_metrics *m)
{
	struct biolat *b = priv;
	char buf[96];
	unsigned int i;

	if (!b->per_disk && !b->per_flag)
		ft_metrics_hist(m, "biolatency", NULL, 0, &b->total, b->unit);
	for (i = 0; i < b->ngroups; i++) {
		struct ft_label l = { b->per_disk ? "disk" : "flags",
				      group_label(b, &b->groups[i], buf, sizeof(buf)) };

		ft_metrics_hist(m, "biolatency", &l, 1, &b->groups[i].hist, b->unit);
	}
}

/* biolat_fini - free everything */
static void biolat_fini(void *priv)
{
	struct biolat *b = priv;
	unsigned int i;

	ft_hist_fini(&b->total);
	for (i = 0; i < b->ngroups; i++)
		ft_hist_fini(&b->groups[i].hist);
	free(b->groups);
	free(b->disks);
	free(b->tab);
	b->groups = NULL;
	b->disks = NULL;
	b->tab = NULL;
}

const struct ft_analyzer ft_biolatency = {
	.cli = {
		.name		= "biolatency",
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
	.metrics	= biolat_metrics,
	.fini		= biolat_fini,
};
