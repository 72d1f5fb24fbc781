"""Running a problem executable for a validation case, and reading back what it wrote.

Shared by spheric_dambreak.py, column_collapse.py, hydrostatic.py and lobovsky.py: their common
options (--exe/--build-dir, --backend, --gpus, --resume, --out, --from-output, --runs-only,
--quick, --strict, arguments after `--` for every run), one run of the executable into a folder
of its own (console.log, run_report.json, gauges.csv), a case's runs one after another or side by
side on several GPUs (--gpus), taken up where they stopped (--resume), and the case's settings in
<out>/case.json so that --from-output can recompute the metrics and plots without running
anything.

Running needs only the standard library, so that --runs-only works on a machine without numpy
and matplotlib (a bare GPU machine); comparing needs both.
"""

import argparse
import contextlib
import json
import lzma
import os
import queue
import shlex
import signal
import subprocess
import sys
import threading
from typing import Callable, Dict, List, Optional, Sequence, Tuple

import run_reports
from run_reports import RunError  # noqa: F401  (the cases import it from here)

try:
    import numpy as np
except ImportError:  # --runs-only needs no numpy; require_analysis() says what is missing
    np = None

# Options each case sets on every run itself; given after `--` they would break the comparison.
OWN_OPTIONS = ("--backend", "--dp", "--t-end", "--output-dir", "--no-output", "--no-frames",
               "--no-instruments")
BACKENDS = ("auto", "cpu", "cuda")
EXIT_USAGE, EXIT_RUN_FAILED, EXIT_STRICT_FAIL = 2, 1, 3


class UsageError(Exception):
    """Bad arguments (exit code 2)."""


def split_passthrough(argv: Sequence[str]) -> Tuple[List[str], List[str]]:
    argv = list(argv)
    if "--" in argv:
        cut = argv.index("--")
        return argv[:cut], argv[cut + 1:]
    return argv, []


def add_common_options(p: argparse.ArgumentParser, exe_name: Optional[str]) -> None:
    """The options of every case, and of run_validation.py (`exe_name` None: every case at once,
    each into <out>/<case>/)."""
    if exe_name:
        p.add_argument("--exe",
                       help=f"the {exe_name} executable (default <build-dir>/src/{exe_name})")
    p.add_argument("--build-dir", default="build", help="build folder (default build)")
    p.add_argument("--backend", choices=BACKENDS, default="auto",
                   help="back end of the runs (default auto: CUDA when a GPU is visible)")
    p.add_argument("--gpus", metavar="LIST",
                   help="GPU ids like 0,1 to share the runs out over: each run on one GPU "
                   "(--devices N), as many at once as there are GPUs, the finest first (default: "
                   "one run after another, on the simulator's default device)")
    p.add_argument("--resume", action="store_true",
                   help="take up a case that stopped: in --out, each run that completed with the "
                   "same command is kept, each that stopped with a checkpoint goes on from it "
                   "(--restart latest), and the others run")
    p.add_argument("--out", help="output folder: summary.md, metrics.csv, the PNG, runs/"
                   if exe_name else "output folder: summary.md, and each case in <out>/<case>/")
    p.add_argument("--from-output", metavar="DIR",
                   help="recompute metrics and plots from the runs already in DIR (written by an "
                   "earlier invocation; nothing is run); results go to --out, default DIR")
    p.add_argument("--runs-only", action="store_true",
                   help="run and record the runs (case.json, runs/) but compute nothing: for a "
                   "machine without numpy or matplotlib; then --from-output where they are")
    p.add_argument("--keep-frames", action="store_true",
                   help="write each run's particle frames (.pvd/.vtu, at t = 0 and t_end); by "
                   "default the runs write none (--no-frames: the gauges are what the case "
                   "reads)")
    p.add_argument("--quick", action="store_true",
                   help="a tiny coarse instance (coarse dp, short t-end): a smoke test, whose "
                   "metrics are not expected to meet the thresholds")
    p.add_argument("--strict", action="store_true",
                   help="exit with code 3 when a metric is outside its threshold (default: "
                   "report FAIL in the summary and exit 0)")


