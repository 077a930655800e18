import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry
import ParallaxImage
import ParallaxMath
import ParallaxCodecs

/// The AFLW2000-3D head-pose benchmark in its authors' layout: `imageNNNNN.jpg` beside
/// `imageNNNNN.mat` (MATLAB v5: `Pose_Para` = [pitch, yaw, roll (rad), tx, ty, tz, scale] in
/// the 3DDFA convention, which ``HeadAngles`` shares; `pt3d_68` = 3 × 68 fitted landmarks, x and y
/// in image pixels). Point it at the full 2000-face download or any subset.
///
/// Streams: `cam0` (the images, one per frame, frame k at k / rate s: 1 Hz unless
/// ``DatasetOptions/imageRateHz``) and `face0/landmarks` (the true 68 landmarks' x, y:
/// ``FaceLandmarks``, iBUG 68). Truth (``FaceTruthProviding``): the angles and landmarks.
///
/// The benchmark has no camera intrinsics: its poses are weak-perspective (scaled orthographic)
/// fits, and its angles are those of that projection. Both streams carry the pinhole that
/// projects like it (``CameraModel/weakPerspective(width:height:)``: focal length 1000 × image
/// width, principal point at the image centre, stated in the calibration's comment), so a pose
/// fitted to its landmarks is read in the benchmark's own convention. The usual choice of
/// head-pose papers, focal length = image width, reads pitch 3–4° too high here: the perspective
/// it expects and the truth's projection lacks is explained by tilting the head
/// (docs/head-pose.md). The translation of such a fit is along a very long line of sight (the
/// face ~1000 face widths away): only the angles compare. Images of another size than the first
/// are an error naming the file.
public final class AFLW2000Source: DatasetSource, DeferredPacketSource, FaceTruthProviding {
    public let formatName = "AFLW2000-3D"
    public private(set) var listing = StreamListing()
    public let streams: [StreamDescription]
    public let groundTruth: Trajectory? = nil
    public let missingImages: [String: Int] = [:]
    public let faceTruth: [String: [FaceTruth]]
    /// The faces, by number, as (image, MAT-file) paths.
    public let files: [(image: String, mat: String)]
    /// The assumed camera.
    public let camera: CameraCalibration
    public static let cameraStream = "cam0", landmarkStream = "face0/landmarks", face = "face0"
    private var rows = IndexedRows()

    /// The faces in `path` (image and MAT-file pairs; an image without its `.mat` is skipped, a
    /// `.mat` without its image is an error). `rateHz`: frames per second.
    public init(path: String, rateHz: Double = 1) throws {
        let rateHz = try DatasetError.requireRate(rateHz, path: path)
        let folder = URL(fileURLWithPath: path)
        let names = Set((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [])
        let mats = names.filter { Self.isFaceMAT($0) }.sorted { $0.compare($1, options: .numeric) == .orderedAscending }
        guard !mats.isEmpty else { throw DatasetError.notADataset(path: path, expected: AFLW2000Format.expects) }
        var files: [(String, String)] = []
        for mat in mats {
            let stem = (mat as NSString).deletingPathExtension
            guard let image = ["jpg", "png", "jpeg"].map({ stem + "." + $0 }).first(where: { names.contains($0) }) else {
                throw DatasetError.missingImage(file: folder.appendingPathComponent(mat).path, line: 1, image: stem + ".jpg")
            }
            files.append((folder.appendingPathComponent(image).path, folder.appendingPathComponent(mat).path))
        }
        self.files = files
        let first = try ImageDecoder.decode8Bit(path: files[0].0)
        camera = CameraCalibration(model: .weakPerspective(width: first.width, height: first.height), rateHz: rateHz,
                                   comment: "assumed (AFLW2000-3D has no intrinsics): " + CameraModel.weakPerspectiveAssumption)
        streams = [StreamDescription(StreamKey<CameraFrame>(Self.cameraStream), metadata: StreamMetadata(camera: camera)),
                   StreamDescription(StreamKey<FaceLandmarks>(Self.landmarkStream), metadata: StreamMetadata(camera: camera))]
        var truth: [FaceTruth] = []
        let calibration = camera
        for (k, (image, matPath)) in files.enumerated() {
            let t = Timestamp(seconds: Double(k) / rateHz)
            let mat = try MATFile(path: matPath)
            let pose = try mat.variable("Pose_Para")
            guard pose.values.count >= 3, pose.values.prefix(3).allSatisfy(\.isFinite) else {
                throw MATFileError.wrongShape(path: matPath, name: "Pose_Para", expected: "7 finite values [pitch, yaw, roll, tx, ty, tz, scale]", found: pose.dimensions)
            }
            let points = try mat.matrix("pt3d_68", rows: 3, columns: 68)
            let landmarks = (0..<68).map { Vector2(points[0, $0], points[1, $0]) }
            guard landmarks.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else {
                throw MATFileError.wrongShape(path: matPath, name: "pt3d_68", expected: "finite coordinates", found: points.dimensions)
            }
            let degrees = 180 / Double.pi
            truth.append(FaceTruth(timestamp: t, angles: HeadAngles(pitch: pose.values[0] * degrees, yaw: pose.values[1] * degrees, roll: pose.values[2] * degrees),
                                   landmarks: landmarks))
            listing.record(stream: Self.cameraStream, timestamp: t, file: image, line: 1)
            listing.record(stream: Self.landmarkStream, timestamp: t, file: matPath, line: 1)
            rows.add(at: t, rank: 0) {
                let frame = try ImageDecoder.decode8Bit(path: image)
                try ImageDecodingError.checkSize(path: image, width: frame.width, height: frame.height, calibration: calibration)
                return AnyPacket(stream: Self.cameraStream, timestamp: t, payload: CameraFrame(cameraID: Self.cameraStream, image: frame))
            }
            rows.add(AnyPacket(stream: Self.landmarkStream, timestamp: t, payload: FaceLandmarks(points: landmarks, scheme: .ibug68)), rank: 1)
        }
        faceTruth = [Self.face: truth]
    }

    /// `imageNNNNN.mat` (any digits after `image`).
    static func isFaceMAT(_ name: String) -> Bool {
        guard name.hasPrefix("image"), name.hasSuffix(".mat") else { return false }
        let digits = name.dropFirst(5).dropLast(4)
        return !digits.isEmpty && digits.allSatisfy { $0 >= "0" && $0 <= "9" }
    }

    public func nextDeferred() throws -> DeferredPacket? { try rows.next() }
}

/// AFLW2000-3D folders: `imageNNNNN.jpg` + `imageNNNNN.mat`.
public enum AFLW2000Format: DatasetFormat {
    public static let name = "aflw2000"
    public static let expects = "AFLW2000-3D (imageNNNNN.jpg with imageNNNNN.mat)"
    public static func recognizes(_ path: String) -> Bool {
        isFolder(path) && ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).contains { AFLW2000Source.isFaceMAT($0) }
    }
    public static func open(_ path: String, options: DatasetOptions) throws -> any DatasetSource {
        try AFLW2000Source(path: path, rateHz: options.imageRateHz ?? 1)
    }
}
