"""The figures of lobovsky.py: the wall pressures and the surge front against the experiment.

Each takes the experiment as lobovsky.read_experiment() returns it, the runs as (run, series)
pairs of lobovsky.read_run(), and draws into the Summary's folder.
"""

from typing import Dict, List, Sequence, Tuple

import numpy as np

ZOOM = (2.2, 3.2)  # t*: the first impact at the wall


def _pressure_limits(exp: Dict, sims: List[Tuple[Dict, Dict]], name: str,
                     t_range: Tuple[float, float]) -> Tuple[float, float]:
    """y limits that show the band and the filtered curves; raw spikes above are clipped."""
    shown = (exp["t"] >= t_range[0]) & (exp["t"] <= t_range[1])
    top = float(np.nanmax(exp[name][2][shown]))
    for _, sim in sims:
        inside = (sim["t"] >= t_range[0]) & (sim["t"] <= t_range[1])
        if inside.any() and np.isfinite(sim[name + "_filtered"][inside]).any():
            top = max(top, float(np.nanmax(sim[name + "_filtered"][inside])))
    return -0.08 * top, 1.15 * top


def _pressure_panel(ax, exp: Dict, sims: List[Tuple[Dict, Dict]], name: str,
                    t_range: Tuple[float, float]) -> None:
    shown = (exp["t"] >= t_range[0]) & (exp["t"] <= t_range[1])
    median, lo, hi = (c[shown] for c in exp[name])
    ax.fill_between(exp["t"][shown], lo, hi, color="0.8", lw=0, label="experiment 2.5-97.5 %")
    ax.plot(exp["t"][shown], median, color="k", lw=0.8, label="experiment median")
    for k, (run, sim) in enumerate(sims):
        ax.plot(sim["t"], sim[name], color=f"C{k}", lw=0.4, alpha=0.3)
        ax.plot(sim["t"], sim[name + "_filtered"], color=f"C{k}", lw=1.1,
                label=f"SPH {run['label']}, filtered")
    ax.set_xlim(*t_range)
    ax.set_ylim(*_pressure_limits(exp, sims, name, t_range))
    ax.grid(True, alpha=0.3)


def plot_pressure(plt, summary, exp: Dict, targets: Dict, sims: List[Tuple[Dict, Dict]],
                  sensors: Sequence[Tuple[str, int]], mean_window: Tuple[float, float],
                  out: str, name: str, quick: bool) -> None:
    """Per sensor, a row: the whole run (the means' window shaded) and the first impact, where
    a box marks the peak's targets (band in value, tolerance in time)."""
    from matplotlib.patches import Rectangle  # after case_run.load_pyplot() chose the back end
    t_end = max(float(sim["t"][-1]) for _, sim in sims)
    fig, axes = plt.subplots(len(sensors), 2, figsize=(13, 3.1 * len(sensors)),
                             gridspec_kw={"width_ratios": [2, 1]})
    for row, (sensor, z_mm) in zip(axes, sensors):
        whole, zoom = row
        _pressure_panel(whole, exp, sims, sensor, (1.5, max(t_end, ZOOM[1])))
        whole.axvspan(*mean_window, color="C2", alpha=0.08, lw=0)
        whole.set_ylabel(f"{sensor} ({z_mm} mm): p / (rho g H)")
        _pressure_panel(zoom, exp, sims, sensor, ZOOM)
        if sensor in targets:
            target = targets[sensor]
            (t0, t1), (lo, hi) = target["t_range"], target["band"]
            zoom.add_patch(Rectangle((t0, lo), t1 - t0, hi - lo, fill=False, ec="C3", ls="--",
                                     lw=1.0, label="first peak: band x time tolerance"))
    axes[0][0].legend(fontsize="x-small", loc="upper right")
    axes[0][1].legend(handles=axes[0][1].patches[-1:], fontsize="x-small", loc="upper right")
    axes[-1][0].set_xlabel("t* = t sqrt(g/H)   (shaded: window of the means)")
    axes[-1][1].set_xlabel("t*, first impact")
    summary.save_figure(plt, fig, "Lobovsky et al. 2014, H = 0.3 m: pressure on the downstream "
                        "wall, SPH (raw thin) vs experiment", out, name, quick)


def plot_front(plt, summary, exp: Dict, sims: List[Tuple[Dict, Dict]], x_wall: float, out: str,
               name: str, quick: bool) -> None:
    fig, ax = plt.subplots(figsize=(7.5, 4.8))
    ax.plot(exp["front_t"], exp["front_X"], "ko", ms=3, label="experiment")
    for k, (run, sim) in enumerate(sims):
        ax.plot(sim["t"], sim["front"], color=f"C{k}", lw=1.2, label=f"SPH {run['label']}")
    ax.axhline(x_wall, color="0.5", ls=":", lw=0.8, label="downstream wall")
    ax.set_xlim(0.0, 1.2 * float(exp["front_t"][-1]))
    ax.set_ylim(0.0, x_wall + 0.3)
    ax.set_xlabel("t* = t sqrt(g/H)")
    ax.set_ylabel("(x_front - L) / H")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize="small")
    summary.save_figure(plt, fig, "Lobovsky et al. 2014, H = 0.3 m: surge front", out, name,
                        quick)
