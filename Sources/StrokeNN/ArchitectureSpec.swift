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

    /// The largest networks a spec may describe, so that a spec from a file or a flag cannot
    /// exhaust memory (the default network is far below each).
    public enum Limits {
        /// Characters in a spec.
        public static let maximumLength = 1_000
        /// Stages (tokens) in a spec.
        public static let maximumStages = 64
        /// Output channels of one convolution.
        public static let maximumChannels = 4_096
        /// Outputs of one dense layer.
        public static let maximumDenseOutputs = 65_536
        /// Side of a convolution kernel (odd).
        public static let maximumKernelSize = 15
    }

    /// The thesis's drawing classifier: three conv-relu-pool blocks and a 128-unit dense layer.
    public static let `default` = try! ArchitectureSpec(parsing: "c16-p-c32-p-c64-p-d128")

    /// Parses a spec; throws `ArchitectureSpecError` naming the offending token.
    public init(parsing text: String) throws {
        guard !text.isEmpty else { throw ArchitectureSpecError(spec: text, problem: "the spec is empty") }
        guard text.utf8.count <= Limits.maximumLength else {
            throw ArchitectureSpecError(
                spec: String(text.prefix(40)) + "…",
                problem: "\(text.utf8.count) characters, over the limit of \(Limits.maximumLength) (ArchitectureSpec.Limits.maximumLength)")
        }
        let tokens = text.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        guard tokens.count <= Limits.maximumStages else {
            throw ArchitectureSpecError(
                spec: text, problem: "\(tokens.count) stages, over the limit of \(Limits.maximumStages) (ArchitectureSpec.Limits.maximumStages)")
        }
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
            guard let outputs = Int(token.dropFirst()), outputs > 0, outputs <= Limits.maximumDenseOutputs else {
                throw fail("dense size must be a positive integer up to \(Limits.maximumDenseOutputs) "
                           + "(ArchitectureSpec.Limits.maximumDenseOutputs), e.g. d128")
            }
            return .dense(outputs: outputs)
        }
        if token.hasPrefix("c") {
            let body = token.dropFirst()
            let parts = body.split(separator: "k", omittingEmptySubsequences: false)
            guard parts.count <= 2, let channels = Int(parts[0]), channels > 0, channels <= Limits.maximumChannels else {
                throw fail("convolution must be cN or cNkK with N a channel count from 1 to \(Limits.maximumChannels) "
                           + "(ArchitectureSpec.Limits.maximumChannels), e.g. c16 or c16k5")
            }
            var kernelSize = 3
            if parts.count == 2 {
                guard let size = Int(parts[1]), size > 0, size % 2 == 1, size <= Limits.maximumKernelSize else {
                    throw fail("kernel size must be odd, 1 to \(Limits.maximumKernelSize) (ArchitectureSpec.Limits.maximumKernelSize)")
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
            case .dropout(let rate): "dr\(Self.plainDecimal(rate))"
            }
        }.joined(separator: "-")
    }

    /// `rate` as digits without an exponent ("0.00001", not "1e-05", whose minus sign would
    /// split the stage), with the shortest digits that read back as the same Float.
    private static func plainDecimal(_ rate: Float) -> String {
        let text = rate.description
        guard let e = text.firstIndex(of: "e"), let exponent = Int(text[text.index(after: e)...]), exponent < 0 else {
            return text
        }
        let digits = text[..<e].filter(\.isNumber)   // "1.25e-07" -> "125"
        return "0." + String(repeating: "0", count: -exponent - 1) + digits
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
