# SPDX-License-Identifier: GPL-2.0
"""The exporter soak (tests/live/soak.sh; make soak): two ftscope exporters under process
churn, scraped each second, sampled every SAMPLE seconds, judged after a warm-up.

  run LOG URL PID FILE PID SECS SAMPLE   scrape URL (ftscope PID) and read FILE (ftscope
                                PID) each second for SECS s; every SAMPLE s the two
                                processes' RSS and open fds and the scrapes' latencies;
                                each scrape against the one before it (regress), its
                                series counted, its lost events; all into LOG (JSON)
  series LOG MAX                at every scrape at most MAX own series and one "other"
                                per histogram family, and exactly that at the end
  monotonic LOG                 no counter, bucket, _sum or _count went down, no series
                                went away, between any two scrapes of an exporter
  lost LOG OUT...               ftscope_events_lost_total 0 at every scrape and each
                                footer of the printed OUT files "0 lost"
  rss LOG WARMUP KIB KIB        each exporter's RSS (runqlat's, wakeup's) grew at most
                                KIB after WARMUP s
  fds LOG WARMUP                each exporter's open fds the same at every sample after
                                WARMUP s
  latency LOG P99MS             every scrape answered whole; p99 of the scrape latency
                                at most P99MS ms
  regress A B                   two saved scrapes: what went down or away from A to B
  figures LOG                   the figures docs/benchmarks.md gives, one line
"""
import json
import os
import re
import sys
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from prom_check import die, parse_text  # noqa: E402

FAMILIES = ("runqlat", "wakeup")
LOST = re.compile(r'^ftscope_events_lost_total\{cpu="(\d+)"\} (\S+)$', re.M)
EVENTS = re.compile(r"^ftscope_events_total (\S+)$", re.M)


def flat(text):
    """every sample of an exposition we judge: {(family, labels, part): value}, with
    prom_check's parser for the histograms and the two counters by their lines"""
    out = {}
    for fam in FAMILIES:
        for labels, s in parse_text(text, fam).items():
            for le, v in s["bucket"].items():
                out[(fam, labels, "le=%r" % le)] = v
            for part in ("sum", "count"):
                if part in s:
                    out[(fam, labels, part)] = s[part]
    for cpu, v in LOST.findall(text):
        out[("events_lost_total", (("cpu", cpu),), "")] = float(v)
    m = EVENTS.search(text)
    if m:
        out[("events_total", (), "")] = float(m.group(1))
    return out


def regress(a, b):
    """what went down or away from flat scrape a to flat scrape b: a list of lines"""
    bad = []
    for k, v in a.items():
        if k not in b:
            bad.append(f"{k[0]}{dict(k[1])} {k[2]} went away")
        elif b[k] < v:
            bad.append(f"{k[0]}{dict(k[1])} {k[2]} went down {v:g} -> {b[k]:g}")
    return bad


def series(text):
    """{family: (own series, "other" series)} of one exposition"""
    out = {}
    for fam in FAMILIES:
        keys = list(parse_text(text, fam))
        if keys:
            other = sum(all(v == "other" for _, v in k) and k != () for k in keys)
            out[fam] = (len(keys) - other, other)
    return out


def whole(text):
    """an exposition ends with the lost counters' last line and a newline"""
    return text.endswith("\n") and "ftscope_events_lost_total{cpu=" in \
        text.splitlines()[-1]


def proc(pid):
    """(VmRSS KiB, open fds) of pid; fds the least of three looks (a file being
    replaced holds one for a moment)"""
    rss = None
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            rss = int(line.split()[1])
    fds = []
    for _ in range(3):
        fds.append(len(os.listdir(f"/proc/{pid}/fd")))
        time.sleep(0.05)
    return rss, min(fds)


