#!/usr/bin/env python3
"""Writes docs/options.md from the problem programs' --help.

    cmake --build build -j 1 --target dambreak bore_in_a_box column_collapse still_water lobovsky case
    python3 scripts/options_doc.py            # reads build/src/<program> --help, writes docs/options.md

Every problem program takes the same options; they differ in the defaults of a few (--dp,
--t-end) and in a group of their own (BoreInABox's --variant, StillWater's tank). The page holds
dambreak's --help whole, then, for each other program, the options whose help differs from
dambreak's and its own groups. --exe NAME=PATH takes a program from elsewhere (the test passes
CMake's paths); --out another file (the test writes a temporary one and compares:
tests/test_options_doc.py, ctest `options_doc`).
Exit 0, 1 when a program cannot be run or its --help fails, 2 for bad arguments.
"""

import argparse
import os
import re
import subprocess
import sys
import textwrap
from typing import Dict, List, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The program whose help is given whole first, then the others in this order.
PROGRAMS = ("dambreak", "bore_in_a_box", "column_collapse", "still_water", "lobovsky", "case")
BASE = PROGRAMS[0]
REGENERATE = "python3 scripts/options_doc.py"

# A group of Boost's help: its caption alone on a line ("Run:"), then its options, indented.
Group = Tuple[str, List[str]]


def run_help(path: str) -> str:
    try:
        done = subprocess.run([path, "--help"], capture_output=True, text=True, timeout=120,
                              env={**os.environ, "LC_ALL": "C"})
    except OSError as e:
        raise RuntimeError(f"cannot run '{path}': {e.strerror} (build it first: "
                           f"cmake --build build --target {os.path.basename(path)})") from e
    if done.returncode != 0:
        raise RuntimeError(f"'{path} --help' exited with {done.returncode}: {done.stderr.strip()}")
    return done.stdout


def split_groups(help_text: str) -> Tuple[str, List[Group]]:
    """The help's first line ("Options of DamBreak:") and its groups, each caption with its lines."""
    # Boost pads wrapped lines with a space at their ends; the page keeps none.
    lines = [line.rstrip() for line in help_text.rstrip("\n").split("\n")]
    title, groups = lines[0], []
    for line in lines[1:]:
        if line and not line.startswith(" ") and line.endswith(":"):
            groups.append((line[:-1], []))
        elif groups:
            groups[-1][1].append(line)
        elif line.strip():
            raise ValueError(f"help text before its first group: {line!r}")
    for _, body in groups:
        while body and not body[-1].strip():
            body.pop()
    return title, groups


def option_entries(body: List[str]) -> Dict[str, List[str]]:
    """Each option of a group's lines, by its name ("--dp"), with its continuation lines."""
    entries: Dict[str, List[str]] = {}
    name = None
    for line in body:
        found = re.match(r"^  (?:-\w \[ )?(--[\w-]+)", line)
        if found:
            name = found.group(1)
            entries[name] = [line]
        elif name is not None and line.strip():
            entries[name].append(line)
    return entries


def same_words(entry):
    """An option's help as words: Boost aligns the descriptions after the longest option name of
    the whole help, so a program with a longer one of its own wraps every line differently."""
    return None if entry is None else " ".join(" ".join(entry).split())


def fenced(lines: List[str]) -> List[str]:
    return ["```text", *lines, "```"]


def program_section(name: str, help_text: str, base_groups: List[Group]) -> List[str]:
    """What `name`'s help says that dambreak's does not: options with other defaults or text, and
    its own groups."""
    _, groups = split_groups(help_text)
    base = {caption: option_entries(body) for caption, body in base_groups}
    differing: List[str] = []
    own: List[Group] = []
    for caption, body in groups:
        if caption not in base:
            own.append((caption, body))
            continue
        for option, entry in option_entries(body).items():
            if same_words(base[caption].get(option)) != same_words(entry):
                differing += entry
    out = [f"### `{name}`", ""]
    if differing:
        out += [f"Options whose default or help differs from `{BASE}`'s:", "", *fenced(differing), ""]
    for caption, body in own:
        out += [f"Its own options ({caption}):", "", *fenced([caption + ":", *body]), ""]
    if not differing and not own:
        out += [f"The same options as `{BASE}`.", ""]
    return out


def options_page(helps: Dict[str, str]) -> str:
    title, base_groups = split_groups(helps[BASE])
    out = [
        "# Options of the problem programs",
        "",
        "Generated from the programs' `--help` by `scripts/options_doc.py`; do not edit it by hand.",
        f"After changing an option, build the programs and run `{REGENERATE}` (ctest",
        "`options_doc` fails while this page differs from what the programs print). What the options",
        "do, in prose: [running.md](running.md); case files set them by the same names:",
        "[cases.md](cases.md).",
        "",
        f"## Every program: `{BASE} --help`",
        "",
        *textwrap.wrap(f"Every problem program (`{'`, `'.join(PROGRAMS)}`) takes these options; "
                       "the next section gives where the others differ.", width=100,
                       break_on_hyphens=False),
        "",
        *fenced([title, *[line for caption, body in base_groups for line in ["", caption + ":", *body]]]),
        "",
        "## Each program's own",
        "",
    ]
    for name in PROGRAMS[1:]:
        out += program_section(name, helps[name], base_groups)
    return "\n".join(out).rstrip("\n") + "\n"


def parse_arguments(argv: List[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--bin-dir", default=os.path.join(ROOT, "build", "src"),
                   help="folder holding the programs (default: build/src)")
    p.add_argument("--exe", action="append", default=[], metavar="NAME=PATH",
                   help=f"the program NAME ({', '.join(PROGRAMS)}) at PATH; repeatable")
    p.add_argument("--out", default=os.path.join(ROOT, "docs", "options.md"),
                   help="file to write (default: docs/options.md)")
    args = p.parse_args(argv)
    args.paths = {name: os.path.join(args.bin_dir, name) for name in PROGRAMS}
    for given in args.exe:
        name, sep, path = given.partition("=")
        if not sep or name not in PROGRAMS:
            p.error(f"--exe {given}: expected NAME=PATH, NAME one of {', '.join(PROGRAMS)}")
        args.paths[name] = path
    return args


def main(argv: List[str]) -> int:
    args = parse_arguments(argv)
    try:
        page = options_page({name: run_help(path) for name, path in args.paths.items()})
    except (RuntimeError, ValueError) as e:
        print(f"options_doc: {e}", file=sys.stderr)
        return 1
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(page)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