def finish_common_args(args: argparse.Namespace, passthrough: List[str],
                       own_options: Sequence[str] = ()) -> None:
    """Checks the common options; raises UsageError. `own_options`: the case's own problem
    options, which must not appear after `--` either."""
    args.passthrough = passthrough
    if args.from_output:
        if passthrough or args.runs_only:
            raise UsageError("--from-output runs nothing: leave out --runs-only and the arguments "
                             "after --")
        if not os.path.isfile(os.path.join(args.from_output, "case.json")):
            raise UsageError(f"--from-output {args.from_output}: no case.json there (not the "
                             "output folder of this case)")
        args.out = args.out or args.from_output
    elif not args.out:
        raise UsageError("--out is required (or --from-output)")
    args.gpus = parse_gpu_list(args.gpus, args, passthrough)
    if args.resume and args.from_output:
        raise UsageError("--from-output runs nothing: leave out --resume")
    if args.resume and option_value(passthrough, "--restart") is not None:
        raise UsageError("--resume restarts each run that has a checkpoint itself; leave "
                         "--restart out of the arguments after --")
    for a in passthrough:
        name = a.split("=", 1)[0]
        if name in OWN_OPTIONS or name in own_options:
            raise UsageError(f"{name} is set by the case for each run; leave it out of the "
                             "arguments after -- (use the case's own option)")


def parse_gpu_list(text: Optional[str], args: argparse.Namespace,
                   passthrough: Sequence[str]) -> Optional[List[int]]:
    """--gpus: distinct GPU ids, or None without the option; raises UsageError."""
    if text is None:
        return None
    if args.from_output:
        raise UsageError("--from-output runs nothing: leave out --gpus")
    if args.backend == "cpu":
        raise UsageError("--gpus runs on GPUs: it cannot go with --backend cpu")
    if option_value(passthrough, "--devices") is not None:
        raise UsageError("--gpus gives each run its --devices; leave --devices out of the "
                         "arguments after --")
    items = [item.strip() for item in text.split(",")]
    if not all(item.isdigit() for item in items):
        raise UsageError(f"--gpus must list GPU ids like 0,1 (got '{text}')")
    ids = [int(item) for item in items]
    if len(set(ids)) != len(ids):
        raise UsageError(f"--gpus lists a GPU twice (got '{text}'): one run per GPU at a time")
    return ids


def option_value(passthrough: Sequence[str], name: str) -> Optional[str]:
    """The value of `name` among the arguments after `--` (--name V or --name=V; the last wins)."""
    value = None
    for i, a in enumerate(passthrough):
        if a == name and i + 1 < len(passthrough):
            value = passthrough[i + 1]
        elif a.startswith(name + "="):
            value = a.split("=", 1)[1]
    return value


