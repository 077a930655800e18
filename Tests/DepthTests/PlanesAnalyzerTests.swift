import Foundation
import Testing
import Parallax
import ParallaxTesting

@Suite struct PlanesAnalyzerTests {
    static func planes(_ depth: DepthMap, metadata: StreamMetadata, options: PlanesAnalyzer.Options = .init()) throws -> [PlaneAnchor] {
        var h = AnalyzerHarness { try PlanesAnalyzer(options: options) }
        h.describe(TUMFrame.depthKey, as: metadata)
        h.push(depth, on: TUMFrame.depthKey, at: Timestamp(nanoseconds: 1))
        let result = try h.run()
        #expect(result.failure == nil)
        return try #require(result.packets(on: "depth/planes", as: DetectedPlanes.self).first).payload.planes
    }

    /// The real TUM frame: the floor, the desk top parallel to it and 0.6–0.7 m above it, and the
    /// partition wall behind the desk perpendicular to both.
    @Test func theTUMFrameHasAFloorADeskAndAWall() throws {
        let tum = try TUMFrame.load()
        let planes = try Self.planes(tum.depth, metadata: tum.depthMetadata)
        #expect(planes.count >= 3)
        let floor = planes[0]  // the largest
        let desk = try #require(planes.first { $0.id != floor.id && Self.degrees($0, floor) < 3 })
        let wall = try #require(planes.first { abs(Self.degrees($0, floor) - 90) < 5 && $0.area > 0.5 })
        #expect(floor.area > 3 && desk.area > 1.5)
        let deskHeight = floor.offset - desk.offset  // both normals face the camera, up
        #expect(deskHeight > 0.6 && deskHeight < 0.7)
        #expect(abs(Self.degrees(wall, desk) - 90) < 5)
        #expect(floor.rms < 0.02 && desk.rms < 0.02 && wall.rms < 0.02)
        #expect(planes.allSatisfy { $0.alignment == .unknown && $0.classification == .none && $0.tiltDegrees == nil })
    }

    /// With up known, the planes are classified: floor, table, wall. The frame has no IMU: up
    /// is the floor normal `planes` itself finds (so the floor is horizontal by construction);
    /// what this checks is that the desk and the wall, measured independently, come out within
    /// the 10° tolerances of horizontal and vertical and are classified table and wall.
    @Test func upGivesAlignmentAndClass() throws {
        let tum = try TUMFrame.load()
        var options = PlanesAnalyzer.Options()
        options.up = [0.007, -0.877, -0.48]
        let planes = try Self.planes(tum.depth, metadata: tum.depthMetadata, options: options)
        #expect(planes.first?.classification == .floor && planes.first?.alignment == .horizontal)
        #expect(planes.contains { $0.classification == .table })
        #expect(planes.contains { $0.classification == .wall && $0.alignment == .vertical })
    }

    @Test func badOptionsAndBadMapsSayWhat() throws {
        var options = PlanesAnalyzer.Options()
        options.up = [0, 0]
        #expect { _ = try PlanesAnalyzer(options: options) } throws: { "\($0)".contains("option 'up'") }
        options.up = [0, 0, 0]
        #expect { _ = try PlanesAnalyzer(options: options) } throws: { "\($0)".contains("not all zero") }
        let tum = try TUMFrame.load()
        let none = try Self.planes(DepthMap(sensorID: "depth", kind: .depth, values: ImageBuffer(width: 640, height: 480, repeating: Float.nan)), metadata: tum.depthMetadata)
        #expect(none.isEmpty)
    }

    static func degrees(_ a: PlaneAnchor, _ b: PlaneAnchor) -> Double {
        acos(min(1, abs(a.normal.dot(b.normal)))) * 180 / .pi
    }
}

