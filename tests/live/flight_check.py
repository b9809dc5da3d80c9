# SPDX-License-Identifier: GPL-2.0
"""flight_check.py MODE ARGS: the flight recorder's files against spiker's own clock.

spiker (tests/workloads/spiker.c) prints "waiter TID" and, as each spike ends,
"spike N start_ns=S end_ns=E" by CLOCK_MONOTONIC (the trace clock): sp-waker (FIFO 60)
writes to sp-waiter at the tick sp-hog (FIFO 50) starts its spin, so sp-waiter's wait
for that wakeup ends when the spin ends: the designed event of spike N is a wait of
about E - S ending at E, and its designed window [E - SECS, E + AFTER]. MODES:
  lines ERR WL FILE N SECS AFTER
          exactly N flight lines on stderr, line k naming FILE (k 0) or FILE.k, each
          sp-waiter's wait of spike k: within WAIT_TOL of its spin, ending within
          END_TOL after it, the window [end - SECS, end + AFTER] (its start: the
          first record's time, up to SPAN_TOL after), no loss
  span REPORT WL K SECS AFTER CPU EVENTS
          trace-cmd report's records of a file: every CPU's within the designed window
          of spike K (K -1: the window [last - SECS, last], last the latest record of
          CPU) by SPAN_TOL, CPU's (spiker's) covering it to SPAN_TOL, EVENTS in all
  timehist TH WL K TRIG_MS
          ftscope timehist -i of a file: sp-waiter's rows with a scheduling delay over
          TRIG_MS are exactly spike K's wait (within WAIT_TOL of its spin, ending
          within END_TOL after it): the other spikes are outside the file
  iline ERR OUT...
          ftscope ANALYZER -i of a file (its stdout and stderr, OUT...) prints the
          line the run printed to ERR ("flight recording: " and the line's words
          after the file's name, without the event count, which the writing gives)
The first line printed says what was measured; the last, on failure, why.
"""
import os
import re
import sys

from pct_check import steal_ms  # the host's steal over the run (STEAL_MS)

# sp-waiter's wait against the spin: the write comes in the spin's first us (FIFO 60
# over 50), the switch-in right after its end; measured +0.04 .. +0.13 ms in 4 files
# and timehist's rows of them (spiker alone, its own clock: 25.02 .. 25.20 ms waits for
# 25.000 ms spins); a wakeup a tick (1 ms) off the spin fails where the host stole
# nothing on CPU 1 over the run (the flight checks pass CPU 1's steal: tols())
WAIT_TOL = (-0.5e6, 0.5e6)
# the wait's end (the switch-in; timehist's row: its switch-out) after the spin's end:
# measured +0.03 .. +0.12 ms (lines), +0.06 .. +0.15 ms (rows)
END_TOL = (0, 0.5e6)
# a file's records against the designed window: whole pages; a full page of CPU 1
# holds about 11 ms of spiker's records (4 KB, 60-byte records, 6 a ms); measured CPU
# 1's -14.0 .. +15.0 ms beyond the window's ends in 6 runs
SPAN_TOL = 25e6
# FLIGHT_TCG (tests/live/qemu.sh's guests under QEMU's TCG): timers and switches there
# come late by milliseconds, by tens of them on a loaded host (the spike's wait +2.5 ..
# +6.6 ms over the spin in three runs, +21.5 ms in a fourth): above, the waiter's own
# wait of the spike bounds it (spiker's "spike_wait N max_ns=W", from the stamp sent
# before the wakeup to its read's return after the switch-in, so the trace's wait and
# its end after the spin are within it), and 0.5 ms below the spin as on the host
TCG = bool(os.environ.get("FLIGHT_TCG"))

LINE = re.compile(r"^ftscope (\w+): flight: (\S+): ([\d.]+) ms (\w+) of (\S+)\[(\d+)\] "
                  r"on CPU (\d+) at ([\d.]+), window ([\d.]+) \.\. ([\d.]+)(.*), "
                  r"(\d+) events, (\d+) pages after lost events$")


def workload(path):
    """spiker's waiter tid and its spikes [(start, end)] in ns"""
    tid, spikes = None, {}
    for line in open(path):
        w = line.split()
        if len(w) == 2 and w[0] == "waiter":
            tid = int(w[1])
        elif len(w) == 4 and w[0] == "spike":
            spikes[int(w[1])] = (int(w[2].split("=")[1]), int(w[3].split("=")[1]))
    if tid is None or not spikes:
        sys.exit("spiker printed no waiter or spikes: %s" % open(path).read()[:200])
    return tid, [spikes[k] for k in sorted(spikes)]


def tols(wl, k, spin, run=0):
    """the wait's and its end's tolerances for spike k of a spin of @spin ns: the host's,
    or under FLIGHT_TCG the waiter's own wait of it above (spike_wait), its end + @run
    (a timehist row's time is the switch-out after the waiter's run)"""
    if not TCG:	# and above, the host's steal over the run, 2 ms at most (+0.745 ms
        st = min(steal_ms() * 1e6, 2e6)	# once beside it)
        return (WAIT_TOL[0], WAIT_TOL[1] + st), (END_TOL[0], END_TOL[1] + st)
    own = [int(l.split()[2].split("=")[1]) for l in open(wl)
           if l.startswith("spike_wait %d " % k)]
    if not own:
        sys.exit("spiker printed no spike_wait %d (its own wait of the spike)" % k)
    return (WAIT_TOL[0], own[0] - spin), (END_TOL[0], own[0] - spin + run)


