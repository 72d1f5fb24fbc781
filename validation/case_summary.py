"""The summary of a validation case: its metrics, each against a threshold, as Markdown and CSV.

A case writes <out>/summary.md (what was run, notes, a table metric | run | value | threshold |
result | details, the figure) and <out>/metrics.csv (the same rows, values unformatted);
runs_table() lists the runs of a resolution study for its notes.
"""

import csv
import math
import os
from dataclasses import dataclass, field
from typing import Dict, List, Optional

PASS, FAIL, NOT_APPLICABLE = "PASS", "FAIL", "n/a"
CSV_COLUMNS = ["metric", "run", "value", "unit", "threshold", "result", "details"]


@dataclass
class Metric:
    name: str               # e.g. "H1 NMAE"
    run: str                # which run it measures, e.g. "dp 0.02 m"
    value: float            # NaN where undefined (then `details` says why)
    limit: Optional[float]  # passes when value (|value| if absolute) <= limit; None: reported only
    unit: str = ""
    absolute: bool = False  # compare |value| with the limit (a signed difference)
    details: str = ""
    result_override: Optional[str] = None  # e.g. n/a for a metric the window does not cover
    digits: int = 3

    @property
    def result(self) -> str:
        if self.result_override is not None:
            return self.result_override
        if self.limit is None:
            return "-"
        if not math.isfinite(self.value):
            return FAIL
        return PASS if (abs(self.value) if self.absolute else self.value) <= self.limit else FAIL

    def value_text(self) -> str:
        if not math.isfinite(self.value):
            return "-"
        sign = "+" if self.absolute and self.value > 0 else ""
        return f"{sign}{fmt(self.value, self.digits)}" + (f" {self.unit}" if self.unit else "")

    def threshold_text(self) -> str:
        if self.limit is None:
            return "-"
        what = "abs <= " if self.absolute else "<= "
        return what + fmt(self.limit, self.digits) + (f" {self.unit}" if self.unit else "")


def fmt(x: float, digits: int = 3) -> str:
    """`digits` significant digits, no exponent for everyday magnitudes (0.0834, 12.3, 1240)."""
    if x is None or not math.isfinite(x):
        return "-"
    if x == 0:
        return "0"
    magnitude = math.floor(math.log10(abs(x)))
    if magnitude < -4 or magnitude > 6:
        return f"{x:.{digits - 1}e}"
    return f"{x:.{max(0, digits - 1 - magnitude)}f}"


@dataclass
class Summary:
    title: str
    notes: List[str] = field(default_factory=list)
    metrics: List[Metric] = field(default_factory=list)
    figures: List[str] = field(default_factory=list)  # file names in the case's folder

    def add(self, metric: Metric) -> Metric:
        self.metrics.append(metric)
        return metric

    def failed(self) -> List[Metric]:
        return [m for m in self.metrics if m.result == FAIL]

    def table_lines(self) -> List[str]:
        lines = ["| metric | run | value | threshold | result | details |",
                 "| --- | --- | ---: | --- | --- | --- |"]
        for m in self.metrics:
            result = f"**{m.result}**" if m.result == FAIL else m.result
            lines.append(f"| {m.name} | {m.run} | {m.value_text()} | {m.threshold_text()} | "
                         f"{result} | {m.details} |")
        return lines

    def verdict(self) -> str:
        checked = [m for m in self.metrics if m.result in (PASS, FAIL)]
        failed = self.failed()
        return (f"{len(checked) - len(failed)} of {len(checked)} checks pass"
                + (": " + ", ".join(f"{m.name} ({m.run})" for m in failed) + " fail"
                   if failed else "."))

    def save_figure(self, plt, fig, title: str, out: str, name: str, quick: bool) -> None:
        """Titles, writes and closes a matplotlib figure as `out/name`, shown in the summary."""
        fig.suptitle(title + (" - quick" if quick else ""))
        fig.tight_layout()
        fig.savefig(os.path.join(out, name), dpi=110)
        plt.close(fig)
        self.figures.append(name)

    def markdown(self) -> str:
        lines = [f"# {self.title}", ""]
        for note in self.notes:
            lines += [note, ""]
        lines += [f"**{self.verdict()}**", ""] + self.table_lines() + [""]
        for name in self.figures:
            lines += [f"![{name}]({name})", ""]
        return "\n".join(lines)

    def write(self, out: str) -> List[str]:
        """Writes summary.md and metrics.csv into `out`; returns their paths."""
        os.makedirs(out, exist_ok=True)
        md_path, csv_path = os.path.join(out, "summary.md"), os.path.join(out, "metrics.csv")
        with open(md_path, "w") as f:
            f.write(self.markdown())
        with open(csv_path, "w", newline="") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(CSV_COLUMNS)
            for m in self.metrics:
                w.writerow([m.name, m.run, repr(m.value) if math.isfinite(m.value) else "nan",
                            m.unit, "" if m.limit is None else repr(m.limit), m.result, m.details])
        return [md_path, csv_path]


# The run report's physics settings a reader of a case needs, in the order they are printed.
PHYSICS_SHOWN = ("boundary", "slip", "alpha", "delta", "h-factor", "c0-factor", "cfl",
                 "gradient-correction", "perturb")


def physics_text(physics: Dict) -> str:
    """`boundary mdbc, slip free-slip, alpha 0.05, ...` from a run report's physics settings."""
    return ", ".join(f"{k} {physics[k]:g}" if isinstance(physics[k], (int, float))
                     else f"{k} {physics[k]}" for k in PHYSICS_SHOWN if k in physics)


def physics_line(settings: Dict) -> str:
    """What the runs' reports say of their physics: one line when they agree, one per run when
    not, nothing when the reports predate it."""
    texts = [(run["label"], physics_text(run["report"].get("physics", {})))
             for run in settings["runs"]]
    if not any(text for _, text in texts):
        return ""
    if len({text for _, text in texts}) == 1:
        return f"Physics, from the runs' reports: {texts[0][1]}."
    return "Physics, from the runs' reports: " + "; ".join(
        f"{label}: {text or 'not reported'}" for label, text in texts) + "."


def runs_table(settings: Dict) -> str:
    """The runs of a resolution study (case.json's settings) as a Markdown table, for the notes."""
    lines = ["| run | particles | iterations | simulated [s] | removed | device | time loop [s] |",
             "| --- | ---: | ---: | ---: | ---: | --- | ---: |"]
    for run in settings["runs"]:
        r = run["report"]
        lines.append(f"| {run['label']} | {r['particles']} | {r['iterations']} | "
                     f"{r['simulated_time']:.4g} | {r['removed']} | {r['device']} | "
                     f"{r['loop_seconds']:.1f} |")
    extra = " ".join(settings.get("passthrough", []))
    physics = physics_line(settings)
    return (f"Runs on the {settings['backend']} back end"
            + (f", with `{extra}`" if extra else "") + ":\n\n" + "\n".join(lines)
            + (f"\n\n{physics}" if physics else ""))
