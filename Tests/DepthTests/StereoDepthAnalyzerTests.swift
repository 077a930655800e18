import Foundation
import Synchronization
import Testing
import TestSupport
import Parallax
import ParallaxTesting

@Suite struct StereoDepthAnalyzerTests {
    static let model = CameraModel(width: 160, height: 120, intrinsics: PinholeIntrinsics(fx: 200, fy: 200, cx: 79.5, cy: 59.5))
    static let leftKey = StreamKey<CameraFrame>("cam0"), rightKey = StreamKey<CameraFrame>("cam1")

    /// A textured image (smoothed noise, so that census windows differ everywhere).
    static func texture(width: Int, height: Int, seed: UInt64) -> [UInt8] {
        var rng = SeededGenerator(seed: seed)
        let coarse = (0..<((width / 2 + 2) * (height / 2 + 2))).map { _ in Double(rng.next() % 256) }
        return (0..<(width * height)).map { i in
            let x = i % width, y = i / width, cw = width / 2 + 2
            let v = (coarse[(y / 2) * cw + x / 2] + coarse[(y / 2) * cw + x / 2 + 1] + coarse[(y / 2 + 1) * cw + x / 2]) / 3
            return UInt8(max(0, min(255, v)))
        }
    }

    /// A harness with a rectified pair (right camera 10 cm along x) seeing a wall at `depth`
    /// (the right image is the left shifted by f·B/Z px).
    /// `chain`: made as a chain makes it, from these options (the others may follow the data);
    /// `search`: the disparities the dataset states for the pair.
    static func pair(depth: Double, frames: Int = 2, rightSize: (Int, Int)? = nil, skipRight: Set<Int> = [],
                     baseline: Double = 0.1, options: StereoDepthAnalyzer.Options = .init(), chain: [String: String]? = nil,
                     search: DisparitySearch? = nil) -> AnalyzerHarness {
        var harness = chain.map { AnalyzerHarness("stereo-depth", options: $0, registry: BuiltinAnalyzers.registry) }
            ?? AnalyzerHarness { try StereoDepthAnalyzer(options: options) }
        let partner = search.map { StereoPartner(stream: "cam1", partnerFromThis: SE3(rotation: .identity, translation: Vector3(-baseline, 0, 0)), disparitySearch: $0) }
        harness.describe(leftKey, as: StreamMetadata(camera: CameraCalibration(model: model), stereo: partner))
        harness.describe(rightKey, as: StreamMetadata(camera: CameraCalibration(model: model, bodyFromSensor: SE3(rotation: .identity, translation: Vector3(baseline, 0, 0)))))
        let w = model.width, h = model.height
        let shift = Int((model.intrinsics.fx * 0.1 / depth).rounded())
        let wide = texture(width: w + shift, height: h, seed: 4)
        // left(x) shows what right(x − shift) does.
        let left = (0..<(w * h)).map { wide[($0 / w) * (w + shift) + $0 % w] }
        let right = (0..<(w * h)).map { wide[($0 / w) * (w + shift) + $0 % w + shift] }
        for k in 0..<frames {
            let t = Timestamp(nanoseconds: Int64(k + 1) * 50_000_000)
            harness.push(CameraFrame(cameraID: "cam0", image: ImageBuffer(width: w, height: h, samples: left)), on: leftKey, at: t)
            guard !skipRight.contains(k) else { continue }
            let (rw, rh) = rightSize ?? (w, h)
            let image = rightSize == nil ? ImageBuffer(width: w, height: h, samples: right) : ImageBuffer(width: rw, height: rh, repeating: UInt8(0))
            harness.push(CameraFrame(cameraID: "cam1", image: image), on: rightKey, at: t)
        }
        return harness
    }

    @Test func aWallAtTwoMetresIsMeasuredAtTwoMetres() throws {
        let result = try Self.pair(depth: 2).run()
        #expect(result.failure == nil)
        let depths: [Packet<DepthMap>] = result.packets(on: "cam0/depth")
        let disparities: [Packet<DepthMap>] = result.packets(on: "cam0/disparity")
        #expect(depths.count == 2 && disparities.count == 2)
        let map = try #require(depths.first?.payload)
        #expect(map.kind == .depth)
        let valid = map.values.samples.filter(\.isFinite)
        // The left band x < 10 px sees what the right image does not: no depth there.
        #expect(valid.count > map.values.samples.count * 8 / 10, "\(valid.count) of \(map.values.samples.count) valid")
        let sorted = valid.sorted()
        #expect(abs(Double(sorted[sorted.count / 2]) - 2) < 0.02, "median depth \(sorted[sorted.count / 2]) m")
        let disparity = try #require(disparities.first?.payload)
        #expect(disparity.kind == .pixelDisparity && disparity.stereo == DepthMap.StereoGeometry(focalLength: 200, baseline: 0.1))
        #expect(map.stereo == disparity.stereo)   // the depth map says what it was measured with
    }