def spike(spikes, k):
    """spike k, or exit"""
    if k >= len(spikes):
        sys.exit("spiker printed %d spikes, want spike %d" % (len(spikes), k))
    return spikes[k]


def within(v, tol):
    """v in [tol[0], tol[1]]"""
    return tol[0] <= v <= tol[1]


def lines(err, wl, path, n, secs, after):
    tid, spikes = workload(wl)
    got = [m for m in (LINE.match(l.rstrip("\n")) for l in open(err)) if m]
    if len(got) != n:
        sys.exit("%d flight lines, want %d: %s" % (len(got), n, open(err).read()[:300]))
    out = []
    for k, m in enumerate(got):
        s, e = spike(spikes, k)
        want = path if k == 0 else "%s.%d" % (path, k)
        ns, t = float(m.group(3)) * 1e6, float(m.group(8)) * 1e9
        lo, hi = float(m.group(9)) * 1e9, float(m.group(10)) * 1e9
        out.append("file %s: wait %+.3f ms of the spin, end %+.3f ms after it, window "
                   "%+.6f .. %+.6f s, %s events, %s pages after losses%s" %
                   (k, (ns - (e - s)) / 1e6, (t - e) / 1e6, (lo - t) / 1e9, (hi - t) / 1e9,
                    m.group(12), m.group(13), m.group(11)))
        why = []
        if m.group(2) != want:
            why.append("names %s, want %s" % (m.group(2), want))
        if m.group(5) != "sp-waiter" or int(m.group(6)) != tid or m.group(4) != "wait":
            why.append("the event is %s of %s[%s], want wait of sp-waiter[%d]" %
                       (m.group(4), m.group(5), m.group(6), tid))
        wait_tol, end_tol = tols(wl, k, e - s)
        if not within(ns - (e - s), wait_tol):
            why.append("wait %.3f ms, the spin %.3f ms" % (ns / 1e6, (e - s) / 1e6))
        if not within(t - e, end_tol):
            why.append("ends at %.6f, the spin at %.6f" % (t / 1e9, e / 1e9))
        # the window the file holds: from its first record (at the asked start or
        # within a page's records after it) to the asked end, to the us
        if not -2e3 <= lo - (t - secs * 1e9) <= SPAN_TOL or abs(hi - (t + after * 1e9)) > 2e3:
            why.append("window %.6f .. %.6f, want %.6f .. %.6f" %
                       (lo / 1e9, hi / 1e9, t / 1e9 - secs, t / 1e9 + after))
        if int(m.group(13)) or m.group(11):
            why.append("losses or a cut: %s pages after lost events%s" %
                       (m.group(13), m.group(11)))
        if why:
            print("; ".join(out))
            sys.exit("file %d: %s" % (k, "; ".join(why)))
    print("; ".join(out))


# trace-cmd 3.3 (Debian 13) prints the latency flags between the CPU and the time
REC = re.compile(r"\[(\d{3})\](?: \S+)? +(\d+\.\d+):")


def span(report, wl, k, secs, after, cpu, events):
    _, spikes = workload(wl)
    first, last, n = {}, {}, 0
    for line in open(report):
        m = REC.search(line)
        if not m:
            continue
        c, t = int(m.group(1)), float(m.group(2)) * 1e9
        first.setdefault(c, t)
        last[c] = t
        n += 1
    if cpu not in first:
        sys.exit("no records of CPU %d in the file" % cpu)
    if k >= 0:
        e = spike(spikes, k)[1]
        lo, hi = e - secs * 1e9, e + after * 1e9
    else:
        lo, hi = last[cpu] - secs * 1e9, last[cpu]
    print("records %d (line: %d); designed %.6f .. %.6f; %s" %
          (n, events, lo / 1e9, hi / 1e9, ", ".join(
              "CPU %d %+.3f .. %+.3f ms" % (c, (first[c] - lo) / 1e6, (last[c] - hi) / 1e6)
              for c in sorted(first))))
    why = []
    for c in sorted(first):
        if first[c] < lo - SPAN_TOL or last[c] > hi + SPAN_TOL:
            why.append("CPU %d's records %.6f .. %.6f outside the window" %
                       (c, first[c] / 1e9, last[c] / 1e9))
    if first[cpu] > lo + SPAN_TOL or last[cpu] < hi - SPAN_TOL:
        why.append("CPU %d's records %.6f .. %.6f do not cover the window" %
                   (cpu, first[cpu] / 1e9, last[cpu] / 1e9))
    if n != events:
        why.append("%d records, the line says %d events" % (n, events))
    if why:
        sys.exit("; ".join(why))


