"""Wall load from the SPH pair forces vs the wall's EOS pressure, still water x=0 wall."""
import sys, numpy as np, vtk
from vtk.util.numpy_support import vtk_to_numpy as v2n
from scipy.spatial import cKDTree
dp=float(sys.argv[1]); hf=float(sys.argv[2]); H=float(sys.argv[3]); files=sys.argv[4:]
rho0,g=1000.0,9.81; h=hf*dp; m=rho0*dp**3; alpha=21/(16*np.pi*h**3)
def F(r):
    q=r/h; t=np.clip(1-0.5*q,0,None); return -5*alpha/h**2*t**3
rows={}
for f in files:
    rd=vtk.vtkXMLUnstructuredGridReader(); rd.SetFileName(f); rd.Update(); o=rd.GetOutput()
    x=v2n(o.GetPoints().GetData()).astype(float); pd=o.GetPointData()
    rho=v2n(pd.GetArray('density')).astype(float); p=v2n(pd.GetArray('pressure')).astype(float)
    ty=v2n(pd.GetArray('type'))
    fl=ty==0; wall=(x[:,0]<0)&(x[:,2]>0)&(x[:,1]>0.1)&(x[:,1]<0.4)
    xf=x[fl]; tree=cKDTree(xf)
    wi=np.where(wall)[0]
    for b in wi:
        js=tree.query_ball_point(x[b],2*h)
        if not js: continue
        js=np.array(js); r=xf[js]-x[b]; rr=np.linalg.norm(r,axis=1)
        coef=(p[b]+p[fl][js])/(rho[b]*rho[fl][js])
        fx=np.sum(m*m*coef*F(rr)*r[:,0])  # force on the wall particle, x
        z=round(x[b,2]/dp-0.5)
        d=rows.setdefault(z,{'load':0.0,'n_face':0,'p_face':[] ,'frames':set()})
        d['load']+=-fx
        d['frames'].add(f)
        if x[b,0]>-dp: d['n_face']+=1; d['p_face'].append(p[b])
print(" z/dp   z[m]  p_ref[Pa]  p_eos(face)  err%   p_force  err%")
for z in sorted(rows):
    d=rows[z]; zc=(z+0.5)*dp; pref=rho0*g*(H-zc)
    if pref<=0 or d['n_face']==0: continue
    pf=d['load']/(d['n_face']*dp*dp); pe=np.mean(d['p_face'])
    print("%4d %6.3f %9.1f %9.1f %6.2f %9.1f %6.2f"%(z,zc,pref,pe,100*(pe/pref-1),pf,100*(pf/pref-1)))
