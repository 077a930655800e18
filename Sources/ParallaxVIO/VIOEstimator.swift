import Foundation
import ParallaxGeometry
import ParallaxImage
import ParallaxInertial
import ParallaxMath
import ParallaxVision

/// Visual-inertial odometry without the bus (OpenVINS's `VioManager`): a sliding-window MSCKF
/// over a camera's feature tracks and the IMU, giving metric poses `T_WB` (world
/// gravity-aligned, z up), velocity, a 6 × 6 covariance, the IMU biases and ARKit's tracking
/// state every frame.
///
/// Feed the IMU readings up to (and the first after) each frame, then the frame's tracks:
/// ```swift
/// var vio = VIOEstimator(settings: VIOSettings(), sensors: VIOSensors(camera: cam0, imu: imu0))
/// for s in readingsUpToTheFrame { vio.feed(imu: s) }
/// let estimate = vio.feed(tracks: frame)
/// ```
/// Per frame: the IMU state is propagated to the frame time (``Propagator``; the end is
/// interpolated from the first reading after the frame), the pose is cloned into the window,
/// landmarks, features whose tracks ended and, when the window is full, those seen in the
/// oldest clone update the filter (``UpdaterSLAM``, ``UpdaterMSCKF``), and the oldest clone is
/// marginalized. Until a start (``Initializer``) the state is `limited(initializing)`. While
/// the platform stands still, a zero-velocity update holds it in place
/// (``UpdaterZeroVelocity``). An IMU gap longer than ``VIOSettings/maxImuGapMs``, a state
/// that is no longer finite or faster than ``VIOSettings/maxSpeed``, or features that no longer
/// fit the clones (``LostTracking``) reset the filter.
///
/// With ``VIOSettings/mapping`` and the camera's images, it builds a world map, and with a
/// loaded map it relocalizes into it (``WorldMapping``). What happens on the way is in
/// ``takeEvents()``, the run's counts in ``summary``.
public struct VIOEstimator {
    public let settings: VIOSettings
    public let sensors: VIOSensors
    /// `T_IC`: camera to IMU, as calibrated.
    let imuFromCamera: SE3
    /// `T_IB`: body to IMU.
    let imuFromBody: SE3
    /// The filter, once started.
    var filter: MSCKF?
    var propagator: Propagator
    var views: RecentViews
    var initializer: Initializer
    var database = FeatureDatabase()
    var msckf: UpdaterMSCKF
    var slam: UpdaterSLAM
    var zeroVelocity: UpdaterZeroVelocity
    var mapping: WorldMapping
    var quality: TrackingQuality
    /// Whether the features still fit the clones (a filter drifting on the IMU alone is reset).
    var lost: LostTracking
    /// How much the camera's stamps wander (measured from them; the clones' timing uncertainty).
    var stampJitter = StampJitter()
    /// When the filter started (s).
    var initializedAt = 0.0
    /// The calibration the filter started from, to report what it estimated.
    var initialCalibration: VIOCalibration?
    /// The calibration of the last filter reset (``VIOSummary/calibration``).
    var lastCalibration: VIOSummary.Calibration?
    var resets = 0
    /// The camera–IMU time offset the next start uses (s): the setting's, or what the search
    /// before the start found (``ClockOffsetSearch``).
    var startTimeOffset: Double
    /// σ (s) of ``startTimeOffset`` when the search found it only roughly (more than the
    /// setting's σ): the next start's prior on the offset.
    var startTimeOffsetSigma = 0.0
    /// Whether the search has given its answer, and when it may try again (s, IMU clock).
    var clockOffsetSearched = false
    /// Whether a moving start with the offset undetermined has scanned the offsets for the best
    /// visual–inertial fit (once per start: see ``alignmentScan()``).
    var alignmentScanned = false
    /// Whether the search before the start found the offset (not only searched: it may have said
    /// it lies beyond, or fits nothing).
    var clockOffsetDetermined = false
    /// The filter runs from a start that left the offset undetermined: searched again once
    /// moving (``searchClockOffsetOnceMoving(_:at:)``).
    var clockOffsetPending = false
    var clockOffsetUndeterminedSaid = false
    /// Searches once moving that gave no answer.
    var clockOffsetTries = 0
    /// The last search once moving, when it was rough.
    var previousRoughAnswer: RoughClockOffset?
    var nextClockOffsetSearch = -Double.infinity
    /// What happened since the last ``takeEvents()``.
    var events: [VIOEvent] = []
    /// The estimate of the last frame.
    public private(set) var estimate: VIOEstimate?

