import CKernels
import Dispatch
import ParallaxImage
import ParallaxOptions
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Semi-global matching (Hirschmüller 2008) of a rectified stereo pair: a disparity for each
/// pixel of the left image such that `left(x, y)` shows what `right(x − d, y)` shows.
///
/// The matching cost is the census distance (``CensusTransform``). It is aggregated along 4 or 8
/// straight paths through the image, each adding `P1` where the disparity changes by one pixel
/// between neighbours and `P2` where it jumps, with `P2` lowered where the image has an edge (depth
/// edges usually sit on intensity edges). The winner over the summed paths is kept when it is
/// unique (no other disparity more than 1 px away costs nearly as little), agrees with the
/// right image's own winner (left-right check), and belongs to a patch of similar disparities
/// larger than a speckle. A parabola through the costs around it gives the sub-pixel value.
///
/// Near the left border, where OpenCV's StereoSGBM returns nothing for `x < disparities`, the
/// search is limited to the disparities the right image still covers (`d ≤ x`).
///
/// Integer arithmetic throughout the cost and aggregation, so results are bit-identical on every
/// run: census costs in bytes, path costs in bytes where they fit (with the default penalties;
/// in C, CKernels, 64 disparities per instruction with AVX-512, 32 with AVX2, 16 portably, the
/// same bits each) or else in 16 bits (8 per SIMD operation, in Swift), sums in 16 bits. One
/// thread holds the costs (1 byte per pixel and disparity) and one direction's sums (2 bytes),
/// kept between pairs (``Workspace``); the other direction's sums are added row by row and each
/// row's winners chosen at once (``aggregateAndChoose(_:gray:width:height:depth:first:second:)``,
/// ``RowWinners``).
public struct SemiGlobalMatching: Sendable {
    /// How the pair is matched: the options of the `stereo-depth` analyzer are these, under the
    /// same names, each declared here once with its unit and range.
    public struct Options: ParameterGroup, Equatable {
        @Parameter("disparities searched, 0 ..< disparities (px)", range: 1...1024) public var disparities = 64
        /// 4: left, right, up, down; 8: and the diagonals.
        @Parameter("aggregation paths", rule: "4 or 8", validate: { $0 == 4 || $0 == 8 ? nil : "must be 4 or 8" }) public var paths = 8
        @Parameter("P1: cost of a ±1 px disparity step between neighbours (census bits)", range: 0...4095) public var p1 = 10
        @Parameter("P2: cost of a larger step where the image is flat (census bits; must exceed P1)", range: 1...4000) public var p2 = 120
        /// Where the gray level changes by `ΔI` between neighbours, `P2` becomes
        /// `P2 · s / (s + |ΔI|)` (never below `P1 + 1`) for this `s`.
        @Parameter("P2 is lowered to P2·s/(s+|ΔI|) at intensity edges, for this s (gray levels); 0: constant", range: 0...255) public var p2IntensityScale = 16
        @Parameter("the winner's cost must be below every other (more than 1 px away) by this fraction", range: 0...0.99) public var uniqueness = 0.1
        /// Largest difference (px) from the right image's own winner; negative: no left-right check.
        @Parameter("largest left-right disagreement (px); -1: no check", range: -1...1024) public var leftRightDifference = 1
        /// Refine to sub-pixel with a parabola through the neighbouring costs.
        public var subpixel = true
        @Parameter("speckles (patches of similar disparity) smaller than this are removed (pixels); 0: none", range: 0...1_000_000) public var speckleWindow = 100
        /// Between neighbours of one patch.
        @Parameter("largest disparity step inside one speckle (px)", range: 0...1024) public var speckleRange = 2.0
        /// Census window (odd sides, at most 64 pixels).
        public var censusWidth = 9
        public var censusHeight = 7
        /// With 2 the cost rows and the winner rows are split in halves and the two sweeps run at
        /// once, each into its own sums, added after (integers: bit-identical to one thread).
        @Parameter("threads matching a pair (1 or 2; the same disparities either way)", range: 1...2) public var threads = 1
        /// Path costs in bytes where they fit (window pixels + P1 + P2 ≤ 255: twice the
        /// disparities per operation); off, always in 16 bits. The same disparities either
        /// way: for tests that compare the two.
        var byteLanesWhereTheyFit = true
        /// The census costs and the byte-lane sweeps in CKernels' C loops (AVX-512, AVX2 or
        /// portable, chosen at run time); off, in the Swift loops they replaced. The same
        /// disparities either way: for tests that compare the two.
        var cKernels = true
        /// CKernels' variant (`parallax_kernels_level`): −1 the processor's best; tests pass
        /// each and compare.
        var kernelLevel: Int32 = -1

        public init() {}
    }

