#!/usr/bin/env python3
"""Lobovsky et al. (2014) dam break, H = 0.3 m: impact pressures and surge front against the
experiment.

    validation/lobovsky.py --build-dir build --backend cuda --dp 0.01,0.005,0.0025 \\
        --out validation/results/lobovsky
    validation/lobovsky.py --build-dir build --quick --out /tmp/lobovsky -- --threads 1
    validation/lobovsky.py --from-output validation/results/lobovsky

Runs `lobovsky` once per dp (a resolution study) to --t-end (1.4 s, t* = t sqrt(g/H) = 8) and
compares, in t*, p / (rho g H) and (x_front - L) / H, the pressures P1-P4 on the downstream wall
(3, 15, 30 and 80 mm above the floor) with the median and 2.5-97.5 % band of about 100
repetitions of the experiment (validation/data/lobovsky2014_h300_wall_pressure.dat), and the
surge front with validation/data/lobovsky2014_h300_surge_front.dat. Per dp: the first impact
peak at P1-P3 (its value against the band, its time) and its impulse (reported only), each
sensor's mean over t* in [4, 6], the front until it reaches the wall. Writes summary.md,
metrics.csv, lobovsky_wall_pressure.png, lobovsky_surge_front.png and wall_pressure.csv (raw and
filtered) into --out, the runs in runs/dp<dp>/.
"""

import argparse
import csv
import math
import os
import sys
from typing import Dict, List, Sequence

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import case_run  # noqa: E402
from case_run import RunError, UsageError, number as num  # noqa: E402
try:
    import numpy as np

    import accuracy
    import lobovsky_figures
except ImportError:  # --runs-only needs no numpy (case_run.load_pyplot says what is missing)
    np = accuracy = lobovsky_figures = None
from case_summary import NOT_APPLICABLE, Metric, Summary, fmt, runs_table  # noqa: E402

