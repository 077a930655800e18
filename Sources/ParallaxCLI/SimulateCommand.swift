import ArgumentParser
import Foundation
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
    @Option(name: .long, help: "Seed of all noise.") var seed: UInt64 = 1
    @Option(name: .long, help: "Built-in motion only: rest this long (s) before moving, as a recording that starts still.") var still: Double = 0
    @Option(name: .customLong("camera-calibration"), help: "EuRoC camera sensor.yaml (default: the bundled EuRoC cam0).")
    var cameraCalibration: String = "datasets/euroc_v1_01_cut/mav0/cam0/sensor.yaml"
    @Option(name: .customLong("imu-calibration"), help: "EuRoC IMU sensor.yaml with noise densities (default: the bundled EuRoC imu0).")
    var imuCalibration: String = "datasets/euroc_v1_01_cut/mav0/imu0/sensor.yaml"
    @Option(name: .long, parsing: .upToNextOption, help: "Texture images (PNG/JPEG) for the room's surfaces.")
    var textures: [String] = ["datasets/tum_rgbd_frame/rgb/1341847980.722988.png", "datasets/euroc_v1_01_cut/mav0/cam0/data/1403715273262142976.png"]
    @Option(name: .customLong("stereo-calibration"), help: "EuRoC sensor.yaml of a second camera: renders a stereo pair (cam1).")
    var stereoCalibration: String?
    @Option(name: .customLong("depth-rate"), help: "Depth map rate (Hz), 0 for none.") var depthRate: Double = 5
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

    /// `--depth-noise` as a model (validated in ``validate()``).
    var depthNoiseModel: DepthNoise { DepthNoiseOption(rawValue: depthNoise)?.model ?? .none }

    /// Every number is checked before anything is simulated: a bad one is a usage error naming
    /// the option (exit 2), never a trap. The bundled defaults are found from any working folder.
    mutating func validate() throws {
        cameraCalibration = BundledData.resolve(cameraCalibration)
        imuCalibration = BundledData.resolve(imuCalibration)
        textures = textures.map { BundledData.resolve($0) }
        faceModel = faceModel.map { BundledData.resolve($0) }
        func check(_ value: Double, _ name: String, _ range: ClosedRange<Double>, _ unit: String) throws {
            guard value.isFinite, range.contains(value) else {
                throw ValidationError("--\(name) must be a number in \(range.lowerBound)…\(range.upperBound) \(unit), got \(value)")
            }
        }
        try check(seconds, "seconds", 0.05...86_400, "s")
        try check(still, "still", 0...86_400, "s")
        try check(depthRate, "depth-rate", 0...1000, "Hz")
        try check(pixelNoise, "pixel-noise", 0...255, "gray levels")
        if let landmarkNoise { try check(landmarkNoise, "landmark-noise", 0...100, "px") }
        guard ["room", "face", "object"].contains(scene) else { throw ValidationError("--scene must be room, face or object, got '\(scene)'") }
        // An option the chosen scene does not use would be ignored in silence: refuse it.
        let sceneOnly: [(given: Bool, option: String, scenes: [String])] = [
            (faceModel != nil, "face-model", ["face"]), (landmarkNoise != nil, "landmark-noise", ["face"]), (trajectory != nil, "trajectory", ["room"]), (roomAround != nil, "room-around", ["room"]), (picture != nil, "picture", ["room"]),
            (stereoCalibration != nil, "stereo-calibration", ["room"]), (format != "parallax", "format", ["room"]),
            (still != 0, "still", ["room"]), (motion != "sweep", "motion", ["object"]), (depthNoise != DepthNoiseOption.exact.rawValue, "depth-noise", ["room"]),
        ]
        for o in sceneOnly where o.given && !o.scenes.contains(scene) {
            throw ValidationError("--\(o.option) is used only with --scene \(o.scenes.joined(separator: " or ")), not with --scene \(scene)")
        }
        guard ObjectMotion(rawValue: motion) != nil else {
            throw ValidationError("--motion must be one of \(ObjectMotion.allCases.map(\.rawValue).joined(separator: ", ")), got '\(motion)'")
        }
        guard DepthNoiseOption(rawValue: depthNoise) != nil else {
            throw ValidationError("--depth-noise must be one of \(DepthNoiseOption.allCases.map(\.rawValue).joined(separator: ", ")), got '\(depthNoise)'")
        }
        guard pictureWidth.isFinite, (0.05...5).contains(pictureWidth) else { throw ValidationError("--picture-width must be in 0.05…5 m, got \(pictureWidth)") }
        guard ["parallax", "euroc"].contains(format) else { throw ValidationError("--format must be parallax or euroc, got '\(format)'") }
        guard format == "parallax" || depthRate == 0 else { throw ValidationError("--format euroc cannot hold depth maps: add --depth-rate 0") }
    }

    func run() throws {
        if scene == "face" { return try simulateFace() }
        if scene == "object" { return try simulateObject() }
        let simulator: SequenceSimulator
        var hangingPicture: (image: ImageBuffer<UInt8>, worldFromPicture: SE3, size: Vector2)?
        do {
            let camera = try EuRoCSensorFile.loadCamera(path: cameraCalibration)
            let imuCalibration = try EuRoCSensorFile.loadIMU(path: imuCalibration)
            let spline: SE3Spline
            if let trajectory {
                let samples = try TrajectoryFile.read(path: trajectory)
                guard let following = SE3Spline.following(samples, seconds: seconds) else {
                    throw InputError(description: "\(trajectory): a trajectory to follow must span at least 0.3 s (it has \(samples.count) pose(s))")
                }
                spline = following
            } else {
                spline = SyntheticMotion.orbit(seconds: seconds, still: still)
            }
            let textureImages = try textures.map { try ImageDecoder.decodeGray8(path: $0) }
            var roomPath = spline
            if let roomAround {
                let samples = try TrajectoryFile.read(path: roomAround)
                guard let around = SE3Spline.following(samples, seconds: .infinity) else {
                    throw InputError(description: "\(roomAround): a room's trajectory must span at least 0.3 s (it has \(samples.count) pose(s))")
                }
                roomPath = around
            }
            var scene = SimulationPresets.room(around: roomPath, textures: textureImages)
            if let picture {
                let image = try ImageDecoder.decodeGray8(path: picture)
                let hung = scene.hangingPicture(image, width: pictureWidth, above: spline.pose(at: spline.validRange.lowerBound).translation)
                scene = hung.scene
                hangingPicture = (image, hung.worldFromPicture, hung.size)
            }
            var configuration = SequenceSimulator.Configuration(camera: camera, imu: IMUSimulator(noise: imuCalibration.noise, rateHz: imuCalibration.rateHz))
            configuration.duration = seconds
            configuration.seed = seed
            configuration.depthRateHz = depthRate
            configuration.pixelNoise = pixelNoise
            configuration.depthNoise = depthNoiseModel
            configuration.stereoCamera = try stereoCalibration.map { try EuRoCSensorFile.loadCamera(path: $0) }
            simulator = SequenceSimulator(spline: spline, scene: scene, configuration: configuration)
        } catch {
            throw fail("\(error)", code: ExitCodes.badInput)
        }
        let output = try CommandOutput(out, command: "parallax simulate")
        do {
            // Rendered lazily, on worker threads, and written as it comes: memory stays flat
            // however long the sequence.
            let sequence = try simulator.source()
            let groundTruth = sequence.groundTruth
            if let (image, worldFromPicture, size) = hangingPicture {
                // The picture and where it is from the camera, every frame (image-anchor scores it).
                try ImageEncoder.writePNG(image, to: output.url.appendingPathComponent(PictureTruthFile.pictureName).path)
                let camera = simulator.configuration.camera
                let rows = sequence.frameTimes.map { t -> (timestamp: Timestamp, visible: Double, pose: SE3) in
                    let cameraFromPicture = (simulator.spline.pose(at: t.seconds) * camera.bodyFromSensor).inverse * worldFromPicture
                    let corners = [Vector3(-0.5, -0.5, 0), Vector3(0.5, -0.5, 0), Vector3(0.5, 0.5, 0), Vector3(-0.5, 0.5, 0)]
                        .map { cameraFromPicture * Vector3($0.x * size.x, $0.y * size.y, 0) }
                    return (t, ObjectSimulator.visibleFraction(of: corners, camera: camera.model), cameraFromPicture)
                }
                try PictureTruthFile.write(rows, size: size, to: output.url.appendingPathComponent(PictureTruthFile.fileName).path)
            }
            let points = simulator.scene.cornerPoints.map { "\($0.x) \($0.y) \($0.z)" }.joined(separator: "\n")
            try ("# x y z [m], world frame: ground-truth 3D corners of the simulated room (wall/floor/ceiling corners and texture tile seams)\n"
                 + points + "\n").write(to: output.url.appendingPathComponent("scene_points.txt"), atomically: true, encoding: .utf8)
            try SceneGeometryFile.write(simulator.scene, to: output.url.appendingPathComponent(SceneGeometryFile.fileName).path)
            let progress = ProgressDisplay(spanning: groundTruth.poses.map(\.timestamp))
            Interruption.install()
            let writer: any DatasetWriter = format == "euroc" ? try EuRoCFolderWriter(path: output.url.path) : try ParallaxFolderWriter(path: output.url.path)
            let count = try writer.write(streaming: sequence, groundTruth: groundTruth, progress: { progress?.update($0) },
                                         cancelled: { Interruption.requested })
            progress?.finish()
            try output.finish()
            // The trajectory may be shorter than asked for: say what was simulated.
            let span = groundTruth.poses.last.flatMap { l in groundTruth.poses.first.map { l.timestamp.seconds(since: $0.timestamp) } } ?? 0
            if span + 0.1 < seconds { FileHandle.standardError.write(Data("parallax: warning: the trajectory covers only \(String(format: "%.1f", span)) s of the \(String(format: "%.1f", seconds)) s asked for\n".utf8)) }
            print("simulated \(String(format: "%.1f", span)) s: \(count) packets, \(groundTruth.count) ground-truth poses → \(out)")
        } catch let code as ExitCode {
            throw code
        } catch {
            throw output.failed("\(error)")
        }
    }

    /// `--scene face`: landmarks of the canonical face moving in front of the camera, with
    /// ARKit-style pose and gaze ground truth, as a Parallax folder.
    func simulateFace() throws {
        var simulator: FaceSimulator
        do {
            var camera = try EuRoCSensorFile.loadCamera(path: cameraCalibration)
            camera.bodyFromSensor = .identity
            // The canonical face is compiled in (ParallaxFace); a file only when another is asked for.
            simulator = FaceSimulator(model: try faceModel.map { try FaceSimulator.loadOBJ(path: $0) } ?? CanonicalFace.vertices, camera: camera)
        } catch {
            throw fail("\(error)", code: ExitCodes.badInput)
        }
        if let landmarkNoise { simulator.pixelNoise = landmarkNoise }
        let output = try CommandOutput(out, command: "parallax simulate")
        let packets = simulator.packets(duration: seconds, seed: seed)
        do { try ParallaxFolderWriter.write(packets, streams: simulator.streams, to: output.url.path) } catch { throw output.failed("\(error)") }
        try output.finish()
        print("simulated \(String(format: "%.1f", seconds)) s of a face: \(packets.count / 2) landmark sets (\(simulator.model.count) points) with pose and gaze ground truth → \(out)")
    }

    /// `--scene object`: a textured object (the last texture) moving in front of a still camera
    /// in a room (the other textures; the first also covers the occluder of `--motion
    /// occlusion`), as an OTB sequence (`img/0001.png …`, `groundtruth_rect.txt` with `NaN`
    /// rows while the object is fully hidden), which Parallax and other trackers' toolkits read.
    func simulateObject() throws {
        var simulator: ObjectSimulator
        do {
            var camera = try EuRoCSensorFile.loadCamera(path: cameraCalibration)
            camera.bodyFromSensor = .identity
            let images = try textures.map { try ImageDecoder.decodeGray8(path: $0) }
            let background = TexturedScene.room(min: Vector3(-4, -4, 0), max: Vector3(6, 4, 3), textures: Array(images.dropLast().isEmpty ? images : images.dropLast()))
            guard let objectTexture = images.last else { throw InputError(description: "--textures: --scene object needs at least one texture") }
            simulator = ObjectSimulator(background: background, camera: camera, texture: objectTexture, motion: ObjectMotion(rawValue: motion) ?? .sweep,
                                        occluderTexture: images.count > 1 ? images.first : nil)
        } catch {
            throw fail("\(error)", code: ExitCodes.badInput)
        }
        simulator.pixelNoise = pixelNoise
        let output = try CommandOutput(out, command: "parallax simulate")
        let frames: [ObjectSimulator.Frame]
        do {
            frames = try simulator.frames(duration: seconds, seed: seed)
            try TrackingSequenceWriter.writeOTB(frames.map { ($0.image, $0.truthBox) }, to: output.url.path)
            // The object as a known picture (`image-track reference=DIR/picture.png width=0.4`),
            // its true pose per frame and the camera: what the `image-anchor` evaluation scores.
            // The texture as it is stretched over the object (0.4 × 0.3 m): resampled to that
            // aspect, so its height follows from its width as image-track assumes.
            let texture = GrayImage(simulator.texture)
            let pictureWidth = texture.width, pictureHeight = max(1, Int((Double(pictureWidth) * simulator.size.y / simulator.size.x).rounded()))
            let picture = texture.resized(width: pictureWidth, height: pictureHeight)
            try ImageEncoder.writePNG(ImageBuffer(width: pictureWidth, height: pictureHeight, samples: picture.pixels.map { UInt8(max(0, min(255, $0.rounded()))) }),
                                      to: output.url.appendingPathComponent(PictureTruthFile.pictureName).path)
            try PictureTruthFile.write(frames.map { ($0.timestamp, $0.visibleFraction, $0.pose) }, size: simulator.size,
                                       to: output.url.appendingPathComponent(PictureTruthFile.fileName).path)
            try EuRoCSensorFile.cameraYAML(simulator.camera).write(to: output.url.appendingPathComponent("sensor.yaml"), atomically: true, encoding: .utf8)
        } catch {
            throw output.failed("\(error)")
        }
        try output.finish()
        let hidden = frames.filter { $0.truthBox == nil }.count
        print("simulated \(String(format: "%.1f", seconds)) s of a moving object (\(motion)): \(frames.count) frames, \(frames.count - hidden) ground-truth boxes, \(hidden) frame(s) with the object hidden → \(out)")
    }
}

/// Bad simulation input found while preparing (reported once by the command, exit 2).
private struct InputError: Error, CustomStringConvertible {
    let description: String
}
