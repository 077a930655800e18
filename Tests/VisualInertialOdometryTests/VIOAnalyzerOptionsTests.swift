import Testing
import ParallaxVIO
@testable import VisualInertialOdometry

/// The options are the estimator's settings: the same defaults, and each one carried over.
@Suite struct VIOAnalyzerOptionsTests {
    @Test func theDefaultsAreTheEstimatorsAndImagesTurnMappingOn() {
        var options = VIOAnalyzer.Options()
        #expect(options.settings == VIOSettings())
        options.images = "cam0"
        var mapping = VIOSettings()
        mapping.mapping = true
        #expect(options.settings == mapping)
    }

    @Test func everyOptionReachesTheSettings() {
        var o = VIOAnalyzer.Options()
        o.window = 7; o.minObservations = 4; o.maxFeaturesPerUpdate = 50; o.pixelNoise = 1.1; o.triangulationMaxErrorPx = 3
        o.gateProbability = 0.9; o.minParallaxDegrees = 0.5; o.landmarks = 12; o.landmarkDelay = 2; o.landmarkMaxAge = 30
        o.staticWindow = 0.8; o.staticMaxDisparityPx = 1.5; o.dynamicInit = false; o.dynamicWindow = 1.5; o.dynamicGravityTolerance = 0.1
        o.dynamicMaxErrorPx = 1.5; o.dynamicMaxVelocitySigma = 0.4; o.dynamicMaxTiltSigmaDeg = 2; o.dynamicMinExcitation = 0.2
        o.maxImuGapMs = 40; o.maxSpeed = 10; o.minFeaturesPer10Frames = 20; o.accelerometerRange = 100; o.firstEstimates = true
        o.timeOffsetMs = 3; o.estimateTimeOffset = true; o.timeOffsetSigmaMs = 2; o.estimateExtrinsics = true
        o.extrinsicRotationSigmaDeg = 1; o.extrinsicTranslationSigmaM = 0.02; o.zupt = false; o.zuptWindow = 0.4
        o.zuptMaxDisparityPx = 0.8; o.zuptMaxAccelerationStd = 1.5; o.zuptMaxRotationRate = 0.4; o.zuptVelocityNoise = 0.02
        o.images = "cam0"; o.keyframeDistance = 0.3; o.keyframeAngle = 12; o.relocalizationMinInliers = 25; o.mapPointSigma = 0.02
        o.mapPointMaxSigma = 0.04; o.mapSearchInterval = 4
        let s = o.settings
        #expect(s.window == 7 && s.minObservations == 4 && s.maxFeaturesPerUpdate == 50 && s.pixelNoise == 1.1 && s.triangulationMaxErrorPx == 3)
        #expect(s.gateProbability == 0.9 && s.minParallaxDegrees == 0.5 && s.landmarks == 12 && s.landmarkDelay == 2 && s.landmarkMaxAge == 30)
        #expect(s.staticWindow == 0.8 && s.staticMaxDisparityPx == 1.5 && !s.dynamicInit && s.dynamicWindow == 1.5 && s.dynamicGravityTolerance == 0.1)
        #expect(s.dynamicMaxErrorPx == 1.5 && s.dynamicMaxVelocitySigma == 0.4 && s.dynamicMaxTiltSigmaDeg == 2 && s.dynamicMinExcitation == 0.2)
        #expect(s.maxImuGapMs == 40 && s.maxSpeed == 10 && s.minFeaturesPer10Frames == 20 && s.accelerometerRange == 100 && s.firstEstimates)
        #expect(s.timeOffsetMs == 3 && s.estimateTimeOffset && s.timeOffsetSigmaMs == 2 && s.estimateExtrinsics)
        #expect(s.extrinsicRotationSigmaDeg == 1 && s.extrinsicTranslationSigmaM == 0.02 && !s.zupt && s.zuptWindow == 0.4)
        #expect(s.zuptMaxDisparityPx == 0.8 && s.zuptMaxAccelerationStd == 1.5 && s.zuptMaxRotationRate == 0.4 && s.zuptVelocityNoise == 0.02)
        #expect(s.mapping && s.keyframeDistance == 0.3 && s.keyframeAngle == 12 && s.relocalizationMinInliers == 25 && s.mapPointSigma == 0.02)
        #expect(s.mapPointMaxSigma == 0.04 && s.mapSearchInterval == 4)
    }
}
