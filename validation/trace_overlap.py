#!/usr/bin/env python3
"""How much of each edge-force copy overlaps the central Forces work, from a --trace file.

The paper's Fig. 7 argument: the forces of a device's edge slices travel to its neighbours while
the device still computes its centre, so the exchange costs nothing when the copy is hidden. This
reads a Chrome trace written by `--trace FILE` and reports, per device and over all devices, the
share of edge-force copy time ("edge-force copy left/right" events, category "exchange") that lies
within that device's "forces centre" events (the central stripe, from the Forces stage's start to
the centre's end, as the run report's exchange.hidden_fraction counts it).

    python3 validation/trace_overlap.py trace.json [--json overlap.json]

On CPU devices a copy follows its edge stripe and precedes the centre on the same thread, so the
fraction is 0 by construction; on GPUs it measures the overlap the streams achieved. Exit codes:
0 done, 1 a trace without edge-force copies (a one-device run), 2 bad arguments or an unreadable
trace.
"""

import argparse
import json
import statistics
import sys

COPY_PREFIX = "edge-force copy"
CENTRE = "forces centre"


def union(intervals):
    """Sorted, disjoint intervals covering the given (start, end) pairs."""
    merged = []
    for start, end in sorted(intervals):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return merged


def overlap(interval, covered):
    """Length of `interval` lying within the disjoint intervals `covered`."""
    start, end = interval
    return sum(max(0.0, min(end, b) - max(start, a)) for a, b in covered)


def analyse(trace):
    """Per device {name, copies, copy_us, hidden_us, fraction, per-copy fractions} and totals."""
    names, copies, centres = {}, {}, {}
    for e in trace["traceEvents"]:
        if e.get("ph") == "M" and e.get("name") == "process_name":
            names[e["pid"]] = e["args"]["name"]
        if e.get("ph") != "X":
            continue
        span = (float(e["ts"]), float(e["ts"]) + float(e["dur"]))
        if e["name"].startswith(COPY_PREFIX):
            copies.setdefault(e["pid"], []).append(span)
        elif e["name"] == CENTRE:
            centres.setdefault(e["pid"], []).append(span)
    devices = []
    for pid in sorted(copies):
        covered = union(centres.get(pid, []))
        fractions, copy_us, hidden_us = [], 0.0, 0.0
        for span in copies[pid]:
            length = span[1] - span[0]
            hidden = overlap(span, covered)
            copy_us += length
            hidden_us += hidden
            fractions.append(hidden / length if length > 0 else 1.0)
        devices.append({
            "pid": pid, "name": names.get(pid, f"process {pid}"), "copies": len(fractions),
            "copy_us": copy_us, "hidden_us": hidden_us,
            "fraction": hidden_us / copy_us if copy_us > 0 else 1.0,
            "min_copy_fraction": min(fractions), "median_copy_fraction": statistics.median(fractions),
        })
    copy_us = sum(d["copy_us"] for d in devices)
    hidden_us = sum(d["hidden_us"] for d in devices)
    return {
        "devices": devices,
        "copies": sum(d["copies"] for d in devices),
        "copy_us": copy_us, "hidden_us": hidden_us,
        "fraction": hidden_us / copy_us if copy_us > 0 else None,
        "window": trace.get("otherData", {}),
    }


def print_table(result, out=sys.stdout):
    w = result["window"]
    if "first_iteration" in w:
        print(f"iterations [{w['first_iteration']}, {w['end_iteration']})", file=out)
    print(f"{'device':<44} {'copies':>6} {'copy ms':>9} {'hidden ms':>9} {'hidden':>7} "
          f"{'min':>6} {'median':>6}", file=out)
    for d in result["devices"]:
        print(f"{d['name'][:44]:<44} {d['copies']:>6} {d['copy_us'] / 1e3:>9.3f} "
              f"{d['hidden_us'] / 1e3:>9.3f} {100 * d['fraction']:>6.1f}% "
              f"{100 * d['min_copy_fraction']:>5.1f}% {100 * d['median_copy_fraction']:>5.1f}%",
              file=out)
    print(f"{'all devices':<44} {result['copies']:>6} {result['copy_us'] / 1e3:>9.3f} "
          f"{result['hidden_us'] / 1e3:>9.3f} {100 * result['fraction']:>6.1f}%", file=out)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("trace", help="a trace written by --trace")
    parser.add_argument("--json", help="also write the figures here as JSON")
    args = parser.parse_args(argv)
    try:
        with open(args.trace) as f:
            trace = json.load(f)
        result = analyse(trace)
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f"error: cannot read the trace '{args.trace}': {e}", file=sys.stderr)
        return 2
    if result["copies"] == 0:
        print(f"error: '{args.trace}' has no edge-force copies (a one-device run, or a window "
              "without Forces stages)", file=sys.stderr)
        return 1
    print_table(result)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
