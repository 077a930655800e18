extension ImageBuffer where Pixel == UInt8 {
    /// The image in 8-bit gray: itself when it has one channel, else ITU-R BT.601 luma of its
    /// RGB, rounded in integers (`(77 R + 150 G + 29 B + 128) / 256`), so every platform gives
    /// the same bits. The gray that decoding (`ImageDecoder.decodeGray8`) and the matchers use.
    public var luma: ImageBuffer<UInt8> {
        guard channels == 3 else { return self }
        var gray = [UInt8](repeating: 0, count: width * height)
        withUnsafeSamples { p in
            for i in gray.indices {
                let r = UInt32(p[3 * i]), g = UInt32(p[3 * i + 1]), b = UInt32(p[3 * i + 2])
                gray[i] = UInt8((77 * r + 150 * g + 29 * b + 128) >> 8)
            }
        }
        return ImageBuffer(width: width, height: height, samples: gray)
    }
}
