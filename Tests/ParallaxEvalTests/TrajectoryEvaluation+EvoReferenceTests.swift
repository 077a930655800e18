import Foundation
import Testing
import TestSupport
import ParallaxBus
import ParallaxPayloads
import ParallaxCodecs
import ParallaxMath
@testable import ParallaxEval

/// Reproduces every number evo 1.38.1 computed on its own test trajectories
/// (`../shared/data/trajectories/evo/evo_reference_metrics.json`) to 1e-6 relative.
@Suite struct EvoReferenceTests {
    static let folder = RepositoryPaths.sharedData("trajectories/evo")

    /// Case name → (reference file, estimate file), as the generator script pairs them.
    static let files: [String: (String, String)] = [
        "fr1_xyz rgbdslam vs gt": ("freiburg1_xyz-groundtruth.txt", "freiburg1_xyz-rgbdslam.txt"),
        "fr1_xyz rgbdslam_drift vs gt": ("freiburg1_xyz-groundtruth.txt", "freiburg1_xyz-rgbdslam_drift.txt"),
        "fr1_xyz ORB_kf_mono vs gt": ("freiburg1_xyz-groundtruth.txt", "freiburg1_xyz-ORB_kf_mono.txt"),
        "fr2_desk ORB vs gt": ("fr2_desk_groundtruth.txt", "fr2_desk_ORB.txt"),
        "fr2_desk ORB_kf_mono vs gt": ("fr2_desk_groundtruth.txt", "fr2_desk_ORB_kf_mono.txt"),
        "V102 estimate vs EuRoC gt": ("V102_groundtruth.csv", "V102.txt"),
    ]

    struct Reference: Decodable {
        struct Case: Decodable {
            let name: String
            let ref_poses_raw: Int
            let est_poses_raw: Int
            let associated_pairs: Int
            let results: [String: Value]
        }
        enum Value: Decodable {
            case stats([String: Double]), number(Double)
            init(from decoder: any Decoder) throws {
                let c = try decoder.singleValueContainer()
                if let d = try? c.decode(Double.self) { self = .number(d) } else { self = .stats(try c.decode([String: Double].self)) }
            }
        }
        let cases: [Case]
    }

    func check(_ got: ErrorStatistics, _ want: [String: Double], _ label: String) {
        let values = ["rmse": got.rmse, "mean": got.mean, "median": got.median, "std": got.std, "min": got.min, "max": got.max, "sse": got.sse]
        for (key, expected) in want {
            let actual = values[key]!
            let relative = abs(actual - expected) / max(abs(expected), 1e-300)
            #expect(relative <= 1e-6, "\(label) \(key): \(actual) vs evo \(expected)")
        }
    }

    @Test(.enabled(if: RepositoryPaths.hasSharedData("trajectories/evo/evo_reference_metrics.json"), "../shared/data/trajectories/evo/evo_reference_metrics.json is not present on this machine"))
    func reproducesEveryEvoNumber() throws {
        let json = Self.folder.appendingPathComponent("evo_reference_metrics.json")
        let reference = try JSONDecoder().decode(Reference.self, from: Data(contentsOf: json))
        #expect(reference.cases.count == 6)
        var checked = 0
        for c in reference.cases {
            let (refFile, estFile) = try #require(Self.files[c.name])
            let ref = try TrajectoryFile.read(path: Self.folder.appendingPathComponent(refFile).path)
            let est = try TrajectoryFile.read(path: Self.folder.appendingPathComponent(estFile).path)
            #expect(ref.count == c.ref_poses_raw && est.count == c.est_poses_raw, "\(c.name)")
            let (r, e) = try Association.associate(reference: ref, estimate: est, maxDifference: 0.01)
            #expect(e.count == c.associated_pairs, "\(c.name)")
            for (mode, label) in [(TrajectoryAlignment.Mode.none, "none"), (.se3, "align"), (.sim3, "align_scale")] {
                let (aligned, transform) = try TrajectoryAlignment.align(e, to: r, mode: mode)
                let ape = TrajectoryMetrics.absolute(reference: r, estimate: aligned)
                if case let .stats(want)? = c.results["APE_trans_m__\(label)"] { check(ErrorStatistics(ape.translation), want, "\(c.name) APE t \(label)"); checked += 1 }
                if case let .stats(want)? = c.results["APE_rot_deg__\(label)"] { check(ErrorStatistics(ape.rotationDegrees), want, "\(c.name) APE r \(label)"); checked += 1 }
                if mode == .sim3, case let .number(scale)? = c.results["sim3_scale"] {
                    #expect(abs(transform.scale - scale) / scale <= 1e-9, "\(c.name) scale \(transform.scale) vs \(scale)")
                }
            }
            for (delta, label) in [(1.0, "1frame"), (10.0, "10frames")] {
                let rpe = TrajectoryMetrics.relative(reference: r, estimate: e, delta: delta, unit: .frames)
                if case let .stats(want)? = c.results["RPE_trans_m__delta_\(label)"] { check(ErrorStatistics(rpe.translation), want, "\(c.name) RPE t \(label)"); checked += 1 }
                if case let .stats(want)? = c.results["RPE_rot_deg__delta_\(label)"] { check(ErrorStatistics(rpe.rotationDegrees), want, "\(c.name) RPE r \(label)"); checked += 1 }
            }
        }
        #expect(checked == 6 * 10)
    }
}
