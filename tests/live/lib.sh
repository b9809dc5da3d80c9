# SPDX-License-Identifier: GPL-2.0
# Helpers for live tests: result lines, requirements, the tracefs state snapshot.
# Each test prints lines "PASS name", "FAIL name: why" or "SKIP name: why", and keeps
# two rules that tests/run-all.sh (tests/runner_lib.sh) enforces:
#
#   plan N          first, right after sourcing this file: the script reports N results
#                   on every path (it prints TAP's "1..N"; the runner fails a script that
#                   declares none, or reports another number: "reported 2 of 28 results").
#                   A count that depends on the machine is computed before the plan, or
#                   made fixed (a SKIP line for each case that does not apply).
#   skip_rest WHY   an early exit: a SKIP line for each planned result not reported yet.
#                   need_root NAME does so itself when it refuses (then `|| exit 0`).
#
#   ft NAME WANT ARGS...      run $FTSCOPE ARGS; the caller's redirections apply, and
#                             FT_WITH="CMD ARGS" runs it under a wrapper that passes its
#                             status on (setpriv, perf record, nice). Returns its status.
#   ft_wait NAME WANT PID     the same for ftscope started in the background with
#                             `$FTSCOPE ... & PID=$!` (so that PID is ftscope's own).
#                   Every run of ftscope goes through one of the two and states the exit
#                   status it expects: WANT is a status, or several (1|2). Another status
#                   is a result at once, "FAIL NAME: ftscope ARGS: exit status 3, want 0",
#                   and NAME's own result, when the script prints it, becomes a comment:
#                   the count of results stays N. NAME is the check that reads the run.

FTSCOPE=${FTSCOPE:-./ftscope}
WL=tests/workloads
T=/sys/kernel/tracing
OUT=${OUT:-tests/out}
mkdir -p "$OUT"
# the checkers' shared readers (pct_check.py: --json output; offcpu_check.py: folded
# stacks) for any python3 a script runs, its own lines included (python3 - <<PY)
export PYTHONPATH=$PWD/tests/live${PYTHONPATH:+:$PYTHONPATH}
FT_SCRIPT=$(basename "$0" .sh)
FT_PLAN=0 FT_DONE=0
# the checks whose ftscope run ended with another status than they stated (ft_status)
FT_FAILED=$OUT/.ft-failed-$FT_SCRIPT
rm -f "$FT_FAILED"
# the script's own output, where ft_status writes from inside $(...) or a redirection
exec {FT_OUT}>&1

# plan N: the number of results this script reports on every path (TAP's plan line)
plan() {
	FT_PLAN=$1
	echo "1..$1"
}

# ft_result KIND NAME [WHY]: one result line, counted; a comment instead when NAME's ftscope
# run already gave its FAIL line (ft_status), so that NAME counts once
ft_result() {
	local line="$1 $2"
	[ "$1" = PASS ] || line+=": $3"
	FT_DONE=$((FT_DONE + 1))
	if [ -s "$FT_FAILED" ] && grep -qxF -- "${2%% *}" "$FT_FAILED"; then
		echo "# ${2%% *} (FAIL above: its ftscope run's exit status): $line"
	else
		echo "$line"
	fi
}

pass() { ft_result PASS "$1"; }

# check NAME CHECK ARGS...: one result from the checker $PY (python), its first line
# as a comment (a file may define its own check after sourcing this one)
check() {
	local name=$1 r
	shift
	# the host's steal since the last run began, unless the caller said it (STEAL_MS)
	if r=$(STEAL_MS=${STEAL_MS:-$(ft_steal)} \
		python3 $PY "$@" 2>&1); then
		pass $name
	else
		fail $name "$(echo "$r" | tail -1)"
	fi
	echo "# $name: $(echo "$r" | head -1)"
}
fail() { ft_result FAIL "$1" "$2"; }
skip() { ft_result SKIP "$1" "$2"; }

