import ArgumentParser
import Foundation
import ParallaxApp
import Parallax

/// `parallax simulate --out DIR`: a deterministic sequence with perfect ground truth.
struct SimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Simulate a sequence (rendered camera + exact depth + IMU + ground truth) as a Parallax folder.",
        discussion: """
        The motion is a cumulative B-spline fitted to --trajectory (TUM, EuRoC or KITTI file), or a built-in \
        smooth motion. The camera sees the inside of a room around the path, its walls textured with real photos \
        (--textures). The same --seed gives byte-identical folders. --scene face writes a Parallax folder of \
        landmarks; --scene object an OTB tracking sequence (img/ + groundtruth_rect.txt) that OpenCV's and \
        OTB's toolkits read too.
        """)

    @Option(name: .long, help: "Ground-truth trajectory to follow (its first --seconds).") var trajectory: String?
    @Option(name: .customLong("room-around"), help: ArgumentHelp("Build the room around this trajectory's path (TUM, EuRoC or KITTI file, all of it) instead of the simulated one: two motions in one room (map one, relocalize the other).", valueName: "trajectory"))
    var roomAround: String?
    @Option(name: .long, help: ArgumentHelp("Put this picture (PNG/JPEG) on the room's ceiling above the motion's start, for image-detect (the camera looks up, as EuRoC's cam0); writes picture.png and its true pose per frame (picture_pose.csv), scored by --evaluate image-anchor.", valueName: "file"))
    var picture: String?
    @Option(name: .customLong("picture-width"), help: "Physical width of --picture (m, 0.05…5).") var pictureWidth: Double = 1.0
    @Option(name: .long, help: "Length (s).") var seconds: Double = 10
    @Option(name: .long, parsing: .unconditional, help: "Seed of all noise (0…2⁶⁴−1).") var seed: UInt64 = 1
    @Option(name: .long, help: "Built-in motion only: rest this long (s) before moving, as a recording that starts still.") var still: Double = 0
    @Option(name: .customLong("camera-time-offset"), parsing: .unconditional, help: ArgumentHelp("Stamp the cameras' frames this much later than the IMU's clock (s, −1…1; negative: earlier): a frame taken at t is stamped t + SECONDS, as a camera that stamps late; vio's online time offset recovers it as −1000·SECONDS ms.", valueName: "seconds"))
    var cameraTimeOffset: Double = 0
    @Option(name: .customLong("camera-calibration"), help: "EuRoC camera sensor.yaml (default: the bundled EuRoC cam0).")
    var cameraCalibration: String = "datasets/euroc_v1_01_cut/mav0/cam0/sensor.yaml"
    @Option(name: .customLong("imu-calibration"), help: "EuRoC IMU sensor.yaml with noise densities (default: the bundled EuRoC imu0).")
    var imuCalibration: String = "datasets/euroc_v1_01_cut/mav0/imu0/sensor.yaml"
    @Option(name: .long, parsing: .upToNextOption, help: "Texture images (PNG/JPEG) for the room's surfaces.")
    var textures: [String] = ["datasets/tum_rgbd_frame/rgb/1341847980.722988.png", "datasets/euroc_v1_01_cut/mav0/cam0/data/1403715273262142976.png"]
    @Option(name: .customLong("stereo-calibration"), help: "EuRoC sensor.yaml of a second camera: renders a stereo pair (cam1).")
    var stereoCalibration: String?
    @Option(name: .customLong("depth-rate"), help: "Depth map rate (Hz, at most the camera's: maps are rendered at camera frames), 0 for none.") var depthRate: Double = 5
    @Option(name: .customLong("pixel-noise"), help: "Gaussian pixel noise σ (gray levels).") var pixelNoise: Double = 2
    @Option(name: .customLong("depth-noise"), help: "The depth maps' noise, as the depth analyzers' noise= option names it: exact, or kinect (structured light: σ = 1.2 mm + 1.9 mm/m² · (z − 0.4 m)², Nguyen et al. 2012).") var depthNoise: String = DepthNoiseOption.exact.rawValue
    @Option(name: .long, help: "What to simulate: room (camera + depth + IMU in a textured room), face (landmarks + pose/gaze ground truth) or object (a textured object moving in front of a still camera, with ground-truth boxes).")
    var scene: String = "room"
    @Option(name: .long, help: "--scene object only: how the object moves: sweep, fast (~23 px per frame), scale (×2 closer and back), occlusion (a second object covers it for 10 frames), exit (leaves the view and comes back), turn (turns to ±60° and back) or zoom (×3 closer and back).")
    var motion: String = "sweep"
    @Option(name: .customLong("face-model"), help: "Face mesh (OBJ, cm) for --scene face (default: the bundled MediaPipe canonical face).")
    var faceModel: String?
    @Option(name: .customLong("landmark-noise"), help: "Gaussian landmark noise σ (px) for --scene face. (default: 1)")
    var landmarkNoise: Double?
    @Option(name: .long, help: "Output layout: parallax or euroc (EuRoC holds cameras, IMU and ground truth; use --depth-rate 0).")
    var format: String = "parallax"
    @Option(name: .long, help: "Output folder.") var out: String

    /// The scenario the flags describe (built and checked in ``validate()``).
    var scenario = Scenario.commandLineDefaults

    enum CodingKeys: CodingKey {
        case trajectory, roomAround, picture, pictureWidth, seconds, seed, still, cameraTimeOffset, cameraCalibration, imuCalibration, textures, stereoCalibration
        case depthRate, pixelNoise, depthNoise, scene, motion, faceModel, landmarkNoise, format, out
    }

    /// Every flag is read into one ``Scenario`` and checked by its rules before anything is
    /// simulated: a bad value is a usage error naming the option (exit 2), never a trap. The
    /// bundled defaults are found from any working folder.
    mutating func validate() throws {
        var s = Scenario.commandLineDefaults
        var given: Set<Scenario.Key> = []
        func choice<T: RawRepresentable & CaseIterable>(_ text: String, _ key: Scenario.Key) throws -> T where T.RawValue == String {
            guard let value = T(rawValue: text) else {
                throw ValidationError("--\(key.flagName) must be one of \(T.allCases.map(\.rawValue).joined(separator: ", ")), got '\(text)'")
            }
            return value
        }
        s.scene = try choice(scene, .scene)
        s.motion = try choice(motion, .motion)
        s.depthNoise = try choice(depthNoise, .depthNoise)
        s.format = try choice(format, .format)
        s.seconds = seconds
        s.seed = seed
        s.still = still
        s.cameraTimeOffset = cameraTimeOffset
        s.depthRate = depthRate
        s.pixelNoise = pixelNoise
        s.pictureWidth = pictureWidth
        s.cameras = [BundledData.resolve(cameraCalibration)] + (stereoCalibration.map { [$0] } ?? [])
        s.imu = BundledData.resolve(imuCalibration)
        s.textures = textures.map { BundledData.resolve($0) }
        s.trajectory = trajectory
        s.roomAround = roomAround
        s.picture = picture
        s.faceModel = faceModel.map { BundledData.resolve($0) }
        if let landmarkNoise { s.landmarkNoise = landmarkNoise }
        // An option the chosen scene does not use would be ignored in silence: the scenario
        // refuses it (only those given count: a default is never at fault).
        let defaults = Scenario.commandLineDefaults
        let set: [(Bool, Scenario.Key)] = [
            (faceModel != nil, .faceModel), (landmarkNoise != nil, .landmarkNoise), (trajectory != nil, .trajectory), (roomAround != nil, .roomAround),
            (picture != nil, .picture), (s.format != defaults.format, .format), (still != 0, .still), (cameraTimeOffset != 0, .cameraTimeOffset), (s.motion != defaults.motion, .motion),
            (s.depthNoise != defaults.depthNoise, .depthNoise), (s.pixelNoise != defaults.pixelNoise, .pixelNoise),
            (s.depthRate != defaults.depthRate, .depthRate), (s.pictureWidth != defaults.pictureWidth, .pictureWidth),
            (s.textures != defaults.textures, .textures), (s.imu != defaults.imu, .imu),
        ]
        given = Set(set.filter(\.0).map(\.1))
        if stereoCalibration != nil, s.scene != .room {
            throw ValidationError("--stereo-calibration is used only with --scene room, not with --scene \(s.scene.rawValue)")
        }
        do { try s.validate(given: given) } catch { throw ValidationError(error.flagText) }
        scenario = s
    }

    func run() throws {
        let prepared: Scenario.Prepared
        do { prepared = try scenario.prepare() } catch {
            var bundled = scenario.cameras.map { (path: $0, option: "--camera-calibration") } + scenario.textures.map { (path: $0, option: "--textures") }
            if let imu = scenario.imu { bundled.append((imu, "--imu-calibration")) }
            if let face = scenario.faceModel { bundled.append((face, "--face-model")) }
            throw fail(BundledData.explainingMissing("\(error)", files: bundled), code: ExitCodes.badInput)
        }
        let output = try CommandOutput(out, command: "parallax simulate")
        let progress = ProgressDisplay(spanning: prepared.groundTruthTimes)
        Interruption.install()
        let written: Scenario.Written
        do {
            written = try prepared.write(to: output.url, progress: { progress?.update($0) }, cancelled: { Interruption.requested })
        } catch {
            throw output.failed("\(error)")
        }
        progress?.finish()
        try output.finish()
        for w in written.warnings { StandardError.write(Data("parallax: warning: \(w)\n".utf8)) }
        print("\(written.summary) → \(out)")
    }
}