class Exporter:
    """one exporter's scrapes: the last one, the regressions, series, losses"""

    def __init__(self, name, pid, get):
        self.name, self.pid, self.get = name, pid, get
        self.last, self.first_text, self.last_text = None, None, None
        self.n, self.bad, self.partial, self.lost = 0, [], 0, 0
        self.series, self.lat = [], []

    def scrape(self):
        t0 = time.monotonic()
        try:
            text = self.get()
        except OSError as e:
            self.bad.append(f"scrape {self.n}: {e}")
            return
        self.lat.append(time.monotonic() - t0)
        if not whole(text):
            self.partial += 1
            return
        cur = flat(text)
        if self.last is not None:
            self.bad += [f"scrape {self.n}: {b}" for b in regress(self.last, cur)]
        self.lost = max([self.lost] + [v for k, v in cur.items()
                                       if k[0] == "events_lost_total"])
        self.series.append(series(text))
        self.last, self.last_text = cur, text
        self.first_text = self.first_text or text
        self.n += 1


def cmd_run(log, url, rpid, path, wpid, secs, sample):
    secs, sample = float(secs), float(sample)

    def get_url():
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.read().decode()

    def get_file():
        with open(path) as f:
            return f.read()

    ex = [Exporter("runqlat", int(rpid), get_url), Exporter("wakeup", int(wpid), get_file)]
    start = time.monotonic()
    samples, next_sample, k = [], 0.0, 0
    while True:
        now = time.monotonic() - start
        if now >= next_sample:
            row = {"t": round(now, 1)}
            for e in ex:
                rss, fds = proc(e.pid)
                lat = sorted(e.lat[k:]) or [0]
                row[e.name] = {"rss": rss, "fds": fds, "scrapes": len(lat),
                               "p50": lat[len(lat) // 2],
                               "p99": lat[min(len(lat) - 1, int(0.99 * len(lat)))],
                               "max": lat[-1]}
            k = len(ex[0].lat)
            samples.append(row)
            next_sample += sample
            if now >= secs:
                break
        for e in ex:
            e.scrape()
        time.sleep(max(0.0, 1.0 - (time.monotonic() - start - now)))
    for e in ex:
        with open(f"{log}.{e.name}.first", "w") as f:
            f.write(e.first_text or "")
        with open(f"{log}.{e.name}.last", "w") as f:
            f.write(e.last_text or "")
    json.dump({"samples": samples,
               "exporters": {e.name: {"scrapes": e.n, "bad": e.bad[:20],
                                      "nbad": len(e.bad), "partial": e.partial,
                                      "lost": e.lost, "series": e.series,
                                      "lat": e.lat} for e in ex}},
              open(log, "w"))
    print(f"{ex[0].n} + {ex[1].n} scrapes, {len(samples)} samples")


def load(log):
    return json.load(open(log))


def cmd_series(log, mx):
    mx, d, msg = int(mx), load(log), []
    for name, e in d["exporters"].items():
        if not e["series"]:
            die(f"{name}: no scrape")
        for i, s in enumerate(e["series"]):
            for fam, (own, other) in s.items():
                if own > mx or other > 1:
                    die(f"{name} scrape {i}: {fam} has {own} own series and {other} "
                        f"other, --max-series {mx}")
        end = e["series"][-1]
        if not end or any(v != [mx, 1] for v in end.values()):
            die(f"{name}: at the end {end}, expected {mx} own series and one other")
        msg.append(f"{name} {mx} + other at the end of {len(e['series'])} scrapes")
    print("; ".join(msg))


def cmd_monotonic(log):
    d, msg = load(log), []
    for name, e in d["exporters"].items():
        if e["nbad"]:
            die(f"{name}: {e['nbad']} regressions, first: {e['bad'][0]}")
        msg.append(f"{name}: {e['scrapes']} scrapes")
    print("nothing went down or away: " + ", ".join(msg))


def cmd_lost(log, *outs):
    d = load(log)
    for name, e in d["exporters"].items():
        if e["lost"]:
            die(f"{name}: ftscope_events_lost_total reached {e['lost']:g}")
    foot = 0
    for out in outs:
        for n in re.findall(r"events processed, (.*)", open(out).read()):
            foot += 1
            if not n.startswith("0 lost"):
                die(f"{out}: a footer says {n}")
    if not foot:
        die(f"no footer in {' '.join(outs)}")
    print(f"0 lost at every scrape and in {foot} footers")


def after(d, warm):
    """the samples from the warm-up's end on"""
    s = [r for r in d["samples"] if r["t"] >= float(warm)]
    if len(s) < 2:
        die(f"{len(s)} samples after the warm-up of {warm} s")
    return s


def cmd_rss(log, warm, *kib):
    s, msg = after(load(log), warm), []
    for name, kib in zip(FAMILIES, kib):
        v = [r[name]["rss"] for r in s]
        grew = max(v) - v[0]
        if grew > int(kib):
            die(f"{name}: RSS {v[0]} KiB at {s[0]['t']} s, up to {max(v)} KiB by "
                f"{s[-1]['t']} s: +{grew} KiB, bound {kib}")
        msg.append(f"{name} {v[0]} -> {v[-1]} KiB (max +{grew})")
    print(f"after {warm} s: " + ", ".join(msg))


def cmd_fds(log, warm):
    s, msg = after(load(log), warm), []
    for name in FAMILIES:
        v = [r[name]["fds"] for r in s]
        if len(set(v)) != 1:
            die(f"{name}: open fds {v} after {warm} s")
        msg.append(f"{name} {v[0]}")
    print(f"open fds constant over {len(s)} samples: " + ", ".join(msg))


def pct(v, q):
    v = sorted(v)
    return v[min(len(v) - 1, int(q * len(v)))]


def cmd_latency(log, p99ms):
    e = load(log)["exporters"]["runqlat"]
    if e["partial"] or len(e["lat"]) != e["scrapes"] or not e["lat"]:
        die(f"{len(e['lat'])} scrapes answered, {e['partial']} not whole")
    p99 = pct(e["lat"], 0.99) * 1e3
    if p99 > float(p99ms):
        die(f"scrape latency p99 {p99:.1f} ms, bound {p99ms} ms")
    print(f"{len(e['lat'])} scrapes whole, latency p50 {pct(e['lat'], 0.5) * 1e3:.1f} "
          f"p99 {p99:.1f} max {max(e['lat']) * 1e3:.1f} ms")


def cmd_regress(a, b):
    bad = regress(flat(open(a).read()), flat(open(b).read()))
    if bad:
        die(f"{len(bad)} regressions, first: {bad[0]}")
    print("nothing went down or away")


def cmd_figures(log):
    d = load(log)
    s0, s1 = d["samples"][0], d["samples"][-1]
    e = d["exporters"]
    lat = e["runqlat"]["lat"]
    print(" ".join(f"{n}: rss {s0[n]['rss']} -> {s1[n]['rss']} KiB (min/max after 1st: "
                   f"{min(r[n]['rss'] for r in d['samples'][1:])}/"
                   f"{max(r[n]['rss'] for r in d['samples'][1:])}), fds {s0[n]['fds']} "
                   f"-> {s1[n]['fds']};" for n in FAMILIES) +
          f" scrape ms p50 {pct(lat, .5) * 1e3:.1f} p99 {pct(lat, .99) * 1e3:.1f} "
          f"max {max(lat) * 1e3:.1f}; scrapes {e['runqlat']['scrapes']} + "
          f"{e['wakeup']['scrapes']}; series {e['runqlat']['series'][-1]} "
          f"{e['wakeup']['series'][-1]}")
    for r in d["samples"]:
        print(f"  t {r['t']:7.1f} " + " ".join(
            f"{n} rss {r[n]['rss']} fds {r[n]['fds']} p99 {r[n]['p99'] * 1e3:.1f} ms"
            for n in FAMILIES))


if __name__ == "__main__":
    {"run": cmd_run, "series": cmd_series, "monotonic": cmd_monotonic,
     "lost": cmd_lost, "rss": cmd_rss, "fds": cmd_fds, "latency": cmd_latency,
     "regress": cmd_regress, "figures": cmd_figures}[sys.argv[1]](*sys.argv[2:])
