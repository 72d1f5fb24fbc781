#!/usr/bin/env python3
"""Where the water a height gauge reads first came from, by particle id, frame by frame.

SPHERIC test 2's gauge H1 (behind the obstacle) reads water 0.07-0.19 s before the experiment
does (validation/README.md). This takes the fluid particles within `--radius` of the gauge's
vertical line in the frames of `--window` (the early readings), finds them by id in every frame
before, and says which way they passed the obstacle: over its top, round its sides, or neither
yet; and how fast and how high they went. Reads the frames with numpy alone (fast_particles.py's
reader), so that it runs on the GPU machine.

    python3 bench/splash_origin.py OUTPUT_DIR --gauge 0.496,0.5 --window 0.74,0.9 \
        --obstacle 0.66,0.29,0,0.82,0.70,0.16 [--radius 0.013]
"""
import argparse
import glob
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fast_particles import frame_time, read_vtu  # noqa: E402


def floats(text, count):
    values = [float(v) for v in text.split(",")]
    if len(values) != count:
        raise argparse.ArgumentTypeError(f"expected {count} numbers, got '{text}'")
    return values


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("output_dir")
    p.add_argument("--gauge", type=lambda t: floats(t, 2), required=True, help="X,Y [m]")
    p.add_argument("--window", type=lambda t: floats(t, 2), required=True,
                   help="T0,T1 [s]: the frames whose water at the gauge is traced")
    p.add_argument("--obstacle", type=lambda t: floats(t, 6), required=True,
                   help="x0,y0,z0,x1,y1,z1 [m]: the obstacle's surface")
    p.add_argument("--radius", type=float, default=0.013, help="around the gauge line [m]")
    args = p.parse_args()

    times = frame_time(args.output_dir)
    frames = sorted((times[os.path.basename(f)], f)
                    for f in glob.glob(os.path.join(args.output_dir, "*.vtu"))
                    if os.path.basename(f) in times)
    if not frames:
        sys.exit(f"splash_origin: no frames in {args.output_dir}")
    lo, hi = np.array(args.obstacle[:3]), np.array(args.obstacle[3:])

    def fluid(arrays):
        keep = arrays["type"] == 0 if "type" in arrays else np.ones(len(arrays["id"]), bool)
        return (arrays["id"][keep], arrays["Points"][keep].astype(np.float64),
                arrays["velocity"][keep].astype(np.float64) if "velocity" in arrays else None)

    # The water at the gauge in the window: ids and when each was first there.
    first_seen = {}
    for t, path in frames:
        if not args.window[0] <= t <= args.window[1]:
            continue
        ids, pos, _ = fluid(read_vtu(path))
        near = np.hypot(pos[:, 0] - args.gauge[0], pos[:, 1] - args.gauge[1]) < args.radius
        for i, z in zip(ids[near], pos[near, 2]):
            first_seen.setdefault(int(i), (t, z))
        print(f"t {t:.3f} s: {int(near.sum())} fluid particles at the gauge, highest "
              f"{pos[near, 2].max() if near.any() else 0.0:.3f} m")
    traced = np.array(sorted(first_seen), dtype=np.int64)
    if traced.size == 0:
        sys.exit("splash_origin: no water at the gauge in the window")

    # Each traced particle's path before: over the obstacle, round it, the highest, the fastest.
    over = np.zeros(traced.size, bool)
    beside = np.zeros(traced.size, bool)
    highest = np.zeros(traced.size)
    fastest = np.zeros(traced.size)
    for t, path in frames:
        if t > args.window[1]:
            break
        arrays = read_vtu(path)
        ids, pos, vel = fluid(arrays)
        order = np.argsort(ids)
        at = np.searchsorted(ids[order], traced)
        found = (at < ids.size) & (ids[order][np.minimum(at, ids.size - 1)] == traced)
        rows = order[np.minimum(at, ids.size - 1)]
        p_ = pos[rows]
        above_x = (p_[:, 0] >= lo[0]) & (p_[:, 0] <= hi[0])
        within_y = (p_[:, 1] >= lo[1]) & (p_[:, 1] <= hi[1])
        over |= found & above_x & within_y & (p_[:, 2] > hi[2])
        beside |= found & above_x & ~within_y
        highest = np.where(found, np.maximum(highest, p_[:, 2]), highest)
        if vel is not None:
            fastest = np.where(found, np.maximum(fastest, np.linalg.norm(vel[rows], axis=1)),
                               fastest)

    print(f"\n{traced.size} fluid particles at the gauge between {args.window[0]} and "
          f"{args.window[1]} s (within {args.radius} m of its line)")
    for name, mask in (("over the obstacle's top", over & ~beside),
                       ("round its sides", beside & ~over),
                       ("both (over part of the way)", over & beside),
                       ("neither (not past the obstacle's span in x)", ~over & ~beside)):
        n = int(mask.sum())
        if n == 0:
            print(f"  {name}: 0")
            continue
        first = np.array([first_seen[int(i)][0] for i in traced[mask]])
        print(f"  {name}: {n} ({100.0 * n / traced.size:.0f} %), first at the gauge "
              f"{first.min():.3f} s (median {np.median(first):.3f} s), highest on the way "
              f"median {np.median(highest[mask]):.3f} m, fastest median "
              f"{np.median(fastest[mask]):.2f} m/s")


if __name__ == "__main__":
    main()