    /// An estimator with `settings` for the `sensors`; `map` (used with
    /// ``VIOSettings/mapping``) is a world map to relocalize into.
    public init(settings: VIOSettings, sensors: VIOSensors, map: WorldMap? = nil) {
        self.settings = settings
        self.sensors = sensors
        let camera = sensors.camera
        imuFromCamera = sensors.imu.bodyFromSensor.inverse * camera.bodyFromSensor
        imuFromBody = sensors.imu.bodyFromSensor.inverse
        propagator = Propagator(accelerometerRange: settings.accelerometerRange, imu: sensors.imu)
        views = RecentViews(fx: camera.model.intrinsics.fx)
        initializer = Initializer(settings, camera: camera)
        // Triangulated points may miss their observations by a few σ before the update.
        let model = FeatureUpdate(minParallaxDegrees: settings.minParallaxDegrees,
                                  maxReprojectionNormalized: settings.triangulationMaxErrorPx / camera.model.intrinsics.fx,
                                  gateProbability: settings.gateProbability)
        msckf = UpdaterMSCKF(model: model, minObservations: settings.minObservations, maxFeaturesPerUpdate: settings.maxFeaturesPerUpdate)
        slam = UpdaterSLAM(model: model, maxLandmarks: settings.landmarks, delay: settings.landmarkDelay, maxAge: settings.landmarkMaxAge,
                           usesStereo: sensors.stereoFromCamera != nil)
        zeroVelocity = UpdaterZeroVelocity(settings)
        mapping = WorldMapping(settings, model: model, map: map)
        quality = TrackingQuality(minFeaturesPer10Frames: settings.minFeaturesPer10Frames, framesToRecover: 2 * settings.window)
        lost = LostTracking()
        startTimeOffset = settings.timeOffsetMs / 1000
    }

    /// Takes an IMU reading. Feed them in time order, before the frames they precede, and the
    /// first one after each frame before it (a repeated one is dropped).
    public mutating func feed(imu sample: VIOIMUSample) {
        if let event = propagator.append(sample) { events.append(event) }
    }

