# SPDX-License-Identifier: GPL-2.0
#
# ftscope: a kernel latency tracer built on ftrace.
#
#   make            build ./ftscope
#   make check      unit, decode and live tests (live ones need root), a short fuzz
#                   run and a representative suite under ASan + UBSan
#   make check SANITIZE=1   the whole suite with ftscope built with ASan + UBSan
#   make check FT_NO_ASAN=1 without the ASan build and pass (the summary line says so;
#                   without this, a missing ASan build is a FAIL)
#   make check FT_TEST_INJECT=oob   must fail: a unit test writes out of bounds
#   make fuzz       each libFuzzer harness for FUZZ_TIME seconds (default 60)
#   make bench      benchmarks against the peer tools, measured in the same run
#   make soak       the exporters for SOAK_MINUTES (default 30) under process churn
#                   (tests/live/soak.sh; make check runs it for 2; docs/benchmarks.md)
#   make install    the binary and the man page under DESTDIR/PREFIX (PREFIX=/usr/local, DESTDIR=)
#   make uninstall  remove them again (the same PREFIX and DESTDIR)
#   make clean

PREFIX	?= /usr/local
BINDIR	?= $(PREFIX)/bin
MANDIR	?= $(PREFIX)/share/man
CC	?= cc
PKG_CONFIG ?= pkg-config

# pprof's profile.proto (Debian's golang-github-google-pprof-dev), compiled by protoc-c
# into the build tree at build time: never in the repository. One generated source for
# every build (normal, ASan, fuzz), compiled by each into its own objects.
PPROF_PROTO	?= /usr/share/gocode/src/github.com/google/pprof/proto/profile.proto
PROTOC_C	?= protoc-c
GEN		:= build/gen/
GEN_SRC		:= $(GEN)profile.pb-c.c

# pkg-config name, Debian package, minimum version.
define need_pkg
ifeq ($$(shell $(PKG_CONFIG) --atleast-version=$(3) $(1) && echo ok),)
$$(error $(1) >= $(3) not found: install the Debian package $(2), or run scripts/install-deps.sh)
endif
endef

# (not for clean and uninstall alone: they build nothing)
ifneq ($(if $(MAKECMDGOALS),$(filter-out clean uninstall,$(MAKECMDGOALS)),all),)
$(eval $(call need_pkg,libtracefs,libtracefs-dev,1.6))
$(eval $(call need_pkg,libtraceevent,libtraceevent-dev,1.7))
$(eval $(call need_pkg,libelf,libelf-dev,0.170))
$(eval $(call need_pkg,libzstd,libzstd-dev,1.4))
$(eval $(call need_pkg,zlib,zlib1g-dev,1.2))
$(eval $(call need_pkg,libprotobuf-c,libprotobuf-c-dev,1.3))
ifeq ($(wildcard $(PPROF_PROTO)),)
$(error $(PPROF_PROTO) not found: install the Debian package golang-github-google-pprof-dev, or run scripts/install-deps.sh)
endif
endif

PKGS	:= libtracefs libtraceevent libelf libzstd zlib libprotobuf-c

CFLAGS	?= -O2 -g -flto=auto
LDFLAGS	?= -flto=auto
AR	:= gcc-ar
CFLAGS	+= -std=gnu11 -Wall -Wextra -Werror -Wno-unused-parameter -D_GNU_SOURCE -I. -I$(GEN) \
	   $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
LDLIBS	+= $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null) -lm

# O: where objects and binaries go. Sanitizer builds live apart from the normal one.
ifeq ($(SANITIZE),1)
O	?= build/asan/
CFLAGS	:= -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined \
	   -fno-omit-frame-pointer $(filter-out -O2 -g -flto=auto,$(CFLAGS))
LDFLAGS	:= -fsanitize=address,undefined $(filter-out -flto=auto,$(LDFLAGS))
endif