# skip_rest WHY: a SKIP line for each planned result not reported yet (before an early exit)
skip_rest() {
	local k
	for ((k = FT_DONE + 1; k <= FT_PLAN; k++)); do
		skip "${FT_SCRIPT}_${k}_of_$FT_PLAN" "$1"
	done
}

# ft NAME WANT ARGS...: run $FTSCOPE ARGS (under $FT_WITH, if set) and return its status;
# a status that does not match WANT is FAIL NAME (ft_status)
ft() {
	local name=$1 want=$2 rc
	shift 2
	steal_mark	# for check's allowance and ft_steal
	# shellcheck disable=SC2086
	$FT_WITH "$FTSCOPE" "$@" {FT_OUT}>&-
	rc=$?
	ft_status "$name" "$want" $rc "$*"
	return $rc
}

# ft_wait NAME WANT PID: wait for ftscope PID (started with $FTSCOPE ... &) and judge its
# status as ft does; returns it
ft_wait() {
	local rc
	wait "$3"
	rc=$?
	ft_status "$1" "$2" $rc "(pid $3)"
	return $rc
}

# ft_status NAME WANT RC WHAT: when RC does not match WANT, FAIL NAME now (a comment if
# NAME failed so already), and NAME's own result line later becomes a comment (ft_result)
ft_status() {
	local why
	[[ $3 =~ ^($2)$ ]] && return 0
	why="ftscope ${4:0:100}: exit status $3"
	[ "$3" -gt 128 ] && [ "$3" -lt 160 ] && why+=" (SIG$(kill -l $(($3 - 128))))"
	why+=", want $2"
	if [ -e "$FT_FAILED" ] && grep -qxF -- "$1" "$FT_FAILED"; then
		echo "# $1: also $why" >&$FT_OUT
	else
		echo "$1" >> "$FT_FAILED"
		echo "FAIL $1: $why" >&$FT_OUT
	fi
}

# need_root NAME: unless we can trace, SKIP NAME and the rest of the plan, and return 1
need_root() {
	if [ "$(id -u)" -ne 0 ]; then
		skip "$1" "needs root"
		skip_rest "needs root"
		return 1
	fi
	if ! grep -q tracefs /proc/filesystems; then
		skip "$1" "kernel has no tracefs"
		skip_rest "kernel has no tracefs"
		return 1
	fi
	[ -d $T/instances ] || mount -t tracefs nodev $T 2>/dev/null
	return 0
}

# snapshot: the global tracing state a run must leave as it found it
snapshot() {
	ls $T/instances
	for f in tracing_on current_tracer trace_clock buffer_size_kb buffer_percent set_event \
		 set_event_pid set_ftrace_pid tracing_cpumask dynamic_events uprobe_events \
		 kprobe_events trace_options; do
		[ -e $T/$f ] && { echo "== $f"; cat $T/$f 2>/dev/null; }
	done
	# whether the top buffer's snapshot is allocated (its help text says so), not its records
	[ -e $T/snapshot ] && { echo "== snapshot"; grep -m1 -o 'Snapshot is [a-z]*' $T/snapshot; }
	for i in $T/instances/*/; do
		[ -d "$i" ] && { echo "== $i"; cat "$i/set_event" "$i/tracing_on" 2>/dev/null; }
	done
}

# global_state: snapshot without the ftscope instances of other runs (they come and go
# beside a test that runs while others do; a test's own leaks it finds by their owner)
global_state() {
	snapshot | awk '/^== / { skip = index($0, "/instances/ftscope-") > 0 }
		!skip && !/^ftscope-/'
}

# State around a run of ours where other runs of ftscope may come and go (another
# engineer's tests, four at once): global_state without the dynamic events of ftscope
# runs still going (group ftscope_PID_RANDOM; ours have ended when it is read), and the
# ftscope instances whose owner has ended, the leaks a run of ours would leave.
# state_before: both, into $before and $before_orphans
state_before() {
	before=$(others_gone_state)
	before_orphans=$(orphans)
}

# others_gone_state: global_state without the dynamic events of live ftscope processes
others_gone_state() {
	local l

	global_state | while IFS= read -r l; do
		[[ $l =~ ftscope_([0-9]+)_ ]] &&
			[[ $(cat /proc/${BASH_REMATCH[1]}/comm 2>/dev/null) == ftscope* ]] && continue
		echo "$l"
	done
}

# state_changed: how tracefs differs from state_before's, on one line (nothing when it
# does not): the state, or an orphan that is new and still there (its owner may have
# removed it and ended between orphans' two looks)
state_changed() {
	local d after

	after=$(others_gone_state)
	[ "$before" = "$after" ] || echo -n "$(state_diff "$before" "$after")"
	for d in $(orphans); do
		grep -qxF -- "$d" <<< "$before_orphans" || { [ -d "$d" ] && echo -n "left ${d##*/} "; }
	done
}

