// SPDX-License-Identifier: GPL-2.0
/*
 * The footer under every report. The pipeline keeps running totals (ft_footer.run);
 * an interval's footer prints their growth since the previous report (BCC's tools
 * print each interval's own figures), and the last report of an interval run adds
 * the run's totals on a line of their own, "total: ...".
 */
#include <stdlib.h>
#include <string.h>

#include "engine/footer.h"
#include "lib/util.h"
#include "output/json.h"
#include "tracer/capture.h"

/* ft_footer_init - three sets of counts with per-CPU arrays; -1 on ENOMEM */
int ft_footer_init(struct ft_footer *ft, int ncpus)
{
	struct ft_counts *c[] = { &ft->run, &ft->base, &ft->delta };
	unsigned int i;

	memset(ft, 0, sizeof(*ft));
	ft->ncpus = ncpus;
	ft->mem = calloc(6 * (size_t)ncpus, sizeof(*ft->mem));
	if (!ft->mem)
		return -1;
	for (i = 0; i < 3; i++) {
		c[i]->lost_cpu = ft->mem + 2 * i * ncpus;
		c[i]->repaired_cpu = ft->mem + (2 * i + 1) * ncpus;
	}
	return 0;
}

/* ft_footer_fini - free the arrays */
void ft_footer_fini(struct ft_footer *ft)
{
	FT_FREE(ft->mem);
}

/* counts_sub - @d = @a - @b, field by field */
static void counts_sub(struct ft_counts *d, const struct ft_counts *a, const struct ft_counts *b,
		       int ncpus)
{
	int cpu;

	d->events = a->events - b->events;
	d->lost = a->lost - b->lost;
	d->lost_unknown = a->lost_unknown - b->lost_unknown;
	d->repaired = a->repaired - b->repaired;
	d->split = a->split - b->split;
	d->bad = a->bad - b->bad;
	d->malformed = a->malformed - b->malformed;
	d->unordered = a->unordered - b->unordered;
	d->sampled = a->sampled;
	d->samples = a->samples - b->samples;
	d->samples_lost = a->samples_lost - b->samples_lost;
	d->throttled = a->throttled - b->throttled;
	d->samples_bad = a->samples_bad - b->samples_bad;
	for (cpu = 0; cpu < ncpus; cpu++) {
		d->lost_cpu[cpu] = a->lost_cpu[cpu] - b->lost_cpu[cpu];
		d->repaired_cpu[cpu] = a->repaired_cpu[cpu] - b->repaired_cpu[cpu];
	}
}

/* counts_copy - @d = @a */
static void counts_copy(struct ft_counts *d, const struct ft_counts *a, int ncpus)
{
	unsigned long long *lost = d->lost_cpu, *repaired = d->repaired_cpu;

	*d = *a;
	d->lost_cpu = lost;
	d->repaired_cpu = repaired;
	memcpy(lost, a->lost_cpu, ncpus * sizeof(*lost));
	memcpy(repaired, a->repaired_cpu, ncpus * sizeof(*repaired));
}

/* per_cpu - "cpu0 N, cpu1 M" for the CPUs with a non-zero count */
static void per_cpu(FILE *f, const unsigned long long *n, int ncpus)
{
	const char *sep = "";
	int cpu;

	for (cpu = 0; cpu < ncpus; cpu++)
		if (n[cpu]) {
			fprintf(f, "%scpu%d %llu", sep, cpu, n[cpu]);
			sep = ", ";
		}
}

/* json_cpus - the array @key of one count per CPU */
static void json_cpus(struct ft_json *j, const char *key, const unsigned long long *n, int ncpus)
{
	int cpu;

	ft_json_arr_begin(j, key);
	for (cpu = 0; cpu < ncpus; cpu++)
		ft_json_u64(j, NULL, n[cpu]);
	ft_json_arr_end(j);
}

/* counts_json - the figures as fields of the open object */
static void counts_json(struct ft_json *j, const struct ft_counts *c, int ncpus)
{
	ft_json_u64(j, "events", c->events);
	ft_json_u64(j, "lost", c->lost);
	json_cpus(j, "lost_per_cpu", c->lost_cpu, ncpus);
	ft_json_u64(j, "lost_unknown_count", c->lost_unknown);
	ft_json_u64(j, "switch_ins_reconstructed", c->repaired);
	json_cpus(j, "switch_ins_reconstructed_per_cpu", c->repaired_cpu, ncpus);
	ft_json_u64(j, "runs_ended_on_another_cpu", c->split);
	ft_json_u64(j, "bad_pages", c->bad);
	ft_json_u64(j, "malformed_records", c->malformed);
	ft_json_u64(j, "unordered_records", c->unordered);
	if (!c->sampled)
		return;
	ft_json_u64(j, "samples", c->samples);
	ft_json_u64(j, "samples_lost", c->samples_lost);
	ft_json_u64(j, "throttled", c->throttled);
	ft_json_u64(j, "malformed_samples", c->samples_bad);
}

