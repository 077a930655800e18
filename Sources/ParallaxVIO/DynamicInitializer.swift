import Foundation
import ParallaxGeometry
import ParallaxInertial
import ParallaxMath

/// Initializes a moving platform in closed form (the linear visual-inertial alignment of
/// Martinelli and Dong-Si & Mourikis, as OpenVINS's dynamic initializer starts from): over a
/// window of frames, the gyro gives the IMU's rotations `R_{I0 Ik}` and the accelerometer, with
/// gravity left out, the displacements `α_k`; every feature bearing `d_k` seen from camera `k`
/// must then point at the feature: `[d_k]× (p_f − v0·t_k − ½g·t_k² − α_k − R_k·p_IC) = 0`,
/// linear in the initial velocity `v0`, gravity `g` (both in `I0`) and the feature positions.
/// Least squares gives them; `|g|` is checked against 9.81 and the system solved again with
/// gravity's length fixed. Levenberg–Marquardt then refines velocity, gravity, the gyro bias (under
/// a prior) and the features on the reprojection errors, and the inverse of its information gives
/// the start's covariance: what the filter begins with is what the window determined, not a guess.
/// The accelerometer bias starts at zero with its prior's variance: a second of motion does not
/// determine it (left free under a 0.1 m/s² prior, its refined σ stayed at the prior's, and
/// MH_01 came out worse: 12.1 vs 9.3 mm, measured with landmarks on).
struct DynamicInitializer {
    /// One frame of the window: its time (s) and feature bearings (undistorted normalized points).
    struct Frame {
        var time: Double
        var features: [UInt64: Vector2]
        /// The frame's stamp (ns, camera clock) and its features' bearings in the stereo
        /// partner: what the filter's feature database keys and keeps when the frame becomes one
        /// of the start's clones.
        var stamp: Int64 = 0
        var stereo: [UInt64: Vector2] = [:]

        /// The frame `seconds` later on the IMU clock (a clock offset tried or found).
        func shifted(by seconds: Double) -> Frame {
            var frame = self
            frame.time += seconds
            return frame
        }
    }

    /// Fewest frames a feature must be seen in.
    var minObservations = 5
    /// Most features in the system.
    var maxFeatures = 60
    /// Smallest angle (deg) between a feature's first and last rays (in `I0`).
    var minParallaxDegrees = 1.0
    /// Tolerated relative difference of the solved gravity's length from `gravity`.
    var gravityTolerance = 0.15
    var gravity = 9.81
    /// Largest RMS reprojection error (normalized units) after the refinement; `nil`: no check.
    var maxRefinedErrorNormalized: Double? = nil
    /// σ of a bearing (normalized image units: pixels / focal length) the refinement weighs the
    /// reprojection errors with, and its covariance is scaled by.
    var normalizedNoise = 1.0 / 460
    /// Prior of the refinement on the gyro bias, centred on zero: σ (rad/s).
    var gyroscopeBiasSigma = 0.05
    /// σ of the accelerometer bias the start is given (m/s²), centred on zero, uncorrelated.
    var accelerometerBiasSigma = 0.1
    /// Factor on the attitude's and the gyro bias's variance of the refinement's covariance: it
    /// takes the preintegrated IMU as exact and the accelerometer bias as zero, so it is too
    /// confident. Measured with `chains/vio-mono.yaml` (SE3 APE, EuRoC MH_01 / the simulated
    /// MH_01 motion, all three blocks alike): 1 → 9.3 / 4.8 mm, 3 → 7.9 / 4.3, 10 → 7.6 / 3.8,
    /// 30 → 7.8 / 3.6, 100 → 8.0 / 3.6. 10, as OpenVINS inflates attitude and gyro bias.
    var inflation = 10.0
    /// Factor on the velocity's variance the filter starts with (whether a start is too vague is
    /// judged at ``inflation``, so ``maxVelocitySigma`` keeps its meaning). The velocity carries what the window leaves open
    /// (the accelerometer bias taken as zero tilts gravity by up to ≈ 0.6°, 0.1 m/s² sideways:
    /// 5 cm/s after the 1 s window) and the first updates after the start move it by several of
    /// the refinement's σ. 100, as OpenVINS inflates the velocity (`init_dyn_inflation_vel`):
    /// EuRoC MH_01, online calibration on, 10 → 100: SE3 APE 5.12 → 4.94 mm, rotation 0.62° →
    /// 0.57°, position NEES 24.4 → 20.2.
    var velocityInflation = 100.0
    /// Largest σ of the start's velocity (m/s, any axis) and of its tilt (deg, roll and pitch
    /// together) accepted: a window whose motion barely determines scale or gravity gives a
    /// start whose own covariance says so (a smooth half second: σ ≈ 2 m/s and 10°), and an EKF
    /// linearized that far from the truth can diverge, so the caller waits for more motion.
    var maxVelocitySigma = 0.5
    var maxTiltSigmaDegrees = 3.0
    /// Smallest RMS change of the specific force over the window (m/s², in the first frame's
    /// IMU frame, gyro-rotated): at constant velocity the accelerometer sees only gravity and
    /// nothing but the camera–IMU lever arm fixes the scale. Such a window can also give a start
    /// collapsed toward zero scale whose covariance looks certain (features a few cm away,
    /// reprojection errors small), so it is refused before any solving.
    var minExcitation = 0.1
    /// How many of the window's frames (before the last) the start also returns as poses for
    /// the filter's first clones, spread evenly from the first; 0: none. The filter's first
    /// feature updates then span the whole window at once instead of the few frames since the
    /// start (OpenVINS returns its initializer's clones likewise).
    var clones = 0