    @Test func aMissingPartnerFrameIsSkippedWithAWarning() throws {
        let result = try Self.pair(depth: 2, frames: 3, skipRight: [1]).run()
        #expect(result.failure == nil)
        #expect(result.packets(on: "cam0/depth", as: DepthMap.self).count == 2)
        #expect(result.report.warnings.contains { $0.contains("no 'cam1' frame within 1.0 ms") }, "\(result.report.warnings)")
    }

    @Test func aPartnerOfAnotherSizeIsAClearError() throws {
        let failure = try Self.pair(depth: 2, rightSize: (80, 60)).run().failure
        #expect("\(String(describing: failure))".contains("stream 'cam1' at 50000000 ns has a 80×60 image, its calibration (and partner) 160×120"))
    }

    @Test func aCalibrationWithoutBaselineIsAClearError() throws {
        let failure = try Self.pair(depth: 2, baseline: 0).run().failure
        #expect("\(String(describing: failure))".contains("no baseline"))
    }

    /// Disparities not given follow the data: the dataset's stated range (Middlebury's `ndisp`),
    /// cut below the image width; else the baseline's reach to `near` (f·B/near = 200 px · 0.1 m
    /// / 0.5 m = 40 → 48). The run says which once; a given value wins, silently.
    @Test func disparitiesNotGivenFollowTheData() throws {
        func run(_ chain: [String: String], search: DisparitySearch? = nil) throws -> (disparities: String?, notes: [String], depth: Float?) {
            let result = try Self.pair(depth: 2, frames: 1, chain: chain, search: search).run()
            #expect(result.failure == nil)
            let depth = try #require(result.packets(on: "cam0/depth", as: DepthMap.self).first).payload
            let fromData = result.report.optionsFromData?.first { $0.option == "disparities" }
            return (fromData?.value, result.report.notes, depth.values[80, 60])
        }
        let stated = try run([:], search: DisparitySearch(levels: 24, origin: "calib.txt (ndisp)"))
        #expect(stated.disparities == "24" && stated.notes == ["stereo-depth: disparities=24 from calib.txt (ndisp)"])
        #expect(abs((stated.depth ?? 0) - 2) < 0.1)  // 10 px of disparity: inside 24
        let wide = try run([:], search: DisparitySearch(levels: 400, origin: "calib.txt (ndisp)"))
        #expect(wide.disparities == "159" && wide.notes.first?.contains("400 cut to 159 (below the image width, 160 px") == true)
        let rig = try run([:])
        #expect(rig.disparities == "48" && rig.notes.first?.contains("from the baseline (100.0 mm, f 200.0 px) to reach near=0.5 m") == true)
        let nearer = try run(["near": "0.25"])
        #expect(nearer.disparities == "80")
        let given = try run(["disparities": "32"], search: DisparitySearch(levels: 24, origin: "calib.txt (ndisp)"))
        #expect(given.disparities == nil && given.notes.isEmpty)
        // Too few for the wall (10 px): the data's range is what was searched.
        let tooFew = try run([:], search: DisparitySearch(levels: 8, origin: "calib.txt (ndisp)"))
        #expect(tooFew.depth.map { abs($0 - 2) > 0.1 || $0.isNaN } ?? true)
    }

