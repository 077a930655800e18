import Foundation
import Testing
import ParallaxGeometry
import ParallaxMath
import ParallaxVision

@Suite struct PlaneDetectorTests {
    static let camera = CameraModel(width: 320, height: 240, intrinsics: PinholeIntrinsics(fx: 260, fy: 260, cx: 159.5, cy: 119.5))

    /// The organized cloud of `camera` looking at the nearest of `planes` along each pixel's ray
    /// (planes in the camera frame), with Gaussian depth noise of σ(z) and `holes` pixels invalid.
    static func cloud(_ planes: [Plane], noise: DepthNoise = .kinect, seed: UInt64 = 1, holes: (Int) -> Bool = { _ in false }) -> [SIMD3<Float>] {
        var rng = SeededGenerator(seed: seed)
        func gaussian() -> Double {
            let u = max(1e-12, Double(rng.next() % 1_000_000) / 1_000_000), v = Double(rng.next() % 1_000_000) / 1_000_000
            return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
        }
        let rays = DepthRays(camera: camera)
        return (0..<(camera.width * camera.height)).map { i -> SIMD3<Float> in
            let r = rays.rays[i], d = Vector3(Double(r.x), Double(r.y), 1)
            var best = Double.infinity
            for p in planes {
                let denom = p.normal.dot(d)
                guard abs(denom) > 1e-9 else { continue }
                let z = -p.offset / denom
                if z > 0.1, z < best { best = z }
            }
            guard best.isFinite, !holes(i) else { return SIMD3(.nan, .nan, .nan) }
            let z = best + noise.sigma(best) * gaussian()
            return rays.point(at: i, depth: Float(z)) ?? SIMD3(.nan, .nan, .nan)
        }
    }

    /// A floor 1.4 m below a camera pitched 30° down, and a wall 3 m ahead.
    static let floor = Plane(normal: Vector3(0, -cos(.pi / 6), -sin(.pi / 6)), offset: 1.4).facing(.zero)
    static let wall = Plane(normal: Vector3(0, 0, -1), offset: 3).facing(.zero)

    @Test func findsTheFloorAndTheWallUnderKinectNoise() throws {
        let points = Self.cloud([Self.floor, Self.wall])
        let found = PlaneDetector().detect(points: points, width: Self.camera.width, height: Self.camera.height)
        #expect(found.count == 2)
        let floor = try #require(found.first { $0.plane.angle(to: Self.floor) < 0.1 })
        let wall = try #require(found.first { $0.plane.angle(to: Self.wall) < 0.1 })
        #expect(floor.plane.angle(to: Self.floor) * 180 / .pi < 0.5)
        #expect(wall.plane.angle(to: Self.wall) * 180 / .pi < 0.5)
        #expect(abs(floor.plane.offset - Self.floor.offset) < 0.01 && abs(wall.plane.offset - Self.wall.offset) < 0.02)
        // Normals face the camera: the origin is on the positive side.
        #expect(floor.plane.distance(to: .zero) > 0 && wall.plane.distance(to: .zero) > 0)
        #expect(abs(floor.plane.angle(to: wall.plane) * 180 / .pi - 60) < 0.7)
    }

    @Test func exactDepthGivesTheExactPlanes() throws {
        var settings = PlaneDetector.Settings()
        settings.noise = .exact
        let found = PlaneDetector(settings: settings).detect(points: Self.cloud([Self.floor, Self.wall], noise: .none), width: Self.camera.width, height: Self.camera.height)
        #expect(found.count == 2)
        for d in found {
            let truth = d.plane.angle(to: Self.floor) < d.plane.angle(to: Self.wall) ? Self.floor : Self.wall
            #expect(d.plane.angle(to: truth) < 1e-4 && abs(d.plane.offset - truth.offset) < 1e-4)
            #expect(d.rms < 1e-4)
        }
    }

    @Test func aFloorCutInTwoByAnObstacleIsOnePlane() {
        // A wide vertical band of the floor is invalid (an obstacle's shadow): two regions.
        let points = Self.cloud([Self.floor], holes: { i in (140..<180).contains(i % 320) })
        let found = PlaneDetector().detect(points: points, width: Self.camera.width, height: Self.camera.height)
        #expect(found.count == 1)
        let columns = Set(found.first?.pixels.map { $0 % 320 } ?? [])
        #expect(columns.contains { $0 < 140 } && columns.contains { $0 >= 180 })
    }

