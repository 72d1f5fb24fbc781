"""The scaling report's outputs: Markdown tables laid out like the paper's Tables 1-2, the CSV,
and the plot (speedup and efficiency against devices), from scaling.scaling_rows and the runs'
diagnostics."""

import csv
import io
import math
import os
import sys
from typing import Dict, List, Optional

import scaling

CSV_COLUMNS = ["label", "lb", "devices", "runtime_s", "mips", "speedup", "ideal", "efficiency",
               "serial_fraction", "iterations", "particles"]


def fmt_sig(x: Optional[float], digits: int = 3, min_decimals: int = 0) -> str:
    """`digits` significant digits without exponent (24.6, 1.03, 544), `min_decimals` at least."""
    if x is None:
        return "-"
    if x == 0:
        return "0"
    decimals = max(min_decimals, digits - 1 - math.floor(math.log10(abs(x))))
    return f"{x:.{decimals}f}"


def fmt_pct(x: Optional[float]) -> str:
    return "-" if x is None else f"{100.0 * x:.1f} %"


def mode_name(lb: str) -> str:
    return f"LB {lb}" if lb else "measured"


def layout(rows: List[scaling.ScalingRow]):
    """Per label: its device counts, its modes and the row of each (mode, N) cell.

    A 1-device run shared by all modes is shown in the first mode's line, as in the paper."""
    groups = {}
    for r in rows:
        groups.setdefault(r.label, []).append(r)
    out = []
    for label, group in groups.items():
        counts = sorted({r.devices for r in group})
        modes = list(dict.fromkeys(r.lb for r in group if r.lb)) or [""]
        cells = {}
        for r in group:
            lb = r.lb if r.lb else modes[0]
            cells.setdefault((lb, r.devices), r)
        out.append((label, counts, modes, cells))
    return out


def markdown_table(title: str, groups, value, ideal=None) -> List[str]:
    counts = sorted({n for _, cs, _, _ in groups for n in cs})
    lines = [f"### {title}", "", "| | " + " | ".join(str(n) for n in counts) + " |",
             "| --- |" + " ---: |" * len(counts)]
    for label, _, modes, cells in groups:
        if len(groups) > 1:
            lines.append(f"| **{label}** |" + " |" * len(counts))
        for lb in modes:
            vals = [value(cells[(lb, n)]) if (lb, n) in cells else "-" for n in counts]
            lines.append(f"| {mode_name(lb)} | " + " | ".join(vals) + " |")
        if ideal is not None:
            base = cells.get((modes[0], 1))
            lines.append("| Ideal | " + " | ".join(ideal(base, n) for n in counts) + " |")
    return lines + [""]


def diagnostics_table(extra: Dict) -> List[str]:
    """Per multi-device run: what its run report says about lost time."""
    runs = [(key, r["diagnostics"]) for key, r in sorted(extra.items())
            if r.get("diagnostics") is not None]
    if not runs:
        return []
    lines = ["### Where the multi-device runs lose time (from their run reports)", "",
             "Waits: the most any device spent waiting (dt reduction, neighbours' Euler, rebuild "
             "barriers), as a share of the time loop. Forces spread: (slowest - fastest) / slowest "
             "average Forces time per iteration. Particles spread: the same for the mean particle "
             "counts. Copies hidden: the share of edge-force copy time that overlapped the "
             "central Forces work.", "",
             "| run | waits | Forces spread | particles spread | copies hidden |",
             "| --- | ---: | ---: | ---: | ---: |"]
    for (n, lb), d in runs:
        lines.append(f"| {n} devices{', LB ' + lb if lb else ''} | {fmt_pct(d['wait_share'])} | "
                     f"{fmt_pct(d['forces_spread'])} | {fmt_pct(d['particles_spread'])} | "
                     f"{fmt_pct(d['hidden_fraction'])} |")
    return lines + [""]