    /// One disparity is a search (of nothing but 0), not a crash; more than the matcher can hold
    /// for the pair's size is refused when the analyzer opens, naming the most it can.
    @Test func theSmallestAndLargestSearchesAreHandledAtOpen() throws {
        var one = StereoDepthAnalyzer.Options()
        one.matching.disparities = 1
        #expect(try Self.pair(depth: 2, frames: 1, options: one).run().failure == nil)
        let huge = CameraModel(width: 4000, height: 3000, intrinsics: PinholeIntrinsics(fx: 2000, fy: 2000, cx: 1999.5, cy: 1499.5))
        var many = StereoDepthAnalyzer.Options()
        many.matching.disparities = 1000
        var harness = AnalyzerHarness { try StereoDepthAnalyzer(options: many) }
        harness.describe(Self.leftKey, as: StreamMetadata(camera: CameraCalibration(model: huge)))
        harness.describe(Self.rightKey, as: StreamMetadata(camera: CameraCalibration(model: huge, bodyFromSensor: SE3(rotation: .identity, translation: Vector3(0.1, 0, 0)))))
        let failure = try harness.run().failure
        #expect("\(String(describing: failure))".contains("option 'disparities': 1000 are too many for 4000×3000 px pairs (at most 80:"))
    }

    /// Pairs narrower than any search the data asks for: a 2 px wide pair searches the one
    /// disparity below its width (the automatic choice stays valid: it used to pick 2 and then
    /// refuse it, blaming an option nobody gave); a 1 px wide pair is refused, naming the pair.
    @Test func tinyPairsGetAValidSearchOrAClearError() throws {
        func run(width: Int, height: Int) throws -> (failure: String?, notes: [String], maps: Int) {
            let tiny = CameraModel(width: width, height: height, intrinsics: PinholeIntrinsics(fx: 200, fy: 200, cx: Double(width - 1) / 2, cy: Double(height - 1) / 2))
            var harness = AnalyzerHarness("stereo-depth", options: [:], registry: BuiltinAnalyzers.registry)
            harness.describe(Self.leftKey, as: StreamMetadata(camera: CameraCalibration(model: tiny)))
            harness.describe(Self.rightKey, as: StreamMetadata(camera: CameraCalibration(model: tiny, bodyFromSensor: SE3(rotation: .identity, translation: Vector3(0.1, 0, 0)))))
            let t = Timestamp(nanoseconds: 50_000_000)
            let samples = (0..<(width * height)).map { UInt8(truncatingIfNeeded: 37 * $0 + 11) }
            harness.push(CameraFrame(cameraID: "cam0", image: ImageBuffer(width: width, height: height, samples: samples)), on: Self.leftKey, at: t)
            harness.push(CameraFrame(cameraID: "cam1", image: ImageBuffer(width: width, height: height, samples: samples)), on: Self.rightKey, at: t)
            let result = try harness.run()
            return (result.failure.map { "\($0)" }, result.report.notes, result.packets(on: "cam0/depth", as: DepthMap.self).count)
        }
        let two = try run(width: 2, height: 2)
        #expect(two.failure == nil)
        #expect(two.maps == 1)
        #expect(two.notes.first?.contains("cut to 1 (below the image width, 2 px") == true, "\(two.notes)")
        let one = try run(width: 1, height: 1)
        #expect(one.failure?.contains("option 'left/right': the pair is 1 px wide: a disparity search needs at least 2 px") == true, "\(one.failure ?? "no failure")")
    }

    /// A pair given the wrong way round (the "right" camera to the left) is refused, not matched
    /// into an empty map.
    @Test func aSwappedPairIsRefused() throws {
        let failure = try Self.pair(depth: 2, frames: 1, baseline: -0.1).run().failure
        #expect("\(String(describing: failure))".contains("'cam1' is 100.0 mm to the left of 'cam0', not to its right: swap left= and right="))
    }

    @Test func moreDisparitiesThanPixelsAcrossIsAClearError() throws {
        var options = StereoDepthAnalyzer.Options()
        options.matching.disparities = 160
        let failure = try Self.pair(depth: 2, options: options).run().failure
        #expect("\(String(describing: failure))".contains("option 'disparities': 160 is not below the image width (160 px)"))
        var same = StereoDepthAnalyzer.Options()
        same.right = "cam0"
        #expect(throws: AnalyzerError.self) { try StereoDepthAnalyzer(options: same) }
    }

