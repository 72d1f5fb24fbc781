#!/usr/bin/env python3
"""What the rows of gauges.csv make of a filtered peak: from a run with a row at every iteration
(`--gauge-every 1e-7`), the rows a run would write every EVERY seconds, as the readings at those
times (points, the default) or as the means of the readings over each interval (means,
`--gauge-average`: the trapezoidal rule, as src/instruments/interval_average.cpp), each series
low-passed as `--gauge-filter` does (zero-phase Gaussian, -3 dB at the cut-off), and the peak of
each within a time window against the peak of the readings at every iteration.

    /usr/bin/python3 bench/row_grid.py RUN/gauges.csv --columns S1,S2 --window 0.387,0.473 \\
        --scale 2943 --every 0.0005,0.0001

Needs numpy. Prints one line per column: value and time of each peak, and its difference from the
every-iteration peak.
"""

import argparse
import math

import numpy as np

TRAPEZOID = getattr(np, "trapezoid", None) or np.trapz  # numpy 2 renamed it


def low_pass(t, v, cutoff_hz):
    """instruments/low_pass.h: Gaussian weights within 4 sigma, NaN samples skipped."""
    sigma = math.sqrt(math.log(2.0)) / (2.0 * math.pi * cutoff_hz)
    out = np.full(len(v), np.nan)
    for i in range(len(t)):
        near = np.abs(t - t[i]) <= 4.0 * sigma
        w = np.exp(-0.5 * ((t[near] - t[i]) / sigma) ** 2)
        finite = ~np.isnan(v[near])
        if finite.any():
            out[i] = np.sum(w[finite] * v[near][finite]) / np.sum(w[finite])
    return out


def rows(t, v, every, means):
    """The rows due every `every` s from the readings (t, v): the reading at each row's time, or
    the trapezoidal mean over the interval since the row before; the first row the first
    reading."""
    times, values, start, due = [t[0]], [v[0]], 0, every
    for i in range(1, len(t)):
        if t[i] < due and i < len(t) - 1:
            continue
        if means:
            span = t[start:i + 1]
            values.append(TRAPEZOID(v[start:i + 1], span) / (span[-1] - span[0]))
        else:
            values.append(v[i])
        times.append(t[i])
        start = i
        while due <= t[i]:
            due += every
    return np.array(times), np.array(values)


def peak(t, v, window):
    inside = (t >= window[0]) & (t <= window[1])
    k = int(np.nanargmax(np.where(inside, v, -np.inf)))
    return v[k], t[k]


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("gauges", help="gauges.csv of a run with a row at every iteration")
    p.add_argument("--columns", required=True, help="comma-separated columns")
    p.add_argument("--window", required=True, help="T0,T1 [s]: where the peak is sought")
    p.add_argument("--scale", type=float, default=1.0, help="values are divided by it")
    p.add_argument("--every", default="0.0005,0.0001", help="row spacings [s], comma-separated")
    p.add_argument("--cutoff", type=float, default=220.0, help="filter cut-off [Hz]")
    args = p.parse_args()
    window = [float(x) for x in args.window.split(",")]
    data = np.genfromtxt(args.gauges, delimiter=",", names=True)
    t = data["time"]
    later = np.concatenate([[True], np.diff(t) > 0])  # the last row repeats its time
    reach = 8.0 * math.sqrt(math.log(2.0)) / (2.0 * math.pi * args.cutoff)
    near = later & (t >= window[0] - reach - 0.01) & (t <= window[1] + reach + 0.01)
    t = t[near]
    for column in args.columns.split(","):
        v = data[column][near] / args.scale
        ref, ref_t = peak(t, low_pass(t, v, args.cutoff), window)
        line = [f"{column}: every iteration {ref:.4g} at {ref_t:.5f} s"]
        for every in (float(x) for x in args.every.split(",")):
            for means in (False, True):
                rt, rv = rows(t, v, every, means)
                value, when = peak(rt, low_pass(rt, rv, args.cutoff), window)
                line.append(f"{'means' if means else 'points'} {every * 1000:g} ms "
                            f"{value:.4g} ({100 * (value / ref - 1):+.1f} %) at {when:.5f} s")
        print("; ".join(line))


if __name__ == "__main__":
    main()
