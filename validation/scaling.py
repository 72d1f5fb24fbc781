"""Strong-scaling arithmetic of the multi-device runs (paper section 4.1 and 4.4.1).

Every run of one scaling series has the same problem, settings and simulated time, so the work
(iterations x particles) is the same and the speedup on N devices is S = runtime_1 / runtime_N.
When only throughputs are known (the paper's Table 1 gives mips), S = mips_N / mips_1, which is
the same number for equal work.

Karp-Flatt serial fraction (Karp and Flatt 1990, paper eq. 1):
    beta = (1/S - 1/N) / (1 - 1/N)
the share of the work that did not get faster with more devices, overhead included; undefined
for N = 1.
"""

from dataclasses import dataclass
from typing import Dict, Iterable, List, Optional


def _positive(name: str, value: float) -> float:
    if not value > 0.0:  # also refuses NaN
        raise ValueError(f"{name} must be positive (got {value})")
    return float(value)


def _device_count(devices: int) -> int:
    if int(devices) != devices or devices < 1:
        raise ValueError(f"the device count must be an integer >= 1 (got {devices})")
    return int(devices)


def mips(particles: float, iterations: float, loop_seconds: float) -> float:
    """Millions of iterations x particles per second (paper section 4.1)."""
    return particles * iterations / _positive("loop_seconds", loop_seconds) / 1e6


def speedup(runtime_1: float, runtime_n: float) -> float:
    """S = runtime on 1 device / runtime on N devices, for the same work."""
    return _positive("runtime_1", runtime_1) / _positive("runtime_n", runtime_n)


def speedup_from_mips(mips_1: float, mips_n: float) -> float:
    """S = mips on N devices / mips on 1 device, for the same work."""
    return _positive("mips_n", mips_n) / _positive("mips_1", mips_1)


def efficiency(s: float, devices: int) -> float:
    """Parallel efficiency S / N (1 is ideal)."""
    return _positive("speedup", s) / _device_count(devices)


def karp_flatt(s: float, devices: int) -> Optional[float]:
    """Karp-Flatt serial fraction (1/S - 1/N) / (1 - 1/N); None for N = 1, where it is undefined."""
    n = _device_count(devices)
    s = _positive("speedup", s)
    if n == 1:
        return None
    return (1.0 / s - 1.0 / n) / (1.0 - 1.0 / n)


@dataclass
class Measurement:
    """One run: N devices in balancing mode `lb` ("" when no mode was asked for)."""

    devices: int
    lb: str = ""
    runtime: Optional[float] = None  # seconds of the time loop, set-up excluded
    mips: Optional[float] = None
    label: str = ""


@dataclass
class ScalingRow:
    label: str
    lb: str
    devices: int
    runtime: Optional[float]
    mips: Optional[float]
    speedup: float
    ideal: int
    efficiency: float
    serial_fraction: Optional[float]  # None at N = 1


def _baseline(group: List[Measurement], lb: str) -> Measurement:
    """The 1-device run a mode's speedups are relative to: that mode's own, else the shared one."""
    ones = [m for m in group if m.devices == 1]
    own = [m for m in ones if m.lb == lb]
    shared = [m for m in ones if m.lb in ("", "-")]
    for candidates in (own, shared, ones):
        if len(candidates) == 1:
            return candidates[0]
        if len(candidates) > 1:
            break
    label = f" of '{group[0].label}'" if group and group[0].label else ""
    if not ones:
        raise ValueError(f"no 1-device measurement{label}: speedups need one")
    raise ValueError(f"several 1-device measurements{label} for balancing mode '{lb}'")


def scaling_rows(measurements: Iterable[Measurement]) -> List[ScalingRow]:
    """Speedup, efficiency and serial fraction of each measurement against its 1-device run.

    Measurements are grouped by label (one problem each) and, within it, by balancing mode. The
    speedup comes from runtimes when the run and its baseline both have one, else from mips.
    """
    groups: Dict[str, List[Measurement]] = {}
    for m in measurements:
        _device_count(m.devices)
        if m.runtime is None and m.mips is None:
            raise ValueError(f"measurement on {m.devices} devices has neither runtime nor mips")
        groups.setdefault(m.label, []).append(m)
    rows = []
    for label, group in groups.items():
        for m in group:
            base = _baseline(group, m.lb)
            if m.runtime is not None and base.runtime is not None:
                s = speedup(base.runtime, m.runtime)
            elif m.mips is not None and base.mips is not None:
                s = speedup_from_mips(base.mips, m.mips)
            else:
                raise ValueError(
                    f"'{label}' on {m.devices} devices: the run and its 1-device baseline share "
                    "neither a runtime nor a mips value"
                )
            rows.append(
                ScalingRow(
                    label=label,
                    lb=m.lb,
                    devices=m.devices,
                    runtime=m.runtime,
                    mips=m.mips,
                    speedup=s,
                    ideal=m.devices,
                    efficiency=efficiency(s, m.devices),
                    serial_fraction=karp_flatt(s, m.devices),
                )
            )
    return rows
