"""The least a Python analyzer can do per frame: hand-over only (the frame is mapped, not
read), one number out. For measuring the worker's overhead:

    parallax run "python:python/examples/passthrough.py" datasets/euroc_mh01_clip --out out
"""
import parallax


class PassThrough(parallax.Analyzer):
    name = "pass-through"
    summary = "Emits 1 per cam0 frame without reading it (overhead measurement)"

    frames = parallax.Input("cam0", parallax.CAMERA)
    count = parallax.Output("cam0/seen", parallax.NUMBER)

    def process(self, trigger, inputs):
        self.emit(self.count, 1.0)
