// SPDX-License-Identifier: GPL-2.0
/*
 * tep construction from a few format files: tep_alloc + header_page + one
 * tep_parse_event per needed event, well under a millisecond, instead of
 * parsing every format on the system.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <traceevent/event-parse.h>

#include "events/decode.h"
#include "events/tep.h"

/**
 * ft_dir_format_read - format reader over a directory: DIR/header_page, and
 * DIR/events/SYSTEM/EVENT/format or DIR/EVENT.format (the fixtures' layout)
 */
char *ft_dir_format_read(void *dir, const char *system, const char *event, size_t *len)
{
	char path[4096];
	char *text;

	if (!system) {
		snprintf(path, sizeof(path), "%s/%s", (char *)dir, event);
		return ft_read_file(path, FT_FORMAT_MAX, len);
	}
	snprintf(path, sizeof(path), "%s/events/%s/%s/format", (char *)dir, system, event);
	text = ft_read_file(path, FT_FORMAT_MAX, len);
	if (text)
		return text;
	snprintf(path, sizeof(path), "%s/%s.format", (char *)dir, event);
	return ft_read_file(path, FT_FORMAT_MAX, len);
}

/**
 * ft_format_check - does @text look like a kernel's format file? Only tabs, newlines
 * and printable ASCII; "format:" and "print fmt:" present; in the print fmt, string
 * literals closed and brackets balanced. libtraceevent 1.7.1's parser is not
 * hardened against anything else (fuzzing it crashed on a stray byte in the print fmt).
 * Returns 0, or -1 with errno EINVAL.
 */
int ft_format_check(const char *text, size_t len)
{
	const char *pf, *end = text + len;
	char stack[64];
	int depth = 0;
	size_t i;

	if (len > FT_FORMAT_MAX || !memmem(text, len, "format:", 7))
		goto bad;
	for (i = 0; i < len; i++)
		if ((text[i] < 0x20 && text[i] != '\t' && text[i] != '\n') || text[i] > 0x7e)
			goto bad;
	pf = memmem(text, len, "print fmt:", 10);
	if (!pf)
		goto bad;
	for (pf += 10; pf < end; pf++) {
		switch (*pf) {
		case '"':
		case '\'':
			for (i = 1; pf + i < end && pf[i] != *pf; i++)
				if (pf[i] == '\\')
					i++;
			if (pf + i >= end)
				goto bad;
			pf += i;
			break;
		case '(':
		case '[':
		case '{':
			if (depth == (int)sizeof(stack))
				goto bad;
			stack[depth++] = *pf == '(' ? ')' : *pf == '[' ? ']' : '}';
			break;
		case ')':
		case ']':
		case '}':
			if (!depth || stack[--depth] != *pf)
				goto bad;
			break;
		}
	}
	if (!depth)
		return 0;
bad:
	errno = EINVAL;
	return -1;
}

/**
 * ft_tep_add_format - parse one event format into @tep
 * Returns 0, or -1 with errno EINVAL when it is malformed or libtraceevent rejects it.
 */