/// A simulated room (EuRoC's orbit, exact depth plus Kinect noise) with ground-truth poses:
/// the planes must be the room's, and keep their ids.
@Suite struct SimulatedPlanesTests {
    @Test func theRoomsPlanesWithinADegreeAndACentimetreWithStableIds() throws {
        let orbit = SimulationPresets.eurocOrbit(seconds: 3, seed: 2, width: 376, textures: [])
        var configuration = orbit.configuration
        configuration.depthRateHz = 5
        configuration.depthNoise = .kinect
        configuration.cameraRateHz = 5
        let simulator = SequenceSimulator(spline: orbit.spline, scene: orbit.scene, configuration: configuration)
        let (packets, truth) = try simulator.packets()
        var options = PlanesAnalyzer.Options()
        options.depth = "depth0"
        options.poses = "groundtruth"
        options.detector.minPoints = 150
        var h = AnalyzerHarness { try PlanesAnalyzer(options: options) }
        let depthKey = StreamKey<DepthMap>("depth0"), poseKey = StreamKey<Pose>("groundtruth")
        h.describe(depthKey, as: try #require(simulator.streams.first { $0.name == "depth0" }).metadata)
        for p in packets where p.stream == "depth0" {
            let map = try #require(p.payload as? DepthMap)
            let pose = try #require(truth.poses.first { $0.timestamp == p.timestamp })
            h.push(Pose(worldFromBody: pose.pose), on: poseKey, at: p.timestamp)
            h.push(map, on: depthKey, at: p.timestamp)
        }
        let result = try h.run()
        #expect(result.failure == nil)
        let frames = result.packets(on: "depth0/planes", as: DetectedPlanes.self)
        #expect(frames.count == 16)  // 0, 0.2, …, 3 s
        let room = simulator.scene.rectangles.map { r in Plane(normal: r.normal, offset: -r.normal.dot(r.origin)) }
        var truthOfID: [UInt64: Int] = [:]
        var seen = 0
        for frame in frames {
            #expect(frame.payload.frame == "world")
            for anchor in frame.payload.planes {
                let plane = Plane(normal: anchor.normal, offset: anchor.offset)
                // The room's plane it is: the nearest in angle plus distance from its centre.
                func mismatch(_ r: Plane) -> Double { plane.angle(to: r) + abs(r.distance(to: anchor.center)) }
                let k = try #require(room.indices.min { mismatch(room[$0]) < mismatch(room[$1]) })
                let truthPlane = room[k].normal.dot(plane.normal) >= 0 ? room[k] : Plane(normal: -room[k].normal, offset: -room[k].offset)
                #expect(plane.angle(to: truthPlane) * 180 / .pi < 1, "plane \(anchor.id) at \(frame.timestamp): normal off by \(plane.angle(to: truthPlane) * 180 / .pi)°")
                #expect(abs(plane.offset - truthPlane.offset) < 0.01, "plane \(anchor.id) at \(frame.timestamp): offset off by \(plane.offset - truthPlane.offset) m")
                // One id, one wall; one wall, one id.
                #expect(truthOfID[anchor.id, default: k] == k)
                truthOfID[anchor.id] = k
                seen += 1
            }
        }
        #expect(Set(truthOfID.values).count == truthOfID.count)
        #expect(truthOfID.count >= 3 && seen >= 30)
        // Floor and ceiling horizontal (world z up), walls vertical.
        for frame in frames {
            for anchor in frame.payload.planes {
                #expect(anchor.alignment == (abs(anchor.normal.z) > 0.9 ? .horizontal : .vertical))
            }
        }
    }
}

@Suite struct PlanesGravityTests {
    /// Up from an IMU: its mean specific force between depth maps (still: straight up), through
    /// the IMU's and the camera's places on the body. The IMU reads the floor normal `planes`
    /// finds, expressed in an IMU turned 90° on the body: only when that turn is undone does the
    /// floor come out horizontal (ignoring it would tilt up by 77° from the floor normal).
    @Test func upFromTheIMUClassifiesTheTUMFramesPlanes() throws {
        let tum = try TUMFrame.load()
        var options = PlanesAnalyzer.Options()
        options.imu = "imu0"
        var h = AnalyzerHarness { try PlanesAnalyzer(options: options) }
        h.describe(TUMFrame.depthKey, as: tum.depthMetadata)
        // The IMU is turned 90° about z on the body: its reading is rotated back.
        let bodyFromIMU = SO3.exp(Vector3(0, 0, .pi / 2))
        let imuKey = StreamKey<IMUSample>("imu0")
        h.describe(imuKey, as: StreamMetadata(imu: IMUCalibration(bodyFromSensor: SE3(rotation: bodyFromIMU, translation: .zero), rateHz: 200,
                                                                  noise: IMUNoiseModel(gyroscopeNoiseDensity: 1e-4, gyroscopeRandomWalk: 1e-5, accelerometerNoiseDensity: 1e-3, accelerometerRandomWalk: 1e-4))))
        let upCamera = Vector3(0.007, -0.877, -0.48).normalized
        let reading = bodyFromIMU.inverse * (9.81 * upCamera)
        for k in 1...5 {
            h.push(IMUSample(gyroscope: .zero, accelerometer: reading), on: imuKey, at: Timestamp(nanoseconds: tum.time.nanoseconds - Int64(k) * 5_000_000))
        }
        h.push(tum.depth, on: TUMFrame.depthKey, at: tum.time)
        let result = try h.run()
        #expect(result.failure == nil)
        let planes = try #require(result.packets(on: "depth/planes", as: DetectedPlanes.self).first).payload.planes
        #expect(planes.first?.classification == .floor)
        #expect(planes.contains { $0.classification == .table } && planes.contains { $0.classification == .wall })
        #expect(planes.allSatisfy { ($0.tiltDegrees ?? -1) >= 0 })
    }
}
