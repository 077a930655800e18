import Synchronization

/// The largest image a file may declare: decoders check the size in the header against it
/// before allocating, so a corrupt or hostile header (a PNG claiming 999999 × 999999) is a
/// clear error naming the file instead of a trap or gigabytes allocated.
///
/// 100 megapixels: far above the cameras and depth sensors of the datasets Parallax reads
/// (EuRoC 0.36, KITTI 0.47, Middlebury 2014 full size 6, 8K video 33), below what would
/// exhaust a workstation's memory (a 100 MP RGB frame is 300 MB, 1.2 GB as float flow).
/// The CLI's `--max-image-megapixels` changes it for a run (set once, before reading).
public enum ImageSizeLimit {
    /// The default limit (pixels).
    public static let defaultMaxPixels = 100_000_000
    private static let limit = Atomic<Int>(defaultMaxPixels)

    /// The current limit (pixels); at least 1.
    public static var maxPixels: Int {
        get { limit.load(ordering: .relaxed) }
        set { limit.store(max(1, newValue), ordering: .relaxed) }
    }

    /// `width × height` when both are positive and the product stays within ``maxPixels``
    /// (computed without overflow); otherwise why not.
    public static func check(width: Int, height: Int) -> Result<Int, Refusal> {
        check(width: width, height: height, limit: maxPixels)
    }

    /// `width × height` when both are positive and the product stays within `limit` pixels (a
    /// source's own budget, ``ParallaxDatasets/DatasetOptions/maxImagePixels``); otherwise why not.
    /// Call it with the size a header declares, before allocating the image.
    public static func check(width: Int, height: Int, limit: Int) -> Result<Int, Refusal> {
        guard width > 0, height > 0 else { return .failure(.empty(width: width, height: height)) }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= limit else { return .failure(.tooLarge(width: width, height: height, limit: limit)) }
        return .success(pixels)
    }

    /// Why a declared size is refused.
    public enum Refusal: Error, Equatable, Sendable, CustomStringConvertible {
        case empty(width: Int, height: Int)
        /// Larger than `limit` pixels.
        case tooLarge(width: Int, height: Int, limit: Int)

        public var description: String {
            switch self {
            case let .empty(w, h): return "declared size \(w)×\(h) is empty"
            case let .tooLarge(w, h, limit):
                return "declared size \(w)×\(h) exceeds the limit of \(Double(limit) / 1e6) megapixels (--max-image-megapixels)"
            }
        }
    }
}
