#!/usr/bin/env python3
"""Strong-scaling report: run one problem on 1..N devices and tabulate it like the paper's Tables 1-2.

    validation/scaling_report.py --exe build/src/dambreak --backend cuda --devices-list 1,2 \\
        --out scaling/db02 -- --dp 0.02 --t-end 0.5 --no-output
    validation/scaling_report.py --from-csv validation/data/paper_bore_in_a_box.csv --out paper
    validation/scaling_report.py --from-runs fetched/bore-corridor --out report/bore-corridor

Every run gets the same arguments (those after `--`), so the same work; the runtime is the time
loop of run_report.json (`wall_time_s.time_loop`, set-up excluded), and S = runtime_1 / runtime_N.
Writes scaling.md, scaling.csv and scaling.png into --out and prints the Markdown and CSV.
"""

import argparse
import csv
import math
import os
import re
import shlex
import subprocess
import sys
from typing import Dict, List, Optional, Sequence

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scaling  # noqa: E402
from run_reports import RunError  # noqa: E402  (exit code 1)
import run_reports  # noqa: E402
from scaling_tables import write_outputs  # noqa: E402

# Options the tool sets itself on every run; given after `--` they would break the series.
OWN_OPTIONS = ("--output-dir", "--devices", "--backend", "--lb")
LB_MODES = ("off", "on")


class UsageError(Exception):
    """Bad arguments or input (exit code 2)."""


# ---------------------------------------------------------------- arguments

def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    argv = list(argv)
    passthrough: List[str] = []
    if "--" in argv:
        cut = argv.index("--")
        argv, passthrough = argv[:cut], argv[cut + 1:]
    p = argparse.ArgumentParser(
        prog="scaling_report.py",
        description="Run a problem executable on 1..N devices with the same settings and "
        "report runtime (time loop, set-up excluded), mips, speedup, efficiency and the "
        "Karp-Flatt serial fraction as Markdown, CSV and a PNG plot.",
        epilog="Arguments after `--` go to every run of the executable, e.g. "
        "`-- --dp 0.02 --t-end 0.5 --no-output`.",
    )
    p.add_argument("--exe", help="problem executable, e.g. build/src/dambreak")
    p.add_argument("--devices-list", default="1,2",
                   help="device counts to run, comma-separated; must include 1 (default 1,2)")
    p.add_argument("--backend", choices=("cpu", "cuda"), default="cuda",
                   help="cuda (default): N devices are GPUs 0..N-1; cpu: N virtual CPU devices")
    p.add_argument("--gpu-ids-same", action="store_true",
                   help="cuda: run N devices on GPU 0 (--devices 0,0,...), for testing")
    p.add_argument("--lb", default=None,
                   help="balancing modes for N > 1, e.g. off,on: each run gets --lb MODE "
                   "(not passed at all when this is not given)")
    p.add_argument("--out", required=True, help="output folder (runs go to OUT/runs/<config>)")
    p.add_argument("--label", default="", help="name of the series, shown in titles and the CSV")
    p.add_argument("--from-csv", metavar="FILE",
                   help="make the report from measured rows (columns devices, runtime_s and/or "
                   "mips, optional lb and label) instead of running anything")
    p.add_argument("--from-runs", metavar="DIR",
                   help="make the report from runs already made (DIR/runs/<config>/run_report.json "
                   "with configs n1, n2-lb-off, n2-lb-on ..., the layout this tool writes), e.g. "
                   "on a machine without matplotlib")
    args = p.parse_args(argv)
    args.passthrough = passthrough
    try:
        check_args(args)
    except UsageError as e:
        p.error(str(e))
    return args


def check_args(args: argparse.Namespace) -> None:
    if args.from_csv and args.from_runs:
        raise UsageError("give --from-csv or --from-runs, not both")
    if args.from_csv or args.from_runs:
        if args.exe or args.passthrough:
            raise UsageError("--from-csv and --from-runs run nothing: leave out --exe and "
                             "arguments after --")
        return
    if not args.exe:
        raise UsageError("--exe is required (or --from-csv)")
    args.devices = parse_device_counts(args.devices_list)
    args.lb_modes = parse_lb_modes(args.lb) if args.lb is not None else [""]
    if args.gpu_ids_same and args.backend != "cuda":
        raise UsageError("--gpu-ids-same applies to --backend cuda")
    for a in args.passthrough:
        if a.split("=", 1)[0] in OWN_OPTIONS:
            raise UsageError(f"{a.split('=', 1)[0]} is set by the tool for each run; "
                             "leave it out of the arguments after --")


def parse_device_counts(text: str) -> List[int]:
    try:
        counts = [int(item) for item in text.split(",")]
    except ValueError:
        raise UsageError(f"--devices-list must be counts like 1,2,4 (got '{text}')") from None
    if any(n < 1 for n in counts) or len(set(counts)) != len(counts):
        raise UsageError(f"--devices-list must be distinct counts >= 1 (got '{text}')")
    if 1 not in counts:
        raise UsageError(f"--devices-list must include 1: speedups are relative to it (got '{text}')")
    return sorted(counts)


