#!/usr/bin/env python3
"""Collapse of a water column: surge front and residual column height against experiments.

    validation/column_collapse.py --build-dir build --backend cuda --dp 0.01 \\
        --out validation/results/column-collapse
    validation/column_collapse.py --build-dir build --quick --out /tmp/cc -- --threads 1
    validation/column_collapse.py --from-output validation/results/column-collapse

Runs `column_collapse` (a column a wide and 2a high, n^2 = 2, in a quasi-2-D slab) and compares,
in Martin & Moyce's dimensionless variables,
    surge front   Z = x_front / a   against  T = t sqrt(2 g / a)   (n t sqrt(g / a), n^2 = 2)
    column height H = eta / (2 a)   against  tau = t sqrt(g / a)
with Martin & Moyce (1952) (front and height) and Koshizuka & Oka (1996) as DualSPHysics
rescales it to a = 1 m (front). Writes summary.md, metrics.csv, column_collapse.png and
collapse_dimensionless.csv into --out, the run in runs/dp<dp>/.
"""

import argparse
from dataclasses import dataclass
import csv
import math
import os
import sys
from typing import Dict, Sequence

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import case_run  # noqa: E402
from case_run import RunError, UsageError, number as num  # noqa: E402
try:
    import numpy as np

    import accuracy
except ImportError:  # --runs-only needs no numpy (case_run.load_pyplot says what is missing)
    np = accuracy = None
from case_summary import Metric, Summary, physics_line  # noqa: E402

DATA = os.path.join(HERE, "data")
MM_FRONT = os.path.join(DATA, "martin_moyce_1952_surge_front_n2_2_ocellaris.dat")
MM_HEIGHT = os.path.join(DATA, "martin_moyce_1952_column_height_n2_2_ocellaris.dat")
KO_FRONT = os.path.join(DATA, "koshizuka_oka_1996_tip_position_dualsphysics.dat")
KO_WIDTH = 1.0  # [m]: the column width of the DualSPHysics rescaling of Koshizuka & Oka
ASPECT = 2.0  # n^2 = height / a, that of both data sets
DEFAULT_A, DEFAULT_TANK = 1.0, 5.0  # a [m]; tank length in units of a
# Resolution a / dp, and the end time in tau = t sqrt(g / a): Martin & Moyce's heights reach
# tau = 7.4; quick: tau 1.9 (T 2.7), a dozen front points and six heights.
DEFAULT_A_OVER_DP, QUICK_A_OVER_DP = 50, 8
DEFAULT_TAU_END, QUICK_TAU_END = 8.0, 1.9
SLAB_PARTICLES = 6  # slab width in dp: the gauge line in its middle 2h = 2.6 dp from both walls
GAUGE_DP = 3  # gauge H this many dp from the back wall: the kernel clears the wall
FRONT_LIMIT = 0.1  # RMS of Z [-], i.e. 0.1 a: the target
# The experiments started with a release (Martin & Moyce burst a diaphragm, Koshizuka & Oka lifted
# a gate) that the simulation, starting at rest, skips: the delay that fits the front best is
# reported, searched over T in [0, MAX_DELAY] in steps of DELAY_STEP.
MAX_DELAY, DELAY_STEP = 0.4, 0.01  # 0.4: before the first data point (T 0.41)
HEIGHT_LIMIT = 0.05  # RMS of H [-], i.e. 5 % of the initial height
FIGURE, SERIES_CSV = "column_collapse.png", "collapse_dimensionless.csv"
OWN_PROBLEM_OPTIONS = ("--column-width", "--column-height", "--tank-length", "--slab-width",
                       "--height-gauge-x")


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    argv, passthrough = case_run.split_passthrough(argv)
    p = argparse.ArgumentParser(
        prog="column_collapse.py",
        description="Collapse of a water column (n^2 = 2): run column_collapse and compare the "
        "surge front and the residual column height with Martin & Moyce (1952) and Koshizuka & "
        "Oka (1996), in dimensionless form (RMS differences, a plot).",
        epilog="Arguments after `--` go to the run, e.g. `-- --threads 1` or `-- --alpha 0.1`.")
    case_run.add_common_options(p, "column_collapse")
    p.add_argument("--dp", help=f"particle spacing [m] (default a / {DEFAULT_A_OVER_DP}; "
                   f"--quick: a / {QUICK_A_OVER_DP})")
    p.add_argument("--column-width", type=float, default=DEFAULT_A,
                   help=f"a [m] (default {DEFAULT_A}); the column is 2a high")
    p.add_argument("--tank-length", type=float,
                   help=f"tank length [m] (default {DEFAULT_TANK:g} a: the data follow the front "
                   "to 4.1 a)")
    p.add_argument("--t-end", type=float, help=f"simulated time [s] (default tau = "
                   f"{DEFAULT_TAU_END:g}, i.e. {DEFAULT_TAU_END:g} sqrt(a / g); --quick: "
                   f"{QUICK_TAU_END:g} sqrt(a / g))")
    args = p.parse_args(argv)
    try:
        case_run.finish_common_args(args, passthrough, OWN_PROBLEM_OPTIONS)
        if not args.from_output:
            a = args.a = case_run.positive_float(str(args.column_width), "--column-width")
            args.gravity = float(case_run.option_value(passthrough, "--gravity") or 9.81)
            args.dp = (case_run.positive_float(args.dp, "--dp") if args.dp
                       else a / (QUICK_A_OVER_DP if args.quick else DEFAULT_A_OVER_DP))
            if args.tank_length is None:
                args.tank_length = DEFAULT_TANK * a
            if not args.tank_length > a:
                raise UsageError(f"--tank-length must exceed a = {a:g} m")
            tau_end = QUICK_TAU_END if args.quick else DEFAULT_TAU_END
            if args.t_end is None:
                args.t_end = tau_end * math.sqrt(a / args.gravity)
            if not args.t_end > 0:
                raise UsageError(f"--t-end must be positive (got {args.t_end})")
        elif args.dp or args.t_end is not None or args.tank_length is not None:
            raise UsageError("--from-output runs nothing: leave out --dp, --t-end, --tank-length")
    except UsageError as e:
        p.error(str(e))
    return args