# state_diff BEFORE AFTER: the first lines where two snapshots differ, on one line
state_diff() {
	diff <(echo "$1") <(echo "$2") | grep '^[<>]' | head -3 | tr '\n' ' '
}

# same_state BEFORE AFTER: two snapshot files equal, but for the top-level buffer size:
# the first event enabled anywhere expands it from its boot size (the kernel's
# tracing_update_buffers), which no run can undo. The difference goes to stdout.
same_state() {
	diff <(sed '/^== buffer_size_kb/,+1d' "$1") <(sed '/^== buffer_size_kb/,+1d' "$2")
}

# steal [CPU]: the host's steal time so far (USER_HZ ticks), from /proc/stat: all CPUs',
# or CPU's
steal() {
	awk -v c="cpu$1" '$1 == c { print $9 }' /proc/stat
}

# steal_ms_since TICKS [CPU]: the host's steal on all CPUs (or CPU) since steal [CPU] said
# TICKS, in ms: time
# a task's own clocks (schedstat, perf's task-clock) leave out and its switch-to-switch
# times, cpu-clock samples and wall-clock stacks keep, so the most a check of those
# against these may allow above its tolerance (seen here: 6% of both CPUs over 30 s, and
# a fresh root's runtime_* +10.9% and +15.7% against schedstat)
steal_ms_since() {
	echo $(( ($(steal $2) - $1) * 1000 / $(getconf CLK_TCK) ))
}

# steal_mark: note all CPUs' steal (FT_STEAL0) and each CPU's (FT_STEAL_CPU), as ft does
# when its run begins, for ft_steal: one read of /proc/stat
steal_mark() {
	local c v
	FT_STEAL_CPU=()
	while read -r c v; do
		if [ "$c" = all ]; then
			FT_STEAL0=$v
		else
			FT_STEAL_CPU[$c]=$v
		fi
	done < <(awk '$1 == "cpu" { print "all", $9 } $1 ~ /^cpu[0-9]+$/ { print substr($1, 4), $9 }' \
		/proc/stat)
}

# ft_steal [CPU]: the host's steal in ms on all CPUs (or CPU) since the last steal_mark
# (the last ft's run began there): steal_ms_since's allowance for a run's checks
ft_steal() {
	if [ -n "$1" ]; then
		steal_ms_since "${FT_STEAL_CPU[$1]:-$(steal "$1")}" "$1"
	else
		steal_ms_since "${FT_STEAL0:-$(steal)}"
	fi
}

# wait_for SECONDS CMD...: poll a condition (not a sleep to synchronise): 0 when it held
wait_for() {
	local limit=$(( $1 * 20 )) i=0
	shift
	while ! "$@"; do
		i=$((i + 1))
		[ $i -ge $limit ] && return 1
		sleep 0.05
	done
	return 0
}

# switches_out FILE: nvcsw + nivcsw of the line a sleeper wrote with SLEEPER_COUNTS=FILE
switches_out() {
	sed -n 's/^nvcsw=\([0-9]*\) nivcsw=\([0-9]*\)$/\1 \2/p' "$1" 2>/dev/null |
		awk '{ print $1 + $2 }'
}

