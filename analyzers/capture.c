// SPDX-License-Identifier: GPL-2.0
/*
 * capture: record the scheduler events to a directory (-o DIR) for later
 * analysis with -i DIR, and count what was recorded.
 */
#include <errno.h>

#include "analyzers/analyzer.h"
#include "analyzers/output/json.h"
#include "tracer/options.h"
#include "tracer/util.h"

struct capture {
	unsigned long long	count[FT_EV_NTYPES + 1];
};

/* capture_init - a capture needs somewhere to go */
static int capture_init(void *priv, const struct ft_env *env)
{
	if (!env->opts->output && env->live) {
		ft_err("capture needs -o DIR");
		errno = EINVAL;
		return -1;
	}
	return 0;
}

/* capture_event - count records by type */
static void capture_event(void *priv, const struct ft_event *ev)
{
	struct capture *c = priv;

	if (!(ev->type == FT_EV_SWITCH && ev->sw.synth))
		c->count[ev->type]++;
}

/* capture_report - records per event */
static void capture_report(void *priv, struct ft_report *r)
{
	struct capture *c = priv;
	int i;

	for (i = 1; i < FT_EV_NTYPES; i++) {
		if (r->json)
			ft_json_u64(r->json, ft_event_defs[i].name, c->count[i]);
		else
			fprintf(r->f, "%-20s %llu\n", ft_event_defs[i].name, c->count[i]);
	}
}

/* capture_fini - nothing to free */
static void capture_fini(void *priv)
{
}

const struct ft_analyzer ft_capture = {
	.name		= "capture",
	.summary	= "record scheduler events (raw per-CPU pages and formats) to a directory",
	.usage		= "  -o, --output DIR     where to write header_page, events/*/format, cpuN.raw\n",
	.examples	= "  ftscope capture -o /tmp/cap -d 5          # 5 s of the whole system\n"
			  "  ftscope capture -o /tmp/cap -- make -j2   # a build and its children\n"
			  "  ftscope runqlat -i /tmp/cap               # analyze it later\n",
	.need		= FT_NEED(FT_EV_SWITCH) | FT_NEED(FT_EV_WAKING) | FT_NEED(FT_EV_WAKEUP) |
			  FT_NEED(FT_EV_WAKEUP_NEW) | FT_NEED(FT_EV_FORK),
	.want		= FT_NEED(FT_EV_MIGRATE),
	.priv_size	= sizeof(struct capture),
	.init		= capture_init,
	.event		= capture_event,
	.report		= capture_report,
	.fini		= capture_fini,
};