/* counts_text - "N events processed, M lost" (per CPU when any), repairs, damage */
static void counts_text(FILE *f, const struct ft_counts *c, int ncpus)
{
	fprintf(f, "%llu events processed, %llu lost", c->events, c->lost);
	if (c->lost) {
		fputs(" (", f);
		per_cpu(f, c->lost_cpu, ncpus);
		fputs("; results may be incomplete)", f);
	}
	if (c->lost_unknown)
		fprintf(f, ", %llu losses of unknown size", c->lost_unknown);
	if (c->repaired) {
		fprintf(f, "; %llu switch-ins reconstructed (", c->repaired);
		per_cpu(f, c->repaired_cpu, ncpus);
		fputc(')', f);
	}
	if (c->split)
		fprintf(f, "; %llu runs ended where the task showed up on another CPU", c->split);
	if (c->bad || c->malformed)
		fprintf(f, "; %llu damaged pages, %llu malformed records skipped", c->bad,
			c->malformed);
	if (c->unordered)
		fprintf(f, "; %llu records came after later ones", c->unordered);
	if (c->sampled) {
		fprintf(f, "; %llu samples, %llu lost", c->samples, c->samples_lost);
		if (c->samples_lost)
			fputs(" (results may be incomplete)", f);
		if (c->throttled)
			fprintf(f, ", throttled %llu times (the kernel lowered the rate)",
				c->throttled);
		if (c->samples_bad)
			fprintf(f, ", %llu malformed skipped", c->samples_bad);
	}
	fputc('\n', f);
}

/* hotplug_json - "cpus_went_offline": one object per CPU that did, when any did */
static void hotplug_json(const struct ft_footer *ft, struct ft_json *j)
{
	bool any = false;
	int cpu;

	for (cpu = 0; ft->offline && cpu < ft->ncpus; cpu++) {
		if (!ft->offline[cpu])
			continue;
		if (!any)
			ft_json_arr_begin(j, "cpus_went_offline");
		any = true;
		ft_json_obj_begin(j, NULL);
		ft_json_u64(j, "cpu", cpu);
		ft_json_u64(j, "times", ft->offline[cpu]);
		ft_json_bool(j, "online_at_end", ft->online_again[cpu]);
		ft_json_obj_end(j);
	}
	if (any)
		ft_json_arr_end(j);
	if (ft->uevents_lost)
		ft_json_bool(j, "hotplug_events_lost", true);
}

/* hotplug_text - a line per CPU that went offline during the run, when any did */
static void hotplug_text(const struct ft_footer *ft, FILE *f)
{
	int cpu;

	for (cpu = 0; ft->offline && cpu < ft->ncpus; cpu++)
		if (ft->offline[cpu])
			fprintf(f, "cpu%d went offline %u time%s during the run (%s): its events "
				"while online were read\n", cpu, ft->offline[cpu],
				ft->offline[cpu] == 1 ? "" : "s",
				ft->online_again[cpu] ? "online again at the end" :
				"still offline at the end");
	if (ft->uevents_lost)
		fputs("CPU hotplug events were lost (the uevent socket overflowed): a CPU that "
		      "went offline may be missing above\n", f);
}

/*
 * ft_footer_print - the footer of one report from ft->run: the whole run's figures,
 * or with @interval those since the previous report, and after the @final one of an
 * interval run the whole run's on a "total:" line (JSON: the object "whole_run")
 */
void ft_footer_print(struct ft_footer *ft, FILE *f, struct ft_json *j, bool interval,
		     bool final)
{
	const struct ft_counts *c = &ft->run;

	if (interval) {
		counts_sub(&ft->delta, &ft->run, &ft->base, ft->ncpus);
		counts_copy(&ft->base, &ft->run, ft->ncpus);
		c = &ft->delta;
	}
	if (j) {
		counts_json(j, c, ft->ncpus);
		if (interval && final) {
			ft_json_obj_begin(j, "whole_run");
			counts_json(j, &ft->run, ft->ncpus);
			ft_json_obj_end(j);
		}
		if (final)
			hotplug_json(ft, j);
		return;
	}
	fputc('\n', f);
	counts_text(f, c, ft->ncpus);
	if (interval && final) {
		fputs("total: ", f);
		counts_text(f, &ft->run, ft->ncpus);
	}
	if (final)
		hotplug_text(ft, f);
}

/* ft_footer_record - what a recording wrote: events and bytes per CPU, and what was lost */
void ft_footer_record(const struct ft_footer *ft, const struct ft_capture *c, FILE *f,
		      struct ft_json *j)
{
	const struct ft_counts *run = &ft->run;
	unsigned long long ev = 0, bytes = 0;
	int cpu;

	for (cpu = 0; cpu < c->ncpus; cpu++) {
		ev += c->events[cpu];
		bytes += c->bytes[cpu];
	}
	if (j) {
		ft_json_str(j, "output", c->path);
		ft_json_u64(j, "events", ev);
		ft_json_u64(j, "bytes", bytes);
		json_cpus(j, "events_per_cpu", c->events, c->ncpus);
		ft_json_u64(j, "lost", run->lost);
		json_cpus(j, "lost_per_cpu", run->lost_cpu, ft->ncpus);
		hotplug_json(ft, j);
		return;
	}
	fprintf(f, "%llu events (%llu KiB of pages) written to %s: ", ev, bytes / 1024, c->path);
	per_cpu(f, c->events, c->ncpus);
	fprintf(f, "\n%llu events lost", run->lost);
	if (run->lost) {
		fputs(" (", f);
		per_cpu(f, run->lost_cpu, ft->ncpus);
		fputs("; the recording is incomplete)", f);
	}
	fputc('\n', f);
	hotplug_text(ft, f);
}
