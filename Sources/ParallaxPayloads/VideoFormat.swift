import Foundation
import ParallaxGeometry
import ParallaxImage

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

    /// Whether the `index`-th frame of the native stream (counting from 0) is kept.
    public func keeps(frame index: Int) -> Bool { Self.keeps(frame: index, rateDivisor: rateDivisor) }

    /// A native frame in this format.
    public func convert(_ frame: CameraFrame) -> CameraFrame {
        Self.convert(frame, scaleDivisor: scaleDivisor, gray: pixelFormat == .gray8)
    }

    /// The native stream's calibration for this format.
    public func convert(_ calibration: CameraCalibration) -> CameraCalibration {
        Self.convert(calibration, scaleDivisor: scaleDivisor, rateDivisor: rateDivisor)
    }

    /// Whether the `index`-th native frame (from 0) is kept when every `rateDivisor`-th is.
    public static func keeps(frame index: Int, rateDivisor: Int) -> Bool { index % max(1, rateDivisor) == 0 }

    /// `frame` gray when asked (BT.601 luma) and shrunk by area resampling.
    public static func convert(_ frame: CameraFrame, scaleDivisor: Int, gray: Bool) -> CameraFrame {
        let image = gray ? frame.image.luma : frame.image
        return CameraFrame(cameraID: frame.cameraID, image: image.areaDownsampled(by: scaleDivisor), exposure: frame.exposure)
    }

    /// `calibration` for frames shrunk by `scaleDivisor` (intrinsics rescaled exactly,
    /// ``CameraModel/binned(by:)``) and every `rateDivisor`-th kept (the rate divided).
    public static func convert(_ calibration: CameraCalibration, scaleDivisor: Int, rateDivisor: Int) -> CameraCalibration {
        var c = calibration
        c.model = calibration.model.binned(by: scaleDivisor)
        c.rateHz = calibration.rateHz.map { $0 / Double(rateDivisor) }
        return c
    }

    /// `640×480@30Hz gray8 (×½, ÷2)`.
    public var description: String {
        let rate = frameRateHz.map { String(format: "@%.4gHz", $0) } ?? ""
        let derived = scaleDivisor == 1 && rateDivisor == 1 ? "" : " (" + [scaleDivisor > 1 ? "×1/\(scaleDivisor)" : nil, rateDivisor > 1 ? "÷\(rateDivisor)" : nil].compactMap { $0 }.joined(separator: ", ") + ")"
        return "\(width)×\(height)\(rate) \(pixelFormat.rawValue)\(derived)"
    }
}
