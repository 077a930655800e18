import Foundation
import Parallax

/// One line of `events.jsonl`.
public enum EventLine {
    /// The line, and whether the payload was written as it should be: a payload that is not
    /// `Encodable` (images, depth maps, point clouds: they have files of their own) is written
    /// as `null` by design; one that holds values JSON cannot (NaN, infinity) is written as
    /// `null` too, never as a placeholder, and reported (`encoded` false).
    public static func encode(_ packet: AnyPacket, producer: String, encoder: JSONEncoder) -> (line: Data, encoded: Bool) {
        var line = Data("{\"stream\":\(quote(packet.stream)),\"t\":\(packet.timestamp.nanoseconds),\"producer\":\(quote(producer)),\"payload\":".utf8)
        var encoded = true
        if let e = packet.payload as? any Encodable {
            if let body = try? encoder.encode(e) {
                line.append(body)
            } else {
                line.append(Data("null".utf8))
                encoded = false
            }
        } else {
            line.append(Data("null".utf8))
        }
        line.append(Data("}\n".utf8))
        return (line, encoded)
    }

    /// `s` as a JSON string (slashes not escaped: `"cam0/tracks"`).
    public static func quote(_ s: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        return String(decoding: (try? encoder.encode(s)) ?? Data("\"\"".utf8), as: UTF8.self)
    }
}