PRESSURE_DATA = os.path.join(HERE, "data", "lobovsky2014_h300_wall_pressure.dat")
FRONT_DATA = os.path.join(HERE, "data", "lobovsky2014_h300_surge_front.dat")
# problems/lobovsky.h: water depth H, column length L, tank length [m]; the sensors' heights.
H, L, TANK_LENGTH = 0.3, 0.6, 1.61
X_WALL = (TANK_LENGTH - L) / H  # the front's (x - L) / H at the downstream wall: 3.37
SENSORS = (("P1", 3), ("P2", 15), ("P3", 30), ("P4", 80))  # sensor, height above the floor [mm]
# What stands for sensor n in gauges.csv: under mDBC the wall sensor S<n> (problems/lobovsky.h: a
# disc 6 mm across on the wall's face, reading the wall's pressure as a flush sensor does); under
# DBC the probe P<n> at the same point (the fluid beside the face: DBC walls carry pressures of
# their own).
WALL_SENSOR_PREFIX, PROBE_PREFIX = "S", "P"
IMPACT_SENSORS = ("P1", "P2", "P3")  # P4 rises slowly: no sharp first peak to compare
DEFAULT_DP, DEFAULT_T_END = "0.01,0.005,0.0025", 1.4  # t_end: t* 8, past the data's 7.15
# 0.0375 m: the coarsest dp lobovsky accepts (four particles across the tank); t* 3.43 covers
# the first impact at P1-P3 but not the window of the means.
QUICK_DP, QUICK_T_END = "0.0375", 0.6
# The experiment samples at 20 kHz. Rows every 0.5 ms (t* 0.003), each the mean of the
# readings over its interval, taken at every iteration (`--gauge-average`,
# src/instruments/interval_average.h); with it the simulator's filter takes those readings, not
# the rows (src/instruments/streaming_low_pass.h): the first peaks at dp 0.0025 m from 0.5 ms rows
# lie within 0.2 % of the every-iteration filter's (validation/results/h100-streamed-filter/).
# (Filtered from the rows, as builds before 2026-11-27 did, 0.5 ms rows of means cut P1's by
# 7.4 %, 0.1 ms rows by 1.8 %: validation/results/h100-gauge-average/row-grid.md.) Quick: 1 ms rows.
DEFAULT_GAUGE_EVERY, QUICK_GAUGE_EVERY = 0.0005, 0.001
GAUGE_AVERAGE = "--gauge-average"
DEFAULT_BOUNDARY = "mdbc"  # the walls carry the fluid's pressure: the sensors sit on one
# Low-pass filter of the simulated pressures: the simulator's --gauge-filter (a zero-phase
# Gaussian, src/instruments/low_pass.h) at 220 Hz, -3 dB there as a centred moving average 2 ms wide
# (the filter of runs written before gauges_filtered.csv existed). It removes the acoustic noise
# of the weakly compressible pressure (periods of h / c0, 0.1-0.4 ms) and lowers the experiment's
# median peaks by at most 2 % (P1; < 0.5 % at P2, P3).
FILTER_HZ = 220.0
FILTER_WIDTH = 0.002  # [s]
FIRST_IMPACT = (2.0, 3.0)  # t*: holds the experiment's first median peak at P1-P3, nothing later
# The simulated peak is sought within +-10 % of the experiment's peak time: twice the time
# tolerance, so that a peak outside the tolerance is found as such, not the window's edge.
PEAK_WINDOW = 0.10
PEAK_TIME_LIMIT = 0.05  # |t*_sim - t*_exp| / t*_exp: the 5 %
# (peak - band middle) / band half-width: inside the experiment's 2.5-97.5 % band.
PEAK_BAND_LIMIT = 1.0
MEAN_WINDOW = (4.0, 6.0)  # t*: after the first impact, before the reflected wave returns at 6
MEAN_LIMIT = 0.10  # |mean_sim - mean_exp| / mean_exp: the 10 %
FRONT_LIMIT = 0.05  # RMS of (x_sim - x_exp) / x_exp, x from the upstream wall: the 5 %
# The first impact's impulse, the integral of p over FIRST_IMPACT: what a structure whose natural
# period is long against the impact feels of it, and far more repeatable than its peak (between
# ensemble members 4-6 % against 15-40 %: validation/results/h200-head-ensemble/impulses.md).
# Reported only: the issue sets it no target. The experiment's is the integral of its median
# curve, which for a window that holds every repetition's impact is close to their impulses'
# median, not the same.
IMPULSE_WINDOW = FIRST_IMPACT
PRESSURE_FIGURE, FRONT_FIGURE = "lobovsky_wall_pressure.png", "lobovsky_surge_front.png"
SERIES_CSV = "wall_pressure.csv"
OWN_PROBLEM_OPTIONS = ("--boundary", "--gauge-every", GAUGE_AVERAGE)


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    argv, passthrough = case_run.split_passthrough(argv)
    p = argparse.ArgumentParser(
        prog="lobovsky.py",
        description="Lobovsky et al. (2014) dam break, H = 0.3 m: run lobovsky at one or more dp "
        "and compare the wall pressures P1-P4 and the surge front with the experiment (first "
        "impact peaks, means over t* 4-6, front error, plots).",
        epilog="Arguments after `--` go to every run, e.g. `-- --threads 1` or `-- --devices 0,1`; "
        "--rho0 and --gravity given there are used for the normalisation too.")
    case_run.add_common_options(p, "lobovsky")
    p.add_argument("--dp", help=f"particle spacings [m], comma-separated: one run each (default "
                   f"{DEFAULT_DP}; --quick: {QUICK_DP})")
    p.add_argument("--t-end", type=float, help=f"simulated time [s] (default {DEFAULT_T_END:g}; "
                   f"--quick: {QUICK_T_END:g})")
    p.add_argument("--boundary", choices=("dbc", "mdbc"), default=DEFAULT_BOUNDARY,
                   help=f"walls of the runs (default {DEFAULT_BOUNDARY})")
    p.add_argument("--gauge-every", help=f"time between gauge rows [s] (default "
                   f"{DEFAULT_GAUGE_EVERY:g}; --quick: {QUICK_GAUGE_EVERY:g})")
    args = p.parse_args(argv)
    try:
        case_run.finish_common_args(args, passthrough, OWN_PROBLEM_OPTIONS)
        if not args.from_output:
            args.dps = case_run.parse_dp_list(args.dp or (QUICK_DP if args.quick else DEFAULT_DP))
            if args.t_end is None:
                args.t_end = QUICK_T_END if args.quick else DEFAULT_T_END
            if not args.t_end > 0:
                raise UsageError(f"--t-end must be positive (got {args.t_end})")
            args.gauge_every = (case_run.positive_float(args.gauge_every, "--gauge-every")
                                if args.gauge_every else
                                QUICK_GAUGE_EVERY if args.quick else DEFAULT_GAUGE_EVERY)
            args.rho0 = float(case_run.option_value(passthrough, "--rho0") or 1000.0)
            args.gravity = float(case_run.option_value(passthrough, "--gravity") or 9.81)
        elif args.dp or args.t_end is not None or args.gauge_every:
            raise UsageError("--from-output runs nothing: leave out --dp, --t-end, --gauge-every")
    except UsageError as e:
        p.error(str(e))
    return args


