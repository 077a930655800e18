import Testing
import ParallaxBus
import ParallaxPayloads
import ParallaxMath
import ParallaxTesting
@testable import Diagnostics

@Suite struct IMUIntegratorTests {
    static let cam = StreamKey<CameraFrame>("cam0"), imu = StreamKey<IMUSample>("imu0")
    static let frame = CameraFrame(cameraID: "cam0", image: ImageBuffer(width: 4, height: 4, repeating: 0))

    /// Constant rate ω about a fixed axis: the rotation over Δt is exactly exp(ω Δt).
    func feed(_ harness: inout AnalyzerHarness, omega: Vector3) {
        for k in 0...200 {  // 200 Hz IMU over 1 s, offset 1 ms from the frames
            harness.push(IMUSample(gyroscope: omega, accelerometer: Vector3(0, 0, 9.81)), on: Self.imu,
                         at: Timestamp(nanoseconds: 1_000_000 + Int64(k) * 5_000_000))
        }
        for f in 1...19 { harness.push(Self.frame, on: Self.cam, at: Timestamp(nanoseconds: Int64(f) * 50_000_000)) }
    }

    @Test func constantRateIntegratesExactly() throws {
        var harness = AnalyzerHarness { try IMUIntegrator(options: .init()) }
        let omega = Vector3(0.3, -0.2, 1.1)
        feed(&harness, omega: omega)
        let result = try harness.run()
        let rotations: [Packet<FrameRotation>] = result.packets(on: "cam0/gyro-rotation")
        #expect(rotations.count == 18)  // no rotation for the first frame
        for r in rotations {
            #expect((r.payload.rotationVector - omega * 0.05).norm < 1e-12)
            #expect(r.payload.samples == 10)
            #expect(abs(r.payload.interval - 0.05) < 1e-15)
        }
    }

    @Test func aGyroBiasIsSubtractedGivenOrEstimatedFromAStillStart() throws {
        let bias = Vector3(0.004, -0.002, 0.003), omega = Vector3(0.3, -0.2, 1.1)
        var given = IMUIntegrator.Options()
        given.gyroBias = [bias.x, bias.y, bias.z]
        var harness = AnalyzerHarness { try IMUIntegrator(options: given) }
        feed(&harness, omega: omega + bias)
        for r in try harness.run().packets(on: "cam0/gyro-rotation") as [Packet<FrameRotation>] {
            #expect((r.payload.rotationVector - omega * 0.05).norm < 1e-12)
        }
        // Still for the first 0.3 s (only the bias), then turning: the bias is learned from the rest.
        var still = IMUIntegrator.Options()
        still.biasFromStillS = 0.3
        var learning = AnalyzerHarness { try IMUIntegrator(options: still) }
        for k in 0...200 {
            let t = Timestamp(nanoseconds: 1_000_000 + Int64(k) * 5_000_000)
            learning.push(IMUSample(gyroscope: (t.seconds <= 0.32 ? .zero : omega) + bias, accelerometer: Vector3(0, 0, 9.81)), on: Self.imu, at: t)
        }
        for f in 1...19 { learning.push(Self.frame, on: Self.cam, at: Timestamp(nanoseconds: Int64(f) * 50_000_000)) }
        let rotations: [Packet<FrameRotation>] = try learning.run().packets(on: "cam0/gyro-rotation")
        #expect(rotations.count >= 10 && rotations.first.map { $0.timestamp.seconds > 0.3 } == true)
        for r in rotations where r.timestamp.seconds >= 0.4 { #expect((r.payload.rotationVector - omega * 0.05).norm < 1e-12) }
        // Without it, the bias shows as drift.
        var plain = AnalyzerHarness { try IMUIntegrator(options: .init()) }
        feed(&plain, omega: omega + bias)
        let drifted: [Packet<FrameRotation>] = try plain.run().packets(on: "cam0/gyro-rotation")
        #expect(drifted.allSatisfy { ($0.payload.rotationVector - omega * 0.05).norm > 1e-4 })
        // A bias that is not three finite numbers is refused.
        var bad = IMUIntegrator.Options()
        bad.gyroBias = [1, 2]
        #expect(throws: AnalyzerError.self) { _ = try IMUIntegrator(options: bad) }
    }

    @Test func keepsTheAnalyzerContract() throws {
        let problems = try AnalyzerVerifier.verify({ try IMUIntegrator(options: .init()) }) { harness in
            feed(&harness, omega: Vector3(0, 0, 0.5))
        }
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test func framesWithoutIMUCoverageWarnInsteadOfGuessing() throws {
        var harness = AnalyzerHarness { try IMUIntegrator(options: .init()) }
        harness.declare(Self.imu)
        for f in 1...3 { harness.push(Self.frame, on: Self.cam, at: Timestamp(nanoseconds: Int64(f) * 50_000_000)) }
        let result = try harness.run()
        #expect(result.outputs.isEmpty)
        #expect(result.report.warnings.count == 1)
        #expect(result.report.warnings.first?.contains("IMU does not cover") == true)
    }
}

@Suite struct StreamStatsTests {
    @Test func ratesGapsAndDrops() {
        // 20 Hz with two frames missing after the 5th and jitter-free otherwise.
        var stamps = (0..<20).map { Int64($0) * 50_000_000 }
        stamps.removeSubrange(5...6)
        let s = StreamStatistics(stream: "cam0", nanoseconds: stamps)
        #expect(s.packets == 18)
        #expect(s.medianPeriodMilliseconds == 50)
        #expect(s.gaps == 1 && s.estimatedDropped == 2)
        #expect(s.maxGapMilliseconds == 150)
        #expect(abs(s.rateHz - 17.0 / 0.95) < 1e-9)
    }

    @Test func reportsEveryWatchedStreamAtTheEndEvenWhenEmpty() throws {
        var harness = AnalyzerHarness { try StreamStatsAnalyzer(options: .init()) }
        harness.declare(StreamKey<IMUSample>("imu0"))
        for k in 0..<10 { harness.push(k, on: StreamKey<Int>("cam0"), at: Timestamp(nanoseconds: Int64(k) * 1000)) }
        let stats: [Packet<StreamStatistics>] = try harness.run().packets(on: "stats")
        #expect(stats.map(\.payload.stream) == ["cam0", "imu0"])
        #expect(stats[0].payload.packets == 10 && stats[1].payload.packets == 0)
        #expect(throws: AnalyzerError.self) {
            var o = StreamStatsAnalyzer.Options(); o.streams = []
            _ = try StreamStatsAnalyzer(options: o)
        }
    }
}
