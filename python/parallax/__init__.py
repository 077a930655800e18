"""Parallax in Python: write analyzers (`python:FILE.py` in a chain) and read results.

Writing an analyzer::

    import parallax

    class Brightness(parallax.Analyzer):
        summary = "Mean brightness per frame"
        frames = parallax.Input("cam0", parallax.CAMERA)
        brightness = parallax.Output("cam0/brightness", parallax.NUMBER)

        def process(self, trigger, inputs):
            self.emit(self.brightness, float(trigger.image.mean()))

Reading results::

    run = parallax.Run("out")
    run.events, run.poses("vio/pose"), run.report
"""
from .analyzer import (Analyzer, Input, Output, Option, Frame, IMU, Depth, PoseSample, Item,
                       EACH, LATEST, NEAREST, BETWEEN, BETWEEN_FIRST_AFTER,
                       CAMERA, IMU_SAMPLES, DEPTH, POSE, NUMBER, JSON, TRACKS, BOXES, LANDMARKS, MATCHES, ANY, PAYLOAD_TYPES,
                       tracks, boxes, landmark)
from .results import Run, Bench, Results, stream_path
from ._protocol import PROTOCOL_VERSION

__all__ = [
    "Analyzer", "Input", "Output", "Option", "Frame", "IMU", "Depth", "PoseSample", "Item",
    "EACH", "LATEST", "NEAREST", "BETWEEN", "BETWEEN_FIRST_AFTER",
    "CAMERA", "IMU_SAMPLES", "DEPTH", "POSE", "NUMBER", "JSON", "TRACKS", "BOXES", "LANDMARKS", "MATCHES", "ANY", "PAYLOAD_TYPES",
    "tracks", "boxes", "landmark",
    "Run", "Bench", "Results", "stream_path", "PROTOCOL_VERSION",
]
__version__ = "0.1.0"
