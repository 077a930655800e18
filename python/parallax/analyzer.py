"""Writing analyzers in Python: `parallax.Analyzer` and its declarations.

Ports, options and synchronization are declared on the class, as the Swift API declares them
on the analyzer type; `parallax plugins python:FILE.py` lists them like a built-in's::

    class Brightness(parallax.Analyzer):
        summary = "Mean brightness per camera frame"
        frames = parallax.Input("cam0", parallax.CAMERA)
        imu = parallax.Input("imu0", parallax.IMU_SAMPLES, parallax.BETWEEN)
        brightness = parallax.Output("cam0/brightness", parallax.NUMBER)
        scale = parallax.Option(1.0, doc="factor applied to the mean (unitless)", range=(0, 10))

        def process(self, trigger, inputs):
            self.emit(self.brightness, self.scale * float(trigger.image.mean()))

The worker calls `open()` once, `process(trigger, inputs)` once per trigger packet in the
bus's order, and `close()` once at the end; like a Swift analyzer, one instance is never called
concurrently.
"""
import math

import numpy as np

# Payload types (the names the protocol uses; the Swift side maps each to its payload type).
CAMERA = "camera"          #: camera frames: `Frame` (uint8 H×W or H×W×3 image)
IMU_SAMPLES = "imu"        #: IMU samples: `IMU` (gyroscope rad/s, accelerometer m/s²)
DEPTH = "depth"            #: depth maps: `Depth` (float32 H×W, metres or disparity)
POSE = "pose"              #: poses: `PoseSample` (4×4 world-from-body, 6×6 covariance)
NUMBER = "number"          #: one float per packet
JSON = "json"              #: any JSON-able value (dicts, lists, numbers, strings)
TRACKS = "tracks"          #: feature tracks (dict in FeatureTracks' JSON form, see `tracks()`)
BOXES = "boxes"            #: tracked boxes (dict in TrackedObjects' JSON form, see `boxes()`)
LANDMARKS = "landmark"     #: one triangulated landmark (dict in Landmark's JSON form, see `landmark()`)
MATCHES = "matches"        #: feature matches (dict in FeatureMatches' JSON form)
ANY = "any"                #: any stream (inputs only: timestamps and no payload)
PAYLOAD_TYPES = (CAMERA, IMU_SAMPLES, DEPTH, POSE, NUMBER, JSON, TRACKS, BOXES, LANDMARKS, MATCHES, ANY)

# Synchronization policies (see the Swift `SyncPolicy`).
EACH = "each"                              #: every packet is a trigger
LATEST = "latest"                          #: newest packet at or before the trigger, within tolerance
NEAREST = "nearest"                        #: nearest packet before or after, within tolerance (looks ahead)
BETWEEN = "between"                        #: all packets since the previous trigger
BETWEEN_FIRST_AFTER = "between-first-after"  #: the same and the first one after the trigger (looks ahead)
POLICIES = (EACH, LATEST, NEAREST, BETWEEN, BETWEEN_FIRST_AFTER)


class Input:
    """An input port: `stream` read, `type` of its payloads, `policy` and, for LATEST and
    NEAREST, `tolerance_ms` (milliseconds of dataset time)."""

    def __init__(self, stream, type, policy=EACH, tolerance_ms=None, doc=""):
        if type not in PAYLOAD_TYPES:
            raise TypeError("Input(%r): unknown payload type %r (one of %s)" % (stream, type, ", ".join(PAYLOAD_TYPES)))
        if policy not in POLICIES:
            raise TypeError("Input(%r): unknown policy %r (one of %s)" % (stream, policy, ", ".join(POLICIES)))
        if policy in (LATEST, NEAREST):
            if tolerance_ms is None or not tolerance_ms >= 0:
                raise TypeError("Input(%r): policy %s needs tolerance_ms >= 0" % (stream, policy))
        self.stream, self.type, self.policy, self.tolerance_ms, self.doc = stream, type, policy, tolerance_ms, doc
        self.name = None

    def describe(self):
        return {"name": self.name, "stream": self.stream, "type": self.type, "policy": self.policy,
                "tolerance_ns": None if self.tolerance_ms is None else int(round(self.tolerance_ms * 1e6))}


