// SPDX-License-Identifier: GPL-2.0
/*
 * The buffers of a trace.dat: the top instance's and those of named instances
 * (trace-cmd record -B, extract -B). One is read: the one asked for (-B NAME, "top"
 * for the top one); else the top one, or, when it holds no data (`trace-cmd extract
 * -B NAME` writes an empty top buffer, or none), the first instance that does, which
 * the reader then says (ft_tdat.picked). Version 7 lists each buffer's CPUs in its
 * BUFFER option; version 6 names an instance and the offset of its CPU table, laid
 * out as the top one's after "flyrecord".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events/tdat.h"
#include "events/tdat_cur.h"

/* has_data - does a CPU table of @n CPUs hold any data? */
static bool has_data(const struct ft_tdat_cpu *cpu, unsigned int n)
{
	while (n--)
		if (cpu[n].size)
			return true;
	return false;
}

/*
 * read_cpu_list - a BUFFER option's count and that many (CPU id, offset, size), into
 * a table indexed by CPU id (*@n: the highest id + 1). trace-cmd lists only the CPUs
 * that hold data (CPUs 0, 1, 2 and 5 of a 6-CPU trace give a count of 4), and its
 * reader indexes them by id; a CPU named twice is damage.
 */
static struct ft_tdat_cpu *read_cpu_list(struct ft_tdat *t, struct cur *c, unsigned int *n)
{
	unsigned int count = get_u(c, 4), i, max = 0;
	const unsigned char *list = c->p;
	struct ft_tdat_cpu *cpu;

	if (c->bad || count > TDAT_MAX_CPU || !take(c, count * 20ULL)) {
		ft_tdat_fail(t, "a BUFFER option is damaged");
		return NULL;
	}
	for (i = 0; i < count; i++) {
		struct cur e = { list + i * 20, list + i * 20 + 4, false };
		unsigned int id = get_u(&e, 4);

		if (id >= TDAT_MAX_CPU) {
			ft_tdat_fail(t, "a BUFFER option names CPU %u (at most %u)", id,
				     TDAT_MAX_CPU - 1);
			return NULL;
		}
		if (id + 1 > max)
			max = id + 1;
	}
	cpu = calloc(max ? max : 1, sizeof(*cpu));
	for (i = 0; cpu && i < count; i++) {
		struct cur e = { list + i * 20, list + (i + 1) * 20, false };
		unsigned int id = get_u(&e, 4);

		if (cpu[id].off || cpu[id].size) {
			free(cpu);
			ft_tdat_fail(t, "a BUFFER option names CPU %u twice", id);
			return NULL;
		}
		cpu[id].off = get_u(&e, 8);
		cpu[id].size = get_u(&e, 8);
	}
	if (!cpu)
		ft_tdat_fail(t, "out of memory");
	*n = max;
	return cpu;
}

/* ft_tdat_table - a v6 CPU table of @n CPUs at @c: (offset, size) each; NULL when short */
struct ft_tdat_cpu *ft_tdat_table(struct ft_tdat *t, struct cur *c, int n)
{
	struct ft_tdat_cpu *cpu = calloc(n ? n : 1, sizeof(*cpu));
	int i;

	if (!cpu) {
		ft_tdat_fail(t, "out of memory");
		return NULL;
	}
	for (i = 0; i < n; i++) {
		cpu[i].off = get_u(c, 8);
		cpu[i].size = get_u(c, 8);
	}
	if (c->bad) {
		free(cpu);
		return NULL;
	}
	return cpu;
}

/* note_name - keep an instance's name (and a v6 one's table offset) for notes and -B */
static int note_name(struct ft_tdat *t, const char *name, uint64_t off)
{
	const char **names;
	uint64_t *offs;

	if (t->nnames % 16 == 0) {
		names = realloc(t->names, (t->nnames + 16) * sizeof(*names));
		if (names)
			t->names = names;
		offs = realloc(t->v6off, (t->nnames + 16) * sizeof(*offs));
		if (offs)
			t->v6off = offs;
		if (!names || !offs)
			return ft_tdat_fail(t, "out of memory");
	}
	t->names[t->nnames] = name;
	t->v6off[t->nnames++] = off;
	return 0;
}

/* asked - is the buffer @name ("" the top one) the one -B names? */
static bool asked(const struct ft_tdat *t, const char *name)
{
	return t->want && !strcmp(t->want, *name ? name : "top");
}

/* found - is the buffer read the one -B names? */
static bool found(const struct ft_tdat *t)
{
	return t->cpu && t->buffer && asked(t, t->buffer);
}

/* use - read the CPU table @cpu of @n CPUs: the buffer @name's */
static void use(struct ft_tdat *t, struct ft_tdat_cpu *cpu, unsigned int n, const char *name)
{
	free(t->cpu);
	t->cpu = cpu;
	t->ncpus = n;
	t->buffer = name;
}

/*
 * replaces - does the buffer @name ("" the top one), with data or not, replace the one
 * read so far? The one asked for ("top": the top one before an instance of that name).
 * Else the first; then one with data where ours has none, the top one's with data in
 * place of an instance's, or the empty top one in place of an empty instance.
 */
static bool replaces(const struct ft_tdat *t, const char *name, bool data)
{
	bool have;

	if (t->want)	/* "top": the top one, not an instance named so after it */
		return asked(t, name) && !(*name && found(t) && !*t->buffer);
	if (!t->cpu)
		return true;
	have = has_data(t->cpu, t->ncpus);
	if (!data)
		return !have && !*name && *t->buffer;
	return !have || (*t->buffer && !*name);
}

