"""Each run's probes and wall sensors, mean less rho0 g (H - z) per window [Pa], and the largest
standard deviation of a probe and of a sensor in it: windows.py SECONDS DP GAUGES_CSV...
(probes Q1-Q8 and sensors W1-W8 at z_k = 1.5 h + (H - 3 h) k / 7, h = 1.3 dp, as
validation/hydrostatic.py places them)."""
import sys

import numpy as np

H = 0.5
step, dp = float(sys.argv[1]), float(sys.argv[2])
h = 1.3 * dp
lo, hi = 1.5 * h, H - 1.5 * h
ref = [1000.0 * 9.81 * (H - (lo + (hi - lo) * k / 7)) for k in range(8)]
for path in sys.argv[3:]:
    r = np.genfromtxt(path, delimiter=",", names=True)
    t = r["time"]
    print(path)
    print("window [s]  Q1-Q8 | W1-W8 ; largest std of a Q / W [Pa]")
    for a in np.arange(0.0, t[-1] + 1e-9, step):
        m = (t >= a) & (t < a + step)
        if m.sum() < 2:
            continue
        q = " ".join("%+5.0f" % (r["Q%d" % (i + 1)][m].mean() - ref[i]) for i in range(8))
        w = " ".join("%+5.0f" % (r["W%d" % (i + 1)][m].mean() - ref[i]) for i in range(8))
        sq = max(r["Q%d" % (i + 1)][m].std() for i in range(8))
        sw = max(r["W%d" % (i + 1)][m].std() for i in range(8))
        print("%.1f-%.1f  %s | %s ; %.0f / %.0f" % (a, a + step, q, w, sq, sw))
