"""Tests of the validation cases: tiny coarse (--quick) instances run the real executables and
must write their files with the expected contents; bad arguments and failed runs must stop a case
with the right exit code and message.

Run by ctest (validation_*; SPH_BUILD_DIR names the build folder); by hand from validation/:
    SPH_BUILD_DIR=../build python3 -B -m unittest -v test_cases
"""

import csv
import json
import math
import os
import signal
import stat
import subprocess
import sys
import tempfile
import textwrap
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
BUILD_DIR = os.environ.get("SPH_BUILD_DIR", os.path.join(HERE, "..", "build"))
COMPACT_RESULTS = os.path.join(HERE, "..", "scripts", "compact_results.py")
# One OpenMP thread: tiny runs go faster so, and ctest runs two tests at once.
THREADS = ["--", "--threads", "1"]


def tool(script, *args, env=None):
    return subprocess.run([sys.executable, "-B", os.path.join(HERE, script), *args],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=300,
                          env=env)


def read_metrics(folder):
    with open(os.path.join(folder, "metrics.csv")) as f:
        return {(r["metric"], r["run"]): r for r in csv.DictReader(f)}


def read_text(path):
    with open(path) as f:
        return f.read()


class CaseTestBase(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.out = os.path.join(self.tmp.name, "out")

    def tearDown(self):
        self.tmp.cleanup()

    def assert_png(self, path):
        with open(path, "rb") as f:
            self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n", path)
        self.assertGreater(os.path.getsize(path), 10000, path)  # a drawn figure, not a blank

    def assert_finite(self, row):
        self.assertTrue(math.isfinite(float(row["value"])), row)

    def assert_recomputes(self, script, figure):
        """--from-output gives the same metrics from the runs already there."""
        again = os.path.join(self.tmp.name, "again")
        proc = tool(script, "--from-output", self.out, "--out", again)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(read_text(os.path.join(again, "metrics.csv")),
                         read_text(os.path.join(self.out, "metrics.csv")))
        self.assert_png(os.path.join(again, figure))


class SphericQuickTest(CaseTestBase):
    def test_quick_run_writes_summary_metrics_and_plot(self):
        proc = tool("spheric_dambreak.py", "--build-dir", BUILD_DIR, "--backend", "cpu",
                    "--quick", "--out", self.out, *THREADS)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        rows = read_metrics(self.out)
        run = "dp 0.08 m"
        for gauge in ("H1", "H2", "H3", "H4"):
            row = rows[(f"{gauge} NMAE", run)]
            self.assert_finite(row)
            self.assertGreaterEqual(float(row["value"]), 0.0)
            self.assertIn(row["result"], ("PASS", "FAIL"))
        # H1-H3 start dry: an arrival row each; H4 starts in the reservoir: none.
        for gauge in ("H1", "H2", "H3"):
            self.assertIn((f"{gauge} arrival sim - exp", run), rows)
        self.assertNotIn(("H4 arrival sim - exp", run), rows)
        # The returning waves come after 3.8 s (H3) and 3 s (H4): beyond the quick run's 1 s.
        for gauge in ("H3", "H4"):
            self.assertEqual(rows[(f"{gauge} returning wave sim - exp", run)]["result"], "n/a")
        # The first wave reaches H2 and H3 well within the quick run's 1 s.
        for gauge in ("H2", "H3"):
            self.assertLess(abs(float(rows[(f"{gauge} arrival sim - exp", run)]["value"])), 0.3)
        summary = read_text(os.path.join(self.out, "summary.md"))
        self.assertIn("**Quick mode**", summary)
        self.assertIn("| metric | run | value | threshold | result | details |", summary)
        self.assertIn("![spheric_water_heights.png](spheric_water_heights.png)", summary)
        self.assert_png(os.path.join(self.out, "spheric_water_heights.png"))
        run_dir = os.path.join(self.out, "runs", "dp0.08")
        with open(os.path.join(run_dir, "gauges.csv")) as f:
            self.assertTrue(f.readline().startswith("time,H1,H2,H3,H4,"))
        # The particle frames are deleted once the run has completed.
        self.assertEqual([n for n in os.listdir(run_dir) if n.endswith((".vtu", ".pvd"))], [])
        self.assert_recomputes("spheric_dambreak.py", "spheric_water_heights.png")


class ColumnCollapseQuickTest(CaseTestBase):
    def test_quick_run_writes_summary_metrics_and_plot(self):
        proc = tool("column_collapse.py", "--build-dir", BUILD_DIR, "--backend", "cpu",
                    "--quick", "--out", self.out, *THREADS)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        rows = read_metrics(self.out)
        run = "dp 0.125 m (a/dp 8)"
        for metric in ("front Z vs Martin & Moyce, RMS", "front Z vs Koshizuka & Oka, RMS",
                       "front Z vs Martin & Moyce, RMS after the best release delay",
                       "column height H vs Martin & Moyce, RMS"):
            self.assert_finite(rows[(metric, run)])
        # Even this coarse the front and the column are within a (Z) and a fifth of the
        # initial height (H) of the experiments.
        self.assertLess(float(rows[("front Z vs Martin & Moyce, RMS", run)]["value"]), 1.0)
        self.assertLess(float(rows[("column height H vs Martin & Moyce, RMS", run)]["value"]),
                        0.2)
        with open(os.path.join(self.out, "collapse_dimensionless.csv")) as f:
            series = list(csv.DictReader(f))
        self.assertGreater(len(series), 50)
        self.assertAlmostEqual(float(series[0]["H"]), 1.0, delta=0.05)  # the full column at t = 0
        self.assertGreater(float(series[-1]["Z"]), 2.0)  # the surge has run out past 2a
        summary = read_text(os.path.join(self.out, "summary.md"))
        self.assertIn("**Quick mode**", summary)
        self.assert_png(os.path.join(self.out, "column_collapse.png"))
        self.assert_recomputes("column_collapse.py", "column_collapse.png")


class HydrostaticQuickTest(CaseTestBase):
    def test_quick_run_meets_the_loose_threshold(self):
        proc = tool("hydrostatic.py", "--build-dir", BUILD_DIR, "--backend", "cpu", "--quick",
                    "--strict", "--keep-frames", "--out", self.out, *THREADS)
        self.assertEqual(proc.returncode, 0, proc.stderr + proc.stdout)
        rows = read_metrics(self.out)
        run = "dp 0.0625 m (H/dp 8)"
        error = rows[("max relative error, z <= 0.9 H", run)]
        self.assertEqual(error["result"], "PASS")
        self.assertLessEqual(float(error["value"]), float(error["threshold"]))
        self.assertEqual(float(error["threshold"]), 0.05)
        self.assertEqual(rows[("max fluctuation / rho0 g H", run)]["result"], "PASS")
        # The load panel on the wall: the force within 10 % even this coarse (DBC: reported only).
        force = rows[("wall x = 0: relative error of the force (panel F1)", run)]
        self.assert_finite(force)
        self.assertLess(float(force["value"]), 0.1)
        moment = rows[("wall x = 0: relative error of the moment about its foot (panel M1)", run)]
        self.assert_finite(moment)
        self.assertLess(float(moment["value"]), 0.1)
        self.assert_finite(rows[("wall sensors vs the run's compressible still water, "
                                 "z <= 0.9 H", run)])
        with open(os.path.join(self.out, "profile.csv")) as f:
            profile = list(csv.DictReader(f))
        self.assertEqual(len(profile), 8)
        for p in profile:  # each probe within 5 % of rho0 g (H - z)
            expected = 1000.0 * 9.81 * (0.5 - float(p["z_m"]))
            self.assertAlmostEqual(float(p["p_ref_pa"]), expected, delta=0.01 * expected)
            self.assertLess(abs(float(p["p_sim_pa"]) / expected - 1.0), 0.05)
        self.assert_png(os.path.join(self.out, "hydrostatic_profile.png"))
        # --keep-frames: the frames at t = 0 and t_end stay.
        self.assertTrue(os.path.isfile(os.path.join(self.out, "runs", "dp0.0625",
                                                    "StillWater.pvd")))
        self.assert_recomputes("hydrostatic.py", "hydrostatic_profile.png")


class CompressibleStillWaterTest(unittest.TestCase):
    """hydrostatic.compressible_reference: the Tait fluid at rest with the mass of depth H."""

    def setUp(self):
        sys.path.insert(0, HERE)
        import hydrostatic  # needs numpy, as the cases' metrics do
        self.np = hydrostatic.np
        self.reference = hydrostatic.compressible_reference

    def test_a_stiff_fluid_is_rho0_g_depth(self):
        z = self.np.linspace(0.0, 0.45, 10)
        p = self.reference(z, 0.5, 1000.0, 9.81, 1e5, 7.0)
        self.assertTrue(self.np.allclose(p, 1000.0 * 9.81 * (0.5 - z), rtol=1e-6))

    def test_the_column_holds_its_mass_and_balances_its_weight(self):
        np, H, rho0, g, gamma = self.np, 0.5, 1000.0, 9.81, 7.0
        c0 = 20.0 * math.sqrt(g * H)
        b = rho0 * c0 ** 2 / gamma
        z = np.linspace(0.0, H, 200001)
        p = self.reference(z, H, rho0, g, c0, gamma)
        rho = np.where(p > 0.0, rho0 * (1.0 + p / b) ** (1.0 / gamma), 0.0)
        mass = float(np.sum(0.5 * (rho[1:] + rho[:-1]) * np.diff(z)))
        self.assertAlmostEqual(mass / (rho0 * H), 1.0, delta=1e-5)
        wet = p > 1.0
        dp_dz = np.gradient(p, z)
        self.assertTrue(np.allclose(dp_dz[wet][1:-1], -rho[wet][1:-1] * g, rtol=1e-4))
        surface = float(z[p > 0.0][-1])  # g H^2 / (2 c0^2) below H, to first order
        self.assertAlmostEqual((H - surface) / (g * H ** 2 / (2 * c0 ** 2)), 1.0, delta=0.02)
        # Near the surface the pressure falls short of rho0 g (H - z) by rho0 g^2 H^2 / (2 c0^2).
        at = 0.411
        short = 1000.0 * 9.81 * (H - at) - float(self.reference(at, H, rho0, g, c0, gamma))
        self.assertAlmostEqual(short / (rho0 * g ** 2 * H ** 2 / (2 * c0 ** 2)), 1.0, delta=0.05)


class LobovskyQuickTest(CaseTestBase):
    def test_quick_run_writes_summary_metrics_plots_and_series(self):
        proc = tool("lobovsky.py", "--build-dir", BUILD_DIR, "--backend", "cpu", "--quick",
                    "--out", self.out, *THREADS)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        rows = read_metrics(self.out)
        run = "dp 0.0375 m (H/dp 8)"
        for sensor in ("P1", "P2", "P3"):
            self.assert_finite(rows[(f"{sensor} first peak vs band", run)])
            self.assertIn(rows[(f"{sensor} first peak time, rel. diff.", run)]["result"],
                          ("PASS", "FAIL"))
            # The impact's impulse over t* 2-3, which the quick run covers: reported only.
            impulse = rows[(f"{sensor} impulse t* 2-3, rel. diff.", run)]
            self.assert_finite(impulse)
            self.assertEqual(impulse["result"], "-")
            self.assertIn("Pa s", impulse["details"])
        # The quick run ends at t* 3.43, before the means' window t* in [4, 6].
        for sensor in ("P1", "P2", "P3", "P4"):
            self.assertEqual(rows[(f"{sensor} mean t* 4-6, rel. diff.", run)]["result"], "n/a")
        front = rows[("front x, RMS rel. error", run)]
        self.assert_finite(front)
        self.assertLess(float(front["value"]), 0.3)  # even this coarse, within 30 %
        self.assertIn(front["result"], ("PASS", "FAIL"))
        self.assertEqual(rows[("front x, max rel. error", run)]["result"], "-")
        summary = read_text(os.path.join(self.out, "summary.md"))
        self.assertIn("**Quick mode**", summary)
        self.assertIn("| metric | run | value | threshold | result | details |", summary)
        for figure in ("lobovsky_wall_pressure.png", "lobovsky_surge_front.png"):
            self.assertIn(f"![{figure}]({figure})", summary)
            self.assert_png(os.path.join(self.out, figure))
        with open(os.path.join(self.out, "wall_pressure.csv")) as f:
            series = list(csv.DictReader(f))
        self.assertGreater(len(series), 500)  # every 1 ms to 0.6 s
        self.assertAlmostEqual(float(series[-1]["t_star"]), 0.6 * math.sqrt(9.81 / 0.3), 2)
        for sensor in ("P1", "P2", "P3", "P4"):
            raw = [float(r[f"{sensor}_raw"]) for r in series]
            filtered = [float(r[f"{sensor}_filtered"]) for r in series]
            self.assertTrue(all(math.isfinite(v) for v in raw + filtered), sensor)
            self.assertLessEqual(max(filtered), max(raw) + 1e-9, sensor)  # an average
        # Probes and wall sensors at the four sensors, and the simulator's filtered series.
        for name in ("gauges.csv", "gauges_filtered.csv"):
            with open(os.path.join(self.out, "runs", "dp0.0375", name)) as f:
                self.assertTrue(f.readline().startswith("time,P1,P2,P3,P4,S1,S2,S3,S4,F_wall,front_x"))
        self.assertIn("Hz Gaussian", summary)
        self.assert_recomputes("lobovsky.py", "lobovsky_wall_pressure.png")
        # Compacted as results folders are kept (scripts/compact_results.py: the series
        # xz-compressed, the figures in a palette), the runs give the same metrics again.
        proc = subprocess.run([sys.executable, "-B", COMPACT_RESULTS, "--threshold", "0", self.out],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        run_dir = os.path.join(self.out, "runs", "dp0.0375")
        for name in ("gauges.csv", "gauges_filtered.csv"):
            self.assertTrue(os.path.exists(os.path.join(run_dir, name + ".xz")), name)
            self.assertFalse(os.path.exists(os.path.join(run_dir, name)), name)
        self.assertTrue(os.path.exists(os.path.join(self.out, "metrics.csv")))  # kept as it is
        self.assert_recomputes("lobovsky.py", "lobovsky_wall_pressure.png")


class EnsembleTest(unittest.TestCase):
    """ensemble.py on hand-made members: each metric's median, range and passing count."""

    def write_member(self, root, name, rows):
        folder = os.path.join(root, name)
        os.makedirs(folder)
        with open(os.path.join(folder, "metrics.csv"), "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["metric", "run", "value", "unit", "threshold", "result", "details"])
            w.writerows(rows)
        return folder

    def test_median_range_and_passing_members(self):
        with tempfile.TemporaryDirectory() as root:
            members = [self.write_member(root, f"seed{i}", [
                ["P1 peak", "dp 0.01 m", str(peak), "", "1.0",
                 "PASS" if peak <= 1 else "FAIL", ""],
                ["front max", "dp 0.01 m", str(0.07 + i / 100), "", "", "-", "reported only"],
                *([["only here", "dp 0.01 m", "1", "", "", "-", ""]] if i == 0 else []),
            ]) for i, peak in enumerate((0.5, 2.5, 0.9))]
            out = os.path.join(root, "ensemble")
            r = tool("ensemble.py", "--out", out, *members)
            self.assertEqual(r.returncode, 0, r.stderr)
            with open(os.path.join(out, "ensemble.csv")) as f:
                rows = {row["metric"]: row for row in csv.DictReader(f)}
            self.assertEqual(set(rows), {"P1 peak", "front max"})  # not in every member: left out
            peak = rows["P1 peak"]
            self.assertEqual([float(peak[n]) for n in ("median", "min", "max")], [0.9, 0.5, 2.5])
            self.assertEqual(peak["passing"], "2")
            self.assertEqual(rows["front max"]["passing"], "")  # reported only
            self.assertIn("| P1 peak | dp 0.01 m | 0.9 | 0.5 | 2.5 | 1.0 | 2 of 3 |",
                          read_text(os.path.join(out, "ensemble.md")))

    def test_bad_members_are_named(self):
        with tempfile.TemporaryDirectory() as root:
            one = self.write_member(root, "one", [["m", "r", "1", "", "", "-", ""]])
            r = tool("ensemble.py", "--out", os.path.join(root, "e"), one)
            self.assertEqual(r.returncode, 2)
            self.assertIn("at least two members", r.stderr)
            missing = os.path.join(root, "missing")
            r = tool("ensemble.py", "--out", os.path.join(root, "e"), one, missing)
            self.assertNotEqual(r.returncode, 0)
            self.assertIn(os.path.join(missing, "metrics.csv"), r.stderr)
            self.assertFalse(os.path.exists(os.path.join(root, "e", "ensemble.md")))


class RunValidationTest(CaseTestBase):
    def test_runs_the_listed_cases_into_one_summary(self):
        proc = tool("run_validation.py", "--build-dir", BUILD_DIR, "--backend", "cpu",
                    "--quick", "--cases", "hydrostatic", "--out", self.out, *THREADS)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        index = read_text(os.path.join(self.out, "summary.md"))
        self.assertIn("## Hydrostatic tank", index)
        self.assertRegex(index, r"\| \[Hydrostatic tank\]\(hydrostatic/summary.md\) \| "
                                r"\d of \d checks pass")
        self.assertIn("[hydrostatic/summary.md](hydrostatic/summary.md)", index)
        self.assertIn("| max relative error, z <= 0.9 H |", index)
        self.assertIn("![hydrostatic_profile.png](hydrostatic/hydrostatic_profile.png)", index)
        self.assertNotIn("SPHERIC", index)
        self.assertIn("**Quick mode**", index)  # the case's own note
        # Recomputed from the output, finding the cases there by itself: the same but for the
        # command line at the top.
        proc = tool("run_validation.py", "--from-output", self.out)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        again = read_text(os.path.join(self.out, "summary.md"))
        self.assertIn("--from-output", again.splitlines()[2])
        self.assertEqual(again.splitlines()[3:], index.splitlines()[3:])

    def test_a_case_that_fails_is_reported_and_the_others_still_run(self):
        # --spheric-dp 0.5 is refused by dambreak itself (too coarse for the obstacle).
        proc = tool("run_validation.py", "--build-dir", BUILD_DIR, "--backend", "cpu", "--quick",
                    "--cases", "spheric,hydrostatic", "--spheric-dp", "0.5", "--out", self.out,
                    *THREADS)
        self.assertEqual(proc.returncode, 1)
        self.assertIn("too large for DamBreak", proc.stderr)
        index = read_text(os.path.join(self.out, "summary.md"))
        self.assertIn("**Did not complete** (exit code 1)", index)
        self.assertIn("| [SPHERIC test 2 water heights](spheric/summary.md) | did not complete |",
                      index)
        self.assertIn("| max relative error, z <= 0.9 H |", index)

    def test_bad_arguments(self):
        for args in (["--cases", "spheric,nope", "--out", self.out],
                     ["--out", self.out, "--cases", "hydrostatic,hydrostatic"],
                     ["--from-output", self.tmp.name],
                     ["--from-output", self.tmp.name, "--gpus", "0"],
                     ["--from-output", self.tmp.name, "--resume"]):
            proc = tool("run_validation.py", *args)
            self.assertEqual(proc.returncode, 2, args)
        self.assertFalse(os.path.exists(os.path.join(self.tmp.name, "summary.md")))


class CaseArgumentsTest(CaseTestBase):
    def test_bad_arguments_exit_2_naming_the_option(self):
        cases = [
            (["spheric_dambreak.py", "--dp", "0.02,x"], "--dp must be a number"),
            (["spheric_dambreak.py", "--dp", "0.02,0.02"], "--dp lists a spacing twice"),
            (["spheric_dambreak.py", "--", "--dp", "0.01"], "--dp is set by the case"),
            (["column_collapse.py", "--", "--tank-length", "3"], "--tank-length is set by"),
            (["column_collapse.py", "--tank-length", "0.5"], "--tank-length must exceed"),
            (["hydrostatic.py", "--", "--depth", "1"], "--depth is set by the case"),
            (["hydrostatic.py", "--dp", "-1"], "--dp must be positive"),
            (["hydrostatic.py", "--dp", "0.3"], "no room 1.5 h from floor and surface"),
            (["hydrostatic.py", "--from-output", "/nonexistent"], "no case.json there"),
            (["lobovsky.py", "--", "--boundary", "dbc"], "--boundary is set by the case"),
            (["lobovsky.py", "--gauge-every", "0"], "--gauge-every must be positive"),
            (["lobovsky.py", "--gpus", "0,x"], "--gpus must list GPU ids"),
            (["lobovsky.py", "--gpus", "1,1"], "--gpus lists a GPU twice"),
            (["spheric_dambreak.py", "--backend", "cpu", "--gpus", "0"],
             "cannot go with --backend cpu"),
            (["hydrostatic.py", "--gpus", "0", "--", "--devices", "1"], "leave --devices out"),
            (["hydrostatic.py", "--resume", "--", "--restart", "latest"], "leave --restart out"),
        ]
        for argv, message in cases:
            script, args = argv[0], argv[1:]
            out = [] if "--from-output" in args else ["--out", self.out]
            cut = args.index("--") if "--" in args else len(args)
            proc = tool(script, *(args[:cut] + out + args[cut:]))
            self.assertEqual(proc.returncode, 2, f"{argv}: {proc.stderr}")
            self.assertIn(message, proc.stderr, argv)

    def test_missing_executable_and_failed_run_exit_1_with_the_error(self):
        proc = tool("hydrostatic.py", "--exe", os.path.join(self.tmp.name, "nothing"), "--quick",
                    "--out", self.out)
        self.assertEqual(proc.returncode, 1)
        self.assertIn("is not an executable file", proc.stderr)
        # dambreak refuses dp 0.5 itself: the case shows its message and the command.
        proc = tool("spheric_dambreak.py", "--build-dir", BUILD_DIR, "--backend", "cpu",
                    "--dp", "0.5", "--out", self.out)
        self.assertEqual(proc.returncode, 1)
        self.assertIn("the run failed with exit code 2", proc.stderr)
        self.assertIn("--dp 0.5 m is too large for DamBreak", proc.stderr)
        with open(os.path.join(self.out, "runs", "dp0.5", "console.log")) as f:
            self.assertIn("# exit code 2", f.read())
        self.assertFalse(os.path.exists(os.path.join(self.out, "summary.md")))


    def test_a_stop_signal_leaves_a_checkpoint_and_the_case_goes_on_from_it(self):
        """SIGTERM to the case's process group, as `timeout` or a batch system's time limit
        sends it: the simulator writes its checkpoint, the case waits for it and says how to go
        on, and --resume does."""
        case = [sys.executable, "-B", os.path.join(HERE, "hydrostatic.py"), "--build-dir",
                BUILD_DIR, "--backend", "cpu", "--quick", "--out", self.out]
        proc = subprocess.Popen(case + ["--t-end", "30", *THREADS], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, start_new_session=True)
        run_dir = os.path.join(self.out, "runs", "dp0.0625")
        log = os.path.join(run_dir, "console.log")
        deadline = time.monotonic() + 120
        while not (os.path.exists(log) and "\nit " in read_text(log)):  # the first status line
            self.assertIsNone(proc.poll(), "the case ended before it was stopped")
            self.assertLess(time.monotonic(), deadline, "no status line from the simulator")
            time.sleep(0.05)
        os.killpg(proc.pid, signal.SIGTERM)
        _, err = proc.communicate(timeout=120)
        self.assertEqual(proc.returncode, 1, err)
        self.assertIn("interrupted by SIGTERM", err)
        self.assertIn("the same command with --resume", err)
        self.assertTrue(os.listdir(os.path.join(run_dir, "checkpoints")))
        again = subprocess.run(case + ["--t-end", "1", "--resume", *THREADS],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               timeout=300)
        self.assertEqual(again.returncode, 0, again.stderr)
        self.assertIn("restarting from", read_text(log))
        self.assertTrue(os.path.exists(os.path.join(self.out, "summary.md")))


# A stand-in still_water: records its arguments, writes a run report and probes reading exactly
# 1.01 rho0 g (H - z) at every time (H = 0.5 m), so the comparison's result is known.
FAKE_STILL_WATER = textwrap.dedent("""\
    import json, os, sys
    args = sys.argv[1:]
    value = lambda name: args[args.index(name) + 1]
    out = value("--output-dir")
    os.makedirs(out, exist_ok=True)
    z = [float(a.split(",")[2]) for i, a in enumerate(args) if args[i - 1] == "--probe"]
    with open(os.path.join(out, "gauges.csv"), "w") as f:
        f.write("time," + ",".join(f"Q{i + 1}" for i in range(len(z))) + "\\n")
        for k in range(11):
            t = 0.1 * k * float(value("--t-end"))
            f.write(f"{t}," + ",".join(repr(1.01 * 9810 * (0.5 - zi)) for zi in z) + "\\n")
    report = {"status": "completed", "dp_m": value("--dp"), "h_m": "0", "device": "fake",
              "simulated_time_s": value("--t-end"), "iterations": "10",
              "particles": {"total": "100", "fluid": "50", "removed": "0"},
              "wall_time_s": {"setup": "0", "time_loop": "1", "output": "0"}}
    with open(os.path.join(out, "run_report.json"), "w") as f:
        json.dump(report, f)
    """)


# A stand-in simulator for --gpus and --resume: takes up to FAKE_SECONDS, records which GPU it was
# given, when it ran and whether it restarted in ran.json; fails at the dp FAKE_FAIL_DP, and
# stops with a checkpoint at FAKE_STOP_DP as a signalled simulator does.
FAKE_SIMULATOR = textwrap.dedent("""\
    import json, os, sys, time
    args = sys.argv[1:]
    value = lambda name: args[args.index(name) + 1]
    out = value("--output-dir")
    os.makedirs(out, exist_ok=True)
    start = time.time()
    # The finest (dp 0.02) takes FAKE_SECONDS, a coarser one less, in proportion to dp.
    time.sleep(float(os.environ.get("FAKE_SECONDS", "1")) * 0.02 / float(value("--dp")))
    if value("--dp") == os.environ.get("FAKE_FAIL_DP"):
        sys.exit("fake failure at dp " + value("--dp"))
    checkpoint = os.path.join(out, "checkpoints", "checkpoint_0000000001.chk")
    restarted = "--restart" in args
    if restarted and not os.path.exists(checkpoint):
        sys.exit("error: --restart latest: no checkpoint")
    if value("--dp") == os.environ.get("FAKE_STOP_DP"):
        os.makedirs(os.path.dirname(checkpoint), exist_ok=True)
        open(checkpoint, "w").close()
        sys.stderr.write("error: interrupted by SIGTERM; checkpoint written to " + checkpoint)
        sys.exit(143)
    with open(os.path.join(out, "ran.json"), "w") as f:
        json.dump({"gpu": value("--devices"), "start": start, "end": time.time(),
                   "restarted": restarted}, f)
    report = {"status": "completed", "dp_m": value("--dp"), "h_m": "0",
              "device": "fake GPU " + value("--devices"), "simulated_time_s": value("--t-end"),
              "iterations": "10", "particles": {"total": "100", "fluid": "50", "removed": "0"},
              "wall_time_s": {"setup": "0", "time_loop": "1", "output": "0"}}
    with open(os.path.join(out, "run_report.json"), "w") as f:
        json.dump(report, f)
    """)


class GpusTest(CaseTestBase):
    """--gpus 0,1 shares a case's runs out over two GPUs: each run on one (--devices), two at
    once, the finest first; a run that fails leaves the others to finish; --resume keeps the
    runs that completed and restarts the one that stopped with a checkpoint."""

    def setUp(self):
        super().setUp()
        self.exe = os.path.join(self.tmp.name, "dambreak")
        with open(self.exe, "w") as f:
            f.write(f"#!{sys.executable}\n" + FAKE_SIMULATOR)
        os.chmod(self.exe, os.stat(self.exe).st_mode | stat.S_IXUSR)

    def spheric(self, *more, **env):
        return subprocess.run(
            [sys.executable, "-B", os.path.join(HERE, "spheric_dambreak.py"), "--exe", self.exe,
             "--runs-only", "--gpus", "0,1", "--dp", "0.04,0.03,0.02", "--out", self.out, *more],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=120,
            env=dict(os.environ, **env))

    def ran(self, dp):
        with open(os.path.join(self.out, "runs", f"dp{dp}", "ran.json")) as f:
            return json.load(f)

    def test_the_runs_share_the_gpus_finest_first(self):
        proc = self.spheric(FAKE_SECONDS="2")  # 2, 1.33 and 1 s: 0.67 s between the ends
        self.assertEqual(proc.returncode, 0, proc.stderr)
        with open(os.path.join(self.out, "case.json")) as f:
            runs = json.load(f)["runs"]
        self.assertEqual([r["dp"] for r in runs], [0.04, 0.03, 0.02])  # coarsest first, as ever
        fine, middle, coarse = self.ran("0.02"), self.ran("0.03"), self.ran("0.04")
        for r, ran in zip(runs, (coarse, middle, fine)):
            self.assertEqual(r["report"]["device"], "fake GPU " + ran["gpu"])
        # The two finest at once on the two GPUs; the coarsest after one of them, on its GPU.
        self.assertEqual({fine["gpu"], middle["gpu"]}, {"0", "1"})
        self.assertLess(fine["start"], middle["end"])
        self.assertLess(middle["start"], fine["end"])
        first_done = min((fine, middle), key=lambda r: r["end"])
        self.assertGreaterEqual(coarse["start"], first_done["end"])
        self.assertEqual(coarse["gpu"], first_done["gpu"])

    def test_resume_keeps_the_completed_runs_and_restarts_the_stopped_one(self):
        fast = {"FAKE_SECONDS": "0.2"}
        proc = self.spheric(FAKE_STOP_DP="0.03", **fast)
        self.assertEqual(proc.returncode, 1)
        self.assertIn("the same command with --resume", proc.stderr)
        before = {dp: self.ran(dp) for dp in ("0.04", "0.02")}
        proc = self.spheric("--resume", **fast)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(proc.stderr.count("kept: "), 2, proc.stderr)
        for dp, ran in before.items():
            self.assertEqual(self.ran(dp), ran, dp)  # not run again
        self.assertTrue(self.ran("0.03")["restarted"])
        with open(os.path.join(self.out, "runs", "dp0.03", "console.log")) as f:
            self.assertTrue(f.readline().rstrip().endswith("--restart latest"))
        with open(os.path.join(self.out, "case.json")) as f:
            self.assertEqual([r["dp"] for r in json.load(f)["runs"]], [0.04, 0.03, 0.02])
        # Another command keeps nothing: every run runs again, from the start.
        proc = self.spheric("--resume", "--", "--alpha", "0.1", **fast)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertNotIn("kept: ", proc.stderr)
        self.assertGreater(self.ran("0.04")["start"], before["0.04"]["end"])
        self.assertFalse(self.ran("0.04")["restarted"])

    def test_a_failed_run_leaves_the_others_to_finish(self):
        proc = self.spheric(FAKE_FAIL_DP="0.03")
        self.assertEqual(proc.returncode, 1)
        self.assertIn("fake failure at dp 0.03", proc.stderr)
        self.assertIn(self.ran("0.02")["gpu"], ("0", "1"))
        self.assertIn(self.ran("0.04")["gpu"], ("0", "1"))
        self.assertFalse(os.path.exists(os.path.join(self.out, "case.json")))


class RunsOnlyTest(CaseTestBase):
    """--runs-only works without numpy and matplotlib (a bare GPU machine); --from-output then
    compares where they are, here against a stand-in whose readings are 1 % high."""

    def test_runs_only_without_numpy_then_from_output(self):
        bin_dir = os.path.join(self.tmp.name, "carry", "bin")  # as scripts/pack_for_device.sh
        os.makedirs(bin_dir)
        exe = os.path.join(bin_dir, "still_water")
        with open(exe, "w") as f:
            f.write(f"#!{sys.executable}\n" + FAKE_STILL_WATER)
        os.chmod(exe, os.stat(exe).st_mode | stat.S_IXUSR)
        no_modules = os.path.join(self.tmp.name, "no_modules")
        for name in ("numpy", "matplotlib"):
            os.makedirs(os.path.join(no_modules, name))
            with open(os.path.join(no_modules, name, "__init__.py"), "w") as f:
                f.write(f"raise ImportError('simulated: no {name} here')\n")
        bare = dict(os.environ, PYTHONPATH=no_modules)
        carry = os.path.join(self.tmp.name, "carry")

        # Without --runs-only the case stops before running, saying what to do.
        proc = tool("hydrostatic.py", "--build-dir", carry, "--out", self.out, env=bare)
        self.assertEqual(proc.returncode, 1)
        self.assertIn("numpy is needed", proc.stderr)
        self.assertIn("--runs-only", proc.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.out, "runs")))

        proc = tool("run_validation.py", "--build-dir", carry, "--cases", "hydrostatic",
                    "--runs-only", "--out", self.out, env=bare)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertTrue(os.path.isfile(os.path.join(self.out, "hydrostatic", "case.json")))
        self.assertFalse(os.path.exists(os.path.join(self.out, "hydrostatic", "summary.md")))
        self.assertIn("Runs recorded", read_text(os.path.join(self.out, "summary.md")))

        proc = tool("run_validation.py", "--from-output", self.out)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        rows = read_metrics(os.path.join(self.out, "hydrostatic"))
        error = rows[("max relative error, z <= 0.9 H", "dp 0.025 m (H/dp 20)")]
        self.assertAlmostEqual(float(error["value"]), 0.01, places=9)
        self.assertEqual(error["result"], "PASS")
        sway = rows[("max fluctuation / rho0 g H", "dp 0.025 m (H/dp 20)")]
        self.assertAlmostEqual(float(sway["value"]), 0.0, places=12)


if __name__ == "__main__":
    unittest.main()
