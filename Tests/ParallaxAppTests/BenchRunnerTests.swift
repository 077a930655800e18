import Foundation
import Parallax
import ParallaxApp
import TestSupport
import Testing

/// A suite simulates every scene itself: object, face and room cases run from the suite file
/// alone, and a chain names the scene's files as `@scene/…`.
@Suite struct BenchRunnerTests {
    @Test func aSuiteWithInlineObjectAndFaceScenesRunsWithoutAnyFolderMadeByHand() throws {
        let folder = try TemporaryFolder.make("inline-scenes")
        defer { try? FileManager.default.removeItem(at: folder) }
        // The TUM office frame as the object (the last texture), the EuRoC frame on the walls,
        // seen by EuRoC's cam0 (752×480) as the bundled sensor.yaml describes it.
        let data = RepositoryPaths.root.appendingPathComponent("datasets")
        let textures = [data.appendingPathComponent("euroc_v1_01_cut/mav0/cam0/data/1403715273262142976.png").path,
                        data.appendingPathComponent("tum_rgbd_frame/rgb/1341847980.722988.png").path]
        let camera = data.appendingPathComponent("euroc_v1_01_cut/mav0/cam0/sensor.yaml").path
        let suiteFile = folder.appendingPathComponent("suite.yaml")
        try """
            name: inline
            runs:
              - name: object-turn
                simulate: {scene: object, motion: turn, seconds: 0.5, cameras: [\(camera)], textures: [\(textures[0]), \(textures[1])]}
                chain: "image-track reference=[@scene/picture.png] width=0.4"
                evaluate: image-anchor
              - name: face
                simulate: {scene: face, seconds: 1, landmark_noise: 0}
                chain: "face-pose source=pixels"
                evaluate: head-pose
            """.write(to: suiteFile, atomically: true, encoding: .utf8)
        let suite = try BenchSuite.load(suiteFile.path)
        #expect(suite.runs.map { $0.simulate?.scene } == [.object, .face])
        let results = BenchRunner(suite: suite, scratch: folder.appendingPathComponent("scratch")).run()
        #expect(results.map(\.status) == ["ok", "ok"], "\(results.map { $0.note ?? "" })")
        #expect(results.first?.dataset == "simulated object (turn, 0.5 s, seed 1)")
        // The picture was found where the scene put it, and tracked.
        let anchor = try #require(results.first?.evaluations.first?.result)
        #expect(anchor.statistics.count > 0 && anchor.statistics.median < 3, "\(anchor.statistics)")
    }

    @Test func aSceneFileThatIsAbsentSkipsTheCaseWithANote() throws {
        let folder = try TemporaryFolder.make("absent-scene-file")
        defer { try? FileManager.default.removeItem(at: folder) }
        let suiteFile = folder.appendingPathComponent("suite.yaml")
        try """
            runs:
              - name: ceiling
                simulate: {seconds: 1, picture: /nonexistent/picture.png}
                chain: "klt"
                evaluate: none
            """.write(to: suiteFile, atomically: true, encoding: .utf8)
        let results = BenchRunner(suite: try BenchSuite.load(suiteFile.path), scratch: folder.appendingPathComponent("scratch")).run()
        #expect(results.first?.status == "skipped" && results.first?.note == "picture not present on this machine: /nonexistent/picture.png")
    }

    @Test func imageAnchorsSuiteNeedsNoPreparedFolders() throws {
        let suite = try BenchSuite.load(RepositoryPaths.root.appendingPathComponent("bench/image-anchors.yaml").path)
        #expect(suite.runs.count == 8)
        #expect(suite.runs.allSatisfy { $0.dataset == nil && $0.simulate != nil && $0.chain.contains("@scene/picture.png") })
        #expect(Set(suite.runs.compactMap { $0.simulate?.motion.rawValue }).count == 7)
    }
}
