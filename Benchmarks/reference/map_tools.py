"""Fixture and evaluation helpers for scripts/map-relocalization (not used by Parallax itself).

  map_tools.py trajectory-b OUT.tum          a second motion through the built-in orbit's room
  map_tools.py transform EVAL.json IN OUT    applies eval.json's alignment (ground truth ≈ T · estimate)
"""
import json
import math
import sys

import numpy as np
from scipy.spatial.transform import Rotation as R


def trajectory_b(out):
    # A smaller ellipse (1.7 m × 1.0 m against the orbit's 2 m × 1.2 m), started a quarter turn
    # later, slower (0.45 rad/s against 0.5), lower and bobbing otherwise, rolling and pitching
    # otherwise: another motion inside the same room, looking forward along its path as the orbit does.
    with open(out, "w") as f:
        f.write("# timestamp tx ty tz qx qy qz qw\n")
        for k in range(0, 2201):
            t = k * 0.01
            phi = math.pi / 2 + 0.45 * t
            p = (1.7 * math.cos(phi), 1.0 * math.sin(phi), 1.4 + 0.25 * math.sin(1.3 * t + 1))
            yaw = math.atan2(1.0 * math.cos(phi), -1.7 * math.sin(phi))
            q = R.from_euler("ZXY", [yaw, 0.1 * math.sin(0.8 * t), 0.08 * math.cos(0.6 * t)]).as_quat()
            f.write(f"{100 + t:.6f} {p[0]:.6f} {p[1]:.6f} {p[2]:.6f} {q[0]:.9f} {q[1]:.9f} {q[2]:.9f} {q[3]:.9f}\n")


def transform(eval_json, src, dst):
    t = json.load(open(eval_json))["transform"]
    rot = R.from_rotvec(t["rotation"])
    tr = np.array(t["translation"])
    s = t.get("scale", 1)
    with open(src) as f, open(dst, "w") as out:
        for line in f:
            if line.startswith("#") or not line.strip():
                out.write(line)
                continue
            v = line.split()
            p = s * rot.apply(np.array([float(x) for x in v[1:4]])) + tr
            q = (rot * R.from_quat([float(x) for x in v[4:8]])).as_quat()
            out.write(f"{v[0]} {p[0]:.9f} {p[1]:.9f} {p[2]:.9f} {q[0]:.12f} {q[1]:.12f} {q[2]:.12f} {q[3]:.12f}\n")


if __name__ == "__main__":
    if sys.argv[1] == "trajectory-b":
        trajectory_b(sys.argv[2])
    elif sys.argv[1] == "transform":
        transform(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        sys.exit(__doc__)
