import CStrokeKernels
import Foundation

/// Which kernels run the inference engine's convolutions, pools and dense layers (and the
/// same steps of training where they apply): OpenBLAS products with Swift passes between
/// them, or the hand-written kernels of `CStrokeKernels` in one of their three builds.
/// The hand-written ones are chosen at run time for the CPU (CPUID), never by build flags.
public enum KernelPath: String, CaseIterable, Sendable, CustomStringConvertible {
    /// OpenBLAS `sgemm` / `sgemv` with im2col, Winograd transforms and pool passes in Swift:
    /// any CPU (the default where neither AVX2 nor AVX-512 is available).
    case blas
    /// The hand-written kernels in plain C (any CPU; the reference of the vector builds).
    case generic
    /// The hand-written kernels with AVX2 and FMA.
    case avx2
    /// The hand-written kernels with AVX-512F.
    case avx512

    public var description: String { rawValue }

    /// Whether this CPU runs this path.
    public var isSupported: Bool {
        switch self {
        case .blas: true
        case .generic, .avx2, .avx512: sk_kernels_supported(cPath) != 0
        }
    }

    /// The paths this CPU runs (tests check every one against the reference).
    public static var supported: [KernelPath] { allCases.filter(\.isSupported) }

    /// The widest path this CPU runs: AVX-512, else AVX2, else OpenBLAS.
    public static var fastest: KernelPath {
        KernelPath.avx512.isSupported ? .avx512 : KernelPath.avx2.isSupported ? .avx2 : .blas
    }

    /// What new engines use: `STROKEKIT_KERNELS` (blas, generic, avx2 or avx512) when set to a
    /// path this CPU runs, else `fastest`. A value that names no path, or one this CPU cannot
    /// run, is reported on standard error once and ignored.
    public static let preferred: KernelPath = {
        guard let requested = ProcessInfo.processInfo.environment["STROKEKIT_KERNELS"], !requested.isEmpty else {
            return fastest
        }
        guard let path = KernelPath(rawValue: requested.lowercased()) else {
            FileHandle.standardError.write(Data(
                "StrokeKit: STROKEKIT_KERNELS=\(requested) names no kernel path (blas, generic, avx2, avx512); using \(fastest)\n".utf8))
            return fastest
        }
        guard path.isSupported else {
            FileHandle.standardError.write(Data(
                "StrokeKit: STROKEKIT_KERNELS=\(requested): this CPU cannot run it; using \(fastest)\n".utf8))
            return fastest
        }
        return path
    }()

    /// The path's number in `CStrokeKernels` (`blas` has none: it is never passed there).
    public var cPath: Int32 {
        switch self {
        case .blas, .generic: Int32(SK_KERNELS_GENERIC)
        case .avx2: Int32(SK_KERNELS_AVX2)
        case .avx512: Int32(SK_KERNELS_AVX512)
        }
    }

    /// Whether the hand-written kernels run (every path but `blas`).
    public var isHandWritten: Bool { self != .blas }
}
