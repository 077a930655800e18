import Foundation
import Parallax
import ParallaxApp
import TestSupport
import Testing
import ParallaxFiles

/// A scenario is one type for `parallax simulate` and a suite's `simulate:` block: its YAML
/// decoding, its rules and what it writes.
@Suite struct ScenarioTests {
    let base = RepositoryPaths.root.appendingPathComponent("bench")

    func decode(_ text: String) throws -> Scenario {
        try YAMLDecoding.decode(Scenario.self, from: text, file: "s.yaml").resolvingPaths(against: base)
    }

    func problem(_ text: String) -> String? {
        do { _ = try decode(text); return nil } catch let error as YAMLDecodingError { return error.message } catch { return "\(error)" }
    }

    @Test func everyKeyDecodesIntoTheScenario() throws {
        let s = try decode("""
            {scene: room, seconds: 2.5, seed: 7, still: 1, width: 188, stereo: true, depth_rate: 5, pixel_noise: 0.5, depth_noise: kinect,
             picture: p.png, picture_width: 0.5, format: parallax, textures: [a.png, /abs/b.png], imu: imu.yaml, room_around: gt.csv,
             camera_time_offset: -0.004}
            """)
        #expect(s.scene == .room && s.seconds == 2.5 && s.seed == 7 && s.still == 1 && s.width == 188 && s.stereo && s.cameraTimeOffset == -0.004)
        #expect(s.depthRate == 5 && s.pixelNoise == 0.5 && s.depthNoise == .kinect && s.pictureWidth == 0.5 && s.format == .parallax)
        // Files are relative to the suite's folder; absolute ones stay.
        #expect(s.textures == [base.appendingPathComponent("a.png").path, "/abs/b.png"])
        #expect(s.picture == base.appendingPathComponent("p.png").path && s.imu == base.appendingPathComponent("imu.yaml").path)
        #expect(s.roomAround == base.appendingPathComponent("gt.csv").path)
        let object = try decode("{scene: object, motion: occlusion, textures: [t.png]}")
        #expect(object.scene == .object && object.motion == .occlusion)
        let face = try decode("{scene: face, landmark_noise: 0, face_model: f.obj}")
        #expect(face.landmarkNoise == 0 && face.faceModel == base.appendingPathComponent("f.obj").path)
    }

    @Test func theSuiteDefaultsAreTheBuiltInRigAndTheCommandLineOnesTheBundledFiles() {
        let suite = Scenario()
        #expect(suite.usesBuiltInRig && suite.textures.isEmpty && suite.depthRate == 0 && suite.width == 376 && suite.imu == nil)
        let command = Scenario.commandLineDefaults
        #expect(command.cameras.count == 1 && command.cameras[0].hasSuffix("cam0/sensor.yaml") && command.textures.count == 2 && command.depthRate == 5)
    }

    @Test func aKeyTheSceneDoesNotUseIsRefusedNotIgnored() {
        #expect(problem("{scene: face, width: 300}") == "width is used only with scene room or object, not with scene face")
        #expect(problem("{landmark_noise: 1}") == "landmark_noise is used only with scene face, not with scene room")
        #expect(problem("{scene: room, motion: fast}") == "motion is used only with scene object, not with scene room")
        #expect(problem("{scene: face, camera_time_offset: 0.01}") == "camera_time_offset is used only with scene room, not with scene face")
        #expect(problem("{scene: object, textures: [a.png], picture: p.png}") == "picture is used only with scene room, not with scene object")
    }

