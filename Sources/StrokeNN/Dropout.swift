import StrokeTensor
import StrokeSupport

/// Inverted dropout: in training, each element is zeroed with probability `rate` and the
/// survivors are scaled by 1/(1 − rate), so inference is the identity. Any layout.
public final class Dropout: Layer {
    public let rate: Float
    /// 0 or 1/(1 − rate) per element of the last training forward pass.
    private var mask: [Float] = []
    private var generator: SeededGenerator

    public init(rate: Float, seed: UInt64) {
        precondition(rate >= 0 && rate < 1, "Dropout rate must be in [0, 1), got \(rate)")
        self.rate = rate
        self.generator = SeededGenerator(seed: seed)
    }

    public var summary: String { "dropout \(rate)" }
    public func outputShape(for inputShape: [Int]) -> [Int] { inputShape }

    /// Reseeds the mask generator (the trainer does so per epoch, for reproducible runs).
    public func reseed(_ seed: UInt64) { generator = SeededGenerator(seed: seed) }

    /// The mask generator's state, for checkpoints: setting it continues the same masks.
    public var generatorState: UInt64 {
        get { generator.state }
        set { generator = SeededGenerator(seed: newValue) }
    }

    public func forward(_ input: Tensor, into output: inout Tensor, training: Bool) {
        guard training && rate > 0 else {
            output.values.withUnsafeMutableBufferPointer { y in
                input.values.withUnsafeBufferPointer { y.baseAddress!.update(from: $0.baseAddress!, count: $0.count) }
            }
            if mask.count != input.count { mask = [Float](repeating: 1, count: input.count) } else { mask.withUnsafeMutableBufferPointer { $0.update(repeating: 1) } }
            return
        }
        if mask.count != input.count { mask = [Float](repeating: 0, count: input.count) }
        let keep = 1 / (1 - rate)
        let threshold = Double(rate)
        mask.withUnsafeMutableBufferPointer { m in
            for i in 0..<m.count { m[i] = generator.nextUnit() < threshold ? 0 : keep }
        }
        input.values.withUnsafeBufferPointer { x in
            mask.withUnsafeBufferPointer { m in
                output.values.withUnsafeMutableBufferPointer { y in
                    for i in 0..<x.count { y[i] = x[i] * m[i] }
                }
            }
        }
    }

    public func backward(input: Tensor, output: Tensor, outputGradient: Tensor, inputGradient: inout Tensor?) {
        guard inputGradient != nil else { return }
        outputGradient.values.withUnsafeBufferPointer { dy in
            mask.withUnsafeBufferPointer { m in
                inputGradient!.values.withUnsafeMutableBufferPointer { dx in
                    for i in 0..<dy.count { dx[i] = dy[i] * m[i] }
                }
            }
        }
    }
}
