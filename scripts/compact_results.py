#!/usr/bin/env python3
"""Keeps results folders small: longer series compressed, figures in a palette.

    /usr/bin/python3 scripts/compact_results.py validation/results/<folder> bench/results/<folder>

A run's series (gauges.csv, gauges_filtered.csv, wall_pressure.csv, load_balance.csv, traces,
logs) larger than --threshold (32 KiB) are replaced by an xz-compressed copy, NAME.xz, which
validation/case_run.py reads as it reads NAME (`--from-output` works on a compacted folder).
What a reader or a case script opens first stays as it is: README.md, summary.md, metrics.csv,
ensemble.csv, ensemble.md, case.json and each run's run_report.json. PNG figures are redrawn in
a palette of 64 colours where that makes them smaller (about a third of the size for line plots;
needs PIL, which Debian's python3-matplotlib brings).

Why: every tracked file travels with each call to the GPU machine, which carries 64 MiB at most
(tests/test_tree_size.py holds the checkout under its budget), and a checkout is pleasanter to
clone without a hundred megabytes of text series.
Exit 0, or 2 for a folder that does not exist.
"""

import argparse
import lzma
import os
import sys
from typing import Iterator, List, Tuple

try:
    from PIL import Image
except ImportError:  # figures are then left as they are, and the run says so
    Image = None

SERIES_SUFFIXES = (".csv", ".json", ".log", ".txt")
# What the case scripts and ensemble.py open as they are: a case's settings, each run's report,
# the metrics.
KEEP_PLAIN = ("case.json", "run_report.json", "metrics.csv", "ensemble.csv")
PALETTE_COLOURS = 64


def files_under(folders: List[str]) -> Iterator[str]:
    for folder in folders:
        for root, dirs, names in os.walk(folder):
            dirs.sort()
            for name in sorted(names):
                yield os.path.join(root, name)


def compress_series(path: str) -> Tuple[int, int]:
    """path -> path.xz (the file removed once its copy is written and verified); the sizes
    before and after."""
    with open(path, "rb") as f:
        data = f.read()
    packed = lzma.compress(data, preset=9 | lzma.PRESET_EXTREME)
    if lzma.decompress(packed) != data:
        raise RuntimeError(f"{path}: the compressed copy does not read back")
    temporary = path + ".xz.tmp"
    with open(temporary, "wb") as f:
        f.write(packed)
    os.replace(temporary, path + ".xz")
    os.remove(path)
    return len(data), len(packed)


def palette_png(path: str) -> Tuple[int, int]:
    """The figure in a palette of PALETTE_COLOURS where that is smaller; the sizes before and
    after (the same where it was left)."""
    before = os.path.getsize(path)
    with Image.open(path) as image:
        if image.mode == "P":
            return before, before
        quantized = image.convert("RGB").quantize(colors=PALETTE_COLOURS,
                                                  method=Image.Quantize.MEDIANCUT)
    temporary = path + ".tmp.png"
    quantized.save(temporary, optimize=True)
    after = os.path.getsize(temporary)
    if after < before:
        os.replace(temporary, path)
        return before, after
    os.remove(temporary)
    return before, before


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folders", nargs="+", help="results folders to compact")
    parser.add_argument("--threshold", type=int, default=32 * 1024,
                        help="compress series larger than this many bytes (default 32 KiB)")
    parser.add_argument("--no-figures", action="store_true", help="leave the PNG figures")
    args = parser.parse_args(argv)
    if Image is None and not args.no_figures:
        print("compact_results: no PIL here: the figures are left as they are")
        args.no_figures = True
    missing = [f for f in args.folders if not os.path.isdir(f)]
    if missing:
        print(f"compact_results: no such folder: {', '.join(missing)}", file=sys.stderr)
        return 2
    before = after = 0
    for path in files_under(args.folders):
        name = os.path.basename(path)
        if name.endswith(SERIES_SUFFIXES) and name not in KEEP_PLAIN \
                and os.path.getsize(path) > args.threshold:
            b, a = compress_series(path)
        elif name.endswith(".png") and not args.no_figures:
            b, a = palette_png(path)
        else:
            continue
        before, after = before + b, after + a
    print(f"compact_results: {before / 2**20:.2f} MiB of series and figures now take "
          f"{after / 2**20:.2f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