# gone PID: has process PID (a child of ours) ended? (a zombie has)
gone() {
	local st
	st=$(cut -d' ' -f3 /proc/$1/stat 2>/dev/null)
	[ -z "$st" ] || [ "$st" = Z ]
}

# stop_bpftrace PID: end bpftrace (our child) with SIGINT, as a user does, so that it
# prints its maps, and reap it. Beside perf bench sched messaging -g 2 a SIGINT went
# unanswered: bpftrace ran on for 8 minutes until a second one. So SIGINT again every
# 5 s, and SIGKILL after 60 s. Returns 1 when it had to be killed.
stop_bpftrace() {
	local i
	[ -n "$1" ] || return 0
	for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
		kill -INT $1 2>/dev/null
		wait_for 5 gone $1 && break
	done
	if ! gone $1; then
		kill -KILL $1 2>/dev/null
		wait $1
		return 1
	fi
	wait $1
	return 0
}

# analyzers: the registry's analyzers (analyzers/registry.c), one a line in its order:
# the commands `ftscope list` prints but the built-ins (cmd/commands.c), so that a
# check over every analyzer covers a new one without an edit
analyzers() {
	"$FTSCOPE" list 2>/dev/null | sed -n '/^Commands:/,/^$/s/^  \([a-z]\+\) .*/\1/p' |
		grep -vxE 'record|report|stat|flamegraph|list|reset'
}

# analyzer_args NAME: what analyzer NAME cannot run without (a PATTERN, hist's event),
# for the checks that run every analyzer; nothing for the others
analyzer_args() {
	case $1 in
	funclat)	echo syscall:read ;;
	funccount)	echo vfs_read ;;
	hist)		printf '%s\n' '-e syscalls:sys_enter_read' ;;
	esac
}

# runlens_check NAME CHECK OUT ANALYZER ARGS...: ftscope ANALYZER ARGS on runlens's
# runner (22 runs of 3, 6, 9 and 12 ms between 1 ms naps, SCHED_FIFO on CPU 0 beside a
# SCHED_IDLE filler, so that no switch-in of the runner comes out of idle; its own times
# in OUT.self, ftscope's output in OUT), judged by the checker $PY's CHECK against the
# runner's own times; a preempted runner (the checker's exit 2) runs again, three times
# at most
runlens_check() {
	local name=$1 check=$2 out=$3 try r rc
	shift 3
	for try in 1 2 3; do
		ft $name 0 "$@" -- sh -c "exec $WL/runlens 0 22 3 > $out.self" > $out 2> $out.err
		r=$(STEAL_MS=$(ft_steal 0) python3 $PY $check $out.self $out 2>&1)	# the runner's CPU
		rc=$?
		[ $rc -ne 2 ] && break
		echo "# $name: run $try: $r"
	done
	if [ $rc -eq 0 ]; then
		pass $name
	else
		fail $name "$r"
	fi
	echo "# $name: $r"
}

# bt_start OUT READY ARGS...: start `bpftrace ARGS` (our child; a prefix applies to it:
# BPFTRACE_MAP_KEYS_MAX=N bt_start ...) with its output in OUT (stderr too, unless
# BT_ERR=FILE takes it) and wait up to 30 s for READY, a command ("": a line "ready" in
# OUT). bpftrace says "Attaching" before its probes are, so a script prints its ready
# line from a probe that has fired. Sets bt to its pid, returns 0; when it does not
# attach, stops it, sets bt empty and bt_why to what it said, and returns 1.
bt_start() {
	local out=$1 ready=$2 err
	shift 2
	err=${BT_ERR:-$out}
	# empty OUT (and BT_ERR) here: the redirection below is made by the forked child,
	# and a READY that ran first found an earlier run's "ready" in the same file (CI:
	# bpftrace still loading, 15 of 20 sleeps missed)
	: > "$out"
	[ -z "$BT_ERR" ] || : > "$BT_ERR"
	if [ -n "$BT_ERR" ]; then
		bpftrace "$@" > "$out" 2> "$BT_ERR" &
	else
		bpftrace "$@" > "$out" 2>&1 &
	fi
	bt=$!
	[ -n "$ready" ] || ready="grep -q ^ready $out"
	# shellcheck disable=SC2086
	wait_for 30 $ready && return 0
	bt_why="bpftrace did not attach: $(grep -m1 ERROR "$err" || head -2 "$err" | tr '\n' '|')"
	stop_bpftrace $bt
	bt=
	return 1
}

