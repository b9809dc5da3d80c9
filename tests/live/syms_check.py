#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Checks of tests/live/syms.sh: symbols of a stripped binary (its debug file found,
or FILE+0xADDR against nm of the unstripped copy), rows merged, the vDSO and a
tracepoint's leaf against perf report on the same run. Prints one line; exit 1 on
a failed check."""
import json
import re
import sys
from collections import Counter

from offcpu_check import folded  # the one reader of folded stacks


def die(msg):
    print(msg)
    sys.exit(1)


def nm_ranges(path):
    """{name: (start, end)} of the functions nm --print-size lists"""
    r = {}
    for line in open(path):
        f = line.split()
        if len(f) == 4 and f[2] in 'tTwW':
            r[f[3]] = (int(f[0], 16), int(f[0], 16) + int(f[1], 16))
    return r


def design(path):
    """a_ns and b_ns of the workload's own line"""
    m = re.search(r'a_ns=(\d+) b_ns=(\d+)', open(path).read())
    if not m:
        die('no workload line in %s' % path)
    return int(m.group(1)), int(m.group(2))


def leaves(rows, comm, own):
    """Counter of the leaf of the lines of @comm whose last frame @own accepts"""
    c = Counter()
    for fr, n in rows:
        if fr[0] == comm and len(fr) > 1 and own(fr[-1]):
            c[fr[-1]] += n
    return c


def unnamed(fol, nmfile, binary):
    """stripped, no debug file: each leaf BIN+0xADDR, ADDR inside burn_a or burn_b (nm)"""
    rng = nm_ranges(nmfile)
    pat = re.compile(re.escape(binary) + r'\+0x([0-9a-f]+)$')
    c = leaves(folded(fol), binary, lambda f: pat.match(f) or f in rng)
    named = sum(n for f, n in c.items() if f in rng)
    total = sum(c.values())
    inside = 0
    for f, n in c.items():
        m = pat.match(f)
        if m and any(lo <= int(m.group(1), 16) < hi for k, (lo, hi) in rng.items()
                     if k in ('burn_a', 'burn_b')):
            inside += n
    if total < 100:
        die('%d samples with a leaf in %s: too few' % (total, binary))
    if named:
        die('%d of %d leaves named without a symbol table' % (named, total))
    # measured: 99.6 .. 100% (the rest: cputime_ns's clock_gettime call sites)
    if inside < 0.95 * total:
        die('%d of %d %s+0xADDR leaves lie in burn_a or burn_b (nm): want 95%%'
            % (inside, total, binary))
    print('%d of %d leaves %s+0xADDR inside burn_a/burn_b by nm, %d distinct addresses'
          % (inside, total, binary, len(c)))


def named(fol, wl, binary):
    """debug file found: leaves burn_a, burn_b by the design's split; callers outer_a/b"""
    rows = folded(fol)
    a_ns, b_ns = design(wl)
    c = leaves(rows, binary, lambda f: True)
    a, b = c['burn_a'], c['burn_b']
    raw = sum(n for f, n in c.items() if f.startswith(binary + '+0x'))
    total = sum(c.values())
    if total < 100 or a + b < 0.95 * total:
        die('burn_a %d + burn_b %d of %d user leaves (%d unnamed): want 95%%'
            % (a, b, total, raw))
    share, want = 100.0 * a / (a + b), 100.0 * a_ns / (a_ns + b_ns)
    # measured: within 0.3 points of the workload's own CPU split
    if abs(share - want) > 5:
        die('burn_a %.1f%% of burn_a+burn_b, the workload measured %.1f%%' % (share, want))
    under = sum(n for fr, n in rows if fr[-1] == 'burn_a' and len(fr) > 2 and
                fr[-2] == 'outer_a')
    if under < 0.9 * a:
        die('%d of %d burn_a samples under outer_a' % (under, a))
    print('burn_a %.1f%% (workload %.1f%%), %d unnamed of %d; %d of %d under outer_a'
          % (share, want, raw, total, under, a))


def merged(fol, err):
    """each folded stack once; the counts add up to the samples the notes state"""
    rows = folded(fol)
    seen = Counter(';'.join(fr) for fr, _ in rows)
    dup = [s for s, k in seen.items() if k > 1]
    if dup:
        die('%d stacks printed more than once, e.g. %s' % (len(dup), dup[0]))
    m = re.search(r'profile: (\d+) samples', open(err).read())
    total = sum(n for _, n in rows)
    if total < 100:		# a run of this workload takes hundreds of samples
        die('%d samples in the folded output' % total)
    if not m or int(m.group(1)) != total:
        die('folded counts add up to %d, the notes say %s' % (total, m and m.group(1)))
    print('%d stacks, each once, %d samples as the notes say' % (len(rows), total))


def offcpu_merged(fol):
    """offcpu -f: each folded stack once"""
    rows = folded(fol)
    seen = Counter(';'.join(fr) for fr, _ in rows)
    dup = [s for s, k in seen.items() if k > 1]
    if dup or not rows:
        die('%d stacks printed more than once of %d, e.g. %s'
            % (len(dup), len(rows), dup[:1]))
    print('%d stacks, each once, %d us' % (len(rows), sum(n for _, n in rows)))


