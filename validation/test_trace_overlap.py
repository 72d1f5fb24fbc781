"""Tests of validation/trace_overlap.py: overlap arithmetic on hand-made traces, and the tool on a
real CPU trace (ctest sets SPH_DAMBREAK_EXE)."""

import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import trace_overlap  # noqa: E402

TOOL = os.path.join(HERE, "trace_overlap.py")


def event(pid, name, ts, dur, tid=0):
    cat = "exchange" if name.startswith("edge-force copy") else "kernel"
    return {"ph": "X", "pid": pid, "tid": tid, "name": name, "cat": cat, "ts": ts, "dur": dur}


class OverlapMathTest(unittest.TestCase):
    def test_hand_computed_fractions(self):
        trace = {"traceEvents": [
            {"ph": "M", "pid": 1, "tid": 0, "name": "process_name", "args": {"name": "device 0"}},
            # device 0: centre [0, 100) and [200, 300); copies [90, 110) half hidden, [210, 220)
            # all hidden, [150, 160) not at all: (10 + 10 + 0) / 40 = 0.5
            event(1, "forces centre", 0, 100), event(1, "forces centre", 200, 100),
            event(1, "edge-force copy right", 90, 20, tid=2),
            event(1, "edge-force copy right", 210, 10, tid=2),
            event(1, "edge-force copy right", 150, 10, tid=2),
            # device 1: overlapping centre events count once; copy [40, 60) within [0, 70): 1.0
            event(2, "forces centre", 0, 50), event(2, "forces centre", 30, 40),
            event(2, "edge-force copy left", 40, 20, tid=1),
            # a copy of device 1's length on device 2 would not count against device 1's centre
            event(3, "edge-force copy left", 40, 20, tid=1),
        ]}
        r = trace_overlap.analyse(trace)
        d = {x["pid"]: x for x in r["devices"]}
        self.assertEqual(d[1]["name"], "device 0")
        self.assertAlmostEqual(d[1]["fraction"], 0.5)
        self.assertAlmostEqual(d[1]["min_copy_fraction"], 0.0)
        self.assertAlmostEqual(d[1]["median_copy_fraction"], 0.5)
        self.assertAlmostEqual(d[2]["fraction"], 1.0)
        self.assertAlmostEqual(d[3]["fraction"], 0.0)
        self.assertEqual(r["copies"], 5)
        self.assertAlmostEqual(r["fraction"], (20 + 20) / (40 + 20 + 20))

    def test_union_and_overlap(self):
        self.assertEqual(trace_overlap.union([(5, 7), (0, 2), (1, 3)]), [[0, 3], [5, 7]])
        self.assertAlmostEqual(trace_overlap.overlap((2, 6), [[0, 3], [5, 7]]), 2.0)


class OverlapToolTest(unittest.TestCase):
    def run_tool(self, *args):
        return subprocess.run([sys.executable, "-B", TOOL, *args], capture_output=True, text=True)

    def test_unreadable_and_copyless_traces(self):
        with tempfile.TemporaryDirectory() as tmp:
            bad = os.path.join(tmp, "bad.json")
            with open(bad, "w") as f:
                f.write("{not json")
            r = self.run_tool(bad)
            self.assertEqual(r.returncode, 2)
            self.assertIn("cannot read the trace", r.stderr)
            empty = os.path.join(tmp, "empty.json")
            with open(empty, "w") as f:
                json.dump({"traceEvents": [event(1, "forces centre", 0, 10)]}, f)
            r = self.run_tool(empty)
            self.assertEqual(r.returncode, 1)
            self.assertIn("no edge-force copies", r.stderr)

    @unittest.skipUnless(os.environ.get("SPH_DAMBREAK_EXE"), "SPH_DAMBREAK_EXE not set")
    def test_cpu_trace_copies_are_not_hidden(self):
        with tempfile.TemporaryDirectory() as tmp:
            trace = os.path.join(tmp, "trace.json")
            run = subprocess.run(
                [os.environ["SPH_DAMBREAK_EXE"], "--backend", "cpu", "--devices", "3", "--threads",
                 "1", "--dp", "0.04", "--t-end", "0.005", "--no-output", "--output-dir", tmp,
                 "--trace", trace, "--trace-iterations", "0:8"],
                capture_output=True, text=True)
            self.assertEqual(run.returncode, 0, run.stderr)
            result_json = os.path.join(tmp, "overlap.json")
            r = self.run_tool(trace, "--json", result_json)
            self.assertEqual(r.returncode, 0, r.stderr)
            with open(result_json) as f:
                result = json.load(f)
            # 8 iterations x 2 stages; the middle device sends both ways: 4 sends per stage.
            self.assertEqual(result["copies"], 8 * 2 * 4)
            self.assertEqual(len(result["devices"]), 3)
            # On a CPU device the copy precedes the centre on the same thread: nothing hidden.
            self.assertEqual(result["fraction"], 0.0)
            self.assertIn("all devices", r.stdout)


if __name__ == "__main__":
    unittest.main()
