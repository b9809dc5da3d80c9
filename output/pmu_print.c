// SPDX-License-Identifier: GPL-2.0
/*
 * Counter values in perf stat's layouts. The value is scaled by enabled/running
 * when the kernel multiplexed the counter; the metric after '#' is derived from the
 * other counters of the same window (IPC, miss ratios, CPUs utilized, rates).
 */
#include <linux/perf_event.h>
#include <string.h>

#include "output/json.h"
#include "output/pmu_print.h"

/**
 * ft_pmu_scaled - the reading scaled to the whole enabled time, as perf does:
 * raw * enabled / running when the counter ran only part of the window
 */
double ft_pmu_scaled(const struct ft_pmu_count *c)
{
	if (c->state != FT_PMU_COUNTED || !c->running_ns)
		return 0;
	if (c->running_ns >= c->enabled_ns)
		return (double)c->raw;
	return (double)c->raw * (double)c->enabled_ns / (double)c->running_ns;
}

/* ft_pmu_pct_running - the share of the window the counter really counted, in % */
double ft_pmu_pct_running(const struct ft_pmu_count *c)
{
	if (c->state != FT_PMU_COUNTED || !c->enabled_ns || c->running_ns >= c->enabled_ns)
		return 100.0;
	return 100.0 * (double)c->running_ns / (double)c->enabled_ns;
}

/* ft_pmu_is_clock - task-clock and cpu-clock count nanoseconds, printed as msec */
bool ft_pmu_is_clock(const struct ft_pmu_count *c)
{
	return c->type == PERF_TYPE_SOFTWARE &&
	       (c->config == PERF_COUNT_SW_TASK_CLOCK || c->config == PERF_COUNT_SW_CPU_CLOCK);
}

/* find - the scaled value of a counted event of @type/@config, or -1 */
static double find(const struct ft_pmu_count *c, int n, uint32_t type, uint64_t config)
{
	int i;

	for (i = 0; i < n; i++)
		if (c[i].type == type && c[i].config == config && c[i].state == FT_PMU_COUNTED)
			return ft_pmu_scaled(&c[i]);
	return -1;
}

/* clock_ns - the task-clock (or cpu-clock) of the window, or -1 */
static double clock_ns(const struct ft_pmu_count *c, int n)
{
	double v = find(c, n, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);

	return v >= 0 ? v : find(c, n, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK);
}

/* per - @num per @den, in @unit: false when there is no denominator */
static bool per(double num, double den, const char *unit, struct ft_pmu_metric *m)
{
	if (den <= 0)
		return false;
	m->value = num / den;
	m->unit = unit;
	return true;
}

/* ratio - @num as a percentage of @den: false when there is no denominator */
static bool ratio(double num, double den, const char *unit, struct ft_pmu_metric *m)
{
	m->percent = per(100.0 * num, den, unit, m);
	return m->percent;
}

/* cache_unit - "of all L1-dcache accesses" for a hardware cache miss event */
static const char *cache_unit(uint64_t cache)
{
	switch (cache) {
	case PERF_COUNT_HW_CACHE_L1D:	return "of all L1-dcache accesses";
	case PERF_COUNT_HW_CACHE_L1I:	return "of all L1-icache accesses";
	case PERF_COUNT_HW_CACHE_LL:	return "of all LL-cache accesses";
	case PERF_COUNT_HW_CACHE_DTLB:	return "of all dTLB cache accesses";
	case PERF_COUNT_HW_CACHE_ITLB:	return "of all iTLB cache accesses";
	default:			return NULL;
	}
}

/* rate - events per second of counted time, with perf's K/M/G prefixes */
static bool rate(double v, double clk, struct ft_pmu_metric *m)
{
	static const char *const units[] = { "/sec", "K/sec", "M/sec", "G/sec" };
	int u = 0;

	if (clk <= 0)
		return false;
	m->value = v / (clk / 1e9);
	while (u < 3 && m->value >= 1000) {
		m->value /= 1000;
		u++;
	}
	m->unit = units[u];
	m->percent = false;
	return true;
}

/**
 * ft_pmu_metric - the derived value perf prints after '#' for counter @i of @c
 * Returns false when the counter has none in this window.
 */
bool ft_pmu_metric(const struct ft_pmu_count *c, int i, int n, uint64_t elapsed_ns,
		   struct ft_pmu_metric *m)
{
	const struct ft_pmu_count *e = &c[i];
	double v = ft_pmu_scaled(e);