def markdown(rows: List[scaling.ScalingRow], title: str, notes: List[str], extra: Dict) -> str:
    groups = layout(rows)
    lines = [f"# Scaling report{': ' + title if title else ''}", ""] + notes + [
        "",
        "Runtime: the time loop of each run (`wall_time_s.time_loop` of run_report.json, set-up "
        "excluded). Speedup S = runtime_1 / runtime_N (from mips_N / mips_1 where no runtime is "
        "known; the same for equal work); efficiency S / N; serial fraction "
        "beta = (1/S - 1/N) / (1 - 1/N) (Karp-Flatt, undefined at N = 1).",
        "",
    ]
    has_runtime = any(r.runtime is not None for r in rows)
    has_mips = any(r.mips is not None for r in rows)

    def ideal_runtime(base, n):
        return fmt_sig(base.runtime / n, 4) if base and base.runtime is not None and n > 1 else "-"

    def ideal_mips(base, n):
        return fmt_sig(base.mips * n, 3, 1) if base and base.mips is not None and n > 1 else "-"

    if has_runtime:
        lines += markdown_table("Runtime [s]", groups, lambda r: fmt_sig(r.runtime, 4),
                                ideal_runtime)
    if has_mips:
        lines += markdown_table("Throughput [mips] (as the paper's Table 1)", groups,
                                lambda r: fmt_sig(r.mips, 3, 1), ideal_mips)
    lines += markdown_table("Speedup S", groups, lambda r: f"{r.speedup:.2f}",
                            lambda base, n: str(n))
    lines += markdown_table("Efficiency S / N", groups, lambda r: fmt_pct(r.efficiency))
    lines += markdown_table("Serial fraction beta, Karp-Flatt (as the paper's Table 2)", groups,
                            lambda r: fmt_pct(r.serial_fraction))
    lines += diagnostics_table(extra)
    return "\n".join(lines)


def csv_text(rows: List[scaling.ScalingRow], extra: Dict) -> str:
    def num(x):
        return "-" if x is None else f"{x:.6g}"

    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    for r in rows:
        more = extra.get((r.devices, r.lb), {})
        w.writerow([r.label, r.lb or "-", r.devices, num(r.runtime), num(r.mips),
                    f"{r.speedup:.6g}", r.ideal, f"{r.efficiency:.6g}", num(r.serial_fraction),
                    more.get("iterations", "-"), more.get("particles", "-")])
    return buf.getvalue()


def plot(plt, rows: List[scaling.ScalingRow], title: str, path: str) -> None:
    groups = layout(rows)
    fig, (ax_s, ax_m) = plt.subplots(1, 2, figsize=(11, 4.5))
    counts = sorted({r.devices for r in rows})
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    ideal_styles = ("--", ":", "-.")
    ax_s.plot(counts, counts, "k--", label="ideal")
    series = 0
    for g, (label, cs, modes, cells) in enumerate(groups):
        prefix = label + " " if len(groups) > 1 else ""
        base = cells.get((modes[0], 1))
        if base is not None and base.mips is not None:
            ax_m.plot(cs, [base.mips * n for n in cs], color="k",
                      linestyle=ideal_styles[g % len(ideal_styles)], label=prefix + "ideal")
        for lb in modes:
            # Every line starts at the 1-device run, shared or the mode's own.
            pts = [cells.get((lb, n)) or (base if n == 1 else None) for n in cs]
            pts = [p for p in pts if p is not None]
            style = dict(marker="o", color=colours[series % len(colours)],
                         label=prefix + mode_name(lb))
            series += 1
            ax_s.plot([p.devices for p in pts], [p.speedup for p in pts], **style)
            mp = [p for p in pts if p.mips is not None]
            if mp:
                ax_m.plot([p.devices for p in mp], [p.mips for p in mp], **style)
    for ax, ylabel in ((ax_s, "speedup S = runtime_1 / runtime_N"), (ax_m, "throughput [mips]")):
        ax.set_xlabel("devices N")
        ax.set_ylabel(ylabel)
        ax.set_xticks(counts)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize="small")
    fig.suptitle(f"Scaling{': ' + title if title else ''}")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def write_outputs(plt, rows, title: str, notes: List[str], extra: Dict, out: str) -> None:
    os.makedirs(out, exist_ok=True)
    md, table = markdown(rows, title, notes, extra), csv_text(rows, extra)
    paths = {name: os.path.join(out, name) for name in ("scaling.md", "scaling.csv", "scaling.png")}
    with open(paths["scaling.md"], "w") as f:
        f.write(md + "\n")
    with open(paths["scaling.csv"], "w") as f:
        f.write(table)
    plot(plt, rows, title, paths["scaling.png"])
    print(md)
    print(table, end="")
    print("wrote " + ", ".join(paths.values()), file=sys.stderr)
