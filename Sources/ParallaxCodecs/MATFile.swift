import CZlib
import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry
import ParallaxFiles

/// Why a MATLAB file could not be read: names the file, and the variable or byte offset.
public enum MATFileError: Error, BadInput, Equatable, Sendable, CustomStringConvertible {
    case unreadable(path: String)
    case notMAT5(path: String, reason: String)
    case malformed(path: String, offset: Int, reason: String)
    case missingVariable(path: String, name: String, present: [String])
    case wrongShape(path: String, name: String, expected: String, found: [Int])

    public var description: String {
        switch self {
        case let .unreadable(path): return "\(path): cannot read the file"
        case let .notMAT5(path, reason): return "\(path): not a MATLAB v5 MAT-file (\(reason))"
        case let .malformed(path, offset, reason): return "\(path): byte \(offset): \(reason) (truncated or damaged MAT-file?)"
        case let .missingVariable(path, name, present):
            return "\(path): no numeric variable '\(name)' (the file has \(present.isEmpty ? "none" : present.joined(separator: ", ")))"
        case let .wrongShape(path, name, expected, found):
            return "\(path): '\(name)' is \(found.map(String.init).joined(separator: "×")), expected \(expected)"
        }
    }
}

/// The numeric variables of a MATLAB v5 MAT-file (what `save` writes by default since MATLAB 7,
/// and `scipy.io.savemat`): real numeric and logical arrays of any MATLAB class, stored plain or
/// zlib-compressed, either byte order, read into `Double`s. Cell arrays, structs, objects,
/// sparse and complex arrays and character arrays are skipped (listed in ``skipped``); v7.3
/// files (HDF5) are refused by name.
///
/// Every size read from the file is checked against the bytes that are there, and inflated
/// data is capped (``maximumInflatedBytes``), so a damaged file is an error naming the byte
/// offset, never a crash or a huge allocation.
public struct MATFile: Sendable {
    /// One numeric array, column-major as MATLAB stores it.
    public struct Variable: Sendable, Equatable {
        public var name: String
        /// Sizes per dimension (at least two: a row vector is 1 × n).
        public var dimensions: [Int]
        /// The elements, column-major (`values[r + c · rows]` for a matrix).
        public var values: [Double]

        /// The element at row `r`, column `c` of a 2-D array.
        public subscript(r: Int, c: Int) -> Double { values[r + c * dimensions[0]] }
    }

    /// The file read.
    public let path: String
    /// The numeric variables by name.
    public let variables: [String: Variable]
    /// Names of variables of kinds not read (cell, struct, char, sparse, complex, …).
    public let skipped: [String]

    /// Largest inflated size of one compressed element (256 MiB).
    public static let maximumInflatedBytes = 256 << 20
    /// How far one compressed element may inflate: the shared ratio bound, under
    /// ``maximumInflatedBytes``.
    static let inflateLimit = DecompressionLimit(ceilingBytes: maximumInflatedBytes)

    /// Reads `path`.
    public init(path: String) throws {
        guard let data = FileContents.data(atPath: path) else { throw MATFileError.unreadable(path: path) }
        try self.init(bytes: [UInt8](data), path: path)
    }

