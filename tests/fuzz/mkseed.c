// SPDX-License-Identifier: GPL-2.0
/*
 * mkseed - a small trace.dat (v6) for the fuzzers' seed corpus, from a capture
 * directory of this repository (header_page, events/SYS/EVENT/format, cpuN.raw),
 * with a few lines of kallsyms, cmdlines, per-CPU stats, process maps and perf
 * samples (events/sample.h: kernel and user frames, a thread's name, an idle CPU's
 * sample) so that each section of the file is there to mutate. With --cfi, a seed of
 * tests/fuzz/fuzz_cfi.c from an ELF file read in place (the system's libc, binaries this
 * repository builds): its .eh_frame, .eh_frame_hdr and .debug_frame cut to their first
 * entries (the header's table to the FDEs kept), and a stack copy whose words are
 * return addresses into them and frame pointers.
 *
 *   mkseed DIR OUT.dat
 *   mkseed --cfi ELF OUT
 */
#include <dirent.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "events/cfi.h"
#include "events/sample.h"
#include "events/tdat.h"
#include "events/tep.h"
#include "tests/fuzz/fuzz_cfi.h"

#define MAX_FMT	32
#define MAX_CPU	8

static const char header_event[] =
	"# compressed entry header\n\ttype_len    :    5 bits\n\ttime_delta  :   27 bits\n"
	"\tarray       :   32 bits\n\n\tpadding     : type == 29\n\ttime_extend : type == 30\n"
	"\ttime_stamp : type == 31\n\tdata max type_len  == 28\n";
static const char kallsyms[] =
	"ffffffff81000000 T _stext\nffffffff81100000 T schedule\n"
	"ffffffff81100400 t __schedule\nffffffff81200000 T do_nanosleep\n";
static const char cmdlines[] = "1 init\n4242 sleeper\n";
static const char stats[] = "entries: 0\noverrun: 0\ncommit overrun: 0\nbytes: 0\n"
	"oldest event ts: 0.000000\nnow ts: 0.000000\ndropped events: 0\nread events: 40\n";
static const char maps[] = "4242 1 sleeper\n55d0c0000000 55d0c0001000 0 /usr/bin/sleeper\n";

/* blob - a blob over a constant string */
static struct ft_blob blob(const char *s)
{
	return (struct ft_blob){ .data = s, .len = strlen(s) };
}

/* read_formats - every DIR/events/SYS/EVENT/format, sorted by system */
static int read_formats(const char *dir, struct ft_tdat_fmt *fmt)
{
	struct dirent **sys;
	char path[4096];
	int i, nsys, n = 0;

	snprintf(path, sizeof(path), "%s/events", dir);
	nsys = scandir(path, &sys, NULL, alphasort);
	for (i = 0; i < nsys; i++) {
		struct dirent **ev;
		int j, nev;

		snprintf(path, sizeof(path), "%s/events/%s", dir, sys[i]->d_name);
		nev = sys[i]->d_name[0] == '.' ? 0 : scandir(path, &ev, NULL, alphasort);
		for (j = 0; j < nev; j++) {
			char *fpath;
			size_t len;
			char *text;

			if (ev[j]->d_name[0] != '.' && n < MAX_FMT &&
			    asprintf(&fpath, "%s/%s/format", path, ev[j]->d_name) > 0) {
				text = ft_read_file(fpath, FT_FORMAT_MAX, &len);
				free(fpath);
				if (text) {
					fmt[n].system = strdup(sys[i]->d_name);
					snprintf(fmt[n].name, sizeof(fmt[n].name), "%s", ev[j]->d_name);
					fmt[n].text = (struct ft_blob){ .data = text, .len = len };
					n++;
				}
			}
			free(ev[j]);
		}
		if (nev > 0)
			free(ev);
		free(sys[i]);
	}
	if (nsys > 0)
		free(sys);
	return n;
}

