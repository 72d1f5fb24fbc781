#!/usr/bin/env python3
"""The Lobovsky case's means over t* = t sqrt(g/H) in [4, 6] straight from runs' gauges.csv, as
validation/lobovsky.py computes them (its window, its experiment, the wall sensors S1-S4 against
the medians of sensors 1-4): for runs that stopped after the window but before the case's end,
whose folders lack what the case writes at the end (run_report.json, gauges_filtered.csv).

    /usr/bin/python3 bench/lobovsky_window_means.py RUN/gauges.csv [more ...] [--rho0 1000]

Needs numpy.
"""

import argparse
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "validation"))
import accuracy  # noqa: E402
import case_run  # noqa: E402
import lobovsky  # noqa: E402


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("csv", nargs="+", help="a run's gauges.csv")
    p.add_argument("--rho0", type=float, default=1000.0, help="the run's rho0 [kg/m^3]")
    p.add_argument("--gravity", type=float, default=9.81)
    args = p.parse_args()
    exp = lobovsky.read_experiment()
    scale = args.rho0 * args.gravity * lobovsky.H
    for path in args.csv:
        g = case_run.read_gauges(path)
        t = g["time"] * math.sqrt(args.gravity / lobovsky.H)
        if t[-1] < lobovsky.MEAN_WINDOW[1]:
            print(f"{path}: ends at t* {t[-1]:.3g}, before the window's end")
            continue
        cells = []
        for name, _ in lobovsky.SENSORS:
            column = lobovsky.WALL_SENSOR_PREFIX + name[1:]
            sim = accuracy.window_mean(t, g[column] / scale, lobovsky.MEAN_WINDOW)
            ref = accuracy.window_mean(exp["t"], exp[name][0], lobovsky.MEAN_WINDOW)
            cells.append(f"{name} ({column}) {sim:.3f} vs median {ref:.3f}: "
                         f"{100 * (sim - ref) / ref:+.1f} %")
        print(f"{path} (to t* {t[-1]:.3g}): " + " | ".join(cells))


if __name__ == "__main__":
    main()