    /// One of the window's frames the filter starts with as a clone: its index in the window,
    /// the IMU's pose and velocity there (world, m, m/s).
    struct WindowPose {
        var frame: Int
        var rotation: SO3
        var position: Vector3
        var velocity: Vector3
    }

    /// Where the platform starts: the state at the last frame and the window poses kept as
    /// clones, with their joint covariance (15 + 6 per clone: ``InertialState``'s error-state
    /// order, then each clone's `(δθ, δp)`).
    struct Start {
        var state: InertialState
        var covariance: Matrix
        var clones: [WindowPose] = []

        /// σ of the attitude error across gravity (roll and pitch together, deg): the attitude
        /// variance (body-frame error) less its part about the body's up direction.
        var tiltSigmaDegrees: Double {
            let up = state.rotation.inverse * Vector3(0, 0, 1)
            var variance = 0.0
            for i in 0..<3 { variance += covariance[i, i] }
            for i in 0..<3 { for j in 0..<3 { variance -= up[i] * covariance[i, j] * up[j] } }
            return max(0, variance).squareRoot() * 180 / .pi
        }
    }

    enum Refusal: Error, Equatable {
        case tooFewFeatures, gravity(Double), depth, numerical, residual(Double)
        /// The start's σ of velocity (m/s) and tilt (deg) when one is above its limit.
        case uncertain(velocitySigma: Double, tiltSigmaDegrees: Double)
        /// The specific force's RMS change over the window (m/s²) when below ``minExcitation``.
        case lowExcitation(Double)

        /// In words, when the window's frames and the IMU do not fit one motion (gravity's
        /// length off, features behind the camera, a residual above the limit, no solution);
        /// `nil` for a window that only lacks motion or features (the start waits for them).
        var misfit: String? {
            switch self {
            case .gravity: "gravity's length off"
            case .depth: "features behind the camera"
            case .residual: "reprojection error above the limit"
            case .numerical: "no solution"
            case .tooFewFeatures, .uncertain, .lowExcitation: nil
            }
        }
    }

    /// The start at the last frame's time, or why not.
    func initialize(_ frames: [Frame], imu: [IMUMeasurement], noise: IMUNoiseModel, imuFromCamera: SE3) -> Result<Start, Refusal> {
        guard frames.count >= minObservations else { return .failure(.tooFewFeatures) }
        if let first = frames.first, let last = frames.last {
            let excitation = Self.excitation(imu, from: first.time, to: last.time)
            guard excitation >= minExcitation else { return .failure(.lowExcitation(excitation)) }
        }
        let refined: (parameters: [Double], covariance: Matrix, rms: Double)
        switch refinedAlignment(frames, imu: imu, noise: noise, imuFromCamera: imuFromCamera) {
        case let .success(found): refined = found
        case let .failure(reason): return .failure(reason)
        }
        if let limit = maxRefinedErrorNormalized, refined.rms > limit { return .failure(.residual(refined.rms)) }
        let x = refined.parameters
        let kept = Self.cloneFrames(count: clones, frames: frames.count)
        guard let states = windowStates(x, frames: frames, imu: imu, noise: noise), let start = states.last,
              let (p, velocitySigma) = startCovariance(x, refined: refined.covariance, states: states, clones: kept, frames: frames, imu: imu, noise: noise)
        else { return .failure(.numerical) }
        var result = Start(state: start, covariance: p,
                           clones: kept.map { WindowPose(frame: $0, rotation: states[$0].rotation, position: states[$0].position, velocity: states[$0].velocity) })
        let tiltSigma = result.tiltSigmaDegrees
        guard velocitySigma <= maxVelocitySigma, tiltSigma <= maxTiltSigmaDegrees else {
            return .failure(.uncertain(velocitySigma: velocitySigma, tiltSigmaDegrees: tiltSigma))
        }
        // Judged as vague or not at the common inflation; the filter starts with the velocity's own.
        let v = InertialState.Block.velocity
        for i in 0..<3 { for j in 0..<3 { result.covariance[v + i, v + j] *= velocityInflation / inflation } }
        return .success(result)
    }

