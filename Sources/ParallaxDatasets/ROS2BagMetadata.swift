import Foundation
import ParallaxFiles

/// A ROS 2 bag's `metadata.yaml` (rosbag2), the part Parallax reads: how it is stored and its
/// storage files. Decoded through ``YAMLDecoding``; the many other keys rosbag2 writes are
/// allowed.
struct ROS2BagMetadata: Decodable {
    /// `storage_identifier`: `mcap` or `sqlite3`.
    var storage: String
    /// The one storage file (`relative_file_paths`), relative to the bag's folder.
    var file: String
    /// The line of `relative_file_paths` (for errors about the files it names).
    var filesLine: Int

    enum CodingKeys: String, CodingKey { case information = "rosbag2_bagfile_information" }
    enum InformationKeys: String, CodingKey { case storage = "storage_identifier", files = "relative_file_paths" }

    init(from decoder: any Decoder) throws {
        let information = try decoder.container(keyedBy: CodingKeys.self).superDecoder(forKey: .information)
        let c = try information.container(keyedBy: InformationKeys.self)
        storage = try c.decode(String.self, forKey: .storage)
        guard storage == "mcap" else {
            throw information.yamlProblem("storage '\(storage)': Parallax reads ROS 2 bags stored as MCAP (`ros2 bag convert` turns sqlite3 bags into MCAP)", at: InformationKeys.storage)
        }
        let files = try c.decode([String].self, forKey: .files)
        filesLine = try c.superDecoder(forKey: .files).yamlLine ?? 1
        guard files.count == 1 else {
            throw information.yamlProblem("\(files.count) storage files; Parallax reads a bag of one file (split bags are not read yet)", at: InformationKeys.files)
        }
        file = files[0]
    }
}
