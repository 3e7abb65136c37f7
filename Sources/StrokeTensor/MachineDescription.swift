import CBLAS
import Foundation

/// Where a benchmark ran: the CPU, the vector extensions it offers, and the BLAS with the
/// kernels it chose. OpenBLAS built with DYNAMIC_ARCH picks its kernels ("core type") for the
/// CPU it finds, unless `OPENBLAS_CORETYPE` names others (a machine set to `Haswell` runs AVX2
/// kernels on an AVX-512 CPU), so the same CPU can give very different figures: every
/// benchmark prints this with its numbers.
public struct MachineDescription: Sendable, Equatable {
    /// As the operating system names it (`/proc/cpuinfo`'s "model name" on Linux).
    public var cpuModel: String
    /// The SIMD extensions among the CPU's flags that matter to numeric kernels (SSE4, AVX,
    /// AVX2, FMA, F16C, AVX-512 subsets, AMX; NEON/ASIMD on ARM), as the OS spells them.
    public var vectorExtensions: [String]
    public var logicalCores: Int
    /// `openblas_get_config()`: version and build options.
    public var blas: String
    /// `openblas_get_corename()`: the kernels OpenBLAS runs.
    public var blasCoreType: String
    /// `OPENBLAS_CORETYPE` from the environment, when set.
    public var requestedCoreType: String?
    /// The hand-written kernels new inference engines run (`KernelPath.preferred`).
    public var kernels: String = KernelPath.preferred.rawValue

    /// The machine this process runs on.
    public static func current() -> MachineDescription {
        let (model, flags) = cpuInfo()
        let wanted: Set<String> = [
            "sse4_1", "sse4_2", "avx", "avx2", "fma", "f16c", "avx512f", "avx512dq", "avx512bw", "avx512vl",
            "avx512_vnni", "avx512_bf16", "avx512_fp16", "amx_tile", "amx_bf16", "amx_int8", "asimd", "neon", "sve",
        ]
        return MachineDescription(
            cpuModel: model,
            vectorExtensions: flags.filter { wanted.contains($0) },
            logicalCores: ProcessInfo.processInfo.activeProcessorCount,
            blas: openblas_get_config().map { String(cString: $0) } ?? "unknown BLAS",
            blasCoreType: openblas_get_corename().map { String(cString: $0) } ?? "unknown",
            requestedCoreType: ProcessInfo.processInfo.environment["OPENBLAS_CORETYPE"])
    }

    /// One line: `CPU AMD EPYC (2 logical cores; avx2 fma avx512f ...); OpenBLAS 0.3.21 ...,
    /// core type Haswell (OPENBLAS_CORETYPE=Haswell)`.
    public var summary: String {
        let requested = requestedCoreType.map { " (OPENBLAS_CORETYPE=\($0))" } ?? " (OPENBLAS_CORETYPE unset: chosen for this CPU)"
        return "CPU \(cpuModel) (\(logicalCores) logical cores; \(vectorExtensions.isEmpty ? "no vector extensions found" : vectorExtensions.joined(separator: " "))); "
            + "BLAS \(blas), core type \(blasCoreType)\(requested); StrokeKit kernels \(kernels)"
    }

    /// The same as JSON-ready strings and lists.
    public var dictionary: [String: Any] {
        var result: [String: Any] = [
            "cpu_model": cpuModel, "vector_extensions": vectorExtensions, "logical_cores": logicalCores,
            "blas": blas, "blas_core_type": blasCoreType, "kernels": kernels,
        ]
        result["openblas_coretype"] = requestedCoreType
        return result
    }

    /// The CPU's model name and flags: `/proc/cpuinfo` on Linux; on other systems the
    /// model from `uname` and no flags.
    private static func cpuInfo() -> (model: String, flags: [String]) {
        if let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) {
            var model: String?
            var flags: [String] = []
            for line in text.split(separator: "\n") {
                let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard parts.count == 2 else { continue }
                if model == nil, ["model name", "Model", "cpu model"].contains(parts[0]) { model = parts[1] }
                if flags.isEmpty, ["flags", "Features"].contains(parts[0]) {
                    flags = parts[1].split(separator: " ").map(String.init)
                }
                if model != nil && !flags.isEmpty { break }
            }
            return (model ?? "unknown CPU", flags)
        }
        var system = utsname()
        uname(&system)
        let machine = withUnsafeBytes(of: &system.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return ("unknown \(machine) CPU", [])
    }
}
