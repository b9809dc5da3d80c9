// SPDX-License-Identifier: GPL-2.0
/*
 * Function probes. A pattern names kernel functions (vfs_read, vfs_*), user
 * functions in an ELF file (/path/bin:func, lib:func, c:malloc, BCC's syntax), or
 * system calls (syscall:read). Kernel functions go through function_graph when the
 * run's instance offers it (kernels >= 6.7; ftscope never uses the top-level
 * buffer), else kprobe + kretprobe; user functions through uprobe + uretprobe at the
 * symbol's file offset; system calls through syscalls:sys_enter_/sys_exit_ events.
 * Dynamic events live in the group ftscope_PID_RANDOM, which `ftscope reset`
 * recognises, and are destroyed after the instance is gone.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracefs.h>

#include "events/decode.h"
#include "events/syms.h"
#include "events/tep.h"
#include "lib/util.h"
#include "tracer/probes.h"
#include "tracer/session.h"

/* Default ceiling on functions per run: each one costs two probes. */
#define FT_PROBES_LIMIT	256

/* add_fn - append one resolved function; NULL when out of memory */
static struct ft_fn *add_fn(struct ft_probes *pr, enum ft_fkind kind, const char *name,
			    uint64_t addr, const char *path)
{
	struct ft_fn *fn = realloc(pr->funcs.fn, (pr->funcs.n + 1) * sizeof(*fn)), *f;
	int i;

	if (!fn)
		return NULL;
	pr->funcs.fn = fn;
	for (i = 0; i < pr->funcs.n; i++)	/* aliases and repeated patterns: once */
		if (fn[i].kind == kind && !strcmp(fn[i].name, name))
			return &fn[i];
	f = &fn[pr->funcs.n++];
	memset(f, 0, sizeof(*f));
	snprintf(f->name, sizeof(f->name), "%s", name);
	f->kind = kind;
	f->addr = addr;
	f->path = path ? strdup(path) : NULL;
	return f;
}

struct kernel_match {
	struct ft_probes	*pr;
	const char		*pat;
	int			n;
};

/* match_kernel - ft_kallsyms_each callback: a built-in text symbol matching the pattern */
static int match_kernel(void *ctx, uint64_t addr, char type, const char *name, bool module)
{
	struct kernel_match *m = ctx;

	if ((type != 't' && type != 'T') || module || fnmatch(m->pat, name, 0))
		return 0;
	if (!add_fn(m->pr, FT_FK_KERNEL, name, addr, NULL))
		return ENOMEM;
	m->n++;
	return 0;
}

/* kernel_fns - kernel text symbols of /proc/kallsyms matching @pat; returns how many */
static int kernel_fns(struct ft_probes *pr, const char *pat)
{
	struct kernel_match m = { .pr = pr, .pat = pat };
	int ret = ft_kallsyms_each("/proc/kallsyms", match_kernel, &m);

	if (ret > 0)
		errno = ret;
	return ret ? -1 : m.n;
}

/* syscall_fns - system calls with sys_enter_/sys_exit_ events matching @pat */
static int syscall_fns(struct ft_probes *pr, const char *pat)
{
	char dir[512], name[256];
	struct dirent *de;
	DIR *d;
	int n = 0;

	snprintf(dir, sizeof(dir), "%s/events/syscalls", tracefs_tracing_dir());
	d = opendir(dir);
	if (!d)
		return -1;
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, "sys_enter_", 10) || fnmatch(pat, de->d_name + 10, 0))
			continue;
		snprintf(name, sizeof(name), "syscall:%s", de->d_name + 10);
		if (!add_fn(pr, FT_FK_SYSCALL, name, 0, NULL)) {
			n = -1;
			break;
		}
		n++;
	}
	closedir(d);
	return n;
}

/* find_library - "c" or "libc" or "libc.so.6" in the usual library directories */
static bool find_library(const char *lib, char *path, size_t len)
{
	static const char *const dirs[] = { "/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu",
					    "/lib64", "/usr/lib64", "/lib", "/usr/lib",
					    "/usr/local/lib" };
	char want[128];
	unsigned int i;
	struct dirent *de;

	/* a name cut to fit could match another library */
	if ((size_t)snprintf(want, sizeof(want), "%s%s", strncmp(lib, "lib", 3) ? "lib" : "",
			     lib) >= sizeof(want))
		return false;
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		DIR *d = opendir(dirs[i]);
		size_t wl = strlen(want);

		while (d && (de = readdir(d))) {
			/* libc -> libc.so.6, libc.so; never libcap.so */
			if (strncmp(de->d_name, want, wl) ||
			    (de->d_name[wl] && strncmp(de->d_name + wl, ".so", 3)))
				continue;
			snprintf(path, len, "%s/%s", dirs[i], de->d_name);
			closedir(d);
			return true;
		}
		if (d)
			closedir(d);
	}
	return false;
}