    @Test func badValuesNameTheKeyAndWhatIsValid() {
        #expect(problem("{scene: cube}") == "scene must be room, face, object, got 'cube'")
        #expect(problem("{seconds: -1}")?.hasPrefix("seconds must be a number in 0.05…86400.0 s") == true)
        #expect(problem("{seconds: .nan}")?.hasPrefix("seconds must be a number") == true)
        #expect(problem("{seed: 1.5}") == "seed must be a whole number, got 1.5")
        #expect(problem("{camera_time_offset: 2}") == "camera_time_offset must be a number in -1.0…1.0 s, got 2.0")
        #expect(problem("{seed: -3}")?.hasPrefix("seed must be a number in 0.0…") == true)
        #expect(problem("{motion: spin, scene: object, textures: [a.png]}")?.hasPrefix("motion must be sweep") == true)
        #expect(problem("{depth_noise: none}") == "depth_noise must be kinect, exact, got 'none'")
        #expect(problem("{textures: a.png}") == "textures must be a list")
        #expect(problem("{secnds: 3}") == "unknown key 'secnds'; did you mean 'seconds'? (known: " + Scenario.Key.allCases.map(\.yamlName).sorted().joined(separator: ", ") + ")")
        #expect(problem("{format: euroc, depth_rate: 5}") == "format euroc cannot hold depth maps: set the depth rate to 0")
        #expect(problem("{scene: object}") == "textures must list at least one image for scene object (the last covers the object)")
        #expect(problem("{trajectory: gt.csv, still: 2}") == "still is for the built-in orbit, not with a trajectory")
        #expect(problem("{scene: face, cameras: [a.yaml, b.yaml]}") == "cameras must be one for scene face (a stereo pair is for scene room)")
    }