def parse_lb_modes(text: str) -> List[str]:
    modes = [m.strip() for m in text.split(",")]
    if not modes or any(m not in LB_MODES for m in modes) or len(set(modes)) != len(modes):
        raise UsageError(f"--lb must list distinct modes among off,on (got '{text}')")
    return modes


def load_pyplot():
    """matplotlib's pyplot on the Agg back end; a missing matplotlib stops the tool (exit 1)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as e:
        raise RunError(
            f"matplotlib is needed for the plot but cannot be imported by {sys.executable} ({e}); "
            "install it (Debian: apt-get install python3-matplotlib, or bash scripts/setup.sh; "
            "elsewhere: python3 -m pip install matplotlib) or run the tool with a python3 "
            "that has it") from None
    return plt


# ---------------------------------------------------------------- runs

def devices_argument(backend: str, n: int, same_gpu: bool) -> str:
    if backend == "cpu":
        return str(n)
    return ",".join("0" if same_gpu else str(i) for i in range(n))


def config_name(n: int, lb: str) -> str:
    return f"n{n}" + (f"-lb-{lb}" if lb else "")


def read_run_report(path: str) -> Dict:
    """The fields of run_report.json the report needs (docs/run-report.md; numbers may be text in
    reports of schema version 1)."""
    r = run_reports.load_completed(path)
    try:
        out = {
            "particles": int(r["particles"]["total"]),
            "iterations": int(r["iterations"]),
            "loop_seconds": float(r["wall_time_s"]["time_loop"]),
            "setup_seconds": float(r["wall_time_s"]["setup"]),
            "simulated_time": float(r["simulated_time_s"]),
            "device": r.get("device", ""),
            "reported_mips": float(r["mips"]) if "mips" in r else None,
        }
    except (KeyError, TypeError, ValueError) as e:
        raise RunError(f"run report '{path}' lacks or garbles field {e}") from None
    out["mips"] = scaling.mips(out["particles"], out["iterations"], out["loop_seconds"])
    out["diagnostics"] = diagnostics(r, out["loop_seconds"])
    reported = out["reported_mips"]
    if reported is not None and not math.isclose(reported, out["mips"], rel_tol=1e-3):
        warn(f"{path}: mips field {reported:.6g} differs from particles x iterations / "
             f"time loop = {out['mips']:.6g}; the report uses the latter")
    return out


def diagnostics(report: Dict, loop: float) -> Optional[Dict]:
    """Where a multi-device run lost time, from the per-device fields of schema 2 reports."""
    devices = report.get("devices")
    if not isinstance(devices, list) or len(devices) < 2 or loop <= 0:
        return None
    try:
        waits = [sum(float(v) for v in d["wait_time_s"].values()) for d in devices]
        forces = [float(d["forces_s_per_iteration"]) for d in devices]
        particles = [float(d["particles"]["mean"]) for d in devices]
        hidden = report.get("exchange", {}).get("hidden_fraction")
        return {
            "wait_share": max(waits) / loop,
            "forces_spread": (max(forces) - min(forces)) / max(forces) if max(forces) > 0 else 0,
            "particles_spread": ((max(particles) - min(particles)) / max(particles)
                                 if max(particles) > 0 else 0),
            "hidden_fraction": float(hidden) if hidden is not None else None,
        }
    except (KeyError, TypeError, ValueError):
        return None


def read_runs(folder: str) -> List[Dict]:
    """Runs made before, in the layout run_series writes: FOLDER/runs/<config>/run_report.json."""
    runs_dir = os.path.join(folder, "runs")
    try:
        names = sorted(os.listdir(runs_dir))
    except OSError as e:
        raise RunError(f"--from-runs: cannot list '{runs_dir}': {e}") from None
    runs = []
    for name in names:
        m = re.fullmatch(r"n(\d+)(?:-lb-(on|off))?", name)
        if not m:
            warn(f"--from-runs: '{name}' is not a run folder (n<N> or n<N>-lb-on|off); skipped")
            continue
        r = read_run_report(os.path.join(runs_dir, name, "run_report.json"))
        r.update(devices=int(m.group(1)), lb=m.group(2) or "")
        runs.append(r)
    runs.sort(key=lambda r: (r["devices"], r["lb"]))
    if not runs or runs[0]["devices"] != 1:
        raise RunError(f"--from-runs: '{runs_dir}' has no one-device run (n1): speedups are "
                       "relative to it")
    check_same_work(runs)
    return runs


def run_series(args: argparse.Namespace) -> List[Dict]:
    exe = os.path.abspath(args.exe)
    if not (os.path.isfile(exe) and os.access(exe, os.X_OK)):
        raise RunError(f"--exe '{args.exe}' is not an executable file")
    configs = [(1, "")] + [(n, lb) for n in args.devices if n > 1 for lb in args.lb_modes]
    runs = []
    for i, (n, lb) in enumerate(configs, 1):
        run_dir = os.path.join(args.out, "runs", config_name(n, lb))
        os.makedirs(run_dir, exist_ok=True)
        report_path = os.path.join(run_dir, "run_report.json")
        if os.path.exists(report_path):
            os.remove(report_path)  # never read a stale report
        cmd = [exe, "--backend", args.backend,
               "--devices", devices_argument(args.backend, n, args.gpu_ids_same)]
        if lb:
            cmd += ["--lb", lb]
        cmd += ["--output-dir", run_dir] + args.passthrough
        print(f"[{i}/{len(configs)}] {shlex.join(cmd)}", file=sys.stderr, flush=True)
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        with open(os.path.join(run_dir, "console.log"), "w") as log:
            log.write(f"$ {shlex.join(cmd)}\n# exit code {proc.returncode}\n"
                      f"# stdout\n{proc.stdout}\n# stderr\n{proc.stderr}")
        if proc.returncode != 0:
            raise RunError(f"run {config_name(n, lb)} failed with exit code {proc.returncode}: "
                           f"{shlex.join(cmd)}\n{proc.stderr.rstrip() or proc.stdout[-2000:]}")
        r = read_run_report(report_path)
        r.update(devices=n, lb=lb)
        print(f"    {r['loop_seconds']:.3f} s time loop, {r['mips']:.4g} mips, "
              f"{r['iterations']} iterations x {r['particles']} particles",
              file=sys.stderr, flush=True)
        runs.append(r)
    check_same_work(runs)
    return runs


def check_same_work(runs: List[Dict]) -> None:
    """Speedup = runtime ratio only holds for equal work: warn when the runs differ."""
    first = runs[0]
    for r in runs[1:]:
        for key in ("particles", "iterations"):
            if r[key] != first[key]:
                warn(f"{config_name(r['devices'], r['lb'])} did {r[key]} {key}, 1 device did "
                     f"{first[key]}: the runtime ratio is not a like-for-like speedup")
        if not math.isclose(r["simulated_time"], first["simulated_time"], rel_tol=1e-9):
            warn(f"{config_name(r['devices'], r['lb'])} reached t = {r['simulated_time']} s, "
                 f"1 device t = {first['simulated_time']} s")


def warn(text: str) -> None:
    print(f"scaling_report: warning: {text}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------- CSV input

def optional_number(text: Optional[str]) -> Optional[float]:
    text = (text or "").strip()
    return None if text in ("", "-") else float(text)


def read_measurements_csv(path: str, default_label: str) -> List[scaling.Measurement]:
    try:
        with open(path, newline="") as f:  # lines starting with # are comments
            rows = list(csv.DictReader(line for line in f if not line.lstrip().startswith("#")))
    except OSError as e:
        raise RunError(f"cannot read --from-csv '{path}': {e}") from None
    measurements = []
    for number, row in enumerate(rows, 1):
        row = {(k or "").strip().lower(): v for k, v in row.items()}
        try:
            devices = row.get("devices") or row.get("n") or row.get("gpus")
            if devices is None:
                raise ValueError("no devices column")
            runtime = optional_number(row.get("runtime_s", row.get("runtime")))
            mips = optional_number(row.get("mips"))
            if runtime is None and mips is None:
                raise ValueError("needs runtime_s or mips")
            measurements.append(scaling.Measurement(
                devices=int(devices), lb=(row.get("lb") or "").strip().strip("-"),
                runtime=runtime, mips=mips, label=(row.get("label") or default_label).strip()))
        except ValueError as e:
            raise UsageError(f"{path}: data row {number}: {e}") from None
    if not measurements:
        raise UsageError(f"{path}: no rows")
    return measurements


def main(argv: Sequence[str]) -> int:
    args = parse_args(argv)
    try:
        plt = load_pyplot()  # before any run: no point measuring what cannot be reported
        if args.from_csv:
            measurements = read_measurements_csv(args.from_csv, args.label)
            notes = [f"Measurements read from `{args.from_csv}`."]
            extra = {}
        else:
            runs = read_runs(args.from_runs) if args.from_runs else run_series(args)
            measurements = [scaling.Measurement(devices=r["devices"], lb=r["lb"],
                                                runtime=r["loop_seconds"], mips=r["mips"],
                                                label=args.label) for r in runs]
            base = runs[0]
            notes = [
                f"Runs read from `{args.from_runs}/runs/` (their console.log files hold the "
                "commands)." if args.from_runs else
                f"`{os.path.basename(args.exe)}` on the {args.backend} back end, the same "
                f"arguments on every device count: `{shlex.join(args.passthrough)}`.",
                f"{base['particles']} particles, {base['iterations']} iterations to "
                f"t = {base['simulated_time']:.6g} s; 1 device: {base['device']}.",
            ]
            extra = {(r["devices"], r["lb"]): r for r in runs}
        rows = scaling.scaling_rows(measurements)
        write_outputs(plt, rows, args.label, notes, extra, args.out)
    except UsageError as e:
        print(f"scaling_report: error: {e}", file=sys.stderr)
        return 2
    except (RunError, ValueError) as e:
        print(f"scaling_report: error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