    /// Reads a MAT-file's bytes; `path` names it in errors.
    public init(bytes: [UInt8], path: String) throws {
        self.path = path
        guard bytes.count >= 128 else {
            throw MATFileError.notMAT5(path: path, reason: "\(bytes.count) bytes, shorter than the 128-byte header")
        }
        guard bytes[0..<6].elementsEqual(Array("MATLAB".utf8)) else {
            throw MATFileError.notMAT5(path: path, reason: "the header does not start with 'MATLAB'")
        }
        let littleEndian: Bool
        switch (bytes[126], bytes[127]) {
        case (UInt8(ascii: "I"), UInt8(ascii: "M")): littleEndian = true
        case (UInt8(ascii: "M"), UInt8(ascii: "I")): littleEndian = false
        default: throw MATFileError.notMAT5(path: path, reason: "no byte-order mark ('IM' or 'MI') at bytes 126–127")
        }
        // Version 0x0100 is v5; MATLAB's v7.3 files carry 0x0200 and are HDF5 inside.
        let version = littleEndian ? UInt16(bytes[124]) | UInt16(bytes[125]) << 8 : UInt16(bytes[125]) | UInt16(bytes[124]) << 8
        guard version == 0x0100 else {
            throw MATFileError.notMAT5(path: path, reason: version == 0x0200 ? "a v7.3 (HDF5) file; save it with -v7 or scipy.io.savemat"
                                                                            : "header version \(version), expected 256")
        }
        var reader = MATElementReader(bytes: bytes, littleEndian: littleEndian, path: path, base: 0)
        reader.position = 128
        var variables: [String: Variable] = [:]
        var skipped: [String] = []
        while reader.position < bytes.count {
            // Trailing padding of fewer than 8 bytes is not an element.
            if bytes.count - reader.position < 8, bytes[reader.position...].allSatisfy({ $0 == 0 }) { break }
            let element = try reader.element()
            var matrixReader: MATElementReader
            switch element.type {
            case MATElementReader.miCOMPRESSED:
                let inflated = try Self.inflate(bytes[element.range], path: path, offset: element.range.lowerBound)
                var inner = MATElementReader(bytes: inflated, littleEndian: littleEndian, path: path, base: element.range.lowerBound)
                let sub = try inner.element()
                guard sub.type == MATElementReader.miMATRIX else { continue }
                matrixReader = inner
                matrixReader.limit(to: sub.range)
            case MATElementReader.miMATRIX:
                matrixReader = reader
                matrixReader.limit(to: element.range)
            default:
                continue  // not a variable (e.g. a subsystem block)
            }
            switch try matrixReader.matrix() {
            case let .numeric(v): variables[v.name] = v
            case let .other(name): skipped.append(name)
            }
        }
        self.variables = variables
        self.skipped = skipped
    }

    /// The numeric variable `name`, or an error listing what the file has.
    public func variable(_ name: String) throws -> Variable {
        guard let v = variables[name] else { throw MATFileError.missingVariable(path: path, name: name, present: variables.keys.sorted()) }
        return v
    }

    /// The variable `name` as a `rows × columns` matrix (any other shape is an error naming it).
    public func matrix(_ name: String, rows: Int, columns: Int) throws -> Variable {
        let v = try variable(name)
        guard v.dimensions == [rows, columns] else {
            throw MATFileError.wrongShape(path: path, name: name, expected: "\(rows)×\(columns)", found: v.dimensions)
        }
        return v
    }

    /// zlib-inflates one compressed element, up to its ``inflateLimit``.
    static func inflate(_ input: ArraySlice<UInt8>, path: String, offset: Int, limit inflateLimit: DecompressionLimit = inflateLimit) throws -> [UInt8] {
        var stream = z_stream()
        guard parallax_inflate_init(&stream) == Z_OK else {
            throw MATFileError.malformed(path: path, offset: offset, reason: "zlib could not start inflating")
        }
        defer { inflateEnd(&stream) }
        // No declared size: what inflates is counted against the shared limit as it comes.
        let limit = inflateLimit.limit(compressed: input.count)
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        return try input.withUnsafeBytes { (inBuffer: UnsafeRawBufferPointer) -> [UInt8] in
            // zlib reads through a non-const pointer but never writes the input.
            stream.next_in = inBuffer.baseAddress.map { UnsafeMutablePointer(mutating: $0.assumingMemoryBound(to: Bytef.self)) }
            stream.avail_in = uInt(inBuffer.count)
            while true {
                let (status, produced) = chunk.withUnsafeMutableBytes { (out: UnsafeMutableRawBufferPointer) -> (Int32, Int) in
                    stream.next_out = out.baseAddress?.assumingMemoryBound(to: Bytef.self)
                    stream.avail_out = uInt(out.count)
                    let status = CZlib.inflate(&stream, Z_NO_FLUSH)
                    return (status, out.count - Int(stream.avail_out))
                }
                guard produced <= limit - output.count else {
                    throw inflateLimit.exceeded(produced: output.count + produced, compressed: input.count, codec: "zlib", file: path, offset: UInt64(offset))
                }
                output += chunk[0..<produced]
                switch status {
                case Z_STREAM_END: return output
                case Z_OK: continue
                case Z_BUF_ERROR where produced > 0: continue
                case Z_BUF_ERROR: throw MATFileError.malformed(path: path, offset: offset, reason: "a compressed element ends early")
                default: throw MATFileError.malformed(path: path, offset: offset, reason: "a compressed element is not valid zlib data")
                }
            }
        }
    }
}