    @Test func nothingValidOrTooSmallFindsNothing() {
        let nan = [SIMD3<Float>](repeating: SIMD3(.nan, .nan, .nan), count: 320 * 240)
        #expect(PlaneDetector().detect(points: nan, width: 320, height: 240).isEmpty)
        #expect(PlaneDetector().detect(points: [], width: 320, height: 240).isEmpty)
        let infinite = [SIMD3<Float>](repeating: SIMD3(.infinity, 1, .infinity), count: 320 * 240)
        #expect(PlaneDetector().detect(points: infinite, width: 320, height: 240).isEmpty)
    }

    @Test func theSameCloudGivesTheSamePlanesBitForBit() {
        let points = Self.cloud([Self.floor, Self.wall])
        let a = PlaneDetector().detect(points: points, width: 320, height: 240)
        let b = PlaneDetector().detect(points: points, width: 320, height: 240)
        #expect(a == b)
    }
}

@Suite struct PlaneTests {
    @Test func aWeightedFitThroughLAPACKRecoversAPlaneAndItsAxes() throws {
        let truth = Plane(normal: Vector3(1, 2, 2), offset: -3)
        // A 4 × 1 m rectangle on the plane.
        let u = Vector3(2, -1, 0).normalized, v = truth.normal.cross(u), origin = -truth.offset * truth.normal
        let points = (0..<200).map { (k: Int) -> Vector3 in
            let a: Vector3 = Double(k % 20) * 0.2 * u
            let b: Vector3 = Double(k / 20) * 0.1 * v
            return origin + a + b
        }
        let fit = try #require(Plane.fit(points))
        #expect(fit.plane.angle(to: truth) < 1e-9 && abs(abs(fit.plane.offset) - 1) < 1e-9)  // (1,2,2)/3 · p − 1 = 0
        #expect(abs(abs(fit.major.dot(u)) - 1) < 1e-9)
        #expect(fit.eigenvalues[0] < 1e-12)
        #expect(Plane.fit(Array(points.prefix(2))) == nil)
        #expect(Plane(through: Vector3(0, 0, 0), Vector3(1, 1, 1), Vector3(2, 2, 2)) == nil)
    }

    @Test func anOutlineHasTheExtentBoundaryAndAreaOfItsPoints() throws {
        let plane = Plane(normal: Vector3(0, 0, 1), offset: -1)
        let points = (0...40).flatMap { i in (0...10).map { j in Vector3(Double(i) * 0.05, Double(j) * 0.05, 1) } }
        let outline = try #require(PlaneOutline(points: points, plane: plane))
        #expect(abs(outline.width - 2) < 1e-9 && abs(outline.length - 0.5) < 1e-9)
        #expect(abs(outline.area - 1) < 1e-9)
        #expect(outline.boundary.count == 4)
        #expect(abs(outline.centroid.x - 1) < 1e-9 && abs(outline.centroid.z - 1) < 1e-9)
    }
}

