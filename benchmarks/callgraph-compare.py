#!/usr/bin/env python3
# benchmarks/callgraph-compare.py -- compares two call graphs in gprof's
# text format (gprof -b -q, aprof -b -q) count by count: every arc and every
# routine's calls that gprof reports must be aprof's.  Used by lua.sh and
# fentry.sh.
#
# Usage: callgraph-compare.py GPROF_GRAPH APROF_GRAPH [SYMBOLS]
# SYMBOLS: nm -n --defined-only of gprof's executable, for the routines
# gprof drops from its symbols (see gprof_names).  Prints the differences
# and a summary; exits 1 if any.
import re, sys

HEADER = re.compile(r'^index\s+%\s+time\s+self\s+children\s+called\s+name')
# [i] %time self children [called[+self]] name [i]
PRIMARY = re.compile(r'^\[(\d+)\]\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+'
                     r'(?:(\d+)(?:\+(\d+))?\s+)?(\S.*?)\s+\[(\d+)\]\s*$')
# [self children] count[/total] name [i]: no times (and no /total) within a
# cycle and on self-recursive arcs
ARC = re.compile(r'^\s+(?:[\d.]+\s+[\d.]+\s+)?(\d+)(?:/(\d+))?\s+(\S.*?)\s+\[(\d+)\]\s*$')
CYCLE_TAG = re.compile(r' <cycle \d+>$')
WHOLE = re.compile(r'^<cycle \d+ as a whole>$')


def parse(path):
    """(calls, arcs, shared, spont) from a call graph: calls maps a routine
    to (calls, self-calls) from its primary line; arcs maps (caller, callee)
    to the count on the caller's child line; shared holds names that several
    routines (static functions of different files) share: their figures are
    added up, and they are reported apart; spont holds the routines with a
    <spontaneous> parent line."""
    entries, cur, seen, spontaneous = [], None, False, False
    with open(path, errors='replace') as f:
        for line in f:
            line = line.rstrip('\n')
            if not seen:
                seen = bool(HEADER.match(line))
                continue
            if line.startswith('\f') or line.startswith('Index by function name'):
                break
            if re.match(r'^-+$', line):
                cur, spontaneous = None, False
                continue
            if line.strip() == '<spontaneous>':
                spontaneous = True
                continue
            m = PRIMARY.match(line)
            if m:
                cur = {'name': CYCLE_TAG.sub('', m.group(4)), 'index': m.group(5),
                       'calls': (int(m.group(2) or 0), int(m.group(3) or 0)),
                       'children': [], 'spontaneous': spontaneous}
                entries.append(cur)
                continue
            m = ARC.match(line)
            if m and cur is not None:
                cur['children'].append((CYCLE_TAG.sub('', m.group(3)), m.group(4),
                                        int(m.group(1))))
    if not seen:
        sys.exit('%s: no call graph in it' % path)
    indices = {}
    for e in entries:
        indices.setdefault(e['name'], set()).add(e['index'])
    shared = {n for n, s in indices.items() if len(s) > 1 and not WHOLE.match(n)}
    calls, arcs = {}, {}
    spont = {e['name'] for e in entries if e['spontaneous']}
    for e in entries:
        if WHOLE.match(e['name']):
            continue        # its lines are the members, not arcs
        c = calls.get(e['name'], (0, 0))
        calls[e['name']] = (c[0] + e['calls'][0], c[1] + e['calls'][1])
        for callee, _, n in e['children']:
            key = (e['name'], callee)
            arcs[key] = arcs.get(key, 0) + n
    return calls, arcs, shared, spont


def show(c):
    return 'none' if c is None else '%d+%d' % c if c[1] else '%d' % c[0]


