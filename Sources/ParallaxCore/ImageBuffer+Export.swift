// Packets carry images, so Core's users get the image storage type with Core (it lives one
// floor below, in ParallaxImage, where the image algorithms can use it too).
@_exported import struct ParallaxImage.ImageBuffer