/// Walks the tagged data elements of a MAT-file (or of one inflated element).
struct MATElementReader {
    static let miINT8: UInt32 = 1, miUINT8: UInt32 = 2, miINT16: UInt32 = 3, miUINT16: UInt32 = 4
    static let miINT32: UInt32 = 5, miUINT32: UInt32 = 6, miSINGLE: UInt32 = 7, miDOUBLE: UInt32 = 9
    static let miINT64: UInt32 = 12, miUINT64: UInt32 = 13, miMATRIX: UInt32 = 14, miCOMPRESSED: UInt32 = 15
    static let miUTF8: UInt32 = 16

    /// MATLAB array classes that hold numbers.
    static let numericClasses: Set<UInt8> = [6, 7, 8, 9, 10, 11, 12, 13, 14, 15]

    let bytes: [UInt8]
    let littleEndian: Bool
    let path: String
    /// Offset of `bytes` in the file (for messages; inflated data reports its element's offset).
    let base: Int
    var position = 0
    var end: Int

    init(bytes: [UInt8], littleEndian: Bool, path: String, base: Int) {
        self.bytes = bytes
        self.littleEndian = littleEndian
        self.path = path
        self.base = base
        end = bytes.count
    }

    mutating func limit(to range: Range<Int>) {
        position = range.lowerBound
        end = range.upperBound
    }

    func fail(_ reason: String) -> MATFileError { .malformed(path: path, offset: base + position, reason: reason) }

    func uint32(at i: Int) -> UInt32 {
        let b0 = UInt32(bytes[i]), b1 = UInt32(bytes[i + 1]), b2 = UInt32(bytes[i + 2]), b3 = UInt32(bytes[i + 3])
        return littleEndian ? b0 | b1 << 8 | b2 << 16 | b3 << 24 : b3 | b2 << 8 | b1 << 16 | b0 << 24
    }

    func uint64(at i: Int) -> UInt64 {
        let lo = UInt64(uint32(at: i)), hi = UInt64(uint32(at: i + 4))
        return littleEndian ? lo | hi << 32 : hi | lo << 32
    }

    /// The next element's type and data bytes; moves past it (and its padding to 8 bytes).
    mutating func element() throws -> (type: UInt32, range: Range<Int>) {
        guard end - position >= 8 else { throw fail("an element tag needs 8 bytes, \(end - position) left") }
        let first = uint32(at: position)
        if first >> 16 != 0 {
            // Small data element: type and size in one word, up to 4 data bytes in the next.
            let size = Int(first >> 16)
            guard size <= 4 else { throw fail("a small data element claims \(size) bytes (at most 4)") }
            let start = position + 4
            position += 8
            return (first & 0xFFFF, start..<(start + size))
        }
        let size = Int(uint32(at: position + 4))
        let start = position + 8
        guard size <= end - start else { throw fail("an element claims \(size) bytes, \(end - start) left") }
        // Compressed elements are not padded; the others are, to a multiple of 8 (the last may
        // end the file without its padding).
        let padded = first == Self.miCOMPRESSED ? size : (size + 7) & ~7
        position = min(end, start + padded)
        return (first, start..<(start + size))
    }

