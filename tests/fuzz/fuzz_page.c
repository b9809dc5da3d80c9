// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: raw ring-buffer sub-buffers, as trace_pipe_raw hands them out,
 * through the page walker, the per-CPU merge, the typed decoder and the switch-chain
 * repair, with the header_page and formats of several kernels.
 *
 * Input: byte 0 picks the kernel (format set), byte 1 the CPU count (low 2 bits + 1)
 * and where a loss marker goes (the rest); the remaining bytes are sub-buffers, one
 * after another, dealt to the CPUs in turn (the last one zero-padded).
 *
 * Format sets: FTSCOPE_FUZZ_FORMATS (colon-separated directories), else this
 * repository's own and, when present, the kernels under ../shared/fixtures.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <traceevent/event-parse.h>

#include "events/chain.h"
#include "events/decode.h"
#include "events/merge.h"
#include "events/tep.h"

#define MAX_SETS	16

struct fmt_set {
	struct tep_handle	*tep;
	struct ft_decoder	dec;
	struct ft_page_fmt	pf;
};

static struct fmt_set sets[MAX_SETS];
static int nsets;
static volatile uint64_t sink;	/* keeps the reads of decoded fields */

static const char *const default_dirs[] = {
	"tests/data/k6.18",
	"tests/data/cap-sleeper",
	"../shared/fixtures/third_party/perfetto/formats/synthetic",
	"../shared/fixtures/third_party/perfetto/formats/synthetic_alt",
	"../shared/fixtures/third_party/perfetto/formats/device/android_hammerhead_MRA59G_3.4.0",
	"../shared/fixtures/third_party/perfetto/formats/device/android_seed_N2F62_3.10.49",
	"../shared/fixtures/third_party/perfetto/formats/device/android_walleye_OPM5.171019.017.A1_4.4.88",
	"../shared/fixtures/third_party/perfetto/formats/device/android_raven_AOSP.MASTER_5.10.43",
};

/* add_set - load one kernel's header_page and formats; skipped when absent */
static void add_set(const char *dir)
{
	struct fmt_set *s = &sets[nsets];

	if (nsets >= MAX_SETS || access(dir, R_OK))
		return;
	s->tep = ft_tep_load(ft_dir_format_read, (void *)dir, FT_ALL_TYPES, &s->pf, 0);
	if (!s->tep)
		return;
	if (ft_decoder_init(&s->dec, s->tep)) {
		tep_free(s->tep);
		return;
	}
	nsets++;
}

/* LLVMFuzzerInitialize - load the format sets once */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *env = getenv("FTSCOPE_FUZZ_FORMATS");
	size_t i;

	if (env) {
		char *list = strdup(env), *save = NULL, *d;

		for (d = strtok_r(list, ":", &save); d; d = strtok_r(NULL, ":", &save))
			add_set(d);
		free(list);
	} else {
		for (i = 0; i < sizeof(default_dirs) / sizeof(default_dirs[0]); i++)
			add_set(default_dirs[i]);
	}
	if (!nsets) {
		fprintf(stderr, "fuzz_page: no format set found (run from the repository)\n");
		exit(1);
	}
	return 0;
}

struct walk {
	struct fmt_set	*set;
	struct ft_chain	chain;
	uint64_t	sum;
};

/* on_raw - decode a merged record and feed the chain, as the pipeline does */
static void on_raw(struct walk *w, const struct ft_raw *raw)
{
	struct ft_event ev = { .ts = raw->ts, .cpu = raw->cpu }, synth[FT_CHAIN_MAX_SYNTH];
	int i, n;

	if (!raw->data) {
		ev.type = FT_EV_LOST;
		ev.lost = raw->lost;
	} else {
		ft_decode(&w->set->dec, raw->data, raw->size, &ev);
	}
	n = ft_chain_feed(&w->chain, &ev, synth);
	for (i = 0; i < n; i++)
		w->sum += synth[i].sw.next_pid + synth[i].sw.ts_est;
	/* touch what the decoder pointed at, so ASan checks it is inside the record */
	if (ev.type == FT_EV_SWITCH)
		w->sum += ev.sw.prev_comm[0] + ev.sw.next_comm[FT_TASK_COMM_LEN - 1];
	else if (ev.type == FT_EV_WAKING || ev.type == FT_EV_WAKEUP)
		w->sum += ev.wk.comm[FT_TASK_COMM_LEN - 1];
	else if ((ev.type == FT_EV_KSTACK || ev.type == FT_EV_USTACK) && ev.stack.n)
		w->sum += ft_stack_ip(&ev.stack, ev.stack.n - 1);
}

/* on_raws - each record of a merge batch */
static void on_raws(void *ctx, const struct ft_raw *raw, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		on_raw(ctx, &raw[i]);
}

/* LLVMFuzzerTestOneInput - one run of the merge over the pages in @data */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct walk w = { 0 };
	struct ft_merge m;
	unsigned int sub, ncpus, loss_at, i = 0;
	size_t off;

	if (size < 2)
		return 0;
	w.set = &sets[data[0] % nsets];
	ncpus = (data[1] & 3) + 1;
	loss_at = data[1] >> 2;
	sub = w.set->pf.subbuf_size;
	if (ft_merge_init(&m, &w.set->pf, ncpus, on_raws, &w))
		return 0;
	if (ft_chain_init(&w.chain, ncpus, NULL)) {
		ft_merge_fini(&m);
		return 0;
	}
	for (off = 2; off < size; off += sub, i++) {
		struct ft_pagebuf *pg = ft_merge_page_get(&m);
		size_t n = size - off < sub ? size - off : sub;

		if (!pg)
			break;
		if (i == loss_at)
			ft_merge_loss(&m, i % ncpus, i & 1 ? -1 : (long long)i);
		memset(pg->data, 0, sub);
		memcpy(pg->data, data + off, n);
		/* a short read is what a partial last page looks like */
		ft_merge_page_put(&m, i % ncpus, pg, i & 2 ? (unsigned int)n : sub);
	}
	ft_merge_run(&m, UINT64_MAX);
	ft_merge_flush_losses(&m);
	ft_chain_fini(&w.chain);
	ft_merge_fini(&m);
	sink = w.sum;
	return 0;
}
