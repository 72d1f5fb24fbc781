#!/usr/bin/env python3
"""SPHERIC test 2 (Kleefsman et al. 2005): DamBreak's water heights against the experiment.

    validation/spheric_dambreak.py --build-dir build --backend cuda --dp 0.02,0.015,0.01 \\
        --out validation/results/spheric
    validation/spheric_dambreak.py --build-dir build --quick --out /tmp/spheric -- --threads 1
    validation/spheric_dambreak.py --from-output validation/results/spheric

Runs `dambreak` once per dp (a resolution study) to --t-end (6 s), reads the gauges H1-H4 of
each run's gauges.csv and compares them with validation/data/spheric_test2_water_heights.dat:
per gauge and dp, the normalised mean absolute error and the arrival time of the first wave.
Writes summary.md, metrics.csv and spheric_water_heights.png into --out, the runs in runs/dp<dp>/.
"""

import argparse
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
from case_summary import NOT_APPLICABLE, FAIL, Metric, Summary, fmt, runs_table  # noqa: E402

DATA = os.path.join(HERE, "data", "spheric_test2_water_heights.dat")
# DamBreak's gauges (problems/dam_break.h) and the data file's columns, both ordered by x. The
# data's x is measured from the wall behind the obstacle, as DamBreak's is: no shift.
GAUGES = (("H1", 0.496), ("H2", 0.992), ("H3", 1.488), ("H4", 2.638))
DEFAULT_DP, DEFAULT_T_END = "0.02", 6.0
QUICK_DP, QUICK_T_END = "0.08", 1.0
GAUGE_EVERY = 0.01  # [s]: the experiment samples every 1 ms; 10 ms resolves its waves
GAUGE_READING = "wetted"  # the length of the line under water, as the probes read it
READING_NOTES = {  # runs made before --gauge-reading read the surface
    "wetted": "the length of the gauge's line under water (`--gauge-reading wetted`), the water "
              "above an air pocket included, as the experiment's wave probes read it.",
    "surface": "the elevation of the free surface of the water standing on the floor "
               "(`--gauge-reading surface`); water above an air pocket is not read."}
ARRIVAL_THRESHOLD = 0.05  # [m]: above a film of one particle layer at dp <= 0.06 m (0.8 dp)
# The targets at dp 0.01 m: NMAE within 0.10 at every gauge; first arrivals within 0.05 s at H2
# and H3, and 0.1 s at H1, behind the obstacle, which the water reaches only over and round it.
NMAE_LIMIT = 0.10  # [-]
ARRIVAL_LIMITS = {"H1": 0.1, "H2": 0.05, "H3": 0.05}  # [s]
# The wave that returns from the far walls: the first time after `after` [s] that the height
# exceeds `level` [m], a level its front crosses steeply in the experiment (H3 at 4.42 s, H4 at
# 3.75 s) and that the water before it stays under.
RETURN_WAVES = {"H3": (3.8, 0.22), "H4": (3.0, 0.30)}
RETURN_LIMIT = 0.1  # [s]
FIGURE = "spheric_water_heights.png"


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    argv, passthrough = case_run.split_passthrough(argv)
    p = argparse.ArgumentParser(
        prog="spheric_dambreak.py",
        description="SPHERIC test 2 water heights: run dambreak at one or more dp and compare "
        "gauges H1-H4 with the experiment (NMAE, arrival time of the first wave, a plot).",
        epilog="Arguments after `--` go to every run, e.g. `-- --threads 1` or `-- --devices 0,1`.")
    case_run.add_common_options(p, "dambreak")
    p.add_argument("--dp", help=f"particle spacings [m], comma-separated: one run each (default "
                   f"{DEFAULT_DP}; --quick: {QUICK_DP})")
    p.add_argument("--t-end", type=float, help=f"simulated time [s] (default {DEFAULT_T_END}; "
                   f"--quick: {QUICK_T_END})")
    args = p.parse_args(argv)
    try:
        case_run.finish_common_args(args, passthrough)
        if not args.from_output:
            args.dps = case_run.parse_dp_list(args.dp or (QUICK_DP if args.quick else DEFAULT_DP))
            if args.t_end is None:
                args.t_end = QUICK_T_END if args.quick else DEFAULT_T_END
            if not args.t_end > 0:
                raise UsageError(f"--t-end must be positive (got {args.t_end})")
        elif args.dp or args.t_end is not None:
            raise UsageError("--from-output runs nothing: leave out --dp and --t-end")
    except UsageError as e:
        p.error(str(e))
    return args