/* ft_tdat_buffer_v7 - a v7 BUFFER option: offset, name, clock, page size, CPUs */
int ft_tdat_buffer_v7(struct ft_tdat *t, struct cur *c)
{
	struct ft_tdat_cpu *cpu;
	const char *name, *clock;
	unsigned int n, page_size = 0;
	size_t left;

	get_u(c, 8);
	name = get_str(c);
	clock = get_str(c);
	if (c->bad)
		return ft_tdat_fail(t, "a BUFFER option is damaged");
	left = c->end - c->p;
	if (left >= 8 && (left - 8) % 20 == 0)
		page_size = get_u(c, 4);
	cpu = read_cpu_list(t, c, &n);
	if (!cpu)
		return -1;
	if (*name ? note_name(t, name, 0) : (t->has_top = true, 0)) {
		free(cpu);
		return -1;
	}
	if (!replaces(t, name, has_data(cpu, n))) {
		free(cpu);
		return 0;
	}
	use(t, cpu, n, name);
	t->clock.data = clock;
	t->clock.len = strlen(clock);
	if (page_size)
		t->page_size = page_size;
	return 0;
}

/* ft_tdat_buffer_v6 - a v6 BUFFER option: the offset of an instance's CPU table, name */
int ft_tdat_buffer_v6(struct ft_tdat *t, struct cur *c)
{
	uint64_t off = get_u(c, 8);
	const char *name = get_str(c);

	if (c->bad || !*name)
		return ft_tdat_fail(t, "a BUFFER option is damaged");
	return note_name(t, name, off);
}

/* v6_table - the CPU table of v6 instance @i: "flyrecord", then the top one's layout */
static struct ft_tdat_cpu *v6_table(struct ft_tdat *t, int i)
{
	struct cur c = at(t, t->v6off[i]);
	const unsigned char *word = take(&c, 10);
	struct ft_tdat_cpu *cpu = NULL;

	if (word && !memcmp(word, "flyrecord", 10))
		cpu = ft_tdat_table(t, &c, t->ncpus);
	if (!cpu)
		ft_tdat_fail(t, "buffer '%.64s' has no CPU table", t->names[i]);
	return cpu;
}

/*
 * ft_tdat_pick_v6 - after the top's CPU table (v6 files always have one): the instance
 * to read instead, if any. Without -B an instance whose table is damaged is skipped
 * (and counted); the one asked for must be whole.
 */
int ft_tdat_pick_v6(struct ft_tdat *t)
{
	struct ft_tdat_cpu *cpu;
	int i;

	t->buffer = "";
	t->has_top = true;
	if (t->want ? asked(t, "") : has_data(t->cpu, t->ncpus))
		return 0;
	for (i = 0; i < t->nnames; i++) {
		if (t->want && !asked(t, t->names[i]))
			continue;
		cpu = v6_table(t, i);
		if (!cpu) {
			if (t->want)
				return -1;
			t->err[0] = 0;		/* skipped, not fatal */
			t->skipped++;
			continue;
		}
		if (t->want || has_data(cpu, t->ncpus)) {
			use(t, cpu, t->ncpus, t->names[i]);
			break;
		}
		free(cpu);
	}
	return 0;
}

/* list_buffers - "top, a, b": the file's buffers, into t->buffers */
static void list_buffers(struct ft_tdat *t)
{
	size_t len = 0;
	int i;

	t->buffers[0] = 0;
	if (t->has_top)
		len = snprintf(t->buffers, sizeof(t->buffers), "top");
	for (i = 0; i < t->nnames && len < sizeof(t->buffers) - 1; i++)
		len += snprintf(t->buffers + len, sizeof(t->buffers) - len, "%s%.64s",
				len ? ", " : "", t->names[i]);
}

/*
 * ft_tdat_check_buffer - the buffer asked for was found; one read in place of an
 * empty or missing top buffer is said (t->picked), with the file's buffers
 */
int ft_tdat_check_buffer(struct ft_tdat *t)
{
	list_buffers(t);
	if (!t->want) {
		t->picked = t->buffer && *t->buffer;
		return 0;
	}
	if (found(t))
		return 0;
	return ft_tdat_fail(t, "no buffer '%.64s' (the file holds: %s)", t->want,
			    *t->buffers ? t->buffers : "none");
}

/*
 * ft_tdat_clock - the name of the file's trace clock into @buf: the TRACECLOCK text
 * names the one in use between brackets ("local global [mono] ..."), a v7 buffer
 * plainly ("mono"); "local", the kernel's default, when the file says nothing
 */
void ft_tdat_clock(const struct ft_tdat *t, char *buf, size_t len)
{
	const char *s = t->clock.data, *end, *open, *close;

	snprintf(buf, len, "local");
	if (!s || !t->clock.len)
		return;
	end = s + t->clock.len;	/* not before: no offset from a NULL pointer */
	open = memchr(s, '[', t->clock.len);
	close = open ? memchr(open, ']', end - open) : NULL;
	if (open && close) {
		s = open + 1;
		end = close;
	}
	while (s < end && (*s == ' ' || *s == '\n'))
		s++;
	while (end > s && (end[-1] == ' ' || end[-1] == '\n' || !end[-1]))
		end--;
	if (end > s)
		snprintf(buf, len, "%.*s", (int)(end - s), s);
}
