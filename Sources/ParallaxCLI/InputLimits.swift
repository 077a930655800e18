import ArgumentParser
import Parallax

/// Options about what input is accepted, shared by the commands that read datasets.
struct InputLimits: ParsableArguments {
    @Option(name: .customLong("max-image-megapixels"),
            help: "Largest image size a file may declare (megapixels, 0.001…10000); larger headers are refused before anything is allocated.")
    var maxImageMegapixels: Double = Double(ImageSizeLimit.defaultMaxPixels) / 1e6

    func validate() throws {
        guard maxImageMegapixels.isFinite, (0.001...10_000).contains(maxImageMegapixels) else {
            throw ValidationError("--max-image-megapixels must be in 0.001…10000, got \(maxImageMegapixels)")
        }
    }

    /// Sets the decoders' limit for this process.
    func apply() { ImageSizeLimit.maxPixels = Int((maxImageMegapixels * 1e6).rounded()) }
}
