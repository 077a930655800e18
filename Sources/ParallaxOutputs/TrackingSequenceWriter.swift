import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxCodecs
import ParallaxDatasets
/// Writes a tracking sequence in OTB's layout (``OTBFormat``): `img/0001.png …` (lossless,
/// unlike OTB's JPEGs, so a simulated sequence is the same for every tracker that reads it)
/// and `groundtruth_rect.txt` (1-based `x,y,w,h`, `NaN,NaN,NaN,NaN` where the object is
/// absent). OpenCV, OTB's and pysot's toolkits read it as they read OTB.
public enum TrackingSequenceWriter {
    /// Writes `frames` (one box or `nil` each) into `folder` (created).
    public static func writeOTB(_ frames: [(image: ImageBuffer<UInt8>, box: BoundingBox?)], to folder: String) throws {
        let images = (folder as NSString).appendingPathComponent("img")
        try FileManager.default.createDirectory(atPath: images, withIntermediateDirectories: true)
        var truth = ""
        for (k, frame) in frames.enumerated() {
            try ImageEncoder.writePNG(frame.image, to: (images as NSString).appendingPathComponent(String(format: "%04d.png", k + 1)))
            truth += BoxTruthFile.otbRow(frame.box) + "\n"
        }
        try Data(truth.utf8).write(to: URL(fileURLWithPath: (folder as NSString).appendingPathComponent("groundtruth_rect.txt")), options: .atomic)
    }
}