def gprof_names(path, gnames, anames):
    """Maps each routine that gprof dropped from its symbols to the one it
    charges its calls to: the nearest before it in address order (from nm
    -n's listing at PATH) that it kept.  Which it drops is not one rule
    (GCC's clones and parts at -O2: NAME.isra.N and NAME.part.N, and
    NAME.constprop.N in some programs only, as the name after it in the
    string table decides): taken as the routines called in aprof's graph
    (ANAMES) of which gprof's (GNAMES) has no entry, which it would have if
    it had kept them, being called; and the one charged has an entry in
    gprof's graph, being called there."""
    gnames = set(gnames)
    dropped = set(anames) - gnames
    names, last = {}, None
    with open(path) as f:
        for line in f:
            fields = line.split()
            if len(fields) != 3 or fields[1] not in 'tTwW':
                continue
            if fields[2] in dropped:
                if last is not None:
                    names[fields[2]] = last
            elif fields[2] in gnames:
                last = fields[2]
    return names


def as_gprof(calls, arcs, names):
    """CALLS and ARCS with each dropped routine's taken as the one gprof
    charges them to; an arc that becomes a routine's to itself counts as
    its recursive calls, as gprof's do."""
    ren = lambda n: names.get(n, n)
    total, narcs = {}, {}
    for n, c in calls.items():
        total[ren(n)] = total.get(ren(n), 0) + c[0] + c[1]
    for (a, b), k in arcs.items():
        key = (ren(a), ren(b))
        narcs[key] = narcs.get(key, 0) + k
    ncalls = {}
    for n, t in total.items():
        r = narcs.get((n, n), 0)
        ncalls[n] = (t - r, r)
    return ncalls, narcs


gcalls, garcs, gshared, gspont = parse(sys.argv[1])
acalls, aarcs, ashared, aspont = parse(sys.argv[2])
if len(sys.argv) > 3:
    dropped_names = gprof_names(sys.argv[3], gcalls, [n for n, c in acalls.items() if c != (0, 0)])
    acalls, aarcs = as_gprof(acalls, aarcs, dropped_names)
    aspont = {dropped_names.get(n, n) for n in aspont}
shared = gshared | ashared
if shared:
    print('names shared by several routines, compared added up: ' + ' '.join(sorted(shared)))
differ = [k for k in sorted(garcs) if aarcs.get(k) != garcs[k]]
extra = sorted(k for k in aarcs if k not in garcs)
for k in differ:
    print('  arc %s -> %s: gprof %d, aprof %s' % (k[0], k[1], garcs[k], aarcs.get(k, 'none')))
for k in extra:
    print('  arc %s -> %s: gprof none, aprof %d' % (k[0], k[1], aarcs[k]))
# gprof counts no calls from code built without -pg: a routine called only
# from there (main, from the C library) is <spontaneous> with an empty
# calls column.  aprof counts every entry to an instrumented routine, so
# its calls are not compared: only that aprof too has it spontaneous.
# A routine gprof lists without calls and not spontaneous (sampled only)
# is missing from aprof, which sees calls only: its count is taken as 0.
unseen = sorted(n for n in gcalls if gcalls[n] == (0, 0) and n in gspont and n in aspont)
cdiffer = [n for n in sorted(gcalls) if n not in unseen and acalls.get(n, (0, 0)) != gcalls[n]]
for n in cdiffer:
    print('  calls of %s: gprof %s, aprof %s' % (n, show(gcalls[n]), show(acalls.get(n))))
for n in unseen:
    print('  (calls of %s not compared: spontaneous, gprof none, aprof %s)'
          % (n, show(acalls.get(n))))
shared_arcs = [k for k in garcs if k[0] in shared or k[1] in shared]
print('arcs compared: %d, equal: %d, different: %d'
      % (len(garcs), len(garcs) - len(differ), len(differ)))
print('arcs only in aprof: %d' % len(extra))
ncmp = len(gcalls) - len(unseen)
print('routines compared: %d, equal: %d, different: %d'
      % (ncmp, ncmp - len(cdiffer), len(cdiffer)))
if shared_arcs:
    print('of the arcs, %d involve shared names' % len(shared_arcs))
total = sum(garcs.values())
print('calls on the arcs compared: %d' % total)
sys.exit(1 if differ or extra or cdiffer else 0)
