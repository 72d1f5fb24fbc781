# Each 4 s run named: at four heights, the probe dp/2 from the wall, the centre line and the wall
# sensor (with its standard deviation), relative to rho0 g (H - z), over four time windows.
import os, sys
import numpy as np
for n in sys.argv[1:]:
    d=np.genfromtxt(os.path.join(os.path.dirname(os.path.abspath(__file__)), n, 'gauges.csv'),delimiter=',',names=True)
    t=d['time']
    names=d.dtype.names[1:]
    zs=[0.0888393,0.153304,0.217768,0.282232,0.346696]
    probes=[c for c in names if c.startswith('Q')]
    walls=[c for c in names if c.startswith('W')]
    print(n)
    for lo,hi in [(0.5,1),(1,2),(2,3),(3,4)]:
        m=(t>=lo)&(t<=hi)
        s=[]
        for iz,z in enumerate(zs):
            ref=1000*9.81*(0.5-z)
            s.append((d[probes[iz*5]][m].mean()/ref-1, d[probes[iz*5+4]][m].mean()/ref-1, d[walls[iz]][m].mean()/ref-1, d[walls[iz]][m].std()/ref))
        print('  [%g,%g] '%(lo,hi)+' | '.join('dp/2 %+.4f ctr %+.4f W %+.4f (sd %.4f)'%x for x in s[:4]))
