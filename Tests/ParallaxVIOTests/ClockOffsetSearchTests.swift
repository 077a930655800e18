import Foundation
import Testing
import ParallaxGeometry
import ParallaxInertial
import ParallaxMath
@testable import ParallaxVIO

/// The camera–IMU clock offset from rotations alone, before a start: two seconds of a
/// hand-held-like shake (synthetic bearings with 0.5 px noise, an IMU with EuRoC's noise and a
/// gyro bias) whose frames are stamped wrong by a known amount.
@Suite struct ClockOffsetSearchTests {
    /// The shake's frames with their times moved by `error` s (as a camera stamping `error` s
    /// early on the IMU's clock), the IMU, and the camera's rotation into the IMU.
    static func frames(stampedOff error: Double, turn: @escaping (Double) -> SO3) throws -> ([DynamicInitializer.Frame], [IMUMeasurement], SO3) {
        let controls = DynamicInitializerTests.controls { t in (DynamicInitializerTests.shake(t), turn(t)) }
        let (frames, imu, _, _, _) = try DynamicInitializerTests.window(controls, frames: 40)
        let moved = frames.map { f in
            var f = f
            f.time -= error
            return f
        }
        return (moved, imu, VIOTestScene.camera.bodyFromSensor.rotation)
    }

    static func shaking(_ t: Double) -> SO3 {
        SO3.exp(Vector3(0.1 * sin(2 * .pi * 0.7 * t), 0.08 * sin(2 * .pi * 1.1 * t), 0.15 * sin(2 * .pi * 0.5 * t)))
    }

    @Test(arguments: [0.0, 0.03, -0.045])
    func findsTheOffsetOfFramesStampedOff(error: Double) throws {
        let (frames, imu, imuFromCamera) = try Self.frames(stampedOff: error, turn: Self.shaking)
        let outcome = ClockOffsetSearch().search(frames, imu: imu, imuFromCamera: imuFromCamera)
        guard case let .found(result) = outcome else { Issue.record("no offset: \(outcome)"); return }
        // The frames must move `error` s later to sit where the IMU saw them.
        #expect(abs(result.offset - error) < 0.002, "found \(result.offset * 1000) ms for \(error * 1000) ms")
        #expect(abs(result.offset - error) < 3 * result.sigma + 2e-4, "σ \(result.sigma * 1000) ms")
        #expect(result.sigma > 0 && result.sigma < 0.002)
        #expect(result.pairs >= 10)
    }

    @Test func anOffsetBeyondTheRangeIsSaidToBe() throws {
        let (frames, imu, imuFromCamera) = try Self.frames(stampedOff: 0.2, turn: Self.shaking)
        var search = ClockOffsetSearch()
        search.range = 0.05
        #expect(search.search(frames, imu: imu, imuFromCamera: imuFromCamera) == .beyondRange(0.05))
    }

    /// The shake turned `scale` times as far: the rates change that much more slowly.
    static func gentle(_ scale: Double) -> (Double) -> SO3 {
        { t in SO3.exp(shaking(t).log * scale) }
    }

    /// A tenth of the shake's turn, the camera 300 ms off: over ±100 ms the cost falls toward the
    /// offset's end by more than the noise explains but too little to say it lies beyond, and the
    /// ±550 ms search finds it to about 15 ms — roughly, as a smooth motion allows.
    @Test(arguments: [0.3, -0.3])
    func aGentleTurnLeansTowardAFarOffsetAndFindsItRoughly(error: Double) throws {
        let (frames, imu, imuFromCamera) = try Self.frames(stampedOff: error, turn: Self.gentle(0.1))
        var search = ClockOffsetSearch()
        #expect(search.search(frames, imu: imu, imuFromCamera: imuFromCamera) == .leaning(error > 0 ? 0.1 : -0.1))
        search.range = 0.55
        let wide = search.search(frames, imu: imu, imuFromCamera: imuFromCamera)
        switch wide {
        case let .rough(result):
            #expect(abs(result.offset - error) < 3 * result.sigma, "found \(result.offset * 1000) ± \(result.sigma * 1000) ms for \(error * 1000) ms")
            #expect(result.sigma > search.maxSigma && result.sigma <= search.roughSigma)
        case .undetermined: break   // too few pairs reach 550 ms of readings on both sides
        default: Issue.record("\(wide) for \(error * 1000) ms")
        }
    }

