import Testing
import ParallaxMath
@testable import ParallaxGeometry

@Suite struct CameraModelTests {
    static let euroc = CameraModel(width: 752, height: 480,
                                   intrinsics: PinholeIntrinsics(fx: 458.654, fy: 457.296, cx: 367.215, cy: 248.375),
                                   distortion: .radialTangential(k1: -0.28340811, k2: 0.07395907, p1: 0.00019359, p2: 1.76187114e-05))
    /// TUM-VI room1 cam0 (Kalibr equidistant, 512×512).
    static let tumvi = CameraModel(width: 512, height: 512,
                                   intrinsics: PinholeIntrinsics(fx: 190.97847715128717, fy: 190.9733070521226, cx: 254.93170605935475, cy: 256.8974428996504),
                                   distortion: .equidistant(k1: 0.0034823894022493434, k2: 0.0007150348452162257, k3: -0.0020532361418706202, k4: 0.00020293673591811182))
    static let pinhole = CameraModel(width: 640, height: 480, intrinsics: PinholeIntrinsics(fx: 500, fy: 510, cx: 320, cy: 240))
    static let models = [euroc, tumvi, pinhole]

    @Test func roundTripOverTheWholeEuRoCImageWithItsRealCalibration() throws {
        let camera = try EuRoCSensorFile.loadCamera(path: Fixtures.euroc("cam0/sensor.yaml")).model
        var worst = 0.0
        for v in 0..<camera.height {
            for u in 0..<camera.width {
                let pixel = Vector2(Double(u), Double(v))
                let bearing = try camera.unproject(pixel)
                #expect(abs(bearing.norm - 1) < 1e-12)
                guard let back = camera.project(bearing * 3.7) else {
                    Issue.record("pixel \(pixel) unprojected behind the camera")
                    continue
                }
                worst = max(worst, (back - pixel).norm)
            }
        }
        #expect(worst < 1e-6, "worst round-trip error \(worst) px")
    }

    @Test func fisheyeSeesPastNinetyDegrees() throws {
        // TUM-VI's image corner looks ~107° off axis: the bearing points backwards.
        let corner = try Self.tumvi.unproject(Vector2(0, 0))
        #expect(corner.z < 0)
        #expect(throws: CameraModelError.rayOutsideFrontHemisphere(pixel: Vector2(0, 0))) { _ = try Self.tumvi.normalized(Vector2(0, 0)) }
        #expect(Self.tumvi.project(Vector3(0, 0, -1)) == nil)
    }

    @Test(arguments: [tumvi, pinhole])
    func roundTripOnAGrid(camera: CameraModel) throws {
        for v in stride(from: 0, to: camera.height, by: 7) {
            for u in stride(from: 0, to: camera.width, by: 7) {
                let pixel = Vector2(Double(u), Double(v))
                let back = try #require(camera.project(try camera.unproject(pixel)))
                #expect((back - pixel).norm < 1e-6)
            }
        }
    }

    @Test(arguments: models)
    func projectionJacobianMatchesFiniteDifferences(camera: CameraModel) throws {
        var points = [Vector3(0.3, -0.2, 2), Vector3(-1, 0.7, 1.5), Vector3(0.01, 0.02, 4), Vector3(0, 0, 1)]
        if case .equidistant = camera.distortion { points.append(Vector3(1, 0.5, -0.2)) }
        let h = 1e-6
        for p in points {
            let (pixel, j) = try #require(camera.projectWithJacobian(p))
            #expect(pixel == camera.project(p))
            for k in 0..<3 {
                var d = Vector3.zero
                d[k] = h
                let numeric = (try #require(camera.project(p + d)) - (try #require(camera.project(p - d)))) / (2 * h)
                let analytic = Vector2(j.row0[k], j.row1[k])
                #expect((numeric - analytic).norm < 1e-4 * max(1, analytic.norm), "\(camera.distortion.name) at \(p) axis \(k)")
            }
        }
    }

    @Test func behindTheCameraIsNil() {
        #expect(Self.euroc.project(Vector3(0, 0, -1)) == nil)
        #expect(Self.euroc.project(Vector3(1, 0, 0)) == nil)
        #expect(Self.euroc.projectWithJacobian(Vector3(0, 0, 0)) == nil)
    }

    @Test func nonInvertiblePixelsThrowInsteadOfReturningGarbage() {
        // r·(1 − 0.5r²) peaks at 0.544 (r = 0.816): a distorted radius of 0.8 has no preimage.
        let folding = CameraModel(width: 640, height: 480, intrinsics: PinholeIntrinsics(fx: 500, fy: 500, cx: 320, cy: 240),
                                  distortion: .radialTangential(k1: -0.5, k2: 0, p1: 0, p2: 0))
        #expect(throws: CameraModelError.undistortionDidNotConverge(pixel: Vector2(720, 240), model: "radial-tangential")) {
            _ = try folding.unproject(Vector2(720, 240))
        }
        // Inside the fold, the physical (inner) branch is returned, not the folded-back one.
        let inner = try? folding.normalized(Vector2(570, 240))
        // r − 0.5r³ = 0.5 has roots (√5 − 1)/2 (inner) and 1 (folded back).
        #expect(inner.map { abs($0.x - (5.0.squareRoot() - 1) / 2) < 1e-9 } == true)
        #expect { _ = try Self.euroc.unproject(Vector2(.nan, 0)) } throws: { error in
            if case CameraModelError.nonFinitePixel = error { return true }
            return false
        }
    }

    @Test func containsUsesPixelCentres() {
        #expect(Self.pinhole.contains(Vector2(-0.5, -0.5)))
        #expect(!Self.pinhole.contains(Vector2(-0.6, 0)))
        #expect(Self.pinhole.contains(Vector2(639.4, 479.4)))
        #expect(!Self.pinhole.contains(Vector2(10, 10), margin: 11))
    }
}

extension CameraModel: CustomTestStringConvertible {
    public var testDescription: String { "\(distortion.name) \(width)×\(height)" }
}
