"""Prints each kernel launch's duration and grid size from a CSV that
`ncu --import REPORT --page raw --csv --metrics gpu__time_duration.sum,launch__grid_size` wrote
(durations in the unit ncu's CSV gives, milliseconds by default), and its CUDA context (one per
GPU in a run over several). Used by the device scripts."""
import csv
import sys

rows = list(csv.reader(open(sys.argv[1])))
head = next(i for i, r in enumerate(rows) if r and r[0] == "ID")
h = rows[head]
col = {n: k for k, n in enumerate(h)}
unit = rows[head + 1][col["gpu__time_duration.sum"]]
for r in rows[head + 2:]:
    if len(r) == len(h):
        context = "context " + r[col["Context"]] if "Context" in col else ""
        print(r[col["Kernel Name"]][:60].ljust(60), r[col["gpu__time_duration.sum"]].rjust(10), unit + ", grid",
              r[col["launch__grid_size"]], context)
