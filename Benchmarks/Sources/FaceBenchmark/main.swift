// Parallax's head-pose fit on the inputs the OpenCV reference script gives it, and the simulated
// sweeps of issue 14; prints JSON.
//
//   face-benchmark aflw FOLDER [FOCAL_SCALE ...]   # per face: true and fitted angles (rigid, uniform), f = scale × width
//   face-benchmark speed [REPEATS]                 # µs per PnP solve, 68 and 468 points (one thread)
//   face-benchmark sweep                           # simulated: error vs landmark noise and yaw; eyes; off-centre wide lens
//   face-benchmark frame IMAGE [REPEATS]           # ms per 640×480 frame: detection, + landmarks, + pose (one thread)
//   face-benchmark pnp 68|468 [--repeat N]         # the `speed` face, driven round by round (kernels/pnp.py)
//
// `pnp` prints one JSON line with the model points (m), the noisy pixels (px), the intrinsics
// and the true pose, fits once untimed, prints `ready`, and then reads lines `SOLVES` on
// standard input: each runs that many fits back to back (`HeadPoseEstimator.fit`, the whole
// face-pose fit) and prints `{"seconds": S, "error_deg": E, "digest": "…"}`, S the total time.
// With `--repeat N` it runs N fits untimed and exits (for callgrind: the difference of two
// counts over the difference of N is the count of one fit).
//
// Run by Benchmarks/reference/face_pose_vs_opencv.py, which does the same with OpenCV in the same run.
import Foundation
import Parallax
import ParallaxTesting

func json(_ value: Any) -> String {
    guard let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]) else { return "null" }
    return String(decoding: data, as: UTF8.self)
}

func degrees(_ a: SO3, _ b: SO3) -> Double { (a.inverse * b).angle * 180 / .pi }

/// The `speed` mode's face: the true pose, the camera and the seeded noisy pixels of `model`.
func speedFace(_ model: FaceModel) -> (camera: CameraModel, truth: SE3, pixels: [Vector2]) {
    let camera = CameraModel(width: 640, height: 480, intrinsics: PinholeIntrinsics(fx: 600, fy: 600, cx: 319.5, cy: 239.5))
    let truth = SE3(rotation: HeadAngles(pitch: 10, yaw: 30, roll: -5).cameraFromHead, translation: Vector3(0.03, -0.02, 0.6))
    var rng = SeededGenerator(seed: 1)
    let pixels = model.points.map { (camera.project(truth * $0) ?? .zero) + Vector2(rng.nextGaussian(), rng.nextGaussian()) }
    return (camera, truth, pixels)
}

let args = Array(CommandLine.arguments.dropFirst())
guard let mode = args.first else { print("usage: face-benchmark aflw FOLDER [SCALE ...] | speed [REPEATS] | sweep"); exit(2) }

