import Foundation
import ParallaxGeometry
import ParallaxInertial
import ParallaxMath

/// The camera–IMU clock offset before and after the start: the rotation search
/// (``ClockOffsetSearch``) widened when the offset lies beyond its range, the once-moving search
/// that can start the filter again, and the visual–inertial alignment's word where the rotations
/// say nothing or only roughly.
extension VIOEstimator {
    /// How far (s) the search looks when the set range shows the offset beyond it, on either side:
    /// past ±500 ms, the most `time_offset_ms` takes, by enough that an offset at 500 ms on a
    /// smooth motion (found to ±10–20 ms) shows as a valley, not a cost still falling toward
    /// the end (at ±550 ms a rendered orbit started moving, camera 500 ms late, was never
    /// found: 31 of 161 frames posed, 0.14 m). A camera stamping early needs the IMU readings
    /// this far past its frames, which the analyzer's IMU input brings (``imuLead(_:)``).
    public static let widestSearch = 0.65
    /// The widths (s) the search widens to in turn, the last ``widestSearch``.
    static let wideSearches = [0.55, widestSearch]

    /// How far past each frame's stamp the IMU readings must reach (s) for the filter and the
    /// clock-offset search: a camera stamping earlier than the IMU's clock (a positive
    /// `time_offset_ms`, or one the search or the filter may find) has its frames' exposures that
    /// far on. With the search on, as far as it may widen (``widestSearch``): a camera stamping
    /// 150 ms early was otherwise left undetermined at the search's ±100 ms and started only when
    /// standing still, 16 s later. In `--realtime` runs this is latency; `time_offset_search_ms=0`
    /// keeps it to `time_offset_ms` + 3 σ.
    public static func imuLead(_ settings: VIOSettings) -> Double {
        guard settings.estimateTimeOffset else { return max(0, settings.timeOffsetMs) / 1000 }
        let search = settings.timeOffsetSearchMs > 0 ? max(settings.timeOffsetSearchMs / 1000, widestSearch) : 0
        return max(0, settings.timeOffsetMs) / 1000 + max(search, 3 * settings.timeOffsetSigmaMs / 1000)
    }

    /// The search over the recent frames (``ClockOffsetSearch``) and the range it ended with;
    /// `nil` while too few frames reach far enough for it.
    func clockOffsetOutcome() -> (ClockOffsetSearch.Outcome, ClockOffsetSearch)? {
        var search = ClockOffsetSearch()
        search.range = settings.timeOffsetSearchMs / 1000
        search.normalizedNoise = settings.pixelNoise / sensors.camera.model.intrinsics.fx
        search.stampJitter = stampJitter.sigma
        var outcome = search.search(views.frames, imu: propagator.measurements, imuFromCamera: imuFromCamera.rotation)
        // A camera later or earlier still than the range (its frames fit better toward an end of
        // it, or fit no shift in it): looked for up to 650 ms either way (the IMU input reaches
        // that far past the frames). Both ends are tried: with the gyro bias fitted at every
        // shift, a few pairs far from the offset can lean either way (a camera 540 ms late seen
        // for its first second: toward +100 ms).
        switch outcome {
        case .beyondRange, .mismatch, .leaning:
            // In 5 ms steps (a fifth of the shifts: at 1 ms, a search over a smooth orbit's 3 s
            // took 1.8 s, tried once a second once moving), an offset found there refined in
            // 1 ms steps over ±20 ms around it. First over ±550 ms, which needs 100 ms fewer
            // readings on either side of a frame (a camera 130 ms late with the IMU starting a
            // second after it, in a 3 s clip, was found there and not at ±650), then, where the
            // cost still leans to an end or falls beyond it, over ±650 ms.
            var narrower: (ClockOffsetSearch.Outcome, ClockOffsetSearch)?
            for width in Self.wideSearches where search.range < width {
                var wider = search
                wider.range = width
                wider.step = 0.005
                var widened = wider.search(views.frames, imu: propagator.measurements, imuFromCamera: imuFromCamera.rotation)
                if case let .found(coarse) = widened {
                    var fine = search
                    fine.range = 0.02
                    let moved = views.frames.map { $0.shifted(by: coarse.offset) }
                    if case let .found(refined) = fine.search(moved, imu: propagator.measurements, imuFromCamera: imuFromCamera.rotation) {
                        widened = .found(.init(offset: coarse.offset + refined.offset, sigma: refined.sigma, pairs: refined.pairs))
                    }
                }
                switch widened {
                // Leaning still, or beyond it (a camera 520–600 ms late was said to lie beyond
                // ±550 ms and never looked for further): the next width may show the valley.
                case .leaning where width < Self.widestSearch, .beyondRange where width < Self.widestSearch:
                    if case .beyondRange = widened { narrower = (widened, wider) }
                    continue
                // Too few frames yet for the wider search (its range of readings on either side
                // of a frame), or no clearer at the widest: asked again with more — unless a
                // narrower width already said the offset lies beyond it.
                case .leaning, .undetermined:
                    guard let narrower else { return nil }
                    (outcome, search) = narrower
                case .found, .rough, .beyondRange, .mismatch:
                    search = wider
                    outcome = widened
                }
                break
            }
        default: break
        }
        switch outcome {
        case .undetermined, .leaning: return nil
        case .found, .rough, .beyondRange, .mismatch: return (outcome, search)
        }
    }

