/// Shrinking an image by a whole factor the way sensors bin pixels: each output pixel is the
/// mean of a `factor × factor` block of input pixels (rounded to nearest), per channel.
///
/// Geometry, with pixel centres at integer coordinates (the image spans −0.5 … size − 0.5):
/// output pixel `i` covers input `[i·f − 0.5, (i + 1)·f − 0.5)`, so a point at input `p` lands at
/// output `(p + 0.5)/f − 0.5` exactly; rows and columns past the last whole block are dropped
/// (the output is ⌊size / f⌋), which moves nothing.
extension ImageBuffer where Pixel == UInt8 {
    /// The image shrunk by `factor` (≥ 1; 1 returns it unchanged). An image narrower or lower
    /// than one block gives one without pixels (0 wide or high): callers check the size first.
    public func areaDownsampled(by factor: Int) -> ImageBuffer<UInt8> {
        guard factor > 1 else { return self }
        let w = width / factor, h = height / factor, c = channels
        var out = [UInt8](repeating: 0, count: w * h * c)
        let area = factor * factor
        withUnsafeSamples { src in
            for y in 0..<h {
                for x in 0..<w {
                    for k in 0..<c {
                        var sum = 0
                        for dy in 0..<factor {
                            let row = ((y * factor + dy) * width + x * factor) * c + k
                            for dx in 0..<factor { sum += Int(src[row + dx * c]) }
                        }
                        out[(y * w + x) * c + k] = UInt8((sum + area / 2) / area)
                    }
                }
            }
        }
        return ImageBuffer(width: w, height: h, channels: c, samples: out)
    }
}
