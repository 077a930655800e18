import Foundation
import Parallax

extension Scenario {
    /// What ``write(to:progress:cancelled:)`` simulated.
    public struct Written {
        /// The room scene (for the evaluations that score against its geometry); nil for the
        /// face and object scenes.
        public var scene: TexturedScene?
        /// One line saying what was simulated (`simulated 10.0 s: … ground-truth poses`).
        public var summary: String
        /// Said once (e.g. a trajectory shorter than asked for).
        public var warnings: [String] = []
    }

    /// A scenario's input that cannot be used (a file missing or unreadable, a trajectory too
    /// short): the user's input, reported before anything is written.
    public struct InputError: Error, CustomStringConvertible, BadInput {
        public let description: String
    }

    /// A scenario with its inputs read and its simulator built, ready to be written.
    public struct Prepared {
        enum Simulator {
            case room(SequenceSimulator, SimulatedSequenceSource, picture: (image: ImageBuffer<UInt8>, worldFromPicture: SE3, size: Vector2)?)
            case face(FaceSimulator)
            case object(ObjectSimulator)
        }
        public let scenario: Scenario
        let simulator: Simulator

        /// The times the room scene's ground truth spans (for a progress display); empty for
        /// the other scenes.
        public var groundTruthTimes: [Timestamp] {
            if case .room(_, let sequence, _) = simulator { return sequence.groundTruth.poses.map(\.timestamp) }
            return []
        }

        /// Simulates into `folder` (an empty folder, made if missing): rendered lazily, on worker
        /// threads, and written as it comes, so memory stays flat however long the sequence.
        /// The same scenario gives byte-identical folders. `progress` sees each timestamp
        /// written; `cancelled` stops the rendering early (the folder is then short, and whole).
        public func write(to folder: URL, progress: ((Timestamp) -> Void)? = nil, cancelled: () -> Bool = { false }) throws -> Written {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            switch simulator {
            case .room(let simulator, let sequence, let picture):
                return try scenario.writeRoom(simulator, sequence, picture: picture, to: folder, progress: progress, cancelled: cancelled)
            case .face(let simulator): return try scenario.writeFace(simulator, to: folder)
            case .object(let simulator): return try scenario.writeObject(simulator, to: folder)
            }
        }
    }

    /// Reads every input (camera and IMU files, trajectories, textures, pictures, a face mesh)
    /// and builds the simulator, before anything is written: an input that cannot be used is an
    /// ``InputError`` (bad input) naming it.
    public func prepare() throws -> Prepared {
        switch scene {
        case .room: return try prepareRoom()
        case .face: return try prepareFace()
        case .object: return try prepareObject()
        }
    }

    /// ``prepare()`` then ``Prepared/write(to:progress:cancelled:)``.
    public func write(to folder: URL, progress: ((Timestamp) -> Void)? = nil, cancelled: () -> Bool = { false }) throws -> Written {
        try prepare().write(to: folder, progress: progress, cancelled: cancelled)
    }

    /// Reads an input, or says which one could not be read.
    private func input<T>(_ read: () throws -> T) throws -> T {
        do { return try read() } catch let error as InputError { throw error } catch { throw InputError(description: "\(error)") }
    }

    /// Fastest camera the room scene renders (Hz).
    public static let maxCameraRateHz = 1000.0
    /// Fastest IMU the room scene simulates (Hz): MEMS IMUs sample at up to a few kHz.
    public static let maxIMURateHz = 10_000.0

    /// Widest span (m, per axis) of a trajectory the simulator follows or builds a room around:
    /// the room's tiles and corner points grow with its floor's area (2 km: 1.8 M tiles).
    public static let maxPathExtent = 2000.0