    /// EuRoC's cam0/cam1 (distorted lenses, 11 cm apart): after rectification, corners found in
    /// the left image are found by Lucas–Kanade in the right one on the same row within 0.5 px
    /// (before, 7 px apart: the principal points differ), and the depth is finite where valid and
    /// plausible for a room (median 1–10 m).
    @Test(.enabled(if: RepositoryPaths.hasSharedData("euroc/V1_01_easy_micro"), "../shared/data/euroc/V1_01_easy_micro is not present on this machine"))
    func theRealEuRoCPairIsRectifiedRowByRow() throws {
        let clip = RepositoryPaths.sharedData("euroc/V1_01_easy_micro").path
        let source = try EuRoCSource(path: clip)
        let left = try #require(source.streams.first { $0.name == "cam0" }?.metadata.camera)
        let right = try #require(source.streams.first { $0.name == "cam1" }?.metadata.camera)
        var frames: [String: ImageBuffer<UInt8>] = [:]
        while frames.count < 2, let packet = try source.next() {
            if let frame = packet.payload as? CameraFrame, frames[packet.stream] == nil { frames[packet.stream] = frame.image }
        }
        let r = try StereoRectification(left: left.model, right: right.model, rightFromLeft: right.bodyFromSensor.inverse * left.bodyFromSensor)
        func rectified(_ side: StereoRectification.Side, _ image: ImageBuffer<UInt8>, _ camera: CameraModel) throws -> GrayImage {
            let table = r.sourceTable(camera: side)
            return GrayImage(try RemapTable(width: r.rectified.width, height: r.rectified.height, x: table.x, y: table.y,
                                            sourceWidth: camera.width, sourceHeight: camera.height).apply(to: image))
        }
        func rowDifferences(_ a: GrayImage, _ b: GrayImage) -> [Double] {
            var lk = PyramidalLucasKanade()
            lk.window = 15
            var detector = ShiTomasiDetector()
            detector.maxCorners = 150
            detector.border = 20
            let corners = detector.detect(a).map(\.position)
            let pa = lk.prepare(a), pb = lk.prepare(b)
            let forward = lk.track(corners, from: pa, to: pb)
            // Kept when tracking back lands within 0.1 px of the corner.
            let found = zip(corners, forward).compactMap { c, f -> (Vector2, Vector2)? in (try? f.get()).map { (c, $0) } }
            let back = lk.track(found.map(\.1), from: pb, to: pa)
            return zip(found, back).compactMap { pair, b in
                guard let b = try? b.get(), (b - pair.0).norm < 0.1 else { return nil }
                return abs(pair.1.y - pair.0.y)
            }.sorted()
        }
        let rectifiedRows = rowDifferences(try rectified(.left, try #require(frames["cam0"]), left.model), try rectified(.right, try #require(frames["cam1"]), right.model))
        let rawRows = rowDifferences(GrayImage(try #require(frames["cam0"])), GrayImage(try #require(frames["cam1"])))
        #expect(rectifiedRows.count >= 30, "\(rectifiedRows.count) corners matched")
        let median = rectifiedRows[rectifiedRows.count / 2], p90 = rectifiedRows[rectifiedRows.count * 9 / 10]
        #expect(median < 0.25 && p90 < 0.5, "rectified rows differ by \(median) px (median), \(p90) px (90 %)")
        #expect(rawRows.count >= 10 && rawRows[rawRows.count / 2] > 3, "unrectified rows differ by \(rawRows.isEmpty ? -1 : rawRows[rawRows.count / 2]) px")

        // One frame, 4 paths and 48 disparities (1.05 m and beyond) are enough, and a debug build
        // matches slowly: the run is cancelled after the first depth map.
        let runner = try ChainRunner(chain: "stereo-depth left=cam0 right=cam1 paths=4 disparities=48", dataset: clip)
        let depths = Mutex<[DepthMap]>([])
        let outcome = try runner.run(cancelled: { depths.withLock { !$0.isEmpty } }, sink: { _, packet in
            if let map = packet.payload as? DepthMap, map.kind == .depth { depths.withLock { $0.append(map) } }
        })
        #expect(outcome.failure.map { "\($0)".contains("cancel") } ?? true, "\(String(describing: outcome.failure))")
        let map = try #require(depths.withLock { $0.first })
        let valid = map.values.samples.filter { !$0.isNaN }
        #expect(valid.allSatisfy { $0.isFinite && $0 > 0 })
        #expect(valid.count > map.values.samples.count / 2, "\(valid.count) of \(map.values.samples.count) valid")
        let medianDepth = valid.sorted()[valid.count / 2]
        #expect(medianDepth > 1 && medianDepth < 10, "median depth \(medianDepth) m")
    }
}
