#!/usr/bin/env python3
"""Runs every validation case, each into a folder of its own, and writes an index summary.

    python3 validation/run_validation.py --build-dir build --backend cuda \\
        --out validation/results/h200 --spheric-dp 0.02,0.015,0.01
    python3 validation/run_validation.py --build-dir build --quick --out /tmp/quick -- --threads 1
    python3 validation/run_validation.py --from-output validation/results/h200

Cases: spheric (spheric_dambreak.py), column_collapse (column_collapse.py), hydrostatic
(hydrostatic.py), lobovsky (lobovsky.py). Each writes <out>/<case>/summary.md; this writes
<out>/summary.md with every case's verdict and table. A case that cannot run (bad arguments, a
failed run) is reported and the others still run; the exit code is then 1 (2 for bad arguments of
this tool). --strict: exit 3 when all ran but a metric is outside its threshold.
"""

import argparse
import os
import re
import shlex
import sys
from typing import Dict, List, Sequence

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import case_run  # noqa: E402
import column_collapse  # noqa: E402
import hydrostatic  # noqa: E402
import lobovsky  # noqa: E402
import spheric_dambreak  # noqa: E402

# name -> (module, title, option of this tool giving its --dp)
CASES = {
    "spheric": (spheric_dambreak, "SPHERIC test 2 water heights", "spheric_dp"),
    "column_collapse": (column_collapse, "Collapse of a water column", "collapse_dp"),
    "hydrostatic": (hydrostatic, "Hydrostatic tank", "hydrostatic_dp"),
    "lobovsky": (lobovsky, "Lobovsky et al. 2014 dam break", "lobovsky_dp"),
}


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    argv, passthrough = case_run.split_passthrough(argv)
    p = argparse.ArgumentParser(
        prog="run_validation.py",
        description="Run the validation cases (SPHERIC test 2, column collapse, hydrostatic "
        "tank, Lobovsky dam break) and write one summary of all of them.",
        epilog="Arguments after `--` go to every run of every case, e.g. `-- --threads 1`.")
    case_run.add_common_options(p, None)
    p.add_argument("--cases", help=f"cases to run, comma-separated (default {','.join(CASES)}; "
                   "with --from-output, those found there)")
    p.add_argument("--spheric-dp", help="SPHERIC dp list, e.g. 0.02,0.015,0.01")
    p.add_argument("--collapse-dp", help="column collapse dp [m]")
    p.add_argument("--hydrostatic-dp", help="hydrostatic tank dp [m]")
    p.add_argument("--lobovsky-dp", help="Lobovsky dp list, e.g. 0.01,0.005,0.0025")
    args = p.parse_args(argv)
    args.passthrough = passthrough
    if args.cases is None:
        found = [c for c in CASES if args.from_output is None
                 or os.path.isfile(os.path.join(args.from_output, c, "case.json"))]
        if not found:
            p.error(f"--from-output {args.from_output}: no case folder ({', '.join(CASES)}) "
                    "with a case.json there")
        args.cases = ",".join(found)
    args.case_list = [c.strip() for c in args.cases.split(",") if c.strip()]
    unknown = [c for c in args.case_list if c not in CASES]
    if unknown or not args.case_list or len(set(args.case_list)) != len(args.case_list):
        p.error(f"--cases must list distinct cases among {','.join(CASES)} (got '{args.cases}')")
    if args.from_output:
        if (passthrough or args.quick or args.runs_only or args.keep_frames or args.gpus
                or args.resume or args.spheric_dp or args.collapse_dp or args.hydrostatic_dp or args.lobovsky_dp):
            p.error("--from-output runs nothing: leave out --quick, --runs-only, --keep-frames, "
                    "--gpus, --resume, the --*-dp options and the arguments after --")
        missing = [c for c in args.case_list
                   if not os.path.isfile(os.path.join(args.from_output, c, "case.json"))]
        if missing:
            p.error(f"--from-output {args.from_output}: no {', '.join(missing)} results there")
        args.out = args.out or args.from_output
    elif not args.out:
        p.error("--out is required (or --from-output)")
    return args