def run_all(args: argparse.Namespace) -> Dict:
    exe = case_run.find_executable(args, "column_collapse")
    a, dp = args.a, args.dp
    options = ["--backend", args.backend, "--dp", num(dp), "--t-end", num(args.t_end),
               "--column-width", num(a), "--column-height", num(ASPECT * a),
               "--tank-length", num(args.tank_length),
               "--slab-width", num(SLAB_PARTICLES * dp), "--height-gauge-x", num(GAUGE_DP * dp)]
    if case_run.option_value(args.passthrough, "--output-every") is None:
        options += ["--output-every", num(args.t_end)]  # frames (--keep-frames) at 0 and t_end only
    if case_run.option_value(args.passthrough, "--gauge-every") is None:
        options += ["--gauge-every", num(0.02 * math.sqrt(a / args.gravity))]  # tau steps 0.02
    run_dir = os.path.join("runs", f"dp{dp:g}")
    report, = case_run.run_problems(exe, [(os.path.join(args.out, run_dir), options)], args)
    settings = {"case": "column_collapse", "a": a, "tank_length": args.tank_length,
                "gravity": args.gravity, "t_end": args.t_end, "quick": args.quick,
                "backend": args.backend, "passthrough": args.passthrough,
                "runs": [{"label": f"dp {dp:g} m (a/dp {a / dp:.3g})", "dir": run_dir, "dp": dp,
                          "report": report}]}
    case_run.write_case_json(args.out, settings)
    return settings


@dataclass
class Curves:
    """The run's front and height in Martin & Moyce's variables, and the references."""
    t: "np.ndarray"
    big_t: "np.ndarray"  # T = t sqrt(2 g / a)
    z_sim: "np.ndarray"  # front Z = x / a
    tau: "np.ndarray"  # tau = t sqrt(g / a)
    h_sim: "np.ndarray"  # height H = eta / (2 a)
    mm_front: "np.ndarray"
    mm_height: "np.ndarray"
    ko_t: "np.ndarray"
    ko_z: "np.ndarray"
    z_wall: float  # the front is compared up to 2 dp before the far wall


