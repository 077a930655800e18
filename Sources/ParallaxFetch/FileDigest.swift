import COpenSSLDigest
import Foundation

/// SHA-256 of a file through OpenSSL's libcrypto, read in 1 MiB blocks (bounded memory for
/// archives of gigabytes).
public enum FileDigest {
    /// The lower-case hex SHA-256 of the file at `path`.
    public static func sha256(of path: String) throws -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw FetchError.io(path: path, reason: "cannot open it to check its SHA-256") }
        defer { try? handle.close() }
        guard let context = EVP_MD_CTX_new() else { throw FetchError.io(path: path, reason: "OpenSSL could not allocate a digest") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else { throw FetchError.io(path: path, reason: "OpenSSL has no SHA-256") }
        while true {
            let block: Data
            do { block = try handle.read(upToCount: 1 << 20) ?? Data() } catch {
                throw FetchError.io(path: path, reason: "read failed: \(error.localizedDescription)")
            }
            if block.isEmpty { break }
            let ok = block.withUnsafeBytes { EVP_DigestUpdate(context, $0.baseAddress, $0.count) }
            guard ok == 1 else { throw FetchError.io(path: path, reason: "OpenSSL digest update failed") }
        }
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard EVP_DigestFinal_ex(context, &digest, &length) == 1 else { throw FetchError.io(path: path, reason: "OpenSSL digest failed") }
        return digest.prefix(Int(length)).map { String(format: "%02x", $0) }.joined()
    }
}