    /// With the filter running from a start that left the offset undetermined (a still start):
    /// the search once the frames turn enough, every second. An offset found that the
    /// filter's own estimate does not reach within 3 σ (of both) and 10 ms — which the online
    /// estimate, linearized at its start, does not close (a camera 200 ms early, started still:
    /// lost 0.65 s into the motion) — moves the recent frames and the next start's offset, and
    /// returns `true`: the filter is to start again from it. A mismatch or an offset beyond the
    /// search is said as before a start.
    mutating func searchClockOffsetOnceMoving(_ f: MSCKF, at t: Double) -> Bool {
        guard t >= nextClockOffsetSearch, let first = views.frames.first, t - first.time >= settings.dynamicWindow * 0.95 else { return false }
        // Once a second: the filter runs meanwhile, and the search over its 650 ms is the
        // costliest step of a frame. Not while the images stand still (nothing to match), and
        // given up after 10 tries that could not tell (a steady turn).
        nextClockOffsetSearch = t + 1
        if let moved = views.motion(over: settings.dynamicWindow, at: t), moved <= settings.staticMaxDisparityPx { return false }
        clockOffsetTries += 1
        guard let (outcome, search) = clockOffsetOutcome() else {
            previousRoughAnswer = nil
            if clockOffsetTries >= 10 { clockOffsetPending = false }
            return false
        }
        // A rough answer (a smooth motion's, σ above 2 ms) can be far off where the translation
        // mimics a turn (VIOEstimatorTests' orbit, no offset: 102 ± 14 ms): it starts the filter
        // again only when something else says so too — the filter does not fit the images
        // (more than a quarter of its features inconsistent over the last 1.5 s; a healthy run:
        // about a tenth), or the filter's own estimate heads for it (``RoughClockOffset``) — and
        // is otherwise no answer.
        if case let .rough(result) = outcome {
            let answer = RoughClockOffset(offset: startTimeOffset + result.offset, sigma: result.sigma, filter: f.calibration.timeOffset)
            let leads = answer.leadsTheFilter(after: previousRoughAnswer)
            previousRoughAnswer = answer
            if !leads, (lost.inconsistentShare ?? 0) <= 0.25 {
                if lost.inconsistentShare == nil { clockOffsetTries -= 1 }   // too early to tell: not a try
                if clockOffsetTries >= 10 { clockOffsetPending = false }
                return false
            }
        } else {
            previousRoughAnswer = nil
        }
        clockOffsetPending = false
        switch outcome {
        case .undetermined, .leaning: return false
        case let .beyondRange(edge):
            events.append(.clockOffsetBeyondSearch(edge: startTimeOffset + edge, centre: startTimeOffset, range: search.range))
            return false
        case let .mismatch(perDegree):
            events.append(.rotationMismatch(costPerDegree: perDegree, centre: startTimeOffset, range: search.range))
            return false
        case let .found(result), let .rough(result):
            let filterSigma = f.timeOffsetIndex.map { f.covariance[$0, $0].squareRoot() } ?? 0
            let offset = startTimeOffset + result.offset
            let restart = abs(offset - f.calibration.timeOffset) > max(0.01, 3 * (result.sigma * result.sigma + filterSigma * filterSigma).squareRoot())
            events.append(.clockOffsetOnceMoving(offset: offset, sigma: result.sigma, pairs: result.pairs,
                                                 filter: f.calibration.timeOffset, filterSigma: filterSigma, restarted: restart))
            guard restart else { return false }
            startTimeOffset = offset
            startTimeOffsetSigma = result.sigma
            views.shift(by: result.offset)
            return true
        }
    }

