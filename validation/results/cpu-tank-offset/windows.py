import os, sys

import numpy as np

# Each run's probes, mean less rho0 g (H - z) per window: windows.py SECONDS RUN... (x0 x2 x64)
HERE = os.path.dirname(os.path.abspath(__file__))
H=0.5;dp=0.0125;h=1.3*dp;lo,hi=1.5*h,H-1.5*h; zs=[lo+(hi-lo)*k/7 for k in range(8)]
ref=[9810*(H-z) for z in zs]
step=float(sys.argv[1])
for X in sys.argv[2:]:
    r=np.genfromtxt(os.path.join(HERE, X, 'gauges.csv'),delimiter=',',names=True); t=r['time']
    print(X, 'mean - rho0 g (H - z) [Pa], Q1-Q8 | W1-W8 ; largest std of a Q / W [Pa]')
    for a in np.arange(0,t[-1]+1e-9,step):
        m=(t>=a)&(t<a+step)
        if m.sum()<2: continue
        print('%.2f-%.2f'%(a,a+step),' '.join('%+5.0f'%(r['Q%d'%(i+1)][m].mean()-ref[i]) for i in range(8)),'|',' '.join('%+5.0f'%(r['W%d'%(i+1)][m].mean()-ref[i]) for i in range(8)), '; %.0f / %.0f'%(max(r['Q%d'%(i+1)][m].std() for i in range(8)),max(r['W%d'%(i+1)][m].std() for i in range(8))))
