import ArgumentParser
import Parallax

/// Options about how datasets are read and what is accepted, shared by the commands that read them.
struct InputOptions: ParsableArguments {
    @Option(name: .customLong("image-rate"),
            help: "Frames per second of a folder of images whose file names are not times (Hz, 0.001…100000; default 1, and 30 for OTB/VOT tracking sequences); names that are times (ns or decimal s) are used as they are.")
    var imageRate: Double?

    @Option(name: .customLong("video-pixels"),
            help: "How video files' frames are delivered: rgb, or gray (the decoder's luma plane: no colour conversion).")
    var videoPixels: String = "rgb"

    @Option(name: .customLong("topic"), help: ArgumentHelp("A bag topic's stream name, overriding the convention (/cam0/image_raw → cam0; its namespace's camera_info follows it); repeat for several.", valueName: "/topic=name"))
    var topics: [String] = []

    @Option(name: .customLong("calibration"),
            help: ArgumentHelp("A stream's calibration from a file, replacing or supplying the dataset's (a bag without CameraInfo): an EuRoC sensor.yaml (camera or IMU), a Kalibr camchain (the camera named like the stream, or FILE#cam1) or imu.yaml, a ROS camera_info YAML, or a Parallax folder's parallax.yaml; repeat for several streams.", valueName: "stream=file"))
    var calibrations: [String] = []

    @Option(name: .customLong("max-image-megapixels"),
            help: "Largest image size a file may declare (megapixels, 0.001…10000); larger headers are refused before anything is allocated.")
    var maxImageMegapixels: Double = Double(ImageSizeLimit.defaultMaxPixels) / 1e6

    func validate() throws {
        guard maxImageMegapixels.isFinite, (0.001...10_000).contains(maxImageMegapixels) else {
            throw ValidationError("--max-image-megapixels must be in 0.001…10000, got \(maxImageMegapixels)")
        }
        guard ["rgb", "gray"].contains(videoPixels) else {
            throw ValidationError("--video-pixels must be rgb or gray, got '\(videoPixels)'")
        }
        var renamed: [Substring: String] = [:]
        for t in topics {
            let parts = t.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0].hasPrefix("/"), !parts[1].isEmpty, !parts[1].contains(" ") else {
                throw ValidationError("--topic takes /topic=name (e.g. /cam0/image_raw=left), got '\(t)'")
            }
            if let earlier = renamed[parts[0]], earlier != t {
                throw ValidationError("--topic names \(parts[0]) twice ('\(earlier)' and '\(t)'): give one name")
            }
            renamed[parts[0]] = t
        }
        do { try CalibrationOverride.checkDistinct(try calibrationOverrides()) } catch { throw ValidationError("\(error)") }
        if let imageRate, !(imageRate.isFinite && (0.001...100_000).contains(imageRate)) {
            throw ValidationError("--image-rate must be in 0.001…100000 Hz, got \(imageRate)")
        }
    }

    /// Sets the decoders' size limit for this process (decoders deep in the readers check it).
    func applyImageSizeLimit() { ImageSizeLimit.maxPixels = maxImagePixels }

    /// The pixel budget of one image (pixels).
    var maxImagePixels: Int { max(1, Int((maxImageMegapixels * 1e6).rounded())) }

    /// The `--calibration` options, parsed.
    func calibrationOverrides() throws -> [CalibrationOverride] { try calibrations.map { try CalibrationOverride(parsing: $0) } }

    /// How to open datasets with these options.
    func datasetOptions(strict: Bool = false, groundTruth: String? = nil) -> DatasetOptions {
        // The formats and video support of the plugins in use (built-ins and the host's).
        var options = ParallaxCLI.plugins.datasetOptions(DatasetOptions(strict: strict, imageRateHz: imageRate, groundTruth: groundTruth, grayVideo: videoPixels == "gray"))
        options.maxImagePixels = maxImagePixels
        options.calibrations = (try? calibrationOverrides()) ?? []  // checked by validate()
        for t in topics {
            let parts = t.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { options.topicNames[String(parts[0])] = String(parts[1]) }
        }
        return options
    }
}