def run_all(args: argparse.Namespace) -> Dict:
    exe = case_run.find_executable(args, "dambreak")
    extra = []
    if case_run.option_value(args.passthrough, "--output-every") is None:
        extra += ["--output-every", num(args.t_end)]  # frames (--keep-frames) at 0 and t_end only
    if case_run.option_value(args.passthrough, "--gauge-every") is None:
        extra += ["--gauge-every", num(GAUGE_EVERY)]
    # The experiment's wave probes read the length of their wires under water, the water above an
    # air pocket included (validation/README.md).
    reading = case_run.option_value(args.passthrough, "--gauge-reading")
    if reading is None:
        reading = GAUGE_READING
        extra += ["--gauge-reading", reading]
    dirs = [os.path.join("runs", f"dp{dp:g}") for dp in args.dps]
    reports = case_run.run_problems(
        exe, [(os.path.join(args.out, d),
               ["--backend", args.backend, "--dp", num(dp), "--t-end", num(args.t_end)] + extra)
              for d, dp in zip(dirs, args.dps)],
        args)
    runs = [{"label": f"dp {dp:g} m", "dir": d, "dp": dp, "report": report}
            for d, dp, report in zip(dirs, args.dps, reports)]
    settings = {"case": "spheric_dambreak", "t_end": args.t_end, "quick": args.quick,
                "backend": args.backend, "passthrough": args.passthrough, "runs": runs,
                "gauge_reading": reading}
    case_run.write_case_json(args.out, settings)
    return settings


def gauge_reading(settings: Dict) -> str:
    """How the runs' gauges read: as case.json says, or as their options said."""
    return (settings.get("gauge_reading")
            or case_run.option_value(settings.get("passthrough", []), "--gauge-reading")
            or "surface")


def read_data() -> Dict[str, "np.ndarray"]:
    d = case_run.read_table(DATA)
    return {"time": d[:, 0], **{name: d[:, i + 1] for i, (name, _) in enumerate(GAUGES)}}


def arrival_metric(name: str, run: str, t_sim, h_sim, t_exp, h_exp, window_end: float) -> Metric:
    """Arrival of the first wave: first time the height exceeds ARRIVAL_THRESHOLD."""
    exp = accuracy.arrival_time(t_exp, h_exp, ARRIVAL_THRESHOLD, window_end)
    sim = accuracy.arrival_time(t_sim, h_sim, ARRIVAL_THRESHOLD, window_end)
    m = Metric(f"{name} arrival sim - exp", run, math.nan, ARRIVAL_LIMITS[name], "s",
               absolute=True)
    if exp is not None and sim is not None:
        m.value = sim - exp
        m.details = f"sim {sim:.3f} s, exp {exp:.3f} s"
    elif exp is None and sim is None:
        m.result_override = NOT_APPLICABLE
        m.details = f"dry in both up to {window_end:g} s"
    elif sim is None:
        m.details = f"exp {exp:.3f} s, sim not by {window_end:g} s"
    else:
        m.result_override = FAIL
        m.details = f"sim {sim:.3f} s, exp not by {window_end:g} s"
    return m


def return_metric(name: str, run: str, t_sim, h_sim, t_exp, h_exp) -> Metric:
    """The returning wave's time at gauge `name` (RETURN_WAVES), sim - exp."""
    after, level = RETURN_WAVES[name]
    m = Metric(f"{name} returning wave sim - exp", run, math.nan, RETURN_LIMIT, "s",
               absolute=True)
    times = []
    for t, h in ((t_sim, h_sim), (t_exp, h_exp)):
        t, h = np.asarray(t), np.asarray(h)
        times.append(accuracy.arrival_time(t[t >= after], h[t >= after], level))
    sim, exp = times
    if sim is not None and exp is not None:
        m.value = sim - exp
        m.details = f"above {level:g} m after {after:g} s: sim {sim:.3f} s, exp {exp:.3f} s"
    else:
        m.result_override = NOT_APPLICABLE
        m.details = f"not above {level:g} m after {after:g} s within the run"
    return m