@Suite struct PlaneFrameTests {
    /// A moved plane holds the moved points; a frame's coordinates go to the plane and back.
    @Test func movedPlanesAndInPlaneCoordinates() throws {
        let plane = try #require(Plane(through: Vector3(1, 0, 2), Vector3(0, 1, 2.5), Vector3(-1, 0.3, 1.7)))
        let transform = SE3(rotation: SO3.exp(Vector3(0.3, -0.2, 0.9)), translation: Vector3(0.5, -2, 1))
        let moved = plane.moved(by: transform)
        for p in [Vector3(1, 0, 2), Vector3(0, 1, 2.5), Vector3(-1, 0.3, 1.7)] { #expect(abs(moved.distance(to: transform * p)) < 1e-12) }
        let frame = PlaneFrame(plane, origin: Vector3(3, 3, 3), along: Vector3(1, 1, 0))
        #expect(abs(plane.distance(to: frame.origin)) < 1e-12)
        #expect(abs(frame.u.norm - 1) < 1e-12 && abs(frame.u.dot(plane.normal)) < 1e-12 && (frame.v - plane.normal.cross(frame.u)).norm < 1e-12)
        let q = Vector2(0.7, -1.3)
        #expect(abs(plane.distance(to: frame.point(q))) < 1e-12 && (frame.flat(frame.point(q)) - q).norm < 1e-12)
        // An axis along the normal still gives a frame.
        #expect(abs(PlaneFrame(plane, along: plane.normal).u.norm - 1) < 1e-12)
    }
}

@Suite struct ConvexHullTests {
    @Test func cornersCounterClockwiseWithoutInnerOrCollinearPoints() {
        let square = [Vector2(0, 0), Vector2(2, 0), Vector2(2, 2), Vector2(0, 2), Vector2(1, 1), Vector2(1, 0), Vector2(2, 2)]
        let hull = ConvexHull.of(square)
        #expect(hull == [Vector2(0, 0), Vector2(2, 0), Vector2(2, 2), Vector2(0, 2)])
        #expect(ConvexHull.area(hull) == 4)
        #expect(ConvexHull.of([Vector2(1, 1), Vector2(1, 1)]) == [Vector2(1, 1)])
        #expect(ConvexHull.of([Vector2(.nan, 0), Vector2(0, 0), Vector2(1, 0), Vector2(0, 1)]).count == 3)
    }
}

@Suite struct VoxelGridTests {
    @Test func pointsInOneVoxelBecomeTheirCentroidInFirstSeenOrder() {
        let points: [SIMD3<Float>] = [SIMD3(0.01, 0.01, 0.01), SIMD3(0.5, 0.5, 0.5), SIMD3(0.03, 0.05, 0.07), SIMD3(.nan, 0, 0)]
        let colors: [SIMD3<UInt8>] = [SIMD3(10, 20, 30), SIMD3(1, 1, 1), SIMD3(20, 40, 60), SIMD3(9, 9, 9)]
        let out = VoxelGrid(size: 0.1).downsample(points, colors: colors)
        #expect(out.points.count == 2)
        #expect(abs(out.points[0].x - 0.02) < 1e-6 && abs(out.points[0].z - 0.04) < 1e-6)
        #expect(out.points[1] == SIMD3(0.5, 0.5, 0.5))
        #expect(out.colors == [SIMD3(15, 30, 45), SIMD3(1, 1, 1)])
        #expect(VoxelGrid(size: 0).downsample(points).points.count == 4)
    }
}

@Suite struct DepthRaysTests {
    @Test func backProjectionUndoesTheLensDistortion() throws {
        let camera = CameraModel(width: 64, height: 48, intrinsics: PinholeIntrinsics(fx: 50, fy: 52, cx: 31.5, cy: 23.5),
                                 distortion: .radialTangential(k1: -0.28, k2: 0.07, p1: 0.0002, p2: 0.00002))
        let rays = DepthRays(camera: camera)
        for (u, v) in [(0, 0), (63, 47), (31, 23), (10, 40)] {
            let p = try #require(rays.point(at: v * 64 + u, depth: 2))
            #expect(p.z == 2)
            let pixel = try #require(camera.project(Vector3(Double(p.x), Double(p.y), Double(p.z))))
            #expect(abs(pixel.x - Double(u)) < 1e-3 && abs(pixel.y - Double(v)) < 1e-3)
        }
        #expect(rays.point(at: 0, depth: .nan) == nil && rays.point(at: 0, depth: 0) == nil && rays.point(at: 0, depth: -1) == nil && rays.point(at: 0, depth: .infinity) == nil)
    }
}

@Suite struct DepthNoiseTests {
    @Test func theKinectModelGrowsWithTheSquareOfRange() {
        #expect(abs(DepthNoise.kinect.sigma(0.4) - 0.0012) < 1e-12)
        #expect(abs(DepthNoise.kinect.sigma(2.4) - (0.0012 + 0.0019 * 4)) < 1e-12)
        #expect(DepthNoise.none.sigma(3) == 0)
    }
}

@Suite struct PlaneMomentsTests {
    @Test func momentsAddedInPartsFitAsTheWholeFarFromTheOrigin() throws {
        // Points on z = 0.3 x + 1000 (far from the origin), in two parts.
        let points = (0..<60).map { k -> Vector3 in
            let x = Double(k % 10) * 0.1 + 500, y = Double(k / 10) * 0.2 - 300
            return Vector3(x, y, 0.3 * x + 1000 + (k % 3 == 0 ? 0.001 : -0.0005))
        }
        let whole = try #require(PlaneMoments(points).fit())
        var parts = PlaneMoments(Array(points.prefix(25)))
        parts.add(PlaneMoments(Array(points.dropFirst(25))))
        let joined = try #require(parts.fit())
        #expect(parts.count == 60)
        #expect(joined.plane.angle(to: whole.plane) < 1e-9)
        #expect((joined.centroid - whole.centroid).norm < 1e-9)
        #expect(abs(whole.normalSigma - joined.normalSigma) < 1e-9 && whole.normalSigma > 0 && whole.normalSigma < 0.01)
        #expect(PlaneMoments().fit() == nil)
    }