# a SIGUSR2's file against the script's clock around the kill: its end (CPU's last
# record) from the kill to 30 ms after (measured +0.1 ms: the pages read then), its
# start SECS before the merge's time then, which trails the reads (measured 19.0 ..
# 19.4 ms before SECS before the kill in 4 runs); the end's file ends between the -d's
# end and the run's exit (measured +27 .. +33 ms after it, 85 .. 106 ms before the exit)
SIG_END_TOL = (-2e6, 30e6)
SIG_START_TOL = (-100e6, 2e6)


def cpu_span(report, cpu):
    """the first and last times (ns) of @cpu's records in a trace-cmd report"""
    t = [float(m.group(2)) * 1e9 for m in map(REC.search, open(report))
         if m and int(m.group(1)) == cpu]
    if not t:
        sys.exit("no records of CPU %d in %s" % (cpu, report))
    return t[0], t[-1]


def signal(rep1, rep2, times, secs, run_s, cpu):
    ts, t0, t1, te = (float(x) * 1e9 for x in open(times).read().split())
    a1, b1 = cpu_span(rep1, cpu)
    a2, b2 = cpu_span(rep2, cpu)
    print("CPU %d: at the signal %+.1f .. %+.1f ms of [kill - %g s, kill]; at the end "
          "%+.1f .. %+.1f ms of [end - %g s, end] (-d's end; the exit %+.1f ms)" %
          (cpu, (a1 - (t0 - secs * 1e9)) / 1e6, (b1 - t0) / 1e6, secs,
           (a2 - (b2 - secs * 1e9)) / 1e6, (b2 - (ts + run_s * 1e9)) / 1e6, secs,
           (te - (ts + run_s * 1e9)) / 1e6))
    why = []
    if not within(b1 - t0, (SIG_END_TOL[0], t1 - t0 + SIG_END_TOL[1])) or \
       not within(a1 - (t0 - secs * 1e9), SIG_START_TOL):
        why.append("the signal's file holds %.6f .. %.6f, the kill at %.6f" %
                   (a1 / 1e9, b1 / 1e9, t0 / 1e9))
    if not ts + run_s * 1e9 <= b2 <= te or not within(a2 - (b2 - secs * 1e9), SIG_START_TOL):
        why.append("the end's file holds %.6f .. %.6f, the run's end %.6f .. %.6f" %
                   (a2 / 1e9, b2 / 1e9, (ts + run_s * 1e9) / 1e9, te / 1e9))
    if why:
        sys.exit("; ".join(why))


def timehist(th, wl, k, trig):
    tid, spikes = workload(wl)
    rows = []
    for line in open(th):
        w = line.split()
        if len(w) >= 6 and w[2].startswith("sp-waiter[%d/" % tid):
            try:
                rows.append((float(w[0]) * 1e9, float(w[4]) * 1e6))
            except ValueError:
                continue
    slow = [r for r in rows if r[1] > trig * 1e6]
    s, e = spike(spikes, k)
    print("%d sp-waiter rows, over %g ms: %s (spike %d: %.3f ms ending at %.6f)" %
          (len(rows), trig, " ".join("%.6f:%.3fms" % (t / 1e9, d / 1e6) for t, d in slow),
           k, (e - s) / 1e6, e / 1e9))
    if len(slow) != 1:
        sys.exit("%d sp-waiter rows over %g ms, want 1 (spike %d's)" % (len(slow), trig, k))
    t, d = slow[0]
    # the waiter's run after its read, to the row's switch-out: 1.8 ms once under TCG
    wait_tol, end_tol = tols(wl, k, e - s, 10e6)
    if not within(d - (e - s), wait_tol) or not within(t - e, end_tol):
        sys.exit("the row %.6f %.3f ms is not spike %d's" % (t / 1e9, d / 1e6, k))


def iline(err, outs):
    run = [l.rstrip("\n") for l in open(err) if ": flight: " in l]
    if not run:
        sys.exit("the run printed no flight line: %s" % open(err).read()[:200])
    want = re.sub(r", \d+ events, ", ", ", re.sub(r"^.*: flight: \S+: ", "", run[0]))
    got = [re.sub(r"^.*flight recording: ", "", l.rstrip("\n"))
           for p in outs for l in open(p) if "flight recording: " in l]
    print("-i says '%s'" % (got[0] if got else ""))
    if not got or got[0] != want:
        sys.exit("-i says '%s', the run said '%s'" % (got[0] if got else "", want))


def main():
    mode, a = sys.argv[1], sys.argv[2:]
    if mode == "lines":
        lines(a[0], a[1], a[2], int(a[3]), float(a[4]), float(a[5]))
    elif mode == "span":
        span(a[0], a[1], int(a[2]), float(a[3]), float(a[4]), int(a[5]), int(a[6]))
    elif mode == "signal":
        signal(a[0], a[1], a[2], float(a[3]), float(a[4]), int(a[5]))
    elif mode == "iline":
        iline(a[0], a[1:])
    elif mode == "timehist":
        timehist(a[0], a[1], int(a[2]), float(a[3]))
    else:
        sys.exit("unknown mode %s" % mode)


if __name__ == "__main__":
    main()
