# SPDX-License-Identifier: GPL-2.0
"""Checks of tests/live/prometheus.sh: a real Prometheus's view of ftscope's
/metrics, and --prometheus-file's text, against what ftscope printed.

  ports                         two free loopback TCP ports
  wait-scrape URL T             wait until Prometheus holds a scrape taken 3 s after
                                T (the live loop merges within a second of a record,
                                and Prometheus scrapes each second)
  scrape OUT URL T              at time T, Prometheus's count, buckets and p99
                                against the histogram and count ftscope printed
  metadata URL                  Prometheus negotiated OpenMetrics (family names, unit)
  file OUT FILE                 the file's count and buckets against the printed ones
  watch DIR NAME SECS           inotify on DIR for SECS s: NAME only ever renamed in
                                whole, its counts never going down
  threads OUT URL T             -L at time T: the threads' series, their comm labels
                                made UTF-8
  groups OUT FILE [N]           -P/-L/--per-cpu: one series per printed group, with
                                its count; with N (--max-series), N and one "other"
"""
import ctypes
import json
import os
import re
import socket
import struct
import sys
import time
import urllib.parse
import urllib.request

TOP = 36                # output/prom.c's top slot
UNITS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}


def die(msg):
    print(msg)
    sys.exit(1)


def printed(path):
    """ftscope's text: [(rows {slot: count}, count, p99 s, avg s, its rounding s)]"""
    reps, rows = [], {}
    for line in open(path):
        m = re.match(r"\s+(\d+) -> (\d+)\s+: (\d+)", line)
        if m:
            hi = int(m.group(2))
            rows[hi.bit_length() if hi else 1] = int(m.group(3))
            continue
        m = re.match(r"count (\d+)(?:, avg ([\d.]+) (\w+).*p99 ([\d.]+) (\w+))?", line)
        if m:
            avg, err, p99 = 0, 0, None
            if m.group(2):
                # avg to its printed digits: within half its last one
                u = UNITS[m.group(3)]
                avg = float(m.group(2)) * u
                dec = len(m.group(2).partition(".")[2])
                err = 0.5 * 10 ** -dec * u
                p99 = float(m.group(4)) * UNITS[m.group(5)]
            reps.append((rows, int(m.group(1)), p99, avg, err))
            rows = {}
    return reps


def le_of(k, div_ns=1000):
    return ((div_ns << k) - 1) * 1e-9


def cum_rows(rows):
    """cumulative counts of slots 1..TOP from printed rows"""
    out, c = [], 0
    for k in range(1, TOP + 1):
        c += rows.get(k, 0)
        out.append(c)
    return out


def check_buckets(buckets, rows, count, what):
    """buckets: {le float: value}: the fixed le set, each the printed rows below it"""
    want = cum_rows(rows)
    les = sorted(b for b in buckets if b != float("inf"))
    if len(les) != TOP:
        die(f"{what}: {len(les)} finite buckets, expected {TOP}")
    for k, le in enumerate(les, 1):
        if abs(le - le_of(k)) > 1e-12 * le_of(k):
            die(f"{what}: bucket {k} has le={le!r}, expected {le_of(k)!r}")
        if buckets[le] != want[k - 1]:
            die(f"{what}: le={le} holds {buckets[le]}, the printed rows "
                f"up to {2 ** k - 1} us hold {want[k - 1]}")
    if buckets.get(float("inf")) != count:
        die(f"{what}: +Inf holds {buckets.get(float('inf'))}, printed count {count}")


def api(url, expr, t):
    q = urllib.parse.urlencode({"query": expr, "time": f"{t:.3f}"})
    with urllib.request.urlopen(f"{url}/api/v1/query?{q}", timeout=10) as r:
        res = json.load(r)
    if res.get("status") != "success":
        die(f"{expr}: {res}")
    return res["data"]["result"]


def slot_of(v):
    """the bucket (slot) holding v seconds: the first le >= v"""
    for k in range(1, TOP + 1):
        if v <= le_of(k) + 1e-15:
            return k
    return TOP + 1


def cmd_ports():
    socks = []
    for _ in range(2):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        socks.append(s)
    print(" ".join(str(s.getsockname()[1]) for s in socks))


def cmd_wait_scrape(url, t):
    t = float(t) + 3
    for _ in range(300):
        r = api(url, "timestamp(ftscope_runqlat_seconds_count)", time.time())
        if r and float(r[0]["value"][1]) > t:
            print(f"scrape at {float(r[0]['value'][1]) - t:.2f} s after")
            return
        time.sleep(0.1)
    die("no scrape after the mark in 30 s")


def summed(reps):
    """the reports' counts and rows added up: (count, {slot: count})"""
    rows = {}
    for r in reps:
        for k, v in r[0].items():
            rows[k] = rows.get(k, 0) + v
    return sum(r[1] for r in reps), rows


