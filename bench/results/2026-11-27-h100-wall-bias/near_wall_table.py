# Each run named: the probes at dp/2, dp, 2 dp, 4 dp from the wall x = 0 and on the centre line,
# and the wall sensor, averaged over t >= 0.5 s, relative to rho0 g (H - z), at five heights.
import os, sys
import numpy as np
for n in sys.argv[1:]:
    d=np.genfromtxt(os.path.join(os.path.dirname(os.path.abspath(__file__)), n, 'gauges.csv'),delimiter=',',names=True)
    t=d['time']; m=t>=0.5
    names=d.dtype.names[1:]
    zs=[0.0888393,0.153304,0.217768,0.282232,0.346696]
    xs=['dp/2','dp','2dp','4dp','ctr']
    print(n)
    probes=[c for c in names if c.startswith('Q')]
    walls=[c for c in names if c.startswith('W')]
    for iz,z in enumerate(zs):
        ref=1000*9.81*(0.5-z)
        row=[d[probes[iz*5+ix]][m].mean()/ref-1 for ix in range(5)]
        wv=d[walls[iz]][m].mean()/ref-1
        print('  z %.3f '%z+' '.join('%s %+.4f'%(xs[i],row[i]) for i in range(5))+'  wall %+.4f'%wv)