# bt_misses PID: the runs bpftrace PID's programs missed, summed (the kernel's
# recursion_misses of each program fd: a tracepoint that fires while another BPF
# program runs on that CPU, an interrupt's inside a probe, is skipped): the events the
# peer did not see, by the kernel's own count
bt_misses() {
	cat /proc/$1/fdinfo/* 2>/dev/null | awk '$1 == "recursion_misses:" { n += $2 } END { print n + 0 }'
}

# has_threads PID N: does process PID have at least N threads?
has_threads() {
	[ "$(ls /proc/$1/task 2>/dev/null | wc -l)" -ge "$2" ]
}

# instance_of PID: the path of ftscope PID's instance (ftscope-PID-RANDOM), if it has one
instance_of() {
	ls -d $T/instances/ftscope-$1-* 2>/dev/null | head -1
}

# our_instance PID: is ftscope PID tracing yet (its instance made and switched on)?
our_instance() {
	local d=$(instance_of $1)
	# a new instance starts with tracing_on 1: events enabled means ftscope set it up
	[ -n "$d" ] && [ -n "$(cat "$d/set_event" 2>/dev/null)" ] &&
		[ "$(cat "$d/tracing_on" 2>/dev/null)" = 1 ]
}

# json EXPR FILE: evaluate a python expression over the JSON object j of FILE's last line
json() {
	python3 -c "import sys; from pct_check import last_json; j = last_json(sys.argv[1]); print($1)" "$2"
}

# guest NAME SCRIPT [VAR=VALUE...]: run tests/qemu/SCRIPT in a full kernel under QEMU
# (scripts/qemu-run.sh, with the environment given) and unpack what it sent back into
# Q=$OUT/NAME. Prints SKIP (no root, another binary, FTSCOPE_SKIP_QEMU, the guest
# cannot be prepared) or FAIL NAME_boot, then SKIP for the rest of the plan, and returns
# 1; else PASS NAME_boot, returns 0. (The guest keeps each case's exit status in
# $Q/CASE.rc: each check reads its cases' with ok, or compares it.)
guest() {
	local name=$1 script=$2 rc

	shift 2
	Q=$OUT/$name
	if [ "$(id -u)" -ne 0 ]; then
		skip $name "needs root to install qemu and fetch the kernel package"
		skip_rest "needs root"
		return 1
	fi
	if [ "$FTSCOPE" != ./ftscope ] || [ -n "$FTSCOPE_SKIP_QEMU" ]; then
		skip $name "FTSCOPE_SKIP_QEMU is set, or the suite runs another binary than ./ftscope"
		skip_rest "no guest run"
		return 1
	fi
	rm -rf $Q
	mkdir -p $Q
	env "$@" scripts/qemu-run.sh bash tests/qemu/$script > $Q/guest.b64 2> $Q/qemu.err
	rc=$?
	if [ $rc -eq 125 ] &&
	   grep -Eq 'cannot download|missing packages|could not install|does not know' $Q/qemu.err; then
		skip $name "cannot prepare the guest: $(head -1 $Q/qemu.err)"
		skip_rest "no guest run"
		return 1
	fi
	if [ $rc -ne 0 ] || ! base64 -d $Q/guest.b64 2> /dev/null | tar xz -C $Q 2> /dev/null; then
		fail ${name}_boot "exit $rc: $(head -2 $Q/qemu.err | tr '\n' '|')"
		skip_rest "${name}_boot failed"
		return 1
	fi
	pass "${name}_boot (kernel $(cat $Q/uname.out))"
}

# bg_cleanup: end the background jobs whose pids are in BG, wait for them, and remove
# the directory $D (an EXIT trap of scripts that start exporters or peers)
bg_cleanup() {
	local p
	for p in "${BG[@]}"; do
		kill "$p" 2>/dev/null
	done
	wait 2>/dev/null
	rm -rf "$D"
}

# orphans: the ftscope instances whose owner has ended, as paths: named as ftscope names
# them (ftscope-PID-HEX, as `ftscope reset` reads them), the PID gone or not an ftscope
orphans() {
	local d p
	for d in $T/instances/ftscope-*; do
		[[ ${d##*/} =~ ^ftscope-([0-9]+)-[0-9a-f]+$ ]] || continue
		p=${BASH_REMATCH[1]}
		[[ $(cat /proc/$p/comm 2>/dev/null) == ftscope* ]] || echo "$d"
	done
}

