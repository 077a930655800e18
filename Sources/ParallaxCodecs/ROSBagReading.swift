import Foundation
import ParallaxBus
import ParallaxPayloads
/// What ``ROSBagSource`` reads a bag through: its topics and, chunk by chunk, its messages —
/// a ROS 1 bag (``ROSBag1File``) or a ROS 2 bag's MCAP files (``MCAPFile``).
public protocol ROSBagReading: AnyObject, Sendable {
    var path: String { get }
    /// The format's name (`ROS 1 bag`, `ROS 2 bag (MCAP)`).
    var formatName: String { get }
    /// Topics with their message types, by connection (channel) id.
    var connections: [UInt32: ROSBag1File.Connection] { get }
    var chunkCount: Int { get }
    /// How messages are serialized.
    var serialization: ROSMessages.Serialization { get }
    /// The messages of chunk `k`, in file order.
    func messages(inChunk k: Int) throws -> [ROSBag1File.MessageRef]
    /// A message's bytes (safe from several threads).
    func data(of message: ROSBag1File.MessageRef) throws -> Data
    /// What a reader should know about the file as a whole (an MCAP file cut short).
    var notes: [String] { get }
}

extension ROSBagReading {
    public var notes: [String] { [] }
}