/* samples - the samples blob: sleeper's stacks in kallsyms and maps, and an idle one */
static int samples(struct ft_blob *out)
{
	static const uint64_t ip[] = { 0xffffffff81200010ULL, 0xffffffff81100410ULL,
				       0x55d0c0000100ULL, 0x55d0c0000200ULL };
	const struct ft_sample_req req = { .freq = 99, .user = true, .kernel = true };
	const struct ft_sample_counts c = { .samples = 4, .lost = 1, .throttled = 1 };
	const struct ft_sample_comm comm = { 4242, "sleeper" };
	const struct ft_sample s[] = {
		{ .ts = 1000000, .period = 10101010, .pid = 4242, .tid = 4242, .cpu = 0,
		  .nk = 2, .nu = 2, .ip = ip },
		{ .ts = 2000000, .period = 10101010, .pid = 4242, .tid = 4242, .cpu = 1,
		  .nk = 0, .nu = 2, .ip = ip + 2 },
		{ .ts = 3000000, .period = 10101010, .pid = 4242, .tid = 4242, .cpu = 1,
		  .nk = 2, .nu = 0, .ip = ip },
		{ .ts = 4000000, .period = 10101010, .pid = 0, .tid = 0, .cpu = 1,
		  .nk = 1, .nu = 0, .ip = ip + 1 },
	};
	unsigned char *buf;
	size_t len, cap, i;

	if (ft_sample_blob_head(&buf, &len, &req, &c, &comm, 1))
		return -1;
	cap = len;
	for (i = 0; i < sizeof(s) / sizeof(s[0]); i++)
		if (ft_sample_blob_add(&buf, &len, &cap, &s[i]))
			return -1;
	*out = (struct ft_blob){ .data = (const char *)buf, .len = len };
	return 0;
}

#define EH_MAX		6144	/* bytes of .eh_frame kept: the first whole entries */
#define DBG_MAX		4096
#define STACK_WORDS	128

/* cut - the length of the first whole CIE/FDE entries of @p within @max bytes */
static size_t cut(const unsigned char *p, size_t len, size_t max)
{
	size_t off = 0, n;
	uint32_t l;

	while (off + 4 <= len) {
		memcpy(&l, p + off, 4);
		n = l == 0xffffffff ? 12 : 4;
		if (l == 0xffffffff && off + 12 <= len) {
			uint64_t l64;

			memcpy(&l64, p + off + 4, 8);
			l = l64 > max ? (uint32_t)max : (uint32_t)l64;
		}
		if (!l || off + n + l > len || off + n + l > max)
			break;
		off += n + l;
	}
	return off;
}

/* hdr_cut - .eh_frame_hdr's table (GNU ld's encodings) to the FDEs in the first @eh_cut bytes */
static size_t hdr_cut(unsigned char *h, size_t len, uint64_t hdr_vaddr, uint64_t eh_vaddr,
		      size_t eh_cut)
{
	uint32_t count, i, kept = 0;
	int32_t loc, fde;

	if (len < 12 || memcmp(h, "\x01\x1b\x03\x3b", 4))
		return len < 64 ? len : 64;	/* not GNU ld's: as it is, cut */
	memcpy(&count, h + 8, 4);
	for (i = 0; i < count && 12 + 8 * (size_t)i + 8 <= len; i++) {
		memcpy(&loc, h + 12 + 8 * i, 4);
		memcpy(&fde, h + 12 + 8 * i + 4, 4);
		if (hdr_vaddr + fde - eh_vaddr < eh_cut)
			memmove(h + 12 + 8 * kept++, h + 12 + 8 * i, 8);
	}
	memcpy(h + 8, &kept, 4);
	return 12 + 8 * (size_t)kept;
}

/* section - the bytes of section @name of @elf (decompressed), a copy; NULL without it */
static unsigned char *section(Elf *elf, const char *name, size_t *len, uint64_t *addr)
{
	Elf_Scn *scn = NULL;
	size_t shstr;
	GElf_Shdr sh;
	Elf_Data *d;
	unsigned char *p;

	*len = 0;
	*addr = 0;
	if (elf_getshdrstrndx(elf, &shstr))
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *n;

		if (!gelf_getshdr(scn, &sh) || !(n = elf_strptr(elf, shstr, sh.sh_name)) ||
		    strcmp(n, name) || sh.sh_type == SHT_NOBITS)
			continue;
		if (sh.sh_flags & SHF_COMPRESSED && elf_compress(scn, 0, 0) < 0)
			return NULL;
		d = elf_getdata(scn, NULL);
		if (!d || !d->d_buf || !(p = malloc(d->d_size + 1)))
			return NULL;
		memcpy(p, d->d_buf, d->d_size);
		*len = d->d_size;
		*addr = sh.sh_addr;
		return p;
	}
	return NULL;
}