    /// Processes one frame's feature tracks and, when the estimator builds a world map, the
    /// frame's `image` (its descriptors go into keyframes and relocalization); returns the
    /// frame's estimate.
    @discardableResult
    public mutating func feed(tracks frame: VIOFeatureFrame, image: ImageBuffer<UInt8>? = nil) -> VIOEstimate {
        let stamp = frame.time
        stampJitter.record(stamp)
        // The frame's time on the IMU clock.
        var t = propagator.seconds(stamp) + (filter?.calibration.timeOffset ?? startTimeOffset)
        // Until the filter runs, also the frames a moving start may need.
        // While the offset is to be searched once moving, the views keep the start's offset: the
        // filter's moves as it estimates it, and views stamped with it disagreed by its drift
        // (a camera 200 ms late found at 209.8 ± 1.6 ms).
        views.append(frame, at: clockOffsetPending ? propagator.seconds(stamp) + startTimeOffset : t,
                     keeping: max(settings.staticWindow, settings.zuptWindow,
                                  filter == nil || clockOffsetPending ? Initializer.longestDynamicSpan * settings.dynamicWindow : 0))
        if filter == nil {
            t += searchClockOffset(at: t)
            propagator.keep(from: t - initializer.longestWindow - 0.5)
            initialize(at: t)
        }
        guard var f = filter else {
            return publish(VIOEstimate(time: stamp, trackingState: .limited(.initializing), mappingStatus: mapping.builder == nil ? nil : .notAvailable))
        }
        // A gap in the IMU that the filter cannot bridge: start again.
        // (Longer by more than a microsecond: a gap of exactly the limit, stamps in ns turned to
        // seconds, is bridged.)
        if let gap = propagator.largestGap(from: f.time, to: t), gap > settings.maxImuGapMs / 1000 + 1e-6 {
            events.append(.imuGap(seconds: gap, frame: stamp))
            return reset(at: stamp, time: t)
        }
        do {
            let (used, still) = try update(&f, with: frame, image: image, time: t)
            filter = f
            // Kept: the still test's window, and the readings back past the frame's stamp, which a
            // camera stamping early has that far before its exposure (its pose is read between
            // the clones around it, or carried back: dropped at 0.35 s, a camera 400 ms early was
            // 84 mm off), with the frame interval before it.
            // While the offset is still to be found, also what the search looks back over.
            propagator.trim(before: f.time, window: max(settings.zuptWindow, f.calibration.timeOffset + 0.25,
                                                        clockOffsetPending ? Initializer.longestDynamicSpan * settings.dynamicWindow + Self.widestSearch : 0))
            // Started again from the offset found: the frames before are good (only their
            // offset was wrong), and the start may use them at once.
            if clockOffsetPending, searchClockOffsetOnceMoving(f, at: t) {
                return reset(at: stamp, time: t, keepingFrames: true)
            }
            let state = quality.state(used: used, still: still, velocitySigma: f.velocitySigma)
            return publish(estimate(of: f, state: state, at: stamp, time: t))
        } catch {
            events.append(.failed(frame: stamp, reason: "\(error)"))
            return reset(at: stamp, time: t)
        }
    }

    /// What happened since the last call, in order (the analyzer's warnings).
    public mutating func takeEvents() -> [VIOEvent] {
        defer { events = [] }
        return events
    }

    /// The world map so far (with the loaded one's keyframes and points), when the estimator
    /// builds one.
    public func worldMap() -> WorldMap? {
        mapping.builder?.worldMap(camera: sensors.camera.model, bodyFromCamera: sensors.camera.bodyFromSensor)
    }

    // MARK: Steps

