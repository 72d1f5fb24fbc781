#!/usr/bin/env python3
"""Writes the small meshes and elevation grid the example cases use (plain Python, no packages).

  python3 cases/geometry/make_geometry.py    # rewrites the files beside this script

- spheric_obstacle.stl: SPHERIC test 2's obstacle (Kleefsman et al. 2005), 0.161 x 0.403 x
  0.161 m, as an ASCII STL in the tank's frame (cases/dam_break_mesh.yaml).
- building.stl: a house 0.30 m deep, 0.40 m wide, walls 0.25 m high under a pitched roof to
  0.35 m, in millimetres as CAD exports it, its foot at the origin (cases/flood_street.yaml
  scales and places it).
- street.asc: an ESRI ASCII elevation grid 6.0 x 2.0 m at 0.05 m: a street sloping 1:50 down
  along x, banks rising 0.1 m towards its sides, a dip before the building.
"""
import math
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def box_triangles(lo, hi):
    """A box's 12 triangles, counter-clockwise seen from outside."""
    x0, y0, z0 = lo
    x1, y1, z1 = hi
    v = [(x0, y0, z0), (x1, y0, z0), (x1, y1, z0), (x0, y1, z0),
         (x0, y0, z1), (x1, y0, z1), (x1, y1, z1), (x0, y1, z1)]
    quads = [(0, 3, 2, 1), (4, 5, 6, 7), (0, 1, 5, 4), (2, 3, 7, 6), (1, 2, 6, 5), (0, 4, 7, 3)]
    tris = []
    for a, b, c, d in quads:
        tris += [(v[a], v[b], v[c]), (v[a], v[c], v[d])]
    return tris


def house_triangles(depth, width, wall, ridge):
    """A house along x (depth) and y (width), walls to `wall`, a ridge along x at `ridge`."""
    tris = []
    base = [(0, 0, 0), (depth, 0, 0), (depth, width, 0), (0, width, 0)]
    top = [(0, 0, wall), (depth, 0, wall), (depth, width, wall), (0, width, wall)]
    r0, r1 = (0, width / 2, ridge), (depth, width / 2, ridge)
    tris += [(base[0], base[3], base[2]), (base[0], base[2], base[1])]  # floor, facing down
    for k in range(4):  # four walls
        a, b = base[k], base[(k + 1) % 4]
        c, d = top[(k + 1) % 4], top[k]
        tris += [(a, b, c), (a, c, d)]
    tris += [(top[0], top[1], r1), (top[0], r1, r0)]  # roof slope facing -y
    tris += [(top[2], top[3], r0), (top[2], r0, r1)]  # roof slope facing +y
    tris += [(top[1], top[2], r1), (top[3], top[0], r0)]  # gables
    return tris


def normal(t):
    (ax, ay, az), (bx, by, bz), (cx, cy, cz) = t
    ux, uy, uz = bx - ax, by - ay, bz - az
    vx, vy, vz = cx - ax, cy - ay, cz - az
    n = (uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx)
    length = math.sqrt(sum(c * c for c in n)) or 1.0
    return tuple(c / length for c in n)


def write_ascii_stl(path, name, tris):
    with open(path, "w") as f:
        f.write(f"solid {name}\n")
        for t in tris:
            f.write("  facet normal %.6g %.6g %.6g\n    outer loop\n" % normal(t))
            for p in t:
                f.write("      vertex %.9g %.9g %.9g\n" % p)
            f.write("    endloop\n  endfacet\n")
        f.write(f"endsolid {name}\n")


def write_binary_stl(path, tris):
    with open(path, "wb") as f:
        f.write(b"sph-sim example house, millimetres".ljust(80, b" "))
        f.write(struct.pack("<I", len(tris)))
        for t in tris:
            f.write(struct.pack("<3f", *normal(t)))
            for p in t:
                f.write(struct.pack("<3f", *p))
            f.write(b"\0\0")


def street_elevation(x, y, width):
    z = -0.02 * x  # 1:50 down along x
    bank = abs(y - width / 2) / (width / 2)
    z += 0.1 * max(0.0, bank - 0.6) / 0.4  # banks rise 0.1 m over the outer fifths
    z -= 0.03 * math.exp(-((x - 3.6) / 0.3) ** 2)  # a dip before the building
    return z


def write_street(path, length=6.0, width=2.0, cell=0.05):
    cols, rows = int(round(length / cell)) + 1, int(round(width / cell)) + 1
    with open(path, "w") as f:
        f.write(f"ncols {cols}\nnrows {rows}\n")
        # Georeferenced as a survey would be (metres in a projected frame): the case translates.
        f.write(f"xllcorner {500000 - cell / 2:.3f}\nyllcorner {4100000 - cell / 2:.3f}\n")
        f.write(f"cellsize {cell}\nNODATA_value -9999\n")
        for r in range(rows):  # first row is the northernmost (largest y)
            y = (rows - 1 - r) * cell
            f.write(" ".join("%.4f" % street_elevation(c * cell, y, width) for c in range(cols)))
            f.write("\n")


if __name__ == "__main__":
    write_ascii_stl(os.path.join(HERE, "spheric_obstacle.stl"), "spheric_obstacle",
                    box_triangles((0.6635, 0.295, 0.0), (0.8245, 0.698, 0.161)))
    write_binary_stl(os.path.join(HERE, "building.stl"), house_triangles(300, 400, 250, 350))
    write_street(os.path.join(HERE, "street.asc"))