    /// Why a pair cannot be matched.
    public enum MatchingError: Error, Equatable, CustomStringConvertible {
        case sizeMismatch(left: [Int], right: [Int])
        case badOption(String)
        case tooLarge(width: Int, height: Int, disparities: Int)
        /// The cost and sums volumes (bytes) could not be allocated (a limit on the address
        /// space, `ulimit -v`, or too little memory).
        case outOfMemory(bytes: Int)

        public var description: String {
            switch self {
            case let .sizeMismatch(l, r): return "the stereo images differ in size: \(l[0])×\(l[1]) and \(r[0])×\(r[1])"
            case let .badOption(message): return message
            case let .tooLarge(w, h, d): return "a \(w)×\(h) pair with \(d) disparities needs more than \(SemiGlobalMatching.maxVolume) cost entries"
            case let .outOfMemory(bytes):
                return "not enough memory for the cost volumes: \(bytes / 1_000_000) MB could not be allocated (fewer disparities or a smaller pair need less)"
            }
        }
    }

    /// Largest cost volume (width × height × disparities) matched (costs 1 byte each, sums 2; the sums held twice with two threads).
    public static let maxVolume = 1 << 30

    /// The most disparities a `width × height` pair can be searched with (``maxVolume`` cost
    /// entries, rounded as the matcher rounds), at least 1.
    public static func mostDisparities(width: Int, height: Int) -> Int {
        let pixels = max(1, width * height)
        return max(1, Self.maxVolume / pixels / depthMultiple * depthMultiple)
    }

    public var options: Options
    /// The cost and sums volumes, kept between pairs (``Workspace``).
    private let workspace = Workspace()
    public init(options: Options = Options()) { self.options = options }

    /// The left image's disparity (px), NaN where none passed the checks. Both images are 8-bit,
    /// of one size; color is matched as its luma (``ImageBuffer/luma``).
    public func disparity(left color: ImageBuffer<UInt8>, right rightColor: ImageBuffer<UInt8>) throws -> ImageBuffer<Float> {
        let left = color.luma, right = rightColor.luma
        let w = left.width, h = left.height
        guard right.width == w, right.height == h else {
            throw MatchingError.sizeMismatch(left: [w, h], right: [right.width, right.height])
        }
        try checkOptions()
        let depth = (options.disparities + Self.depthMultiple - 1) / Self.depthMultiple * Self.depthMultiple
        let (volume, overflow) = (w * h).multipliedReportingOverflow(by: depth)
        guard !overflow, volume <= Self.maxVolume else { throw MatchingError.tooLarge(width: w, height: h, disparities: options.disparities) }
        guard w > 0, h > 0 else { return ImageBuffer(width: w, height: h, repeating: .nan) }
        return try workspace.withVolumes(volume, second: options.threads > 1) { cost, first, second in
            costVolume(left, right, depth: depth, into: cost)
            var disparity = aggregateAndChoose(cost, gray: left.samples, width: w, height: h, depth: depth, first: first, second: second)
            if options.speckleWindow > 0 {
                SpeckleFilter.apply(&disparity, maxSize: options.speckleWindow, maxStep: Float(options.speckleRange))
            }
            return disparity
        }
    }

    private func checkOptions() throws {
        guard options.disparities >= 1, options.disparities <= 1024 else {
            throw MatchingError.badOption("disparities \(options.disparities) is out of range 1…1024")
        }
        guard options.threads == 1 || options.threads == 2 else { throw MatchingError.badOption("threads must be 1 or 2, not \(options.threads)") }
        guard options.paths == 4 || options.paths == 8 else { throw MatchingError.badOption("paths must be 4 or 8, not \(options.paths)") }
        guard options.p1 >= 0, options.p2 > options.p1, options.p2 <= Self.maxLargePenalty else {
            throw MatchingError.badOption("penalties need 0 ≤ P1 < P2 ≤ \(Self.maxLargePenalty) (P1 \(options.p1), P2 \(options.p2))")
        }
        guard options.p2IntensityScale >= 0, options.uniqueness >= 0, options.uniqueness < 1, options.speckleWindow >= 0,
              options.speckleRange >= 0 else {
            throw MatchingError.badOption("p2_intensity_scale, speckle_window and speckle_range must not be negative, uniqueness in [0, 1)")
        }
        guard options.censusWidth % 2 == 1, options.censusHeight % 2 == 1, options.censusWidth > 0, options.censusHeight > 0,
              options.censusWidth * options.censusHeight <= CensusTransform.maxBits else {
            throw MatchingError.badOption("the census window \(options.censusWidth)×\(options.censusHeight) needs odd sides and at most 64 pixels")
        }
    }

    /// Largest `P2`: a path's cost stays at most the census window's pixel count (≤ 64) + `P2`,
    /// so the sum of 8 paths stays below 2¹⁵ and the winners compare signed lanes (one SSE2
    /// instruction).
    public static let maxLargePenalty = 4000

