#!/usr/bin/env python3
"""The largest difference of each column of two gauges.csv files (the same instruments, the same
sample times), and of the whole file relative to the largest magnitude in its column: how far a
change that reorders sums moved a run's readings. Standard library only (runs on the GPU machine).

    python3 bench/gauge_differences.py before/gauges.csv after/gauges.csv
"""
import csv
import sys


def read(path):
    with open(path, newline="") as f:
        rows = [row for row in csv.reader(f) if row and not row[0].startswith("#")]
    return rows[0], [[float(v) for v in row] for row in rows[1:]]


def main(argv):
    if len(argv) != 3:
        sys.exit("usage: gauge_differences.py BEFORE.csv AFTER.csv")
    head_a, a = read(argv[1])
    head_b, b = read(argv[2])
    if head_a != head_b or len(a) != len(b):
        sys.exit("the two files hold different instruments or samples")
    print(f"{'column':<24} {'largest |difference|':>22} {'largest |value|':>16}")
    for k, name in enumerate(head_a):
        diff = max((abs(x[k] - y[k]) for x, y in zip(a, b)), default=0.0)
        scale = max((abs(x[k]) for x in a), default=0.0)
        print(f"{name:<24} {diff:>22.6g} {scale:>16.6g}")


if __name__ == "__main__":
    main(sys.argv)