    /// Starts the filter at `t` when the start's tests pass.
    private mutating func initialize(at t: Double) {
        guard !propagator.measurements.isEmpty,
              let start = initializer.start(at: t, imu: propagator.measurements, views: views, noise: sensors.imu.noise, imuFromCamera: imuFromCamera)
        else { return }
        // A moving start whose offset the rotations have not determined (a platform that stood
        // still, then moved for less than a second): its alignment can pass its checks at an
        // offset far off (a rendered orbit still for 1 s, camera 500 ms early: started at 0 ms,
        // 1.08 m APE). Where the frames and the IMU fit one motion clearly better at another
        // offset, the frames move there and the start waits for the next frame.
        // Also where the rotations said the offset lies beyond their search, or fit none: the scan
        // spans the widest search (a still second, camera 550 ms early: "beyond ± 550", 1.10 m).
        if case .moving = start.how, settings.estimateTimeOffset, settings.timeOffsetSearchMs > 0, !clockOffsetDetermined, !alignmentScanned {
            alignmentScanned = true
            if let best = alignmentScan() {
                let fx = sensors.camera.model.intrinsics.fx
                events.append(.clockOffsetFromAlignment(offset: startTimeOffset + best.shift, sigma: best.sigma, frames: best.frames,
                                                        rms: best.rms * fx, rmsBefore: best.rmsBefore.map { $0 * fx }, centre: startTimeOffset))
                startTimeOffset += best.shift
                startTimeOffsetSigma = best.sigma
                views.shift(by: best.shift)
                initializer.framesMoved()
                // The rotations are asked again around it (they refine a scan's 25 ms to 1–2);
                // where they still cannot tell, the scan's note has said where the start stands.
                clockOffsetSearched = false
                clockOffsetUndeterminedSaid = true
                return
            }
        }
        events.append(.initialized(time: t, start: start.how))
        // Said when the moving start had been refused as a misfit again and again before it:
        // what held the start back (a clock offset beyond the search, a wrong calibration).
        let misfits = initializer.lastMisfits
        if misfits.values.reduce(0, +) >= Initializer.failuresBeforeBackingOff { events.append(.startAfterMisfits(misfits)) }
        if settings.estimateTimeOffset, settings.timeOffsetSearchMs > 0, !clockOffsetSearched {
            clockOffsetSearched = true
            clockOffsetPending = true
            clockOffsetTries = 0
            previousRoughAnswer = nil
            // Said once: a start again after a reset, still undetermined, says nothing new.
            if !clockOffsetUndeterminedSaid { events.append(.clockOffsetUndetermined(start: startTimeOffset)) }
            clockOffsetUndeterminedSaid = true
        }
        filter = MSCKF(state: start.state, time: t, covariance: start.covariance.block(row: 0, column: 0, rows: MSCKF.imuDimension, columns: MSCKF.imuDimension),
                       calibration: VIOCalibration(imuFromCamera: imuFromCamera, timeOffset: startTimeOffset),
                       extrinsicVariance: settings.estimateExtrinsics
                           ? (pow(settings.extrinsicRotationSigmaDeg * .pi / 180, 2), pow(settings.extrinsicTranslationSigmaM, 2)) : nil,
                       timeOffsetVariance: settings.estimateTimeOffset ? pow(max(settings.timeOffsetSigmaMs / 1000, startTimeOffsetSigma), 2) : nil,
                       intrinsicsVariance: settings.estimateImuIntrinsics
                           ? (pow(settings.accelerometerScaleSigmaPercent / 100, 2), pow(settings.gyroscopeScaleSigmaPercent / 100, 2)) : nil,
                       propagation: IMUPropagation(noise: sensors.imu.noise), normalizedNoise: settings.pixelNoise / sensors.camera.model.intrinsics.fx)
        filter?.usesFirstEstimates = settings.firstEstimates
        filter?.stereoFromCamera = sensors.stereoFromCamera
        initialCalibration = filter?.calibration
        database.removeAll()
        slam.ids = []
        initializedAt = t
        // A moving start's window frames become the first clones, their features the database's.
        if !start.clones.isEmpty {
            let clones = start.clones.map { MSCKF.Clone(time: $0.frame.stamp, rotation: $0.pose.rotation, position: $0.pose.position,
                                                        firstRotation: $0.pose.rotation, firstPosition: $0.pose.position) }
            let rates = start.clones.map { c -> [Double] in
                let w = propagator.angularRate(at: c.frame.time) - start.state.gyroscopeBias
                return [w.x, w.y, w.z, c.pose.velocity.x, c.pose.velocity.y, c.pose.velocity.z]
            }
            filter?.startWindow(with: clones, covariance: start.covariance, rates: rates)
            for (_, frame) in start.clones {
                for (id, n) in frame.features.sorted(by: { $0.key < $1.key }) {
                    database.append((frame.stamp, n, sensors.stereoFromCamera == nil ? nil : frame.stereo[id]), of: id)
                }
            }
        }
    }

