#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Checks of offcpu output. Each check prints one line of numbers and exits 0 when
it holds, 1 with the reason otherwise.

  known FOLDED ERR COMM FUNC KFRAME US     blocked time of COMM on stacks holding
                                           FUNC and KFRAME: the workload's own off-CPU
                                           time in those calls (its offwin line in
                                           ERR, kernel counters), US by design
  peer FOLDED BT COMM N                    totals and kernel stacks of COMM agree
                                           with a bpftrace off-CPU map (FOLDED
                                           written with --delimited); N periods known
  svg SVG FRAME...                         the SVG parses as XML and holds the frames
  waker FOLDED ERR COMM WAKER WFRAME US    COMM's time woken by WAKER (* any) through
                                           WFRAME in the waker's stack (none through
                                           other frames): as known
  wchain FOLDED ERR COMM WAKER CHAIN WFRAME US
                                           as waker, the waker's stacks holding the user
                                           frames CHAIN (comma-separated, root first) in a
                                           row and a frame matching WFRAME
  stripped FOLDED COMM FUNC                COMM's stacks show FILE+0xADDR (or [unknown]),
                                           never FUNC
  diff SVG GREW SHRANK                     a differential graph: GREW red, SHRANK blue
  chain FOLDED ERR COMM CHAIN KFRAME US    as known, on stacks holding the frames CHAIN
                                           (comma-separated, root first) in a row
  cut FOLDED COMM LEAF N ABSENT            every user stack of COMM holding LEAF has N
                                           frames (FOLDED with --delimited), never ABSENT
  counts JSON TEXT ERR PERIODS SPEC...     per stack counts (--json): for each SPEC
                                           COMM:UFUNC:KFRAME:N, COMM's stacks holding
                                           UFUNC and KFRAME count N periods (the
                                           workload's own count of its calls, from its
                                           offwin line in ERR, where it has one); with
                                           PERIODS a number, no other stack, and the
                                           JSON's and TEXT's "N blocked periods" are
                                           PERIODS; with -, both are the stacks' sum
  critpath FOLDED OUT LINKS DEPTH         offcpu --chain on tests/workloads/critpath
                                           LINKS (its totals in OUT; FOLDED may be
                                           --json's report): the victim's
                                           pieces against the threads' own clocks
                                           (below), adding up to the victim's waits
  perfpeer FOLDED SCRIPT COMM STATE N      perf script of perf record -e
                                           sched:sched_switch -g on the same run: N
                                           switch-outs of COMM in STATE, whose commonest
                                           user and kernel frames are those of COMM's
                                           largest stack in FOLDED (--delimited)
"""
import os
import re
import sys
import xml.dom.minidom

from pct_check import last_json  # the one reader of a --json report
from pct_check import steal_ms  # the host's steal over the run (STEAL_MS)


def folded(path):
    """(frames, us) per line of a folded file (a whole-system one may hold comms cut
    inside a UTF-8 character: seen, 'été€' cut at 15 bytes; kept as they are)"""
    rows = []
    for line in open(path, errors='surrogateescape'):
        m = re.match(r'^(.*) (\d+)$', line.rstrip('\n'))
        if m:
            rows.append((m.group(1).split(';'), int(m.group(2))))
    return rows


def target(frames):
    """the blocked thread's part of a --wakers stack"""
    return frames[:frames.index('--')] if '--' in frames else frames


def offwin(err, comm):
    """the workload's own account of COMM's off-CPU time in its blocking calls
    (tests/workloads/offwin.h): {windows, off_us, slack_us, run_us, preempted}"""
    for line in open(err):
        f = dict(x.split('=', 1) for x in line.split()[1:] if '=' in x)
        if line.startswith('offwin ') and f.get('comm') == comm:
            return {k: int(v) for k, v in f.items() if k != 'comm'}
    return None


def against_offwin(err, comm, hit, us, what):
    """@hit us of COMM against its offwin line. The kernel's counters give the off-CPU
    time inside the calls (off_us: the sleep and the run-queue wait after it, however
    loaded the machine). Below it by at most the run-queue delay of windows with a
    preemption (slack_us: offcpu leaves preempted time out; it is the whole delay of
    such a window, the wait after its wakeup included: valid, loose only there);
    above it by at most the thread's run time (run_us, from its first call to its
    report: a period whose switch-in the kernel did not record ends at the thread's
    next record). Beyond those, 0.1% + 25 us a window: the trace clock against
    CLOCK_MONOTONIC, and the thread's exit after its report, which run_us leaves out
    (measured: up to 123 us beyond run_us idle; -15 .. +60 us in all beside perf bench
    sched messaging -g 2, where no switch-in is rebuilt). And above by the host's steal
    over the run (STEAL_MS): a vCPU preempted after a switch-in the kernel did not record
    delays the thread's next record, which run_us leaves out (a fresh root: 3131 us over
    the workload's for 10 naps, 826 us beyond run_us and tol). And below by it too: the
    host's hold of a vCPU while the thread is on it inside a call is off-CPU time by the
    workload's clocks (its CPU clock leaves steal out) and none by the kernel's switches
    (a fresh root: 2282 us under the workload's for 20 naps, 777 us beyond tol, with
    270 ms of steal over the run)."""
    w = offwin(err, comm)
    if not w:
        return f'{comm}: no offwin line from the workload'
    tol = w['off_us'] * 0.001 + 25 * w['windows']
    lo = w['off_us'] - w['slack_us'] - tol - steal_ms() * 1000
    hi = w['off_us'] + w['run_us'] + tol + steal_ms() * 1000
    # OFFWIN_COARSE_CLOCK: a machine whose TSCs are unsynchronized (QEMU TCG with 16 vCPUs:
    # "tsc: Marking TSC unstable" in its dmesg) keeps run time by a sched_clock clamped
    # to the tick window of its hpet clocksource, so the workload's own account (wall
    # less run time) misses by milliseconds: measured 498 687 us off-CPU for 10 x 50 ms
    # asleep, less than the sleeps themselves, and (CI) 503 427 us where ftscope's
    # switch records gave 502 054 (1 373 us under the bound). There the design bounds
    # too: a period (switch-out to switch-in) is shorter than its sleep by at most the
    # thread's run time in the call before it switched out (the timer is armed first:
    # a Debian 13 host's 16-vCPU guest once measured 499 066 us for 10 x 50 ms, 93 us a
    # nap under the design), longer by its run time after; the lower of the two bounds,
    # the higher of the two
    if os.environ.get('OFFWIN_COARSE_CLOCK'):
        lo = min(lo, us - w['run_us'] - tol)
        hi = max(hi, us + w['run_us'] + tol)
    print(f'{comm}: {hit} us {what}; the workload: {w["off_us"]} us off-CPU in '
          f'{w["windows"]} calls ({us} by design, slack {w["slack_us"]}, run {w["run_us"]}, '
          f'steal {steal_ms():.0f} ms), want {lo:.0f} .. {hi:.0f}')
    # the workload ran as designed: 99% of it at least (a reader paced by a writer that
    # comes late to a byte waits less: 999,551 of 1,000,000 us in one loaded run)
    if w['off_us'] < us * 0.99 or w['windows'] == 0:
        return f'{comm}: the workload was off the CPU {w["off_us"]} us, less than 99% of {us} by design'
    if not lo <= hit <= hi:
        return f'{comm}: {hit} us, outside {lo:.0f} .. {hi:.0f} (the workload: {w["off_us"]})'
    return None


def unmatched(err):
    """switch-outs perf's stacks found no sample for, as offcpu's note says (a loss it
    shows: the period keeps its time, without a stack; cause not found: 1 in 41 in
    2 of 6 make checks, never in 30 runs alone)"""
    m = re.search(r'stacks from perf samples of sched_switch: (\d+) of (\d+) switch-outs',
                  open(err).read())
    return int(m.group(2)) - int(m.group(1)) if m else 0


def known(path, err, comm, func, kframe, us):
    rows = [(f, n) for f, n in folded(path) if f[0] == comm]
    hit = sum(n for f, n in rows if func in target(f) and any(re.search(kframe, x) for x in target(f)))
    total = sum(n for _, n in rows)
    # a period without a stack, where the note says a switch-out went unmatched, is
    # counted: its time is right, its stack was lost and said so (one row, at most
    # us / 10 for each unmatched switch-out: twice one of the design's 20 periods)
    lost = unmatched(err)
    bare = sum(n for f, n in rows if len(f) == 1) if lost else 0
    hit += min(bare, lost * us // 10)
    return against_offwin(err, comm, hit, us, f'on stacks with {func} and {kframe} ({total} in '
                          f'all; {bare} without a stack, {lost} unmatched)')


def bpftrace_map(path, comm):
    """{kernel stack tuple: us} of COMM from '@off[comm, ustack, kstack]: N' entries"""
    text = open(path).read()
    out = {}
    for m in re.finditer(r'@off\[([^,\n]+), \n(.*?)\]: (\d+)', text, re.S):
        if m.group(1) != comm:
            continue
        parts = m.group(2).split(', \n')
        kern = [re.sub(r'\+\d+$', '', x.strip()) for x in parts[-1].splitlines() if x.strip()]
        kern = tuple(x for x in kern if not x.startswith('__traceiter_'))
        out[kern] = out.get(kern, 0) + int(m.group(3))
    return out


def peer(path, bt, comm, periods):
    """ftscope's folded stacks were written with --delimited: kernel frames follow '-'"""
    ours = {}
    for f, n in folded(path):
        if f[0] == comm:
            f = target(f)
            kern = tuple(reversed(f[f.index('-') + 1:])) if '-' in f else ()
            ours[kern] = ours.get(kern, 0) + n
    theirs = bpftrace_map(bt, comm)
    t_ours, t_bt = sum(ours.values()), sum(theirs.values())
    print(f'{comm}: ftscope {t_ours} us on {len(ours)} kernel stacks, '
          f'bpftrace {t_bt} us on {len(theirs)}')
    if not t_bt:
        return f'bpftrace saw nothing of {comm}'
    m = re.search(r'@n\[' + re.escape(comm) + r'\]: (\d+)', open(bt).read())
    n_bt = int(m.group(1)) if m else 0
    if abs(t_ours - t_bt) > max(t_bt * 0.02, 2000):
        # bpftrace can miss a probe hit (a BPF program does not run while another runs
        # on that CPU): then compare the time per period, over the periods it saw
        if not 0 < n_bt < periods or abs(t_ours / periods - t_bt / n_bt) > t_bt / n_bt * 0.02:
            return f'{comm}: totals differ by more than 2%: {t_ours} vs {t_bt} us'
        print(f'{comm}: bpftrace saw {n_bt} of {periods} periods; per period '
              f'{t_ours / periods:.0f} vs {t_bt / n_bt:.0f} us')
    top_ours = max(ours, key=ours.get)
    top_bt = max(theirs, key=theirs.get)
    if top_ours != top_bt:
        return f'{comm}: main kernel stacks differ: {top_ours} vs {top_bt}'
    return None


def svg(path, *frames):
    doc = xml.dom.minidom.parse(path)
    names = {g.getAttribute('data-n') for g in doc.getElementsByTagName('g')}
    scripts = len(doc.getElementsByTagName('script'))
    print(f'{path}: {len(names)} distinct frames, {scripts} script')
    missing = [f for f in frames if f not in names]
    if missing:
        return f'frames missing from the SVG: {missing}'
    if not scripts:
        return 'no script: not interactive'
    return None


def woken(path, comm, match, wcomm='*'):
    """COMM's time (us) woken with a waker's stack that @match takes, with one it does
    not, and with the waker's comm alone (no stack recorded); by WCOMM only (* any)"""
    hit = other = bare = 0
    for f, n in folded(path):
        if f[0] != comm or '--' not in f or wcomm not in ('*', f[-1]):
            continue
        w = f[f.index('--') + 1:]
        if len(w) == 1:
            bare += n
        elif match(w):
            hit += n
        else:
            other += n
    return hit, other, bare


def waker(path, err, comm, wcomm, wframe, us):
    """COMM's periods woken by WCOMM (* any) through WFRAME: those with the waker's
    stack must all be; a wakeup the kernel recorded no stack for (ftscope's note counts
    them: seen for a timer interrupt over tokio-rt-worker) names the waker alone. The
    two together are bounded by the workload's own off-CPU time, as known."""
    hit, other, bare = woken(path, comm, lambda w: wcomm in ('*', w[-1]) and
                             any(re.search(wframe, x) for x in w))
    if other or not hit:
        print(f'{comm}: {hit} us woken through {wframe}, {other} us through other frames')
        return f'{comm}: {other} us woken through other frames than {wframe}, {hit} through it'
    return against_offwin(err, comm, hit + bare, us, f'woken by {wcomm} through {wframe} '
                          f'({bare} of them with no stack recorded)')


def wchain(path, err, comm, wcomm, frames, wframe, us):
    """COMM's periods woken by WCOMM whose waker's stack holds the user frames CHAIN
    (root first, in a row) and a kernel frame matching WFRAME: all of those with a
    waker's stack; with the wakeups that came without one, bounded as known"""
    want = list(reversed(frames.split(',')))	# the waker's part is leaf first
    # (WCOMM's wakeups only: a fresh root once had ch-reader blocked 2.4 ms on mmap_lock
    # behind ch-burn, outside its reads, woken with no waker stack)
    hit, other, bare = woken(path, comm, lambda w: w[-1] == wcomm and has_run(w, want) and
                             any(re.search(wframe, x) for x in w), wcomm)
    if other or not hit:
        print(f'{comm}: {hit} us woken through {frames} and {wframe}, {other} us otherwise')
        return f'{comm}: {other} us woken by stacks without {frames} and {wframe}, {hit} with'
    # a new thread's first wakeups may come before its waker's samples are filtered on
    # it (offcpu --wakers --stacks perf: measured 0 and 1 of chains' 10 reads, 6 runs)
    if bare > 0.2 * (hit + bare):
        return f'{comm}: {bare} us of {hit + bare} woken with no waker stack (at most 20%)'
    return against_offwin(err, comm, hit + bare, us, f'woken by {wcomm} through {frames} and '
                          f'{wframe} ({bare} of them with no stack recorded)')


# a frame no symbol covers, as ftscope prints it: FILE+0xADDR (perf: [unknown])
UNNAMED = re.compile(r'^.+\+0x[0-9a-f]+$')


def unnamed(frame):
    """is @frame one no symbol covers?"""
    return frame == '[unknown]' or bool(UNNAMED.match(frame))


def stripped(path, comm, func):
    rows = [(f, n) for f, n in folded(path) if f[0] == comm]
    unknown = sum(n for f, n in rows if any(unnamed(x) for x in f))
    named = sum(n for f, n in rows if func in f)
    print(f'{comm}: {unknown} us on stacks with unnamed frames, {named} us naming {func}')
    if named or not unknown:
        return f'{comm}: stripped binary resolved as {func} or gave no unnamed frames'
    return None


def diff(path, grew, shrank):
    doc = xml.dom.minidom.parse(path)
    fill = {}
    for g in doc.getElementsByTagName('g'):
        r = g.getElementsByTagName('rect')
        if r:
            fill[g.getAttribute('data-n')] = tuple(
                int(x) for x in re.findall(r'\d+', r[0].getAttribute('fill')))
    print(f'{grew}: {fill.get(grew)}, {shrank}: {fill.get(shrank)}')
    g, s = fill.get(grew), fill.get(shrank)
    if not g or not s:
        return 'frames missing'
    if not (g[0] == 255 and g[2] < 200):
        return f'{grew} grew but is not red: {g}'
    if not (s[2] == 255 and s[0] < 200):
        return f'{shrank} shrank but is not blue: {s}'
    return None


def has_run(frames, chain):
    """do @frames hold the list @chain, in a row?"""
    n = len(chain)
    return any(frames[i:i + n] == chain for i in range(len(frames) - n + 1))


def chain(path, err, comm, frames, kframe, us):
    want = frames.split(',')
    rows = [(f, n) for f, n in folded(path) if f[0] == comm]
    hit = sum(n for f, n in rows if has_run(target(f), want) and
              any(re.search(kframe, x) for x in target(f)))
    total = sum(n for _, n in rows)
    return against_offwin(err, comm, hit, us, f'on stacks with {want[0]}..{want[-1]} and '
                          f'{kframe} ({total} in all)')


def split_delimited(f):
    """(user frames root first, kernel frames root first) of a --delimited stack"""
    f = target(f)[1:]
    if '-' in f:
        return f[:f.index('-')], f[f.index('-') + 1:]
    return f, []


def cut(path, comm, leaf, n, absent):
    rows = [split_delimited(f)[0] for f, _ in folded(path) if f[0] == comm]
    rows = [u for u in rows if leaf in u]
    lens = sorted({len(u) for u in rows})
    print(f'{comm}: {len(rows)} stacks with {leaf}, of {lens} user frames')
    if not rows:
        return f'{comm}: no stack holds {leaf}'
    if lens != [n] or any(absent in u for u in rows):
        return f'{comm}: user stacks of {lens} frames (want {n}), {absent} present: not cut'
    return None


def counts(path, text, err, periods, *specs):
    """each SPEC's periods in the --json report at PATH, and the periods line of TEXT"""
    j = last_json(path)
    m = re.search(r'^offcpu: (\d+) blocked periods', open(text).read(), re.M)
    printed = int(m.group(1)) if m else None
    stacks = j['stacks']
    total = sum(s['count'] for s in stacks)
    left = list(range(len(stacks)))
    got = []
    for spec in specs:
        comm, ufunc, kframe, n = spec.split(':')
        hit = [i for i in left if stacks[i]['comm'] == comm and ufunc in stacks[i]['user'] and
               any(re.search(kframe, x) for x in stacks[i]['kernel'])]
        left = [i for i in left if i not in hit]
        c = sum(stacks[i]['count'] for i in hit)
        # periods whose switch-out went unmatched (said in the notes) count, as in known
        lost = j.get('switch_outs_without_sample', 0)
        bare = [i for i in left if stacks[i]['comm'] == comm and not stacks[i]['user'] and
                not stacks[i]['kernel']]
        if lost and c < int(n) and sum(stacks[i]['count'] for i in bare) <= lost:
            c += sum(stacks[i]['count'] for i in bare)
            left = [i for i in left if i not in bare]
        got.append(f'{comm} {ufunc} {c}')
        w = offwin(err, comm)
        if w and w['windows'] != int(n):
            return f'{comm}: the workload made {w["windows"]} calls, not {n} as designed'
        if c != int(n):
            print(f'{"; ".join(got)}; periods {j["periods"]}, text {printed}')
            return f'{comm}: {c} periods on stacks with {ufunc} and {kframe}, want {n}'
    want = total if periods == '-' else int(periods)
    rest = [(stacks[i]['comm'], stacks[i]['user'][:2], stacks[i]['count']) for i in left]
    print(f'{"; ".join(got)}; periods {j["periods"]}, text {printed}, stacks\' sum {total}, '
          f'others {rest}')
    if periods != '-' and rest:
        return f'stacks outside the designed set: {rest}'
    if j['periods'] != want or printed != want:
        return f'periods: json {j["periods"]}, text {printed}, want {want}'
    # the notes count the periods shown, not those -m/-M left out
    notes = re.search(r'^offcpu: \d+ blocked periods.*', open(text).read(), re.M).group(0)
    for what in ('end at a switch-in', 'end at the switch-out'):
        m = re.search(r'; (\d+) ' + what, notes)
        if m and int(m.group(1)) > want:
            return f'"{m.group(0)[2:]}": more than the {want} periods shown'
    if j['estimated'] > want:
        return f'json: {j["estimated"]} estimated of {want} periods'
    return None


TRACE_PREFIX = ('trace_', '__traceiter_', 'perf_trace_', '__bpf_trace_', 'ftrace_')


def perf_samples(path, comm, state):
    """[(user frames, kernel frames)] root first, of COMM's switch-outs in STATE in a
    perf script of sched_switch samples; names without offsets and symbol versions"""
    out = []
    for block in open(path).read().split('\n\n'):
        lines = block.strip('\n').split('\n')
        # the record as the kernel's print fmt has it (perf 6.1: "prev_state=S ==>"), or
        # as libtraceevent's sched_switch plugin prints it, which perf 6.12 (Debian 13)
        # loads ("dp-sleeper:9358 [139] S ==> swapper/1:0 [120]")
        m = re.match(r'^\s*(\S.*?)\s+\d+ \[\d+\] .*(?:prev_state=|:\d+ \[-?\d+\] )(\S+) ==> ',
                     lines[0])
        if not m or m.group(1) != comm or m.group(2) != state:
            continue
        user, kern = [], []
        for x in lines[1:]:
            p = x.split(None, 1)
            name = re.sub(r'(@\S+)?\+0x[0-9a-f]+$', '', p[1].rsplit(' (', 1)[0])
            (kern if int(p[0], 16) >= 0xffff800000000000 else user).append(name)
        while kern and kern[0].startswith(TRACE_PREFIX):
            kern.pop(0)
        while user and user[-1] == '[unknown]':
            user.pop()
        out.append((tuple(reversed(user)), tuple(reversed(kern))))
    return out


def perfpeer(path, script, comm, state, n):
    ours = {}
    for f, us in folded(path):
        if f[0] == comm:
            u, k = split_delimited(f)
            # roots neither names (libc's __libc_start_call_main without libc6-dbg):
            # dropped here as perf_samples drops them from perf's
            u = ['[unknown]' if unnamed(x) else x for x in u]
            while u and u[0] == '[unknown]':
                u = u[1:]
            ours[(tuple(u), tuple(k))] = ours.get((tuple(u), tuple(k)), 0) + us
    theirs = perf_samples(script, comm, state)
    print(f'{comm}: perf {len(theirs)} switch-outs in {state}, ftscope {len(ours)} stacks')
    if len(theirs) != n:
        return f'{comm}: perf saw {len(theirs)} switch-outs in {state}, {n} by design'
    if not ours:
        return f'{comm}: no ftscope stack'
    top = max(ours, key=ours.get)
    common = max(set(theirs), key=theirs.count)
    print(f'{comm}: perf {theirs.count(common)} x {";".join(common[0] + common[1])}')
    print(f'{comm}: ftscope {ours[top]} us on {";".join(top[0] + top[1])}')
    if top != common:
        return f'{comm}: frames differ from perf\'s'
    return None


# critpath's tolerances, of the workload's own clocks, from the spread measured in
# 6 runs (2 and 3 links, 20 rounds) on this VM: the total -0.03..-0.07% (a read's
# call holds more than the thread's time off the CPU); the crunches -0.53..+0.39% (the
# samples' split: a 1 ms sample in 10 and 20 ms turns); the sleeps -0.01..-0.18% (the
# nap and its sleeper's wait for a CPU after it, inside the reads up to their waking
# writes)
CRIT_TOL = {'total': 0.005, 'worker crunch': 0.015, 'source crunch': 0.015,
            'worker sleep': 0.01, 'source sleep': 0.01, 'worker blocked, chain ended': 0.01}


def crit_totals(path):
    """critpath's own lines: {thread: {field: int}}"""
    tot = {}
    for line in open(path):
        if line.startswith('critpath '):
            f = line.split()
            tot.setdefault(f[1], {}).update(
                {k: int(v) for k, v in (x.split('=') for x in f[2:])})
    return tot


def crit_pieces(path):
    """the victim's pieces: [(links, us)], links a list of frame lists after the victim's
    (each its comm or mark, then its frames), from folded lines or --json's rows"""
    out = []
    if open(path).read(1) == '{':
        for row in last_json(path)['stacks']:
            if row['comm'] == 'cp-victim':
                out.append(([[lk.get('comm', lk.get('mark'))] + lk.get('user', []) +
                             lk.get('kernel', []) + [lk.get('mark')]
                             for lk in row['chain']], row['us']))
        return out
    for frames, us in folded(path):
        if frames and frames[0] == 'cp-victim':
            parts, cur = [], []
            for f in frames[1:]:
                if f == '--':
                    parts.append(cur)
                    cur = []
                else:
                    cur.append(f)
            parts.append(cur)
            out.append((parts[1:], us))
    return out


def crit_sum(pieces, *want):
    """us of pieces whose links start with want's (comm, frame) pairs in order"""
    def fits(links):
        if len(links) < len(want):
            return False
        return all(lk and lk[0] == c and (f is None or f in lk) for lk, (c, f)
                   in zip(links, want))
    return sum(us for links, us in pieces if fits(links))


def critpath(path, out, links, depth):
    """the victim's waits split as the workload is built (tests/workloads/critpath.c):
    2 links: the worker's sleep (and its wait for a CPU after it) inside the victim's
    waits and its crunch_worker, as the threads' own clocks say; 3 links: the worker's
    crunch_worker, the source's crunch_source under the worker's block, and the
    source's sleep under it; --chain-depth 1 (DEPTH): the worker's block inside the
    victim's waits is its own stack's, nothing after it. Every piece adds to the
    victim's wait."""
    tot, pieces = crit_totals(out), crit_pieces(path)
    wait = tot['cp-victim']['wait_ns'] / 1000
    wk, src = tot['cp-worker'], tot.get('cp-source')
    got = {'total': (sum(us for _, us in pieces), wait),
           'worker crunch': (crit_sum(pieces, ('cp-worker', 'crunch_worker')),
                             wk['crunch_ns'] / 1000)}
    if links == 2:
        got['worker sleep'] = (crit_sum(pieces, ('cp-worker', 'do_nanosleep'),
                                        ('[hardirq]', None)) +
                               crit_sum(pieces, ('cp-worker', '[runnable]')),
                               tot['cp-victim']['nap_in_wait_ns'] / 1000)
    elif depth == 1:
        got['worker blocked, chain ended'] = (
            crit_sum(pieces, ('cp-worker', 'anon_pipe_read')),
            tot['cp-victim']['worker_blocked_in_wait_ns'] / 1000)
        if any(len(lk) > 1 for lk, _ in pieces):
            return 'a link past --chain-depth 1'
    else:
        blk = ('cp-worker', 'anon_pipe_read')
        got['source crunch'] = (crit_sum(pieces, blk, ('cp-source', 'crunch_source')),
                                src['crunch_ns'] / 1000)
        got['source sleep'] = (crit_sum(pieces, blk, ('cp-source', 'do_nanosleep'),
                                        ('[hardirq]', None)) +
                               crit_sum(pieces, blk, ('cp-source', '[runnable]')),
                               tot['cp-victim']['nap_in_wait_ns'] / 1000)
    bad, said = None, []
    # the host's steal over the run (STEAL_MS): cpu-clock samples miss the stolen time of
    # a crunch, which its clock keeps, and the chain gives it to the sleep after (a fresh
    # root under heavy steal: worker crunch -9.49%, its sleep +1.07%)
    steal_us = steal_ms() * 1000
    for what, (ours, theirs) in got.items():
        rel = ours / theirs - 1 if theirs else 1
        said.append(f'{what} {ours / 1000:.2f} ms of {theirs / 1000:.2f} ({rel * 100:+.2f}%)')
        lo = -CRIT_TOL[what] - (steal_us / theirs if 'crunch' in what and theirs else 0)
        hi = CRIT_TOL[what] + (steal_us / theirs if 'sleep' in what and theirs else 0)
        if not lo <= rel <= hi:
            bad = bad or f'{what}: {ours / 1000:.2f} ms, own clock {theirs / 1000:.2f} ms'
    print('; '.join(said) + f' (steal {steal_ms():.0f} ms)')
    return bad


CHECKS = {'known': (known, 6), 'peer': (peer, 4), 'svg': (svg, None),
          'waker': (waker, 6), 'stripped': (stripped, 3), 'diff': (diff, 3),
          'chain': (chain, 6), 'wchain': (wchain, 7), 'cut': (cut, 5), 'perfpeer': (perfpeer, 5),
          'counts': (counts, None), 'critpath': (critpath, 4)}

if __name__ == '__main__':
    fn, nargs = CHECKS[sys.argv[1]]
    args = sys.argv[2:]
    if nargs and len(args) != nargs:
        sys.exit(__doc__)
    args = [int(a) if a.isdigit() else a for a in args]
    err = fn(*args)
    if err:
        print(err)
        sys.exit(1)