def run_all(args: argparse.Namespace) -> Dict:
    exe = case_run.find_executable(args, "lobovsky")
    options = ["--backend", args.backend, "--t-end", num(args.t_end), "--boundary",
               args.boundary, "--gauge-every", num(args.gauge_every), GAUGE_AVERAGE,
               "--gauge-filter", num(FILTER_HZ)]
    if case_run.option_value(args.passthrough, "--output-every") is None:
        options += ["--output-every", num(args.t_end)]  # frames (--keep-frames) at 0 and t_end only
    dirs = [os.path.join("runs", f"dp{dp:g}") for dp in args.dps]
    jobs = [(os.path.join(args.out, d), options + ["--dp", num(dp)])
            for d, dp in zip(dirs, args.dps)]
    reports = case_run.run_problems(exe, jobs, args)
    runs = [{"label": f"dp {dp:g} m (H/dp {H / dp:.3g})", "dir": d, "dp": dp, "report": report}
            for d, dp, report in zip(dirs, args.dps, reports)]
    settings = {"case": "lobovsky", "boundary": args.boundary, "gauge_every": args.gauge_every,
                "gauge_average": True, "rho0": args.rho0, "gravity": args.gravity, "t_end": args.t_end,
                "quick": args.quick, "backend": args.backend, "passthrough": args.passthrough,
                "runs": runs}
    case_run.write_case_json(args.out, settings)
    return settings


def read_experiment() -> Dict:
    """t* and, per sensor, (median, 2.5 %, 97.5 %) of p / (rho g H); the front's t* and X."""
    p, f = case_run.read_table(PRESSURE_DATA), case_run.read_table(FRONT_DATA)
    if p.shape[1] != 1 + 3 * len(SENSORS) or f.shape[1] != 2:
        raise RunError(f"unexpected columns in '{PRESSURE_DATA}' or '{FRONT_DATA}'")
    exp = {"t": p[:, 0], "front_t": f[:, 0], "front_X": f[:, 1]}
    for i, (name, _) in enumerate(SENSORS):
        exp[name] = p[:, 1 + 3 * i:4 + 3 * i].T
    return exp


def impact_targets(exp: Dict) -> Dict[str, Dict]:
    """Per impact sensor: the experiment's first median peak (t*, value), the window searched
    around it, the times within the tolerance, and the band there: the 2.5 % and 97.5 % levels'
    maxima over the window."""
    targets = {}
    for name in IMPACT_SENSORS:
        median, lo, hi = exp[name]
        t_peak, p_peak = accuracy.peak(exp["t"], median, FIRST_IMPACT)
        window = (t_peak * (1.0 - PEAK_WINDOW), t_peak * (1.0 + PEAK_WINDOW))
        targets[name] = {"t": t_peak, "p": p_peak, "window": window,
                         "t_range": (t_peak * (1.0 - PEAK_TIME_LIMIT),
                                     t_peak * (1.0 + PEAK_TIME_LIMIT)),
                         "band": (accuracy.peak(exp["t"], lo, window)[1],
                                  accuracy.peak(exp["t"], hi, window)[1])}
    return targets


def sensor_column(settings: Dict, gauges: Dict, name: str) -> str:
    """The gauges.csv column of sensor `name` (P1-P4): S<n> under mDBC where the run has it."""
    wall = WALL_SENSOR_PREFIX + name[1:]
    return wall if settings["boundary"] == "mdbc" and wall in gauges else PROBE_PREFIX + name[1:]


