import Foundation
import Parallax

/// A simulated sequence, described once: what `parallax simulate` builds from its flags and a
/// bench suite's `simulate:` block from its keys (the same names, `snake_case` in YAML,
/// `--kebab-case` on the command line), validated by the same rules and written by the same
/// code (``write(to:progress:cancelled:)``).
///
/// Three scenes:
/// - `room`: a camera (or stereo pair), depth and an IMU moving through a textured room, with
///   ground-truth poses, the room's geometry and, with ``picture``, a picture on the ceiling
///   and its true pose per frame.
/// - `face`: face landmarks with ARKit-style pose and gaze ground truth.
/// - `object`: a textured object moving in front of a still camera, as an OTB sequence with
///   ground-truth boxes, the object's picture (`picture.png`) and its true pose per frame.
///
/// The defaults are a suite's: the built-in rig (EuRoC cam0 scaled to ``width``, EuRoC's IMU
/// noise at 200 Hz), a seeded noise texture, no depth. `parallax simulate` starts from
/// ``commandLineDefaults`` instead: the bundled EuRoC `sensor.yaml` files and photos, depth at 5 Hz.
public struct Scenario: Sendable, Equatable {
    /// What is simulated.
    public enum Scene: String, CaseIterable, Sendable {
        case room, face, object
    }

    /// The folder layout a room scene is written in.
    public enum Layout: String, CaseIterable, Sendable {
        case parallax, euroc
    }

    public var scene = Scene.room
    /// Length (s).
    public var seconds = 10.0
    /// Seed of all noise.
    public var seed: UInt64 = 1

    // MARK: room

    /// A ground-truth trajectory file (TUM, EuRoC or KITTI) to follow (its first ``seconds``)
    /// instead of the built-in orbit.
    public var trajectory: String?
    /// A trajectory file whose whole path the room is built around (two motions in one room).
    public var roomAround: String?
    /// Rest before the built-in orbit starts (s).
    public var still = 0.0
    /// How much later than the IMU's clock the cameras' stamps are (s): a frame taken at `t` is
    /// stamped `t + cameraTimeOffset` (what `vio estimate_time_offset=true` recovers as
    /// `time_offset_ms = −1000 · cameraTimeOffset`). 0: the clocks agree.
    public var cameraTimeOffset = 0.0
    /// EuRoC camera `sensor.yaml` files (one, or two for a stereo pair), mounted as their
    /// `T_BS` says; empty: the built-in rig.
    public var cameras: [String] = []
    /// The built-in rig's image width (px; height and intrinsics scale with it).
    public var width = 376
    /// The built-in rig renders a stereo pair (`cam1`, 11 cm to `cam0`'s right).
    public var stereo = false
    /// An EuRoC IMU `sensor.yaml` with noise densities and rate; nil: EuRoC's ADIS16448 at 200 Hz.
    public var imu: String?
    /// Images (PNG/JPEG) covering the room's surfaces (`object`: the last covers the object,
    /// the first its occluder); empty: a seeded noise texture (room only).
    public var textures: [String] = []
    /// Depth map rate (Hz), 0 for none.
    public var depthRate = 0.0
    /// Gaussian pixel noise σ (gray levels).
    public var pixelNoise = 2.0
    /// The depth maps' noise model.
    public var depthNoise = DepthNoiseOption.exact
    /// A picture (PNG/JPEG) hung on the ceiling above the start, with its true pose per frame.
    public var picture: String?
    /// Physical width of ``picture`` (m).
    public var pictureWidth = 1.0
    /// The layout the room scene is written in.
    public var format = Layout.parallax

    // MARK: face

    /// A face mesh (OBJ, cm); nil: the compiled-in MediaPipe canonical face.
    public var faceModel: String?
    /// Gaussian landmark noise σ (px).
    public var landmarkNoise = 1.0

    // MARK: object

    /// How the object moves.
    public var motion = ObjectMotion.sweep

    /// A room scene with the suite defaults.
    public init() {}

    /// `parallax simulate`'s defaults: the bundled EuRoC cam0 and imu0 `sensor.yaml` files, the
    /// bundled photos as textures, depth at 5 Hz (paths found as ``BundledData`` says).
    public static var commandLineDefaults: Scenario {
        var s = Scenario()
        s.cameras = [BundledData.resolve("datasets/euroc_v1_01_cut/mav0/cam0/sensor.yaml")]
        s.imu = BundledData.resolve("datasets/euroc_v1_01_cut/mav0/imu0/sensor.yaml")
        s.textures = ["datasets/tum_rgbd_frame/rgb/1341847980.722988.png", "datasets/euroc_v1_01_cut/mav0/cam0/data/1403715273262142976.png"]
            .map { BundledData.resolve($0) }
        s.depthRate = 5
        return s
    }

    /// Whether the built-in rig is used (no camera files).
    public var usesBuiltInRig: Bool { cameras.isEmpty }

    /// The recorded data the scenario reads (trajectories, the ceiling's picture): a suite case
    /// whose data is not on this machine is skipped, as a case whose dataset is absent (they
    /// often come from `../shared`). The other files set the scenario up: one missing is an error.
    public var dataFiles: [String] { [trajectory, roomAround, picture].compactMap { $0 } }

    /// One line describing the settings that decide the data (the provenance's checksum covers
    /// it). A room scenario that only uses the keys suites had before the scenario was one type
    /// keeps the text it had then, so recorded runs' dataset checksums still compare.
    public var settingsDescription: String {
        "\(scene.rawValue) \(seconds) s, seed \(seed), width \(width), still \(still), stereo \(stereo), noise \(landmarkNoise)"
            + (scene == .room && depthRate == 0 && pixelNoise == 2 && depthNoise == .exact && picture == nil && format == .parallax && roomAround == nil && imu == nil
               ? "" : ", depth \(depthRate) Hz \(depthNoise.rawValue), pixel noise \(pixelNoise), picture \(picture ?? "none") \(pictureWidth) m, \(format.rawValue), around \(roomAround ?? "-"), imu \(imu ?? "built-in")")
            + (scene == .object ? ", motion \(motion.rawValue), pixel noise \(pixelNoise)" : "")
            + (cameraTimeOffset == 0 ? "" : ", camera time offset \(cameraTimeOffset) s")
    }
}
