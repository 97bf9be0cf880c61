#!/usr/bin/env python3
# benchmarks/callgraph-compare.py -- profiles one run with aprof and one
# with gprof, and compares their call graphs (aprof -b -q, gprof -b -q)
# count by count: every arc and every routine's calls that gprof reports
# must be aprof's.  Used by lua.sh and fentry.sh.
#
# Usage: callgraph-compare.py [--same-objects] APROF APROF_EXE AMON_OUT
#            GPROF_EXE GMON_OUT DIR
# APROF: the analyser; APROF_EXE and AMON_OUT: the aprof build and its
# profile; GPROF_EXE and GMON_OUT: the gprof build and its.  Writes the two
# graphs, aprof's JSON export and the comparison to DIR (agraph, ggraph,
# aprof.json, compare) and prints the comparison: the differences, what was
# set aside and why, and a summary.  Exits 1 if any difference is left.
#
# --same-objects: the two builds link the same objects (GCC's -pg -mfentry
# at -O2), so that both tools see the same routines, which they must name
# alike (same_names below); without it the builds are compiled apart (-O1
# -fno-inline), with none of GCC's clones and parts.
#
# gprof's mcount drops a call whose return address lies outside the
# executable (in the C or C++ library), so gprof counts no call of main,
# nor of a static constructor or an atexit destructor that the C library
# runs, nor of an exception's destructor that the C++ library runs when a
# catch clause ends (__cxa_end_catch).  aprof counts every call of a
# routine built for it: one made with no routine of the program active as
# spontaneous (its JSON export counts those), one made while a routine of
# the program is active (the catch clause's) on an arc from that routine.
# So aprof's counts are gprof's plus these two kinds, which are set aside
# and listed: its spontaneous calls, and the calls on arcs gprof lacks into
# routines of which gprof counts no call at all (any call of them from the
# executable gprof would have counted).
import json, os, re, shutil, subprocess, sys

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
    """(calls, arcs, shared) from a call graph: calls maps a routine to
    (calls, self-calls) from its primary line; arcs maps (caller, callee)
    to the count on the caller's child line, or on the callee's parent line
    where the caller has no entry of its own (gprof prints none of a routine
    that was neither called nor sampled: main, a routine's cold part);
    shared holds names that several routines (static functions of different
    files, a routine and its cold part) share: their figures are added up."""
    entries, cur, parents, seen = [], None, [], False
    with open(path, errors='replace') as f:
        for line in f:
            line = line.rstrip('\n')
            if not seen:
                seen = bool(HEADER.match(line))
                continue
            if line.startswith('\f') or line.startswith('Index by function name'):
                break
            if re.match(r'^-+$', line):
                cur, parents = None, []
                continue
            m = PRIMARY.match(line)
            if m:
                cur = {'name': CYCLE_TAG.sub('', m.group(4)), 'index': m.group(5),
                       'calls': (int(m.group(2) or 0), int(m.group(3) or 0)),
                       'children': [], 'parents': parents}
                entries.append(cur)
                continue
            m = ARC.match(line)
            if m:
                arc = (CYCLE_TAG.sub('', m.group(3)), m.group(4), int(m.group(1)))
                (cur['children'] if cur is not None else parents).append(arc)
    if not seen:
        sys.exit('%s: no call graph in it' % path)
    indices = {}
    for e in entries:
        indices.setdefault(e['name'], set()).add(e['index'])
    listed = {e['index'] for e in entries}
    shared = {n for n, s in indices.items() if len(s) > 1 and not WHOLE.match(n)}
    calls, arcs = {}, {}
    for e in entries:
        if WHOLE.match(e['name']):
            continue        # its lines are the members, not arcs
        c = calls.get(e['name'], (0, 0))
        calls[e['name']] = (c[0] + e['calls'][0], c[1] + e['calls'][1])
        for callee, _, n in e['children']:
            key = (e['name'], callee)
            arcs[key] = arcs.get(key, 0) + n
        for caller, index, n in e['parents']:
            if index not in listed:
                key = (caller, e['name'])
                arcs[key] = arcs.get(key, 0) + n
    return calls, arcs, shared


def spontaneous(path):
    """Routine name -> calls aprof counted with no routine active, from
    its JSON export (the arcs whose caller is null)."""
    with open(path) as f:
        doc = json.load(f)
    names = [r['name'] for r in doc['routines']]
    spont = {}
    for a in doc['arcs']:
        if a['caller'] is None and a['calls'] != 0:
            n = names[a['callee']]
            spont[n] = spont.get(n, 0) + a['calls']
    return spont