def read_run(settings: Dict, run: Dict, out: str) -> Dict:
    """A run's series in the experiment's units: t*, each sensor raw and filtered, the front X."""
    g = settings["gravity"]
    run_dir = os.path.join(out, run["dir"])
    gauges = case_run.read_gauges(os.path.join(run_dir, "gauges.csv"))
    filtered_csv = os.path.join(run_dir, "gauges_filtered.csv")
    filtered = case_run.read_gauges(filtered_csv) if case_run.stored(filtered_csv) else None
    columns = {name: sensor_column(settings, gauges, name) for name, _ in SENSORS}
    missing = [c for c in list(columns.values()) + ["front_x"] if c not in gauges]
    if missing:
        raise RunError(f"{run['dir']}/gauges.csv lacks the columns {missing}")
    t = gauges["time"]
    sim = {"t_s": t, "t": t * math.sqrt(g / H), "columns": columns,
           "filter": f"{FILTER_HZ:g} Hz Gaussian" if filtered else f"{1000 * FILTER_WIDTH:g} ms"}
    scale = settings["rho0"] * g * H
    for name, column in columns.items():
        sim[name] = gauges[column] / scale
        sim[name + "_filtered"] = (filtered[column] / scale if filtered else
                                   accuracy.moving_average(t, sim[name], FILTER_WIDTH))
    # The tracker reads the leading particle's centre, dp/2 behind the water's edge, which stops
    # at the wall.
    edge = np.minimum(gauges["front_x"] + 0.5 * run["dp"], TANK_LENGTH)
    sim["front"] = (edge - L) / H
    return sim


def not_covered(m: Metric, sim: Dict, until: float) -> Metric:
    m.result_override = NOT_APPLICABLE
    m.details = f"the run ends at t* {sim['t'][-1]:.3g}, before {until:.3g}"
    return m


def peak_metrics(name: str, target: Dict, sim: Dict, label: str) -> List[Metric]:
    value = Metric(f"{name} first peak vs band", label, math.nan, PEAK_BAND_LIMIT, absolute=True)
    time = Metric(f"{name} first peak time, rel. diff.", label, math.nan, PEAK_TIME_LIMIT,
                  absolute=True)
    window = target["window"]
    found = accuracy.peak(sim["t"], sim[name + "_filtered"], window)
    if found is None:
        return [not_covered(m, sim, window[1]) for m in (value, time)]
    (t_sim, p_sim), (lo, hi) = found, target["band"]
    value.value = (p_sim - 0.5 * (lo + hi)) / (0.5 * (hi - lo))
    value.details = (f"(p - band middle) / half-width; p sim {fmt(p_sim)}, band [{fmt(lo)}, "
                     f"{fmt(hi)}] (median {fmt(target['p'])}), t* in [{window[0]:.3f}, "
                     f"{window[1]:.3f}]")
    if p_sim > 0.0:
        time.value = (t_sim - target["t"]) / target["t"]
        time.details = f"t* sim {t_sim:.3f}, exp {target['t']:.3f}"
    else:  # no time to compare: FAIL
        time.details = "no pressure in the window: the water had not reached the sensor"
    return [value, time]


def mean_metric(name: str, exp: Dict, sim: Dict, label: str) -> Metric:
    m = Metric(f"{name} mean t* {MEAN_WINDOW[0]:g}-{MEAN_WINDOW[1]:g}, rel. diff.", label, math.nan,
               MEAN_LIMIT, absolute=True)
    exp_mean = accuracy.window_mean(exp["t"], exp[name][0], MEAN_WINDOW)
    sim_mean = accuracy.window_mean(sim["t"], sim[name], MEAN_WINDOW)
    if sim_mean is None:
        return not_covered(m, sim, MEAN_WINDOW[1])
    m.value = (sim_mean - exp_mean) / exp_mean
    m.details = f"(sim - exp) / exp; sim {fmt(sim_mean)}, exp median {fmt(exp_mean)}"
    return m


def impulse_metric(name: str, exp: Dict, sim: Dict, settings: Dict, label: str) -> Metric:
    """The first impact's impulse over IMPULSE_WINDOW, in p / (rho g H) times t*, against the
    integral of the experiment's median there; the rows are means over their intervals, so the
    raw series' window mean times the window's width is the run's integral."""
    lo, hi = IMPULSE_WINDOW
    m = Metric(f"{name} impulse t* {lo:g}-{hi:g}, rel. diff.", label, math.nan, None)
    width = hi - lo
    sim_mean = accuracy.window_mean(sim["t"], sim[name], IMPULSE_WINDOW)
    if sim_mean is None:
        return not_covered(m, sim, hi)
    median, low, high = (accuracy.window_mean(exp["t"], level, IMPULSE_WINDOW) * width
                         for level in exp[name])
    impulse = sim_mean * width
    g = settings["gravity"]
    unit = settings["rho0"] * g * H * math.sqrt(H / g)  # p / (rho g H) t* -> Pa s
    m.value = (impulse - median) / median
    m.details = (f"reported only; (sim - exp) / exp; sim {fmt(impulse)} ({fmt(impulse * unit)} "
                 f"Pa s), exp median's {fmt(median)} (the 2.5 % and 97.5 % levels' "
                 f"{fmt(low)}, {fmt(high)})")
    return m


