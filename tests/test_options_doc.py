"""docs/options.md is what the problem programs' --help prints (scripts/options_doc.py).

The page is generated again into a temporary file from the programs CMake built and compared with
the one checked in; a difference fails, saying how to regenerate it. The programs' paths come
from CMake (tests/CMakeLists.txt, --exe NAME=PATH as the script takes them).
Run: python3 tests/test_options_doc.py --exe dambreak=build/src/dambreak --exe ... (exit 1 and
the difference).
"""
import difflib
import importlib.util
import pathlib
import subprocess
import sys
import tempfile
import unittest

ROOT = pathlib.Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "options_doc.py"
PAGE = ROOT / "docs" / "options.md"
EXE_ARGUMENTS = []  # --exe NAME=PATH, from the command line

spec = importlib.util.spec_from_file_location("options_doc", SCRIPT)
options_doc = importlib.util.module_from_spec(spec)
spec.loader.exec_module(options_doc)

HELP = """Options of Tank:

Run:
  -h [ --help ]            print this help and exit
  --dp arg (=0.02)         particle spacing [m]
  --t-end arg (=6)         simulated end time [s]

Physics and numerics:
  --alpha arg (=0.05)      artificial viscosity coefficient (Monaghan)
                           [-]
"""


class OptionsPageTest(unittest.TestCase):
    def test_the_page_is_what_the_programs_print(self):
        with tempfile.TemporaryDirectory() as scratch:
            out = pathlib.Path(scratch) / "options.md"
            done = subprocess.run([sys.executable, "-B", str(SCRIPT), "--out", str(out),
                                   *EXE_ARGUMENTS], capture_output=True, text=True)
            self.assertEqual(done.returncode, 0, f"scripts/options_doc.py failed: {done.stderr}")
            generated = out.read_text(encoding="utf-8")
        checked_in = PAGE.read_text(encoding="utf-8") if PAGE.exists() else ""
        if generated != checked_in:
            diff = difflib.unified_diff(checked_in.splitlines(), generated.splitlines(),
                                        "docs/options.md", "from --help", lineterm="", n=1)
            self.fail("docs/options.md differs from the programs' --help: build them and run "
                      f"`{options_doc.REGENERATE}`, then commit docs/options.md.\n" +
                      "\n".join(list(diff)[:60]))

    def test_another_default_and_an_own_group_are_listed_and_nothing_else(self):
        other = HELP.replace("(=0.02)", "(=0.01)").replace(
            "  --alpha arg (=0.05)      artificial viscosity coefficient (Monaghan)\n"
            "                           [-]\n",
            "  --alpha arg (=0.05)         artificial viscosity coefficient\n"
            "                              (Monaghan) [-]\n\n"
            "Tank:\n  --depth arg (=0.5)       still-water depth H [m]\n")
        _, base_groups = options_doc.split_groups(HELP)
        section = "\n".join(options_doc.program_section("tank", other, base_groups))
        self.assertIn("--dp arg (=0.01)", section)
        self.assertIn("Its own options (Tank):", section)
        self.assertIn("--depth arg (=0.5)", section)
        # Wrapped at another column, the same words are the same option.
        self.assertNotIn("--alpha", section)
        self.assertNotIn("--t-end", section)

    def test_the_same_help_says_so(self):
        _, base_groups = options_doc.split_groups(HELP)
        section = options_doc.program_section("tank", HELP, base_groups)
        self.assertIn("The same options as `dambreak`.", section)


if __name__ == "__main__":
    EXE_ARGUMENTS = sys.argv[1:]
    unittest.main(argv=sys.argv[:1])
