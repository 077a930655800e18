import ParallaxBus
import ParallaxGeometry

/// The calibrations an analyzer needs from its inputs' metadata, or an error naming the
/// analyzer and the stream.
extension AnalyzerContext {
    /// The camera calibration of the stream read by `port`, or an error naming the stream and
    /// the analyzer (for analyzers that cannot work without one).
    public func cameraCalibration<P>(of port: InputPort<P>) throws -> CameraCalibration {
        guard let camera = metadata(of: port).camera else {
            throw AnalyzerError.missingMetadata(analyzer: instanceName, stream: port.key.name, what: "camera calibration")
        }
        return camera
    }

    /// The IMU calibration of the stream read by `port`, or an error naming the stream.
    public func imuCalibration<P>(of port: InputPort<P>) throws -> IMUCalibration {
        guard let imu = metadata(of: port).imu else {
            throw AnalyzerError.missingMetadata(analyzer: instanceName, stream: port.key.name, what: "IMU calibration (noise densities)")
        }
        return imu
    }
}
