import Testing
import StrokeNN
import StrokeTensor
import TestSupport

/// The BLAS convolution against an independent plain-loop convolution, and im2col
/// against its adjoint; plus a self-test of the gradient checker itself.
@Suite struct ConvolutionReferenceTests {
    /// Direct 'same' convolution with six nested loops, (C, N, H, W) layout.
    func plainConvolution(input: [Float], shape: [Int], weight: [Float], bias: [Float],
                          outputChannels: Int, kernel: Int) -> [Float] {
        let (channels, batch, height, width) = (shape[0], shape[1], shape[2], shape[3])
        let pad = kernel / 2
        var output = [Float](repeating: 0, count: outputChannels * batch * height * width)
        for o in 0..<outputChannels { for n in 0..<batch { for y in 0..<height { for x in 0..<width {
            var sum = Double(bias[o])
            for c in 0..<channels { for ky in 0..<kernel { for kx in 0..<kernel {
                let (sy, sx) = (y + ky - pad, x + kx - pad)
                guard sy >= 0, sy < height, sx >= 0, sx < width else { continue }
                sum += Double(weight[((o * channels + c) * kernel + ky) * kernel + kx])
                    * Double(input[((c * batch + n) * height + sy) * width + sx])
            } } }
            output[((o * batch + n) * height + y) * width + x] = Float(sum)
        } } } }
        return output
    }

    @Test func conv2DForwardMatchesPlainLoopConvolution() {
        let layer = Conv2D(name: "conv", inputChannels: 3, outputChannels: 5, kernelSize: 3)
        layer.weight.value.values = GradientCheck.randomValues(layer.weight.value.count, seed: 1)
        layer.bias.value.values = GradientCheck.randomValues(5, seed: 2)
        let shape = [3, 4, 7, 9]
        let input = GradientCheck.randomValues(shape.reduce(1, *), seed: 3)
        var output = Tensor(shape: layer.outputShape(for: shape))
        layer.forward(Tensor(shape: shape, values: input), into: &output, training: false)
        let expected = plainConvolution(input: input, shape: shape, weight: layer.weight.value.values,
                                        bias: layer.bias.value.values, outputChannels: 5, kernel: 3)
        let maxDifference = zip(output.values, expected).map { abs($0 - $1) }.max()!
        #expect(maxDifference < 1e-4, "max |BLAS − plain loop| = \(maxDifference), tolerance 1e-4")
    }

    @Test func col2imIsTheAdjointOfIm2col() {
        // <im2col(x), y> must equal <x, col2im(y)> for every x, y.
        let g = ConvolutionGeometry(channels: 2, batch: 3, height: 5, width: 4, kernelHeight: 3, kernelWidth: 3)
        let x = GradientCheck.randomValues(2 * 3 * 5 * 4, seed: 4)
        let y = GradientCheck.randomValues(g.columnRows * g.columnCount, seed: 5)
        var columns = [Float](repeating: 0, count: y.count)
        var back = [Float](repeating: 0, count: x.count)
        x.withUnsafeBufferPointer { source in columns.withUnsafeMutableBufferPointer { im2col(source.baseAddress!, into: $0.baseAddress!, geometry: g) } }
        var yCopy = y  // col2im zeroes the padding entries of its input (they have no pixel)
        yCopy.withUnsafeMutableBufferPointer { source in back.withUnsafeMutableBufferPointer { col2im(source.baseAddress!, into: $0.baseAddress!, geometry: g) } }
        let left = GradientCheck.probeLoss(columns, y)
        let right = GradientCheck.probeLoss(x, back)
        #expect(abs(left - right) < 1e-4 * max(1, abs(left)), "<im2col x, y> = \(left) but <x, col2im y> = \(right)")
    }

    @Test func gradientCheckerFlagsAWrongGradient() {
        // The checker must catch an analytic gradient that is off by a factor of 2.
        var values: [Float] = [0.5, -1, 2]
        let wrong = values.map { 2 * 2 * $0 }  // true gradient of sum(x²) is 2x
        let mismatches = GradientCheck.compare(name: "x", values: &values, analytic: wrong) { v in
            v.reduce(0) { $0 + Double($1) * Double($1) }
        }
        #expect(mismatches.count == 3)
    }
}

@Suite struct MaxPoolModesTests {
    @Test func inferenceAndTrainingPoolingGiveTheSameMaxima() {
        // The inference path skips argmax bookkeeping; its outputs must equal the training path's.
        let shape = [3, 2, 7, 6]
        let input = Tensor(shape: shape, values: GradientCheck.randomValues(shape.reduce(1, *), seed: 9))
        let pool = MaxPool2D()
        var training = Tensor(shape: pool.outputShape(for: shape)), inference = training
        pool.forward(input, into: &training, training: true)
        pool.forward(input, into: &inference, training: false)
        #expect(training == inference)
    }
}
