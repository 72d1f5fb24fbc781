#!/usr/bin/env python3
"""gauges_peaks.csv against a filtered series with a row at every iteration: for each column,
whether its largest and smallest value are the series' (as numbers, both written to 9 digits)
and the series has them at the times given. Standard library only (runs on the GPU machine).

    python3 bench/compare_filtered_peaks.py RUN/gauges_peaks.csv EVERY/gauges_filtered.csv
"""

import csv
import math
import sys


def main():
    peaks_path, series_path = sys.argv[1:3]
    with open(series_path) as f:
        rows = list(csv.reader(f))
    columns, series = rows[0][1:], [[float(x) for x in r] for r in rows[1:]]
    same = 0
    with open(peaks_path) as f:
        peaks = list(csv.DictReader(f))
    for p in peaks:
        c = columns.index(p["column"]) + 1
        values = [r[c] for r in series if not math.isnan(r[c])]
        at = {r[0]: r[c] for r in series}
        if not values:
            ok = math.isnan(float(p["largest"]))
        else:
            ok = (float(p["largest"]) == max(values) and float(p["smallest"]) == min(values) and
                  at.get(float(p["time_of_largest"])) == max(values) and
                  at.get(float(p["time_of_smallest"])) == min(values))
        same += ok
        print(f"{p['column']}: largest {p['largest']} at {p['time_of_largest']} s, smallest "
              f"{p['smallest']} at {p['time_of_smallest']} s: {'the same' if ok else 'DIFFERENT'}")
    print(f"{same} of {len(peaks)} columns' peaks as the every-iteration filter's "
          f"({len(series)} readings)")


if __name__ == "__main__":
    main()
