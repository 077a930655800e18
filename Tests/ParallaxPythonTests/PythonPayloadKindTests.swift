import Foundation
import Testing
import TestSupport
import ParallaxApp
import Parallax
@testable import ParallaxPython

extension WorkerProcessSuites {
    /// Every kind of payload crosses to the worker and back as the bus's own types: frames with
    /// their calibration, IMU samples between frames as arrays, and poses with covariance, depth
    /// maps, JSON, feature tracks, boxes and landmarks emitted — written as Swift analyzers' are (pose.tum, depth
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
                boxes = parallax.Output("py/boxes", parallax.BOXES)
                point = parallax.Output("py/landmarks", parallax.LANDMARKS)

                def process(self, frame, inputs):
                    m = np.eye(4)
                    m[0, 3] = len(inputs["imu"])
                    self.emit(self.pose, {"matrix": m, "covariance": np.eye(6) * 0.01})
                    self.emit(self.depth, np.full((4, 6), 2.5, dtype=np.float32))
                    self.emit(self.info, {"imu": len(inputs["imu"]), "gyro_shape": list(inputs["imu"].gyro.shape),
                                          "fx": frame.calibration["fx"], "shape": list(frame.image.shape), "dtype": str(frame.image.dtype)})
                    self.emit(self.tracks, parallax.tracks("cam0", frame.image.shape[1], frame.image.shape[0], [7], [[1.5, 2.5]], [3]))
                    self.emit(self.boxes, parallax.boxes(752, 480, [[10, 20, 30, 40]], ids=[4], confidences=[0.5]))
                    self.emit(self.point, parallax.landmark(9, [1.0, 2.0, 3.0], observations=4))
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
            #expect(events.filter { $0.contains("\"stream\":\"py/boxes\"") && $0.contains("\"id\":4") && $0.contains("\"confidence\":0.5")
                && $0.contains("\"width\":30") }.count == 6)
            #expect(events.filter { $0.contains("\"stream\":\"py/landmarks\"") && $0.contains("\"id\":9") && $0.contains("\"position\":[1,2,3]") }.count == 6)
            let tum = try String(contentsOfFile: out + "/py/pose.tum", encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }
            #expect(tum.count == 6 && tum[1].split(separator: " ")[1] == "10.0")
            let depths = try FileManager.default.contentsOfDirectory(atPath: out + "/py/depth")
            #expect(depths.count == 6)
            #expect(WorkerProcess.unreaped.pids(of: file).isEmpty)
        }
    }
}
