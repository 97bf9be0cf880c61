#!/usr/bin/env python3
"""json-check.py JSON CONTEXTS REPORT -- checks aprof --format=json against
aprof -S (CONTEXTS) and aprof -b's flat profile and call graph (REPORT), for
tests/e2e-exports.sh: every context's calls and recursive calls, every
arc's call count, every routine's calls and share of the total, and the
totals' sums.  Prints what differs and exits 1 if anything does."""
import json
import re
import sys

doc = json.load(open(sys.argv[1]))
bad = []
routines = doc["routines"]
names = [r["name"] for r in routines]

# Contexts: equal histories of different threads merged, as -S lists them.
merged = {}
for c in doc["contexts"]:
    h = " > ".join(names[e["routine"]] if e["marked"] else "(" + names[e["routine"]] + ")"
                   for e in c["history"]) or "<no routine active>"
    calls, rec = merged.get(h, (0, 0))
    merged[h] = (calls + c["calls"], rec + c["recursive"])
listed = {}
for line in open(sys.argv[2]):
    m = re.match(r"^ *\d+ +(\d+) +(\d+) +[0-9.]+  (.*)$", line)
    if m:
        listed[m.group(3)] = (int(m.group(1)), int(m.group(2)))
if merged != listed:
    bad.append("contexts: json %s, -S %s" % (merged, listed))

# Totals: the routines' self values add up to the total; with the root, to every tick.
meta = doc["metadata"]
if sum(r["self"] for r in routines) != meta["totals"]["value"]:
    bad.append("routines' self do not add up to totals.value")
if meta["metric"] == "time" and meta["totals"]["value"] + meta["totals"]["root"] != \
        sum(c["ticks"] for c in doc["contexts"]):
    bad.append("totals.value + root is not the contexts' ticks")

# The flat profile's calls and the call graph's arcs and % time.
report = open(sys.argv[3]).read().split("\f")
flat_calls, arcs, share = {}, {}, {}
for line in report[0].splitlines():
    f = line.split()
    if len(f) >= 7 and f[3].isdigit():
        flat_calls[" ".join(f[6:])] = int(f[3])
primary = None
children = []
for line in report[1].splitlines():
    m = re.match(r"^\[\d+\] +([0-9.]+) +[0-9.]+ +[0-9.]+ +[0-9+]+ +(.*?)( <cycle \d+>)? \[\d+\]$", line)
    if m:
        primary = m.group(2)
        share[primary] = float(m.group(1))
        continue
    m = re.match(r"^ +[0-9.]+ +[0-9.]+ +(\d+)/\d+ +(.*?)( <cycle \d+>)? \[\d+\]$", line)
    if m and primary is not None:
        arcs[(primary, m.group(2))] = int(m.group(1))
    if line.startswith("----"):
        primary = None
json_arcs = {(names[a["caller"]], names[a["callee"]]): a["calls"]
             for a in doc["arcs"] if a["caller"] is not None}
if json_arcs != arcs:
    bad.append("arcs: json %s, call graph %s" % (json_arcs, arcs))
total = meta["totals"]["value"]
for r in routines:
    if r["calls"] != flat_calls.get(r["name"], 0):
        bad.append("%s: calls %d, flat profile %s" % (r["name"], r["calls"],
                                                      flat_calls.get(r["name"])))
    pct = 100.0 * r["total"] / total if total else 0.0
    if r["name"] in share and abs(pct - share[r["name"]]) > 0.051:
        bad.append("%s: %% time %.2f, call graph %.1f" % (r["name"], pct, share[r["name"]]))
for b in bad:
    print("json-check:", b, file=sys.stderr)
sys.exit(1 if bad else 0)
