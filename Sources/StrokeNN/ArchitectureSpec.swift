/// A compact, textual network architecture, e.g. `c16-p-c32-p-c64-p-d128`:
///
/// | token   | stage                                                   |
/// |---------|---------------------------------------------------------|
/// | `cN`    | convolution, N output channels, 3x3, 'same', then ReLU  |
/// | `cNkK`  | the same with a KxK kernel (K odd)                      |
/// | `p`     | 2x2 max pooling, stride 2                               |
/// | `dN`    | dense layer with N outputs, then ReLU                   |
/// | `drR`   | dropout with rate R (e.g. `dr0.5`)                      |
///
/// Convolutions and pools come first, then dense and dropout stages; the final dense
/// layer with one output per class (no ReLU) is implied and not written. The spec is
/// stored in the model file, so it is the whole description of the network's shape.
public struct ArchitectureSpec: Sendable, Equatable, CustomStringConvertible {
    public enum Stage: Sendable, Equatable {
        case convolution(channels: Int, kernelSize: Int)
        case pool
        case dense(outputs: Int)
        case dropout(rate: Float)
    }

    public let stages: [Stage]

    /// The thesis's drawing classifier: three conv-relu-pool blocks and a 128-unit dense layer.
    public static let `default` = try! ArchitectureSpec(parsing: "c16-p-c32-p-c64-p-d128")

    /// Parses a spec; throws `ArchitectureSpecError` naming the offending token.
    public init(parsing text: String) throws {
        let tokens = text.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        guard !text.isEmpty else { throw ArchitectureSpecError(spec: text, problem: "the spec is empty") }
        var stages: [Stage] = []
        var seenDense = false
        for token in tokens {
            let stage = try Self.parse(token: token, spec: text)
            switch stage {
            case .convolution, .pool:
                if seenDense {
                    throw ArchitectureSpecError(
                        spec: text, problem: "'\(token)' comes after a dense stage; convolutions and pools go first")
                }
            case .dense: seenDense = true
            case .dropout: break
            }
            stages.append(stage)
        }
        self.stages = stages
    }

    public init(stages: [Stage]) {
        self.stages = stages
    }

    private static func parse(token: String, spec: String) throws -> Stage {
        func fail(_ why: String) -> ArchitectureSpecError {
            ArchitectureSpecError(spec: spec, problem: "token '\(token)': \(why)")
        }
        if token == "p" { return .pool }
        if token.hasPrefix("dr") {
            guard let rate = Float(token.dropFirst(2)), rate >= 0, rate < 1 else {
                throw fail("dropout rate must be a number in [0, 1), e.g. dr0.5")
            }
            return .dropout(rate: rate)
        }
        if token.hasPrefix("d") {
            guard let outputs = Int(token.dropFirst()), outputs > 0, outputs <= 65536 else {
                throw fail("dense size must be a positive integer up to 65536, e.g. d128")
            }
            return .dense(outputs: outputs)
        }
        if token.hasPrefix("c") {
            let body = token.dropFirst()
            let parts = body.split(separator: "k", omittingEmptySubsequences: false)
            guard parts.count <= 2, let channels = Int(parts[0]), channels > 0, channels <= 4096 else {
                throw fail("convolution must be cN or cNkK with N a positive channel count, e.g. c16 or c16k5")
            }
            var kernelSize = 3
            if parts.count == 2 {
                guard let size = Int(parts[1]), size > 0, size % 2 == 1, size <= 15 else {
                    throw fail("kernel size must be odd, 1 to 15")
                }
                kernelSize = size
            }
            return .convolution(channels: channels, kernelSize: kernelSize)
        }
        throw fail("unknown stage (expected cN, cNkK, p, dN or drR)")
    }

    public var description: String {
        stages.map { stage in
            switch stage {
            case .convolution(let channels, 3): "c\(channels)"
            case .convolution(let channels, let kernelSize): "c\(channels)k\(kernelSize)"
            case .pool: "p"
            case .dense(let outputs): "d\(outputs)"
            case .dropout(let rate): "dr\(rate)"
            }
        }.joined(separator: "-")
    }
}

/// An architecture spec that cannot be parsed or built.
public struct ArchitectureSpecError: Error, CustomStringConvertible, Equatable {
    public let spec: String
    public let problem: String

    public var description: String {
        "invalid architecture '\(spec)': \(problem)"
    }
}