def compare(settings: Dict, out: str) -> Summary:
    data = read_data()
    plt = case_run.load_pyplot()
    quick = settings.get("quick", False)
    summary = Summary("SPHERIC test 2: water heights" + (" (quick)" if quick else ""))
    summary.notes += [
        "DamBreak (`dambreak`) against the experiment of Kleefsman et al. (2005), "
        "`validation/data/spheric_test2_water_heights.dat`: gauges H1-H4 at x = 0.496, 0.992, "
        "1.488, 2.638 m, y = 0.5 m. The data's x and DamBreak's are both measured from the wall "
        "behind the obstacle (water at x in [1.992, 3.22] m), so the gauges are compared as they "
        "are. The simulated height is the gauge reading of src/instruments/gauges.h, every "
        f"{GAUGE_EVERY:g} s: " + READING_NOTES[gauge_reading(settings)],
        "NMAE = mean |h_sim - h_exp| / max h_exp, over the experiment's samples (1 kHz) in "
        "[0, t_end] (the simulation interpolated linearly at their times), max h_exp taken over "
        f"the same samples. Arrival: first time the height exceeds {ARRIVAL_THRESHOLD:g} m, "
        "interpolated between samples; for gauges dry at t = 0 (H4 starts in the reservoir). "
        "Returning wave (the wave back from the far walls): first time after 3.8 s (H3) or 3 s "
        "(H4) that the height exceeds 0.22 m (H3) or 0.30 m (H4), levels its front crosses "
        "steeply in the experiment.",
    ]
    if quick:
        summary.notes.append(
            f"**Quick mode**: t_end {settings['t_end']:g} s instead of {DEFAULT_T_END:g} s, dp "
            + ", ".join(f"{r['dp']:g}" for r in settings["runs"]) + " m: a smoke test of the "
            "pipeline; its metrics are not expected to meet the thresholds, which are meant for "
            "the full runs.")
    summary.notes.append(runs_table(settings))
    fig, axes = plt.subplots(2, 2, figsize=(12, 7.5), sharex=True)
    t_exp = data["time"]
    for k, (name, x) in enumerate(GAUGES):
        ax = axes.flat[k]
        ax.plot(t_exp, data[name], color="k", lw=1.0, label="experiment")
        for run in settings["runs"]:
            gauges = case_run.read_gauges(os.path.join(out, run["dir"], "gauges.csv"))
            if name not in gauges:
                raise RunError(f"{run['dir']}/gauges.csv has no column {name}")
            t_sim, h_sim = gauges["time"], gauges[name]
            window_end = min(float(t_sim[-1]), float(t_exp[-1]))
            e = accuracy.nmae(t_sim, h_sim, t_exp, data[name], (0.0, window_end))
            summary.add(Metric(f"{name} NMAE", run["label"], e.value, NMAE_LIMIT,
                               details=f"MAE {fmt(e.mae)} m / max h_exp {fmt(e.scale)} m, "
                               f"t in [0, {window_end:g}] s"))
            if data[name][0] <= ARRIVAL_THRESHOLD:
                summary.add(arrival_metric(name, run["label"], t_sim, h_sim, t_exp, data[name],
                                           window_end))
            if name in RETURN_WAVES:
                summary.add(return_metric(name, run["label"], t_sim, h_sim, t_exp, data[name]))
            ax.plot(t_sim, h_sim, lw=1.2, label=f"SPH {run['label']}")
        t_end = max(r["report"]["simulated_time"] for r in settings["runs"])
        ax.set_xlim(0.0, t_end)
        ax.axhline(ARRIVAL_THRESHOLD, color="0.6", ls=":", lw=0.8)
        ax.set_title(f"{name}, x = {x} m")
        ax.set_ylabel("water height [m]")
        ax.grid(True, alpha=0.3)
        if k >= 2:
            ax.set_xlabel("t [s]")
    axes.flat[0].legend(fontsize="small")
    summary.save_figure(plt, fig, "SPHERIC test 2 water heights: SPH vs experiment "
                        "(Kleefsman et al. 2005)", out, FIGURE, quick)
    return summary


def main(argv: Sequence[str]) -> int:
    return case_run.run_case("spheric_dambreak", parse_args(argv), run_all, compare)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
