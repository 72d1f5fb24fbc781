"""Tests of the validation metrics (accuracy.py) and summaries (case_summary.py), on inputs whose
results are computed by hand. No executable is run.

Run by ctest (validation_accuracy); by hand from validation/:
    python3 -B -m unittest -v test_accuracy
"""

import csv
import math
import os
import sys
import tempfile
import unittest

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import accuracy  # noqa: E402
from case_summary import FAIL, NOT_APPLICABLE, PASS, Metric, Summary, fmt, runs_table  # noqa: E402

NAN = float("nan")


class InterpolateTest(unittest.TestCase):
    def test_linear_between_samples_and_exact_at_them(self):
        got = accuracy.interpolate([0.0, 1.0, 3.0], [0.0, 2.0, 6.0], [0.0, 0.25, 1.0, 2.0, 3.0])
        np.testing.assert_allclose(got, [0.0, 0.5, 2.0, 4.0, 6.0])

    def test_nan_outside_the_span_never_extrapolated(self):
        got = accuracy.interpolate([1.0, 2.0], [10.0, 20.0], [0.5, 1.5, 2.5])
        self.assertTrue(math.isnan(got[0]) and math.isnan(got[2]))
        self.assertAlmostEqual(got[1], 15.0)

    def test_nan_samples_are_skipped_and_order_does_not_matter(self):
        # The NaN at t = 1 is dropped: t = 1 interpolates between (0, 0) and (2, 4).
        got = accuracy.interpolate([2.0, 1.0, 0.0], [4.0, NAN, 0.0], [1.0])
        self.assertAlmostEqual(got[0], 2.0)
        self.assertTrue(np.isnan(accuracy.interpolate([], [], [1.0])).all())

    def test_mismatched_lengths_are_refused(self):
        with self.assertRaises(ValueError):
            accuracy.interpolate([0.0, 1.0], [1.0], [0.5])


class NmaeTest(unittest.TestCase):
    def test_hand_computed(self):
        # Measured 0, 1, 2, 1 at t = 0..3; simulated 0, 1.5, 2, 0 at the same times:
        # |errors| 0, 0.5, 0, 1 -> MAE 0.375; max measured 2 -> NMAE 0.1875.
        e = accuracy.nmae([0, 1, 2, 3], [0, 1.5, 2, 0], [0, 1, 2, 3], [0, 1, 2, 1], (0.0, 3.0))
        self.assertAlmostEqual(e.mae, 0.375)
        self.assertAlmostEqual(e.scale, 2.0)
        self.assertAlmostEqual(e.value, 0.1875)
        self.assertEqual(e.points, 4)

    def test_simulation_interpolated_at_measurement_times(self):
        # Simulated h = t (samples at 0 and 2), measured 0.5 at t = 0.5 and 1 at t = 1.5:
        # errors 0 and 0.5 -> MAE 0.25, scale 1 -> 0.25.
        e = accuracy.nmae([0.0, 2.0], [0.0, 2.0], [0.5, 1.5], [0.5, 1.0], (0.0, 2.0))
        self.assertAlmostEqual(e.value, 0.25)

    def test_window_and_span_limit_the_points(self):
        # The window leaves out t = 3; the simulation (to t = 1.5) leaves out t = 2: only t = 0, 1.
        e = accuracy.nmae([0.0, 1.5], [1.0, 1.0], [0, 1, 2, 3], [1.0, 3.0, 5.0, 7.0], (0.0, 2.5))
        self.assertEqual(e.points, 2)
        self.assertAlmostEqual(e.mae, 1.0)  # |1 - 1|, |1 - 3|
        self.assertAlmostEqual(e.scale, 3.0)
        self.assertAlmostEqual(e.value, 1.0 / 3.0)

    def test_nothing_to_compare_or_all_dry_is_nan(self):
        self.assertTrue(math.isnan(accuracy.nmae([5, 6], [1, 1], [0, 1], [1, 1], (0, 2)).value))
        e = accuracy.nmae([0, 1], [0.1, 0.1], [0, 1], [0.0, 0.0], (0, 1))
        self.assertAlmostEqual(e.mae, 0.1)
        self.assertTrue(math.isnan(e.value))


