import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry
import ParallaxImage
import ParallaxMath
import ParallaxFiles
import ParallaxCodecs

/// Face images annotated in the iBUG / 300-W `.pts` format (`image.jpg` beside `image.pts`:
/// `version: 1`, `n_points: 68`, `{`, one `x y` per line, `}`), as 300-W, Menpo and LFPW ship
/// them. Streams: `cam0` (the images in natural name order, frame k at k / rate s: 1 Hz unless
/// ``DatasetOptions/imageRateHz``; sizes may differ, so no calibration) and, for 68-point files,
/// `face0/landmarks` (``FaceLandmarks``, iBUG 68). Truth (``FaceTruthProviding``): the landmarks,
/// no pose.
///
/// `.pts` coordinates count pixels from 1 (MATLAB's convention: the top-left pixel's centre is
/// (1, 1)); Parallax counts from 0, so 1 is subtracted.
public final class PTSFaceFolderSource: DatasetSource, DeferredPacketSource, FaceTruthProviding {
    public let formatName = "iBUG .pts faces"
    public private(set) var listing = StreamListing()
    public let streams: [StreamDescription]
    public let groundTruth: Trajectory? = nil
    public let missingImages: [String: Int] = [:]
    public let faceTruth: [String: [FaceTruth]]
    /// Image and annotation paths, in play order.
    public let files: [(image: String, pts: String)]
    public static let cameraStream = "cam0", landmarkStream = "face0/landmarks", face = "face0"
    private var rows = IndexedRows()

    public init(path: String, rateHz: Double = 1) throws {
        let rateHz = try DatasetError.requireRate(rateHz, path: path)
        let folder = URL(fileURLWithPath: path)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        let files = Self.pairs(names).map { (folder.appendingPathComponent($0.image).path, folder.appendingPathComponent($0.pts).path) }
        guard !files.isEmpty else { throw DatasetError.notADataset(path: path, expected: PTSFaceFolderFormat.expects) }
        self.files = files
        var truth: [FaceTruth] = []
        var all68 = true
        var parsed: [[Vector2]] = []
        for (_, pts) in files {
            let points = try Self.readPTS(pts)
            all68 = all68 && points.count == 68
            parsed.append(points)
        }
        streams = [StreamDescription(StreamKey<CameraFrame>(Self.cameraStream))]
            + (all68 ? [StreamDescription(StreamKey<FaceLandmarks>(Self.landmarkStream))] : [])
        for (k, ((image, pts), points)) in zip(files, parsed).enumerated() {
            let t = Timestamp(seconds: Double(k) / rateHz)
            truth.append(FaceTruth(timestamp: t, angles: nil, landmarks: points))
            listing.record(stream: Self.cameraStream, timestamp: t, file: image, line: 1)
            rows.add(at: t, rank: 0) {
                AnyPacket(stream: Self.cameraStream, timestamp: t, payload: CameraFrame(cameraID: Self.cameraStream, image: try ImageDecoder.decode8Bit(path: image)))
            }
            if all68 {
                listing.record(stream: Self.landmarkStream, timestamp: t, file: pts, line: 1)
                rows.add(AnyPacket(stream: Self.landmarkStream, timestamp: t, payload: FaceLandmarks(points: points, scheme: .ibug68)), rank: 1)
            }
        }
        faceTruth = [Self.face: truth]
    }

    /// Image files with a `.pts` of the same stem, in natural order of the stem.
    static func pairs(_ names: [String]) -> [(image: String, pts: String)] {
        let set = Set(names)
        return names.filter { $0.lowercased().hasSuffix(".pts") }.sorted { $0.compare($1, options: .numeric) == .orderedAscending }.compactMap { pts in
            let stem = (pts as NSString).deletingPathExtension
            guard let image = ImageFolderSource.extensions.sorted().map({ stem + "." + $0 }).first(where: { set.contains($0) }) else { return nil }
            return (image, pts)
        }
    }

    /// The points of an iBUG `.pts` file, moved to 0-based pixels; errors name the file and line.
    public static func readPTS(_ path: String) throws -> [Vector2] {
        guard let text = FileContents.string(atPath: path) else {
            throw DatasetError.malformedRow(file: path, line: 1, reason: "cannot read the file as text")
        }
        var expected: Int?
        var points: [Vector2] = []
        var inside = false, closed = false
        for (i, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || closed { continue }
            if !inside {
                if line.hasPrefix("version:") { continue }
                if line.hasPrefix("n_points:") {
                    guard let n = Int(line.dropFirst("n_points:".count).trimmingCharacters(in: .whitespaces)), n > 0, n <= 100_000 else {
                        throw DatasetError.malformedRow(file: path, line: i + 1, reason: "n_points must be a positive whole number, got '\(line)'")
                    }
                    expected = n
                    continue
                }
                guard line == "{" else { throw DatasetError.malformedRow(file: path, line: i + 1, reason: "expected 'version:', 'n_points:' or '{', got '\(line)'") }
                inside = true
                continue
            }
            if line == "}" { closed = true; continue }
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count == 2, let x = Double(fields[0]), let y = Double(fields[1]), x.isFinite, y.isFinite else {
                throw DatasetError.malformedRow(file: path, line: i + 1, reason: "expected 'x y' (two finite numbers), got '\(line)'")
            }
            points.append(Vector2(x - 1, y - 1))
        }
        guard closed else { throw DatasetError.malformedRow(file: path, line: 1, reason: "no '{ … }' block of points (truncated?)") }
        guard let expected, expected == points.count else {
            throw DatasetError.malformedRow(file: path, line: 1, reason: "n_points says \(expected.map(String.init) ?? "nothing"), the file lists \(points.count) points")
        }
        return points
    }

    public func nextDeferred() throws -> DeferredPacket? { try rows.next() }
}

/// Folders of face images with iBUG `.pts` annotations.
public enum PTSFaceFolderFormat: DatasetFormat {
    public static let name = "ibug-pts"
    public static let expects = "face images with iBUG .pts landmarks (image.jpg + image.pts)"
    public static func recognizes(_ path: String) -> Bool {
        isFolder(path) && !PTSFaceFolderSource.pairs((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).isEmpty
    }
    public static func open(_ path: String, options: DatasetOptions) throws -> any DatasetSource {
        try PTSFaceFolderSource(path: path, rateHz: options.imageRateHz ?? 1)
    }
}
