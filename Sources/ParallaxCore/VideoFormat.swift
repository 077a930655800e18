import Foundation
import ParallaxGeometry

/// A way to deliver a camera stream (ARKit's `ARConfiguration.VideoFormat`): resolution, frame
/// rate and pixel format, as the camera's native stream or derived from it — shrunk by area
/// resampling (×½, ×¼; intrinsics rescaled exactly), every 2nd or 3rd frame kept, gray instead
/// of colour.
public struct VideoFormat: Sendable, Codable, Equatable, CustomStringConvertible {
    /// The camera stream it is a format of.
    public var camera: String
    /// Image size (px).
    public var width: Int, height: Int
    /// Frame rate (Hz), when the stream states one.
    public var frameRateHz: Double?
    public var pixelFormat: CameraFrame.Format
    /// How it is derived: images shrunk by this factor (1, 2, 4) and every `rateDivisor`-th frame
    /// kept (1, 2, 3).
    public var scaleDivisor: Int
    public var rateDivisor: Int
    /// The first format of a list (the native one), as ARKit marks its default.
    public var recommended: Bool

    public init(camera: String, width: Int, height: Int, frameRateHz: Double?, pixelFormat: CameraFrame.Format,
                scaleDivisor: Int = 1, rateDivisor: Int = 1, recommended: Bool = false) {
        self.camera = camera
        self.width = width
        self.height = height
        self.frameRateHz = frameRateHz
        self.pixelFormat = pixelFormat
        self.scaleDivisor = scaleDivisor
        self.rateDivisor = rateDivisor
        self.recommended = recommended
    }

    /// Image scales (divisors) and frame-rate divisors that formats are derived with.
    public static let scaleDivisors = [1, 2, 4], rateDivisors = [1, 2, 3]

    /// The formats of a camera stream of `width × height` px at `frameRateHz` in `pixelFormat`:
    /// the native one first (recommended), then every derived one (scale ×1, ×½, ×¼; rate ÷1, ÷2,
    /// ÷3; the native pixel format, and gray when native is colour), largest first; sizes below
    /// 16 px are left out.
    public static func supported(camera: String, width: Int, height: Int, frameRateHz: Double?, pixelFormat: CameraFrame.Format) -> [VideoFormat] {
        var formats: [VideoFormat] = []
        let pixels: [CameraFrame.Format] = pixelFormat == .rgb8 ? [.rgb8, .gray8] : [.gray8]
        for s in scaleDivisors where width / s >= 16 && height / s >= 16 {
            for r in rateDivisors {
                for p in pixels {
                    formats.append(VideoFormat(camera: camera, width: width / s, height: height / s, frameRateHz: frameRateHz.map { $0 / Double(r) },
                                               pixelFormat: p, scaleDivisor: s, rateDivisor: r, recommended: s == 1 && r == 1 && p == pixelFormat))
                }
            }
        }
        return formats
    }

    /// `640×480@30Hz gray8 (×½, ÷2)`.
    public var description: String {
        let rate = frameRateHz.map { String(format: "@%.4gHz", $0) } ?? ""
        let derived = scaleDivisor == 1 && rateDivisor == 1 ? "" : " (" + [scaleDivisor > 1 ? "×1/\(scaleDivisor)" : nil, rateDivisor > 1 ? "÷\(rateDivisor)" : nil].compactMap { $0 }.joined(separator: ", ") + ")"
        return "\(width)×\(height)\(rate) \(pixelFormat.rawValue)\(derived)"
    }
}