    @Test func movedMomentsFitAsTheMovedPoints() throws {
        let points = (0..<40).map { (k: Int) -> Vector3 in
            let x: Double = Double(k % 8) * 0.1, y: Double = Double(k / 8) * 0.2, z: Double = 2 + 0.05 * Double(k % 3)
            return Vector3(x, y, z)
        }
        let transform = SE3(rotation: SO3.exp(Vector3(0.3, -0.2, 1.1)), translation: Vector3(5, -3, 2))
        let weights = points.map { 1 + $0.z }
        let moved = try #require(PlaneMoments(points, weights: weights).moved(by: transform).fit())
        let direct = try #require(PlaneMoments(points.map { transform * $0 }, weights: weights).fit())
        #expect(moved.plane.angle(to: direct.plane) < 1e-9 && (moved.centroid - direct.centroid).norm < 1e-9)
        #expect(abs(moved.normalSigma - direct.normalSigma) < 1e-9)
    }
}

@Suite struct PlaneTrackerTests {
    static func observation(_ plane: Plane, corners: [Vector3]) -> PlaneTracker.Observation {
        let centroid = corners.reduce(Vector3.zero, +) / Double(corners.count)
        return .init(plane: plane, centroid: centroid, boundary: corners, points: 100, moments: PlaneMoments(corners))
    }
    static func square(z: Double, x: Double, y: Double, side: Double) -> [Vector3] {
        [Vector3(x, y, z), Vector3(x + side, y, z), Vector3(x + side, y + side, z), Vector3(x, y + side, z)]
    }

    @Test func aPlaneSeenAgainKeepsItsIdAndGrows() {
        var tracker = PlaneTracker()
        let floor = Plane(normal: Vector3(0, 0, 1), offset: 0)
        let first = tracker.update([Self.observation(floor, corners: Self.square(z: 0, x: 0, y: 0, side: 1))])
        // Overlapping, 1 cm higher, 1° tilted, seen from below (normal flipped): the same floor.
        let tilted = Plane(normal: Vector3(sin(.pi / 180), 0, -cos(.pi / 180)), offset: 0.01)
        let second = tracker.update([Self.observation(tilted, corners: Self.square(z: 0.01, x: 0.5, y: 0, side: 1))])
        #expect(first == second && tracker.tracks.count == 1)
        let track = tracker.tracks[0]
        #expect(track.id == 1 && track.frames == 2 && track.plane.normal.z > 0)
        let xs = track.boundary.map(\.x)
        #expect((xs.min() ?? 1) < 0.01 && (xs.max() ?? 0) > 1.49)
    }

    @Test func twoTablesAtOneHeightStayTwoAndAWallIsAnother() {
        var tracker = PlaneTracker()
        let table = Plane(normal: Vector3(0, 0, 1), offset: -0.75)
        let ids = tracker.update([Self.observation(table, corners: Self.square(z: 0.75, x: 0, y: 0, side: 1)),
                                  Self.observation(table, corners: Self.square(z: 0.75, x: 2, y: 0, side: 1))])
        #expect(ids == [0, 1])
        let wall = Plane(normal: Vector3(1, 0, 0), offset: 0)
        let next = tracker.update([Self.observation(wall, corners: [Vector3(0, 0, 0), Vector3(0, 1, 0), Vector3(0, 1, 1), Vector3(0, 0, 1)]),
                                   Self.observation(table, corners: Self.square(z: 0.75, x: 2.2, y: 0.1, side: 0.5))])
        #expect(next == [2, 1])
        #expect(tracker.tracks.map(\.id) == [1, 2, 3])
    }
}