def front_metrics(exp: Dict, sim: Dict, label: str) -> List[Metric]:
    """Relative error of the front's distance from the upstream wall, x = L + H X, at the
    experiment's points before the front reaches the downstream wall."""
    keep = exp["front_X"] < X_WALL
    t_exp, x_exp = exp["front_t"][keep], L + H * exp["front_X"][keep]
    x_sim = L + H * accuracy.interpolate(sim["t"], sim["front"], t_exp)
    compared = np.isfinite(x_sim)
    rms = Metric("front x, RMS rel. error", label, math.nan, FRONT_LIMIT)
    worst = Metric("front x, max rel. error", label, math.nan, None)
    if not compared.any():
        return [not_covered(m, sim, t_exp[0]) for m in (rms, worst)]
    rel = accuracy.relative_errors(x_sim[compared], x_exp[compared])
    k = int(np.argmax(rel))
    rms.value = float(np.sqrt(np.mean(rel * rel)))
    rms.details = f"{int(compared.sum())} of {t_exp.size} points, t* <= {t_exp[compared][-1]:.3g}"
    worst.value = float(rel[k])
    worst.details = (f"reported only; at t* {t_exp[compared][k]:.3g}: X sim "
                     f"{(x_sim[compared][k] - L) / H:.3g}, exp {(x_exp[compared][k] - L) / H:.3g}")
    return [rms, worst]


def run_metrics(exp: Dict, targets: Dict, sim: Dict, settings: Dict, label: str,
                checked: bool) -> List[Metric]:
    """The metrics of one run; unless `checked` (the finest dp) they are reported only."""
    metrics = [m for name in IMPACT_SENSORS for m in peak_metrics(name, targets[name], sim, label)]
    metrics += [impulse_metric(name, exp, sim, settings, label) for name in IMPACT_SENSORS]
    metrics += [mean_metric(name, exp, sim, label) for name, _ in SENSORS]
    metrics += front_metrics(exp, sim, label)
    if not checked:
        for m in metrics:
            if m.limit is not None and m.result_override is None:
                m.limit = None
                m.details += "; reported only (the finest dp is checked)"
    return metrics


def rows_note(settings: Dict) -> str:
    """How the run's rows were read (runs made before --gauge-average read points)."""
    every = f"{settings['gauge_every']:g} s"
    if settings.get("gauge_average"):
        return (f"a row every {every}, each the mean of the readings over its interval, taken "
                "at every iteration (`--gauge-average`)")
    if settings["gauge_every"] < 1e-6:
        return "read at every iteration"
    return f"read every {every} (the readings at those times, not means)"


