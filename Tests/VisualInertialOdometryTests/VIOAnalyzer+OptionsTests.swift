import Testing
import ParallaxBus
import ParallaxVIO
@testable import VisualInertialOdometry

/// The options are the streams and the estimator's settings, embedded whole: the same defaults,
/// and each setting an option under its own name.
@Suite struct VIOAnalyzerOptionsTests {
    @Test func theDefaultsAreTheEstimatorsAndImagesTurnMappingOn() {
        var options = VIOAnalyzer.Options()
        #expect(options.settings == VIOSettings())
        options.images = "cam0"
        var mapping = VIOSettings()
        mapping.mapping = true
        #expect(options.settings == mapping)
    }

    /// The IMU input reaches past each frame as far as the camera's clock may run behind the
    /// IMU's: the offset given, and as far as the search may widen (or 3 σ of the prior) when
    /// estimated.
    @Test func theIMUReachesPastEachFrameAsFarAsTheOffsetMayBe() {
        var s = VIOSettings()
        #expect(VIOAnalyzer.imuLead(s) == 650_000_000)
        s.timeOffsetMs = 30
        #expect(VIOAnalyzer.imuLead(s) == 680_000_000)
        s.timeOffsetSearchMs = 0
        #expect(VIOAnalyzer.imuLead(s) == 45_000_000)
        s.timeOffsetMs = -10
        s.estimateTimeOffset = false
        #expect(VIOAnalyzer.imuLead(s) == 0)
    }

    @Test func everySettingIsAnOptionByItsName() throws {
        let values = [
            "window": "7", "min_observations": "4", "max_features_per_update": "50", "pixel_noise": "1.1", "triangulation_max_error_px": "3",
            "gate_probability": "0.9", "min_parallax_degrees": "0.5", "landmarks": "12", "landmark_delay": "2", "landmark_max_age": "30",
            "static_window": "0.8", "static_max_disparity_px": "1.5", "dynamic_init": "false", "dynamic_window": "1.5", "dynamic_gravity_tolerance": "0.1",
            "dynamic_max_error_px": "1.5", "dynamic_max_velocity_sigma": "0.4", "dynamic_max_tilt_sigma_deg": "2", "dynamic_min_excitation": "0.2",
            "dynamic_window_clones": "false",
            "max_imu_gap_ms": "40", "max_camera_gap_ms": "300", "max_speed": "10", "min_features_per10_frames": "20", "accelerometer_range": "100", "first_estimates": "true",
            "time_offset_ms": "3", "estimate_time_offset": "false", "time_offset_sigma_ms": "2", "time_offset_search_ms": "150", "estimate_extrinsics": "false",
            "extrinsic_rotation_sigma_deg": "1", "extrinsic_translation_sigma_m": "0.02",
            "estimate_imu_intrinsics": "true", "accelerometer_scale_sigma_percent": "0.3", "gyroscope_scale_sigma_percent": "0.2", "zupt": "false", "zupt_window": "0.4",
            "zupt_max_disparity_px": "0.8", "zupt_max_acceleration_std": "1.5", "zupt_max_rotation_rate": "0.4", "zupt_velocity_noise": "0.02",
            "images": "cam0", "keyframe_distance": "0.3", "keyframe_angle": "12", "relocalization_min_inliers": "25", "map_point_sigma": "0.02",
            "map_point_max_sigma": "0.04", "map_search_interval": "4",
        ]
        let names = Set(OptionCoding.options(of: VIOAnalyzer.Options()).map(\.name))
        #expect(names == Set(values.keys).union(["tracks", "imu", "output", "stereo", "map"]))
        let s = try OptionCoding.decode(VIOAnalyzer.Options.self, defaults: VIOAnalyzer.Options(), values: values).settings
        #expect(s.window == 7 && s.minObservations == 4 && s.maxFeaturesPerUpdate == 50 && s.pixelNoise == 1.1 && s.triangulationMaxErrorPx == 3)
        #expect(s.gateProbability == 0.9 && s.minParallaxDegrees == 0.5 && s.landmarks == 12 && s.landmarkDelay == 2 && s.landmarkMaxAge == 30)
        #expect(s.staticWindow == 0.8 && s.staticMaxDisparityPx == 1.5 && !s.dynamicInit && s.dynamicWindow == 1.5 && s.dynamicGravityTolerance == 0.1)
        #expect(s.dynamicMaxErrorPx == 1.5 && s.dynamicMaxVelocitySigma == 0.4 && s.dynamicMaxTiltSigmaDeg == 2 && s.dynamicMinExcitation == 0.2 && !s.dynamicWindowClones)
        #expect(s.maxImuGapMs == 40 && s.maxCameraGapMs == 300 && s.maxSpeed == 10 && s.minFeaturesPer10Frames == 20 && s.accelerometerRange == 100 && s.firstEstimates)
        #expect(s.timeOffsetMs == 3 && !s.estimateTimeOffset && s.timeOffsetSigmaMs == 2 && s.timeOffsetSearchMs == 150 && !s.estimateExtrinsics)
        #expect(s.estimateImuIntrinsics && s.accelerometerScaleSigmaPercent == 0.3 && s.gyroscopeScaleSigmaPercent == 0.2)
        #expect(s.extrinsicRotationSigmaDeg == 1 && s.extrinsicTranslationSigmaM == 0.02 && !s.zupt && s.zuptWindow == 0.4)
        #expect(s.zuptMaxDisparityPx == 0.8 && s.zuptMaxAccelerationStd == 1.5 && s.zuptMaxRotationRate == 0.4 && s.zuptVelocityNoise == 0.02)
        #expect(s.mapping && s.keyframeDistance == 0.3 && s.keyframeAngle == 12 && s.relocalizationMinInliers == 25 && s.mapPointSigma == 0.02)
        #expect(s.mapPointMaxSigma == 0.04 && s.mapSearchInterval == 4)
    }
}
