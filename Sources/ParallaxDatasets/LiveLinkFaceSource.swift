import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxFace
import ParallaxGeometry
import ParallaxMath
import ParallaxCodecs

/// A CSV take from Epic's Live Link Face app, which records ARKit's face tracking on an iPhone:
/// `Timecode` (`hh:mm:ss:ff.fff` at 60 timecode frames per second), `BlendShapeCount`, the
/// blend shapes (`EyeBlinkLeft` … `TongueOut`), then `HeadYaw, HeadPitch, HeadRoll`,
/// `LeftEyeYaw, LeftEyePitch, LeftEyeRoll`, `RightEyeYaw, RightEyePitch, RightEyeRoll` (radians).
///
/// Streams: `face0/anchor` (``FaceAnchor``) and `face0/blendshapes` (``FaceBlendShapes``), one
/// per row, at the timecode's time (seconds of the day). The take has no head position: the head
/// is placed ``headDistance`` in front of the camera, on its axis, facing it — an assumption,
/// stated in ``formatName`` — turned by its yaw/pitch/roll. Angles: yaw turns the line of sight
/// (or the face) toward the person's right, pitch down, roll about the line of sight — the
/// signs read off the take itself (eye yaw follows `EyeLookInLeft`/`EyeLookOutRight`, eye pitch
/// `EyeLookDown*`); `R_HE = Ry(−yaw)·Rx(pitch)·Rz(roll)` in the head frame, and the head likewise
/// from facing the camera. Eyes sit at MediaPipe's canonical eyeball centres (``eyeCenters``);
/// the look-at point is where the two lines of sight pass closest (2 m ahead when they do not
/// converge).
public final class LiveLinkFaceSource: DatasetSource, DeferredPacketSource {
    public var formatName: String { "Live Link Face CSV (no head position: assumed \(Self.headDistance) m in front of the camera)" }
    public private(set) var listing = StreamListing()
    public let streams = [StreamDescription(StreamKey<FaceAnchor>(LiveLinkFaceSource.anchorStream)),
                          StreamDescription(StreamKey<FaceBlendShapes>(LiveLinkFaceSource.blendShapeStream))]
    public let groundTruth: Trajectory? = nil
    public let missingImages: [String: Int] = [:]
    public static let anchorStream = "face0/anchor", blendShapeStream = "face0/blendshapes"
    /// Where the head is assumed (m in front of the camera).
    public static let headDistance = 0.35
    /// Eyeball centres in the head frame (m): MediaPipe's canonical face, 12 mm behind the iris
    /// centres (right eye, left eye).
    public static let eyeCenters = FaceModel.mediapipe478.eyeballCenters
    /// The angle columns, in the order read.
    static let angleColumns = ["HeadYaw", "HeadPitch", "HeadRoll", "LeftEyeYaw", "LeftEyePitch", "LeftEyeRoll", "RightEyeYaw", "RightEyePitch", "RightEyeRoll"]
    private var rows = IndexedRows()