    /// A twentieth of the shake, the stamps right: the cost barely changes over the range, and no
    /// shift is given, not even roughly (its curvature alone would say ±20 ms about a minimum
    /// wherever the translation leans it); at most a lean that asks the wider search, which
    /// gives none either.
    @Test func aNearlyStillPlatformGivesNoRoughOffset() throws {
        let (frames, imu, imuFromCamera) = try Self.frames(stampedOff: 0, turn: Self.gentle(0.05))
        var search = ClockOffsetSearch()
        for range in [0.1, 0.55] {
            search.range = range
            let outcome = search.search(frames, imu: imu, imuFromCamera: imuFromCamera)
            switch outcome {
            case .undetermined, .leaning: break
            default: Issue.record("\(outcome) over ±\(range * 1000) ms")
            }
        }
    }

    @Test func aSteadyTurnDoesNotDetermineTheOffset() throws {
        // The angular rate never changes: a shift of the frames changes no rotation between them.
        let (frames, imu, imuFromCamera) = try Self.frames(stampedOff: 0.03) { t in SO3.exp(Vector3(0, 0, 0.3 * t)) }
        #expect(ClockOffsetSearch().search(frames, imu: imu, imuFromCamera: imuFromCamera) == .undetermined)
    }

    /// A turn whose rate grows steadily: a shift of the frames turns each pair by `δ·(ω(b) − ω(a))`,
    /// the same for every pair, as a gyro bias does. The bias is fitted at every shift, so the
    /// offset is not found (a bias fitted once at zero shift found it there, sure of it).
    @Test func aSteadilyQuickeningTurnIsNotMistakenForNoOffset() throws {
        let (frames, imu, imuFromCamera) = try Self.frames(stampedOff: 0.03) { t in SO3.exp(Vector3(0, 0, 0.2 * t * t)) }
        let outcome = ClockOffsetSearch().search(frames, imu: imu, imuFromCamera: imuFromCamera)
        if case let .found(result) = outcome {
            #expect(abs(result.offset - 0.03) < 3 * result.sigma, "found \(result.offset * 1000) ± \(result.sigma * 1000) ms for 30 ms")
        }
    }

    @Test func tooFewFramesAreUndetermined() throws {
        let (frames, imu, imuFromCamera) = try Self.frames(stampedOff: 0.03, turn: Self.shaking)
        #expect(ClockOffsetSearch().search(Array(frames.prefix(6)), imu: imu, imuFromCamera: imuFromCamera) == .undetermined)
    }

    @Test func pairsAreAboutTheSpanApartAndOverlapByHalf() {
        let frames = (0..<21).map { DynamicInitializer.Frame(time: Double($0) * 0.05, features: [:]) }
        let pairs = ClockOffsetSearch.pairs(frames, span: 0.1)
        let got: [[Double]] = pairs.map { [$0.0.time, $0.1.time] }
        let want: [[Double]] = (0..<19).map { k in [Double(k) * 0.05, Double(k + 2) * 0.05] }
        #expect(got == want)
    }

    @Test func theGyroRotationIntegratesTheRates() {
        // 1 rad/s about z, sampled every 5 ms: 0.1 s turn 0.1 rad, bias taken out.
        let imu = (0...100).map { IMUMeasurement(time: Double($0) * 0.005, gyroscope: Vector3(0.01, 0, 1), accelerometer: .zero) }
        let r = ClockOffsetSearch.gyroRotation(imu, from: 0.0125, to: 0.1125, bias: Vector3(0.01, 0, 0))
        #expect((r.log - Vector3(0, 0, 0.1)).norm < 1e-12)
    }
}