class Output:
    """An output port: `stream` written with payloads of `type`. `like`: the name of an input
    port whose stream description (its camera's calibration) this stream takes, for its
    consumers and evaluations (matches and tracks are in that camera's pixels)."""

    def __init__(self, stream, type, doc="", like=None):
        if type not in PAYLOAD_TYPES or type == ANY:
            raise TypeError("Output(%r): unknown payload type %r" % (stream, type))
        self.stream, self.type, self.doc, self.like = stream, type, doc, like
        self.name = None

    def describe(self):
        return {"name": self.name, "stream": self.stream, "type": self.type, "like": self.like}


class Option:
    """An option set in the chain as `name=value`: its `default` (its type: bool, int, float or
    str), documentation with unit, and an inclusive `range` (lo, hi) or `choices`."""

    def __init__(self, default, doc="", range=None, choices=None):
        if not isinstance(default, (bool, int, float, str)):
            raise TypeError("Option default must be bool, int, float or str, got %r" % (default,))
        self.default, self.doc, self.range, self.choices = default, doc, range, choices
        self.name = None

    @property
    def type(self):
        d = self.default
        return "bool" if isinstance(d, bool) else "int" if isinstance(d, int) else "float" if isinstance(d, float) else "str"

    def describe(self):
        return {"name": self.name, "default": self.default, "doc": self.doc, "type": self.type,
                "range": None if self.range is None else [self.range[0], self.range[1]],
                "choices": None if self.choices is None else [str(c) for c in self.choices]}


class Item:
    """One packet: `t` (ns on the dataset clock), `stream` (as declared), `value`."""

    def __init__(self, t, stream, value=None):
        self.t, self.stream, self.value = t, stream, value

    def __repr__(self):
        return "%s(t=%d, stream=%r)" % (type(self).__name__, self.t, self.stream)


class Frame(Item):
    """A camera frame: `image` (numpy uint8, H×W gray or H×W×3 RGB; a read-only view of shared
    memory valid during this call: copy what you keep), `calibration` (dict: width, height, fx,
    fy, cx, cy in px, distortion, body_from_camera 4×4) or None, `exposure` (s) or None."""

    def __init__(self, t, stream, image, calibration=None, exposure=None):
        super().__init__(t, stream, image)
        self.image, self.calibration, self.exposure = image, calibration, exposure


class Depth(Item):
    """A depth map: `values` (float32 H×W; metres for kind 'depth'), `kind`, `calibration`."""

    def __init__(self, t, stream, values, kind="depth", calibration=None):
        super().__init__(t, stream, values)
        self.values, self.kind, self.calibration = values, kind, calibration


class IMU(Item):
    """IMU samples as arrays: `t` (N int64 ns; a scalar for one sample), `gyro` (N×3 rad/s),
    `accel` (N×3 m/s²)."""

    def __init__(self, t, stream, gyro, accel):
        super().__init__(t, stream, None)
        self.gyro, self.accel = gyro, accel

    def __len__(self):
        return int(np.size(self.t))


class PoseSample(Item):
    """A pose: `matrix` (4×4 world-from-body, metres), `covariance` (6×6 or None), `state`."""

    def __init__(self, t, stream, matrix, covariance=None, state="normal"):
        super().__init__(t, stream, matrix)
        self.matrix, self.covariance, self.state = matrix, covariance, state


def _kebab(name):
    out = []
    for i, c in enumerate(name):
        if c.isupper() and i > 0 and not name[i - 1].isupper():
            out.append("-")
        out.append(c.lower())
    return "".join(out)