class ArrivalTimeTest(unittest.TestCase):
    def test_interpolated_crossing(self):
        # 0 at t = 1, 0.2 at t = 2: 0.05 is crossed a quarter of the way, t = 1.25.
        self.assertAlmostEqual(accuracy.arrival_time([0, 1, 2, 3], [0, 0, 0.2, 0.3], 0.05), 1.25)

    def test_first_crossing_only_and_strictly_above(self):
        # Reaches exactly the threshold at t = 1 (not above), exceeds it at t = 2 (crossing
        # between 1 and 2 is at 1 + (0.05 - 0.05) / (0.15 - 0.05) = 1); a later rise is ignored.
        got = accuracy.arrival_time([0, 1, 2, 3, 4], [0, 0.05, 0.15, 0.0, 0.5], 0.05)
        self.assertAlmostEqual(got, 1.0)

    def test_wet_from_the_start_never_and_t_max(self):
        self.assertEqual(accuracy.arrival_time([0.5, 1.0], [0.3, 0.4], 0.05), 0.5)
        self.assertIsNone(accuracy.arrival_time([0, 1, 2], [0, 0.01, 0.02], 0.05))
        self.assertIsNone(accuracy.arrival_time([0, 1, 2], [0, 0, 1], 0.05, t_max=1.5))
        # A NaN sample is skipped: the crossing is between t = 0 (0) and t = 2 (0.1).
        self.assertAlmostEqual(accuracy.arrival_time([0, 1, 2], [0, NAN, 0.1], 0.05), 1.0)


class RmsAndRelativeErrorTest(unittest.TestCase):
    def test_rms_hand_computed(self):
        # Simulated y = 2 t; reference (1, 1), (2, 5), (3, 6): differences 1, -1, 0 -> sqrt(2/3).
        e = accuracy.rms_difference([0, 4], [0, 8], [1, 2, 3], [1, 5, 6])
        self.assertAlmostEqual(e.value, math.sqrt(2.0 / 3.0))
        self.assertEqual(e.points, 3)
        # Reference points after the simulation's end are left out.
        e = accuracy.rms_difference([0, 2], [0, 4], [1, 2, 3], [1, 5, 6])
        self.assertEqual(e.points, 2)
        self.assertAlmostEqual(e.value, 1.0)
        self.assertTrue(math.isnan(accuracy.rms_difference([5, 6], [0, 0], [1], [1]).value))

    def test_relative_errors(self):
        np.testing.assert_allclose(accuracy.relative_errors([102.0, 45.0], [100.0, 50.0]),
                                   [0.02, 0.1])
        with self.assertRaises(ValueError):
            accuracy.relative_errors([1.0], [0.0])


class FilterPeakAndMeanTest(unittest.TestCase):
    def test_moving_average_hand_computed(self):
        # Width 2 at unit spacing: each sample with its two neighbours, fewer at the ends.
        got = accuracy.moving_average([0, 1, 2, 3, 4], [0.0, 3.0, 0.0, 3.0, 6.0], 2.0)
        np.testing.assert_allclose(got, [1.5, 1.0, 2.0, 3.0, 4.5])
        # Narrower than the spacing: unchanged.
        np.testing.assert_allclose(accuracy.moving_average([0, 1, 2], [1.0, 5.0, 2.0], 0.5),
                                   [1.0, 5.0, 2.0])

    def test_moving_average_skips_nan_and_refuses_unsorted_times(self):
        got = accuracy.moving_average([0, 1, 2], [1.0, NAN, 3.0], 2.0)
        self.assertAlmostEqual(got[0], 1.0)
        self.assertTrue(math.isnan(got[1]))
        self.assertAlmostEqual(got[2], 3.0)
        with self.assertRaises(ValueError):
            accuracy.moving_average([0, 2, 1], [1.0, 2.0, 3.0], 1.0)

    def test_peak_in_window(self):
        t, y = [0, 1, 2, 3, 4], [5.0, 1.0, 4.0, 4.0, 9.0]
        self.assertEqual(accuracy.peak(t, y, (0.5, 3.5)), (2.0, 4.0))  # the first of equals
        self.assertEqual(accuracy.peak(t, y, (0.0, 4.0)), (4.0, 9.0))
        self.assertIsNone(accuracy.peak(t, y, (3.5, 5.0)))  # the series ends before the window
        self.assertIsNone(accuracy.peak(t, y, (1.2, 1.8)))  # no sample inside

    def test_window_mean(self):
        t, y = [0, 1, 2, 3, 4], [5.0, 1.0, NAN, 3.0, 9.0]
        self.assertAlmostEqual(accuracy.window_mean(t, y, (1.0, 3.0)), 2.0)
        self.assertIsNone(accuracy.window_mean(t, y, (-1.0, 3.0)))


