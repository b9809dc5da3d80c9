// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: format files, as a trace.dat from another machine brings them.
 * The input is NUL-separated texts: the header_page (when the input starts with '#';
 * otherwise this kernel's), then the formats of sched_switch, sched_waking,
 * sched_wakeup, sched_wakeup_new, sched_process_fork, sched_migrate_task,
 * rseq_update, kernel_stack and user_stack, in that order (ft_event_defs'). They go through the same guarded
 * tep construction as `-i FILE` (FT_TEP_UNTRUSTED), the decoder resolves its field
 * offsets from them, and the input itself is then decoded as a record of each type.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "events/decode.h"
#include "events/tep.h"

#define NTEXTS	(FT_EV_NTYPES)		/* header_page + one per type */

struct texts {
	const char	*text[NTEXTS];
	size_t		len[NTEXTS];
};

static char *header_page;
static size_t header_len;

/* LLVMFuzzerInitialize - this kernel's header_page, for inputs that bring none */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	header_page = ft_read_file("tests/data/k6.18/header_page", FT_FORMAT_MAX, &header_len);
	if (!header_page) {
		fprintf(stderr, "fuzz_format: run from the repository\n");
		exit(1);
	}
	return 0;
}

/* read_text - the format reader over the split input */
static char *read_text(void *ctx, const char *system, const char *event, size_t *len)
{
	struct texts *t = ctx;
	int i = 0;

	if (system)
		for (i = 1; i < FT_EV_NTYPES; i++)
			if (!strcmp(event, ft_event_defs[i].name))
				break;
	if (i == FT_EV_NTYPES || !t->text[i] || !t->len[i])
		return NULL;
	*len = t->len[i];
	return strndup(t->text[i], t->len[i]);
}

/* LLVMFuzzerTestOneInput - build a tep from the texts, decode the input with it */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct texts t = { .text[0] = header_page, .len[0] = header_len };
	struct ft_decoder dec;
	struct ft_page_fmt pf;
	struct tep_handle *tep;
	const char *p = (const char *)data, *end = p + size;
	int i = size && data[0] == '#' ? 0 : 1;

	for (; i < NTEXTS && p < end; i++) {
		const char *nul = memchr(p, 0, end - p);

		t.text[i] = p;
		t.len[i] = (nul ? nul : end) - p;
		p += t.len[i] + 1;
	}
	tep = ft_tep_load(read_text, &t, FT_ALL_TYPES, &pf, FT_TEP_UNTRUSTED);
	if (!tep)
		return 0;
	if (!ft_decoder_init(&dec, tep)) {
		for (i = 1; i < FT_EV_NTYPES; i++) {
			struct tep_event *e = tep_find_event_by_name(tep, ft_event_defs[i].system,
								     ft_event_defs[i].name);
			unsigned char rec[256] = { 0 };
			struct ft_event ev = { 0 };
			size_t n = size < sizeof(rec) ? size : sizeof(rec);

			if (!e)
				continue;
			memcpy(rec, data, n);
			/* the record's common_type says which event it is */
			if (dec.common_type.off >= 0 && dec.common_type.size == 2 &&
			    dec.common_type.off + 2 <= (int)n)
				memcpy(rec + dec.common_type.off, &(uint16_t){ e->id }, 2);
			ft_decode(&dec, rec, n, &ev);
		}
		ft_decoder_fini(&dec);
	}
	tep_free(tep);
	return 0;
}
