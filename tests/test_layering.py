"""The layers of src/ include only downwards (ARCHITECTURE.md, "Layers").

Each folder of src/ has a rank; a file may include headers of its own folder and of folders of a
lower rank, never of a higher or equal-ranked other folder. The Device interface (the files
directly in src/devices/) includes neither back end, and the back ends do not include each other.
Run: python3 tests/test_layering.py (exit 1 and a list of the ties that run upwards).
"""
import pathlib
import re
import sys
import unittest

SRC = pathlib.Path(__file__).resolve().parent.parent / "src"
RANK = {"common": 0, "ranks": 1, "devices": 1, "geometry": 1, "multi_device": 2, "instruments": 2,
        "bodies": 2, "boundaries": 2, "report": 3, "checkpoint": 3,
        "driver": 4, "branches": 5, "app": 6, "cases": 7}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/([^"]+)"', re.M)


def folder_of(path):
    return path.relative_to(SRC).parts[0]


def back_end_of(relative):
    """'cpu' or 'cuda' for a path inside src/devices/<back end>/, else None."""
    parts = pathlib.PurePosixPath(relative).parts
    return parts[1] if len(parts) > 2 and parts[0] == "devices" else None


def upward_ties():
    ties = []
    for path in sorted(SRC.rglob("*")):
        relative = path.relative_to(SRC)
        if path.suffix not in (".h", ".cpp", ".cu") or len(relative.parts) < 2:
            continue
        here = relative.parts[0]
        for target, rest in INCLUDE.findall(path.read_text()):
            if target not in RANK:
                continue  # kernels/, problems/ and io/ headers ("cuda/cuda_check.h", ...)
            tie = f"{relative} includes {target}/{rest}"
            if target != here and RANK[target] >= RANK[here]:
                ties.append(tie)
            # Within devices/: the interface knows no back end, a back end only its own.
            wanted = back_end_of(f"{target}/{rest}")
            if target == "devices" and wanted is not None and wanted != back_end_of(relative):
                if here == "devices":
                    ties.append(tie)
    return ties


class LayeringTest(unittest.TestCase):
    def test_every_folder_has_a_rank(self):
        folders = {p.name for p in SRC.iterdir() if p.is_dir()}
        self.assertEqual(folders, set(RANK))

    def test_no_include_runs_upwards(self):
        self.assertEqual(upward_ties(), [])


if __name__ == "__main__":
    unittest.main()