    /// Disparities per SIMD operation on 16-bit sums.
    static let lanes = 8
    /// Each pixel's disparities are padded to a multiple of this (the widest path lanes).
    static let depthMultiple = 16
    /// The summed costs, as the winners read them (signed: below 2¹⁵).
    typealias SumLanes = SIMD8<Int16>

    /// Census distances `c[(y·w + x)·depth + d]` of left `(x, y)` and right `(x − d, y)`, one
    /// byte each (at most 63 bits differ); where the right image has no pixel (`x − d < 0`) the
    /// window's pixel count. Lanes `d ≥ disparities` (up to a multiple of ``depthMultiple``)
    /// hold 0: the sweeps give them their lanes' `outside` cost.
    func costVolume(_ left: ImageBuffer<UInt8>, _ right: ImageBuffer<UInt8>, depth: Int, into c: UnsafeMutablePointer<UInt8>) {
        let w = left.width, h = left.height
        let l = CensusTransform.transform(left, windowWidth: options.censusWidth, windowHeight: options.censusHeight)
        // The right census with each row reversed, so the right pixels x − d, x − d − 1, … of
        // consecutive disparities are consecutive in memory.
        var reversed = CensusTransform.transform(right, windowWidth: options.censusWidth, windowHeight: options.censusHeight)
        for y in 0..<h { reversed[(y * w)..<((y + 1) * w)].reverse() }
        l.withUnsafeBufferPointer { lb in
            reversed.withUnsafeBufferPointer { rb in
                guard let lp = lb.baseAddress, let rp = rb.baseAddress else { return }
                // Rows are independent: with two threads each takes half of them.
                let shared = SharedWithThreads((lp, rp, c))
                guard options.threads > 1, h > 1 else { return costRows(0..<h, left: lp, reversedRight: rp, cost: c, width: w, depth: depth) }
                DispatchQueue.concurrentPerform(iterations: 2) { half in
                    let (lp2, rp2, c2) = shared.value
                    costRows(half == 0 ? 0..<(h / 2) : (h / 2)..<h, left: lp2, reversedRight: rp2, cost: c2, width: w, depth: depth)
                }
            }
        }
    }

    /// ``costVolume(_:_:depth:into:)`` for `rows`, from the left census and the reversed right one.
    private func costRows(_ rows: Range<Int>, left lp: UnsafePointer<UInt64>, reversedRight rp: UnsafePointer<UInt64>, cost c: UnsafeMutablePointer<UInt8>,
                          width w: Int, depth: Int) {
        let dCount = options.disparities
        let outsideCost = UInt8(options.censusWidth * options.censusHeight)
        if options.cKernels {
            for y in rows {
                parallax_census_cost_row(lp + y * w, rp + y * w, Int32(w), Int32(depth), Int32(dCount), outsideCost, c + y * w * depth, options.kernelLevel)
            }
            return
        }
        let full = dCount / Self.lanes * Self.lanes
        for y in rows {
            let row = rp + y * w
            for x in 0..<w {
                let base = c + (y * w + x) * depth
                let cl = lp[y * w + x]
                // Right pixel x − d sits at reversed index w − 1 − x + d.
                let start = w - 1 - x
                var d = 0
                if x >= dCount - 1 {
                    let centre = SIMD8<UInt64>(repeating: cl)
                    while d < full {
                        let other = UnsafeRawPointer(row + start + d).loadUnaligned(as: SIMD8<UInt64>.self)
                        UnsafeMutableRawPointer(base + d).storeBytes(of: SIMD8<UInt8>(truncatingIfNeeded: (centre ^ other).nonzeroBitCount), as: SIMD8<UInt8>.self)
                        d += Self.lanes
                    }
                }
                while d < dCount {
                    base[d] = x >= d ? UInt8((cl ^ row[start + d]).nonzeroBitCount) : outsideCost
                    d += 1
                }
                while d < depth {
                    base[d] = 0
                    d += 1
                }
            }
        }
    }

    /// Eight consecutive entries (16-bit costs or sums, signed or not), unaligned.
    @inline(__always) static func load<Scalar: SIMDScalar>(_ p: UnsafePointer<Scalar>) -> SIMD8<Scalar> {
        UnsafeRawPointer(p).loadUnaligned(as: SIMD8<Scalar>.self)
    }
    @inline(__always) static func load<Scalar: SIMDScalar>(_ p: UnsafeMutablePointer<Scalar>) -> SIMD8<Scalar> {
        load(UnsafePointer(p))
    }
    @inline(__always) static func store<Scalar: SIMDScalar>(_ v: SIMD8<Scalar>, _ p: UnsafeMutablePointer<Scalar>) {
        UnsafeMutableRawPointer(p).storeBytes(of: v, as: SIMD8<Scalar>.self)
    }
}

