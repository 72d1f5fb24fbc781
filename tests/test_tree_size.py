"""The checkout stays under its size budget.

Every tracked file travels with each call to the GPU machine, which carries 64 MiB at most with
the packed executables (scripts/pack_for_device.sh, 10-13 MiB). The budget leaves room for them.
Results folders keep their longer series xz-compressed and their figures in a palette
(scripts/compact_results.py); the raw series of runs before 2026-12-01 are in the history
(bench/results/README.md says where).
Run: python3 tests/test_tree_size.py (exit 1 over the budget, naming the largest folders; 77,
which ctest reports as skipped, outside a git checkout).
"""
import collections
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
BUDGET_MIB = 48.0


def tracked_sizes():
    """(path, bytes) of every tracked file present in the working tree."""
    listing = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z"], check=True,
                             capture_output=True).stdout.decode()
    for name in filter(None, listing.split("\0")):
        path = ROOT / name
        if path.is_file():
            yield name, path.stat().st_size


def main():
    try:
        sizes = list(tracked_sizes())
    except (OSError, subprocess.CalledProcessError) as e:
        print(f"test_tree_size: skipped, not a git checkout ({e})")
        return 77
    total = sum(size for _, size in sizes) / 2**20
    by_folder = collections.Counter()
    for name, size in sizes:
        by_folder["/".join(name.split("/")[:3])] += size
    print(f"tracked files: {total:.1f} MiB of a {BUDGET_MIB:g} MiB budget")
    if total <= BUDGET_MIB:
        return 0
    print("largest folders:")
    for folder, size in by_folder.most_common(10):
        print(f"  {size / 2**20:7.2f} MiB  {folder}")
    print("compact new results with scripts/compact_results.py, or leave their raw series out")
    return 1


if __name__ == "__main__":
    sys.exit(main())
