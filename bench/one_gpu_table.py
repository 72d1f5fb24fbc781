#!/usr/bin/env python3
"""One GPU's figures as a Markdown table, from the run reports (run_report.json) of DamBreak runs.

    bench/one_gpu_table.py [--ceiling gpu_ceiling.json] out/dambreak_dp0.01/run_report.json ...

With --ceiling (the output of the gpu_ceiling tool, bench/gpu_ceiling/), the table ends with the
card's measured copy and read bandwidth and FP32 FMA rate.

Per run: particles, iterations, mips, bytes of GPU memory per particle (all, then per array as the
report lists them), the time loop and each kernel's share of it, and the neighbour list's use (the
largest neighbour count against the entries each particle has). Standard library only.
"""

import json
import sys
from typing import Dict, List


def load(path: str) -> Dict:
    with open(path) as f:
        return json.load(f)


def memory_rows(reports: List[Dict]) -> List[str]:
    names: List[str] = []
    for r in reports:
        for name in r["devices"][0].get("memory_parts_bytes", {}):
            if name not in names:
                names.append(name)
    rows = []
    for name in names:
        cells = []
        for r in reports:
            per = sum(d.get("memory_parts_bytes", {}).get(name, 0) for d in r["devices"])
            cells.append(f"{per / r['particles']['total']:.1f}")
        rows.append(f"| B/particle: {name} | " + " | ".join(cells) + " |")
    return rows


def table(reports: List[Dict]) -> str:
    def row(label: str, cells) -> str:
        return f"| {label} | " + " | ".join(cells) + " |"

    lines = [row("run", [f"dp {r['dp_m']:g} m" for r in reports]),
             "| --- |" + " ---: |" * len(reports)]
    lines.append(row("device", [r["device"] for r in reports]))
    lines.append(row("particles", [f"{r['particles']['total']:,}" for r in reports]))
    lines.append(row("iterations", [str(r["iterations"]) for r in reports]))
    lines.append(row("mips", [f"{r['mips']:.1f}" for r in reports]))
    lines.append(row("B/particle (all)", [f"{r['bytes_per_particle']:.1f}" for r in reports]))
    lines += memory_rows(reports)
    loops = [r["wall_time_s"]["time_loop"] for r in reports]
    lines.append(row("time loop [s]", [f"{t:.2f}" for t in loops]))
    kernels = [("forces", "Forces"), ("boundary", "of which mDBC walls"),
               ("build_neibs", "BuildNeibs"), ("euler", "Euler"), ("minimum_scan", "dt minimum")]
    for key, label in kernels:
        lines.append(row(f"share of the loop: {label}",
                         [f"{100 * r['kernel_time_s'].get(key, 0.0) / t:.1f} %"
                          for r, t in zip(reports, loops)]))
    # Outside the kernels: launches, host waits and barriers, the dt download, migration. With
    # several devices the kernels of one device are timed on its own streams, so this is per
    # device: the busiest device's (the least time outside its kernels: the loop's critical
    # path; the others also wait for it), and each device's.
    counted = ["forces", "build_neibs", "euler", "minimum_scan"]

    def outside(device: Dict, loop: float) -> float:
        return 100 * (1 - sum(device["kernel_time_s"].get(k, 0.0) for k in counted) / loop)

    lines.append(row("share of the loop outside kernels (busiest device)",
                     [f"{min(outside(d, t) for d in r['devices']):.1f} %"
                      for r, t in zip(reports, loops)]))
    lines.append(row("share of the loop outside kernels (each device)",
                     [" / ".join(f"{outside(d, t):.1f} %" for d in r["devices"])
                      for r, t in zip(reports, loops)]))
    lines.append(row("devices", [str(len(r["devices"])) for r in reports]))
    lines.append(row("neighbours: largest / entries",
                     [f"{r['largest_neighbour_count']} / {r['max_neighbours']}" for r in reports]))
    return "\n".join(lines)


def ceiling_lines(ceiling: Dict) -> List[str]:
    return ["", f"Measured on {ceiling['device']} (gpu_ceiling): copy "
            f"{ceiling['copy_gb_per_s']:.0f} GB/s (read + write), streaming read "
            f"{ceiling['read_gb_per_s']:.0f} GB/s, FP32 FMA {ceiling['fma_tflops']:.1f} TFLOP/s."]


def main(argv: List[str]) -> int:
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if argv else 2
    ceiling = None
    if argv[0] == "--ceiling":
        if len(argv) < 3:
            print("one_gpu_table.py: --ceiling FILE, then the run reports", file=sys.stderr)
            return 2
        ceiling, argv = load(argv[1]), argv[2:]
    lines = [table([load(p) for p in argv])]
    if ceiling is not None:
        lines += ceiling_lines(ceiling)
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