# kernel_maps NAME: whether ftscope list says this kernel maps the ring buffer (6.10+);
# list's exit status is NAME's (ft)
kernel_maps() {
	grep -Eq '^  ring buffer mmap \(--mmap\) +yes' <<< "$(ft $1 0 list)"
}

# nap_rows FILE: timehist rows of a sleeper whose wait was one of its 10 ms naps
nap_rows() {
	awk '$3 ~ /^sleeper\[/ && $4 >= 9.5 && $4 < 40 { n++ } END { print n + 0 }' "$1"
}

# ok CASE: the guest's case exited 0
ok() {
	[ "$(cat $Q/$1.rc 2> /dev/null)" = 0 ]
}


# known_calls NAME: a guest's funccount of knowncalls 0 and 1000 ($Q/funccount_known0 and
# funccount_known) against the calls it made (tests/live/qemu_check.py states the rule)
known_calls() {
	local r

	if ok funccount_known0 && ok funccount_known &&
	   r=$(python3 tests/live/qemu_check.py calls $Q/funccount_known0.out \
		$Q/funccount_known.out 1000 2>&1); then
		pass "$1 ($r)"
	else
		fail $1 "exit $(cat $Q/funccount_known0.rc) $(cat $Q/funccount_known.rc):\
 $(tail -1 <<< "$r") $(head -1 $Q/funccount_known.err)"
	fi
}

