// SPDX-License-Identifier: GPL-2.0
/*
 * Stacks from ftrace's kernel_stack and user_stack records: interned as they come
 * (kernel stacks as addresses; user stacks as file and offset, read against the
 * process's maps of that moment), named once per report, innermost frame first.
 */
#include <stdio.h>
#include <string.h>

#include "analyzers/stack_syms.h"
#include "events/tdat.h"
#include "lib/util.h"

/* Deepest stack ftrace gives (its stack records hold at most this many entries). */
#define STACK_MAX	256

/* Frames of the tracing machinery on top of every kernel stack: not the task's. */
static const char *const trace_prefix[] = {
	"trace_", "__traceiter_", "perf_trace_", "__bpf_trace_", "ftrace_", "__ftrace_", NULL,
};

/* is_trace_frame - a frame of the code that recorded the stack */
static bool is_trace_frame(const char *name)
{
	int i;

	for (i = 0; trace_prefix[i]; i++)
		if (!strncmp(name, trace_prefix[i], strlen(trace_prefix[i])))
			return true;
	return false;
}

/*
 * ft_usyms_for - @u made for a run's user stacks: live, or a file's with the maps it
 * holds (its processes are long gone). 0, or -1 out of memory.
 */
int ft_usyms_for(struct ft_usyms *u, const struct ft_env *env)
{
	int i;

	if (ft_usyms_init(u, env->live))
		return -1;
	for (i = 0; i < env->nprocmaps; i++)
		ft_usyms_add_maps(u, env->procmaps[i].data, env->procmaps[i].len);
	return 0;
}

/* ft_kstack_put - kernel stack @st interned in @kst: its id + 1, 0 when empty, -1 ENOMEM */
long ft_kstack_put(struct ft_intern *kst, const struct ft_stack *st)
{
	uint64_t ip[STACK_MAX];
	int i, n = st->n < STACK_MAX ? st->n : STACK_MAX;
	long id;

	if (!n)
		return 0;
	for (i = 0; i < n; i++)
		ip[i] = ft_stack_ip(st, i);
	id = ft_intern_put(kst, ip, n);
	return id < 0 ? -1 : id + 1;
}

/*
 * ft_ustack_put - user stack @st of process @tgid, its addresses read against the
 * maps of now, interned in @ust: its id + 1, 0 when empty, -1 ENOMEM; @seen says
 * what cut it
 */
long ft_ustack_put(struct ft_usyms *u, struct ft_intern *ust, int tgid,
		   const struct ft_stack *st, struct ft_ustack_seen *seen)
{
	uint64_t ip[STACK_MAX], fr[STACK_MAX];
	int i, n = st->n < STACK_MAX ? st->n : STACK_MAX;
	long id;

	memset(seen, 0, sizeof(*seen));
	if (!n)
		return 0;
	for (i = 0; i < n; i++)
		ip[i] = ft_stack_ip(st, i);
	i = ft_usyms_frames(u, tgid, ip, n, fr);
	seen->early = i < n && ft_usyms_known(u, tgid);
	seen->unmapped = !ft_usyms_known(u, tgid);
	seen->full = n == 8;
	id = ft_intern_put(ust, fr, i);
	return id < 0 ? -1 : id + 1;
}

/* ft_ksyms_need - load kallsyms once; say so, once, when its addresses are hidden */
void ft_ksyms_need(struct ft_ksyms *k, const char *kallsyms)
{
	char buf[16] = "?";
	FILE *f;

	if (k->loaded)
		return;
	if (ft_ksyms_load(k, kallsyms) || k->hidden) {
		f = fopen("/proc/sys/kernel/kptr_restrict", "re");
		if (f) {
			if (!fgets(buf, sizeof(buf), f))
				strcpy(buf, "?");
			fclose(f);
		}
		buf[strcspn(buf, "\n")] = 0;
		ft_err("kernel symbols are hidden (kernel.kptr_restrict = %s): kernel frames show as "
		       "[unknown]; run as root with kptr_restrict 0 or 1", buf);
		k->loaded = true;
	}
}

/*
 * ft_kstack_names - names of kernel stack @id (ft_kstack_put's), innermost first, at
 * most @max, and their addresses in @addr; with @strip_trace the frames of the
 * tracing code on top dropped (ftrace's stacks)
 */
int ft_kstack_names(const struct ft_ksyms *k, const struct ft_intern *kst, uint32_t id,
		    bool strip_trace, const char **out, uint64_t *addr, int max)
{
	const uint64_t *ip;
	uint32_t n, i;
	int c = 0;
	bool top = strip_trace;

	if (!id)
		return 0;
	ip = ft_intern_get(kst, id - 1, &n);
	for (i = 0; i < n && c < max; i++) {
		const char *name = ft_ksyms_name(k, i ? ip[i] - 1 : ip[i]);

		if (top && name && is_trace_frame(name))
			continue;
		top = false;
		addr[c] = ip[i];
		out[c++] = name ? name : "[unknown]";
	}
	return c;
}

/*
 * ft_ustack_names - names of user stack @id (ft_ustack_put's) of process @tgid,
 * innermost first, at most @max, and its frames (file and offset) in @frame
 */
int ft_ustack_names(struct ft_usyms *u, const struct ft_intern *ust, int tgid, uint32_t id,
		    const char **out, uint64_t *frame, int max)
{
	const uint64_t *fr;
	uint32_t n;
	int i;

	if (!id)
		return 0;
	fr = ft_intern_get(ust, id - 1, &n);
	for (i = 0; i < (int)n && i < max; i++) {
		out[i] = ft_usyms_name(u, tgid, fr[i]);
		frame[i] = fr[i];
	}
	return i;
}

/* ft_stack_print - BCC's multi-line layout of a stack: kernel frames, --, user frames */
void ft_stack_print(FILE *f, const char *const *k, int nk, const char *const *u, int nu)
{
	int i;

	for (i = 0; i < nk; i++)
		fprintf(f, "    %s\n", k[i]);
	if (nk && nu)
		fputs("    --\n", f);
	for (i = 0; i < nu; i++)
		fprintf(f, "    %s\n", u[i]);
}
