import Foundation
import Testing
import TestSupport
import ParallaxApp
import Parallax
@testable import ParallaxPython

extension WorkerProcessSuites {
    /// Every kind of payload crosses to the worker and back as the bus's own types: frames with
    /// their calibration, IMU samples between frames as arrays, and poses with covariance, depth
    /// maps, JSON and feature tracks emitted — written as Swift analyzers' are (pose.tum, depth
    /// PNGs, events.jsonl).
    @Suite struct PythonPayloadKindTests {
        @Test func payloadsTravelBothWaysAsTheBusTypes() throws {
            PythonTestSupport.prepare()
            let folder = try TemporaryFolder.make("python-kinds")
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = try PythonTestSupport.write("""
            import numpy as np, parallax

            class Kinds(parallax.Analyzer):
                frames = parallax.Input("cam0", parallax.CAMERA)
                imu = parallax.Input("imu0", parallax.IMU_SAMPLES, parallax.BETWEEN)
                pose = parallax.Output("py/pose", parallax.POSE)
                depth = parallax.Output("py/depth", parallax.DEPTH, like="frames")
                info = parallax.Output("py/info", parallax.JSON)
                tracks = parallax.Output("py/tracks", parallax.TRACKS)

                def process(self, frame, inputs):
                    m = np.eye(4)
                    m[0, 3] = len(inputs["imu"])
                    self.emit(self.pose, {"matrix": m, "covariance": np.eye(6) * 0.01})
                    self.emit(self.depth, np.full((4, 6), 2.5, dtype=np.float32))
                    self.emit(self.info, {"imu": len(inputs["imu"]), "gyro_shape": list(inputs["imu"].gyro.shape),
                                          "fx": frame.calibration["fx"], "shape": list(frame.image.shape), "dtype": str(frame.image.dtype)})
                    self.emit(self.tracks, parallax.tracks("cam0", frame.image.shape[1], frame.image.shape[0], [7], [[1.5, 2.5]], [3]))
            """, as: "kinds.py", in: folder)
            let out = folder.appendingPathComponent("out").path
            let session = try RunSession(RunSession.Settings(chain: "python:\(file)", dataset: PythonTestSupport.dataset, out: out))
            let finished = try session.run()
            try finished.commit()
            let events = try String(contentsOfFile: out + "/events.jsonl", encoding: .utf8).split(separator: "\n")
            let info = events.filter { $0.contains("\"stream\":\"py/info\"") }
            #expect(info.count == 6)
            #expect(info.allSatisfy { $0.contains("\"dtype\":\"uint8\"") && $0.contains("\"shape\":[480,752]") && $0.contains("\"fx\":458.654") })
            #expect(info.dropFirst().allSatisfy { $0.contains("\"gyro_shape\":[10,3]") && $0.contains("\"imu\":10") })
            #expect(events.filter { $0.contains("\"stream\":\"py/tracks\"") && $0.contains("\"id\":7") && $0.contains("\"pixel\":[1.5,2.5]") }.count == 6)
            let tum = try String(contentsOfFile: out + "/py/pose.tum", encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }
            #expect(tum.count == 6 && tum[1].split(separator: " ")[1] == "10.0")
            let depths = try FileManager.default.contentsOfDirectory(atPath: out + "/py/depth")
            #expect(depths.count == 6)
            #expect(WorkerProcess.unreaped.pids(of: file).isEmpty)
        }
    }
}
