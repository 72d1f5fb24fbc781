#!/usr/bin/env python3
"""The spread of a validation case's metrics over an ensemble: the same case run several times
with different `--perturb` seeds (the fluid started up to 0.001 dp off its lattice, by amounts
the seed draws), each folder holding the metrics.csv its case script wrote.

A first impact's peak, and the waves an impact sends back, differ between runs that differ only
in rounding (validation/README.md). One run's figure is then one draw; the ensemble gives its
median and range, to set beside the experiment's own repetitions. Standard library only.

    python3 validation/ensemble.py --out DIR MEMBER_DIR [MEMBER_DIR ...]

writes DIR/ensemble.md and DIR/ensemble.csv: per metric and run, each member's value, the
median, the smallest and largest, and how many members pass the case's threshold."""
import argparse
import csv
import math
import os
import statistics
import sys
from typing import Dict, List, Sequence, Tuple


def read_metrics(folder: str) -> List[Dict[str, str]]:
    path = os.path.join(folder, "metrics.csv")
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        raise SystemExit(f"ensemble.py: cannot read {path}: {e.strerror}")
    if not rows or "metric" not in rows[0] or "value" not in rows[0]:
        raise SystemExit(f"ensemble.py: {path} holds no metrics (columns metric, run, value)")
    return rows


def number(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        return math.nan


def gather(members: Sequence[List[Dict[str, str]]]) -> Tuple[List[Tuple[str, str]], Dict]:
    """Each (metric, run) in the first member's order, with every member's row of it."""
    keys: List[Tuple[str, str]] = []
    rows: Dict[Tuple[str, str], List[Dict[str, str]]] = {}
    for m, member in enumerate(members):
        for row in member:
            key = (row["metric"], row.get("run", ""))
            if key not in rows:
                if m > 0:
                    continue  # in some members only: not comparable
                keys.append(key)
                rows[key] = []
            rows[key].append(row)
    complete = [k for k in keys if len(rows[k]) == len(members)]
    return complete, rows


def spread(rows: List[Dict[str, str]]) -> Dict:
    values = [number(r["value"]) for r in rows]
    finite = [v for v in values if math.isfinite(v)]
    checked = [r for r in rows if r.get("result") in ("PASS", "FAIL")]
    return {
        "values": values,
        "median": statistics.median(finite) if finite else math.nan,
        "min": min(finite) if finite else math.nan,
        "max": max(finite) if finite else math.nan,
        "threshold": rows[0].get("threshold", ""),
        "passing": sum(r["result"] == "PASS" for r in checked) if checked else None,
    }


def fmt(v: float) -> str:
    return "n/a" if not math.isfinite(v) else f"{v:.4g}"


def main(argv: Sequence[str]) -> int:
    p = argparse.ArgumentParser(prog="ensemble.py", description=__doc__.split("\n\n")[0])
    p.add_argument("--out", required=True, help="folder for ensemble.md and ensemble.csv")
    p.add_argument("members", nargs="+", help="each member's metrics folder (its metrics.csv)")
    args = p.parse_args(argv)
    if len(args.members) < 2:
        p.error("an ensemble needs at least two members")
    members = [read_metrics(folder) for folder in args.members]
    keys, rows = gather(members)
    os.makedirs(args.out, exist_ok=True)
    names = [os.path.basename(os.path.normpath(m)) for m in args.members]
    with open(os.path.join(args.out, "ensemble.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["metric", "run", *names, "median", "min", "max", "threshold", "passing"])
        for key in keys:
            s = spread(rows[key])
            w.writerow([*key, *s["values"], s["median"], s["min"], s["max"], s["threshold"],
                        "" if s["passing"] is None else s["passing"]])
    lines = [f"# Ensemble of {len(members)} members", "",
             "Members: " + ", ".join(f"`{m}`" for m in args.members), "",
             "| metric | run | median | min | max | threshold | members passing |",
             "| --- | --- | ---: | ---: | ---: | --- | ---: |"]
    for key in keys:
        s = spread(rows[key])
        passing = "-" if s["passing"] is None else f"{s['passing']} of {len(members)}"
        lines.append(f"| {key[0]} | {key[1]} | {fmt(s['median'])} | {fmt(s['min'])} | "
                     f"{fmt(s['max'])} | {s['threshold'] or '-'} | {passing} |")
    with open(os.path.join(args.out, "ensemble.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