    /// `trajectory` when the simulator can follow it: times increasing, positions within
    /// ``maxPathExtent`` of each other; else the file and the time at fault.
    static func followable(_ trajectory: Trajectory, path: String) throws -> Trajectory {
        guard let start = trajectory.poses.first?.pose.translation else { return trajectory }
        var low = start, high = start
        for (previous, pose) in zip(trajectory.poses, trajectory.poses.dropFirst()) where pose.timestamp <= previous.timestamp {
            throw InputError(description: "\(path): the pose at t = \(pose.timestamp.decimalSeconds) s does not come after the one at t = \(previous.timestamp.decimalSeconds) s: "
                             + "a trajectory to simulate must have increasing times")
        }
        for pose in trajectory.poses {
            let p = pose.pose.translation
            low = Vector3(min(low.x, p.x), min(low.y, p.y), min(low.z, p.z))
            high = Vector3(max(high.x, p.x), max(high.y, p.y), max(high.z, p.z))
            let extent = high - low
            guard max(extent.x, extent.y, extent.z) <= maxPathExtent else {
                throw InputError(description: "\(path): the pose at t = \(pose.timestamp.decimalSeconds) s at (\(p.x), \(p.y), \(p.z)) m makes the path span "
                                 + "more than \(Int(maxPathExtent)) m: too wide to simulate a room around")
            }
        }
        return trajectory
    }

    /// The camera files, or the built-in rig's cam0 (EuRoC's intrinsics scaled to ``width``)
    /// when there are none.
    private func firstCamera() throws -> CameraCalibration? {
        try input { try cameras.first.map { try EuRoCSensorFile.loadCamera(path: $0) } }
    }

    /// The textures, decoded to 8-bit gray.
    private func textureImages() throws -> [ImageBuffer<UInt8>] {
        try input { try textures.map { try ImageDecoder.decodeGray8(path: $0) } }
    }

    private func prepareRoom() throws -> Prepared {
        let simulator: SequenceSimulator
        var hangingPicture: (image: ImageBuffer<UInt8>, worldFromPicture: SE3, size: Vector2)?
        do {
            let cameraFiles = try input { try cameras.map { try EuRoCSensorFile.loadCamera(path: $0) } }
            let following = try trajectory.map { path in
                let samples = try Self.followable(input { try TrajectoryFile.read(path: path) }, path: path)
                guard let spline = SE3Spline.following(samples, seconds: seconds) else {
                    throw InputError(description: "\(path): a trajectory to follow must span at least 0.3 s (it has \(samples.count) pose(s))")
                }
                return spline
            }
            let around = try roomAround.map { path in
                let samples = try Self.followable(input { try TrajectoryFile.read(path: path) }, path: path)
                guard let spline = SE3Spline.following(samples, seconds: .infinity) else {
                    throw InputError(description: "\(path): a room's trajectory must span at least 0.3 s (it has \(samples.count) pose(s))")
                }
                return spline
            }
            let images = try textureImages()
            var built = SimulationPresets.eurocOrbit(seconds: seconds, seed: seed, width: width, still: still, stereo: stereo, following: following,
                                                     cameras: cameraFiles, textures: images)
            // The built-in rig's orbit flies through its own 8 × 6 × 3.5 m room; cameras from
            // files, a trajectory to follow or a room's own path get a room around the path.
            var room = built.scene
            if around != nil || (!cameraFiles.isEmpty && following == nil) {
                room = SimulationPresets.room(around: around ?? built.spline, textures: SimulationPresets.surfaces(images, seed: seed))
            }
            if let picture {
                let image = try input { try ImageDecoder.decodeGray8(path: picture) }
                let hung = room.hangingPicture(image, width: pictureWidth, above: built.spline.pose(at: built.spline.validRange.lowerBound).translation)
                room = hung.scene
                hangingPicture = (image, hung.worldFromPicture, hung.size)
            }
            var configuration = built.configuration
            // The cameras' rate is the first file's (the built-in rig's 20 Hz without one).
            if let file = cameras.first, let rate = cameraFiles.first?.rateHz {
                guard rate <= Self.maxCameraRateHz else {
                    throw InputError(description: "\(file): rate_hz \(rate): the simulator renders cameras at up to \(Int(Self.maxCameraRateHz)) Hz")
                }
                configuration.cameraRateHz = rate
            }
            if depthRate > configuration.cameraRateHz {
                throw InputError(description: "the depth rate \(depthRate) Hz exceeds the camera's \(configuration.cameraRateHz) Hz: depth maps are rendered at camera frames")
            }
            if let imu {
                let calibration = try input { try EuRoCSensorFile.loadIMU(path: imu) }
                guard calibration.rateHz <= Self.maxIMURateHz else {
                    throw InputError(description: "\(imu): rate_hz \(calibration.rateHz): the simulator renders IMUs at up to \(Int(Self.maxIMURateHz)) Hz")
                }
                configuration.imu = IMUSimulator(noise: calibration.noise, rateHz: calibration.rateHz)
            }
            configuration.depthRateHz = depthRate
            configuration.pixelNoise = pixelNoise
            configuration.depthNoise = depthNoise.model
            configuration.cameraTimeOffset = cameraTimeOffset
            built = SequenceSimulator(spline: built.spline, scene: room, configuration: configuration)
            simulator = built
        }
        return Prepared(scenario: self, simulator: .room(simulator, try simulator.source(), picture: hangingPicture))
    }