    /// One frame of the running filter: propagation, a zero-velocity update when still, the
    /// clone, the feature updates, the oldest clone's marginalization, the health checks and the
    /// world map's work. Returns the features used and whether the platform stood still.
    private mutating func update(_ f: inout MSCKF, with frame: VIOFeatureFrame, image: ImageBuffer<UInt8>?, time t: Double) throws -> (used: Int, still: Bool) {
        // Frames far apart: what a tracker matched across the gap is not trusted. The features
        // seen before it update the filter as ended tracks, and what carries their ids afterwards
        // starts afresh. (Widening the state by an unmodelled acceleration over the gap was
        // measured too: 0.2 m/s² took the 1 s gap on MH_01 from 5.3 to 10.0 mm.)
        var used = 0
        let inconsistentBefore = inconsistentFeatures
        let gap = t - f.time
        if gap > settings.maxCameraGapMs / 1000 + 1e-6 {   // (exactly the limit is bridged, as for the IMU)
            events.append(.cameraGap(seconds: gap, frame: frame.time))
            quality.cameraGap(velocitySigma: f.velocitySigma)
            used += try msckf.updateWithEndedTracks(database.ids, database: &database, &f, mapping: &mapping)
            database.removeAll()
        }
        if try propagator.propagate(&f, to: t) { quality.saturated() }
        let still = zeroVelocity.isStandingStill(at: t, views: views, imu: propagator.measurements)
        if still { try zeroVelocity.update(&f) }
        f.stampJitterVariance = pow(stampJitter.sigma, 2)
        f.clone(at: frame.time, angularRate: propagator.angularRate(at: t) - f.state.gyroscopeBias)
        record(frame)
        used += try slam.update(with: frame, &f)
        used += try msckf.updateWithEndedTracks(frame.ended, database: &database, &f, mapping: &mapping)
        used += try mapping.updateWithMapPoints(frame, &f)
        if f.clones.count > settings.window {
            let room = slam.room(in: f, startedAt: initializedAt)
            used += try msckf.updateWithOldestClone(slam: &slam, room: room, database: &database, &f, mapping: &mapping)
            database.removeObservations(at: f.clones[0].time)
            f.marginalize(clone: 0)
        }
        guard f.state.isFinite, f.covariance.isFinite else { throw VIOError.diverged }
        // Standing still, the zero-velocity update holds the state and the features' rays barely
        // part: not counted.
        if lost.record(time: t, used: used, inconsistent: still ? 0 : inconsistentFeatures - inconsistentBefore) {
            throw VIOError.lost(seconds: LostTracking.span)
        }
        guard f.state.velocity.norm <= settings.maxSpeed else { throw VIOError.tooFast(f.state.velocity.norm) }
        if let image, let event = try mapping.work(&f, frame: frame, image: image, time: t, camera: sensors.camera.model,
                                                   landmarks: slam.ids, database: &database) {
            events.append(event)
        }
        return (used, still)
    }

    /// Adds the frame's observations of the features that are neither landmarks nor tied to
    /// map points to the database.
    private mutating func record(_ frame: VIOFeatureFrame) {
        for f in frame.features {
            guard let n = f.normalized, !slam.ids.contains(f.id), mapping.anchors[f.id] == nil else { continue }
            database.append((frame.time, n, sensors.stereoFromCamera == nil ? nil : f.stereoNormalized), of: f.id)
        }
    }

    /// Drops the filter after the frame at `stamp` (`t` on the IMU clock); it starts again from
    /// the frames after it, or (`keepingFrames`) from the recent frames too (a camera 300 ms
    /// early, its offset found once moving: the start waited 2.7 s for frames of its own).
    private mutating func reset(at stamp: Int64, time t: Double, keepingFrames: Bool = false) -> VIOEstimate {
        resets += 1
        if let f = filter { lastCalibration = calibrationSummary(of: f, resetAt: stamp) }
        filter = nil
        // The next start looks for the offset again: one left undetermined and not answered
        // since (a still start's filter, its offset wrong by more than it can close, is lost
        // once moving), or a clock that stepped (EuRoC MH_01, cam0 200 ms later from 10 s on:
        // lost, and no start fitted the old offset until the platform stood still at 17.75 s).
        // Not after a restart from the offset just found.
        clockOffsetSearched = keepingFrames
        clockOffsetDetermined = keepingFrames
        alignmentScanned = keepingFrames
        clockOffsetPending = false
        if keepingFrames { initializer.resetKeepingFrames() } else { initializer.reset(at: t) }
        quality.reset()
        lost.reset()
        database.removeAll()
        slam.ids = []
        if mapping.reset() { events.append(.mapFrozen(frame: stamp)) }
        return publish(VIOEstimate(time: stamp, trackingState: .notAvailable, mappingStatus: mapping.builder == nil ? nil : .notAvailable))
    }

    /// Features rejected so far as inconsistent with the clones' poses (``LostTracking``).
    private var inconsistentFeatures: Int { LostTracking.inconsistent(in: msckf.used) + LostTracking.inconsistent(in: slam.used) }

    private mutating func publish(_ e: VIOEstimate) -> VIOEstimate {
        estimate = e
        return e
    }
}
