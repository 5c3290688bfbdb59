#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""l2tpseld's structure, measured from its sources (userspace/l2tpseld/).

Prints: the headers each file includes and how many files include each
header; which file calls functions defined in which (a call is a name
followed by '(' in a function body, its comments and string literals left
out, matched against the functions the other files define without
`static`); the circles in that graph (files
that call each other, directly or round a loop); and the functions longer
than a limit (80 lines by default).

Text only, no compiler: macros that call functions are not seen, and a
name defined in two files (a test's stand-in) counts for each.

    scripts/l2d-structure.py [--dir DIR] [--long N]
"""
import argparse
import os
import re
import sys

FUNC_START = re.compile(r'^([A-Za-z_][\w\s\*]*?)\b([A-Za-z_]\w*)\s*\(')
CALL = re.compile(r'\b([A-Za-z_]\w*)\s*\(')
INCLUDE = re.compile(r'^#\s*include\s+"([^"]+)"')
# Comments and string or character literals: a function named there is not called.
NOT_CODE = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)


def code_only(text):
    """@text without its comments and literals (each a space)."""
    return NOT_CODE.sub(' ', text)


def functions(path):
    """(name, static, first line, line count, body text) of each definition."""
    lines = open(path, encoding='utf-8', errors='replace').read().split('\n')
    out = []
    i = 0
    while i < len(lines):
        m = FUNC_START.match(lines[i])
        if m and not lines[i].startswith(('typedef', 'return')):
            # the signature ends at a line that is "{" alone (kernel style)
            j = i
            while j < len(lines) and j < i + 8 and lines[j] != '{' and not lines[j].rstrip().endswith(';'):
                j += 1
            if j < len(lines) and lines[j] == '{':
                k = j + 1
                while k < len(lines) and lines[k] != '}':
                    k += 1
                name = m.group(2)
                static = lines[i].startswith('static')
                out.append((name, static, i + 1, k - i + 1, '\n'.join(lines[j:k])))
                i = k + 1
                continue
        i += 1
    return out


def sccs(nodes, edges):
    """Tarjan's strongly connected components of more than one node."""
    index, low, stack, on, res = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                res.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--dir', default=os.path.join(os.path.dirname(__file__), '..',
                                                  'userspace', 'l2tpseld'))
    ap.add_argument('--long', type=int, default=80)
    a = ap.parse_args()

    files = sorted(f for f in os.listdir(a.dir) if f.endswith(('.c', '.h')))
    includes = {}
    for f in files:
        with open(os.path.join(a.dir, f), encoding='utf-8', errors='replace') as fh:
            includes[f] = [m.group(1) for m in map(INCLUDE.match, fh) if m]

    defs, where = {}, {}
    for f in files:
        if f.endswith('.c'):
            defs[f] = functions(os.path.join(a.dir, f))
            for name, static, *_ in defs[f]:
                if not static:
                    where.setdefault(name, set()).add(f)

    calls = {}
    for f, fns in defs.items():
        for name, static, first, n, body in fns:
            for c in CALL.findall(code_only(body)):
                for g in where.get(c, ()):
                    if g != f:
                        calls.setdefault(f, {}).setdefault(g, set()).add(c)

    print('== includes (file: headers of this folder it includes)')
    for f in files:
        if includes[f]:
            print('%s: %s' % (f, ' '.join(includes[f])))
    print('\n== headers by how many files include them')
    count = {}
    for f in files:
        for h in includes[f]:
            count[h] = count.get(h, 0) + 1
    for h, n in sorted(count.items(), key=lambda x: (-x[1], x[0])):
        lines = sum(1 for _ in open(os.path.join(a.dir, h))) if os.path.exists(os.path.join(a.dir, h)) else 0
        print('%-16s %3d files  %4d lines' % (h, n, lines))

    print('\n== calls (file -> file: functions called)')
    for f in sorted(calls):
        for g in sorted(calls[f]):
            names = sorted(calls[f][g])
            print('%s -> %s: %d (%s%s)' % (f, g, len(names), ' '.join(names[:6]),
                                           ' ...' if len(names) > 6 else ''))

    print('\n== circles (files that reach each other through calls)')
    edges = {f: set(g) for f, g in calls.items()}
    comps = sccs(set(defs), edges)
    for c in comps:
        print(' '.join(c))
    print('\n== pairs that call each other directly')
    for f in sorted(edges):
        for g in sorted(edges[f]):
            if f < g and f in edges.get(g, ()):
                print('%s <-> %s' % (f, g))

    print('\n== functions over %d lines' % a.long)
    longs = [(n, f, name, first) for f, fns in defs.items() for name, _, first, n, _ in fns if n > a.long]
    for n, f, name, first in sorted(longs, reverse=True):
        print('%4d %s:%d %s' % (n, f, first, name))
    return 0


if __name__ == '__main__':
    sys.exit(main())
