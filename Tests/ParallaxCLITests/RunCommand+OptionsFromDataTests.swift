import Foundation
import Testing
import Parallax
@testable import ParallaxCLI

/// What `parallax run` says about options it did not get from the chain: asked by a consumer
/// (vio's front end of klt), in run.json beside the options given; klt on EuRoC's camera keeps
/// its defaults.
@Suite struct RunCommandOptionsFromDataTests {
    func runJSON(_ chain: String) throws -> [String: Any] {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-data-options-\(UUID())")
        defer { try? FileManager.default.removeItem(at: out) }
        #expect(parallax(["run", chain, Paths.cut, "--out", out.path, "--quiet"]) == 0)
        let data = try Data(contentsOf: out.appendingPathComponent("run.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    func analyzer(_ name: String, in json: [String: Any]) throws -> [String: Any] {
        let analyzers = try #require(json["analyzers"] as? [[String: Any]])
        return try #require(analyzers.first { $0["instance"] as? String == name })
    }

    @Test func kltOnEuRoCsCameraKeepsItsDefaultsAndSaysNothing() throws {
        let json = try runJSON("klt")
        let report = try #require(json["report"] as? [String: Any])
        #expect(report["optionsFromData"] == nil)
        let klt = try analyzer("klt", in: json)
        #expect(klt["preferred"] == nil)
        #expect((klt["effectiveOptions"] as? [String: String])?["window"] == "21")
        #expect((klt["effectiveOptions"] as? [String: String])?["equalize"] == "false")
    }

    /// A stereo pair's tracks hold the camera–IMU extrinsics fixed (said, in run.json); a chain
    /// that asks for them estimated gets them estimated; a single camera's estimates them.
    @Test func vioHoldsAStereoPairsExtrinsicsUnlessTheChainSays() throws {
        let stereo = try runJSON("klt camera=cam0 stereo_camera=cam1 ! vio")
        let taken = try #require((stereo["report"] as? [String: Any])?["optionsFromData"] as? [[String: Any]])
        #expect(taken.map { $0["option"] as? String } == ["estimate_extrinsics"])
        #expect((try analyzer("vio", in: stereo)["effectiveOptions"] as? [String: String])?["estimate_extrinsics"] == "false")
        let told = try runJSON("klt camera=cam0 stereo_camera=cam1 ! vio estimate_extrinsics=true")
        #expect((told["report"] as? [String: Any])?["optionsFromData"] == nil)
        let mono = try runJSON("klt camera=cam0 ! vio")
        #expect((mono["report"] as? [String: Any])?["optionsFromData"] == nil)
        #expect((try analyzer("vio", in: mono)["effectiveOptions"] as? [String: String])?["estimate_extrinsics"] == "true")
    }

    @Test func vioAsksItsKLTForTheTunedFrontEndUnlessTheChainSaysOtherwise() throws {
        let asked = try analyzer("klt", in: try runJSON("klt ! vio"))
        #expect(asked["preferred"] as? [String] == ["equalize=true refill_below=0.9 window=15 (as vio prefers)"])
        #expect((asked["effectiveOptions"] as? [String: String])?["equalize"] == "true")
        #expect((asked["effectiveOptions"] as? [String: String])?["window"] == "15")
        let told = try analyzer("klt", in: try runJSON("klt window=21 ! vio"))
        #expect(told["preferred"] as? [String] == ["equalize=true refill_below=0.9 (as vio prefers)"])
        #expect((told["effectiveOptions"] as? [String: String])?["window"] == "21")
    }
}