/// Pointers handed to the two threads of one `concurrentPerform`: each thread writes rows no
/// other writes and reads only what no thread writes, and the caller keeps the memory alive
/// until `concurrentPerform` returns. That contract, not the type system, makes the sharing safe.
struct SharedWithThreads<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}


extension SemiGlobalMatching {
    /// The matcher's large buffers, kept from one pair to the next: the cost volume (1 byte per
    /// pixel and disparity) and one or two volumes of sums (2 bytes each).
    ///
    /// Buffers this large (a 1282×1110 pair with 224 disparities needs 320 MB + 640 MB) come
    /// from `mmap` and go back on `free` whatever `mallopt` says (glibc serves blocks above
    /// 32 MB from the heap never), so a fresh pair would page-fault every page of them again:
    /// a third of the time on such a pair. Like OpenCV's StereoSGBM, which keeps its buffer in
    /// the matcher object, a matcher keeps them until it is released. Copies of a matcher share
    /// them; a call that finds them in use (another thread matching with a copy) takes fresh
    /// ones for itself, so calls never wait on each other and results never depend on it.
    final class Workspace: Sendable {
        private struct Buffers {
            var cost: UnsafeMutablePointer<UInt8>?
            var costCapacity = 0
            var sums: UnsafeMutablePointer<UInt16>?
            var sumsCapacity = 0
            var second: UnsafeMutablePointer<UInt16>?
            var secondCapacity = 0
        }

        private let buffers = Mutex(Buffers())

        init() {}

        deinit {
            buffers.withLock { b in
                free(b.cost)
                free(b.sums)
                free(b.second)
            }
        }

        /// `body` with `volume` bytes of cost, `volume` 16-bit sums, and a second such volume
        /// when `second` (contents unspecified: the matcher writes every entry before reading it).
        /// Throws ``MatchingError/outOfMemory(bytes:)`` when they cannot be allocated (they come
        /// from `malloc`, which says so, where Swift's allocation would end the process).
        func withVolumes<Result: Sendable>(_ volume: Int, second: Bool,
                                           _ body: (UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<UInt16>, UnsafeMutablePointer<UInt16>?) -> Result) throws -> Result {
            let bytes = Self.bytes(volume, second: second)
            let kept: Result? = try buffers.withLockIfAvailable { b throws -> Result in
                let cost = try Self.grow(&b.cost, &b.costCapacity, to: volume, bytes: bytes)
                let sums = try Self.grow(&b.sums, &b.sumsCapacity, to: volume, bytes: bytes)
                let other = second ? try Self.grow(&b.second, &b.secondCapacity, to: volume, bytes: bytes) : nil
                return body(cost, sums, other)
            }
            if let kept { return kept }
            return try Self.withFresh(volume, second: second, body)
        }

        /// `buffer` holding at least `count` elements: kept when it does, else replaced (its
        /// contents are not kept); throws ``MatchingError/outOfMemory(bytes:)`` (`bytes`, all the
        /// volumes together) when there is no memory for it.
        private static func grow<T>(_ buffer: inout UnsafeMutablePointer<T>?, _ capacity: inout Int, to count: Int, bytes: Int) throws -> UnsafeMutablePointer<T> {
            if let buffer, capacity >= count { return buffer }
            free(buffer)
            buffer = nil
            capacity = 0
            guard let fresh: UnsafeMutablePointer<T> = allocate(count) else { throw MatchingError.outOfMemory(bytes: bytes) }
            buffer = fresh
            capacity = count
            return fresh
        }

        /// The bytes of the volumes `volume` entries need (cost 1, sums 2, twice with `second`).
        private static func bytes(_ volume: Int, second: Bool) -> Int { volume * (second ? 5 : 3) }

        /// `count` elements from `malloc` (released with `free`); nil when it has none.
        private static func allocate<T>(_ count: Int) -> UnsafeMutablePointer<T>? {
            let (size, overflow) = count.multipliedReportingOverflow(by: MemoryLayout<T>.stride)
            guard !overflow, let raw = malloc(max(1, size)) else { return nil }
            return raw.bindMemory(to: T.self, capacity: count)
        }

        private static func withFresh<Result>(_ volume: Int, second: Bool,
                                              _ body: (UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<UInt16>, UnsafeMutablePointer<UInt16>?) -> Result) throws -> Result {
            let cost: UnsafeMutablePointer<UInt8>? = allocate(volume)
            let sums: UnsafeMutablePointer<UInt16>? = allocate(volume)
            let other: UnsafeMutablePointer<UInt16>? = second ? allocate(volume) : nil
            defer { free(cost); free(sums); free(other) }
            guard let cost, let sums, !second || other != nil else { throw MatchingError.outOfMemory(bytes: bytes(volume, second: second)) }
            return body(cost, sums, other)
        }
    }
}