def show(c):
    return 'none' if c is None else '%d+%d' % c if c[1] else '%d' % c[0]


COLD = re.compile(r'^(.*)\.cold(?:\.[0-9]+)?$')


def functions(exe):
    """The names of EXE's function symbols (nm's classes t, T, w, W, i)."""
    names = set()
    nm = subprocess.run(['nm', '--defined-only', exe], capture_output=True, text=True, check=True)
    for line in nm.stdout.splitlines():
        f = line.split()
        if len(f) == 3 and f[1] in 'tTwWi':
            names.add(f[2])
    return names


def objcopy(exe, dest, option, lines):
    """objcopy --OPTION=LISTING EXE DEST, LISTING a file of LINES; a copy
    if there are none (objcopy fails on an empty listing)."""
    if not lines:
        shutil.copy2(exe, dest)
        return
    listing = dest + '.' + option
    with open(listing, 'w') as f:
        f.writelines(line + '\n' for line in sorted(lines))
    subprocess.run(['objcopy', '--' + option + '=' + listing, exe, dest], check=True)


def same_names(aprof_exe, gprof_exe, gmon, out):
    """Copies of the two builds (OUT/aprof, OUT/gprof; objcopy keeps the
    build-id, so aprof still reads the aprof build's profile) whose symbol
    tables make both tools name every address alike.  gprof names code by
    the function symbol at or before it, aprof a callee by the routine
    entered and a caller by the routine active; they differ where GCC at
    -O2 leaves routines gprof does not know by their own name:
     - clones (NAME.isra.N, NAME.part.N, NAME.constprop.N): gprof's symbol
       reader (core_sym_class) refuses a local name with a '.' not
       followed by digits alone, and charges the clone to the symbol before
       it, some unrelated routine; it even reads past the end of a name
       that ends in digits, so that NAME.constprop.N is kept or not as the
       next name in the string table decides.  Every '.' of a function's
       name becomes '_' in both copies: each clone is a routine of its own
       on both sides, under one (mangled) name, and no name is read past;
     - cold parts (NAME.cold): the unlikely code GCC moves out of a
       routine, elsewhere in the text, entered by a jump.  aprof charges
       the calls made from there to NAME, whose activation it is; gprof, by
       the return address, to the symbol before the cold part.  NAME.cold
       takes NAME's name in both copies (two routines of one name, added
       up by the comparison);
     - aliases (a constructor's complete and base-object symbols at one
       address, functions GCC found identical): each tool keeps one name,
       not always the same.  aprof's copy keeps only the names that gprof
       keeps in its copy (gprof -z lists them all), so that it picks
       gprof's.
    Returns a line saying what was renamed and left out."""
    renamed = parts = 0
    for exe, dest in ((aprof_exe, os.path.join(out, 'aprof')), (gprof_exe, os.path.join(out, 'gprof'))):
        # the routines' names first, then the cold parts' (objcopy renames
        # no two names to one in a pass)
        routines, cold = {}, {}
        for n in functions(exe):
            if '.' in n and '@' not in n:
                m = COLD.match(n)
                if m:
                    cold[n] = m.group(1).replace('.', '_')
                else:
                    routines[n] = n.replace('.', '_')
        objcopy(exe, dest + '.1', 'redefine-syms', ['%s %s' % kv for kv in routines.items()])
        objcopy(dest + '.1', dest, 'redefine-syms', ['%s %s' % kv for kv in cold.items()])
        os.remove(dest + '.1')
        renamed, parts = len(routines), len(cold)
    # gprof's flat profile with -z lists every name it keeps, called or
    # not, after a header line ending in "name"
    flat = subprocess.run(['gprof', '-b', '-p', '-z', '--no-demangle', os.path.join(out, 'gprof'), gmon],
                          capture_output=True, text=True, check=True).stdout.splitlines()
    start = next(i for i, line in enumerate(flat) if line.split()[-1:] == ['name']) + 1
    kept = {line.split()[-1] for line in flat[start:] if line.strip()}
    copy = os.path.join(out, 'aprof')
    dropped = functions(copy) - kept
    objcopy(copy, copy + '.1', 'strip-symbols', dropped)
    os.replace(copy + '.1', copy)
    return ('symbols: %d clones renamed, %d cold parts named as their routines, '
            '%d names gprof does not keep left out of aprof\'s' % (renamed, parts, len(dropped)))


