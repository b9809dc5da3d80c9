// SPDX-License-Identifier: GPL-2.0
/*
 * offcpu --locks: a blocked period that begins inside a lock's contention is marked
 * with the lock's type (lock_type.h, perf lock contention's names).
 *
 *   contention_begin(T, mutex)   switch-out(T, D)  ...  switch-in(T)   contention_end(T)
 *                                     |---- marked "mutex" ----|
 *
 * lock:contention_begin opens a contention of its thread (common_pid) on its lock
 * address, the end of that thread on that address closes it, as lock pairs them
 * (lock.c): a second begin on an address already open (a mutex spins, then sleeps)
 * keeps the first. A thread that switches out in a counted state with contentions
 * open blocked in the innermost one (the last begun: a mutex's wait_lock spinlock is
 * given back before it sleeps). The tracepoints are optional (Linux 5.19 has them):
 * without them nothing is marked and the notes say so. Lost events may have held an
 * end: the contentions open then are forgotten (counted), a wait that began before
 * the trace is not seen.
 */
#include <string.h>

#include "analyzers/lock_type.h"
#include "analyzers/offcpu_int.h"
#include "lib/util.h"
#include "output/json.h"

#define NEST	4	/* contentions open at once per thread, as lock keeps */

/* A thread's open contentions, innermost last. */
struct lk_open {
	int		tid;
	int		n;
	struct {
		uint64_t	addr;
		unsigned char	type;	/* lk_types[] index */
	} w[NEST];
};

/* The folded frame of each type: "[lock TYPE]". */
static char frames[NTYPES][32];

/* offcpu_lock_tracepoints - lock:contention_begin/end, optional; NULL without --locks */
struct ft_tp *offcpu_lock_tracepoints(struct offcpu *o)
{
	struct offcpu_locks *l = &o->locks;

	if (!l->on)
		return NULL;
	l->begin = (struct ft_tp){ .system = "lock", .name = "contention_begin",
				   .field = { "lock_addr", "flags" }, .optional = true };
	l->end = (struct ft_tp){ .system = "lock", .name = "contention_end",
				 .field = { "lock_addr" }, .optional = true };
	l->begin.next = &l->end;
	return &l->begin;
}

/* offcpu_lock_init - the table of open contentions (--locks); 0, or -1 out of memory */
int offcpu_lock_init(struct offcpu *o)
{
	int i;

	for (i = 0; i < NTYPES; i++)
		snprintf(frames[i], sizeof(frames[i]), "[lock %s]", lk_types[i].name);
	if (!o->locks.on)
		return 0;
	return ft_tab_init(&o->locks.tasks, sizeof(struct lk_open));
}

/* find - the open contention of @t on @addr, or -1 */
static int find(const struct lk_open *t, uint64_t addr)
{
	int i;

	for (i = t->n - 1; i >= 0; i--)
		if (t->w[i].addr == addr)
			return i;
	return -1;
}

/* on_begin - a thread starts waiting for a lock */
static void on_begin(struct offcpu_locks *l, const struct ft_event *ev)
{
	uint64_t addr = (uint64_t)ft_tp_num(ev, &l->begin, 0);
	struct lk_open *t = ft_tab_get(&l->tasks, ev->common_pid);

	if (!t || find(t, addr) >= 0)	/* a mutex spun, now sleeps: one wait */
		return;
	if (t->n == NEST) {
		l->too_deep++;
		return;
	}
	t->w[t->n].addr = addr;
	t->w[t->n++].type = (unsigned char)lk_type_of((unsigned int)ft_tp_num(ev, &l->begin, 1));
}

/* on_end - a thread has the lock: its contention is over */
static void on_end(struct offcpu_locks *l, const struct ft_event *ev)
{
	struct lk_open *t = ft_tab_find(&l->tasks, ev->common_pid);
	int i = t ? find(t, (uint64_t)ft_tp_num(ev, &l->end, 0)) : -1;

	if (i < 0)
		return;
	memmove(&t->w[i], &t->w[i + 1], (t->n - i - 1) * sizeof(t->w[0]));
	t->n--;
}