def json_merged(path):
    """profile --json: each (thread, stack) once; samples add up to the header's"""
    d = json.load(open(path))
    d = d[-1] if isinstance(d, list) else d
    keys = Counter(json.dumps([s['tid'], s['pid'], s['comm'], s['kernel'], s['user'],
                               s.get('off_cpu')]) for s in d['stacks'])
    dup = [k for k, n in keys.items() if n > 1]
    total = sum(s['samples'] for s in d['stacks'])
    if dup:
        die('%d stacks printed more than once, e.g. %s' % (len(dup), dup[0]))
    if total < 100:		# a run of this workload takes hundreds of samples
        die('%d samples in the JSON' % total)
    if total != d['samples']:
        die('stacks hold %d samples, the header %d' % (total, d['samples']))
    print('%d stacks, each once, %d samples' % (len(keys), total))


def perf_report(path):
    """{(dso, sym): percent} of perf report --no-children --sort dso,sym --stdio -q"""
    r = {}
    for line in open(path):
        m = re.match(r'\s*([\d.]+)%\s+(\S+)\s+\[[.k]\]\s+(\S+)', line)
        if m:
            r[(m.group(2), m.group(3))] = r.get((m.group(2), m.group(3)), 0) + float(m.group(1))
    return r


def ft_self(path, comm):
    """{(dso, sym): percent} of ftscope profile --json's self table, @comm's rows"""
    d = json.load(open(path))
    d = d[-1] if isinstance(d, list) else d
    r = {}
    total = sum(x['samples'] for x in d['self'])
    for x in d['self']:
        if x['comm'] == comm:
            k = (x['dso'], x['symbol'])
            r[k] = r.get(k, 0) + 100.0 * x['samples'] / total
    return r


def base(sym):
    """a vDSO function without its __vdso_ alias prefix"""
    return sym[7:] if sym.startswith('__vdso_') else sym


def vdso(ftjson, perfrep, comm):
    """the [vdso] share and its functions against perf report on the same run"""
    ft, pf = ft_self(ftjson, comm), perf_report(perfrep)
    fv = {base(s): p for (d, s), p in ft.items() if d == '[vdso]'}
    pv = {base(s): p for (d, s), p in pf.items() if d == '[vdso]'}
    fs, ps = sum(fv.values()), sum(pv.values())
    if ps < 20:
        die('perf put %.1f%% in [vdso]: the workload did not run there' % ps)
    # measured: 0.2 .. 1.5 points apart
    if abs(fs - ps) > 5:
        die('[vdso] %.1f%% of samples, perf report %.1f%%' % (fs, ps))
    ftop, ptop = max(fv, key=fv.get), max(pv, key=pv.get)
    if ftop != ptop:
        die('[vdso] top function %s, perf report %s' % (ftop, ptop))
    print('[vdso] %.1f%% (perf %.1f%%), top %s in both' % (fs, ps, ftop))


# the tracing code between a tracepoint and perf (offcpu_report.c's list)
TRACE_PREFIX = ('trace_', '__traceiter_', 'perf_trace_', '__bpf_trace_', 'ftrace_', '__ftrace_')


def perf_leaves(path):
    """Counter of each perf script sample's first kernel frame below the tracing code"""
    c, chain = Counter(), []
    for line in list(open(path, errors='replace')) + ['']:
        f = line.split()
        if len(f) >= 2 and re.match(r'^[0-9a-f]+$', f[0]):
            chain.append(re.sub(r'\+0x[0-9a-f]+$', '', f[1]))
            continue
        if chain:
            rest = [x for x in chain if not x.startswith(TRACE_PREFIX)]
            c[rest[0] if rest else chain[0]] += 1
        chain = []
    return c


def tp_leaf(ftjson, script, comm):
    """profile -e sched:sched_switch: the self table's top kernel leaf is perf's first
    frame below the tracing code on the same samples, and no leaf is tracing code"""
    ft, pf = ft_self(ftjson, comm), perf_leaves(script)
    fk = {s: p for (d, s), p in ft.items() if d == '[kernel.kallsyms]'}
    if not fk or not pf:
        die('no kernel leaf: ftscope %d, perf %d' % (len(fk), len(pf)))
    ftop, ptop = max(fk, key=fk.get), max(pf, key=pf.get)
    tracing = sum(p for s, p in fk.items() if s.startswith(TRACE_PREFIX))
    if ftop != ptop or tracing:
        die('top leaf %s (%.1f%%, %.1f%% in tracing code), perf %s (%d of %d samples)'
            % (ftop, fk[ftop], tracing, ptop, pf[ptop], sum(pf.values())))
    print('top leaf %s: %.1f%%, perf %d of %d samples' % (ftop, fk[ftop], pf[ptop],
                                                            sum(pf.values())))


if __name__ == '__main__':
    globals()[sys.argv[1]](*sys.argv[2:])
