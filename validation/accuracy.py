"""Accuracy metrics of the validation cases: a simulated time series against measurements.

Plain numpy, no plotting; every function takes sample times and values as sequences and ignores
NaN samples (a gauge's `nan`, a front tracker that found no front).

- interpolate:   a series' values at other times, linearly; NaN outside the series' span.
- nmae:          normalised mean absolute error, MAE / max |measured| over a time window, the
                 simulation interpolated at the measurement times (SPHERIC water heights).
- arrival_time:  first time a series exceeds a threshold, interpolated between samples.
- rms_difference: root mean square of (simulated - reference) at the reference times.
- relative_errors: |measured - expected| / |expected|, per point (hydrostatic pressures).
- moving_average: a centred moving average over a time window (a low-pass filter: impact
                 pressures).
- peak:          the largest value within a time window and its time.
- window_mean:   the mean over a time window.
"""

import math
from dataclasses import dataclass
from typing import Optional, Sequence, Tuple

import numpy as np


def _finite_series(t: Sequence[float], y: Sequence[float]) -> Tuple[np.ndarray, np.ndarray]:
    """The samples of (t, y) where both are finite, sorted by time."""
    t, y = np.asarray(t, dtype=float), np.asarray(y, dtype=float)
    if t.shape != y.shape or t.ndim != 1:
        raise ValueError(f"times and values must be 1-D and of one length ({t.shape}, {y.shape})")
    keep = np.isfinite(t) & np.isfinite(y)
    order = np.argsort(t[keep], kind="stable")
    return t[keep][order], y[keep][order]


def interpolate(t: Sequence[float], y: Sequence[float], at: Sequence[float]) -> np.ndarray:
    """y linearly interpolated at the times `at`; NaN where `at` lies outside [t_first, t_last]
    of the finite samples (never extrapolated)."""
    t, y = _finite_series(t, y)
    at = np.asarray(at, dtype=float)
    out = np.full(at.shape, np.nan)
    if t.size == 0:
        return out
    inside = (at >= t[0]) & (at <= t[-1])
    out[inside] = np.interp(at[inside], t, y)
    return out


@dataclass
class Nmae:
    mae: float    # mean |simulated - measured| over the compared points [unit of y]
    scale: float  # max |measured| over the window: the normalisation [unit of y]
    value: float  # mae / scale [-]; NaN when there is nothing to compare or the scale is 0
    points: int   # measurement times compared


def nmae(t_sim: Sequence[float], y_sim: Sequence[float], t_ref: Sequence[float],
         y_ref: Sequence[float], window: Tuple[float, float]) -> Nmae:
    """Normalised mean absolute error of a simulated series against measurements.

    The measurements with window[0] <= t <= window[1] that the simulation spans are compared with
    the simulation interpolated at their times: NMAE = mean |y_sim - y_ref| / max |y_ref|, the
    maximum taken over the same points."""
    t_ref, y_ref = _finite_series(t_ref, y_ref)
    in_window = (t_ref >= window[0]) & (t_ref <= window[1])
    t_ref, y_ref = t_ref[in_window], y_ref[in_window]
    sim = interpolate(t_sim, y_sim, t_ref)
    compared = np.isfinite(sim)
    if not compared.any():
        return Nmae(math.nan, math.nan, math.nan, 0)
    mae = float(np.mean(np.abs(sim[compared] - y_ref[compared])))
    scale = float(np.max(np.abs(y_ref[compared])))
    value = mae / scale if scale > 0.0 else math.nan
    return Nmae(mae, scale, value, int(compared.sum()))


def arrival_time(t: Sequence[float], y: Sequence[float], threshold: float,
                 t_max: float = math.inf) -> Optional[float]:
    """The first time (<= t_max) at which y exceeds `threshold`, linearly interpolated between
    the last sample at or below it and the first above; the first sample's time if that one is
    already above; None if y never exceeds it."""
    t, y = _finite_series(t, y)
    above = np.nonzero((y > threshold) & (t <= t_max))[0]
    if above.size == 0:
        return None
    k = int(above[0])
    if k == 0:
        return float(t[0])
    t0, t1, y0, y1 = t[k - 1], t[k], y[k - 1], y[k]
    return float(t0 + (threshold - y0) / (y1 - y0) * (t1 - t0))