def cmd_scrape(out, url, t):
    t = float(t)
    reps = printed(out)
    total, rows = summed(reps)
    cnt = api(url, "ftscope_runqlat_seconds_count", t)
    if len(cnt) != 1:
        die(f"{len(cnt)} count series at the mark")
    got = int(float(cnt[0]["value"][1]))
    if got != total:
        die(f"Prometheus's _count {got}, ftscope printed {total} "
            f"({' + '.join(str(r[1]) for r in reps)})")
    b = {float(x["metric"]["le"]): int(float(x["value"][1]))
         for x in api(url, "ftscope_runqlat_seconds_bucket", t)}
    check_buckets(b, rows, total, "Prometheus")
    msg = f"_count {got} = printed, {TOP} buckets = printed rows"
    if len(reps) == 1:
        q = api(url, "histogram_quantile(0.99, sum by (le) "
                "(ftscope_runqlat_seconds_bucket))", t)
        pq, p99 = float(q[0]["value"][1]), reps[0][2]
        kq, kp = slot_of(pq), slot_of(p99)
        # the rows' own p99 bucket: the first whose cumulative count reaches 0.99 n
        kr = next(k for k, c in enumerate(cum_rows(rows), 1) if c >= 0.99 * total)
        if kq != kr:
            die(f"histogram_quantile {pq:.6g} s in bucket {kq}, the printed rows "
                f"put p99 in {kr}")
        # ftscope's p99 is within 0.78% of the value (hist.h) and printed to 3
        # digits: it may sit in the next bucket only that near to the edge
        edge = le_of(min(kq, kp))
        if kq != kp and not (abs(kq - kp) == 1 and abs(p99 - edge) <= 0.01 * edge):
            die(f"histogram_quantile {pq:.6g} s (bucket {kq}), ftscope's p99 "
                f"{p99:.6g} s (bucket {kp})")
        msg += f"; p99 {pq * 1e6:.1f} us (bucket {kq}) vs printed {p99 * 1e6:.1f} us"
    print(msg)


def cmd_metadata(url):
    q = urllib.parse.urlencode({"match_target": '{job="ftscope"}'})
    with urllib.request.urlopen(f"{url}/api/v1/targets/metadata?{q}", timeout=10) as r:
        md = {m["metric"]: m for m in json.load(r)["data"]}
    # in OpenMetrics the counter family is named without _total, and # UNIT is read
    if "ftscope_events" not in md or md["ftscope_events"]["type"] != "counter":
        die(f"no OpenMetrics counter family ftscope_events: {sorted(md)}")
    if md.get("ftscope_runqlat_seconds", {}).get("unit") != "seconds":
        die(f"ftscope_runqlat_seconds has no unit: {md.get('ftscope_runqlat_seconds')}")
    print("families ftscope_events (counter), ftscope_runqlat_seconds (unit seconds)")


def parse_text(text, family="runqlat"):
    """the samples of ftscope_FAMILY_seconds in an exposition: {labels: {suffix: value or
    buckets}}"""
    ser = {}
    for line in text.splitlines():
        m = re.match(r'ftscope_%s_seconds_(bucket|sum|count)(?:\{(.*)\})? (\S+)$' % family,
                     line)
        if not m:
            continue
        labels = dict(re.findall(r'(\w+)="((?:[^"\\]|\\.)*)"', m.group(2) or ""))
        le = labels.pop("le", None)
        s = ser.setdefault(tuple(sorted(labels.items())), {"bucket": {}})
        if m.group(1) == "bucket":
            s["bucket"][float(le)] = int(m.group(3))
        else:
            s[m.group(1)] = float(m.group(3))
    return ser


def cmd_file(out, path):
    reps = printed(out)
    total, rows = summed(reps)
    ser = parse_text(open(path).read())
    if list(ser) != [()]:
        die(f"series {list(ser)}, expected one unlabelled")
    s = ser[()]
    if int(s["count"]) != total:
        die(f"file _count {int(s['count'])}, printed {total}")
    check_buckets(s["bucket"], rows, total, "file")
    # _sum in seconds: the printed avg times the count, within the avg's rounding
    want = sum(r[3] * r[1] for r in reps)
    if abs(s["sum"] - want) > sum(r[4] * r[1] for r in reps) + 1e-9:
        die(f"file _sum {s['sum']} s, printed avg x count {want:.6f} s")
    # ftscope_events_total: the run's events, the last footer's (or its total:)
    ev = re.findall(r"(\d+) events processed", open(out).read())
    got = re.search(r"^ftscope_events_total (\d+)$", open(path).read(), re.M)
    if not got or got.group(1) != ev[-1]:
        die(f"ftscope_events_total {got and got.group(1)}, printed {ev[-1]}")
    print(f"file _count {total} = printed, buckets = printed rows, _sum {s['sum']} s, "
          f"{ev[-1]} events")