	if (e->state != FT_PMU_COUNTED)
		return false;
	m->percent = false;
	if (ft_pmu_is_clock(e)) {
		return per(v, (double)elapsed_ns, "CPUs utilized", m);
	}
	if (e->type == PERF_TYPE_HARDWARE) {
		switch (e->config) {
		case PERF_COUNT_HW_CPU_CYCLES:
			return per(v, clock_ns(c, n), "GHz", m);
		case PERF_COUNT_HW_INSTRUCTIONS:
			return per(v, find(c, n, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES),
				   "insn per cycle", m);
		case PERF_COUNT_HW_BRANCH_MISSES:
			return ratio(v, find(c, n, PERF_TYPE_HARDWARE,
					     PERF_COUNT_HW_BRANCH_INSTRUCTIONS),
				     "of all branches", m);
		case PERF_COUNT_HW_CACHE_MISSES:
			return ratio(v, find(c, n, PERF_TYPE_HARDWARE,
					     PERF_COUNT_HW_CACHE_REFERENCES),
				     "of all cache refs", m);
		}
	}
	if (e->type == PERF_TYPE_HW_CACHE &&
	    (e->config >> 16) == PERF_COUNT_HW_CACHE_RESULT_MISS && cache_unit(e->config & 0xff)) {
		uint64_t access = e->config & 0xffff;	/* same cache and op, result ACCESS */

		return ratio(v, find(c, n, PERF_TYPE_HW_CACHE, access),
			     cache_unit(e->config & 0xff), m);
	}
	return rate(v, clock_ns(c, n), m);
}

/* state_text - what perf prints in place of a value that was not counted */
static const char *state_text(const struct ft_pmu_count *c)
{
	return c->state == FT_PMU_NOT_SUPPORTED ? "<not supported>" : "<not counted>";
}

/* print_text - one line of perf stat's text layout */
static void print_text(FILE *f, const struct ft_pmu_count *c, int i, int n,
		       uint64_t elapsed_ns, const struct ft_pmu_fmt *fmt)
{
	const struct ft_pmu_count *e = &c[i];
	const char *unit = ft_pmu_is_clock(e) ? "msec" : "";
	struct ft_pmu_metric m;
	double v = ft_pmu_scaled(e);

	if (fmt->interval)
		fprintf(f, "%16.9f ", fmt->time_s);
	if (e->state != FT_PMU_COUNTED)
		fprintf(f, "%18s", state_text(e));
	else if (ft_pmu_is_clock(e))
		fprintf(f, "%18.2f", v / 1e6);
	else
		fprintf(f, "%18.0f", v);
	fprintf(f, " %-4s ", unit);
	if (ft_pmu_metric(c, i, n, elapsed_ns, &m))
		fprintf(f, m.percent ? "%-32s # %7.2f%% %-*s" : "%-32s # %8.3f %-*s",
			e->name, m.value, fmt->noise ? 24 : 0, m.unit);
	else
		fprintf(f, fmt->noise ? "%-67s" : "%s", e->name);
	/* -r: perf's spread column */
	if (fmt->noise && fmt->noise[i])
		fprintf(f, " ( +-%6.2f%% )", fmt->noise[i]);
	if (ft_pmu_pct_running(e) < 100.0)
		fprintf(f, "  (%.2f%%)", ft_pmu_pct_running(e));
	fputc('\n', f);
}

/* print_csv - one line of perf stat -x: value,unit,event,run,pct,metric,metric unit */
static void print_csv(FILE *f, const struct ft_pmu_count *c, int i, int n,
		      uint64_t elapsed_ns, const struct ft_pmu_fmt *fmt)
{
	const struct ft_pmu_count *e = &c[i];
	const char *s = fmt->csv_sep;
	struct ft_pmu_metric m;
	double v = ft_pmu_scaled(e);

	if (fmt->interval)
		fprintf(f, "%.9f%s", fmt->time_s, s);
	if (e->state != FT_PMU_COUNTED)
		fputs(state_text(e), f);
	else if (ft_pmu_is_clock(e))
		fprintf(f, "%.2f", v / 1e6);
	else
		fprintf(f, "%.0f", v);
	fprintf(f, "%s%s%s%s%s%llu%s%.2f%s", s, ft_pmu_is_clock(e) ? "msec" : "", s, e->name, s,
		(unsigned long long)e->running_ns, s, ft_pmu_pct_running(e), s);
	if (ft_pmu_metric(c, i, n, elapsed_ns, &m))
		fprintf(f, m.percent ? "%.2f%s%s" : "%.3f%s%s", m.value, s, m.unit);
	else
		fputs(s, f);
	fputc('\n', f);
}

