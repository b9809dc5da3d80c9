/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a tracepoint's number field means, from its format (events/tp_names.c).
 */
#ifndef FTSCOPE_EVENTS_TP_NAMES_H
#define FTSCOPE_EVENTS_TP_NAMES_H

struct tep_event;
struct tep_format_field;
struct ft_tp_field;

void ft_tp_field_kind(const struct tep_event *ev, const struct tep_format_field *f,
		      struct ft_tp_field *r);

#endif