/* cfi_seed - the fuzz_cfi seed of the ELF file @path into @out: 0, or 1 */
static int cfi_seed(const char *path, const char *out)
{
	struct fuzz_cfi_head h = { .bias = 0x555555554000ULL, .rsp = 0x7ffd12340000ULL };
	uint64_t stack[STACK_WORDS], dbg_addr;
	unsigned char *eh, *hdr, *dbg;
	size_t eh_len, hdr_len, dbg_len, i;
	struct ft_cfi_sec se, sh, sd;
	struct ft_cfi t = { 0 };
	int fd = open(path, O_RDONLY), ret = 1;
	Elf *elf;
	FILE *f;

	elf_version(EV_CURRENT);
	elf = fd < 0 ? NULL : elf_begin(fd, ELF_C_READ, NULL);
	if (!elf) {
		fprintf(stderr, "mkseed: %s: not an ELF file\n", path);
		return 1;
	}
	eh = section(elf, ".eh_frame", &eh_len, &h.eh_vaddr);
	hdr = section(elf, ".eh_frame_hdr", &hdr_len, &h.hdr_vaddr);
	dbg = section(elf, ".debug_frame", &dbg_len, &dbg_addr);
	h.eh_len = (uint32_t)cut(eh, eh_len, EH_MAX);
	h.hdr_len = hdr ? (uint32_t)hdr_cut(hdr, hdr_len, h.hdr_vaddr, h.eh_vaddr, h.eh_len) : 0;
	h.dbg_len = (uint32_t)cut(dbg, dbg_len, DBG_MAX);
	se = (struct ft_cfi_sec){ eh, h.eh_len, h.eh_vaddr };
	sh = (struct ft_cfi_sec){ hdr, h.hdr_len, h.hdr_vaddr };
	sd = (struct ft_cfi_sec){ dbg, h.dbg_len, 0 };
	if (ft_cfi_build(&t, &se, &sh, &sd) || !t.n) {
		fprintf(stderr, "mkseed: %s: no call frame information\n", path);
		goto out;
	}
	/* return addresses into the rows kept, each after a frame pointer */
	for (i = 0; i < STACK_WORDS; i++)
		stack[i] = i % 2 ? h.bias + t.base + t.row[(i / 2) % t.n].pc + 1 :
			   h.rsp + 8 * (i + 4);
	h.rip = h.bias + t.base + t.row[t.n > 2 ? 2 : 0].pc;
	h.rbp = h.rsp + 64;
	f = fopen(out, "w");
	if (!f) {
		perror(out);
		goto out;
	}
	fwrite(&h, sizeof(h), 1, f);
	fwrite(eh, 1, h.eh_len, f);
	fwrite(hdr, 1, h.hdr_len, f);
	fwrite(dbg, 1, h.dbg_len, f);
	fwrite(stack, sizeof(stack), 1, f);
	ret = fclose(f) ? 1 : 0;
out:
	ft_cfi_free(&t);
	free(eh);
	free(hdr);
	free(dbg);
	elf_end(elf);
	close(fd);
	return ret;
}

/* main - write the seed */
int main(int argc, char **argv)
{
	struct ft_tdat_fmt fmt[MAX_FMT] = { 0 };
	struct ft_blob cpustat[MAX_CPU], procmaps = blob(maps);
	struct ft_tdat_meta m = { 0 };
	uint64_t size[MAX_CPU];
	int fd[MAX_CPU], out, n, ret;
	char path[4096];
	size_t len;

	if (argc == 4 && !strcmp(argv[1], "--cfi"))
		return cfi_seed(argv[2], argv[3]);
	if (argc != 3) {
		fprintf(stderr, "usage: mkseed DIR OUT.dat | mkseed --cfi ELF OUT\n");
		return 2;
	}
	for (n = 0; n < MAX_CPU; n++) {
		struct stat st;

		snprintf(path, sizeof(path), "%s/cpu%d.raw", argv[1], n);
		fd[n] = open(path, O_RDONLY);
		if (fd[n] < 0)
			break;
		fstat(fd[n], &st);
		size[n] = st.st_size;
		cpustat[n] = blob(stats);
	}
	snprintf(path, sizeof(path), "%s/header_page", argv[1]);
	m.header_page.data = ft_read_file(path, FT_FORMAT_MAX, &len);
	m.header_page.len = len;
	if (!n || !m.header_page.data) {
		fprintf(stderr, "mkseed: %s is not a capture directory\n", argv[1]);
		return 1;
	}
	m.page_size = 4096;
	m.long_size = 8;
	m.header_event = blob(header_event);
	m.kallsyms = blob(kallsyms);
	m.printk = blob("");
	m.cmdlines = blob(cmdlines);
	m.fmt = fmt;
	m.nfmt = read_formats(argv[1], fmt);
	m.ncpus = n;
	m.cpustat = cpustat;
	m.clock = blob("[local] global counter");
	m.uname = blob("Linux seed 6.18.0 #1 x86_64");
	m.tool = blob("ftscope 0.1");
	m.procmaps = &procmaps;
	m.nprocmaps = 1;
	if (samples(&m.samples)) {
		fprintf(stderr, "mkseed: out of memory\n");
		return 1;
	}
	out = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (out < 0) {
		perror(argv[2]);
		return 1;
	}
	ret = ft_tdat_write(out, &m, fd, size);
	close(out);
	return ret ? 1 : 0;
}