/*
 * print_perf_json - one line of perf stat -j: an object with perf's keys in perf's
 * order (perf 6.1), the counter value a string, "<not supported>" when not counted
 */
static void print_perf_json(FILE *f, const struct ft_pmu_count *c, int i, int n,
			    uint64_t elapsed_ns, const struct ft_pmu_fmt *fmt)
{
	const struct ft_pmu_count *e = &c[i];
	struct ft_pmu_metric m = { .value = 0, .unit = "" };
	double v = ft_pmu_scaled(e);
	bool counted = e->state == FT_PMU_COUNTED;

	if (fmt->interval)
		fprintf(f, "{\"interval\" : %.9f, ", fmt->time_s);
	else
		fputc('{', f);
	if (counted)
		fprintf(f, "\"counter-value\" : \"%f\", ", ft_pmu_is_clock(e) ? v / 1e6 : v);
	else
		fprintf(f, "\"counter-value\" : \"%s\", ", state_text(e));
	fprintf(f, "\"unit\" : \"%s\", \"event\" : \"%s\", \"event-runtime\" : %llu, "
		"\"pcnt-running\" : %.2f, ", ft_pmu_is_clock(e) ? "msec" : "", e->name,
		(unsigned long long)e->running_ns, counted ? ft_pmu_pct_running(e) : 100.0);
	if (!counted || !ft_pmu_metric(c, i, n, elapsed_ns, &m)) {
		m.value = 0;
		m.unit = "";
	}
	fprintf(f, "\"metric-value\" : %f, \"metric-unit\" : \"%s\"}\n", m.value, m.unit);
}

/**
 * ft_pmu_print - every counter of one window, in perf stat's text layout, as CSV or
 * as perf's JSON lines; the caller prints the heading and the elapsed time around it
 */
void ft_pmu_print(FILE *f, const struct ft_pmu_count *c, int n, uint64_t elapsed_ns,
		  const struct ft_pmu_fmt *fmt)
{
	int i;

	for (i = 0; i < n; i++) {
		if (fmt->perf_json)
			print_perf_json(f, c, i, n, elapsed_ns, fmt);
		else if (fmt->csv_sep)
			print_csv(f, c, i, n, elapsed_ns, fmt);
		else
			print_text(f, c, i, n, elapsed_ns, fmt);
	}
}

/* ft_pmu_json - the counters as a "pmu" array of the open JSON object */
void ft_pmu_json(struct ft_json *j, const struct ft_pmu_count *c, int n, uint64_t elapsed_ns)
{
	static const char *const states[] = {
		[FT_PMU_COUNTED] = "counted",
		[FT_PMU_NOT_COUNTED] = "not counted",
		[FT_PMU_NOT_SUPPORTED] = "not supported",
	};
	struct ft_pmu_metric m;
	int i;

	ft_json_u64(j, "pmu_elapsed_ns", elapsed_ns);
	ft_json_arr_begin(j, "pmu");
	for (i = 0; i < n; i++) {
		ft_json_obj_begin(j, NULL);
		ft_json_str(j, "event", c[i].name);
		ft_json_str(j, "state", states[c[i].state]);
		ft_json_str(j, "unit", ft_pmu_is_clock(&c[i]) ? "msec" : "");
		if (c[i].state == FT_PMU_COUNTED)
			ft_json_double(j, "value", ft_pmu_is_clock(&c[i]) ?
				       ft_pmu_scaled(&c[i]) / 1e6 : ft_pmu_scaled(&c[i]));
		ft_json_u64(j, "raw", c[i].raw);
		ft_json_u64(j, "enabled_ns", c[i].enabled_ns);
		ft_json_u64(j, "running_ns", c[i].running_ns);
		ft_json_double(j, "pct_running", ft_pmu_pct_running(&c[i]));
		if (ft_pmu_metric(c, i, n, elapsed_ns, &m)) {
			ft_json_double(j, "metric_value", m.value);
			ft_json_str(j, "metric_unit", m.percent ? "%" : m.unit);
			if (m.percent)
				ft_json_str(j, "metric_of", m.unit);
		}
		ft_json_obj_end(j);
	}
	ft_json_arr_end(j);
}
