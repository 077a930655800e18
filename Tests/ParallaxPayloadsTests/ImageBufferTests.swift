import Testing
@testable import ParallaxBus
@testable import ParallaxPayloads
@Suite struct ImageBufferTests {
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

    @Test func timestampConversions() {
        let t = Timestamp(seconds: 1403715273.262142976)
        #expect(abs(t.seconds - 1403715273.262143) < 1e-6)
        #expect(Timestamp(nanoseconds: 2_500_000_000).seconds(since: Timestamp(nanoseconds: 1_000_000_000)) == 1.5)
    }
}
