import StrokeTensor

/// Fully connected layer: output = input · weightᵀ + bias.
/// input (N, in) -> output (N, out); weight (out, in) as PyTorch stores it; bias (out).
public final class Dense: Layer {
    public let inputFeatures: Int
    public let outputFeatures: Int
    public let weight: Parameter
    public let bias: Parameter

    public init(name: String, inputFeatures: Int, outputFeatures: Int) {
        self.inputFeatures = inputFeatures
        self.outputFeatures = outputFeatures
        weight = Parameter(name: "\(name).weight", value: Tensor(shape: [outputFeatures, inputFeatures]))
        bias = Parameter(name: "\(name).bias", value: Tensor(shape: [outputFeatures]))
    }

    public var summary: String { "dense \(inputFeatures)->\(outputFeatures)" }
    public var parameters: [Parameter] { [weight, bias] }

    public func outputShape(for inputShape: [Int]) -> [Int] {
        precondition(inputShape.count == 2 && inputShape[1] == inputFeatures,
                     "\(summary) expects (N, \(inputFeatures)), got \(inputShape)")
        return [inputShape[0], outputFeatures]
    }

    public func forward(_ input: Tensor, into output: inout Tensor, training: Bool) {
        let batch = input.shape[0]
        output.values.withUnsafeMutableBufferPointer { y in
            bias.value.values.withUnsafeBufferPointer { b in
                for n in 0..<batch { (y.baseAddress! + n * outputFeatures).update(from: b.baseAddress!, count: outputFeatures) }
            }
            input.values.withUnsafeBufferPointer { x in
                weight.value.values.withUnsafeBufferPointer { w in
                    if batch == 1 {
                        BLAS.gemv(m: outputFeatures, n: inputFeatures, a: w.baseAddress!, lda: inputFeatures,
                                  x: x.baseAddress!, beta: 1, y: y.baseAddress!)
                    } else {
                        BLAS.gemm(transposeB: true, m: batch, n: outputFeatures, k: inputFeatures,
                                  a: x.baseAddress!, lda: inputFeatures, b: w.baseAddress!, ldb: inputFeatures,
                                  beta: 1, c: y.baseAddress!, ldc: outputFeatures)
                    }
                }
            }
        }
    }

    public func backward(input: Tensor, output: Tensor, outputGradient: Tensor, inputGradient: inout Tensor?) {
        let batch = input.shape[0]
        outputGradient.values.withUnsafeBufferPointer { dy in
            // dW (out, in) = dyᵀ (out, N) · x (N, in)
            input.values.withUnsafeBufferPointer { x in
                weight.gradient.values.withUnsafeMutableBufferPointer { dW in
                    BLAS.gemm(transposeA: true, m: outputFeatures, n: inputFeatures, k: batch,
                              a: dy.baseAddress!, lda: outputFeatures, b: x.baseAddress!, ldb: inputFeatures,
                              c: dW.baseAddress!, ldc: inputFeatures)
                }
            }
            // db = column sums of dy
            bias.gradient.values.withUnsafeMutableBufferPointer { dB in
                dB.update(repeating: 0)
                for n in 0..<batch {
                    for o in 0..<outputFeatures { dB[o] += dy[n * outputFeatures + o] }
                }
            }
            guard inputGradient != nil else { return }
            // dx (N, in) = dy (N, out) · W (out, in)
            weight.value.values.withUnsafeBufferPointer { w in
                inputGradient!.values.withUnsafeMutableBufferPointer { dx in
                    BLAS.gemm(m: batch, n: inputFeatures, k: outputFeatures,
                              a: dy.baseAddress!, lda: outputFeatures, b: w.baseAddress!, ldb: inputFeatures,
                              c: dx.baseAddress!, ldc: inputFeatures)
                }
            }
        }
    }
}
