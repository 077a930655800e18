import Testing
import ParallaxMath
@testable import ParallaxVIO

/// The observations of the features not in the state: as clone observations (stereo matches as
/// camera 1), and the oldest clone's forgotten when it is marginalized.
@Suite struct FeatureDatabaseTests {
    @Test func observationsFollowTheClonesAndStereoIsASecondCamera() {
        var db = FeatureDatabase()
        db.append((100, Vector2(0.1, 0.2), nil), of: 7)
        db.append((200, Vector2(0.3, 0.4), Vector2(0.25, 0.4)), of: 7)
        db.append((300, Vector2(0.5, 0.6), nil), of: 7)
        db.append((200, Vector2(0, 0), nil), of: 3)
        // Clone 0 is at 200, clone 1 at 300; the frame at 100 has left the window.
        let obs = db.observations(of: 7, index: [200: 0, 300: 1])
        #expect(obs.map(\.clone) == [0, 0, 1] && obs.map(\.camera) == [0, 1, 0])
        #expect(obs.map(\.normalized) == [Vector2(0.3, 0.4), Vector2(0.25, 0.4), Vector2(0.5, 0.6)])
        #expect(db.ids == [3, 7])
        db.removeObservations(at: 200)
        #expect(db.ids == [7], "feature 3 had no other observation")
        #expect(db[7]?.map(\.time) == [100, 300])
        db.remove(7)
        #expect(db.ids.isEmpty && db.observations(of: 7, index: [300: 0]).isEmpty)
    }
}
