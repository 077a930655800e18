import ParallaxMath

/// Pixels to ask about (hit tests, measurements), for analyzers that take them as a stream.
public struct PixelQueries: Sendable, Codable, Equatable {
    /// Pixels (px; the centre of the top-left pixel is (0, 0)).
    public var pixels: [Vector2]
    public init(pixels: [Vector2]) { self.pixels = pixels }
}

/// Where a pixel's ray meets the scene (ARKit's `ARHitTestResult` / raycast result).
public struct HitTestResult: Sendable, Codable, Equatable {
    /// What was hit.
    public enum Kind: String, Sendable, Codable, Equatable {
        /// The depth map at the pixel (a window's median depth): ARKit's feature point / estimated plane.
        case depth
        /// A detected plane, inside its boundary: ARKit's `existingPlaneUsingExtent`.
        case plane
    }

    public var kind: Kind
    /// The point (m, in the depth camera's frame).
    public var point: Vector3
    /// Distance from the camera along the ray (m).
    public var distance: Double
    /// σ (m) of the point along the ray, from the depth noise model.
    public var sigma: Double
    /// The plane's id, for `plane` hits.
    public var planeID: UInt64?

    public init(kind: Kind, point: Vector3, distance: Double, sigma: Double, planeID: UInt64? = nil) {
        self.kind = kind
        self.point = point
        self.distance = distance
        self.sigma = sigma
        self.planeID = planeID
    }
}

/// The hits of one pixel, nearest first (empty when nothing was hit).
public struct PixelHits: Sendable, Codable, Equatable {
    public var pixel: Vector2
    public var hits: [HitTestResult]
    /// Why there is no hit, when there is none (outside the image, no valid depth nearby, …).
    public var note: String?
    public init(pixel: Vector2, hits: [HitTestResult], note: String? = nil) {
        self.pixel = pixel
        self.hits = hits
        self.note = note
    }
}

/// A `hit-test` output packet: every queried pixel's hits in one depth frame.
public struct HitTestResults: Sendable, Codable, Equatable {
    public var results: [PixelHits]
    public init(results: [PixelHits]) { self.results = results }
}

/// The metric distance between two pixels' points (the measuring-tape app), with its σ.
public struct Measurement: Sendable, Codable, Equatable {
    public var from: Vector2, to: Vector2
    /// The two points (m, depth camera frame); `nil` when a pixel had no depth.
    public var fromPoint: Vector3?, toPoint: Vector3?
    /// Distance (m) and its σ (m) from the depth noise model; `nil` without both points.
    public var distance: Double?
    public var sigma: Double?
    /// Why there is no distance, when there is none.
    public var note: String?

    public init(from: Vector2, to: Vector2, fromPoint: Vector3?, toPoint: Vector3?, distance: Double?, sigma: Double?, note: String? = nil) {
        self.from = from
        self.to = to
        self.fromPoint = fromPoint
        self.toPoint = toPoint
        self.distance = distance
        self.sigma = sigma
        self.note = note
    }
}

/// A `measure` output packet: every measured pair in one depth frame.
public struct Measurements: Sendable, Codable, Equatable {
    public var measurements: [Measurement]
    public init(measurements: [Measurement]) { self.measurements = measurements }
}