# file_equals_live NAME LIVE FILE MIN: the guest's funclat case FILE (read back with -i)
# has the same functions and histograms as LIVE (the run that wrote it), LIVE's first
# function with at least MIN calls; PASS or FAIL NAME
file_equals_live() {
	local same

	same=$(python3 -c "import sys
from pct_check import last_json
a, b = (last_json(f) for f in sys.argv[1:3])
print(a['functions'] == b['functions'] and a['functions'][0]['hist']['count'] >= int(sys.argv[3]))" \
		$Q/$2.out $Q/$3.out $4 2>&1)
	if ok $2 && ok $3 && [ "$same" = True ]; then
		pass $1
	else
		fail $1 "$same $(head -1 $Q/$2.err) $(head -1 $Q/$3.err)"
	fi
}

# asan_symbolizer: export ASAN_SYMBOLIZER_PATH (llvm-symbolizer, Debian's llvm package);
# return 1 when there is none: sanitizer stacks then have no function names, and
# LeakSanitizer's suppressions (tests/fuzz/lsan.supp) cannot match
asan_symbolizer() {
	local s
	s=$(command -v llvm-symbolizer || ls /usr/bin/llvm-symbolizer-* 2>/dev/null | sort -V | tail -1)
	[ -n "$s" ] && [ -x "$s" ] || return 1
	export ASAN_SYMBOLIZER_PATH=$s
}

# bad_case NAME WANT WORD FILE ARGS...: `ftscope ARGS` is bad input: an exit status
# matching the regular expression WANT (ft_wait), one line on stderr matching WORD (grep -E),
# nothing on stdout, and nothing left behind: no instance or dynamic event of its pid,
# and no FILE ("-": none to look for)
bad_case() {
	local name=$1 want=$2 word=$3 file=$4 p rc left
	shift 4
	$FTSCOPE "$@" > $OUT/bad-case.out 2> $OUT/bad-case.err < /dev/null &
	p=$!
	ft_wait $name "$want" $p
	rc=$?
	left=$(ls $T/instances | grep "^ftscope-$p-"; grep "ftscope_${p}_" $T/dynamic_events 2>/dev/null)
	[ "$file" != - ] && [ -e "$file" ] && left+=" $file"
	if ! [[ $rc =~ ^($want)$ ]]; then
		fail $name "exit status $rc, want $want: $(head -1 $OUT/bad-case.err)"
	elif [ "$(wc -l < $OUT/bad-case.err)" -ne 1 ]; then
		fail $name "$(wc -l < $OUT/bad-case.err) lines on stderr: $(tr '\n' '|' < $OUT/bad-case.err)"
	elif ! grep -qE -- "$word" $OUT/bad-case.err; then
		fail $name "error line lacks '$word': $(cat $OUT/bad-case.err)"
	elif [ -s $OUT/bad-case.out ]; then
		fail $name "output on stdout: $(head -1 $OUT/bad-case.out)"
	elif [ -n "$left" ]; then
		fail $name "left behind: $left"
	else
		pass $name
	fi
}

# qemu_unwind_checks P: the guest's tests/qemu/guest_unwind.sh cases ($Q), checked as the
# host's own checks of them (two checks, named P_*; where the guest's TSCs were
# unsynchronized, the design bounds too: tests/live/offcpu_check.py OFFWIN_COARSE_CLOCK)
qemu_unwind_checks() {
	local P=$1 coarse= name r r2

	[ "$(cat $Q/tsc_unstable.txt 2>/dev/null)" -gt 0 ] 2>/dev/null && coarse=1

	# deepblock's nap under main -> f1 .. f12 (no frame pointers in libc): its own off-CPU
	# time (offwin) on the whole chain, as offcpu_stacks_default_whole checks it here
	name=${P}_offcpu_whole_stacks
	if ok offcpu_chain && r=$(OFFWIN_COARSE_CLOCK=$coarse python3 tests/live/offcpu_check.py \
			chain $Q/offcpu_chain.out $Q/offcpu_chain.err dp-sleeper \
			main,f1,f2,f3,f4,f5,f6,f7,f8,f9,f10,f11,f12,nap do_nanosleep 1000000); then
		pass "$name ($(head -1 <<< "$r"))"
	else
		fail $name "$(tail -1 <<< "$r"): $(grep -v '^offwin' $Q/offcpu_chain.err | head -2)"
	fi
	# chains' burn_leaf: 99% of its samples under one of its two designed callers, each
	# caller's share within 5 points (about 650 samples: 3 binomial standard deviations)
	# of what the workload's own clocks allow: a vCPU's waits for a host CPU count in its
	# CPU clock (cpu_us), not in its rounds (work_us, at its fastest turn's pace), and
	# the sampling timer fires once for a wait however long, so a caller's samples lie
	# between its work and its CPU time (unwind_check.py worksplit; docs/testing.md's
	# row: the split of rounds alone was 5.8 points off on 16 vCPUs beside make check),
	# every sample reaching _start through libc
	name=${P}_profile_cfi_stacks
	if ok profile_dwarf &&
	   r=$(python3 tests/live/unwind_check.py worksplit $Q/profile_dwarf.out $Q/profile_dwarf.err \
		ch-burn burn_leaf 5 main,via_a,via_b,burn_leaf main,via_c,burn_leaf) &&
	   r2=$(python3 tests/live/unwind_check.py root $Q/profile_dwarf.out ch-burn burn_leaf _start)
	then
		pass "$name ($(tr '\n' ' ' <<< "$r $r2"))"
	else
		fail $name "exit $(cat $Q/profile_dwarf.rc): $(tr '\n' ' ' <<< "$r $r2") $(head -2 \
			$Q/profile_dwarf.err | tr '\n' ' ')"
	fi
}
