import ParallaxFiles

// The parts of a camera model every calibration file states (EuRoC sensor.yaml, Kalibr camchain,
// ROS camera_info), read and checked alike: an error names the key, at its line and column.

extension KeyedDecodingContainer {
    /// The image size `[width, height]` at `key` (px): two positive whole numbers whose product
    /// fits ``ImageSizeLimit/maxPixels``. As an image header's, a calibration declaring more
    /// pixels than any image may have is refused before anything is allocated for it (ray
    /// tables, rectification maps).
    func imageResolution(_ key: Key, decoder: any Decoder) throws -> (width: Int, height: Int) {
        let resolution = try finiteNumbers(key, count: 2, decoder: decoder)
        guard resolution.allSatisfy({ $0 >= 1 && $0 == $0.rounded() }) else {
            throw decoder.yamlProblem("\(key.stringValue): expected two positive integers [width, height]", at: key)
        }
        guard resolution[0] * resolution[1] <= Double(ImageSizeLimit.maxPixels) else {
            func text(_ v: Double) -> String { v < 1e15 ? String(Int(v)) : "\(v)" }
            throw decoder.yamlProblem("\(key.stringValue): \(text(resolution[0]))×\(text(resolution[1])) exceeds the limit of "
                                      + "\(Double(ImageSizeLimit.maxPixels) / 1e6) megapixels (--max-image-megapixels)", at: key)
        }
        return (Int(resolution[0]), Int(resolution[1]))
    }

    /// The image size given as two whole numbers at `width` and `height` (px), checked as
    /// ``imageResolution(_:decoder:)`` checks a pair.
    func imageSize(width: Key, height: Key, decoder: any Decoder) throws -> (width: Int, height: Int) {
        let w = try decode(Int.self, forKey: width), h = try decode(Int.self, forKey: height)
        for (key, value) in [(width, w), (height, h)] where value < 1 {
            throw decoder.yamlProblem("\(key.stringValue) must be a positive number of pixels, got \(value)", at: key)
        }
        if case .failure = ImageSizeLimit.check(width: w, height: h) {
            throw decoder.yamlProblem("\(w)×\(h) exceeds the limit of \(Double(ImageSizeLimit.maxPixels) / 1e6) megapixels (--max-image-megapixels)", at: width)
        }
        return (w, h)
    }

    /// Pinhole intrinsics written as `[fu, fv, cu, cv]` at `key` (px): finite, focal lengths positive.
    func pinholeIntrinsics(_ key: Key, decoder: any Decoder) throws -> PinholeIntrinsics {
        let k = try finiteNumbers(key, count: 4, decoder: decoder)
        guard k[0] > 0, k[1] > 0 else {
            throw decoder.yamlProblem("\(key.stringValue): focal lengths must be positive, got fu=\(k[0]) fv=\(k[1])", at: key)
        }
        return PinholeIntrinsics(fx: k[0], fy: k[1], cx: k[2], cy: k[3])
    }
}
