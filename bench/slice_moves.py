#!/usr/bin/env python3
"""How often a run's balancer moved a boundary between devices, from its load_balance.csv, and
how often a move undid the one before it at the same boundary (a boundary going back and forth)."""
import csv
import sys


def main(path):
    rows = list(csv.DictReader(open(path)))
    last_shift = {}  # device -> the sign of its last end-slice change
    decisions, moves, reversals = set(), 0, 0
    for row in rows:
        decisions.add(row["step"])
        change = int(row["new_end_slice"]) - int(row["end_slice"])
        if change == 0 or row["device"] == str(max(int(r["device"]) for r in rows)):
            continue
        moves += 1
        device = row["device"]
        if last_shift.get(device, 0) == -change:
            reversals += 1
        last_shift[device] = change
    print(f"{len(decisions)} decisions, {moves} boundary moves, {reversals} of them undoing the last")


if __name__ == "__main__":
    main(sys.argv[1])