    fileprivate func writeRoom(_ simulator: SequenceSimulator, _ sequence: SimulatedSequenceSource, picture hangingPicture: (image: ImageBuffer<UInt8>, worldFromPicture: SE3, size: Vector2)?,
                               to folder: URL, progress: ((Timestamp) -> Void)?, cancelled: () -> Bool) throws -> Written {
        let groundTruth = sequence.groundTruth
        if let (image, worldFromPicture, size) = hangingPicture {
            // The picture and where it is from the camera, every frame (image-anchor scores it).
            try ImageEncoder.writePNG(image, to: folder.appendingPathComponent(PictureTruthFile.pictureName).path)
            let camera = simulator.configuration.camera
            let rows = sequence.frameTimes.map { t -> (timestamp: Timestamp, visible: Double, pose: SE3) in
                // Stamped on the camera's clock, taken `cameraTimeOffset` earlier.
                let taken = t.seconds - simulator.configuration.cameraTimeOffset
                let cameraFromPicture = (simulator.spline.pose(at: taken) * camera.bodyFromSensor).inverse * worldFromPicture
                let corners = [Vector3(-0.5, -0.5, 0), Vector3(0.5, -0.5, 0), Vector3(0.5, 0.5, 0), Vector3(-0.5, 0.5, 0)]
                    .map { cameraFromPicture * Vector3($0.x * size.x, $0.y * size.y, 0) }
                return (t, ObjectSimulator.visibleFraction(of: corners, camera: camera.model), cameraFromPicture)
            }
            try PictureTruthFile.write(rows, size: size, to: folder.appendingPathComponent(PictureTruthFile.fileName).path)
        }
        let points = simulator.scene.cornerPoints.map { "\($0.x) \($0.y) \($0.z)" }.joined(separator: "\n")
        try ("# x y z [m], world frame: ground-truth 3D corners of the simulated room (wall/floor/ceiling corners and texture tile seams)\n"
             + points + "\n").write(to: folder.appendingPathComponent("scene_points.txt"), atomically: true, encoding: .utf8)
        try SceneGeometryFile.write(simulator.scene, to: folder.appendingPathComponent(SceneGeometryFile.fileName).path)
        let writer: any DatasetWriter = format == .euroc ? try EuRoCFolderWriter(path: folder.path) : try ParallaxFolderWriter(path: folder.path)
        let count = try writer.write(streaming: sequence, groundTruth: groundTruth, progress: { progress?($0) }, cancelled: cancelled)
        // The trajectory may be shorter than asked for: say what was simulated.
        let span = groundTruth.poses.last.flatMap { l in groundTruth.poses.first.map { l.timestamp.seconds(since: $0.timestamp) } } ?? 0
        var written = Written(scene: simulator.scene,
                              summary: "simulated \(String(format: "%.1f", span)) s: \(count) packets, \(groundTruth.count) ground-truth poses")
        if span + 0.1 < seconds, !cancelled() {
            written.warnings.append("the trajectory covers only \(String(format: "%.1f", span)) s of the \(String(format: "%.1f", seconds)) s asked for")
        }
        return written
    }

