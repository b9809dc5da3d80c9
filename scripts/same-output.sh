#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# same-output.sh - every analyzer's output on kept recordings, for a refactor's
# "byte-identical before and after" (issue house).
#
#   scripts/same-output.sh DIR [FTSCOPE] [RECORDING...]
#
# Runs each analyzer of `ftscope list` over each recording with the option sets
# below (text, JSON, per-key groups, intervals, folded stacks and every export
# file) and writes stdout, stderr and the exit status of each run, and each
# export file, under DIR. Two such directories from two binaries are compared
# with `diff -r DIR1 DIR2`; a run is deterministic, so any difference is a
# change of behaviour. RECORDING defaults to the trace.dat files make check
# leaves in tests/out and the captures in tests/data.
set -u
dir=${1:?usage: same-output.sh DIR [FTSCOPE] [RECORDING...]}
ft=${2:-./ftscope}
shift $(($# < 2 ? $# : 2))
ft=$(realpath "$ft")
if [ $# -gt 0 ]; then
	recs=("$@")
else
	recs=(tests/out/*.dat tests/data/cap-sleeper tests/data/*.dat)
fi
set -f
mkdir -p "$dir"
dir=$(realpath "$dir")

# one option set per line: ANALYZER OPTIONS... (@ is replaced by an export path)
cases() {
	cat <<'EOF'
cpudist
cpudist -P --json
cpudist -O -L
cpudist -m 1
cpudist --prometheus-file @prom --heatmap @svg
runqlat
runqlat -P
runqlat -L
runqlat --per-cpu
runqlat -m --exact
runqlat --json
runqlat 1
runqlat -P --json 1
runqlat --prometheus-file @prom --heatmap @svg
runqlat -L --prometheus-file @prom --heatmap @svg
runqlat -P --prometheus-file @prom
runqlat --per-cpu --json
runqlat --per-cpu --prometheus-file @prom
timehist
timehist -s
timehist -S --state
timehist -w -M -n
timehist -V
timehist -I
timehist --json
timehist -w -M --json
latency
latency --json
latency 1
wakeup
wakeup -P --top 5
wakeup --wakers --wakers-top 0
wakeup --min-us 0
wakeup --json --min-us 100
wakeup -L 1
wakeup --prometheus-file @prom --heatmap @svg
wakeup -P --json
wakeup -L --prometheus-file @prom
offcpu
offcpu -f
offcpu -f --delimited -m 1000
offcpu -U -f
offcpu -K -f
offcpu --state D -f
offcpu --wakers -f
offcpu --json
offcpu --svg @svg --pprof @pprof
offcpu --chain -f
offcpu --chain --json
offcpu --chain-depth 1 --svg @svg --pprof @pprof
offcpu --locks -f
offcpu --locks --json
profile
profile -f
profile --top 0
profile --json
profile --offcpu --state
profile --svg @svg --pprof @pprof
funclat * syscall:*
funclat * --json
funclat syscall:* --min-us 0
funclat * 1
funclat * syscall:* --prometheus-file @prom --heatmap @svg
funclat -F * syscall:*
funclat -F -u * 1
funccount *
funccount * --json
hardirqs
hardirqs --count
hardirqs --dist -N
hardirqs --json
hardirqs 1
hardirqs --prometheus-file @prom --heatmap @svg
hardirqs --dist --json
hardirqs --count --json
hardirqs --dist 1
softirqs
softirqs --count
softirqs --dist
softirqs --no-raise --json
softirqs 1
softirqs --prometheus-file @prom --heatmap @svg
softirqs --dist --json
softirqs --count --json
softirqs --dist -N 1
biolatency
biolatency -D
biolatency -F
biolatency -Q --json
biolatency --min-us 0
biolatency 1
biolatency --prometheus-file @prom --heatmap @svg
biolatency -D --json
biolatency -F --json
biolatency -F 1
biolatency -D --prometheus-file @prom --heatmap @svg
biolatency -F --prometheus-file @prom
hist -e sched:sched_switch --key prev_comm
hist -e sched:sched_switch --key prev_pid --key prev_state --json
hist -e sched:sched_wakeup --key target_cpu --value prio
hist -e raw_syscalls:sys_enter --key id
hist --from sched:sched_waking --to sched:sched_switch --match pid=next_pid
hist --from sched:sched_waking --to sched:sched_switch --match pid=next_pid --json
hist --from sched:sched_waking --to sched:sched_switch --match pid=next_pid --key pid
hist --from sched:sched_waking --to sched:sched_switch --match pid=next_pid --key cpu --json
hist --from sched:sched_waking --to sched:sched_switch --match pid=next_pid --key tid --prometheus-file @prom
report runqlat timehist offcpu profile
hist -e syscalls:sys_enter_getppid --key kstack,ustack -f
hist -e syscalls:sys_enter_getppid --key comm,ustack --json
hist -e sched:sched_wakeup --key kstack --top 5
report runqlat wakeup latency --json
lock
lock --json
lock -l --json
lock --threads
lock --stack -E 3
lock --dist -E 2 -k contended
lock -Y rwsem,mutex 1
lock --prometheus-file @prom --heatmap @svg
wakeup --why --top 5
wakeup --why --json
timehist -s 1
offcpu 1
profile 1
funccount * 1
hist -e sched:sched_switch --key prev_comm 1
hist -e syscalls:sys_enter_getppid --key kstack,ustack -f 1
hist --from sched:sched_waking --to sched:sched_switch --match pid=next_pid --prometheus-file @prom 1
cpudist --prometheus-file @prom --heatmap @svg 1
runqlat --per-cpu --prometheus-file @prom 1
wakeup --prometheus-file @prom --heatmap @svg 1
latency --prometheus-file @prom 1
funclat * syscall:* --prometheus-file @prom --heatmap @svg 1
biolatency -D --prometheus-file @prom --heatmap @svg 1
hardirqs --prometheus-file @prom 1
EOF
}

n=0
for rec in "${recs[@]}"; do
	[ -e "$rec" ] || continue
	base=$(basename "$rec")
	abs=$(realpath "$rec")
	while read -r line; do
		n=$((n + 1))
		tag=$(echo "$line" | tr ' /@*' '_~%+')
		out="$dir/$base/$tag"
		mkdir -p "$out"
		args=()
		for w in $line; do
			if [ "${w:0:1}" = @ ]; then
				args+=("file.${w:1}")
			else
				args+=("$w")
			fi
		done
		an=${args[0]}
		# relative export paths, so that two directories' outputs compare
		(cd "$out" && "$ft" "$an" -i "$abs" "${args[@]:1}" >stdout 2>stderr
		 echo $? >status)
	done < <(cases)
done
echo "$n runs under $dir"
