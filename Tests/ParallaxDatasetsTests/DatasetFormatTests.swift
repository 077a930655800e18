import Foundation
import Testing
import TestSupport
import ParallaxFiles
@testable import ParallaxDatasets

/// Which format opens a path, and the options a format does not take.
@Suite struct DatasetFormatTests {
    /// `--topic` (``DatasetOptions/topicNames``) renames bag topics; on an EuRoC folder it would
    /// be ignored, so it is refused naming the option, the formats that take it and the
    /// dataset's own.
    @Test func topicNamesOnADatasetWithoutTopicsAreRefused() throws {
        var options = DatasetOptions()
        options.topicNames = ["/cam0/image_raw": "cam1"]
        #expect { _ = try DatasetFolder.open(EuRoCSourceTests.cut, options: options) } throws: { error in
            guard case let DatasetError.invalidOption(path, option, reason) = error else { return false }
            return path == EuRoCSourceTests.cut && option == "--topic" && reason.contains("applies only to a ROS 1 bag (.bag) and a ROS 2 bag")
                && reason.hasSuffix("this dataset is EuRoC/ASL (a mav0/ folder)") && error is any BadInput
        }
        #expect(try DatasetFolder.open(EuRoCSourceTests.cut).formatName == "EuRoC/ASL")
    }
}