    /// Before the start, once the frames span a second: the clock offset the rotations agree on
    /// (``ClockOffsetSearch``), tried again every quarter second until it is determined, combined
    /// with the prior (``VIOSettings/timeOffsetMs`` ± ``VIOSettings/timeOffsetSigmaMs``): the
    /// recent frames and the start's offset move by the result. Returns the shift applied (s).
    mutating func searchClockOffset(at t: Double) -> Double {
        guard settings.estimateTimeOffset, settings.timeOffsetSearchMs > 0, !clockOffsetSearched, t >= nextClockOffsetSearch,
              let first = views.frames.first, t - first.time >= settings.dynamicWindow * 0.95 else { return 0 }
        nextClockOffsetSearch = t + 0.25
        guard let (outcome, search) = clockOffsetOutcome() else { return 0 }
        let found: ClockOffsetSearch.Result
        switch outcome {
        case .undetermined, .leaning: return 0
        // A rough answer can be far off (VIOEstimatorTests' orbit, no offset: 102 ± 14 ms) and
        // there is no filter yet to tell: taken only where the window's visual–inertial alignment
        // also fits it clearly better (``alignmentPrefers(_:)``).
        case let .rough(result):
            guard alignmentPrefers(result.offset) else { return 0 }
            found = result
        case let .beyondRange(edge):
            clockOffsetSearched = true
            events.append(.clockOffsetBeyondSearch(edge: startTimeOffset + edge, centre: startTimeOffset, range: search.range))
            return 0
        case let .mismatch(perDegree):
            clockOffsetSearched = true
            events.append(.rotationMismatch(costPerDegree: perDegree, centre: startTimeOffset, range: search.range))
            return 0
        case let .found(result): found = result
        }
        clockOffsetSearched = true
        clockOffsetDetermined = true
        // Started from the search's offset when it is surer than the prior (combining them pulled
        // an 80 ms offset found to ±1.7 ms back by 8 ms toward a prior of 0 ± 5: 5.5 → 8.3 mm on
        // MH_01), or when the two disagree by more than 3 σ of both (the prior is a setting, not
        // a measurement: a camera 300 ms off found to ±10 ms was pulled to 60 ms), the filter
        // then starting with the search's σ; else from the two combined, weighed by their σ.
        let prior = pow(settings.timeOffsetSigmaMs / 1000, 2), measured = found.sigma * found.sigma
        let contradicted = abs(found.offset) > 3 * (prior + measured).squareRoot()
        let shift = measured < prior || contradicted ? found.offset : found.offset * prior / (prior + measured)
        startTimeOffsetSigma = contradicted && measured > prior ? found.sigma : 0
        events.append(.clockOffset(offset: startTimeOffset + found.offset, sigma: found.sigma, pairs: found.pairs, start: startTimeOffset + shift, centre: startTimeOffset, range: search.range))
        startTimeOffset += shift
        views.shift(by: shift)
        return shift
    }