switch mode {
case "aflw":
    guard args.count >= 2 else { print("usage: face-benchmark aflw FOLDER [SCALE ...]"); exit(2) }
    let source = try AFLW2000Source(path: args[1])
    let scales = args.count > 2 ? args[2...].compactMap { Double($0) } : [1]
    var faces: [[String: Any]] = []
    for ((image, _), truth) in zip(source.files, source.faceTruth[AFLW2000Source.face] ?? []) {
        var entry: [String: Any] = ["image": (image as NSString).lastPathComponent,
                                    "truth": [truth.angles?.pitch ?? .nan, truth.angles?.yaw ?? .nan, truth.angles?.roll ?? .nan]]
        for scale in scales {
            var model = source.camera.model
            model.intrinsics.fx *= scale
            model.intrinsics.fy *= scale
            for weighting in HeadPoseEstimator.Weighting.allCases {
                var estimator = HeadPoseEstimator(model: .ibug68)
                estimator.weighting = weighting
                guard let landmarks = truth.landmarks, let fit = try? estimator.fit(pixels: landmarks, camera: model) else { continue }
                let a = HeadAngles(cameraFromHead: fit.cameraFromHead.rotation)
                entry["\(weighting.rawValue)@\(scale)"] = [a.pitch, a.yaw, a.roll]
            }
        }
        faces.append(entry)
    }
    print(json(["faces": faces]))

case "speed":
    let repeats = args.count > 1 ? Int(args[1]) ?? 2000 : 2000
    var rows: [String: Any] = [:]
    for (name, model) in [("68", FaceModel.ibug68), ("468", FaceModel.mediapipe468)] {
        let (camera, truth, pixels) = speedFace(model)
        let estimator = HeadPoseEstimator(model: model)
        var times: [Double] = []
        var error = 0.0
        for _ in 0..<5 {
            let start = ContinuousClock.now
            for _ in 0..<repeats { if let fit = try? estimator.fit(pixels: pixels, camera: camera) { error = degrees(fit.cameraFromHead.rotation, truth.rotation) } }
            times.append((ContinuousClock.now - start).seconds / Double(repeats) * 1e6)
        }
        rows[name] = ["us_per_solve": times.sorted()[2], "error_deg": error, "points": pixels.map { [$0.x, $0.y] }]
    }
    print(json(rows))

case "sweep":
    let camera = CameraModel(width: 640, height: 480, intrinsics: PinholeIntrinsics(fx: 600, fy: 600, cx: 319.5, cy: 239.5))
    /// Mean rotation error (°) and flips over `trials` seeded faces at `yaw`, `noise` px.
    func trial(_ model: FaceModel, yaw: Double, noise: Double, camera: CameraModel, at offset: Vector3 = .zero, trials: Int = 40) -> (mean: Double, flips: Int, failures: Int) {
        let estimator = HeadPoseEstimator(model: model)
        var sum = 0.0, flips = 0, failures = 0, n = 0
        var rng = SeededGenerator(seed: UInt64(yaw * 100 + noise * 10 + 7))
        for k in 0..<trials {
            let angles = HeadAngles(pitch: 15 * sin(Double(k)), yaw: k % 2 == 0 ? yaw : -yaw, roll: 8 * cos(Double(k)))
            let truth = SE3(rotation: angles.cameraFromHead, translation: Vector3(0.02, -0.01, 0.6) + offset)
            let pixels = model.points.map { (camera.project(truth * $0) ?? Vector2(.nan, .nan)) + noise * Vector2(rng.nextGaussian(), rng.nextGaussian()) }
            guard let fit = try? estimator.fit(pixels: pixels, camera: camera) else { failures += 1; continue }
            let e = degrees(fit.cameraFromHead.rotation, truth.rotation)
            if e > 90 { flips += 1 }
            sum += e
            n += 1
        }
        return (n > 0 ? sum / Double(n) : .nan, flips, failures)
    }
    var table: [[String: Any]] = []
    for noise in [0.0, 0.5, 1, 2, 3] {
        for yaw in [0.0, 20, 40, 60, 80] {
            let r = trial(.ibug68, yaw: yaw, noise: noise, camera: camera)
            table.append(["noise_px": noise, "yaw_deg": yaw, "error_deg": r.mean, "flips": r.flips, "failures": r.failures])
        }
    }
    // Off-centre faces under a 113° lens, against the same faces centred.
    let wide = CameraModel(width: 1280, height: 720, intrinsics: PinholeIntrinsics(fx: 420, fy: 420, cx: 639.5, cy: 359.5))
    var offCentre: [[String: Any]] = []
    for (x, y) in [(0.0, 0.0), (0.3, 0.15), (0.55, 0.25)] {
        let r = trial(.ibug68, yaw: 20, noise: 1, camera: wide, at: Vector3(x, y, -0.1))
        let pixel = wide.project(Vector3(0.02 + x, -0.01 + y, 0.5)) ?? .zero
        offCentre.append(["offset_m": [x, y], "face_pixel": [pixel.x, pixel.y], "error_deg": r.mean, "flips": r.flips])
    }
    // Eyes: the simulated sequence with irises (MediaPipe 478), 0.5 and 1 px of noise.
    var eyes: [[String: Any]] = []
    for noise in [0.0, 0.5, 1.0] {
        var simulator = FaceSimulator(model: CanonicalFace.vertices, camera: CameraCalibration(model: camera))
        simulator.pixelNoise = noise
        let packets = simulator.packets(duration: 10, seed: 3)
        var truth: [Timestamp: FaceAnchor] = [:]
        for p in packets { if let a = p.payload as? FaceAnchor { truth[p.timestamp] = a } }
        var head = 0.0, sight = 0.0, look = 0.0, n = 0, sights = 0, looks = 0
        for p in packets {
            guard let l = p.payload as? FaceLandmarks, let t = truth[p.timestamp],
                  let fit = try? HeadPoseEstimator(model: .mediapipe478).fit(pixels: l.points, camera: camera),
                  let e = try? EyeGaze.eyes(cameraFromHead: fit.cameraFromHead, rightIris: l.points[CanonicalFace.rightIrisCenter], leftIris: l.points[CanonicalFace.leftIrisCenter],
                                            centers: FaceModel.mediapipe478.eyeballCenters, camera: camera) else { continue }
            head += degrees(fit.cameraFromHead.rotation, t.cameraFromHead.rotation)
            n += 1
            for (a, b) in [(e.left, t.leftEye), (e.right, t.rightEye)] {
                sight += acos(min(1, (a.rotation * Vector3(0, 0, 1)).dot(b.rotation * Vector3(0, 0, 1)))) * 180 / .pi
                sights += 1
            }
            // The look-at point in the camera frame against the true target.
            look += ((fit.cameraFromHead * e.lookAtPoint) - (t.cameraFromHead * t.lookAtPoint)).norm
            looks += 1
        }
        eyes.append(["noise_px": noise, "head_deg": head / Double(max(n, 1)), "line_of_sight_deg": sight / Double(max(sights, 1)),
                     "look_at_mm": 1000 * look / Double(max(looks, 1)), "frames": n])
    }
    print(json(["noise_yaw": table, "off_centre_wide": offCentre, "eyes": eyes]))

case "frame":
    // The image centred on a mid-gray 640 × 480 canvas (cropped if larger), as face-landmarks sees it.
    guard args.count >= 2 else { print("usage: face-benchmark frame IMAGE [REPEATS]"); exit(2) }
    let repeats = args.count > 2 ? Int(args[2]) ?? 20 : 20
    let source = try ImageDecoder.decode8Bit(path: args[1]).luma
    var canvas = [UInt8](repeating: 128, count: 640 * 480)
    let ox = (640 - source.width) / 2, oy = (480 - source.height) / 2
    for y in 0..<source.height where (0..<480).contains(y + oy) {
        for x in 0..<source.width where (0..<640).contains(x + ox) { canvas[(y + oy) * 640 + x + ox] = source.samples[y * source.width + x] }
    }
    let frame = CameraFrame(cameraID: "cam0", image: ImageBuffer(width: 640, height: 480, channels: 1, samples: canvas))
    let camera = CameraCalibration(model: CameraModel(width: 640, height: 480, intrinsics: PinholeIntrinsics(fx: 640, fy: 640, cx: 319.5, cy: 239.5)))
    var rows: [String: Any] = [:]
    for upsample in [0, 1] {
        /// Median ms per frame of a chain over `repeats` copies of the frame.
        func time(_ options: FaceLandmarksAnalyzer.Options) throws -> (ms: Double, faces: Int) {
            var h = AnalyzerHarness { try FaceLandmarksAnalyzer(options: options) }
            h.describe(StreamKey<CameraFrame>("cam0"), as: StreamMetadata(camera: camera))
            for k in 0..<repeats { h.push(frame, on: StreamKey<CameraFrame>("cam0"), at: Timestamp(nanoseconds: Int64(k + 1) * 33_333_333)) }
            let result = try h.run()
            let faces = result.packets(on: "cam0/faces", as: DetectedFaces.self).first?.payload.faces.count ?? 0
            return (result.report.analyzers.first { $0.analyzer == FaceLandmarksAnalyzer.name }?.p50Milliseconds ?? .nan, faces)
        }
        var options = FaceLandmarksAnalyzer.Options(); options.upsample = upsample
        let detect = try time(options)
        rows["upsample\(upsample)"] = ["detect_and_landmarks_ms": detect.ms, "faces": detect.faces]
    }
    // Pose: face-pose's fit of the detected 68 landmarks.
    var h = AnalyzerHarness { try FaceLandmarksAnalyzer(options: FaceLandmarksAnalyzer.Options()) }
    h.describe(StreamKey<CameraFrame>("cam0"), as: StreamMetadata(camera: camera))
    h.push(frame, on: StreamKey<CameraFrame>("cam0"), at: Timestamp(nanoseconds: 1))
    if let face = try h.run().packets(on: "cam0/faces", as: DetectedFaces.self).first?.payload.faces.first {
        let estimator = HeadPoseEstimator(model: .ibug68)
        let start = ContinuousClock.now
        for _ in 0..<1000 { _ = try? estimator.fit(pixels: face.landmarks.points, camera: camera.model) }
        rows["pose_ms"] = (ContinuousClock.now - start).seconds  // 1000 fits: seconds total = ms each
    }
    print(json(rows))

case "pnp":
    guard args.count >= 2, let model = ["68": FaceModel.ibug68, "468": FaceModel.mediapipe468][args[1]] else {
        print("usage: face-benchmark pnp 68|468 [--repeat N]"); exit(2)
    }
    let (camera, truth, pixels) = speedFace(model)
    let estimator = HeadPoseEstimator(model: model)
    /// `count` fits; the last one's rotation error (°) and the bits of its pose.
    func fits(_ count: Int) -> (error: Double, digest: String) {
        var last: SE3?
        for _ in 0..<count { last = (try? estimator.fit(pixels: pixels, camera: camera))?.cameraFromHead }
        guard let last else { return (.nan, "none") }
        let q = last.rotation.quaternion, t = last.translation
        var hash: UInt64 = 14_695_981_039_346_656_037
        for v in [q.w, q.x, q.y, q.z, t.x, t.y, t.z] { hash = (hash ^ v.bitPattern) &* 1_099_511_628_211 }
        return (degrees(last.rotation, truth.rotation), String(hash, radix: 16))
    }
    if let i = args.firstIndex(of: "--repeat"), i + 1 < args.count, let n = Int(args[i + 1]) {
        _ = fits(max(0, n))
        exit(0)
    }
    let k = camera.intrinsics
    print(json(["model": model.points.map { [$0.x, $0.y, $0.z] }, "pixels": pixels.map { [$0.x, $0.y] },
                "camera": [k.fx, k.fy, k.cx, k.cy], "truth_rotation": (0..<3).map { r in (0..<3).map { c in truth.rotation.matrix[r, c] } },
                "truth_translation": [truth.translation.x, truth.translation.y, truth.translation.z]]))
    _ = fits(1)  // warm-up: lazily built tables, allocator
    print("ready")
    fflush(nil)
    while let line = readLine() {
        let count = max(1, Int(line.trimmingCharacters(in: .whitespaces)) ?? 1)
        let start = ContinuousClock.now
        let (error, digest) = fits(count)
        let seconds = (ContinuousClock.now - start).seconds
        print(json(["seconds": seconds, "error_deg": error, "digest": digest]))
        fflush(nil)
    }

default:
    print("unknown mode '\(mode)'")
    exit(2)
}
