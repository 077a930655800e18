import ArgumentParser
import Parallax

/// Options about how input is read and what is accepted, shared by the commands that read datasets.
struct InputLimits: ParsableArguments {
    @Option(name: .customLong("image-rate"),
            help: "Frames per second of a folder of images whose file names are not times (Hz, 0.001…100000); names that are times (ns or decimal s) are used as they are.")
    var imageRate: Double = 1

    @Option(name: .customLong("max-image-megapixels"),
            help: "Largest image size a file may declare (megapixels, 0.001…10000); larger headers are refused before anything is allocated.")
    var maxImageMegapixels: Double = Double(ImageSizeLimit.defaultMaxPixels) / 1e6

    func validate() throws {
        guard maxImageMegapixels.isFinite, (0.001...10_000).contains(maxImageMegapixels) else {
            throw ValidationError("--max-image-megapixels must be in 0.001…10000, got \(maxImageMegapixels)")
        }
        guard imageRate.isFinite, (0.001...100_000).contains(imageRate) else {
            throw ValidationError("--image-rate must be in 0.001…100000 Hz, got \(imageRate)")
        }
    }

    /// Sets the decoders' limit and the image-folder rate for this process.
    func apply() {
        ImageSizeLimit.maxPixels = Int((maxImageMegapixels * 1e6).rounded())
        ImageFolderSource.rateHz = imageRate
    }
}