def notes(settings: Dict) -> List[str]:
    text = [
        "`lobovsky` (problems/lobovsky.h): the dam break of Lobovsky et al. (2014), H = 0.3 m: a "
        "tank 1.61 x 0.15 x 0.6 m, the water column x in [0, 0.6] m released at t = 0 (the "
        "experiment's gate is not modelled, and its time origin is taken as is), "
        f"`--boundary {settings['boundary']}`. Sensors 1-4 (P1-P4 below) on the downstream "
        "wall's face at z = 3, 15, 30, 80 mm: under mDBC the wall sensors S1-S4 (discs 6 mm "
        "across reading the wall's pressure, as flush sensors do), under DBC (or runs without "
        "them) the probes P1-P4 at the same points (the fluid beside the face); "
        + rows_note(settings) + "; the surge front is the leading fluid particle on the "
        "floor plus dp/2 (its edge).",
        "Against the experiment's median and 2.5-97.5 % band over about 100 repetitions "
        "(`validation/data/lobovsky2014_h300_wall_pressure.dat`, `..._surge_front.dat`), in "
        "t* = t sqrt(g/H), p / (rho g H) and X = (x_front - L) / H, with L = 0.6 m and H = 0.3 m. "
        "The experiment's pressures are scaled with its rho = 997 kg/m^3, the simulation's with "
        f"its rho0 = {settings['rho0']:g} kg/m^3; g = {settings['gravity']:g} m/s^2.",
        f"The simulated pressures are low-pass filtered to {FILTER_HZ:g} Hz (-3 dB) by the "
        "simulator (`--gauge-filter`, a zero-phase Gaussian; with `--gauge-average` in builds "
        "from 2026-11-27 on, of the readings at every iteration, at the rows' times; runs written without "
        f"gauges_filtered.csv: a centred moving average {1000 * FILTER_WIDTH:g} ms wide, -3 dB at "
        f"about {0.443 / FILTER_WIDTH:.0f} Hz), which lowers the experiment's median peaks by at "
        "most 2 %; `wall_pressure.csv` holds the raw and filtered series. First impact (P1-P3): the experiment's peak is the median's "
        f"maximum over t* in [{FIRST_IMPACT[0]:g}, {FIRST_IMPACT[1]:g}]; the simulation's is the "
        f"filtered maximum within +-{100 * PEAK_WINDOW:g} % of that time; its value is compared "
        "with the band there, [max of the 2.5 % level, max of the 97.5 % level] over the same "
        "window, as (p - band middle) / band half-width (inside the band: |value| <= 1), and its "
        f"time with the experiment's ({100 * PEAK_TIME_LIMIT:g} %). Impulse (reported only): "
        f"the raw series' integral over t* in [{IMPULSE_WINDOW[0]:g}, {IMPULSE_WINDOW[1]:g}] "
        "against that of the experiment's median. Means: the raw series over "
        f"t* in [{MEAN_WINDOW[0]:g}, {MEAN_WINDOW[1]:g}] against the median's mean "
        f"({100 * MEAN_LIMIT:g} %). Front: the relative error of the front's distance from the "
        "upstream wall, x = L + H X, at the experiment's points before it reaches the downstream "
        f"wall (X < {X_WALL:.3g}), the simulation interpolated linearly; RMS "
        f"<= {100 * FRONT_LIMIT:g} %. The thresholds apply to the finest dp; the coarser runs are "
        "reported only.",
    ]
    if settings.get("quick"):
        text.append(
            f"**Quick mode**: t_end {settings['t_end']:g} s (t* "
            f"{settings['t_end'] * math.sqrt(settings['gravity'] / H):.3g}) instead of "
            f"{DEFAULT_T_END:g} s, dp " + ", ".join(f"{r['dp']:g}" for r in settings["runs"])
            + " m: a smoke test of the pipeline; its metrics are not expected to meet the "
            "thresholds, which are meant for the full runs.")
    return text + [runs_table(settings)]


def compare(settings: Dict, out: str) -> Summary:
    exp = read_experiment()
    plt = case_run.load_pyplot()
    targets = impact_targets(exp)
    quick = settings.get("quick", False)
    summary = Summary("Lobovsky et al. (2014) dam break, H = 0.3 m"
                      + (" (quick)" if quick else ""), notes=notes(settings))
    finest = min(r["dp"] for r in settings["runs"])
    sims = []
    for run in settings["runs"]:
        sim = read_run(settings, run, out)
        sims.append((run, sim))
        summary.notes.append(f"{run['label']}: sensors 1-4 read from "
                             + ", ".join(sim["columns"].values()) + f", filtered {sim['filter']}.")
        for m in run_metrics(exp, targets, sim, settings, run["label"], run["dp"] == finest):
            summary.add(m)
    write_series(os.path.join(out, SERIES_CSV), sims)
    lobovsky_figures.plot_pressure(plt, summary, exp, targets, sims, SENSORS, MEAN_WINDOW, out,
                                   PRESSURE_FIGURE, quick)
    lobovsky_figures.plot_front(plt, summary, exp, sims, X_WALL, out, FRONT_FIGURE, quick)
    return summary


def write_series(path: str, sims) -> None:
    """Every run's pressures in p / (rho0 g H), raw and filtered, one row per sample."""
    names = [n for n, _ in SENSORS]
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["dp_m", "t_s", "t_star"] + [f"{n}_raw" for n in names]
                   + [f"{n}_filtered" for n in names])
        for run, sim in sims:
            columns = [sim["t_s"], sim["t"]] + [sim[n] for n in names] \
                + [sim[n + "_filtered"] for n in names]
            for row in zip(*columns):
                w.writerow([f"{run['dp']:g}"] + [f"{v:.6g}" for v in row])


def main(argv: Sequence[str]) -> int:
    return case_run.run_case("lobovsky", parse_args(argv), run_all, compare)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