def positive_float(text: str, option: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise UsageError(f"{option} must be a number (got '{text}')") from None
    if not v > 0.0 or v == float("inf"):
        raise UsageError(f"{option} must be positive (got '{text}')")
    return v


def number(x: float) -> str:
    """A value for the command line: 12 significant digits, so that 6 x 0.05 is 0.3, not
    0.30000000000000004."""
    return f"{x:.12g}"


def parse_dp_list(text: str) -> List[float]:
    """Particle spacings like 0.02,0.015,0.01: distinct positive numbers, coarsest first."""
    values = [positive_float(item.strip(), "--dp") for item in text.split(",")]
    if len(set(values)) != len(values):
        raise UsageError(f"--dp lists a spacing twice (got '{text}')")
    return sorted(values, reverse=True)


def is_executable(path: str) -> bool:
    return os.path.isfile(path) and os.access(path, os.X_OK)


def find_executable(args: argparse.Namespace, name: str) -> str:
    """--exe, or `name` in <build-dir>/src (a build), <build-dir>/bin (device-carry, from
    scripts/pack_for_device.sh) or <build-dir> itself."""
    if args.exe:
        exe = os.path.abspath(args.exe)
        if not is_executable(exe):
            raise RunError(f"--exe: '{exe}' is not an executable file")
        return exe
    places = [os.path.abspath(os.path.join(args.build_dir, sub, name))
              for sub in ("src", "bin", ".")]
    for exe in places:
        if is_executable(exe):
            return exe
    raise RunError(f"--build-dir {args.build_dir}: no executable {name} in src/, bin/ or the "
                   "folder itself (build it first)")


@contextlib.contextmanager
def outlasting_stop_signals():
    """While a simulator runs, the case ignores SIGINT and SIGTERM itself. Those reach the whole
    process group (a terminal's Ctrl-C, `timeout`, a batch system's time limit), so the
    simulator gets them too: it writes a checkpoint at its next rebuild and stops, and the case
    waits for that and says how to go on, instead of ending at once and leaving the simulator to
    write its checkpoint alone (lost where the machine goes away with the case). The case does
    not forward the signal: the simulator has it already (a repeat within 0.1 s it takes as the
    same request; a later one stops it without a checkpoint). A signal sent to the case's
    process alone therefore waits for the run to end. Only the main thread
    may set handlers: elsewhere, nothing changes. (A handler that does nothing, not SIG_IGN:
    the simulator starts with the default dispositions, which an ignored signal would not be.)"""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def outlast(_signum, _frame):
        pass

    previous = {s: signal.signal(s, outlast) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)


RESTART_LATEST = ["--restart", "latest"]


def without_placement(cmd: Sequence[str]) -> List[str]:
    """`cmd` less what does not change a run's results: its --devices (results are bitwise the
    same on any) and a trailing --restart latest (a restarted run is the run that never
    stopped)."""
    out = list(cmd)
    if out[-2:] == RESTART_LATEST:
        out = out[:-2]
    for i in range(len(out) - 1):
        if out[i] == "--devices":
            return out[:i] + out[i + 2:]
    return out


def completed_with(run_dir: str, cmd: List[str]) -> Optional[Dict]:
    """The report of the run in `run_dir` if it completed and ran `cmd` (console.log's first
    line, compared without_placement), else None."""
    try:
        with open(os.path.join(run_dir, "console.log")) as f:
            first = f.readline().rstrip("\n")
        if not first.startswith("$ ") or \
                without_placement(shlex.split(first[2:])) != without_placement(cmd):
            return None
        return read_run_report(os.path.join(run_dir, "run_report.json"))
    except (OSError, ValueError, RunError):
        return None


def has_checkpoint(run_dir: str) -> bool:
    folder = os.path.join(run_dir, "checkpoints")
    return os.path.isdir(folder) and any(f.endswith(".chk") for f in os.listdir(folder))



def run_problem(exe: str, run_dir: str, options: List[str], passthrough: List[str],
                keep_frames: bool = False, resume: bool = False) -> Dict:
    """Runs `exe options --output-dir run_dir passthrough`; its output goes to run_dir/console.log.

    Returns the run report; raises RunError with the run's error output if it fails. Unless
    `keep_frames`, the run writes no particle frames (--no-frames), only gauges.csv and the
    report: at a million particles each frame is ~50 MB. With `resume`, a run already completed
    there with the same command is kept as it is, and one that stopped with a checkpoint goes on
    from it (the simulator checks that the checkpoint is this run's)."""
    os.makedirs(run_dir, exist_ok=True)
    frames = [] if keep_frames else ["--no-frames"]
    cmd = [exe] + options + frames + ["--output-dir", run_dir] + passthrough
    if resume:
        kept = completed_with(run_dir, cmd)
        if kept is not None:
            print(f"kept: {run_dir} (completed with the same command)", file=sys.stderr,
                  flush=True)
            return kept
        if has_checkpoint(run_dir):
            cmd += RESTART_LATEST
    for stale in ("run_report.json", "gauges.csv"):  # never read a previous run's files
        if os.path.exists(os.path.join(run_dir, stale)):
            os.remove(os.path.join(run_dir, stale))
    log_path = os.path.join(run_dir, "console.log")
    print(f"$ {shlex.join(cmd)}\n  (progress: {log_path})", file=sys.stderr, flush=True)
    with open(log_path, "w") as log:
        log.write(f"$ {shlex.join(cmd)}\n")
        log.flush()
        with outlasting_stop_signals():
            proc = subprocess.run(cmd, stdout=log, stderr=subprocess.PIPE, text=True)
        log.write(f"# exit code {proc.returncode}\n# stderr\n{proc.stderr}")
    if proc.returncode != 0:
        with open(log_path) as log:
            tail = log.read()[-2000:]
        go_on = ""
        if "checkpoint written to" in proc.stderr:
            go_on = ("\nit stopped with a checkpoint: to go on from it, the same command with "
                     "--resume")
        raise RunError(f"the run failed with exit code {proc.returncode}: {shlex.join(cmd)}\n"
                       f"{proc.stderr.rstrip() or tail}{go_on}")
    return read_run_report(os.path.join(run_dir, "run_report.json"))


def run_problems(exe: str, runs: Sequence[Tuple[str, List[str]]],
                 args: argparse.Namespace) -> List[Dict]:
    """Each (run_dir, options) of `runs` as run_problem with the case's arguments after `--`,
    --keep-frames and --resume, their reports in the same order.

    Without `gpus`, one after another, stopping at the first that fails. With them, side by
    side: each GPU takes the next run still waiting (`--devices N` added), the finest (last
    given) first so that the longest starts at once; every run goes on to its end, and then
    the failures, if any, are raised together. The case outlasts a stop signal meanwhile, as
    the simulators each write their checkpoint (outlasting_stop_signals). Under --resume a run
    kept as it was passes its GPU on at once."""
    passthrough, keep_frames, gpus, resume = (args.passthrough, args.keep_frames, args.gpus,
                                              args.resume)
    if not gpus:
        return [run_problem(exe, run_dir, options, passthrough, keep_frames, resume)
                for run_dir, options in runs]
    waiting: "queue.Queue[int]" = queue.Queue()
    for index in reversed(range(len(runs))):
        waiting.put(index)
    reports: List[Optional[Dict]] = [None] * len(runs)
    failures: List[Tuple[int, RunError]] = []

    def take_runs(gpu: int) -> None:
        while True:
            try:
                index = waiting.get_nowait()
            except queue.Empty:
                return
            run_dir, options = runs[index]
            try:
                reports[index] = run_problem(exe, run_dir, options + ["--devices", str(gpu)],
                                             passthrough, keep_frames, resume)
            except Exception as e:  # noqa: BLE001 (the thread's edge; the others go on)
                failure = e if isinstance(e, RunError) else RunError(f"{run_dir}: {e}")
                failures.append((index, failure))

    with outlasting_stop_signals():
        workers = [threading.Thread(target=take_runs, args=(gpu,)) for gpu in gpus]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
    if failures:
        failures.sort(key=lambda f: f[0])
        raise RunError("\n".join(str(e) for _, e in failures))
    return reports  # type: ignore[return-value]  # every run reported: none failed


def read_run_report(path: str) -> Dict:
    """The fields of run_report.json a case needs (docs/run-report.md)."""
    r = run_reports.load_completed(path)
    try:
        return {
            "dp": float(r["dp_m"]),
            "h": float(r["h_m"]),
            "simulated_time": float(r["simulated_time_s"]),
            "particles": int(r["particles"]["total"]),
            "fluid": int(r["particles"]["fluid"]),
            "removed": int(r["particles"].get("removed", "0")),
            "iterations": int(r["iterations"]),
            "device": r.get("device", ""),
            "loop_seconds": float(r["wall_time_s"]["time_loop"]),
            # The settings that fixed the physics (alpha, boundary, slip...); reports written
            # before 2026-11-29 have none.
            "physics": dict(r.get("physics", {})),
        }
    except (KeyError, TypeError, ValueError) as e:
        raise RunError(f"run report '{path}' lacks or garbles field {e}") from None


def stored(path: str) -> Optional[str]:
    """Where a run's series `path` is kept: the file itself, or its xz-compressed copy
    (`path`.xz, as the results folders keep their longer series: scripts/compact_results.py);
    None when neither exists."""
    for candidate in (path, path + ".xz"):
        if os.path.exists(candidate):
            return candidate
    return None


def read_gauges(path: str) -> Dict[str, "np.ndarray"]:
    """gauges.csv (io/gauge_csv.h), or its .xz copy, as column name -> values; `nan` entries are
    NaN."""
    kept = stored(path) or path
    try:
        with (lzma.open(kept, "rt") if kept.endswith(".xz") else open(kept)) as f:
            header = f.readline().strip().split(",")
            data = np.loadtxt(f, delimiter=",", ndmin=2)
    except (OSError, ValueError, lzma.LZMAError) as e:
        raise RunError(f"cannot read gauges '{kept}': {e}") from None
    if header[0] != "time" or (data.size and data.shape[1] != len(header)):
        raise RunError(f"gauges '{kept}': header {header} does not match its rows")
    if data.shape[0] < 2:
        raise RunError(f"gauges '{kept}' holds {data.shape[0]} rows: the run measured nothing")
    return {name: data[:, i] for i, name in enumerate(header)}


def read_table(path: str) -> "np.ndarray":
    """A data file of validation/data/: whitespace-separated columns, `#` comments, as rows x
    columns."""
    try:
        return np.loadtxt(path, comments="#", ndmin=2)
    except (OSError, ValueError) as e:
        raise RunError(f"cannot read the experiment '{path}': {e}") from None


def write_case_json(out: str, settings: Dict) -> None:
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "case.json"), "w") as f:
        json.dump(settings, f, indent=2)
        f.write("\n")