class SummaryTest(unittest.TestCase):
    def test_results(self):
        self.assertEqual(Metric("m", "r", 0.1, 0.15).result, PASS)
        self.assertEqual(Metric("m", "r", 0.2, 0.15).result, FAIL)
        self.assertEqual(Metric("m", "r", NAN, 0.15).result, FAIL)  # undefined: not met
        self.assertEqual(Metric("m", "r", -0.08, 0.1, absolute=True).result, PASS)
        self.assertEqual(Metric("m", "r", -0.12, 0.1, absolute=True).result, FAIL)
        self.assertEqual(Metric("m", "r", 5.0, None).result, "-")
        self.assertEqual(Metric("m", "r", NAN, 0.1, result_override=NOT_APPLICABLE).result,
                         NOT_APPLICABLE)

    def test_fmt(self):
        self.assertEqual(fmt(0.083412), "0.0834")
        self.assertEqual(fmt(12.345), "12.3")
        self.assertEqual(fmt(1234.5), "1234")  # no exponent for everyday magnitudes
        self.assertEqual(fmt(NAN), "-")
        self.assertEqual(fmt(0.0), "0")

    def test_markdown_and_csv(self):
        s = Summary("Case", notes=["A note."])
        s.add(Metric("H1 NMAE", "dp 0.02 m", 0.0834, 0.15))
        s.add(Metric("H1 arrival", "dp 0.02 m", 0.031, 0.1, "s", absolute=True, details="d"))
        s.add(Metric("H2 NMAE", "dp 0.02 m", 0.4, 0.15))
        md = s.markdown()
        self.assertIn("| H1 NMAE | dp 0.02 m | 0.0834 | <= 0.150 | PASS |  |", md)
        self.assertIn("| H1 arrival | dp 0.02 m | +0.0310 s | abs <= 0.100 s | PASS | d |", md)
        self.assertIn("| H2 NMAE | dp 0.02 m | 0.400 | <= 0.150 | **FAIL** |  |", md)
        self.assertIn("**2 of 3 checks pass: H2 NMAE (dp 0.02 m) fail**", md)
        with tempfile.TemporaryDirectory() as out:
            s.write(out)
            with open(os.path.join(out, "metrics.csv")) as f:
                rows = list(csv.DictReader(f))
        self.assertEqual([r["result"] for r in rows], [PASS, PASS, FAIL])
        self.assertEqual(float(rows[1]["value"]), 0.031)
        self.assertEqual(rows[1]["unit"], "s")


    def test_runs_table(self):
        report = {"particles": 7070, "iterations": 1478, "simulated_time": 0.6, "removed": 0,
                  "device": "CPU", "loop_seconds": 14.84}
        text = runs_table({"backend": "cpu", "passthrough": ["--threads", "1"],
                           "runs": [{"label": "dp 0.0375 m", "report": report}]})
        self.assertTrue(text.startswith("Runs on the cpu back end, with `--threads 1`:"))
        self.assertIn("| dp 0.0375 m | 7070 | 1478 | 0.6 | 0 | CPU | 14.8 |", text)
        self.assertNotIn("Physics", text)  # a report from before the physics were recorded

    def test_runs_table_names_the_physics(self):
        physics = {"problem": "DamBreak", "dp": 0.02, "alpha": 0.05, "delta": 0.1,
                   "boundary": "mdbc", "slip": "free-slip", "cfl": 0.3, "rebuild-every": 8.0}
        report = {"particles": 10, "iterations": 5, "simulated_time": 0.1, "removed": 0,
                  "device": "CPU", "loop_seconds": 1.0, "physics": physics}
        finer = dict(report, physics=dict(physics, dp=0.01))
        text = runs_table({"backend": "cpu", "runs": [{"label": "dp 0.02 m", "report": report},
                                                      {"label": "dp 0.01 m", "report": finer}]})
        self.assertTrue(text.endswith("\n\nPhysics, from the runs' reports: boundary mdbc, "
                                      "slip free-slip, alpha 0.05, delta 0.1, cfl 0.3."), text)
        other = dict(report, physics=dict(physics, alpha=0.01))
        text = runs_table({"backend": "cpu", "runs": [{"label": "a", "report": report},
                                                      {"label": "b", "report": other}]})
        self.assertIn("a: boundary mdbc, slip free-slip, alpha 0.05, delta 0.1, cfl 0.3; "
                      "b: boundary mdbc, slip free-slip, alpha 0.01, delta 0.1, cfl 0.3.", text)

if __name__ == "__main__":
    unittest.main()