/* file_offset - the file offset of virtual address @va through the PT_LOAD segments */
static bool file_offset(Elf *elf, uint64_t va, uint64_t *off)
{
	size_t i, phnum;
	GElf_Phdr ph;

	if (elf_getphdrnum(elf, &phnum))
		return false;
	for (i = 0; i < phnum; i++)
		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD &&
		    va >= ph.p_vaddr && va < ph.p_vaddr + ph.p_filesz) {
			*off = va - ph.p_vaddr + ph.p_offset;
			return true;
		}
	return false;
}

struct elf_match {
	struct ft_probes	*pr;
	Elf			*elf;
	const char		*path, *base, *pat;
	int			n;
};

/* match_sym - ft_elf_funcs callback: a symbol matching the pattern becomes a function */
static int match_sym(void *ctx, const char *s, uint64_t value, uint64_t size)
{
	struct elf_match *m = ctx;
	char name[192];
	uint64_t off;

	if (fnmatch(m->pat, s, 0) || !file_offset(m->elf, value, &off))
		return 0;
	snprintf(name, sizeof(name), "%s:%.*s", m->base, (int)strcspn(s, "@"), s);
	if (!add_fn(m->pr, FT_FK_USER, name, off, m->path)) {
		m->n = -1;
		return 1;
	}
	m->n++;
	return 0;
}

/* elf_fns - function symbols of @path matching @pat (.symtab and .dynsym), as offsets */
static int elf_fns(struct ft_probes *pr, const char *path, const char *pat)
{
	struct elf_match m = { .pr = pr, .path = path, .pat = pat,
			       .base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path };
	int fd;

	elf_version(EV_CURRENT);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -2;
	m.elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!m.elf || elf_kind(m.elf) != ELF_K_ELF)
		m.n = -3;
	else
		ft_elf_funcs(m.elf, 0, match_sym, &m);
	if (m.elf)
		elf_end(m.elf);
	close(fd);
	return m.n;
}

/* resolve - one pattern to functions; prints the error */
static int resolve(struct ft_probes *pr, const char *spec)
{
	const char *colon, *pat = spec;
	char bin[512], path[512];
	int n;

	if (!strncmp(spec, "p:", 2))	/* BCC's explicit probe prefix */
		pat = spec = spec + 2;
	colon = strrchr(spec, ':');
	if (!strncmp(spec, "syscall:", 8)) {
		n = syscall_fns(pr, spec + 8);
		if (n < 0) {
			ft_err("this kernel has no syscalls events (events/syscalls)");
			return -1;
		}
	} else if (colon) {
		snprintf(bin, sizeof(bin), "%.*s", (int)(colon - spec), spec);
		pat = colon + 1;
		if (strchr(bin, '/'))
			snprintf(path, sizeof(path), "%s", bin);
		else if (!find_library(bin, path, sizeof(path))) {
			ft_err("cannot find library '%s' for '%s'", bin, spec);
			return -1;
		}
		n = elf_fns(pr, path, pat);
		if (n == -2) {
			ft_err("cannot open '%s': %s", path, strerror(errno));
			return -1;
		}
		if (n == -3) {
			ft_err("'%s' is not an ELF file", path);
			return -1;
		}
	} else {
		n = kernel_fns(pr, spec);
		if (n < 0) {
			ft_err("cannot read /proc/kallsyms: %s", strerror(errno));
			return -1;
		}
	}
	if (n == 0 && !strncmp(spec, "syscall:", 8))
		ft_err("'%s' matches no system call", spec);
	else if (n == 0 && colon)
		ft_err("'%s' matches no function of %s", spec, path);
	else if (n == 0)
		ft_err("'%s' matches no kernel function", spec);
	if (n == 0)
		return -1;
	return n < 0 ? -1 : 0;
}

/**
 * ft_probes_user_fn - one user function "lib:func" or "/path:func" as the ELF file
 * and the file offset a uprobe takes (the profile's -e c:malloc)
 * Returns 0, or -1 after printing one line (no such file or function, or several).
 */