    /// How well the window's frames and the IMU fit one motion: the RMS reprojection error
    /// (normalized units) of the refined alignment a start would make (the excitation and the
    /// start's σ not judged), or `nil` where none fits (too few features, gravity's length off,
    /// the features behind the cameras, no solution). Compared for the same frames at two clock
    /// offsets, it tells which the images and the IMU agree on where the offsets are far apart:
    /// the translation and gravity count too, where the clock-offset search matches rotations.
    func fitResidual(_ frames: [Frame], imu: [IMUMeasurement], noise: IMUNoiseModel, imuFromCamera: SE3) -> Double? {
        guard frames.count >= minObservations else { return nil }
        return try? refinedAlignment(frames, imu: imu, noise: noise, imuFromCamera: imuFromCamera).get().rms
    }

    /// The closed-form alignment of the window (velocity, gravity, features), then refined with
    /// the gyro bias (``refineSolution``), or why none.
    private func refinedAlignment(_ frames: [Frame], imu: [IMUMeasurement], noise: IMUNoiseModel,
                                  imuFromCamera: SE3) -> Result<(parameters: [Double], covariance: Matrix, rms: Double), Refusal> {
        // Gravity-free preintegration from I0 (gyro bias taken as zero here, refined below).
        guard let poses = preintegrate(frames, imu: imu, noise: noise, gyroBias: .zero) else { return .failure(.numerical) }
        let (ids, observed) = chosenFeatures(frames, poses: poses, imuFromCamera: imuFromCamera)
        guard ids.count >= 10 else { return .failure(.tooFewFeatures) }
        guard let free = Self.alignment(observed, poses: poses, imuFromCamera: imuFromCamera, fixedGravity: nil) else { return .failure(.numerical) }
        let g0 = Vector3(free[3], free[4], free[5])
        guard g0.norm.isFinite, abs(g0.norm - gravity) <= gravityTolerance * gravity else { return .failure(.gravity(g0.norm)) }
        let g = g0.normalized * gravity
        guard let fixed = Self.alignment(observed, poses: poses, imuFromCamera: imuFromCamera, fixedGravity: g) else { return .failure(.numerical) }
        let v0 = Vector3(fixed[0], fixed[1], fixed[2])
        guard Self.mostlyInFront(observed, solution: fixed, v0: v0, g: g, poses: poses, imuFromCamera: imuFromCamera) else { return .failure(.depth) }
        var observations: [[(k: Int, n: Vector2)]] = []
        for id in ids {
            observations.append(frames.enumerated().compactMap { k, f in f.features[id].map { (k, $0) } })
        }
        let features = (0..<ids.count).map { j in Vector3(fixed[3 + 3 * j], fixed[4 + 3 * j], fixed[5 + 3 * j]) }
        guard let refined = refineSolution(frames: frames, imu: imu, noise: noise, imuFromCamera: imuFromCamera, observations: observations,
                                           v0: v0, g: g, features: features) else { return .failure(.numerical) }
        return .success(refined)
    }

    /// The window frames kept as clones: `count` indices spread evenly from the first frame to
    /// the one before the last (the filter clones the last itself), ascending, no repeats.
    static func cloneFrames(count: Int, frames: Int) -> [Int] {
        let available = frames - 1
        guard count > 0, available > 0 else { return [] }
        if count >= available { return Array(0..<available) }
        var kept: [Int] = []
        for i in 0..<count {
            let k = Int((Double(i) * Double(available - 1) / Double(max(1, count - 1))).rounded())
            if kept.last != k { kept.append(k) }
        }
        return kept
    }
}
