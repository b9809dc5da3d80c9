#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Checks of `ftscope profile` output (tests/live/profile.sh). Each check prints one
line of numbers and exits 0 when it holds, 1 with the reason on its last line.

Folded input is `comm;root;...;leaf COUNT` (samples; microseconds with --offcpu).

  peer FOLDED PERFSCRIPT COMM POINTS F...  share of COMM's samples on stacks holding
                                          each F, ftscope's folded against perf's
                                          `perf script -F comm,tid,ip,sym` of the same
                                          run, within POINTS percentage points
  rate FOLDED ERR COMM HZ PCT             COMM's samples = HZ x its run time from its
                                          own schedstat_ns (burn2's line in ERR), +-PCT%
  under FOLDED ERR COMM FUNC PCT          COMM's samples on stacks holding FUNC = the
                                          pages pagetouch touched (its line in ERR: N
                                          by design and its own minflt), +-PCT%
  exact FOLDED COMM FUNC N [FUNC N]...    COMM's samples on stacks holding FUNC = N
  wall FOLDED ERR COMM PCT SLEEPFN SPCT CPUFN CPCT [LEAF]
                                          --offcpu: COMM's stacks add up to its own
                                          elapsed_us +-PCT%, stacks through SLEEPFN to
                                          its slept_us +-SPCT% and (99%) end in an
                                          off-CPU frame (LEAF exactly when given),
                                          stacks through CPUFN to its cpu_us +-CPCT%
                                          (computesleep's line in ERR)
  text TEXT FOLDED F...                   the text view's rows of each F carry the
                                          self and total shares of the folded stacks
                                          of the same run (a consistency check of the
                                          text view with its own data, no evidence of
                                          correctness: the folded data is checked
                                          against the oracles above)
  json JSON FOLDED                        --json parses; its total samples and
                                          per-comm totals equal the folded ones
  same A B                                two folded outputs hold the same stacks and
                                          counts (a file round trip, not evidence)
  intervals JSON CPU_NS WALL_NS HZ N SECS LOW
                                          --json interval reports of a CPU-bound thread
                                          over a run of N x SECS s: N reports; their
                                          sum at least HZ x N x SECS x its CPU share
                                          (CPU_NS of WALL_NS, schedstat over ftscope's
                                          life) x (1 - LOW%), at most HZ x CPU_NS (+2);
                                          each within 0.5 .. 1.5 of their mean
"""
import json
import re
import sys

from offcpu_check import folded  # the one reader of folded stacks

from pct_check import last_json  # the one reader of a --json output
from pct_check import steal_ms  # the host's steal over the run (STEAL_MS)

OFF_LEAF = re.compile(r'^\[(off-cpu|sleeping|uninterruptible|runnable)\]_\[o\]$')


def perf_script(path):
    """(frames, 1) per sample of `perf script -F comm,tid,ip,sym`, folded as ftscope
    folds: comm first, then the callchain root to leaf, offsets dropped"""
    rows, head, chain = [], None, []
    for line in open(path, errors='replace'):
        line = line.rstrip('\n')
        if not line.strip():
            if head is not None:
                rows.append(([head] + chain[::-1], 1))
            head, chain = None, []
        elif not line[0].isspace():
            head, chain = line.split()[0], []
        else:
            f = line.split(None, 1)
            sym = f[1] if len(f) > 1 else '[unknown]'
            chain.append(re.sub(r'\+0x[0-9a-f]+$', '', sym.split(' (')[0]))
    if head is not None:
        rows.append(([head] + chain[::-1], 1))
    return rows


def workload_line(err, prog):
    """the key=value fields of PROG's own line in ERR, as ints"""
    for line in open(err):
        if line.startswith(prog + ' '):
            f = dict(x.split('=', 1) for x in line.split()[1:] if '=' in x)
            return {k: int(v) for k, v in f.items()}
    return None


def on(rows, comm, func=None):
    """samples of COMM (all when COMM is '*') on stacks holding FUNC (any when None)"""
    return sum(n for f, n in rows if (comm == '*' or f[0] == comm) and
               (func is None or func in f[1:]))


def peer(path, script, comm, points, *funcs):
    ours, theirs = folded(path), perf_script(script)
    t_o, t_p = on(ours, comm), on(theirs, comm)
    if not t_o or not t_p:
        return f'no samples of {comm}: ftscope {t_o}, perf {t_p}'
    bad, text = [], []
    for fn in funcs:
        s_o, s_p = 100 * on(ours, comm, fn) / t_o, 100 * on(theirs, comm, fn) / t_p
        text.append(f'{fn} {s_o:.2f}% vs perf {s_p:.2f}%')
        if abs(s_o - s_p) > float(points):
            bad.append(fn)
    print(f'{comm}: ftscope {t_o} samples, perf {t_p}; ' + ', '.join(text))
    if bad:
        return f'shares of {" ".join(bad)} differ from perf\'s by more than {points} points'
    return None


def rate(path, err, comm, hz, pct):
    w = workload_line(err, comm)
    if not w:
        return f'no {comm} line from the workload'
    got, want = on(folded(path), comm), int(hz) * w['schedstat_ns'] / 1e9
    steal = steal_ms() * int(hz) / 1000
    print(f'{comm}: {got} samples; {hz} Hz x {w["schedstat_ns"] / 1e6:.1f} ms (its schedstat) '
          f'= {want:.1f}: {100 * (got / want - 1):+.2f}% (steal {steal_ms():.0f} ms)')
    if not -want * float(pct) / 100 <= got - want <= want * float(pct) / 100 + steal:
        return f'{got} samples, not {want:.0f} +-{pct}% (steal {steal_ms():.0f} ms)'
    return None


def rates(path, err, comm, hz, pct, nproc):
    """every COMM process of ERR (their own lines): samples = HZ x their summed CPU"""
    lines = [dict(x.split('=', 1) for x in line.split()[1:] if '=' in x)
             for line in open(err) if line.startswith(comm + ' ')]
    if len(lines) != int(nproc):
        return f'{len(lines)} {comm} lines from the workload, not {nproc}'
    cpu = sum(int(w['schedstat_ns']) for w in lines)
    got, want = on(folded(path), comm), int(hz) * cpu / 1e9
    steal = steal_ms() * int(hz) / 1000	# above, as rate allows it
    print(f'{nproc} x {comm}: {got} samples; {hz} Hz x {cpu / 1e6:.1f} ms (their schedstat) '
          f'= {want:.1f}: {100 * (got / want - 1):+.2f}% (steal {steal_ms():.0f} ms)')
    if not -want * float(pct) / 100 <= got - want <= want * float(pct) / 100 + steal:
        return f'{got} samples, not {want:.0f} +-{pct}% (steal {steal_ms():.0f} ms)'
    return None


def under(path, err, comm, func, pct):
    w = workload_line(err, comm)
    if not w:
        return f'no {comm} line from the workload'
    got, n = on(folded(path), comm, func), w['pages']
    print(f'{comm}: {got} samples under {func}; {n} pages touched, its own minflt {w["minflt"]}')
    if abs(w['minflt'] - n) > n * float(pct) / 100:
        return f'the workload saw {w["minflt"]} faults for {n} pages: not the design'
    if abs(got - n) > n * float(pct) / 100:
        return f'{got} under {func}, not {n} +-{pct}%'
    return None


def exact(path, comm, *pairs):
    rows, bad, text = folded(path), [], []
    for fn, n in zip(pairs[::2], pairs[1::2]):
        got = on(rows, comm, fn)
        text.append(f'{fn} {got} (want {n})')
        if got != int(n):
            bad.append(fn)
    print(f'{comm}: ' + ', '.join(text) + f'; {on(rows, comm)} in all')
    return f'counts of {" ".join(bad)} are not exact' if bad else None


def wall(path, err, comm, pct, sleepfn, spct, cpufn, cpct, leaf=None):
    w = workload_line(err, comm)
    if not w:
        return f'no {comm} line from the workload'
    rows = [(f, n) for f, n in folded(path) if f[0] == comm]
    total, slept = on(rows, comm), on(rows, comm, sleepfn)
    cpu = on(rows, comm, cpufn)
    off_leaf = sum(n for f, n in rows if sleepfn in f and
                   (f[-1] == leaf if leaf else OFF_LEAF.match(f[-1])))
    print(f'{comm}: stacks {total} us (its elapsed {w["elapsed_us"]}), through {sleepfn} '
          f'{slept} us ({off_leaf} ending off-CPU; it slept {w["slept_us"]}), through '
          f'{cpufn} {cpu} us (its CPU time there {w["cpu_us"]})')
    # the CPU time there is the workload's own clock's, without the host's steal
    for got, want, p, what, st in ((total, w['elapsed_us'], pct, 'all stacks', 0),
                                   (slept, w['slept_us'], spct, sleepfn, 0),
                                   (cpu, w['cpu_us'], cpct, cpufn, steal_ms() * 1000)):
        if not -want * float(p) / 100 <= got - want <= want * float(p) / 100 + st:
            return f'{what}: {got} us, not {want} +-{p}% (steal {st / 1000:.0f} ms)'
    if off_leaf < slept * 0.99:
        return f'{slept - off_leaf} us through {sleepfn} do not end in {leaf or "an off-CPU frame"}'
    return None


def shares(rows):
    """{function: (self %, total %)} over all samples of the folded rows"""
    total, self_n, tot_n = sum(n for _, n in rows), {}, {}
    for f, n in rows:
        self_n[f[-1]] = self_n.get(f[-1], 0) + n
        for fn in set(f[1:]):
            tot_n[fn] = tot_n.get(fn, 0) + n
    return {fn: (100 * self_n.get(fn, 0) / total, 100 * tot_n[fn] / total) for fn in tot_n}


def columns(head):
    """what the percentages of rows under the heading HEAD are: 'self', 'total', in
    the order the heading names them (perf --children: Children then Self); None
    when the heading names neither"""
    words = re.findall(r'self|total|children', head.lower())
    kinds = ['self' if w == 'self' else 'total' for w in words]
    return kinds or None


def text(path, fold, *funcs):
    """each F's rows (lines whose last word is F) carry percentages. Under a heading
    that names self or total (children) shares, each must be that share of the
    folded stacks; under none, one of the two. Self and total must each be printed
    (a share under 0.05% may be left out). Within the printed precision."""
    want = shares(folded(fold))
    bad, out, head = [], [], ''
    got = {fn: [] for fn in funcs}
    for line in open(path).read().splitlines():
        words = line.split()
        pcts = re.findall(r'(\d+(?:\.\d+)?)%', line)
        if not pcts:
            if words:
                head = line
            continue
        if words[-1] in got:
            kinds = columns(head)
            if not kinds or len(kinds) != len(pcts):
                kinds = [None] * len(pcts)
            got[words[-1]] += [(float(p), len(p.split('.')[1]) if '.' in p else 0, k)
                               for p, k in zip(pcts, kinds)]
    for fn in funcs:
        s, t = want.get(fn, (0.0, 0.0))
        exp = {'self': s, 'total': t}

        def near(v, d, x):
            return abs(v - x) <= 0.5 * 10 ** -d + 0.005
        out.append(f'{fn} printed {[(v, k) for v, _, k in got[fn]]}, folded self {s:.2f}% '
                   f'total {t:.2f}%')
        if not got[fn] or any(not near(v, d, exp[k]) if k else
                              not (near(v, d, s) or near(v, d, t)) for v, d, k in got[fn]):
            bad.append(fn)
        elif any(x >= 0.05 and not any(near(v, d, x) and k in (kind, None)
                                       for v, d, k in got[fn])
                 for kind, x in exp.items()):
            bad.append(fn)
    print('; '.join(out))
    return f'the text view disagrees with its folded data on {" ".join(bad)}' if bad else None


def stack_count(s):
    """one JSON stack's count: samples, count or us, whichever it holds"""
    for k in ('samples', 'count', 'us'):
        if isinstance(s.get(k), int):
            return s[k]
    return None


def json_check(path, fold):
    try:
        j = last_json(path)
    except (ValueError, IndexError) as e:
        return f'--json does not parse: {e}'
    rows = folded(fold)
    total = sum(n for _, n in rows)
    stacks = j.get('stacks') if isinstance(j, dict) else None
    if not isinstance(stacks, list):
        return 'no stacks[] in the JSON object'
    counts = [stack_count(s) for s in stacks]
    if None in counts:
        return 'a stack without a samples/count/us number'
    by_comm, want = {}, {}
    for s, n in zip(stacks, counts):
        by_comm[s.get('comm')] = by_comm.get(s.get('comm'), 0) + n
    for f, n in rows:
        want[f[0]] = want.get(f[0], 0) + n
    top = j.get('samples')
    print(f'JSON: {sum(counts)} in {len(stacks)} stacks, samples {top}; folded {total} '
          f'in {len(rows)} lines')
    if sum(counts) != total or (top is not None and top != total):
        return f'JSON totals {sum(counts)} / {top} differ from the folded {total}'
    if by_comm != want:
        return f'per-comm totals differ: {by_comm} vs {want}'
    return None


def same(a, b):
    ra, rb = sorted(folded(a)), sorted(folded(b))
    print(f'{len(ra)} and {len(rb)} lines, {sum(n for _, n in ra)} and '
          f'{sum(n for _, n in rb)} in all')
    return None if ra == rb and ra else 'the two folded outputs differ (or are empty)'


def intervals(path, cpu_ns, wall_ns, hz, count, secs, low):
    """see intervals in the module's text: the samples lie between what the thread's CPU
    share gives over the nominal N x SECS s and what its CPU time over ftscope's whole
    life (which holds the sampling) allows"""
    n = [json.loads(l)['samples'] for l in open(path) if l.startswith('{')]
    hz, count, secs = float(hz), int(count), float(secs)
    share = int(cpu_ns) / int(wall_ns)
    want, most = hz * count * secs * share, hz * int(cpu_ns) / 1e9 + 2
    mean = sum(n) / len(n) if n else 0
    print(' '.join(map(str, n)), '(sum %d, want %.0f: %+.1f%%, at most %.0f; share %.3f; '
          'intervals %.2f .. %.2f of their mean)' %
          (sum(n), want, 100 * (sum(n) - want) / want, most, share,
           min(n) / mean if mean else 0, max(n) / mean if mean else 0))
    if len(n) != count:
        return f'{len(n)} reports, not {count}'
    if not want * (1 - float(low) / 100) <= sum(n) <= most:
        return f'{sum(n)} samples: not within {want * (1 - float(low) / 100):.0f} .. {most:.0f}'
    if any(not 0.5 * mean <= x <= 1.5 * mean for x in n):
        return 'an interval outside 0.5 .. 1.5 of their mean'
    return None


def obtained(out_path, err_path, pct):
    """the header's "F Hz asked, G Hz obtained" against the samples (and lost ones: the
    footer) over burn2's own CPU time (its schedstat line): within PCT%. A kernel that
    gives the rate asked (a later machine gave 99.2 kHz of 100 kHz) makes the header
    "(F Hz)": then F is the rate obtained, held to the same bound"""
    out, err = open(out_path).read(), open(err_path).read()
    m = re.search(r'\((\d+) Hz asked, (\d+) Hz obtained', out) or \
        re.search(r"of event 'cpu-clock' \(((\d+)) Hz\)", out)
    s = re.search(r'(\d+) samples(?:, (\d+) lost)?', (out + err).split('events processed')[-1])
    ns = int(re.search(r'schedstat_ns=(\d+)', err).group(1))
    if not m or not s:
        return f'no rate obtained in "{out.splitlines()[0] if out else ""}"'
    n = int(s.group(1)) + int(s.group(2) or 0)
    want, got = n * 1e9 / ns, int(m.group(2))
    # the kernel's time sampled keeps the host's steal: as low as over CPU time and steal
    low = n * 1e9 / (ns + steal_ms() * 1e6)
    print(f'{got} Hz obtained of {m.group(1)} asked; the samples over burn2\'s own CPU time: '
          f'{want:.0f} Hz ({100 * (got / want - 1):+.2f}%); with the steal ({steal_ms():.0f} '
          f'ms) {low:.0f} Hz')
    if not low * (1 - float(pct) / 100) <= got <= want * (1 + float(pct) / 100):
        return f'{got} Hz obtained, not within {pct}% of {low:.0f} .. {want:.0f}'
    return None


def main():
    checks = {'peer': peer, 'rate': rate, 'obtained': obtained, 'rates': rates, 'under': under, 'exact': exact, 'wall': wall,
              'text': text, 'json': json_check, 'same': same,
              'intervals': intervals}
    if len(sys.argv) < 2 or sys.argv[1] not in checks:
        print(__doc__)
        return 2
    try:
        why = checks[sys.argv[1]](*sys.argv[2:])
    except (OSError, KeyError, ValueError, ZeroDivisionError, TypeError) as e:
        why = f'{type(e).__name__}: {e}'
    if why:
        print(why)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