int ft_probes_user_fn(const char *spec, char *path, size_t len, uint64_t *off)
{
	struct ft_probes pr = { 0 };
	int ret = -1;

	if (resolve(&pr, spec))
		goto out;
	if (pr.funcs.n != 1 || pr.funcs.fn[0].kind != FT_FK_USER)
		ft_err("'%s' names %d functions: sample one at a time", spec, pr.funcs.n);
	else if ((size_t)snprintf(path, len, "%s", pr.funcs.fn[0].path) >= len)
		ft_err("'%s': path too long", spec);
	else {
		*off = pr.funcs.fn[0].addr;
		ret = 0;
	}
out:
	ft_funcs_free(&pr.funcs);
	return ret;
}

/* instance_has_tracer - does the run's instance offer tracer @name? */
static bool instance_has_tracer(struct ft_session *s, const char *name)
{
	char *t = tracefs_instance_file_read(s->inst, "available_tracers", NULL), *w, *save;
	bool found = false;

	for (w = t ? strtok_r(t, " \n", &save) : NULL; w && !found; w = strtok_r(NULL, " \n", &save))
		found = !strcmp(w, name);
	free(t);
	return found;
}

/* write_inst - write an instance file; prints the error */
static int write_inst(struct ft_session *s, const char *file, const char *val)
{
	if (tracefs_instance_file_write(s->inst, file, val) < 0) {
		ft_err("cannot write %s of instance %s: %s", file, s->name, strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * write_filter - our kernel functions into the instance's set_ftrace_filter, one
 * write() per name: the kernel takes one name per write (libtracefs's one-shot file
 * write set only the first name of a glob), and refuses with EINVAL a name it cannot
 * trace (notrace, init code), which is left out and counted. Returns the number of
 * names set, or -1 with errno set (EPERM: this kernel refuses function filters).
 */
static int write_filter(struct ft_probes *pr, struct ft_session *s, int *refused)
{
	char *path = tracefs_instance_get_file(s->inst, "set_ftrace_filter"), line[200];
	int fd = path ? open(path, O_WRONLY | O_TRUNC | O_CLOEXEC) : -1, i, n = 0, err = 0;

	tracefs_put_tracing_file(path);
	*refused = 0;
	if (fd < 0)
		return -1;
	for (i = 0; i < pr->funcs.n && !err; i++) {
		if (pr->funcs.fn[i].kind != FT_FK_KERNEL)
			continue;
		snprintf(line, sizeof(line), "%s\n", pr->funcs.fn[i].name);
		if (!ft_write_all(fd, line, strlen(line)))
			n++;
		else if (errno == EINVAL)
			(*refused)++;
		else
			err = errno;
	}
	close(fd);
	errno = err;
	return err ? -1 : n;
}

/*
 * use_tracer - @tracer (function_graph, function) in the instance, filtered to our
 * kernel functions and, with @pids, to those tasks; 0, -1 after the error line, or
 * FT_EXIT_NOFEAT when this kernel refuses function filters
 */
static int use_tracer(struct ft_probes *pr, struct ft_session *s, const int *pids, int npids,
		      bool follow, const char *tracer)
{
	int i, n, refused;
	char buf[16];

	n = write_filter(pr, s, &refused);
	if (n < 0 && errno == EPERM) {
		/* a kernel feature this one lacks: exit 3, as for a missing tracer */
		ft_err("cannot set the function filter (set_ftrace_filter: %s): this kernel "
		       "refuses function filters", strerror(errno));
		return FT_EXIT_NOFEAT;
	}
	if (n < 0) {
		ft_err("cannot set the function filter (set_ftrace_filter: %s)", strerror(errno));
		return -1;
	}
	if (!n) {
		ft_err("none of the %d functions can be traced by the %s tracer (not in "
		       "available_filter_functions)", refused, tracer);
		return -1;
	}
	if (refused)	/* a note, not an error: the run goes on */
		ft_err("%d of %d functions cannot be traced (not in available_filter_functions): "
		       "left out", refused, n + refused);
	for (i = 0; i < npids; i++) {
		snprintf(buf, sizeof(buf), "%d", pids[i]);
		if (tracefs_instance_file_append(s->inst, "set_ftrace_pid", buf) < 0) {
			ft_err("cannot write set_ftrace_pid: %s", strerror(errno));
			return -1;
		}
	}
	if (npids && follow && tracefs_file_exists(s->inst, "options/function-fork") &&
	    write_inst(s, "options/function-fork", "1"))
		return -1;
	return write_inst(s, "current_tracer", tracer);
}

/* use_event - note what the records of @sys:@name are, and enable it in the instance */
static int use_event(struct ft_probes *pr, struct ft_session *s, const char *sys,
		     const char *name, int func, enum ft_fcall_kind kind)
{
	struct ft_pev *ev = realloc(pr->ev, (pr->nev + 1) * sizeof(*ev));

	if (!ev) {
		ft_err("out of memory");
		return -1;
	}
	pr->ev = ev;
	ev += pr->nev++;
	snprintf(ev->sys, sizeof(ev->sys), "%s", sys);
	snprintf(ev->name, sizeof(ev->name), "%s", name);
	ev->func = func;
	ev->kind = kind;
	/* the tracers' records come from the tracer, not from an enabled event */
	if (kind != FT_FC_GRAPH_ENTRY && kind != FT_FC_GRAPH_EXIT && kind != FT_FC_FUNCTION &&
	    ft_session_event_on(s, sys, name)) {
		ft_err("cannot enable %s:%s for %s: %s", sys, name,
		       func >= 0 ? pr->funcs.fn[func].name : "function_graph", strerror(errno));
		return -1;
	}
	return 0;
}

/* make_probe - create the entry (or return) probe of function @i and enable it */
static int make_probe(struct ft_probes *pr, struct ft_session *s, int i, bool ret)
{
	struct tracefs_dynevent *d, **dyn;
	struct ft_fn *f = &pr->funcs.fn[i];
	char ev[16];

	snprintf(ev, sizeof(ev), "%c%d", ret ? 'r' : 'f', i);
	if (f->kind == FT_FK_USER)
		d = ret ? tracefs_uretprobe_alloc(pr->group, ev, f->path, f->addr, "ret=$retval")
			: tracefs_uprobe_alloc(pr->group, ev, f->path, f->addr, NULL);
	else
		d = ret ? tracefs_kretprobe_alloc(pr->group, ev, f->name, "ret=$retval", 0)
			: tracefs_kprobe_alloc(pr->group, ev, f->name, NULL);
	dyn = realloc(pr->dyn, (pr->ndyn + 1) * sizeof(*dyn));
	if (!d || !dyn) {
		tracefs_dynevent_free(d);
		ft_err("out of memory");
		return -1;
	}
	pr->dyn = dyn;
	if (tracefs_dynevent_create(d)) {
		ft_err("cannot create the %s%s for %s: %s", f->kind == FT_FK_USER ? "uprobe" : "kprobe",
		       ret ? " return probe" : "", f->name, strerror(errno));
		tracefs_dynevent_free(d);
		return -1;
	}
	pr->dyn[pr->ndyn++] = d;
	return use_event(pr, s, pr->group, ev, i, ret ? FT_FC_EXIT : FT_FC_ENTRY);
}

/* choose_method - the method for kernel functions; prints why when there is none */
static int choose_method(struct ft_probes *pr, struct ft_session *s)
{
	bool graph = instance_has_tracer(s, "function_graph");
	bool kprobe = tracefs_file_exists(NULL, "kprobe_events");

	pr->funcs.used = pr->req->method;
	if (pr->funcs.used == FT_FM_FUNCTION && !instance_has_tracer(s, "function")) {
		ft_err("the function tracer is not available in tracefs instances on this kernel");
		return -1;
	}
	if (pr->req->method == FT_FM_AUTO)
		pr->funcs.used = graph ? FT_FM_GRAPH : FT_FM_KPROBE;
	if (pr->funcs.used == FT_FM_GRAPH && !graph) {
		ft_err("function_graph is not available in tracefs instances on this kernel "
		       "(instances offer it from 6.7; ftscope never uses the top-level buffer): "
		       "use --method kprobe");
		return -1;
	}
	if (pr->funcs.used == FT_FM_KPROBE && !kprobe) {
		ft_err("cannot trace kernel functions: this kernel offers neither function_graph "
		       "in instances nor kprobe events");
		return -1;
	}
	return 0;
}

/**
 * ft_probes_setup - resolve the patterns, choose the method, create the probes
 * and enable everything in the session's instance (tracing still off)
 * Returns 0, -1 after printing one line, or FT_EXIT_NOFEAT when the kernel lacks
 * every method for kernel functions.
 */
int ft_probes_setup(struct ft_probes *pr, struct ft_session *s, const int *pids, int npids,
		    bool follow)
{
	unsigned int limit = pr->req->limit ? pr->req->limit : FT_PROBES_LIMIT;
	bool kernel = false;
	int i;

	for (i = 0; i < pr->req->nspecs; i++)
		if (resolve(pr, pr->req->specs[i]))
			return -1;
	if ((unsigned int)pr->funcs.n > limit) {
		ft_err("the patterns match %d functions, more than the limit of %u: narrow them, or "
		       "raise the limit with --max-funcs", pr->funcs.n, limit);
		return -1;
	}
	ft_owned_name(pr->group, sizeof(pr->group), '_');
	for (i = 0; i < pr->funcs.n; i++) {
		kernel |= pr->funcs.fn[i].kind == FT_FK_KERNEL;
		if (pr->req->method == FT_FM_FUNCTION && pr->funcs.fn[i].kind != FT_FK_KERNEL) {
			ft_err("%s: the function tracer counts kernel functions only", pr->funcs.fn[i].name);
			return -1;
		}
	}
	if (kernel && choose_method(pr, s))
		return FT_EXIT_NOFEAT;
	if (pr->funcs.used == FT_FM_FUNCTION)
		return use_event(pr, s, "ftrace", "function", -1, FT_FC_FUNCTION) ? -1 :
		       use_tracer(pr, s, pids, npids, follow, "function");
	for (i = 0; i < pr->funcs.n; i++) {
		struct ft_fn *f = &pr->funcs.fn[i];
		char enter[64], exit[64];

		if (f->kind == FT_FK_SYSCALL) {
			snprintf(enter, sizeof(enter), "sys_enter_%s", f->name + 8);
			snprintf(exit, sizeof(exit), "sys_exit_%s", f->name + 8);
			if (use_event(pr, s, "syscalls", enter, i, FT_FC_ENTRY) ||
			    use_event(pr, s, "syscalls", exit, i, FT_FC_EXIT))
				return -1;
		} else if (f->kind == FT_FK_USER || pr->funcs.used == FT_FM_KPROBE) {
			if (make_probe(pr, s, i, false) || make_probe(pr, s, i, true))
				return -1;
		}
	}
	if (!kernel || pr->funcs.used != FT_FM_GRAPH)
		return 0;
	if (use_event(pr, s, "ftrace", "funcgraph_entry", -1, FT_FC_GRAPH_ENTRY) ||
	    use_event(pr, s, "ftrace", "funcgraph_exit", -1, FT_FC_GRAPH_EXIT))
		return -1;
	return use_tracer(pr, s, pids, npids, follow, "function_graph");
}

/* add_format - parse the format of @sys/@ev into @tep; prints the error */
static int add_format(ft_format_read_fn rd, void *ctx, struct tep_handle *tep, const char *sys,
		      const char *ev, bool untrusted)
{
	size_t len = 0;
	char *text = rd(ctx, sys, ev, &len);
	int ret = -1;

	if (text)
		ret = untrusted ? ft_tep_add_untrusted(tep, sys, text, len) :
				  ft_tep_add_format(tep, sys, text, len);
	free(text);
	if (ret)
		ft_err("cannot parse the format of %s:%s", sys, ev);
	return ret;
}

/*
 * ft_probes_formats - the formats of every probe and tracer event into @tep, read
 * with @rd (the session's, or a file's: @untrusted, parsed in a child first)
 */
int ft_probes_formats(struct ft_probes *pr, ft_format_read_fn rd, void *ctx,
		      struct tep_handle *tep, bool untrusted)
{
	int i;

	for (i = 0; i < pr->nev; i++)
		if (add_format(rd, ctx, tep, pr->ev[i].sys, pr->ev[i].name, untrusted))
			return -1;
	return 0;
}

/* ft_probes_decoder - teach the decoder which events are which function's */
int ft_probes_decoder(struct ft_probes *pr, struct ft_decoder *d)
{
	int i;

	for (i = 0; i < pr->nev; i++)
		if (ft_decoder_add_func(d, pr->ev[i].sys, pr->ev[i].name, pr->ev[i].func,
					pr->ev[i].kind)) {
			ft_err("the trace lacks the probe event %s:%s", pr->ev[i].sys,
			       pr->ev[i].name);
			return -1;
		}
	return 0;
}

/* ft_probes_close - destroy the run's dynamic events (after its instance is gone) */
void ft_probes_close(struct ft_probes *pr)
{
	int i;

	for (i = pr->ndyn - 1; i >= 0; i--) {
		tracefs_dynevent_destroy(pr->dyn[i], true);
		tracefs_dynevent_free(pr->dyn[i]);
	}
	FT_FREE(pr->dyn);
	pr->ndyn = 0;
}

/* ft_probes_free - close, and free the resolved functions (the request is the analyzer's) */
void ft_probes_free(struct ft_probes *pr)
{
	ft_probes_close(pr);
	ft_funcs_free(&pr->funcs);
	FT_FREE(pr->ev);
	pr->nev = 0;
}
