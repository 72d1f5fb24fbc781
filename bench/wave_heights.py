#!/usr/bin/env python3
"""Wave heights at a wave flume's gauges (gauges.csv of cases/wave_flume.yaml) in a time window.

The metric, chosen before any run: at each gauge, the mean of the zero-upcrossing wave heights
(crest to trough of each wave between two upcrossings of the window's mean level) over the waves
that lie wholly in the window, against the height the paddle's law was made for. The window
starts after the ramp has passed the gauge and ends before the far wall's reflection returns.
Plain Python: no numpy.

    python3 bench/wave_heights.py GAUGES_CSV --from 2.5 --to 4.0 --target 0.03
"""
import argparse
import csv


def zero_upcrossing_heights(times, levels):
    mean = sum(levels) / len(levels)
    up = [k for k in range(1, len(levels)) if levels[k - 1] < mean <= levels[k]]
    return [max(levels[a:b]) - min(levels[a:b]) for a, b in zip(up, up[1:])]


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("gauges")
    p.add_argument("--from", dest="start", type=float, required=True)
    p.add_argument("--to", dest="end", type=float, required=True)
    p.add_argument("--target", type=float, required=True, help="the wave height asked for [m]")
    a = p.parse_args()
    with open(a.gauges, newline="") as f:
        rows = list(csv.reader(f))
    names, data = rows[0], [[float(v) for v in r] for r in rows[1:] if r]
    inside = [r for r in data if a.start <= r[0] <= a.end]
    times = [r[0] for r in inside]
    for c, name in enumerate(names[1:], start=1):
        heights = zero_upcrossing_heights(times, [r[c] for r in inside])
        if not heights:
            print(f"{name}: no whole wave between {a.start} and {a.end} s")
            continue
        mean = sum(heights) / len(heights)
        print(f"{name}: {len(heights)} waves, mean height {mean:.4f} m, "
              f"{100 * (mean / a.target - 1):+.1f} % of the target {a.target} m")


if __name__ == "__main__":
    main()