def run(argv, dest):
    """Runs ARGV, its output to DEST."""
    with open(dest, 'w') as f:
        subprocess.run(argv, stdout=f, check=True)


args = sys.argv[1:]
same = args[:1] == ['--same-objects']
if same:
    args = args[1:]
if len(args) != 6:
    sys.exit('usage: callgraph-compare.py [--same-objects] APROF APROF_EXE AMON_OUT GPROF_EXE GMON_OUT DIR')
aprof, aprof_exe, amon, gprof_exe, gmon, out = args
os.makedirs(out, exist_ok=True)
lines = []
if same:
    lines.append(same_names(aprof_exe, gprof_exe, gmon, out))
    aprof_exe, gprof_exe = os.path.join(out, 'aprof'), os.path.join(out, 'gprof')
run([aprof, '-b', '-q', aprof_exe, amon], os.path.join(out, 'agraph'))
run([aprof, '--format=json', aprof_exe, amon], os.path.join(out, 'aprof.json'))
run(['gprof', '-b', '-q', gprof_exe, gmon], os.path.join(out, 'ggraph'))
gcalls, garcs, gshared = parse(os.path.join(out, 'ggraph'))
acalls, aarcs, ashared = parse(os.path.join(out, 'agraph'))
aspont = spontaneous(os.path.join(out, 'aprof.json'))
shared = gshared | ashared
if shared:
    lines.append('names shared by several routines, compared added up: %d' % len(shared))
    for n in sorted(shared):
        lines.append('  (shared: %s)' % n)
# Calls gprof cannot count (above): the spontaneous ones, and those on
# arcs gprof lacks into routines it counts no call of.
gcalled = {n for n, c in gcalls.items() if c != (0, 0)}
outside = {k: n for k, n in aarcs.items() if k not in garcs and k[1] not in gcalled}
unseen = dict(aspont)
for (_, callee), n in outside.items():
    unseen[callee] = unseen.get(callee, 0) + n
differ = [k for k in sorted(garcs) if aarcs.get(k) != garcs[k]]
extra = sorted(k for k in aarcs if k not in garcs and k not in outside)
for k in differ:
    lines.append('  arc %s -> %s: gprof %d, aprof %s' % (k[0], k[1], garcs[k], aarcs.get(k, 'none')))
for k in extra:
    lines.append('  arc %s -> %s: gprof none, aprof %d' % (k[0], k[1], aarcs[k]))
cdiffer = []
for n in sorted(gcalls):
    a = acalls.get(n, (0, 0))
    a = (a[0] - unseen.get(n, 0), a[1])
    if a != gcalls[n]:
        cdiffer.append(n)
        lines.append('  calls of %s: gprof %s, aprof %s less %d gprof cannot see'
                     % (n, show(gcalls[n]), show(acalls.get(n)), unseen.get(n, 0)))
for n in sorted(aspont):
    lines.append('  (spontaneous: %d calls of %s)' % (aspont[n], n))
for k in sorted(outside):
    lines.append('  (arc only in aprof, into a routine gprof counts no call of: %s -> %s, %d)'
                 % (k[0], k[1], outside[k]))
shared_arcs = [k for k in garcs if k[0] in shared or k[1] in shared]
lines.append('arcs compared: %d, equal: %d, different: %d'
             % (len(garcs), len(garcs) - len(differ), len(differ)))
lines.append('arcs only in aprof: %d, of which into routines gprof counts no call of: %d (%d calls)'
             % (len(extra) + len(outside), len(outside), sum(outside.values())))
lines.append('routines compared: %d, equal: %d, different: %d'
             % (len(gcalls), len(gcalls) - len(cdiffer), len(cdiffer)))
lines.append('calls set aside: %d spontaneous, of %d routines; %d on arcs only in aprof'
             % (sum(aspont.values()), len(aspont), sum(outside.values())))
if shared_arcs:
    lines.append('of the arcs, %d involve shared names' % len(shared_arcs))
total = sum(garcs.values())
lines.append('calls on the arcs compared: %d' % total)
with open(os.path.join(out, 'compare'), 'w') as f:
    f.writelines(line + '\n' for line in lines)
print('\n'.join(lines))
sys.exit(1 if differ or extra or cdiffer else 0)
