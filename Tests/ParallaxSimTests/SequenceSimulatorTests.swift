import Foundation
import Testing
import TestSupport
import ParallaxBus
import ParallaxPayloads
import ParallaxCodecs
import ParallaxDatasets
import ParallaxOutputs
import ParallaxGeometry
import ParallaxMath
@testable import ParallaxSim

@Suite struct SequenceSimulatorTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A small EuRoC-like camera (1/8 resolution, same distortion) looking forward from the body.
    static var camera: CameraCalibration {
        var cal = try! EuRoCSensorFile.loadCamera(path: root.appendingPathComponent("datasets/euroc_v1_01_cut/mav0/cam0/sensor.yaml").path)
        let k = cal.model.intrinsics
        cal.model = CameraModel(width: 94, height: 60, intrinsics: PinholeIntrinsics(fx: k.fx / 8, fy: k.fy / 8, cx: k.cx / 8, cy: k.cy / 8),
                                distortion: cal.model.distortion)
        return cal
    }

    static func scene() throws -> TexturedScene {
        let texture = try ImageDecoder.decodeGray8(path: root.appendingPathComponent("datasets/tum_rgbd_frame/rgb/1341847980.722988.png").path)
        return TexturedScene.room(min: Vector3(-4, -3, 0), max: Vector3(4, 3, 3.5), textures: [texture])
    }

    func simulate(seed: UInt64, into folder: URL) throws {
        var config = SequenceSimulator.Configuration(camera: Self.camera, imu: IMUSimulator(noise: SimulationFixtures.euroc, rateHz: 200))
        config.duration = 1
        config.seed = seed
        let simulator = SequenceSimulator(spline: try SimulationFixtures.parametricSpline(), scene: try Self.scene(), configuration: config)
        let (packets, gt) = try simulator.packets()
        try ParallaxFolderWriter.write(packets, streams: simulator.streams, groundTruth: gt, to: folder.path)
    }

    func contents(_ folder: URL) throws -> [String: Data] {
        let files = FileManager.default.enumerator(atPath: folder.path)!.compactMap { $0 as? String }
        return try Dictionary(uniqueKeysWithValues: files.filter { !$0.hasSuffix("/") }.compactMap { f -> (String, Data)? in
            var isDir: ObjCBool = false
            FileManager.default.fileExists(atPath: folder.appendingPathComponent(f).path, isDirectory: &isDir)
            return isDir.boolValue ? nil : (f, try Data(contentsOf: folder.appendingPathComponent(f)))
        })
    }

    @Test func sameSeedWritesByteIdenticalFolders() throws {
        let a = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-sim-a-\(UUID())")
        let b = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-sim-b-\(UUID())")
        defer { try? FileManager.default.removeItem(at: a); try? FileManager.default.removeItem(at: b) }
        try simulate(seed: 5, into: a)
        try simulate(seed: 5, into: b)
        let ca = try contents(a), cb = try contents(b)
        // 21 frames (20 Hz over 1 s) + 6 depth maps (5 Hz) + 3 data.csv + 3 sensor.yaml (cam0, imu0, depth0)
        // + groundtruth.csv + parallax.yaml
        #expect(ca.count == 21 + 6 + 3 + 3 + 1 + 1)
        #expect(ca == cb)
        // And the folder reads back with every stream.
        let source = try ParallaxFolderSource(path: a.path)
        #expect(source.streams.map(\.name) == ["imu0", "cam0", "depth0", "groundtruth"])
        // The sensors' descriptions come back as stream metadata.
        #expect(source.streams[0].metadata.imu == IMUCalibration(rateHz: 200, noise: SimulationFixtures.euroc))
        #expect(source.streams[1].metadata.camera?.model == Self.camera.model)
        #expect(source.streams[2].metadata.depth?.camera?.model == Self.camera.model)
        #expect(source.groundTruth?.count == 201)
    }

    @Test func theLazySourceRendersTheSameFramesOnWorkerThreads() throws {
        var config = SequenceSimulator.Configuration(camera: Self.camera, imu: IMUSimulator(noise: SimulationFixtures.euroc, rateHz: 200))
        config.duration = 0.5
        config.seed = 11
        var right = Self.camera
        right.bodyFromSensor = right.bodyFromSensor * SE3(translation: Vector3(0.11, 0, 0))
        config.stereoCamera = right
        let simulator = SequenceSimulator(spline: try SimulationFixtures.parametricSpline(), scene: try Self.scene(), configuration: config)
        let (inMemory, gt) = try simulator.packets()
        let source = try simulator.source()
        #expect(source.packetCount == inMemory.count && source.groundTruth == gt)
        let prefetched = PrefetchingSource(source, workers: 2, capacity: 8)
        var lazy: [AnyPacket] = []
        while let p = try prefetched.next() { lazy.append(p) }
        #expect(lazy.count == inMemory.count)
        for (a, b) in zip(lazy, inMemory) {
            #expect(a.stream == b.stream && a.timestamp == b.timestamp)
            if let x = a.payload as? CameraFrame, let y = b.payload as? CameraFrame { #expect(x.image == y.image) }
            if let x = a.payload as? IMUSample, let y = b.payload as? IMUSample { #expect(x == y) }
        }
        // Stable order at equal times: IMU, cam0, cam1, depth0; every stream's times increase.
        #expect(Array(lazy.prefix(4).map(\.stream)) == ["imu0", "cam0", "cam1", "depth0"])
        for stream in ["imu0", "cam0", "cam1", "depth0"] {
            let t = lazy.filter { $0.stream == stream }.map(\.timestamp)
            #expect(zip(t, t.dropFirst()).allSatisfy { $0 < $1 }, "\(stream)")
        }
    }

    @Test func renderedDepthLiesExactlyOnTheSceneSurfaces() throws {
        let scene = try Self.scene()
        let camera = Self.camera.model
        let bearings = try TexturedScene.bearings(for: camera)
        let pose = SE3(rotation: .exp(Vector3(0.3, -1.2, 0.4)), translation: Vector3(0.5, -0.7, 1.4))
        let (image, depth) = scene.render(camera: camera, bearings: bearings, worldFromCamera: pose)
        #expect(image.samples.contains { $0 > 0 })
        var checked = 0
        for k in stride(from: 0, to: bearings.count, by: 7) {
            let d = Double(depth.samples[k])
            #expect(!d.isNaN, "a closed room leaves no pixel without depth")
            // Back-project with the rendered depth and find the surface it must lie on.
            let point = pose * (bearings[k] * (d / bearings[k].z))
            let onSurface = scene.rectangles.contains { r in
                let n = r.normal
                let x = point - r.origin
                let a = x.dot(r.edgeU) / r.edgeU.squaredNorm, b = x.dot(r.edgeV) / r.edgeV.squaredNorm
                return abs(n.dot(x)) < 1e-5 && a > -1e-6 && a < 1 + 1e-6 && b > -1e-6 && b < 1 + 1e-6
            }
            #expect(onSurface, "pixel \(k): depth \(d) m back-projects off every surface")
            checked += 1
        }
        #expect(checked > 700)
        // Float32 depth: the residual is float rounding (~1e-7 relative), so 1e-5 m at a few metres.
    }

    @Test func cornerPointsAreTheRoomCornersAndTileGrid() throws {
        let texture = ImageBuffer<UInt8>(width: 2, height: 2, repeating: 9)
        let room = TexturedScene.room(min: Vector3(0, 0, 0), max: Vector3(3, 3, 3), textures: [texture], tileSize: 1.5)
        let points = room.cornerPoints
        // A 3 m cube tiled 2×2 per face: a 3×3×3 grid on the surface = 27 − 1 interior point.
        #expect(points.count == 26)
        #expect(points.contains(Vector3(0, 0, 0)) && points.contains(Vector3(3, 3, 3)) && points.contains(Vector3(1.5, 0, 3)))
        #expect(points.allSatisfy { p in [p.x, p.y, p.z].contains { $0 == 0 || $0 == 3 } })
    }

    @Test(.enabled(if: RepositoryPaths.hasSharedData("trajectories/tumvi_room1/dataset-room1_512_16_gt.csv"), "../shared/data/trajectories/tumvi_room1/dataset-room1_512_16_gt.csv is not present on this machine"))
    func tumVIRoom1SequenceHasTheRequestedIMUNoise() throws {
        let path = RepositoryPaths.sharedData("trajectories/tumvi_room1/dataset-room1_512_16_gt.csv").path
        let gt = try TrajectoryFile.read(path: path, format: .euroc)
        let spline = SE3Spline.fit(gt, interval: 0.05, duration: 130)
        #expect(spline.validRange.upperBound - spline.validRange.lowerBound > 120)
        let noisy = IMUSimulator(noise: SimulationFixtures.euroc, rateHz: 200)
        let t0 = spline.validRange.lowerBound
        let measured = noisy.simulate(spline, from: t0, duration: 120, seed: 11)
        let ideal = IMUSimulator.ideal(rateHz: 200).simulate(spline, from: t0, duration: 120, seed: 11)
        // Sensor error = measured − ideal (same clock); its Allan deviation at τ = 1 s is the white
        // noise density plus the bias walk's σ_b·√(1/3).
        let gyroError = zip(measured, ideal).map { $0.measurement.gyroscope.z - $1.measurement.gyroscope.z }
        let accelError = zip(measured, ideal).map { $0.measurement.accelerometer.x - $1.measurement.accelerometer.x }
        let n = SimulationFixtures.euroc
        let gyroExpected = (n.gyroscopeNoiseDensity * n.gyroscopeNoiseDensity + n.gyroscopeRandomWalk * n.gyroscopeRandomWalk / 3).squareRoot()
        let accelExpected = (n.accelerometerNoiseDensity * n.accelerometerNoiseDensity + n.accelerometerRandomWalk * n.accelerometerRandomWalk / 3).squareRoot()
        #expect(abs(AllanDeviation.overlapping(gyroError, clusterSize: 200) / gyroExpected - 1) < 0.15)
        #expect(abs(AllanDeviation.overlapping(accelError, clusterSize: 200) / accelExpected - 1) < 0.15)
    }
}

@Suite struct StereoSimulationTests {
    @Test func stereoPairRendersBothCamerasAtTheSameTimes() throws {
        var config = SequenceSimulator.Configuration(camera: SequenceSimulatorTests.camera, imu: IMUSimulator.ideal(rateHz: 200))
        var right = SequenceSimulatorTests.camera
        right.bodyFromSensor = right.bodyFromSensor * SE3(translation: Vector3(0.11, 0, 0))
        config.stereoCamera = right
        config.duration = 0.2
        config.depthRateHz = 0
        let simulator = SequenceSimulator(spline: try SimulationFixtures.parametricSpline(), scene: try SequenceSimulatorTests.scene(), configuration: config)
        let (packets, _) = try simulator.packets()
        let left = packets.filter { $0.stream == "cam0" }.map(\.timestamp), rightStamps = packets.filter { $0.stream == "cam1" }.map(\.timestamp)
        #expect(left.count == 5 && left == rightStamps)
        let a = packets.first { $0.stream == "cam0" }!.payload as! CameraFrame
        let b = packets.first { $0.stream == "cam1" }!.payload as! CameraFrame
        #expect(a.image != b.image)  // a different viewpoint
        let metadata = Dictionary(uniqueKeysWithValues: simulator.streams.map { ($0.name, $0.metadata) })
        #expect(metadata["cam1"]?.camera?.bodyFromSensor == right.bodyFromSensor)
        #expect(metadata["cam0"]?.stereo?.stream == "cam1")
        let expected = right.bodyFromSensor.inverse * SequenceSimulatorTests.camera.bodyFromSensor
        #expect(metadata["cam0"]?.stereo?.partnerFromThis == expected)
    }
}

@Suite struct CameraTimeOffsetSimulationTests {
    func packets(offset: Double) throws -> [AnyPacket] {
        var config = SequenceSimulator.Configuration(camera: SequenceSimulatorTests.camera, imu: IMUSimulator.ideal(rateHz: 200))
        config.duration = 0.3
        config.depthRateHz = 5
        config.cameraTimeOffset = offset
        let simulator = SequenceSimulator(spline: try SimulationFixtures.parametricSpline(), scene: try SequenceSimulatorTests.scene(), configuration: config)
        return try simulator.packets().packets
    }

    /// A late camera stamps the frame it took at `t` with `t + offset`: the same images (and depth
    /// maps) as the synchronized camera's, each later by exactly the offset; the IMU is untouched,
    /// and the packets stay in time order around the shifted frames.
    @Test(arguments: [0.01, -0.0125])
    func framesAreTheSynchronizedOnesStampedLater(offset: Double) throws {
        let synchronized = try packets(offset: 0), late = try packets(offset: offset)
        for stream in ["cam0", "depth0"] {
            let a = synchronized.filter { $0.stream == stream }, b = late.filter { $0.stream == stream }
            #expect(a.count == b.count && !a.isEmpty, "\(stream)")
            for (x, y) in zip(a, b) {
                #expect(y.timestamp.nanoseconds - x.timestamp.nanoseconds == Int64((offset * 1e9).rounded()), "\(stream)")
                if let i = x.payload as? CameraFrame, let j = y.payload as? CameraFrame { #expect(i.image == j.image) }
                if let i = x.payload as? DepthMap, let j = y.payload as? DepthMap { #expect(i.values == j.values) }
            }
        }
        let imuA = synchronized.filter { $0.stream == "imu0" }, imuB = late.filter { $0.stream == "imu0" }
        #expect(imuA.map(\.timestamp) == imuB.map(\.timestamp))
        let stamps = late.map(\.timestamp)
        #expect(zip(stamps, stamps.dropFirst()).allSatisfy { $0 <= $1 })
    }
}