def case_argv(args: argparse.Namespace, name: str) -> List[str]:
    out = os.path.join(args.out, name)
    strict = ["--strict"] if args.strict else []
    if args.from_output:
        return ["--from-output", os.path.join(args.from_output, name), "--out", out] + strict
    argv = ["--build-dir", args.build_dir, "--backend", args.backend, "--out", out] + strict
    flags = (("--quick", args.quick), ("--runs-only", args.runs_only),
             ("--keep-frames", args.keep_frames), ("--resume", args.resume))
    argv += [flag for flag, on in flags if on]
    if args.gpus:
        argv += ["--gpus", args.gpus]
    dp = getattr(args, CASES[name][2])
    if dp:
        argv += ["--dp", dp]
    return argv + (["--"] + args.passthrough if args.passthrough else [])


def run_one(args: argparse.Namespace, name: str) -> int:
    module = CASES[name][0]
    argv = case_argv(args, name)
    print(f"=== {name}: {module.__name__}.py {shlex.join(argv)}", file=sys.stderr, flush=True)
    try:
        return module.main(argv)
    except SystemExit as e:  # argparse's error exit
        return e.code if isinstance(e.code, int) else 2


def case_section(args: argparse.Namespace, name: str, code: int) -> List[str]:
    title = CASES[name][1]
    path = os.path.join(args.out, name, "summary.md")
    if args.runs_only and code == 0:
        return [f"## {title}", "", f"Runs recorded in `{name}/` (--runs-only): compare them with "
                "`run_validation.py --from-output`.", ""]
    if code in (case_run.EXIT_USAGE, case_run.EXIT_RUN_FAILED) or not os.path.isfile(path):
        return [f"## {title}", "", f"**Did not complete** (exit code {code}); the error is in "
                "the console output of run_validation.py.", ""]
    with open(path) as f:
        text = f.read()
    # All but the title, figures made relative to the index.
    body = text.split("\n", 1)[1] if text.startswith("# ") else text
    body = re.sub(r"!\[([^\]]*)\]\(([^)/]+)\)", rf"![\1]({name}/\2)", body)
    return [f"## {title}", "", f"Details: [{name}/summary.md]({name}/summary.md)", "",
            *body.strip().split("\n"), ""]


def write_index(args: argparse.Namespace, codes: Dict[str, int], argv: Sequence[str]) -> str:
    lines = ["# Validation results", "",
             f"`python3 validation/run_validation.py {shlex.join(argv)}`", "",
             "| case | verdict |", "| --- | --- |"]
    sections = []
    for name, code in codes.items():
        section = case_section(args, name, code)
        verdict = next((line.strip("*") for line in section
                        if line.startswith("**") and "checks pass" in line),
                       "did not complete" if code not in (0, case_run.EXIT_STRICT_FAIL)
                       else "runs recorded")
        lines.append(f"| [{CASES[name][1]}]({name}/summary.md) | {verdict} |")
        sections += section
    lines += [""] + sections
    path = os.path.join(args.out, "summary.md")
    os.makedirs(args.out, exist_ok=True)
    with open(path, "w") as f:
        f.write("\n".join(lines))
    return path


def main(argv: Sequence[str]) -> int:
    args = parse_args(argv)
    codes = {name: run_one(args, name) for name in args.case_list}
    path = write_index(args, codes, argv)
    print(f"wrote {path}", file=sys.stderr)
    failed = {n: c for n, c in codes.items() if c in (case_run.EXIT_USAGE,
                                                      case_run.EXIT_RUN_FAILED)}
    for name, code in codes.items():
        print(f"  {name}: " + {0: "completed", case_run.EXIT_STRICT_FAIL: "metrics outside "
                               "thresholds"}.get(code, f"did not complete (exit code {code})"),
              file=sys.stderr)
    if failed:
        return case_run.EXIT_RUN_FAILED
    return case_run.EXIT_STRICT_FAIL if any(c == case_run.EXIT_STRICT_FAIL
                                            for c in codes.values()) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
