#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""circles.py - circles of source files that use each other, from the built objects.

A file uses another when it calls a function or reads a variable the other defines
(gcc-nm of the objects: U against T/D/B/R), or includes the other's header (X.h of
X.c) and names something it declares (a type, a macro, a function) that the file does
not define itself. CIRCLES_CALLS_ONLY=1: calls and variables alone; CIRCLES_OBJ=DIR/: the objects under DIR
(the Makefile's O=, build/asan/ for `make check SANITIZE=1`). Prints each circle (a strongly connected set of two files or more) on a line,
and exits 1 when there is one. Run after `make ftscope` in the tree's root:

    python3 scripts/circles.py [DIR...]      (default: lib events output tracer
                                              analyzers engine cmd)
"""
import os
import re
import subprocess
import sys

dirs = sys.argv[1:] or ["lib", "events", "output", "tracer", "analyzers", "engine", "cmd"]
srcs = sorted(f"{d}/{f}" for d in dirs if os.path.isdir(d)
              for f in os.listdir(d) if f.endswith(".c"))
defs, uses = {}, {}
# CIRCLES_OBJ: where the objects are, as the Makefile's O= (build/asan/ for an ASan build)
obj = os.environ.get("CIRCLES_OBJ", "")
for c in srcs:
    o = obj + c[:-2] + ".o"
    uses[c] = set()
    if not os.path.exists(o):
        sys.exit(f"circles.py: {o} missing: run make ftscope first")
    out = subprocess.run(["gcc-nm", o], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        p = line.split()
        if len(p) == 2 and p[0] == "U":
            uses[c].add(p[1])
        elif len(p) == 3 and p[1] in "TDBRVW":
            defs.setdefault(p[2], c)
# what a header declares: its functions, structs, enums, macros, constants and
# variables (not the types its prototypes merely name)
def declared(h):
    text = re.sub(r"/\*.*?\*/", "", open(h).read(), flags=re.S)
    names = set(re.findall(r"\b(ft_\w+)\s*\(", text))
    names |= set(re.findall(r"\b(?:struct|enum|union)\s+(ft_\w+)\s*\{", text))
    names |= set(re.findall(r"^#define\s+(\w+)", text, re.M))
    names |= set(re.findall(r"\b(FT_\w+)\b", text)) - {re.sub(r"\W", "_", h.upper())}
    names |= set(re.findall(r"^extern\b.*?\b(ft_\w+)\s*[\[;]", text, re.M))
    return {n for n in names if not re.match(r"FTSCOPE_\w+_H$", n)}

own = {c: {l.split()[2] for l in subprocess.run(["gcc-nm", obj + c[:-2] + ".o"],
                                                 capture_output=True, text=True).stdout.splitlines()
           if len(l.split()) == 3 and l.split()[1] in "TDBRVW"} for c in srcs}
edges = {c: set() for c in srcs}
for c in srcs:
    for sym in uses[c]:
        if sym in defs and defs[sym] != c:
            edges[c].add(defs[sym])
    if os.environ.get("CIRCLES_CALLS_ONLY"):
        continue
    text = open(c).read()
    code = re.sub(r"/\*.*?\*/|//[^\n]*", "", text, flags=re.S)
    words = set(re.findall(r"\b[A-Za-z_]\w*\b", code)) - own[c]
    for inc in re.findall(r'^#include "([a-z_]+/[a-z0-9_]+)\.h"', text, re.M):
        if inc + ".c" in edges and inc + ".c" != c and words & declared(inc + ".h"):
            edges[c].add(inc + ".c")

# Tarjan's strongly connected components
index, low, stack, on, sccs, n = {}, {}, [], set(), [], [0]
def visit(v):
    index[v] = low[v] = n[0]
    n[0] += 1
    stack.append(v)
    on.add(v)
    for w in sorted(edges[v]):
        if w not in index:
            visit(w)
            low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        scc = []
        while True:
            w = stack.pop()
            on.discard(w)
            scc.append(w)
            if w == v:
                break
        if len(scc) > 1:
            sccs.append(sorted(scc))
sys.setrecursionlimit(10000)
for v in srcs:
    if v not in index:
        visit(v)
for scc in sorted(sccs):
    # one edge each way names why: which file uses which
    why = "; ".join(f"{a} -> {b}" for a in scc for b in sorted(edges[a]) if b in scc)
    print(f"{len(scc)} files: {' '.join(scc)}  ({why})")
sys.exit(1 if sccs else 0)
