// SPDX-License-Identifier: GPL-2.0
/*
 * biolatency's output: device names, the --min-us list (biosnoop's columns, or rows
 * with --json), the histograms, notes and metrics.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzers/biolatency.h"
#include "analyzers/bio_rwbs.h"
#include "events/tasks.h"
#include "lib/util.h"
#include "output/hset.h"
#include "output/json.h"
#include "output/metrics.h"

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

/* dev_text - "MAJOR:MINOR" of @dev (the kernel's MAJOR << 20 | MINOR) */
static void dev_text(uint32_t dev, char *buf, size_t len)
{
	snprintf(buf, len, "%u:%u", dev >> 20, dev & 0xfffff);
}

/* json_slow - a --min-us request as a line of its own, as it comes (--json) */
static void json_slow(struct biolat *b, const struct req *r, uint64_t end, uint64_t que,
		      uint64_t lat)
{
	struct ft_json j;
	char dev[24];

	ft_json_row(&j, b->env->out, "biolatency");
	ft_json_u64(&j, "time_ns", end);
	ft_json_str(&j, "comm", ft_tasks_comm(b->env->tasks, r->pid));
	ft_json_i64(&j, "pid", r->pid);
	ft_json_str(&j, "disk", disk_name(b, r->dev));
	dev_text(r->dev, dev, sizeof(dev));
	ft_json_str(&j, "dev", dev);
	ft_json_str(&j, "rw", r->write ? "W" : "R");
	ft_json_u64(&j, "sector", r->sector);
	ft_json_u64(&j, "bytes", r->bytes);
	if (b->queued)
		ft_json_u64(&j, "queued_ns", que);
	ft_json_u64(&j, "latency_ns", lat);
	ft_json_obj_end(&j);
}

/* biolat_slow - biosnoop's line for a request of at least --min-us (--json: a row) */
void biolat_slow(struct biolat *b, const struct req *r, uint64_t end, uint64_t que,
		       uint64_t lat)
{
	if (!b->first_ts)
		b->first_ts = end;
	if (b->env->json) {
		json_slow(b, r, end, que, lat);
		return;
	}
	fprintf(b->env->out, "%-11.6f %-14.14s %-6d %-7s %-1s %-10llu %-7u ", (end - b->first_ts) / 1e9,
	       ft_tasks_comm(b->env->tasks, r->pid), r->pid, disk_name(b, r->dev),
	       r->write ? "W" : "R", (unsigned long long)r->sector, r->bytes);
	if (b->queued)
		fprintf(b->env->out, "%7.3f ", que / 1e6);
	fprintf(b->env->out, "%7.3f\n", lat / 1e6);
}

/* biolat_group - the histogram of disk or flags @key, made (named) when new; NULL: ENOMEM */
struct ft_hentry *biolat_group(struct biolat *b, uint32_t key)
{
	struct ft_hentry *g = ft_hset_key(&b->h, (int)key);
	char name[96];

	if (g)
		return g;
	if (b->per_flag)
		ft_bio_flags_name((int)key, name, sizeof(name));
	else
		snprintf(name, sizeof(name), "%s", disk_name(b, key));
	return ft_hset_new(&b->h, (int)key, name, -1);
}

/* by_name - the groups in the order of their names (loop0 before loop1, vda) */
static int by_name(const void *x, const void *y)
{
	return strcmp(((const struct ft_hentry *)x)->name, ((const struct ft_hentry *)y)->name);
}

/* disk_json - -D: a disk's MAJOR:MINOR and its share of the notes */
static void disk_json(struct ft_json *j, const struct ft_hentry *g)
{
	char dev[24];

	dev_text((uint32_t)g->key, dev, sizeof(dev));
	ft_json_str(j, "dev", dev);
	ft_json_u64(j, "not_issued_in_trace", g->n[0]);
	ft_json_u64(j, "ambiguous", g->n[1]);
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
	if (n->oom || b->h.oom)
		fprintf(f, "biolatency: out of memory: %llu requests not timed%s\n", n->oom,
			b->h.oom ? ", some only in the total" : "");
	if (final && in_flight(b))
		fprintf(f, "biolatency: %llu requests still in flight at the end: not timed\n",
			in_flight(b));
}

/* print_json - the histograms and the notes */
static void print_json(struct biolat *b, struct ft_json *j, bool final)
{
	ft_json_str(j, "group_by", b->per_disk ? "disk" : b->per_flag ? "flags" : "none");
	ft_json_bool(j, "queued", b->queued);
	ft_hist_json(j, "total", &b->h.total, b->unit);
	b->h.json_more = b->per_disk ? disk_json : NULL;
	ft_hset_json(&b->h, j, "groups", NULL);
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
void biolat_report(void *priv, struct ft_report *rep)
{
	struct biolat *b = priv;

	ft_hset_sort(&b->h, by_name);
	if (rep->json) {
		print_json(b, rep->json, rep->final);
	} else {
		if (b->min_set)
			fputc('\n', rep->f);
		if (!b->per_disk && !b->per_flag)
			ft_hset_print_hist(&b->h, rep->f, &b->h.total);
		ft_hset_print(&b->h, rep->f, NULL);
		print_notes(b, rep->f, rep->final);
	}
}

/* biolat_reset - the next interval's histograms and counts (requests in flight stay) */
void biolat_reset(void *priv)
{
	struct biolat *b = priv;

	ft_hset_reset(&b->h, true);
	memset(&b->n, 0, sizeof(b->n));
}

/*
 * biolat_metrics - ftscope_biolatency_seconds as the report groups it: one series,
 * or one per disk (-D) or set of flags (-F), labelled disk or flags
 */
void biolat_metrics(void *priv, struct ft_metrics *m)
{
	struct biolat *b = priv;

	if (!b->per_disk && !b->per_flag)
		ft_metrics_hist(m, "biolatency", NULL, 0, &b->h.total, b->unit);
	ft_hset_metrics(&b->h, m, "biolatency", b->per_disk ? "disk" : "flags", NULL, NULL, 0);
}