# every file of each layer is found: a new analyzer needs no line here
LIB_SRC		:= $(sort $(wildcard lib/*.c events/*.c output/*.c analyzers/*.c tracer/*.c engine/*.c) \
		   $(filter-out cmd/main.c,$(wildcard cmd/*.c)))
LIB_OBJ		:= $(addprefix $(O),$(LIB_SRC:.c=.o) $(GEN_SRC:.c=.o))
HEADERS		:= $(wildcard */*.h */*/*.h)

UNIT_TESTS	:= $(addprefix $(O),$(patsubst %.c,%,$(wildcard tests/unit/test_*.c)))

# FT_TEST_INJECT=oob (tests only): tests/unit/test_pmu.c writes past a heap block, which
# the ASan build's suite dies of; `make check FT_TEST_INJECT=oob` must then fail. The unit
# binaries are rebuilt whenever the value changes (a stamp that holds it).
INJECT_STAMP	:= $(O)tests/unit/.inject
ifeq ($(FT_TEST_INJECT),oob)
UNIT_CFLAGS	:= -DFT_TEST_INJECT_OOB
else ifneq ($(FT_TEST_INJECT),)
$(error FT_TEST_INJECT: only oob is known)
endif

WORKLOADS	:= $(patsubst %.c,%,$(wildcard tests/workloads/*.c))
BENCH		:= tests/bench/decode_bench tests/bench/touch_pages tests/bench/sortburn \
		   tests/bench/unwind_speed

# libFuzzer harnesses: clang, with the library built again for coverage.
FUZZ_CC		?= clang
FUZZ_O		:= build/fuzz/
FUZZ_SAN	:= -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_CFLAGS	:= -O1 -g -std=gnu11 -Wall -Wextra -Werror -Wno-unused-parameter -D_GNU_SOURCE -I. -I$(GEN) \
		   -fno-omit-frame-pointer $(FUZZ_SAN) -fsanitize=fuzzer-no-link \
		   $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
FUZZERS		:= $(addprefix $(FUZZ_O),$(notdir $(patsubst %.c,%,$(wildcard tests/fuzz/fuzz_*.c))))
FUZZ_TIME	?= 60

all: $(O)ftscope $(WORKLOADS)	# the workloads: the README's examples run them

$(O)ftscope: $(O)cmd/main.o $(O)libftscope.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(O)libftscope.a: $(LIB_OBJ)
	$(AR) rcs $@ $^

$(O)%.o: %.c $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

# the generated code and its header; the writer that includes it waits for them
$(GEN)profile.pb-c.h $(GEN_SRC) &: $(PPROF_PROTO)
	@mkdir -p $(@D)
	@command -v $(PROTOC_C) > /dev/null || { echo "$(PROTOC_C): missing: install" \
		"protobuf-c-compiler (scripts/install-deps.sh)" >&2; exit 1; }
	$(PROTOC_C) --proto_path=$(<D) --c_out=$(GEN) $(<F)

$(O)output/pprof.o $(FUZZ_O)output/pprof.o: $(GEN)profile.pb-c.h

# system call names by number, from the uapi header the build sees (linux-libc-dev)
$(GEN)syscall_names.h:
	@mkdir -p $(@D)
	echo '#include <asm/unistd.h>' | $(CC) -dM -E - | sed -n \
		's/^#define __NR_\([a-z0-9_]*\) \([0-9]*\)$$/\t[\2] = "\1",/p' | sort -t[ -k2 -n > $@
	@test -s $@ || { echo "$@: no __NR_ names in <asm/unistd.h>" >&2; rm -f $@; exit 1; }

$(O)events/tp.o $(FUZZ_O)events/tp.o: $(GEN)syscall_names.h

$(O)tests/unit/test_%: tests/unit/test_%.c $(O)libftscope.a $(INJECT_STAMP)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(UNIT_CFLAGS) $(LDFLAGS) -o $@ $(filter-out $(INJECT_STAMP),$^) $(LDLIBS) -lcmocka

$(INJECT_STAMP): FORCE
	@mkdir -p $(@D)
	@echo '$(FT_TEST_INJECT)' | cmp -s - $@ || echo '$(FT_TEST_INJECT)' > $@

$(FUZZ_O)%.o: %.c $(HEADERS)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c -o $@ $<

$(FUZZ_O)libftscope.a: $(addprefix $(FUZZ_O),$(LIB_SRC:.c=.o) $(GEN_SRC:.c=.o))
	$(AR) rcs $@ $^

$(FUZZ_O)fuzz_%: $(FUZZ_O)tests/fuzz/fuzz_%.o $(FUZZ_O)libftscope.a
	$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $^ $(LDLIBS)

$(FUZZ_O)mkseed: tests/fuzz/mkseed.c libftscope.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# Workloads keep frame pointers so that later stack tests can walk them.
tests/workloads/%: tests/workloads/%.c tests/workloads/offwin.h tests/workloads/cputime.h \
		tests/workloads/pin.h
	$(CC) -O1 -g -fno-omit-frame-pointer -Wall -Wextra -Werror -pthread -o $@ $<

# chains: built as distributions build their packages (-O2, no frame pointers), for the
# CFI unwinder's checks (tests/live/unwind.sh): a frame-pointer walk loses its callers
tests/workloads/chains: tests/workloads/chains.c tests/workloads/offwin.h tests/workloads/cputime.h
	$(CC) -O2 -g -fomit-frame-pointer -Wall -Wextra -Werror -pthread -o $@ $<

# execmove: -O2 without frame pointers as chains, and with libdl for its dlopen
tests/workloads/execmove: tests/workloads/execmove.c tests/workloads/offwin.h
	$(CC) -O2 -g -fomit-frame-pointer -Wall -Wextra -Werror -o $@ $< -ldl

# dlswap, swapself: the same, for the mappings' checks (tests/live/maps.sh, which builds
# dlswap's two libraries and swapself's second build beside them)
tests/workloads/dlswap tests/workloads/swapself: tests/workloads/%: tests/workloads/%.c \
		tests/workloads/offwin.h tests/workloads/cputime.h tests/workloads/padcode.h
	$(CC) -O2 -g -fomit-frame-pointer -Wall -Wextra -Werror -pthread -o $@ $<

# critpath: the same, for offcpu --chain's known answer (tests/live/offcpu.sh)
tests/workloads/critpath: tests/workloads/critpath.c
	$(CC) -O2 -g -fomit-frame-pointer -Wall -Wextra -Werror -pthread -o $@ $<

# threadlife: -O2 without frame pointers as Debian builds (tests/live/threads.sh)
tests/workloads/threadlife: tests/workloads/threadlife.c tests/workloads/cputime.h
	$(CC) -O2 -g -fomit-frame-pointer -Wall -Wextra -Werror -pthread -o $@ $<

tests/bench/decode_bench: tests/bench/decode_bench.c libftscope.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

tests/bench/touch_pages: tests/bench/touch_pages.c
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $<

# sortburn: built as distributions build their programs (-O2, no frame pointers)
tests/bench/sortburn: tests/bench/sortburn.c
	$(CC) -O2 -g -fomit-frame-pointer -Wall -Wextra -Werror -o $@ $<

# unwind_speed: ftscope's unwinder beside libdw's (libdw-dev: install-deps.sh --tests)
tests/bench/unwind_speed: tests/bench/unwind_speed.c libftscope.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS) -ldw

tests: $(UNIT_TESTS) $(WORKLOADS)

fuzzers: $(FUZZERS) $(FUZZ_O)mkseed

# The test command: the normal build, plus the fuzzers and an ASan build for short runs.
ifeq ($(SANITIZE),1)
check: $(O)ftscope tests
	FTSCOPE=$(O)ftscope UNIT=$(O)tests/unit tests/run-all.sh
else
check: ftscope tests fuzzers $(BENCH)
ifneq ($(FT_NO_ASAN),1)
	$(MAKE) --no-print-directory SANITIZE=1 build/asan/ftscope \
		$(addprefix build/asan/,$(patsubst %.c,%,$(wildcard tests/unit/test_*.c)))
endif
	tests/run-all.sh
endif

fuzz: ftscope fuzzers
	FUZZ_TIME=$(FUZZ_TIME) tests/fuzz/run.sh

bench: ftscope $(BENCH) $(WORKLOADS)
	tests/bench/bench.sh

# runqlat -P --prometheus and wakeup -P --prometheus-file under churn, judged each minute
SOAK_MINUTES	?= 30
soak: ftscope $(WORKLOADS)
	SOAK_MINUTES=$(SOAK_MINUTES) bash tests/live/soak.sh

install: ftscope
	install -D -m 0755 ftscope $(DESTDIR)$(BINDIR)/ftscope
	install -D -m 0644 docs/ftscope.1 $(DESTDIR)$(MANDIR)/man1/ftscope.1

# what install put there, nothing else (the directories stay: others may use them)
uninstall:
	rm -f $(DESTDIR)$(BINDIR)/ftscope $(DESTDIR)$(MANDIR)/man1/ftscope.1

clean:
	rm -f ftscope libftscope.a cmd/main.o $(LIB_OBJ) $(UNIT_TESTS) $(WORKLOADS) $(BENCH)
	rm -f $(INJECT_STAMP)
	rm -rf tests/out build

FORCE:

.PHONY: all check bench soak install uninstall clean tests fuzz fuzzers FORCE
# keep the fuzzers' objects: they are not rebuilt each time
.SECONDARY:
