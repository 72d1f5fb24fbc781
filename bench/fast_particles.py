#!/usr/bin/env python3
"""Which fluid particles are fast, where, and with how many neighbours, frame by frame.

Reads a run's .vtu frames (appended raw, zlib, UInt64 headers, as io/vtu_writer.cpp writes them)
with numpy alone, so that it runs on the GPU machine, where VTK's Python is missing. For each
frame: how many fluid particles pass a few speeds, and the fastest few with their position,
velocity, density, pressure, and how many particles (fluid and wall) lie within 2h; and which
particles are gone since the last frame (left the domain), where they were last seen.

    python3 bench/fast_particles.py OUTPUT_DIR --dp 0.01 [--h-factor 1.3] [--top 12] \
        [--tank x0,y0,z0,x1,y1,z1]
"""
import argparse
import glob
import os
import re
import struct
import zlib

import numpy as np

TYPES = {"Float32": np.float32, "Float64": np.float64, "UInt8": np.uint8, "UInt32": np.uint32,
         "Int32": np.int32, "Int64": np.int64, "UInt64": np.uint64}


def read_vtu(path):
    """The point arrays of a .vtu frame, by name ('Points' for the positions)."""
    with open(path, "rb") as f:
        raw = f.read()
    start = raw.index(b"<AppendedData")
    data = raw.index(b"_", start) + 1
    header = raw[:start].decode("utf-8", "replace")
    arrays = {}
    for m in re.finditer(r"<DataArray ([^>]*)/>", header):
        attrs = dict(re.findall(r'(\w+)="([^"]*)"', m.group(1)))
        at = data + int(attrs["offset"])
        blocks, _, _ = struct.unpack_from("<QQQ", raw, at)
        sizes = struct.unpack_from("<%dQ" % blocks, raw, at + 24)
        at += 24 + 8 * blocks
        chunks = []
        for size in sizes:
            chunks.append(zlib.decompress(raw[at:at + size]))
            at += size
        values = np.frombuffer(b"".join(chunks), dtype=TYPES[attrs["type"]])
        components = int(attrs.get("NumberOfComponents", "1"))
        arrays[attrs["Name"]] = values.reshape(-1, components) if components > 1 else values
    return arrays


def frame_time(output_dir):
    """Frame file -> simulated time, from the .pvd series."""
    times = {}
    for pvd in glob.glob(os.path.join(output_dir, "*.pvd")):
        for m in re.finditer(r'timestep="([^"]+)"[^>]*file="([^"]+)"', open(pvd).read()):
            times[os.path.basename(m.group(2))] = float(m.group(1))
    return times


def count_within(points, centre, radius):
    return int(np.count_nonzero(np.sum((points - centre) ** 2, axis=1) < radius * radius))


def print_where_gone(last_seen, tank, dp):
    """Counts the gone particles by where each was last seen: above the tank, in it (within a
    dp of a wall or not), or inside or beyond its walls, with their speeds."""
    lo, hi = np.array(tank[:3]), np.array(tank[3:])
    places = {}
    for p, v in last_seen:
        if p[2] > hi[2]:
            place = "above the tank's walls"
        elif np.all(p > lo) and np.all(p[:2] < hi[:2]):
            gap = min(np.min(p - lo), np.min(hi[:2] - p[:2]))
            place = "in the tank, within dp of a wall" if gap < dp else "in the tank"
        else:
            place = "inside or beyond a wall"
        places.setdefault(place, []).append(np.linalg.norm(v))
    print("gone over the run: %d, by where last seen (speed then, median and largest):" %
          len(last_seen))
    for place, speeds in sorted(places.items()):
        print("  %-34s %5d  %.1f %.1f m/s" % (place, len(speeds), np.median(speeds), max(speeds)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("output_dir")
    parser.add_argument("--dp", type=float, required=True)
    parser.add_argument("--h-factor", type=float, default=1.3)
    parser.add_argument("--top", type=int, default=12)
    parser.add_argument("--speeds", default="4,6,8,12,20")
    parser.add_argument("--tank", help="x0,y0,z0,x1,y1,z1: the tank's inside [m]; the gone "
                        "particles are then counted by where they were last seen")
    args = parser.parse_args()
    tank = [float(v) for v in args.tank.split(",")] if args.tank else None
    last_seen = []  # (position, velocity) of every particle gone since the frame before
    two_h = 2.0 * args.h_factor * args.dp
    speeds = [float(s) for s in args.speeds.split(",")]
    times = frame_time(args.output_dir)
    previous = None
    for path in sorted(glob.glob(os.path.join(args.output_dir, "*.vtu"))):
        a = read_vtu(path)
        pos, vel, fluid = a["Points"].astype(np.float64), a["velocity"], a["type"] == 0
        speed = np.linalg.norm(vel, axis=1)
        speed[~fluid] = -1.0  # never among the fastest
        t = times.get(os.path.basename(path), float("nan"))
        counts = ", ".join("%d over %g" % (np.count_nonzero(speed > s), s) for s in speeds)
        print("t = %.3f s: %d fluid, largest speed %.2f m/s; %s" %
              (t, np.count_nonzero(fluid), max(speed.max(), 0.0), counts))
        walls = pos[~fluid]
        for i in np.argsort(speed)[::-1][:args.top]:
            near_wall = np.sqrt(np.min(np.sum((walls - pos[i]) ** 2, axis=1)))
            print("  id %8d at (%.3f, %.3f, %.3f) v (%+.2f, %+.2f, %+.2f) |v| %.2f rho %.1f "
                  "p %.0f; within 2h: %d fluid, %d wall; nearest wall particle %.1f dp" %
                  (a["id"][i], *pos[i], *vel[i], speed[i], a["density"][i], a["pressure"][i],
                   count_within(pos[fluid], pos[i], two_h) - 1,  # less the particle itself
                   count_within(walls, pos[i], two_h), near_wall / args.dp))
        ids = dict(zip(a["id"].tolist(), range(len(a["id"]))))
        if previous is not None:
            gone = [(j, k) for j, k in previous[0].items() if j not in ids]
            last_seen += [(previous[1][k], previous[2][k]) for _, k in gone]
            for j, k in gone[:args.top]:
                print("  gone since the last frame: id %d, last at (%.3f, %.3f, %.3f) v "
                      "(%+.2f, %+.2f, %+.2f)" % (j, *previous[1][k], *previous[2][k]))
            if len(gone) > args.top:
                print("  ... and %d more gone" % (len(gone) - args.top))
        previous = (ids, pos, vel)
    if tank is not None and last_seen:
        print_where_gone(last_seen, tank, args.dp)


if __name__ == "__main__":
    main()
