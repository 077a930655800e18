#!/usr/bin/env python3
"""What MediaPipe's face mesh gives on the same AFLW2000-3D faces as `bench/faces.yaml`'s
"from pixels" runs: its 468 landmarks (the legacy FaceMesh solution, still images, one face,
its own detector on the whole image: no box from the benchmark), fitted with OpenCV (SQPNP, then
iterative refinement) to MediaPipe's own canonical face (datasets/face_model, the model
face-pose uses), focal length = image width, principal point at the centre — face-pose's
assumptions. Angles in AFLW2000-3D's convention (ParallaxGeometry/HeadAngles.swift); MAE per axis
and the signed means, per face and over the faces found. Comparison tooling only.

MediaPipe wheels from 0.10.15 on no longer carry the models; 0.10.14 does:
    python3 -m venv /tmp/mp && /tmp/mp/bin/pip install mediapipe==0.10.14
    /tmp/mp/bin/python Benchmarks/reference/face_pose_mediapipe.py ../shared/data/faces/aflw2000_subset
"""
import json, os, sys
import numpy as np
import cv2
import mediapipe as mp

folder = sys.argv[1]
here = os.path.dirname(os.path.abspath(__file__))
model = os.path.join(here, '..', '..', 'datasets', 'face_model', 'face_model_with_iris.obj')
vertices = np.array([[float(x) for x in l.split()[1:4]] for l in open(model) if l.startswith('v ')])[:468]
truth = json.load(open(os.path.join(folder, 'aflw2000_subset.json')))['images']
mesh = mp.solutions.face_mesh.FaceMesh(static_image_mode=True, max_num_faces=1, refine_landmarks=False, min_detection_confidence=0.5)

def angles(rotation):
    """pitch, yaw, roll (deg) of R_CH as HeadAngles(cameraFromHead:) computes them."""
    m = np.diag([1.0, -1.0, -1.0]) @ rotation
    yaw = -np.degrees(np.arcsin(np.clip(m[0, 2], -1, 1)))
    return np.array([-np.degrees(np.arctan2(-m[1, 2], m[2, 2])), yaw, -np.degrees(np.arctan2(-m[0, 1], m[0, 0]))])

errors = []
for name, face in sorted(truth.items()):
    image = cv2.imread(os.path.join(folder, name))
    h, w = image.shape[:2]
    found = mesh.process(cv2.cvtColor(image, cv2.COLOR_BGR2RGB)).multi_face_landmarks
    true = np.array([face['pitch_deg'], face['yaw_deg'], face['roll_deg']])
    if not found:
        print('%s  not found (true pitch, yaw, roll %s)' % (name, np.round(true, 1)))
        continue
    points = np.array([[p.x * w, p.y * h] for p in found[0].landmark])[:468]
    camera = np.array([[w, 0, w / 2], [0, w, h / 2], [0, 0, 1.0]])
    _, r, t = cv2.solvePnP(vertices, points, camera, None, flags=cv2.SOLVEPNP_SQPNP)
    _, r, t = cv2.solvePnP(vertices, points, camera, None, r, t, useExtrinsicGuess=True, flags=cv2.SOLVEPNP_ITERATIVE)
    estimate = angles(cv2.Rodrigues(r)[0])
    error = (estimate - true + 180) % 360 - 180
    errors.append(error)
    print('%s  estimate %s  truth %s  error %s' % (name, np.round(estimate, 1), np.round(true, 1), np.round(error, 1)))
e = np.array(errors)
print('found %d of %d; MAE pitch %.2f°, yaw %.2f°, roll %.2f°, mean %.2f°; signed mean pitch %+.2f°, yaw %+.2f°, roll %+.2f°'
      % (len(e), len(truth), *np.abs(e).mean(0), np.abs(e).mean(), *e.mean(0)))