    enum Matrix {
        case numeric(MATFile.Variable)
        case other(name: String)
    }

    /// One `miMATRIX` element's contents: flags, dimensions, name, then the real part.
    mutating func matrix() throws -> Matrix {
        let flags = try element()
        guard flags.type == Self.miUINT32, flags.range.count == 8 else { throw fail("an array's flags are not two 32-bit words") }
        let flagWord = uint32(at: flags.range.lowerBound)
        let arrayClass = UInt8(flagWord & 0xFF)
        let complex = flagWord & 0x800 != 0
        let dims = try element()
        guard dims.type == Self.miINT32, dims.range.count >= 8, dims.range.count % 4 == 0 else { throw fail("an array's dimensions are not 32-bit integers") }
        var dimensions: [Int] = []
        var count = 1
        for i in stride(from: dims.range.lowerBound, to: dims.range.upperBound, by: 4) {
            let d = Int(Int32(bitPattern: uint32(at: i)))
            guard d >= 0 else { throw fail("a negative dimension (\(d))") }
            dimensions.append(d)
            let (product, overflow) = count.multipliedReportingOverflow(by: d)
            guard !overflow, product <= bytes.count else { throw fail("dimensions \(dimensions) hold more elements than the file has bytes") }
            count = product
        }
        let nameElement = try element()
        guard nameElement.type == Self.miINT8 || nameElement.type == Self.miUTF8 else { throw fail("an array's name is not text") }
        let name = String(decoding: bytes[nameElement.range], as: UTF8.self)
        guard Self.numericClasses.contains(arrayClass), !complex else { return .other(name: name) }
        let real = try element()
        let values = try numbers(real.type, real.range, name: name)
        guard values.count == count else {
            throw fail("'\(name)' has \(values.count) values for dimensions \(dimensions.map(String.init).joined(separator: "×"))")
        }
        return .numeric(MATFile.Variable(name: name, dimensions: dimensions, values: values))
    }

    /// The numbers in `range`, stored as data type `type`.
    func numbers(_ type: UInt32, _ range: Range<Int>, name: String) throws -> [Double] {
        let width: Int
        switch type {
        case Self.miINT8, Self.miUINT8: width = 1
        case Self.miINT16, Self.miUINT16: width = 2
        case Self.miINT32, Self.miUINT32, Self.miSINGLE: width = 4
        case Self.miDOUBLE, Self.miINT64, Self.miUINT64: width = 8
        default: throw fail("'\(name)' is stored as data type \(type), which holds no numbers")
        }
        guard range.count % width == 0 else { throw fail("'\(name)' has \(range.count) bytes, not a whole number of \(width)-byte values") }
        return stride(from: range.lowerBound, to: range.upperBound, by: width).map { i -> Double in
            switch type {
            case Self.miINT8: return Double(Int8(bitPattern: bytes[i]))
            case Self.miUINT8: return Double(bytes[i])
            case Self.miINT16, Self.miUINT16:
                let v = littleEndian ? UInt16(bytes[i]) | UInt16(bytes[i + 1]) << 8 : UInt16(bytes[i + 1]) | UInt16(bytes[i]) << 8
                return type == Self.miINT16 ? Double(Int16(bitPattern: v)) : Double(v)
            case Self.miINT32: return Double(Int32(bitPattern: uint32(at: i)))
            case Self.miUINT32: return Double(uint32(at: i))
            case Self.miSINGLE: return Double(Float(bitPattern: uint32(at: i)))
            case Self.miINT64: return Double(Int64(bitPattern: uint64(at: i)))
            case Self.miUINT64: return Double(uint64(at: i))
            default: return Double(bitPattern: uint64(at: i))
            }
        }
    }
}
