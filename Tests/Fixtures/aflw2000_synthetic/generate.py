#!/usr/bin/env python3
"""Rewrites pt3d_68 of Tests/Fixtures/aflw2000_synthetic under AFLW2000-3D's own projection
(scaled orthographic, as 3DDFA's Pose_Para): x, y = s_px * (R_CH X)_xy + (225, 225)."""
import re, numpy as np, scipy.io as sio
import os
root=os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..'))
swift=open(root+'/Sources/ParallaxFace/CanonicalFace.swift').read()
idx=[int(i) for i in re.search(r"ibug68: \[Int\] = \[(.*?)\]", swift, re.S).group(1).replace("\n"," ").split(",") if i.strip()]
V=np.array([[float(x) for x in l.split()[1:4]] for l in open(root+'/datasets/face_model/face_model_with_iris.obj') if l.startswith('v ')])*0.01
M=V[idx]
def rx(t): return np.array([[1,0,0],[0,np.cos(t),-np.sin(t)],[0,np.sin(t),np.cos(t)]])
def ry(t): return np.array([[np.cos(t),0,np.sin(t)],[0,1,0],[-np.sin(t),0,np.cos(t)]])
def rz(t): return np.array([[np.cos(t),-np.sin(t),0],[np.sin(t),np.cos(t),0],[0,0,1]])
for name,compress in [('image00001.mat',True),('image00002.mat',False)]:
    path=root+'/Tests/Fixtures/aflw2000_synthetic/'+name
    m=sio.loadmat(path)
    p,y,r=m['Pose_Para'][0][:3].astype(float)
    R=np.diag([1,-1,-1])@rx(-p)@ry(-y)@rz(-r)   # R_CH (HeadAngles)
    C=(R@M.T)                                     # camera frame, y down
    s=450/0.6                                     # px per m: the scale of a face 0.6 m from an f = 450 px camera
    pt=np.vstack([s*C[0]+225, s*C[1]+225, 100*(0.6+C[2])]).astype(np.float32)
    old=m['pt3d_68']
    print(name,'max change px',np.abs(old[:2]-pt[:2]).max())
    out={k:v for k,v in m.items() if not k.startswith('__')}
    out['pt3d_68']=pt
    sio.savemat(path,out,do_compression=compress,format='5')