def cmd_watch(d, name, secs):
    IN_MODIFY, IN_CLOSE_WRITE, IN_MOVED_TO, IN_CREATE = 0x2, 0x8, 0x80, 0x100
    libc = ctypes.CDLL(None, use_errno=True)
    fd = libc.inotify_init1(os.O_NONBLOCK)
    libc.inotify_add_watch(fd, d.encode(), IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO |
                           IN_CREATE)
    end, renames, bad, last = time.time() + float(secs), 0, [], -1
    print("watching", flush=True)
    while time.time() < end:
        try:
            buf = os.read(fd, 65536)
        except BlockingIOError:
            time.sleep(0.005)
            continue
        i = 0
        while i < len(buf):
            _, mask, _, ln = struct.unpack_from("iIII", buf, i)
            n = buf[i + 16:i + 16 + ln].rstrip(b"\0").decode()
            i += 16 + ln
            if n != name:
                continue
            if mask & IN_MOVED_TO:
                renames += 1
                try:
                    text = open(os.path.join(d, name)).read()
                except FileNotFoundError:
                    continue
                if not text.endswith("\n") or "ftscope_events_lost_total{cpu=" not in \
                        text.splitlines()[-1]:
                    bad.append("a partial file")
                c = parse_text(text).get((), {}).get("count", 0)
                if c < last:
                    bad.append(f"_count went down {last} -> {c}")
                last = c
            else:
                bad.append(f"{name} written in place (mask {mask:#x})")
    if bad or not renames:
        die(f"{renames} renames; {'; '.join(bad[:3]) or 'none seen'}")
    print(f"{renames} whole replacements by rename, _count never down (last {last:.0f})")


def cmd_groups(out, path, n=None):
    """-P, -L, --per-cpu: a series per printed group, labelled as the group, with
    its count; with N (--max-series), N of them and one "other" with the rest"""
    per, cur = {}, None
    for line in open(out):
        m = re.match(r"(pid|tid|cpu) = (\d+)(?: (.*))?$", line)
        if m:
            cur = ((("cpu", m.group(2)),) if m.group(1) == "cpu" else
                   (("comm", m.group(3)), (m.group(1), m.group(2))))
        m = re.match(r"count (\d+)", line)
        if m and cur:
            per[tuple(sorted(cur))] = int(m.group(1))
            cur = None
    ser = {k: int(v["count"]) for k, v in parse_text(open(path).read()).items()}
    names = {k for g in per for k, _ in g}
    other = tuple(sorted((k, "other") for k in names))
    own = {k: v for k, v in ser.items() if k != other}
    for k, v in own.items():
        if per.get(k) != v:
            die(f"series {dict(k)}: _count {v}, printed {per.get(k)}")
    rest = sum(v for k, v in per.items() if k not in own)
    if n is None:
        if other in ser or len(own) != len(per):
            die(f"{len(own)} series for {len(per)} printed groups")
        print(f"{len(per)} series = the printed groups ({', '.join(sorted(names))}), "
              f"{sum(per.values())} in all")
        return
    if len(own) != int(n) or ser.get(other) != rest:
        die(f"{len(own)} own series, other {ser.get(other)}: expected {n} and "
            f"{rest} ({len(per)} groups printed)")
    print(f"{n} own series = their groups' counts, other {rest} = the other "
          f"{len(per) - int(n)} groups' ({sum(per.values())} in all)")


def cmd_threads(out, url, t):
    """-L scraped by Prometheus: a series per printed thread with its count, the comm
    label the printed bytes with each one that is not UTF-8 as U+FFFD"""
    per, cur = {}, None
    for line in open(out, "rb"):
        m = re.match(rb"tid = (\d+) (.*)\n", line)
        if m:
            cur = m.groups()
        m = re.match(rb"count (\d+)", line)
        if m and cur:
            per[cur[0].decode()] = (cur[1], int(m.group(1)))
            cur = None
    got = {x["metric"]["tid"]: (x["metric"]["comm"], int(float(x["value"][1])))
           for x in api(url, "ftscope_runqlat_seconds_count", float(t))}
    if set(got) != set(per):
        die(f"Prometheus holds threads {sorted(got)}, ftscope printed {sorted(per)}")
    odd = 0
    for tid, (comm, n) in per.items():
        want, i = "", 0
        while i < len(comm):      # per byte, as output/prom.c does
            for k in (4, 3, 2, 1):
                try:
                    want += comm[i:i + k].decode()
                    i += k
                    break
                except UnicodeDecodeError:
                    continue
            else:
                want += "\ufffd"
                i += 1
        odd += "\ufffd" in want
        if got[tid] != (want, n):
            die(f"tid {tid}: Prometheus {got[tid]}, printed {(want, n)}")
    if not odd:
        die("no thread name with bytes that are not UTF-8")
    print(f"{len(per)} threads, {odd} named with stray bytes, counts as printed")


if __name__ == "__main__":
    {"ports": cmd_ports, "wait-scrape": cmd_wait_scrape, "scrape": cmd_scrape,
     "metadata": cmd_metadata, "file": cmd_file, "watch": cmd_watch,
     "groups": cmd_groups, "threads": cmd_threads}[sys.argv[1]](*sys.argv[2:])
