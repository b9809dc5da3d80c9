#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Checks of --pprof files (tests/live/pprof.sh), read by `go tool pprof` itself
(-raw, -traces, -top: text it prints from the file it parsed). Each check prints one
line of numbers and exits 0 when it holds, 1 with the reason on its last line.

A pprof sample becomes a folded line as ftscope folds it: its comm label, then its
locations from the root (pprof's location[0] is the leaf), an unnamed location
[unknown], and its value in the folded unit (IDX: which sample value; DIV: 1000 for
microseconds from nanoseconds). Samples of one stack add up (pprof keeps addresses
and threads, folded output merges what prints the same), then the sum is truncated
as ftscope truncates each line. Folded lines' off-CPU marks lose their flame-graph
suffix "_[o]", and a frame no symbol covers (FILE+0xADDR) is [unknown].

  raw RAW FOLDED IDX DIV            (stack, value) of `-raw` equals the folded
                                    output's (values 0 left out on both sides)
  traces TRACES FOLDED DIV          the same from `-traces -unit=ns` (or counts)
  top TOP FOLDED DIV                `-top -unit=ns`: each function's flat value and the
                                    total against the folded leaves' sums (each key
                                    truncated by under 1 unit of DIV)
  known TOP ERR COMM FUNC MS PCT OPCT   FUNC's cum value in `-top -unit=ns` = MS ms
                                    +-PCT% (the design) and = the workload's own
                                    off_us (offwin line of COMM in ERR) +-OPCT%
  labels RAW PIDFILE COMM           every sample has comm COMM, pid and tid labels, pid
                                    the workload's own (PIDFILE), tid = pid
  buildid RAW FILE HEX              the mapping of FILE carries build ID HEX
  addrs RAW FILE [syscall:FUNC]     each location in a mapping of FILE lies in its
                                    function: address - start + offset is a file
                                    offset, the PT_LOAD segments (readelf -l) make it
                                    a virtual address; a sample's first user location
                                    (its leaf) is the start of an instruction of nm
                                    -S's symbol of that name (objdump -d), every other
                                    the end of a call instruction of that symbol (the
                                    return address pprof wants); with syscall:FUNC,
                                    every leaf in FUNC just past a syscall instruction
                                    (a thread blocked in its own system call), and one
                                    at least (leaves elsewhere are other waits: a
                                    fresh process's page fault at _start, on a machine
                                    whose page cache does not hold the binary yet)
  rate RAW ERR COMM HZ PCT          COMM's samples = HZ x its schedstat_ns, and its
                                    [cpu,nanoseconds] = its schedstat_ns, +-PCT%
  tagfocus TOP FOLDED               `-top -unit=ns -tagignore=state=on-cpu`'s total =
                                    the folded stacks ending in an off-CPU mark (us)
