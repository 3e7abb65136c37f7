import StrokeTensor

/// max(0, x), elementwise; any layout.
public final class ReLU: Layer {
    public init() {}

    public var summary: String { "relu" }
    public func outputShape(for inputShape: [Int]) -> [Int] { inputShape }

    public func forward(_ input: Tensor, into output: inout Tensor, training: Bool) {
        input.values.withUnsafeBufferPointer { x in
            output.values.withUnsafeMutableBufferPointer { y in
                for i in 0..<x.count { y[i] = max(0, x[i]) }
            }
        }
    }

    public func backward(input: Tensor, output: Tensor, outputGradient: Tensor, inputGradient: inout Tensor?) {
        guard inputGradient != nil else { return }
        // NOTE: the derivative at exactly 0 is taken as 0 (output 0 passes no gradient).
        output.values.withUnsafeBufferPointer { y in
            outputGradient.values.withUnsafeBufferPointer { dy in
                inputGradient!.values.withUnsafeMutableBufferPointer { dx in
                    for i in 0..<y.count { dx[i] = y[i] > 0 ? dy[i] : 0 }
                }
            }
        }
    }
}
