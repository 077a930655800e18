"""Mean brightness of every cam0 frame, on cam0/brightness.

    parallax run "klt camera=cam0 ! python:python/examples/brightness.py" datasets/euroc_v1_01_cut --out out
"""
import parallax


class Brightness(parallax.Analyzer):
    name = "brightness"
    summary = "Mean brightness of every camera frame (0–255)"

    frames = parallax.Input("cam0", parallax.CAMERA, doc="the camera's frames")
    brightness = parallax.Output("cam0/brightness", parallax.NUMBER, doc="mean pixel value (0–255)")
    scale = parallax.Option(1.0, doc="factor applied to the mean (unitless)", range=(0.0, 100.0))

    def process(self, trigger, inputs):
        self.emit(self.brightness, self.scale * float(trigger.image.mean()))