"""
import collections
import re
import subprocess
import sys

from offcpu_check import folded as folded_frames, offwin  # the readers offcpu_check owns
from pct_check import steal_ms  # the host's steal over the run (STEAL_MS)

SAMPLE = re.compile(r'^\s*(-?\d+(?:\s+-?\d+)*):((?:\s+\d+)*)\s*$')
LABEL = re.compile(r'(\w+):\[([^\]]*)\]')
LOC = re.compile(r'^\s*(\d+): (0x[0-9a-f]+) (?:M=(\d+) )?(?:\[F\] )?(.*)$')
MAP = re.compile(r'^(\d+): (0x[0-9a-f]+)/(0x[0-9a-f]+)/(0x[0-9a-f]+) (\S+) ?(\S*)')
MARK = re.compile(r'^\[(off-cpu|sleeping|uninterruptible|runnable|state .)\]$')
UNITS = {'ns': 1, 'us': 1e3, 'µs': 1e3, 'ms': 1e6, 's': 1e9, 'mins': 60e9, 'hrs': 3600e9}


def raw(path):
    """`pprof -raw`: samples [(values, locs, labels)], locations {id: name|None},
    mappings [(id, start, limit, offset, file, build_id)]"""
    samples, locs, maps, part = [], {}, [], None
    for line in open(path):
        line = line.rstrip('\n')
        if line in ('Samples:', 'Locations', 'Mappings'):
            part = line
            continue
        if part == 'Samples:':
            m = SAMPLE.match(line)
            if m:
                samples.append(([int(v) for v in m.group(1).split()],
                                [int(x) for x in m.group(2).split()], {}))
            elif samples and LABEL.search(line):
                samples[-1][2].update(LABEL.findall(line))
        elif part == 'Locations':
            m = LOC.match(line)
            if m:
                rest = m.group(4).strip()
                if rest.startswith('[') and ']' in rest:   # [no stack], [unwind stopped: ...]:
                    rest = rest[:rest.index(']') + 1].replace(' ', '\0')   # names with spaces
                locs[int(m.group(1))] = rest.split(' ')[0].replace('\0', ' ') if rest else None
        elif part == 'Mappings':
            m = MAP.match(line)
            if m:
                maps.append((int(m.group(1)), int(m.group(2), 16), int(m.group(3), 16),
                             int(m.group(4), 16), m.group(5), m.group(6)))
    return samples, locs, maps


def folded(path):
    """(stack, value) per folded line (offcpu_check's reader), the off-CPU marks' "_[o]"
    dropped, a frame no symbol covers as [unknown] (pprof's name for it)"""
    rows = []
    for frames, v in folded_frames(path):
        frames[-1] = re.sub(r'_\[o\]$', '', frames[-1])
        rows.append((';'.join('[unknown]' if UNNAMED.match(f) else f for f in frames), v))
    return rows


# a frame no symbol covers, as folded output prints it: FILE+0xADDR
UNNAMED = re.compile(r'^.+\+0x[0-9a-f]+$')


def by_stack(rows, div):
    """{stack: (value // div, lines)} of @rows' values summed per stack"""
    sums, lines = collections.Counter(), collections.Counter()
    for s, v in rows:
        sums[s] += v
        lines[s] += 1
    return {s: (v // div, lines[s]) for s, v in sums.items()}


def stack_diff(got, want):
    """the first differences of pprof's sums per stack and the folded lines', as text:
    each folded line is truncated on its own, so K lines of one stack (addresses that
    print as [unknown] here) may hold up to K - 1 less than pprof's truncated sum"""
    bad = []
    for s in set(got) | set(want):
        g, w, k = got.get(s, (0, 0))[0], want.get(s, (0, 0))[0], max(want.get(s, (0, 1))[1], 1)
        if not w <= g < w + k and (g or w):
            bad.append((s, g, w))
    if not bad:
        return None
    return f'{len(bad)} stacks differ (stack, pprof, folded), e.g. {bad[:1]}'


def check_raw(rawf, fold, idx, div):
    samples, locs, _ = raw(rawf)
    got = []
    for values, ids, labels in samples:
        names = [locs.get(i) or '[unknown]' for i in reversed(ids)]
        names = [] if names == ['[no stack]'] else names   # folded: the comm alone
        got.append((';'.join([labels.get('comm', '?')] + names), values[int(idx)]))
    n = len(got)
    got = by_stack(got, int(div))
    want = by_stack(folded(fold), 1)
    print(f'{n} pprof samples, {sum(k for _, k in want.values())} folded lines; totals '
          f'{sum(v for v, _ in got.values())} and {sum(v for v, _ in want.values())}')
    d = stack_diff(got, want)
    return f'stacks differ: {d}' if d else None


def value_ns(text):
    """a value pprof printed: '1001923326ns', '150', '1.50s'"""
    m = re.match(r'^(-?[\d.]+)([a-zµ]*)$', text)
    return float(m.group(1)) * UNITS.get(m.group(2), 1) if m else None


def name_of(frame):
    """a frame as pprof shows it, as ftscope folds it: an unnamed location (its
    address, its mapping's name in brackets, or <unknown> without one) is [unknown]"""
    if re.match(r'^0x[0-9a-f]+$', frame) or frame == '<unknown>' or \
       (re.match(r'^\[.*\]$', frame) and not MARK.match(frame) and frame != '[no stack]' and
        not frame.startswith('[unwind stopped')):   # a stopped walk's marker: a name
        return '[unknown]'
    return frame


def traces(path):
    """`pprof -traces`: (labels, frames leaf first, value) per trace"""
    out, labels, frames, value = [], {}, [], None
    for line in open(path):
        line = line.rstrip('\n')
        if line.startswith('-----------+'):
            if value is not None:
                out.append((labels, frames, value))
            labels, frames, value = {}, [], None
            continue
        m = re.match(r'^\s*(\w+):\s+(.*)$', line)
        if m and value is None and not frames:
            labels[m.group(1)] = m.group(2).strip()
            continue
        m = re.match(r'^\s*(\S+)\s{3}(\S.*)$', line)
        if m and value is None and value_ns(m.group(1)) is not None:
            value, frames = value_ns(m.group(1)), [m.group(2)]
        elif value is not None and line.strip():
            frames.append(line.strip())
    if value is not None:
        out.append((labels, frames, value))
    return out


def check_traces(path, fold, div):
    got = []
    for labels, frames, value in traces(path):
        # a stackless period's one location, "[no stack]": folded, the comm alone
        names = [] if frames == ['[no stack]'] else [name_of(f) for f in frames]
        got.append((';'.join([labels.get('comm', '?')] + names[::-1]), int(value)))
    n = len(got)
    got = by_stack(got, int(div))
    want = by_stack(folded(fold), 1)
    print(f'{n} traces, {sum(k for _, k in want.values())} folded lines')
    d = stack_diff(got, want)
    return f'traces differ: {d}' if d else None


def top(path):
    """`pprof -top`: the total and {function: (flat, cum)}"""
    total, rows = None, {}
    for line in open(path):
        # the total shown: after the filters (-tagfocus...), every node (nodefraction=0)
        m = re.search(r'Showing nodes accounting for (\S+),', line)
        if m:
            total = value_ns(m.group(1))
        f = line.split(None, 5)		# the name may hold spaces: [no stack]
        if len(f) == 6 and f[1].endswith('%') and value_ns(f[0]) is not None:
            name = name_of(f[5].strip())
            old = rows.get(name, (0, 0))
            rows[name] = (old[0] + value_ns(f[0]), old[1] + value_ns(f[3]))
    return total, rows


def check_top(path, fold, div):
    total, rows = top(path)
    div = int(div)
    leaf, keys = collections.Counter(), collections.Counter()
    for s, v in folded(fold):
        # a stackless period, the comm alone, is pprof's "[no stack]" location
        fn = s.split(';')[-1] if ';' in s else '[no stack]'
        leaf[fn] += v
        keys[fn] += 1
    want, n = sum(leaf.values()), sum(keys.values())
    print(f'total {total / div:.0f} against the folded {want} ({n} lines); '
          f'{len(rows)} functions')
    if total is None or not want <= total / div < want + n:
        return f'total {total} is not the folded {want} (+ under 1 per line)'
    for fn, v in leaf.items():
        flat = rows.get(fn, (0, 0))[0] / div
        if not v <= flat < v + keys[fn]:
            return f'{fn}: flat {flat:.0f}, the folded leaves {v} ({keys[fn]} lines)'
    return None


def check_known(path, err, comm, func, ms, pct, opct):
    _, rows = top(path)
    w = offwin(err, comm)
    if func not in rows:
        return f'{func} is not in -top'
    if not w:
        return f'no offwin line of {comm}'
    cum = rows[func][1] / 1e6
    own = w['off_us'] / 1e3
    print(f'{func}: {cum:.3f} ms in pprof; design {ms} ms ({100 * (cum / float(ms) - 1):+.2f}%), '
          f'its own off-CPU time {own:.3f} ms ({100 * (cum / own - 1):+.3f}%)')
    if abs(cum - float(ms)) > float(ms) * float(pct) / 100:
        return f'{cum:.3f} ms, not {ms} +-{pct}%'
    if abs(cum - own) > own * float(opct) / 100:
        return f'{cum:.3f} ms, not its own {own:.3f} +-{opct}%'
    return None


def check_labels(rawf, pidfile, comm):
    samples, _, _ = raw(rawf)
    pid = open(pidfile).read().strip()
    mine = [l for _, _, l in samples if l.get('comm') == comm]
    bad = [l for l in mine if l.get('pid') != pid or l.get('tid') != pid]
    print(f'{len(mine)} samples of {comm} (of {len(samples)}), pid {pid}')
    if not mine:
        return f'no sample labelled comm {comm}'
    if bad:
        return f'{len(bad)} samples of {comm} without pid and tid {pid}: {bad[0]}'
    return None


def check_buildid(rawf, path, want):
    _, _, maps = raw(rawf)
    got = [m[5] for m in maps if m[4] == path]
    print(f'{path}: mappings with build IDs {got}; readelf -n: {want}')
    if not got:
        return f'no mapping of {path}'
    if any(b != want for b in got):
        return f'build ID {got[0]}, readelf says {want}'
    return None


def elf_syms(path):
    """{name: (value, size)} of nm -S's text symbols, and PT_LOAD (offset, vaddr, filesz)"""
    syms, loads = {}, []
    for line in subprocess.run(['nm', '-S', '--defined-only', path], capture_output=True,
                               text=True, check=True).stdout.splitlines():
        f = line.split()
        if len(f) == 4 and f[2] in 'tTwW':
            syms[f[3]] = (int(f[0], 16), int(f[1], 16))
    for line in subprocess.run(['readelf', '-lW', path], capture_output=True, text=True,
                               check=True).stdout.splitlines():
        f = line.split()
        if f and f[0] == 'LOAD':
            loads.append((int(f[1], 16), int(f[2], 16), int(f[4], 16)))
    return syms, loads


def objdump(path):
    """{instruction address: (length, is a call)} of objdump -d's listing of FILE"""
    ins, prev = {}, None
    for line in subprocess.run(['objdump', '-d', '--no-show-raw-insn', path],
                               capture_output=True, text=True, check=True).stdout.splitlines():
        m = re.match(r'^\s+([0-9a-f]+):\s+(\S+)', line)
        if not m:
            prev = None if line.startswith('Disassembly') else prev
            continue
        a = int(m.group(1), 16)
        if prev is not None:
            ins[prev[0]] = (a - prev[0], prev[1])
        prev = (a, m.group(2).startswith('call') or m.group(2) == 'syscall' and 'syscall')
    if prev is not None:
        ins[prev[0]] = (1, prev[1])
    return ins


def check_addrs(rawf, path, past=None):
    past, past_fn = past.split(':') if past else (None, None)
    samples, locs, maps = raw(rawf)
    syms, loads = elf_syms(path)
    ins = objdump(path)
    mine = {m[0]: m for m in maps if m[4] == path}
    user = {m[0] for m in maps if m[1] < 1 << 47}
    where = {}
    for line in open(rawf):
        m = LOC.match(line)
        if m and m.group(3):
            where[int(m.group(1))] = (int(m.group(2), 16), int(m.group(3)))
    role = collections.defaultdict(set)	# location: 'leaf' and/or 'caller'
    for _, sl, _ in samples:
        first = True
        for lid in sl:
            if lid in where and where[lid][1] in user:
                role[lid].add('leaf' if first else 'caller')
                first = False
    n, bad = collections.Counter(), []
    for lid, (addr, mid) in sorted(where.items()):
        if mid not in mine:
            continue
        name = locs.get(lid)
        _, start, _, offset, _, _ = mine[mid]
        off = addr - start + offset
        va = [v + off - o for o, v, sz in loads if o <= off < o + sz]
        if name not in syms or not va:
            bad.append(f'{name} at file offset {off:#x}: no symbol or segment')
            continue
        va = va[0]
        lo, size = syms[name]
        if len(role[lid]) != 1:
            bad.append(f'{name} at {va:#x}: roles {sorted(role[lid])}')
        elif 'leaf' in role[lid]:
            # the leaf: the address the thread stopped at, an instruction's start
            n['leaf'] += 1
            if not lo <= va < lo + size or va not in ins:
                bad.append(f'leaf {name} at {va:#x}: no instruction of {name} starts there')
            elif past and name == past_fn:
                n['past'] += 1
                if not [a for a, (ln, c) in ins.items() if c == past and a + ln == va]:
                    bad.append(f'leaf {name} at {va:#x}: not just past a {past} instruction')
        else:
            # a caller: its return address, as pprof wants it: the end of a call
            # instruction of its function (va - 1 inside the call, va past it)
            n['caller'] += 1
            call = [a for a, (ln, c) in ins.items() if c is True and a < va == a + ln]
            if not call or not lo <= call[0] < lo + size:
                bad.append(f'caller {name} at {va:#x}: not just past a call in {name}')
    print(f'{n["leaf"]} leaf ({n["past"]} in {past_fn}) and {n["caller"]} caller locations '
          f'in {path} checked against objdump -d, nm and readelf')
    if past and not n['past']:
        bad.append(f'no leaf in {past_fn} to check')
    if bad:
        return '; '.join(bad[:2])
    return None if n['caller'] >= 1 and sum(n.values()) >= 2 else f'{dict(n)} in {path}'


def check_rate(rawf, err, comm, hz, pct):
    samples, _, _ = raw(rawf)
    w = None
    for line in open(err):
        if line.startswith(comm + ' '):
            w = dict(x.split('=', 1) for x in line.split()[1:] if '=' in x)
    if not w:
        return f'no {comm} line from the workload'
    cpu = int(w['schedstat_ns'])
    n = sum(v[0] for v, _, l in samples if l.get('comm') == comm)
    ns = sum(v[1] for v, _, l in samples if l.get('comm') == comm)
    want = int(hz) * cpu / 1e9
    # cpu-clock samples keep the host's steal over the run, schedstat leaves it out: it
    # is allowed above (CI: +5.64% against 5%)
    st = steal_ms() * 1e6
    print(f'{comm}: {n} samples, {ns / 1e6:.1f} ms of cpu; {hz} Hz x {cpu / 1e6:.1f} ms '
          f'(its schedstat) = {want:.1f}: {100 * (n / want - 1):+.2f}%, cpu '
          f'{100 * (ns / cpu - 1):+.2f}% (steal {st / 1e6:.0f} ms)')
    if not -want * float(pct) / 100 <= n - want <= want * float(pct) / 100 + int(hz) * st / 1e9:
        return f'{n} samples, not {want:.0f} +-{pct}% (steal {st / 1e6:.0f} ms)'
    if not -cpu * float(pct) / 100 <= ns - cpu <= cpu * float(pct) / 100 + st:
        return f'{ns} ns of cpu, not its schedstat {cpu} +-{pct}% (steal {st / 1e6:.0f} ms)'
    return None


def check_tagfocus(path, fold):
    total, _ = top(path)
    rows = [(s, v) for s, v in folded(fold) if MARK.match(s.split(';')[-1])]
    want, n = sum(v for _, v in rows), len(rows)
    got = (total or 0) / 1000
    print(f'state=off-cpu: {got:.0f} us in pprof, folded off-CPU stacks {want} us ({n} lines)')
    if not rows or not want <= got < want + n:
        return f'{got:.0f} us, not the folded {want} (+ under 1 per line)'
    return None


def main():
    checks = {'raw': check_raw, 'traces': check_traces, 'top': check_top,
              'known': check_known, 'labels': check_labels, 'buildid': check_buildid,
              'rate': check_rate, 'addrs': check_addrs, 'tagfocus': check_tagfocus}
    try:
        why = checks[sys.argv[1]](*sys.argv[2:])
    except (OSError, ValueError, KeyError, IndexError, TypeError) as e:
        why = f'{sys.argv[1]}: {e!r}'
    if why:
        print(why)
        sys.exit(1)


if __name__ == '__main__':
    main()
