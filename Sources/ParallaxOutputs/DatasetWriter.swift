import ParallaxBus
import ParallaxPayloads
import ParallaxDatasets
/// What writes a dataset folder (``ParallaxFolderWriter``, ``EuRoCFolderWriter``): streams'
/// metadata first, then packets one by one, then the index files.
public protocol DatasetWriter: AnyObject {
    /// Records a stream's metadata (calibration files are written by ``finish(groundTruth:)``).
    func declare(_ stream: StreamDescription)
    /// Stores one packet.
    func write(_ packet: AnyPacket) throws
    /// Writes the index files, calibrations and ground truth.
    func finish(groundTruth: Trajectory?) throws
}

extension DatasetWriter {
    /// Writes everything `source` produces (declaring its streams' metadata), packet by packet
    /// as it comes: a lazy source (a simulation) is read ahead and decoded or rendered on worker
    /// threads, and never held in memory whole. Packets on the ``DatasetStreams/groundTruth``
    /// stream are not written as packets: `groundTruth` is written whole by `finish`.
    /// `progress` sees each packet's time. When `cancelled()` turns true the packets read so far
    /// are finished into a readable folder and no more are read. Returns the number of packets
    /// written.
    @discardableResult
    public func write(streaming source: any PacketSource, groundTruth: Trajectory? = nil, progress: (Timestamp) -> Void = { _ in },
                      cancelled: () -> Bool = { false }) throws -> Int {
        for s in source.streams where s.name != DatasetStreams.groundTruth { declare(s) }
        let reader = PrefetchingSource(source)
        defer { reader.stop() }
        var count = 0
        while !cancelled(), let p = try reader.next() {
            progress(p.timestamp)
            if p.stream == DatasetStreams.groundTruth { continue }
            try write(p)
            count += 1
        }
        try finish(groundTruth: groundTruth)
        return count
    }
}