    /// The recent frames a moving start may span (up to its longest window back from the last).
    func recentFrames() -> [DynamicInitializer.Frame] {
        guard let last = views.frames.last else { return [] }
        return views.frames.filter { $0.time >= last.time - Initializer.longestDynamicSpan * settings.dynamicWindow - 1e-6 }
    }

    /// How well `frames` moved by `shift` (s) and the IMU fit one motion (``DynamicInitializer/fitResidual``).
    func alignmentFit(_ frames: [DynamicInitializer.Frame], shiftedBy shift: Double) -> Double? {
        initializer.dynamic.fitResidual(frames.map { $0.shifted(by: shift) }, imu: propagator.measurements, noise: sensors.imu.noise,
                                        imuFromCamera: imuFromCamera)
    }

    /// The clock offset (a shift of the recent frames, s) at which they and the IMU fit one motion
    /// best (``DynamicInitializer/fitResidual``), scanned over the widest search (±650 ms) in
    /// 50 ms steps, the minimum placed between its neighbours by a parabola, when it fits at
    /// least a fifth better than where the frames stand (or only there); `nil` otherwise. The
    /// refined alignment's RMS is sharp in the offset where the translation and gravity tell it
    /// (a rendered orbit, camera 500 ms early: 0.54 px there, 1.9 px 50 ms away, no fit within
    /// 250 ms of 0), where the rotations of a second of motion did not. Its σ: half a step (the
    /// search around it at the next frame refines it). A shift that fails costs ≈ 50 ms, one
    /// that fits ≈ 0.17 s (26 frames): 4–5 s on a smooth orbit, where most fit, once per start.
    func alignmentScan() -> (shift: Double, sigma: Double, frames: Int, rms: Double, rmsBefore: Double?)? {
        // At most 26 of them, evenly from the last back (a fit's cost grows with the frames, and
        // the span is what tells the offset).
        let span = recentFrames()
        let every = max(1, (span.count + 25) / 26)
        let recent = Array(stride(from: span.count - 1, through: 0, by: -every).map { span[$0] }.reversed())
        func fit(_ shift: Double) -> Double? { alignmentFit(recent, shiftedBy: shift) }
        let step = 0.05
        let steps = Int((Self.widestSearch / step).rounded())
        let fits = (-steps...steps).map { k in fit(Double(k) * step) }
        guard let (k, rms) = fits.enumerated().compactMap({ i, r in r.map { (i, $0) } }).min(by: { $0.1 < $1.1 }) else { return nil }
        let here = fits[steps]
        guard k != steps, here.map({ rms < 0.8 * $0 }) ?? true else { return nil }
        // Between its neighbours where both fit: the vertex of the parabola through the three.
        var shift = Double(k - steps) * step
        if k > 0, k < fits.count - 1, let before = fits[k - 1], let after = fits[k + 1] {
            let curvature = before - 2 * rms + after
            if curvature > 0 { shift += step * max(-0.5, min(0.5, (before - after) / (2 * curvature))) }
        }
        return (shift, step / 2, recent.count, rms, here)
    }

    /// Whether the recent frames (up to the longest moving start's span) and the IMU fit one
    /// motion clearly better moved by `shift` (s) than as they stand: the refined alignment's
    /// RMS reprojection error (``DynamicInitializer/fitResidual``) at least a fifth lower there,
    /// or fitting only there. On a smooth orbit an offset 100 ms off changes it by ≈ 3 % (the
    /// rotations tell that; the once-moving search takes it), 300 ms by 30 % (0.66 → 0.46 px).
    func alignmentPrefers(_ shift: Double) -> Bool {
        let recent = recentFrames()
        func fit(_ shift: Double) -> Double? { alignmentFit(recent, shiftedBy: shift) }
        guard let there = fit(shift) else { return false }
        guard let here = fit(0) else { return true }
        return there < 0.8 * here
    }
}
