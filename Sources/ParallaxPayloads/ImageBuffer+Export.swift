// Packets carry images and boxes, so Core's users get the image storage type and the pixel box
// with Core (they live one floor below, in ParallaxImage, where the image algorithms and
// trackers can use them too).
@_exported import struct ParallaxImage.ImageBuffer
@_exported import struct ParallaxImage.BoundingBox
