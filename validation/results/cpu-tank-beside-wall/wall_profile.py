"""Each instrument group's settled error against rho0 g (H - z) in a gauges.csv of the runs here
(mean over the second half of the run): centre-line probes Q1-Q8, wall sensors W1-W8 on x = 0,
probes Q9-Q16 dp/2 from that wall at the same heights (z = 0.04875 + 0.0575 k m, H = 0.5 m)."""
import sys, numpy as np, csv
zs=[0.04875+0.0575*k for k in range(8)]
ref=[1000*9.81*(0.5-z) for z in zs]
for f in sys.argv[1:]:
    rows=list(csv.reader(open(f)))
    hdr=rows[0]; d=np.array([[float(x) if x not in ('','nan') else np.nan for x in r] for r in rows[1:]])
    t=d[:,0]; m=t>=0.5*t.max()
    groups={'centre':[k for k,n in enumerate(hdr) if n.startswith('Q')][:8],
            'wall':[k for k,n in enumerate(hdr) if n.startswith('W')],
            'beside':[k for k,n in enumerate(hdr) if n.startswith('Q')][8:16]}
    for g,cols in groups.items():
        if not cols: continue
        e=[np.nanmean(d[m,k])/r-1 for k,r in zip(cols,ref)]
        print('%-28s %-7s'%(f.split('/')[-1],g), ' '.join('%+.2f%%'%(100*x) for x in e))