/* on_lost - any open contention may have lost its end: all forgotten */
static void on_lost(struct offcpu_locks *l)
{
	unsigned int i;

	for (i = 0; i < l->tasks.n; i++) {
		struct lk_open *t = ft_tab_at(&l->tasks, i);

		l->lost += t->n;
		t->n = 0;
	}
}

/* offcpu_lock_event - a record (--locks): contentions open and close, losses forget them */
void offcpu_lock_event(struct offcpu *o, const struct ft_event *ev)
{
	struct offcpu_locks *l = &o->locks;

	if (!l->on)
		return;
	if (ev->type == FT_EV_LOST)
		on_lost(l);
	else if (ev->common_pid <= 0)	/* idle never blocks */
		return;
	else if (ft_tp_is(ev, &l->begin))
		on_begin(l, ev);
	else if (ft_tp_is(ev, &l->end))
		on_end(l, ev);
}

/*
 * offcpu_lock_mark - a period of @tid begins (its switch-out): its K_LOCK, the innermost
 * contention open's type + 1, 0 none (or no --locks)
 */
unsigned char offcpu_lock_mark(struct offcpu *o, int tid)
{
	struct lk_open *t = o->locks.on ? ft_tab_find(&o->locks.tasks, tid) : NULL;

	if (!t || !t->n)
		return 0;
	return t->w[t->n - 1].type + 1;
}

/* offcpu_lock_frame - the folded frame of K_LOCK @mark, "[lock mutex]"; NULL for 0 */
const char *offcpu_lock_frame(uint64_t mark)
{
	return mark && mark <= NTYPES ? frames[mark - 1] : NULL;
}

/* offcpu_lock_name - the type name of K_LOCK @mark, "mutex"; NULL for 0 */
const char *offcpu_lock_name(uint64_t mark)
{
	return mark && mark <= NTYPES ? lk_types[mark - 1].name : NULL;
}

/* offcpu_lock_notes - --locks: the periods marked, or why none could be */
void offcpu_lock_notes(struct offcpu *o, FILE *f)
{
	const struct offcpu_locks *l = &o->locks;

	if (!l->on)
		return;
	if (l->begin.id < 0 || l->end.id < 0) {
		fprintf(f, "offcpu: --locks: the %s has no lock:contention_begin/end (Linux 5.19 "
			"and later): no period marked\n", o->env->live ? "kernel" : "capture");
		return;
	}
	fprintf(f, "offcpu: --locks: %llu periods blocked in a lock's contention", l->marked);
	if (l->lost)
		fprintf(f, "; %llu contentions open at lost events forgotten", l->lost);
	if (l->too_deep)
		fprintf(f, "; %llu begins nested over %d deep not followed", l->too_deep, NEST);
	fputc('\n', f);
}

/* offcpu_lock_json - the same as JSON fields */
void offcpu_lock_json(struct offcpu *o, struct ft_json *j)
{
	const struct offcpu_locks *l = &o->locks;

	if (!l->on)
		return;
	ft_json_bool(j, "lock_events", l->begin.id >= 0 && l->end.id >= 0);
	ft_json_u64(j, "lock_marked_periods", l->marked);
	ft_json_u64(j, "lock_lost_contentions", l->lost);
	ft_json_u64(j, "lock_nested_too_deep", l->too_deep);
}

/* offcpu_lock_reset - the next interval's counts (the contentions open stay) */
void offcpu_lock_reset(struct offcpu *o)
{
	o->locks.marked = o->locks.lost = o->locks.too_deep = 0;
}

/* offcpu_lock_fini - the table */
void offcpu_lock_fini(struct offcpu *o)
{
	if (o->locks.on)
		ft_tab_fini(&o->locks.tasks);
}