    @Test func aProblemIsLocatedAtItsValue() throws {
        #expect { _ = try YAMLDecoding.decode(Scenario.self, from: "seconds: 2\nseed: 1\nwidth: 5000\n", file: "s.yaml") } throws: { error in
            guard let e = error as? YAMLDecodingError else { return false }
            return e.line == 3 && e.message.hasPrefix("width must be a number in 32.0…4096.0 px") && e.description.hasPrefix("s.yaml:3:")
        }
    }

    @Test func theCommandLineSpellsProblemsAsItsOptions() {
        var s = Scenario()
        s.seconds = 0
        #expect(throws: Scenario.Problem.self) { try s.validate(given: []) }
        do { try s.validate(given: []) } catch { #expect(error.flagText.hasPrefix("--seconds must be a number in 0.05")) }
        s = Scenario.commandLineDefaults
        s.scene = .face
        do { try s.validate(given: [.picture]); Issue.record("a picture with a face was accepted") } catch {
            #expect(error.flagText == "--picture is used only with scene room, not with scene face")
        }
    }

    @Test func theSameScenarioWritesTheSameFolderByteForByte() throws {
        var s = Scenario()
        s.seconds = 0.3
        s.width = 64
        let a = try TemporaryFolder.make("scenario-a"), b = try TemporaryFolder.make("scenario-b")
        defer { try? FileManager.default.removeItem(at: a); try? FileManager.default.removeItem(at: b) }
        let written = try s.write(to: a)
        _ = try s.write(to: b)
        #expect(written.scene != nil && written.summary.hasPrefix("simulated 0.3 s:"))
        let files = try FileManager.default.subpathsOfDirectory(atPath: a.path).sorted()
        #expect(files.contains("scene_points.txt") && files.contains("parallax.yaml"))
        #expect(files == (try FileManager.default.subpathsOfDirectory(atPath: b.path).sorted()))
        for f in files where !f.hasSuffix("/") {
            var isFolder: ObjCBool = false
            FileManager.default.fileExists(atPath: a.appendingPathComponent(f).path, isDirectory: &isFolder)
            if isFolder.boolValue { continue }
            #expect(FileManager.default.contentsEqual(atPath: a.appendingPathComponent(f).path, andPath: b.appendingPathComponent(f).path), "\(f)")
        }
    }

    @Test func anObjectSceneWritesAnOTBSequenceWithItsPictureAndTruth() throws {
        var s = Scenario()
        s.scene = .object
        s.seconds = 0.2
        s.width = 188
        s.motion = .turn
        s.textures = [RepositoryPaths.root.appendingPathComponent("datasets/tum_rgbd_frame/rgb/1341847980.722988.png").path]
        let folder = try TemporaryFolder.make("scenario-object")
        defer { try? FileManager.default.removeItem(at: folder) }
        let written = try s.write(to: folder)
        #expect(written.scene == nil && written.summary.contains("moving object (turn)"))
        for name in ["groundtruth_rect.txt", "picture.png", "picture_pose.csv", "sensor.yaml", "img/0001.png"] {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path), "\(name)")
        }
        let camera = try EuRoCSensorFile.loadCamera(path: folder.appendingPathComponent("sensor.yaml").path)
        #expect(camera.model.width == 188)
    }

    @Test func anInputThatCannotBeReadIsBadInputBeforeAnythingIsWritten() throws {
        var s = Scenario()
        s.textures = ["/nonexistent/texture.png"]
        #expect { _ = try s.prepare() } throws: { error in
            error is Scenario.InputError && "\(error)".contains("/nonexistent/texture.png") && error is any BadInput
        }
    }

    @Test func settingsOfSomethingThatIsNotThereAreRefused() {
        #expect(problem("{picture_width: 2}") == "picture_width is the width of a picture: give the picture too")
        #expect(problem("{depth_noise: kinect}") == "depth_noise is the depth maps' noise: give a depth rate above 0 too")
        #expect(problem("{depth_noise: kinect, depth_rate: 5}") == nil)
    }

    /// A trajectory file for the simulator to follow, from `rows` (TUM: t x y z qx qy qz qw).
    func trajectory(_ rows: [String]) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("scenario-\(UUID().uuidString).txt").path
        try rows.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aTrajectoryTooWideOrOutOfOrderIsBadInputNamingTheFileAndTime() throws {
        let rows = (0..<20).map { "\(Double($0) * 0.1) \(Double($0) * 0.05) 0 1 0 0 0 1" }
        for (changed, words) in [(rows.enumerated().map { $0.offset == 10 ? "1.0 1e300 0 1 0 0 0 1" : $0.element }, "span more than 2000 m"),
                                 (rows.enumerated().map { $0.offset == 10 ? "1.0 1e6 0 1 0 0 0 1" : $0.element }, "t = 1"),
                                 (rows.enumerated().map { $0.offset == 10 ? "0.5 0.5 0 1 0 0 0 1" : $0.element }, "does not come after")] {
            let path = try trajectory(changed)
            defer { try? FileManager.default.removeItem(atPath: path) }
            for around in [false, true] {
                var s = Scenario()
                if around { s.roomAround = path } else { s.trajectory = path }
                s.seconds = 1
                #expect { _ = try s.prepare() } throws: { error in
                    error is Scenario.InputError && "\(error)".contains(path) && "\(error)".contains(words)
                }
            }
        }
    }

    @Test func ratesTheSimulatorCannotRenderAreRefused() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("scenario-rates-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let imuText = try String(contentsOf: RepositoryPaths.root.appendingPathComponent("datasets/euroc_v1_01_cut/mav0/imu0/sensor.yaml"), encoding: .utf8)
        let fastIMU = folder.appendingPathComponent("imu.yaml")
        try imuText.replacingOccurrences(of: "rate_hz: 200", with: "rate_hz: 1e7").write(to: fastIMU, atomically: true, encoding: .utf8)
        var s = Scenario.commandLineDefaults
        s.seconds = 1
        s.imu = fastIMU.path
        #expect { _ = try s.prepare() } throws: { "\($0)".contains(fastIMU.path) && "\($0)".contains("up to 10000 Hz") }
        // Depth maps are rendered at camera frames: a faster depth rate cannot be kept.
        var depth = Scenario.commandLineDefaults
        depth.seconds = 1
        depth.depthRate = 100
        #expect { _ = try depth.prepare() } throws: { "\($0)".contains("exceeds the camera's 20.0 Hz") }
        // The camera file's rate is the rendered one.
        let cameraText = try String(contentsOf: RepositoryPaths.root.appendingPathComponent("datasets/euroc_v1_01_cut/mav0/cam0/sensor.yaml"), encoding: .utf8)
        let slowCamera = folder.appendingPathComponent("cam.yaml")
        try cameraText.replacingOccurrences(of: "rate_hz: 20", with: "rate_hz: 5").write(to: slowCamera, atomically: true, encoding: .utf8)
        var slow = Scenario.commandLineDefaults
        slow.seconds = 1
        slow.depthRate = 0
        slow.cameras = [slowCamera.path]
        let prepared = try slow.prepare()
        let times = prepared.groundTruthTimes
        #expect(!times.isEmpty)
        let written = folder.appendingPathComponent("slow")
        _ = try prepared.write(to: written, progress: nil, cancelled: { false })
        let frames = try FileManager.default.contentsOfDirectory(atPath: written.appendingPathComponent("cam0/data").path)
        #expect(frames.count == 6, "\(frames.count) frames in 1 s at 5 Hz")
    }
}
