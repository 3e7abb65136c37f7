#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// libFuzzer's entry point for programs that have their own `main` (LLVM 11 and later).
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// The harness's body; set once by `runFuzzer` before libFuzzer starts calling back.
nonisolated(unsafe) private var harness: ((UnsafeBufferPointer<UInt8>) -> Void)?

/// Runs libFuzzer with this process's arguments, calling `body` with every input it makes.
/// A Swift executable has its own `main`, so libFuzzer's is not used: this is the driver.
public func runFuzzer(_ body: @escaping (UnsafeBufferPointer<UInt8>) -> Void) -> Never {
    harness = body
    var argc = CommandLine.argc
    var argv = CommandLine.unsafeArgv
    let status = LLVMFuzzerRunDriver(&argc, &argv) { data, size in
        harness?(UnsafeBufferPointer(start: data, count: size))
        return 0
    }
    exit(status)
}
