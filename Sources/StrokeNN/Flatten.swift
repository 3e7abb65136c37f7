import StrokeTensor

/// Turns a channel-major batch (C, N, H, W) into rows of features (N, C·H·W), each row in
/// C, H, W order, which is what PyTorch's `flatten` gives for an NCHW batch, so dense
/// weights have the same meaning in both.
public final class Flatten: Layer {
    public init() {}

    public var summary: String { "flatten" }

    public func outputShape(for inputShape: [Int]) -> [Int] {
        precondition(inputShape.count == 4, "flatten expects (C, N, H, W), got \(inputShape)")
        return [inputShape[1], inputShape[0] * inputShape[2] * inputShape[3]]
    }

    public func forward(_ input: Tensor, into output: inout Tensor, training: Bool) {
        let (channels, batch, plane) = (input.shape[0], input.shape[1], input.shape[2] * input.shape[3])
        input.values.withUnsafeBufferPointer { x in
            output.values.withUnsafeMutableBufferPointer { y in
                for c in 0..<channels {
                    for n in 0..<batch {
                        (y.baseAddress! + (n * channels + c) * plane)
                            .update(from: x.baseAddress! + (c * batch + n) * plane, count: plane)
                    }
                }
            }
        }
    }

    public func backward(input: Tensor, output: Tensor, outputGradient: Tensor, inputGradient: inout Tensor?) {
        guard inputGradient != nil else { return }
        let (channels, batch, plane) = (input.shape[0], input.shape[1], input.shape[2] * input.shape[3])
        outputGradient.values.withUnsafeBufferPointer { dy in
            inputGradient!.values.withUnsafeMutableBufferPointer { dx in
                for c in 0..<channels {
                    for n in 0..<batch {
                        (dx.baseAddress! + (c * batch + n) * plane)
                            .update(from: dy.baseAddress! + (n * channels + c) * plane, count: plane)
                    }
                }
            }
        }
    }
}