class Analyzer:
    """Base class of Python analyzers: subclass it once per file and declare `Input`s,
    `Output`s and `Option`s as class attributes (`name` and `summary` too). Options are read
    as attributes (`self.scale`); `emit` sends outputs."""

    name = None
    summary = ""

    @classmethod
    def _declarations(cls):
        inputs, outputs, options = [], [], []
        seen = set()
        for klass in reversed(cls.__mro__):
            for attr, value in vars(klass).items():
                if isinstance(value, (Input, Output, Option)):
                    value.name = attr
                    if attr in seen:
                        for lst in (inputs, outputs, options):
                            lst[:] = [v for v in lst if v.name != attr]
                    seen.add(attr)
                    (inputs if isinstance(value, Input) else outputs if isinstance(value, Output) else options).append(value)
        return inputs, outputs, options

    @classmethod
    def _check(cls):
        """`describe()`, after checking what cannot work: options whose default is not finite,
        lies outside their range or choices, with a range the wrong way round or empty choices,
        or named like a method of `Analyzer`; ports with a nonsensical tolerance. Raises
        TypeError or ValueError naming the declaration."""
        inputs, outputs, options = cls._declarations()
        reserved = {n for n in dir(Analyzer) if not n.startswith("_")} | {"instance_name", "streams"}
        for o in options:
            if o.name in reserved:
                raise ValueError("option %r, which is a name of parallax.Analyzer's own (%s): name it otherwise" % (o.name, ", ".join(sorted(reserved))))
            d = o.default
            if isinstance(d, float) and not math.isfinite(d):
                raise ValueError("option %r with default %r: a default must be finite" % (o.name, d))
            if isinstance(d, int) and not isinstance(d, bool) and abs(d) > 2 ** 53:
                raise ValueError("option %r with default %d: integer options hold at most 2^53 in magnitude" % (o.name, d))
            if o.range is not None:
                lo, hi = o.range
                if isinstance(d, (bool, str)) or not all(isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) for x in (lo, hi)):
                    raise ValueError("option %r with range %r: a range is two finite numbers for a numeric option" % (o.name, o.range))
                if lo > hi:
                    raise ValueError("option %r with range (%r, %r): the low end is above the high end" % (o.name, lo, hi))
                if not lo <= d <= hi:
                    raise ValueError("option %r with default %r outside its range %r…%r" % (o.name, d, lo, hi))
            if o.choices is not None:
                choices = [str(c) for c in o.choices]
                if not choices:
                    raise ValueError("option %r with no choices" % o.name)
                if str(d) not in choices:
                    raise ValueError("option %r with default %r, not one of its choices %s" % (o.name, d, ", ".join(choices)))
        for p in inputs:
            tol = getattr(p, "tolerance_ms", None)
            if tol is not None and (not isinstance(tol, (int, float)) or isinstance(tol, bool) or not math.isfinite(tol) or tol < 0 or tol > 1e9):
                raise ValueError("input %r with tolerance_ms=%r: a tolerance is a number of milliseconds from 0 to 1e9" % (p.name, tol))
        return cls.describe()

    @classmethod
    def describe(cls):
        inputs, outputs, options = cls._declarations()
        return {"name": cls.name or _kebab(cls.__name__), "summary": cls.summary or (cls.__doc__ or "").strip().split("\n")[0],
                "inputs": [p.describe() for p in inputs], "outputs": [p.describe() for p in outputs],
                "options": [o.describe() for o in options]}

    def open(self):
        """Called once before the first packet (options are set)."""

    def process(self, trigger, inputs):
        """Called once per trigger packet: `trigger` is its `Item` (a `Frame` for a camera),
        `inputs` maps every input port's name to its item (None when absent) or, for BETWEEN
        inputs, to a list of items (an `IMU` of arrays for IMU samples)."""
        raise NotImplementedError("%s.process" % type(self).__name__)

    def close(self):
        """Called once at the end: emit what is still buffered."""

    # --- emitting ---

    def emit(self, port, value, t=None):
        """Emits `value` on output `port` (the `Output` or its attribute name) at `t` (ns;
        default: the trigger's time). Timestamps on one output must not decrease."""
        if isinstance(port, str):
            declared = getattr(type(self), port, None)
            if not isinstance(declared, Output):
                raise ValueError("emit: %r is not an output of %s" % (port, type(self).__name__))
            port = declared
        if not isinstance(port, Output):
            raise TypeError("emit: expected an Output, got %r" % (port,))
        if port.name is None or getattr(type(self), port.name, None) is not port:
            raise ValueError("emit: this Output is not declared on %s (declare it as a class attribute)" % type(self).__name__)
        if t is None:
            t = self._now
        if t is None:
            raise ValueError("emit: give t (ns) outside process")
        self._emitted.append((port, int(t), value))

    def warn(self, message):
        """A warning for the run report."""
        self._warnings.append(str(message))

    def note(self, message):
        """A note for the run report."""
        self._notes.append(str(message))