def read_curves(settings: Dict, out: str) -> Curves:
    a, g, length = settings["a"], settings["gravity"], settings["tank_length"]
    run = settings["runs"][0]
    dp = run["dp"]
    gauges = case_run.read_gauges(os.path.join(out, run["dir"], "gauges.csv"))
    for column in ("H", "front_x"):
        if column not in gauges:
            raise RunError(f"{run['dir']}/gauges.csv has no column {column}")
    t = gauges["time"]
    ko = case_run.read_table(KO_FRONT)
    # The tracker reads the leading particle's centre, dp/2 behind the water's edge.
    return Curves(t=t, big_t=t * math.sqrt(ASPECT * g / a),
                  z_sim=(gauges["front_x"] + 0.5 * dp) / a, tau=t * math.sqrt(g / a),
                  h_sim=gauges["H"] / (ASPECT * a), mm_front=case_run.read_table(MM_FRONT),
                  mm_height=case_run.read_table(MM_HEIGHT),
                  ko_t=ko[:, 0] * math.sqrt(ASPECT * g / KO_WIDTH), ko_z=ko[:, 1] / KO_WIDTH,
                  z_wall=(length - 2.0 * dp) / a)


def add_notes(summary: Summary, settings: Dict, z_wall: float) -> None:
    a, g, length = settings["a"], settings["gravity"], settings["tank_length"]
    run = settings["runs"][0]
    dp, report = run["dp"], run["report"]
    summary.notes += [
        f"`column_collapse`: a column a = {a:g} m wide and {ASPECT * a:g} m high against the back "
        f"wall of a tank {length:g} m long, in a slab {SLAB_PARTICLES} dp thick between two free-slip "
        f"walls (quasi-2-D); gauge H {GAUGE_DP} dp from the back wall in the middle of the slab; the "
        "surge front is the leading fluid particle on the floor plus dp/2 (its edge).",
        "Dimensionless, as Martin & Moyce (1952): front Z = x / a against T = t sqrt(2 g / a); "
        "column height H = eta / (2 a) against tau = t sqrt(g / a). Data: Martin & Moyce "
        "(transcribed by Ocellaris, a = 0.05715 m) and Koshizuka & Oka (1996) as rescaled by "
        "DualSPHysics (a = 1 m, times and positions made dimensionless the same way). Metrics: "
        "RMS of (simulation - experiment) at the experiment's points, the simulation "
        f"interpolated linearly in time; front points beyond Z = {z_wall:.3g} (2 dp before the "
        "far wall), height points after twice the time the front took to get there (the wave "
        "reflected by the far wall may be back) and points after the run's end are left out.",
    ]
    if settings.get("quick", False):
        summary.notes.append(
            f"**Quick mode**: dp = a / {a / dp:.3g} and t_end {settings['t_end']:.3g} s (tau "
            f"{settings['t_end'] * math.sqrt(g / a):.3g}) instead of a / {DEFAULT_A_OVER_DP} and "
            f"tau {DEFAULT_TAU_END:g}: a smoke test of the pipeline; its metrics are not expected "
            "to meet the thresholds.")
    summary.notes.append(
        f"Run on the {settings['backend']} back end"
        + (f" with `{' '.join(settings['passthrough'])}`" if settings.get("passthrough") else "")
        + f": {report['particles']} particles ({report['fluid']} fluid), {report['iterations']} "
        f"iterations to t = {report['simulated_time']:.4g} s, {report['removed']} removed "
        f"(left the domain), {report['device']}, time loop {report['loop_seconds']:.1f} s.")
    physics = physics_line(settings)
    if physics:
        summary.notes.append(physics)


