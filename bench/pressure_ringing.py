#!/usr/bin/env python3
"""The slow ringing of wall pressures after an impact: from a Lobovsky case's wall_pressure.csv
(validation/lobovsky.py), per window of t* = t sqrt(g/H) and per sensor, the strongest frequency
above 40 Hz and the RMS of what lies above 30 Hz (the series less its 30 Hz Gaussian low pass, as
src/instruments/low_pass.h filters), in the raw and the filtered series, in p / (rho g H).

    /usr/bin/python3 bench/pressure_ringing.py RUN/wall_pressure.csv [more.csv ...]

A weakly compressible water layer of depth d on a floor rings at its quarter-wave frequency
c0 / (4 d); the depth it implies, c0 / (4 f), is printed when the run's c0 is given (--c0).
Needs numpy.
"""

import argparse
import math

import numpy as np

WINDOWS = ((3.2, 4.0), (4.0, 5.0), (5.0, 6.0))
SENSORS = ("P1", "P2", "P3", "P4")


def low_pass(t, v, cutoff_hz):
    sigma = math.sqrt(math.log(2.0)) / (2.0 * math.pi * cutoff_hz)
    out = np.empty_like(v)
    for i in range(len(t)):
        near = np.abs(t - t[i]) <= 4.0 * sigma
        w = np.exp(-0.5 * ((t[near] - t[i]) / sigma) ** 2)
        out[i] = np.sum(w * v[near]) / np.sum(w)
    return out


def ringing(t, v, core):
    """Strongest frequency above 40 Hz and RMS above 30 Hz of v over the samples `core`."""
    high = (v - low_pass(t, v, 30.0))[core]
    dt = np.mean(np.diff(t[core]))
    f = np.fft.rfftfreq(high.size, dt)
    spectrum = np.abs(np.fft.rfft(high * np.hanning(high.size)))
    above = f > 40.0
    return f[above][np.argmax(spectrum[above])], float(np.std(high))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("csv", nargs="+", help="wall_pressure.csv of validation/lobovsky.py")
    p.add_argument("--c0", type=float, nargs="*", help="each run's speed of sound [m/s]")
    args = p.parse_args()
    for n, path in enumerate(args.csv):
        d = np.genfromtxt(path, delimiter=",", names=True)
        print(f"== {path}")
        for lo, hi in WINDOWS:
            # A margin either side, so that the 30 Hz low pass is two-sided over the window.
            near = (d["t_star"] >= lo - 0.2) & (d["t_star"] < hi + 0.2)
            t = d["t_s"][near]
            core = (d["t_star"][near] >= lo) & (d["t_star"][near] < hi)
            cells = []
            for s in SENSORS:
                f_raw, raw = ringing(t, d[s + "_raw"][near], core)
                f_filt, filt = ringing(t, d[s + "_filtered"][near], core)
                depth = ""
                if args.c0 and n < len(args.c0):
                    depth = f", c0/(4f) {100 * args.c0[n] / (4 * f_raw):.1f} cm"
                cells.append(f"{s} {f_raw:.0f} Hz rms {raw:.3f} (filtered {f_filt:.0f} Hz "
                             f"rms {filt:.3f}{depth})")
            print(f"t* {lo:g}-{hi:g}: " + " | ".join(cells))


if __name__ == "__main__":
    main()
