#!/usr/bin/env python3
"""A floating body's figures from bodies.csv (bench/device_floating.sh): its largest vertical and
horizontal drift and angle, and the water's mean vertical force from --from seconds on against
its weight (--weight N). Standard library only.

Usage: floating_figures.py BODIES.csv --body NAME --weight N [--from 0.02]
"""
import argparse
import csv
import math


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("csv")
    parser.add_argument("--body", default="box")
    parser.add_argument("--weight", type=float, required=True)
    parser.add_argument("--from", dest="start", type=float, default=0.02)
    a = parser.parse_args()
    with open(a.csv, newline="") as f:
        rows = list(csv.DictReader(f))
    col = lambda name: [float(r[f"{a.body}_{name}"]) for r in rows]
    t = [float(r["time"]) for r in rows]
    fz = [f for tt, f in zip(t, col("Fz")) if tt >= a.start]
    mean = sum(fz) / len(fz)
    print(f"rows {len(rows)} to t = {t[-1]:.3f} s")
    print(f"largest |dz| {1000 * max(abs(v) for v in col('dz')):.3f} mm, "
          f"at the end {1000 * col('dz')[-1]:.3f} mm")
    print(f"largest |dx| {1000 * max(abs(v) for v in col('dx')):.3f} mm, "
          f"|dy| {1000 * max(abs(v) for v in col('dy')):.3f} mm, "
          f"angle {math.degrees(max(abs(v) for v in col('angle'))):.4f} deg")
    print(f"mean Fz from {a.start} s: {mean:.4f} N against a weight of {a.weight:.4f} N "
          f"({100 * (mean / a.weight - 1):+.2f} %)")


if __name__ == "__main__":
    main()