def add_metrics(summary: Summary, c: Curves, label: str) -> float:
    """The front and height rows; returns tau_clean, up to which heights are compared."""
    for name, ref_t, ref_z in (("Martin & Moyce", c.mm_front[:, 0], c.mm_front[:, 1]),
                               ("Koshizuka & Oka", c.ko_t, c.ko_z)):
        keep = ref_z < c.z_wall
        e = accuracy.rms_difference(c.big_t, c.z_sim, ref_t[keep], ref_z[keep])
        summary.add(Metric(f"front Z vs {name}, RMS", label, e.value, FRONT_LIMIT,
                           details=f"{e.points} of {ref_t.size} points"))
        best = min((accuracy.rms_difference(c.big_t, c.z_sim, ref_t[keep] - d, ref_z[keep]).value,
                    d) for d in np.arange(0.0, MAX_DELAY + 1e-9, DELAY_STEP))
        summary.add(Metric(f"front Z vs {name}, RMS after the best release delay", label,
                           best[0], None,
                           details=f"reported only: the experiment's T less {best[1]:.2f} "
                           "(its release, which the simulation skips)"))
    # The wave the far wall reflects runs back slower than the surge came: before twice the time
    # the surge took to reach the wall, the column has not felt it.
    hit = np.nonzero(c.z_sim >= c.z_wall)[0]
    tau_clean = 2.0 * c.tau[hit[0]] if hit.size else math.inf
    keep = c.mm_height[:, 0] <= tau_clean
    e = accuracy.rms_difference(c.tau, c.h_sim, c.mm_height[keep, 0], c.mm_height[keep, 1])
    summary.add(Metric("column height H vs Martin & Moyce, RMS", label, e.value, HEIGHT_LIMIT,
                       details=f"{e.points} of {c.mm_height.shape[0]} points "
                       f"(tau <= {min(c.tau[-1], tau_clean):.3g})"))
    return tau_clean


def plot(plt, c: Curves, label: str, length_over_a: float, tau_clean: float):
    fig, (ax_z, ax_h) = plt.subplots(1, 2, figsize=(12, 4.8))
    ax_z.plot(c.mm_front[:, 0], c.mm_front[:, 1], "ko", ms=5, mfc="none",
              label="Martin & Moyce 1952")
    ax_z.plot(c.ko_t, c.ko_z, "ks", ms=5, label="Koshizuka & Oka 1996 (DualSPHysics)")
    ax_z.plot(c.big_t, c.z_sim, "C0-", label=f"SPH {label}")
    ax_z.axhline(length_over_a, color="0.5", ls=":", lw=0.8, label="far wall")
    ax_z.set_xlabel("T = t sqrt(2g/a)")
    ax_z.set_ylabel("Z = x_front / a")
    ax_z.set_xlim(0, min(c.big_t[-1], 1.3 * max(c.mm_front[:, 0].max(), c.ko_t.max())))
    ax_z.set_ylim(0.8, min(length_over_a, 5.0) + 0.2)
    ax_h.plot(c.mm_height[:, 0], c.mm_height[:, 1], "ko", ms=5, mfc="none",
              label="Martin & Moyce 1952")
    ax_h.plot(c.tau, c.h_sim, "C0-", label=f"SPH {label}")
    ax_h.set_xlabel("tau = t sqrt(g/a)")
    ax_h.set_ylabel("H = eta / (2a)")
    ax_h.set_ylim(0, 1.05)
    if math.isfinite(tau_clean):
        ax_h.axvline(tau_clean, color="0.5", ls=":", lw=0.8, label="2 x surge to the far wall")
    for ax, title in ((ax_z, "surge front"), (ax_h, "residual column height")):
        ax.set_title(title)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize="small")
    return fig


def compare(settings: Dict, out: str) -> Summary:
    plt = case_run.load_pyplot()
    c = read_curves(settings, out)
    quick = settings.get("quick", False)
    summary = Summary("Collapse of a water column (n^2 = 2)" + (" (quick)" if quick else ""))
    add_notes(summary, settings, c.z_wall)
    label = settings["runs"][0]["label"]
    tau_clean = add_metrics(summary, c, label)
    write_series(os.path.join(out, SERIES_CSV), c.t, c.big_t, c.z_sim, c.tau, c.h_sim)
    fig = plot(plt, c, label, settings["tank_length"] / settings["a"], tau_clean)
    summary.save_figure(plt, fig, "Collapse of a water column, n^2 = 2", out, FIGURE, quick)
    return summary


def write_series(path: str, t, big_t, z, tau, h) -> None:
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["t_s", "T", "Z", "tau", "H"])
        for row in zip(t, big_t, z, tau, h):
            w.writerow([f"{v:.6g}" for v in row])


def main(argv: Sequence[str]) -> int:
    return case_run.run_case("column_collapse", parse_args(argv), run_all, compare)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
