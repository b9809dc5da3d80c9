// SPDX-License-Identifier: GPL-2.0
/*
 * The tracepoints a run's analyzers read by name (events/tp.h): enabled in the
 * session live, their formats read from the kernel or a trace.dat, resolved against
 * them and handed to the decoder, with one error line for whatever is missing.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "engine/tps.h"
#include "events/decode.h"
#include "lib/util.h"
#include "tracer/session.h"

/* ft_tps_check - are the names of @tps tracepoint names? 0, or -1 after one error line */
int ft_tps_check(const struct ft_tp *tps)
{
	const struct ft_tp *tp;

	for (tp = tps; tp; tp = tp->next)
		if (!ft_tp_name_ok(tp->system) || !ft_tp_name_ok(tp->name)) {
			ft_err("bad event '%s:%s'", tp->system, tp->name);
			return -1;
		}
	return 0;
}

/*
 * ft_tps_formats - the formats of the tracepoints @tps, read with @rd into @tep. A
 * missing one is left for ft_tps_resolve to report (or skip, when optional). Returns 0,
 * or -1 after one error line.
 */
int ft_tps_formats(const struct ft_tp *tps, struct tep_handle *tep, ft_format_read_fn rd,
		   void *ctx, unsigned int flags)
{
	const struct ft_tp *tp;

	for (tp = tps; tp; tp = tp->next) {
		errno = 0;
		if (!ft_tep_add_event(tep, rd, ctx, tp->system, tp->name, flags) || errno == ENOENT)
			continue;
		ft_err("cannot parse the format of %s:%s: %s", tp->system, tp->name,
		       strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * ft_tps_resolve - the tracepoints @tps of @who against the trace's formats, into the
 * decoder @dec. Returns 0, or -1 after one error line.
 */
int ft_tps_resolve(struct ft_tp *tps, const char *who, struct tep_handle *tep,
		   struct ft_decoder *dec, bool live)
{
	struct ft_tp *tp;
	char err[512];

	for (tp = tps; tp; tp = tp->next) {
		if (ft_tp_resolve(tp, tep, err, sizeof(err))) {
			if (tp->id < 0)
				ft_err("%s needs %s:%s, which the %s lacks", who, tp->system,
				       tp->name, live ? "kernel" : "capture");
			else
				ft_err("%s", err);
			return -1;
		}
		if (tp->id >= 0 && ft_decoder_add_tp(dec, tp->id)) {
			ft_err("%s:%s: event id %d is out of range", tp->system, tp->name, tp->id);
			return -1;
		}
	}
	return 0;
}

/*
 * ft_tps_enable - live: enable the tracepoints @tps of @who in session @s (optional
 * ones only if the kernel has them). Returns 0; after one error line, FT_EXIT_NOFEAT
 * when the kernel lacks an event, or -1.
 */
int ft_tps_enable(const struct ft_tp *tps, const char *who, struct ft_session *s)
{
	const struct ft_tp *tp;
	char spec[512];

	for (tp = tps; tp; tp = tp->next) {
		if (!ft_session_has_event(s, tp->system, tp->name)) {
			if (tp->optional)
				continue;
			ft_err("%s needs %s:%s, which the kernel lacks", who, tp->system,
			       tp->name);
			return FT_EXIT_NOFEAT;
		}
		snprintf(spec, sizeof(spec), "%s:%s", tp->system, tp->name);
		if (ft_session_enable(s, spec))
			return -1;
	}
	return 0;
}
