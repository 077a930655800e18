import Testing
@testable import ParallaxBus
@testable import ParallaxPayloads

@Suite struct CameraFrameTests {
    @Test func fanOutCopiesNothingUntilWritten() {
        let image = ImageBuffer<UInt8>(width: 752, height: 480, repeating: 7)
        let frame = CameraFrame(cameraID: "cam0", image: image)
        let copies = (0..<10).map { _ in AnyPacket(stream: "cam0", timestamp: Timestamp(nanoseconds: 0), payload: frame) }
        for c in copies { #expect((c.payload as! CameraFrame).image.sharesStorage(with: image)) }
        var written = frame.image
        written[3, 4] = 9
        #expect(!written.sharesStorage(with: image))
        #expect(image[3, 4] == 7 && written[3, 4] == 9)
    }
}