    /// Landmarks of the face moving in front of the camera (default: a 640 × 480 pinhole,
    /// f = 600 px, at the face's origin), with ARKit-style pose and gaze ground truth, as a
    /// Parallax folder (`face0/landmarks`, `face0/anchor`).
    private func prepareFace() throws -> Prepared {
        var calibration = try firstCamera()
            ?? CameraCalibration(model: CameraModel(width: 640, height: 480, intrinsics: PinholeIntrinsics(fx: 600, fy: 600, cx: 319.5, cy: 239.5)))
        calibration.bodyFromSensor = .identity
        // The canonical face is compiled in (ParallaxFace); a file only when another is asked for.
        let model = try input { try faceModel.map { try FaceSimulator.loadOBJ(path: $0) } } ?? CanonicalFace.vertices
        var simulator = FaceSimulator(model: model, camera: calibration)
        simulator.pixelNoise = landmarkNoise
        return Prepared(scenario: self, simulator: .face(simulator))
    }

    fileprivate func writeFace(_ simulator: FaceSimulator, to folder: URL) throws -> Written {
        let packets = simulator.packets(duration: seconds, seed: seed)
        try ParallaxFolderWriter.write(packets, streams: simulator.streams, to: folder.path)
        return Written(summary: "simulated \(String(format: "%.1f", seconds)) s of a face: \(packets.count / 2) landmark sets (\(simulator.model.count) points) with pose and gaze ground truth")
    }

    /// A textured object (the last texture) moving in front of a still camera in a room (the
    /// other textures; the first also covers the occluder of `motion: occlusion`), as an OTB
    /// sequence (`img/0001.png …`, `groundtruth_rect.txt` with `NaN` rows while the object is
    /// fully hidden), which Parallax and other trackers' toolkits read; with the object as a
    /// known picture (`picture.png`), its true pose per frame and the camera (`sensor.yaml`).
    private func prepareObject() throws -> Prepared {
        var camera = try firstCamera() ?? SimulationPresets.eurocCamera(width: width)
        camera.bodyFromSensor = .identity
        let images = try textureImages()
        let background = TexturedScene.room(min: Vector3(-4, -4, 0), max: Vector3(6, 4, 3), textures: Array(images.dropLast().isEmpty ? images : images.dropLast()))
        guard let objectTexture = images.last else { throw InputError(description: "textures: scene object needs at least one texture") }
        var simulator = ObjectSimulator(background: background, camera: camera, texture: objectTexture, motion: motion,
                                        occluderTexture: images.count > 1 ? images.first : nil)
        simulator.pixelNoise = pixelNoise
        return Prepared(scenario: self, simulator: .object(simulator))
    }

    fileprivate func writeObject(_ simulator: ObjectSimulator, to folder: URL) throws -> Written {
        let frames = try simulator.frames(duration: seconds, seed: seed)
        try TrackingSequenceWriter.writeOTB(frames.map { ($0.image, $0.truthBox) }, to: folder.path)
        // The object as a known picture (`image-track reference=@scene/picture.png width=0.4`),
        // its true pose per frame and the camera: what the `image-anchor` evaluation scores.
        // The texture as it is stretched over the object (0.4 × 0.3 m): resampled to that
        // aspect, so its height follows from its width as image-track assumes.
        let texture = GrayImage(simulator.texture)
        let pictureWidth = texture.width, pictureHeight = max(1, Int((Double(pictureWidth) * simulator.size.y / simulator.size.x).rounded()))
        let picture = texture.resized(width: pictureWidth, height: pictureHeight)
        try ImageEncoder.writePNG(ImageBuffer(width: pictureWidth, height: pictureHeight, samples: picture.pixels.map { UInt8(max(0, min(255, $0.rounded()))) }),
                                  to: folder.appendingPathComponent(PictureTruthFile.pictureName).path)
        try PictureTruthFile.write(frames.map { ($0.timestamp, $0.visibleFraction, $0.pose) }, size: simulator.size,
                                   to: folder.appendingPathComponent(PictureTruthFile.fileName).path)
        try EuRoCSensorFile.cameraYAML(simulator.camera).write(to: folder.appendingPathComponent("sensor.yaml"), atomically: true, encoding: .utf8)
        let hidden = frames.filter { $0.truthBox == nil }.count
        return Written(summary: "simulated \(String(format: "%.1f", seconds)) s of a moving object (\(motion.rawValue)): \(frames.count) frames, \(frames.count - hidden) ground-truth boxes, \(hidden) frame(s) with the object hidden")
    }
}