    /// Whether `path` is a CSV whose header starts as Live Link Face's does.
    public static func looksLikeTake(_ path: String) -> Bool {
        guard path.lowercased().hasSuffix(".csv"), let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 64)) ?? Data()
        return String(decoding: head, as: UTF8.self).hasPrefix("Timecode,BlendShapeCount")
    }

    public init(path: String, validateOrder: Bool = true) throws {
        guard let table = DelimitedText(path: path) else { throw DatasetError.notADataset(path: path, expected: LiveLinkFaceFormat.expects) }
        // The header row names the columns; the angle columns follow the blend shapes.
        var names: [String] = [], angleIndex: [Int] = [], shapeIndex: [Int] = [], shapeNames: [String] = []
        var previous: Timestamp?
        try table.forEachRow(separatedBy: .comma) { row in
            if names.isEmpty {
                names = (0..<row.count).map { row.string($0) }
                guard names.first == "Timecode", names.count > 2, names[1] == "BlendShapeCount" else {
                    throw DatasetError.malformedRow(file: path, line: row.line, reason: "expected a header starting 'Timecode,BlendShapeCount'")
                }
                angleIndex = try Self.angleColumns.map { column in
                    guard let i = names.firstIndex(of: column) else {
                        throw DatasetError.malformedRow(file: path, line: row.line, reason: "no '\(column)' column (Live Link Face writes \(Self.angleColumns.joined(separator: ", ")))")
                    }
                    return i
                }
                shapeIndex = Array(2..<(angleIndex.min() ?? 2))
                shapeNames = shapeIndex.map { names[$0] }  // one array every packet shares
                return
            }
            guard row.count == names.count else {
                throw DatasetError.malformedRow(file: path, line: row.line, reason: "expected \(names.count) columns as the header has, found \(row.count)")
            }
            let t = try Self.time(of: row.string(0), file: path, line: row.line)
            listing.record(stream: Self.anchorStream, timestamp: t, file: path, line: row.line)
            listing.record(stream: Self.blendShapeStream, timestamp: t, file: path, line: row.line)
            if validateOrder, let previous, t <= previous {
                throw DatasetError.outOfOrder(file: path, line: row.line, previous: previous, current: t)
            }
            previous = t
            func number(_ i: Int) throws -> Double {
                guard let v = row.double(i) else {
                    throw DatasetError.malformedRow(file: path, line: row.line, reason: "'\(names[i])' is '\(row.string(i))', not a finite number")
                }
                return v
            }
            let a = try angleIndex.map(number)
            let shapes = try shapeIndex.map(number)
            rows.add(AnyPacket(stream: Self.anchorStream, timestamp: t, payload: Self.anchor(head: (a[0], a[1], a[2]), left: (a[3], a[4], a[5]), right: (a[6], a[7], a[8]))), rank: 0)
            rows.add(AnyPacket(stream: Self.blendShapeStream, timestamp: t, payload: FaceBlendShapes(names: shapeNames, values: shapes)), rank: 1)
        }
        guard rows.count > 0 else { throw DatasetError.malformedRow(file: path, line: 2, reason: "the take has no rows") }
    }

    /// `hh:mm:ss:ff.fff` (60 frames per second) as nanoseconds of the day.
    static func time(of timecode: String, file: String, line: Int) throws -> Timestamp {
        let parts = timecode.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 4, let h = Int(parts[0]), let m = Int(parts[1]), let s = Int(parts[2]), let f = Double(parts[3]),
              (0..<24).contains(h), (0..<60).contains(m), (0..<60).contains(s), f >= 0, f < 60 else {
            throw DatasetError.malformedRow(file: file, line: line, reason: "timecode '\(timecode)' is not hh:mm:ss:ff.fff (60 frames per second)")
        }
        let seconds = Int64((h * 60 + m) * 60 + s)
        return Timestamp(nanoseconds: seconds * 1_000_000_000 + Int64((f / 60 * 1e9).rounded()))
    }

    /// `Ry(−yaw)·Rx(pitch)·Rz(roll)`.
    static func rotation(_ yaw: Double, _ pitch: Double, _ roll: Double) -> SO3 {
        SO3.exp(Vector3(0, -yaw, 0)) * SO3.exp(Vector3(pitch, 0, 0)) * SO3.exp(Vector3(0, 0, roll))
    }

    /// The anchor of one row.
    static func anchor(head: (Double, Double, Double), left: (Double, Double, Double), right: (Double, Double, Double)) -> FaceAnchor {
        let facing = SO3(Matrix3.diagonal(Vector3(1, -1, -1)))
        let cameraFromHead = SE3(rotation: facing * rotation(head.0, head.1, head.2), translation: Vector3(0, 0, headDistance))
        let leftEye = SE3(rotation: rotation(left.0, left.1, left.2), translation: eyeCenters.left)
        let rightEye = SE3(rotation: rotation(right.0, right.1, right.2), translation: eyeCenters.right)
        let look = EyeGaze.lookAt(right: (rightEye.translation, rightEye.rotation * Vector3(0, 0, 1)),
                                  left: (leftEye.translation, leftEye.rotation * Vector3(0, 0, 1)))
        return FaceAnchor(cameraFromHead: cameraFromHead, leftEye: leftEye, rightEye: rightEye, lookAtPoint: look.point)
    }

    public func nextDeferred() throws -> DeferredPacket? { try rows.next() }
}

/// Live Link Face CSV takes.
public enum LiveLinkFaceFormat: DatasetFormat {
    public static let name = "livelinkface"
    public static let expects = "a Live Link Face CSV take (header 'Timecode,BlendShapeCount,…')"
    public static func recognizes(_ path: String) -> Bool { !isFolder(path) && LiveLinkFaceSource.looksLikeTake(path) }
    public static func open(_ path: String, options: DatasetOptions) throws -> any DatasetSource {
        try LiveLinkFaceSource(path: path, validateOrder: options.validateOrder)
    }
}