def _image_size(width, height, what):
    w, h = int(width), int(height)
    if w < 1 or h < 1:
        raise ValueError("%s: the image is %d×%d px; width and height are at least 1" % (what, w, h))
    return w, h


def _unique_ids(ids, what):
    ids = [int(i) for i in ids]
    if len(set(ids)) != len(ids):
        raise ValueError("%s: ids repeat (%s): each is one feature or object" % (what, sorted({i for i in ids if ids.count(i) > 1})[:5]))
    return ids


def tracks(camera, width, height, ids, pixels, ages=None):
    """A TRACKS payload: feature `ids` (N distinct ints), `pixels` (N×2, px, finite) and `ages`
    (N frames). Lengths that differ are an error, never cut to the shortest."""
    w, h = _image_size(width, height, "tracks")
    pixels = np.asarray(pixels, dtype=np.float64).reshape(-1, 2)
    ids = _unique_ids(ids, "tracks")
    ages = [0] * len(ids) if ages is None else [int(a) for a in ages]
    if not len(ids) == len(pixels) == len(ages):
        raise ValueError("tracks: %d ids, %d pixels and %d ages: give one of each per feature" % (len(ids), len(pixels), len(ages)))
    if not np.all(np.isfinite(pixels)):
        raise ValueError("tracks: a pixel is not finite")
    return {"camera": camera, "imageWidth": w, "imageHeight": h, "ended": [],
            "features": [{"id": i, "pixel": [float(p[0]), float(p[1])], "age": a} for i, p, a in zip(ids, pixels, ages)]}


def boxes(width, height, boxes, ids=None, confidences=None):
    """A BOXES payload: `boxes` N×4 (x, y, width, height in px; finite, sizes ≥ 0), `ids` (N
    distinct ints), `confidences` (N). Lengths that differ are an error."""
    w, h = _image_size(width, height, "boxes")
    b = np.asarray(boxes, dtype=np.float64).reshape(-1, 4)
    ids = list(range(len(b))) if ids is None else _unique_ids(ids, "boxes")
    conf = [1.0] * len(b) if confidences is None else [float(c) for c in confidences]
    if not len(ids) == len(b) == len(conf):
        raise ValueError("boxes: %d boxes, %d ids and %d confidences: give one of each per object" % (len(b), len(ids), len(conf)))
    if not np.all(np.isfinite(b)) or np.any(b[:, 2:] < 0):
        raise ValueError("boxes: a box is not finite or has a negative width or height")
    return {"imageWidth": w, "imageHeight": h,
            "objects": [{"id": i, "box": {"x": float(r[0]), "y": float(r[1]), "width": float(r[2]), "height": float(r[3])},
                         "confidence": c, "state": "normal"} for i, r, c in zip(ids, b, conf)]}


def landmark(id, position, reprojection_rmse=0.0, observations=2, parallax_degrees=0.0, depth=0.0, covariance=None):
    """A LANDMARKS payload: one landmark at `position` (3, metres in the world frame)."""
    p = [float(v) for v in np.asarray(position, dtype=np.float64).reshape(3)]
    return {"id": int(id), "position": p, "reprojectionRMSE": float(reprojection_rmse), "observations": int(observations),
            "parallaxDegrees": float(parallax_degrees), "depth": float(depth),
            "covariance": [] if covariance is None else [float(v) for v in np.asarray(covariance).reshape(-1)]}