@dataclass
class RmsDifference:
    value: float  # sqrt(mean (y_sim - y_ref)^2) [unit of y]; NaN when nothing is compared
    points: int   # reference points compared


def rms_difference(t_sim: Sequence[float], y_sim: Sequence[float], t_ref: Sequence[float],
                   y_ref: Sequence[float]) -> RmsDifference:
    """RMS of the simulation interpolated at the reference times minus the reference, over the
    reference points the simulation spans."""
    t_ref, y_ref = _finite_series(t_ref, y_ref)
    sim = interpolate(t_sim, y_sim, t_ref)
    compared = np.isfinite(sim)
    if not compared.any():
        return RmsDifference(math.nan, 0)
    diff = sim[compared] - y_ref[compared]
    return RmsDifference(float(np.sqrt(np.mean(diff * diff))), int(compared.sum()))


def relative_errors(measured: Sequence[float], expected: Sequence[float]) -> np.ndarray:
    """|measured - expected| / |expected| per point; refuses an expected value of 0."""
    measured, expected = np.asarray(measured, dtype=float), np.asarray(expected, dtype=float)
    if measured.shape != expected.shape:
        raise ValueError(f"{measured.shape} measured values for {expected.shape} expected")
    if np.any(expected == 0.0):
        raise ValueError("a relative error against an expected value of 0 is undefined")
    return np.abs(measured - expected) / np.abs(expected)


def moving_average(t: Sequence[float], y: Sequence[float], width: float) -> np.ndarray:
    """Centred moving average: at each sample, the mean of the finite samples whose times lie
    within width / 2 of its own (a boxcar low-pass filter, -3 dB at about 0.443 / width for even
    sampling). NaN samples stay NaN and are left out of their neighbours' means; a window holding
    only its own sample leaves it as it is. `t` must be non-decreasing."""
    t, y = np.asarray(t, dtype=float), np.asarray(y, dtype=float)
    if t.shape != y.shape or t.ndim != 1:
        raise ValueError(f"times and values must be 1-D and of one length ({t.shape}, {y.shape})")
    if np.any(np.diff(t) < 0.0):
        raise ValueError("sample times must be non-decreasing")
    finite = np.isfinite(y)
    sums = np.concatenate(([0.0], np.cumsum(np.where(finite, y, 0.0))))
    counts = np.concatenate(([0], np.cumsum(finite)))
    lo = np.searchsorted(t, t - 0.5 * width, side="left")
    hi = np.searchsorted(t, t + 0.5 * width, side="right")
    out = np.full(y.shape, np.nan)
    out[finite] = ((sums[hi] - sums[lo]) / (counts[hi] - counts[lo]))[finite]
    return out


def _covered(t: np.ndarray, window: Tuple[float, float]) -> Optional[np.ndarray]:
    """The samples within the window, or None when the series does not span it."""
    if t.size == 0 or t[0] > window[0] or t[-1] < window[1]:
        return None
    return (t >= window[0]) & (t <= window[1])


def peak(t: Sequence[float], y: Sequence[float],
         window: Tuple[float, float]) -> Optional[Tuple[float, float]]:
    """(time, value) of the largest finite sample with window[0] <= t <= window[1] (the first
    if several); None when the finite samples do not span the window."""
    t, y = _finite_series(t, y)
    inside = _covered(t, window)
    if inside is None or not inside.any():
        return None
    k = int(np.argmax(y[inside]))
    return float(t[inside][k]), float(y[inside][k])


def window_mean(t: Sequence[float], y: Sequence[float],
                window: Tuple[float, float]) -> Optional[float]:
    """Mean of the finite samples with window[0] <= t <= window[1] (for evenly spaced samples,
    the time average); None when they do not span the window."""
    t, y = _finite_series(t, y)
    inside = _covered(t, window)
    if inside is None or not inside.any():
        return None
    return float(np.mean(y[inside]))
