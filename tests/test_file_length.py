"""No source file is over 400 lines (ARCHITECTURE.md, habit 5: files small and single-purpose).

Every .cpp, .h, .cu and .cuh file under src/, kernels/, problems/ and io/ is counted as wc -l
counts it; one over the limit is named with its length, to be split by purpose rather than
trimmed.
Run: python3 tests/test_file_length.py (exit 1 and the files over the limit).
"""
import pathlib
import tempfile
import unittest

ROOT = pathlib.Path(__file__).resolve().parent.parent
FOLDERS = ("src", "kernels", "problems", "io")
SUFFIXES = (".cpp", ".h", ".cu", ".cuh")
MOST_LINES = 400


def source_files(root):
    for folder in FOLDERS:
        for path in sorted((root / folder).rglob("*")):
            if path.is_file() and path.suffix in SUFFIXES:
                yield path


def line_count(path):
    return path.read_bytes().count(b"\n")


def files_over_the_limit(root):
    """'path: N lines' for each source file under `root` over MOST_LINES."""
    return [f"{path.relative_to(root)}: {count} lines" for path in source_files(root)
            if (count := line_count(path)) > MOST_LINES]


class FileLengthTest(unittest.TestCase):
    def test_every_folder_holds_sources(self):
        # A folder moved away would leave nothing to count, and the test passing for nothing.
        for folder in FOLDERS:
            self.assertTrue(any((ROOT / folder).rglob("*.h")), f"no header under {folder}/")

    def test_no_source_file_is_over_the_limit(self):
        over = files_over_the_limit(ROOT)
        self.assertEqual(over, [], f"over {MOST_LINES} lines (split each by purpose): {over}")

    def test_a_file_one_line_over_is_named_and_one_at_the_limit_is_not(self):
        with tempfile.TemporaryDirectory() as scratch:
            root = pathlib.Path(scratch)
            (root / "src" / "deep").mkdir(parents=True)
            (root / "kernels").mkdir()
            (root / "src" / "deep" / "long.cu").write_text("x\n" * (MOST_LINES + 1))
            (root / "kernels" / "full.h").write_text("x\n" * MOST_LINES)
            (root / "kernels" / "notes.txt").write_text("x\n" * 1000)
            self.assertEqual(files_over_the_limit(root), ["src/deep/long.cu: 401 lines"])


if __name__ == "__main__":
    unittest.main()
