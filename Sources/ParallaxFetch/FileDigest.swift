import COpenSSLDigest
import Foundation

/// SHA-256 of a file through OpenSSL's libcrypto, read in 1 MiB blocks (bounded memory for
/// archives of gigabytes).
public enum FileDigest {
    /// The lower-case hex SHA-256 of the file at `path`.
    public static func sha256(of path: String) throws -> String {
        let hasher = SHA256Hasher()
        try hasher.update(file: path)
        return hasher.finish()
    }

    /// The size (bytes) of the file at `path`; 0 when it is not there.
    public static func size(of path: String) -> Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value ?? 0
    }
}

/// SHA-256 over several pieces (OpenSSL), fed in order.
public final class SHA256Hasher {
    private let context: OpaquePointer?

    public init() {
        context = EVP_MD_CTX_new()
        if let context { EVP_DigestInit_ex(context, EVP_sha256(), nil) }
    }

    deinit { EVP_MD_CTX_free(context) }

    public func update(_ data: Data) {
        guard let context else { return }
        _ = data.withUnsafeBytes { EVP_DigestUpdate(context, $0.baseAddress, $0.count) }
    }

    public func update(_ text: String) { update(Data(text.utf8)) }

    /// Feeds the bytes of the file at `path`, 1 MiB at a time (bounded memory for archives of
    /// gigabytes).
    public func update(file path: String) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw FetchError.io(path: path, reason: "cannot open it to take its SHA-256") }
        defer { try? handle.close() }
        while true {
            let block: Data
            do { block = try handle.read(upToCount: 1 << 20) ?? Data() } catch { throw FetchError.io(path: path, reason: "read failed: \(error.localizedDescription)") }
            if block.isEmpty { return }
            update(block)
        }
    }

    /// The lower-case hex digest (the hasher is then spent).
    public func finish() -> String {
        guard let context else { return "" }
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard EVP_DigestFinal_ex(context, &digest, &length) == 1 else { return "" }
        return digest.prefix(Int(length)).map { String(format: "%02x", $0) }.joined()
    }
}

extension FileDigest {
    /// SHA-256 over a folder's regular files in path order: each file's relative path, size and
    /// bytes (1 MiB at a time) — any renamed, added, removed or changed file changes it. A file
    /// gives its own digest.
    public static func sha256(ofFolder path: String) throws -> String {
        let fm = FileManager.default
        var isFolder: ObjCBool = false
        guard fm.fileExists(atPath: path, isDirectory: &isFolder) else { throw FetchError.io(path: path, reason: "does not exist") }
        guard isFolder.boolValue else { return try sha256(of: path) }
        let hasher = SHA256Hasher()
        let files = (fm.enumerator(atPath: path)?.allObjects as? [String] ?? []).filter { file in
            var folder: ObjCBool = false
            return fm.fileExists(atPath: (path as NSString).appendingPathComponent(file), isDirectory: &folder) && !folder.boolValue
        }.sorted()
        for file in files {
            let full = (path as NSString).appendingPathComponent(file)
            hasher.update("\(file)\0\(size(of: full))\0")
            try hasher.update(file: full)
        }
        return hasher.finish()
    }
}
