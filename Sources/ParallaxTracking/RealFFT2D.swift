import CFFTW
import Foundation

/// The discrete Fourier transform of a real `rows × columns` image and its inverse (FFTW 3,
/// single precision), with both plans made once and reused.
///
/// A real image's spectrum is Hermitian, so only its `rows × (columns / 2 + 1)` left half is
/// kept (``Spectrum``). The plans are made with `FFTW_ESTIMATE`, which picks the algorithm from
/// the size alone, never by timing: the same size always computes the same way, so results are
/// bit-identical from run to run (`FFTW_MEASURE` would not be). The buffers come from
/// `fftwf_malloc`, so their alignment, and with it the code path, is the same every time too.
///
/// FFTW's planner is not thread-safe: plans are made under one process-wide lock. Executing is
/// thread-safe, but an instance owns its buffers, so use one per thread.
public final class RealFFT2D: @unchecked Sendable {
    /// Image rows and columns.
    public let rows: Int, columns: Int
    /// Columns of the kept half spectrum: `columns / 2 + 1`.
    public let spectrumColumns: Int
    private let real: UnsafeMutablePointer<Float>
    private let complex: UnsafeMutablePointer<fftwf_complex>
    private let forwardPlan: fftwf_plan
    private let inversePlan: fftwf_plan

    /// FFTW's planner, serialized.
    private static let planner = NSLock()

    /// Why a transform could not be set up.
    public enum SetupError: Error, Equatable, CustomStringConvertible {
        case size(rows: Int, columns: Int)
        case allocation(bytes: Int)
        case plan(rows: Int, columns: Int)

        public var description: String {
            switch self {
            case let .size(rows, columns): return "FFT size \(rows)×\(columns) is not between 1×1 and 4096×4096"
            case let .allocation(bytes): return "FFTW could not allocate \(bytes) bytes"
            case let .plan(rows, columns): return "FFTW made no plan for \(rows)×\(columns)"
            }
        }
    }

    /// Plans for `rows × columns` (each 1…4096).
    public init(rows: Int, columns: Int) throws {
        guard (1...4096).contains(rows), (1...4096).contains(columns) else { throw SetupError.size(rows: rows, columns: columns) }
        self.rows = rows
        self.columns = columns
        spectrumColumns = columns / 2 + 1
        let realBytes = rows * columns * MemoryLayout<Float>.stride
        let complexBytes = rows * spectrumColumns * MemoryLayout<fftwf_complex>.stride
        guard let r = fftwf_malloc(realBytes) else { throw SetupError.allocation(bytes: realBytes) }
        guard let c = fftwf_malloc(complexBytes) else {
            fftwf_free(r)
            throw SetupError.allocation(bytes: complexBytes)
        }
        real = r.bindMemory(to: Float.self, capacity: rows * columns)
        complex = c.bindMemory(to: fftwf_complex.self, capacity: rows * spectrumColumns)
        let (real, complex) = (real, complex)
        let plans = Self.planner.withLock {
            (fftwf_plan_dft_r2c_2d(Int32(rows), Int32(columns), real, complex, UInt32(FFTW_ESTIMATE)),
             fftwf_plan_dft_c2r_2d(Int32(rows), Int32(columns), complex, real, UInt32(FFTW_ESTIMATE)))
        }
        guard let f = plans.0, let i = plans.1 else {
            Self.planner.withLock {
                if let f = plans.0 { fftwf_destroy_plan(f) }
                if let i = plans.1 { fftwf_destroy_plan(i) }
            }
            fftwf_free(r)
            fftwf_free(c)
            throw SetupError.plan(rows: rows, columns: columns)
        }
        forwardPlan = f
        inversePlan = i
    }

    deinit {
        Self.planner.withLock {
            fftwf_destroy_plan(forwardPlan)
            fftwf_destroy_plan(inversePlan)
        }
        fftwf_free(real)
        fftwf_free(complex)
    }

    /// The half spectrum of `image` (row-major, `rows × columns` values).
    public func forward(_ image: UnsafeBufferPointer<Float>, into spectrum: inout Spectrum) {
        precondition(image.count == rows * columns && spectrum.values.count == 2 * rows * spectrumColumns, "RealFFT2D: size mismatch")
        guard let source = image.baseAddress else { return }
        real.update(from: source, count: rows * columns)
        fftwf_execute(forwardPlan)
        spectrum.values.withUnsafeMutableBufferPointer { out in
            guard let target = out.baseAddress else { return }
            UnsafeMutableRawPointer(target).copyMemory(from: complex, byteCount: 2 * rows * spectrumColumns * MemoryLayout<Float>.stride)
        }
    }

    /// The half spectrum of `image`.
    public func forward(_ image: [Float]) -> Spectrum {
        var s = Spectrum(rows: rows, columns: spectrumColumns)
        image.withUnsafeBufferPointer { forward($0, into: &s) }
        return s
    }

    /// The real image whose half spectrum is `spectrum`, scaled by `1 / (rows · columns)` so
    /// that `inverse(forward(x)) = x`.
    public func inverse(_ spectrum: Spectrum, into image: inout [Float]) {
        precondition(image.count == rows * columns && spectrum.values.count == 2 * rows * spectrumColumns, "RealFFT2D: size mismatch")
        spectrum.values.withUnsafeBufferPointer { s in
            guard let source = s.baseAddress else { return }
            UnsafeMutableRawPointer(complex).copyMemory(from: source, byteCount: 2 * rows * spectrumColumns * MemoryLayout<Float>.stride)
        }
        fftwf_execute(inversePlan)   // c2r overwrites its input: the copy above keeps `spectrum` intact
        let scale = 1 / Float(rows * columns)
        image.withUnsafeMutableBufferPointer { out in
            for i in 0..<(rows * columns) { out[i] = real[i] * scale }
        }
    }

    /// The real image whose half spectrum is `spectrum`.
    public func inverse(_ spectrum: Spectrum) -> [Float] {
        var image = [Float](repeating: 0, count: rows * columns)
        inverse(spectrum, into: &image)
        return image
    }
}

/// The kept half of a real image's spectrum: `rows × columns` complex values, row-major,
/// interleaved (real, imaginary).
public struct Spectrum: Sendable, Equatable {
    public let rows: Int, columns: Int
    /// `2 · rows · columns` floats: re₀, im₀, re₁, im₁, …
    public var values: [Float]

    /// All zero.
    public init(rows: Int, columns: Int) {
        self.rows = rows
        self.columns = columns
        values = [Float](repeating: 0, count: 2 * rows * columns)
    }
}