def read_case_json(folder: str) -> Dict:
    """The settings an earlier invocation ran with, its run folders made absolute."""
    path = os.path.join(folder, "case.json")
    try:
        with open(path) as f:
            settings = json.load(f)
        for run in settings["runs"]:
            run["dir"] = os.path.abspath(os.path.join(folder, run["dir"]))
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise RunError(f"cannot read '{path}': {e}") from None
    return settings


def load_pyplot():
    """matplotlib's pyplot on the Agg back end; without numpy or matplotlib the case stops
    (exit 1)."""
    if np is None:
        raise RunError(
            f"numpy is needed to compare but cannot be imported by {sys.executable}; install it "
            "(Debian: apt-get install python3-numpy python3-matplotlib), or run with --runs-only "
            "here and with --from-output on a machine that has numpy and matplotlib") from None
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as e:
        raise RunError(
            f"matplotlib is needed for the plots but cannot be imported by {sys.executable} "
            f"({e}); install it (Debian: apt-get install python3-matplotlib, or bash "
            "scripts/setup.sh), or run with --runs-only here and with --from-output on a machine "
            "that has it") from None
    return plt


def run_case(prog: str, args: argparse.Namespace, run_all: Callable[[argparse.Namespace], Dict],
             compare: Callable[[Dict, str], "object"]) -> int:
    """The case's main: runs (run_all returns the settings written to case.json) or reads an
    earlier output folder, compares (compare returns the Summary), writes and prints the summary,
    and maps errors to exit codes."""
    try:
        if args.runs_only:
            run_all(args)
            print(f"{prog}: runs recorded in {args.out}; compare them with --from-output "
                  f"{args.out}", file=sys.stderr)
            return 0
        load_pyplot()  # before any run: no point measuring what cannot be plotted
        settings = read_case_json(args.from_output) if args.from_output else run_all(args)
        os.makedirs(args.out, exist_ok=True)
        summary = compare(settings, args.out)
        paths = summary.write(args.out) + [os.path.join(args.out, f) for f in summary.figures]
        print(summary.markdown())
        print("wrote " + ", ".join(paths), file=sys.stderr)
    except UsageError as e:
        print(f"{prog}: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    except RunError as e:
        print(f"{prog}: error: {e}", file=sys.stderr)
        return EXIT_RUN_FAILED
    failed = summary.failed()
    if failed and args.strict:
        print(f"{prog}: --strict: {len(failed)} metric(s) outside their thresholds",
              file=sys.stderr)
        return EXIT_STRICT_FAIL
    return 0