int ft_tep_add_format(struct tep_handle *tep, const char *system, const char *text, size_t len)
{
	if (ft_format_check(text, len))
		return -1;
	if (tep_parse_event(tep, text, len, system)) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

/* texts_hash - FNV-1a over the header_page and the formats ft_tep_load would parse */
static uint64_t texts_hash(ft_format_read_fn rd, void *ctx, unsigned int need)
{
	uint64_t h = 0xcbf29ce484222325ull;
	size_t len, j;
	char *text;
	int i;

	for (i = 0; i < FT_EV_NTYPES; i++) {
		if (i && !(need & FT_NEED(i)))
			continue;
		text = i ? rd(ctx, ft_event_defs[i].system, ft_event_defs[i].name, &len) :
			   rd(ctx, NULL, "header_page", &len);
		for (j = 0; text && j < len; j++)
			h = (h ^ (unsigned char)text[j]) * 0x100000001b3ull;
		h = (h ^ (text ? 1 : 2)) * 0x100000001b3ull;
		free(text);
	}
	return h;
}

/*
 * in_child - run @fn(@arg) in a child with no output and a time limit: false when it
 * crashed or hung (libtraceevent 1.7.1 does, on some malformed formats), true when it
 * exited, with *@ok set when it exited 0. A failed fork says true: parse in place.
 */
static bool in_child(int (*fn)(void *arg), void *arg, bool *ok)
{
	static const int fatal[] = { SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL };
	int status, fd;
	size_t i;
	pid_t pid;

	*ok = false;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return true;
	if (!pid) {
		fd = open("/dev/null", O_WRONLY);
		if (fd >= 0)
			dup2(fd, 2);
		for (i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
			signal(fatal[i], SIG_DFL);
		alarm(10);
		_exit(fn(arg) ? 1 : 0);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return false;
	if (!WIFEXITED(status))
		return false;
	*ok = !WEXITSTATUS(status);
	return true;
}

struct load_args {
	ft_format_read_fn	rd;
	void			*ctx;
	unsigned int		need;
};

/* try_load - in the child: the tep construction and the print-fmt evaluation */
static int try_load(void *arg)
{
	struct load_args *a = arg;
	struct ft_page_fmt pf;
	struct ft_states st;
	struct tep_handle *tep = ft_tep_load(a->rd, a->ctx, a->need, &pf, 0);

	if (!tep)
		return -1;
	ft_states_from_print_fmt(&st, tep);
	return 0;
}

/*
 * parses_in_child - do the formats of a file parse without crashing libtraceevent?
 * The same tep construction as in place, in a child (in_child). Texts that passed
 * are remembered, so reading the same formats again forks no child.
 */
static bool parses_in_child(ft_format_read_fn rd, void *ctx, unsigned int need)
{
	static uint64_t good[16];
	static unsigned int ngood;
	struct load_args a = { rd, ctx, need };
	uint64_t h = texts_hash(rd, ctx, need);
	unsigned int i;
	bool ok;

	for (i = 0; i < ngood && i < 16; i++)
		if (good[i] == h)
			return true;
	if (!in_child(try_load, &a, &ok))
		return false;
	/* a clean refusal (exit 1) is reported by the parse in place */
	if (ok)
		good[ngood++ % 16] = h;
	return true;
}

struct one_args {
	const char	*system, *text;
	size_t		len;
};

/* try_one - in the child: one format into a tep of its own */
static int try_one(void *arg)
{
	struct one_args *a = arg;
	struct tep_handle *tep = tep_alloc();

	return tep ? ft_tep_add_format(tep, a->system, a->text, a->len) : -1;
}

/**
 * ft_tep_add_untrusted - ft_tep_add_format for a format from a file: parsed in a
 * child first (in_child). Returns 0, or -1 with errno EINVAL.
 */
int ft_tep_add_untrusted(struct tep_handle *tep, const char *system, const char *text,
			 size_t len)
{
	struct one_args a = { system, text, len };
	bool ok;

	if (ft_format_check(text, len) || !in_child(try_one, &a, &ok)) {
		errno = EINVAL;
		return -1;
	}
	return ft_tep_add_format(tep, system, text, len);
}

/**
 * ft_tep_load - a tep holding the header page and the formats of the types in @need
 * (FT_NEED bits). A missing format is not an error: the decoder skips that type.
 * With FT_TEP_UNTRUSTED (formats from a file), they are parsed in a child first.
 * Fills @pf with the sub-buffer layout. Returns the tep or NULL with errno set.
 */
struct tep_handle *ft_tep_load(ft_format_read_fn rd, void *ctx, unsigned int need,
			       struct ft_page_fmt *pf, unsigned int flags)
{
	struct tep_handle *tep;
	size_t len;
	char *text;
	int i, err = 0;

	if ((flags & FT_TEP_UNTRUSTED) && !parses_in_child(rd, ctx, need)) {
		errno = EINVAL;
		return NULL;
	}
	text = rd(ctx, NULL, "header_page", &len);
	if (!text)
		return NULL;
	if (ft_page_fmt_parse(pf, text, len)) {
		free(text);
		errno = EINVAL;
		return NULL;
	}
	tep = tep_alloc();
	if (!tep) {
		free(text);
		errno = ENOMEM;
		return NULL;
	}
	tep_set_long_size(tep, pf->commit_size);
	tep_set_page_size(tep, pf->subbuf_size);
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_parse_header_page(tep, text, len, pf->commit_size);
	free(text);
	for (i = 1; i < FT_EV_NTYPES; i++) {
		if (!(need & FT_NEED(i)))
			continue;
		text = rd(ctx, ft_event_defs[i].system, ft_event_defs[i].name, &len);
		if (!text)
			continue;
		if (ft_tep_add_format(tep, ft_event_defs[i].system, text, len))
			err = errno;
		free(text);
		if (err)
			goto fail;
	}
	return tep;
fail:
	tep_free(tep);
	errno = err;
	return NULL;
}

/**
 * ft_tep_add_event - add the format of @system:@event, read with @rd, to @tep (parsed in
 * a child first with FT_TEP_UNTRUSTED). Already there: nothing to do.
 * Returns 0; -1 with errno ENOENT when @rd has no such format, or EINVAL.
 */
int ft_tep_add_event(struct tep_handle *tep, ft_format_read_fn rd, void *ctx,
		     const char *system, const char *event, unsigned int flags)
{
	size_t len;
	char *text;
	int ret;

	if (tep_find_event_by_name(tep, system, event))
		return 0;
	text = rd(ctx, system, event, &len);
	if (!text) {
		errno = ENOENT;
		return -1;
	}
	ret = (flags & FT_TEP_UNTRUSTED) ? ft_tep_add_untrusted(tep, system, text, len) :
					   ft_tep_add_format(tep, system, text, len);
	free(text);
	return ret;
}
