import Testing
import StrokeNN
import StrokeTensor
import TestSupport
import StrokeSupport

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

    @Test(arguments: [4, 48])
    func conv2DInputGradientMatchesPlainLoopOnABatchFoldedInChunks(outputs: Int) {
        // 8 channels of 20x20 make 72 column rows of 400 pixels per image, so the column
        // gradient is folded back a few images at a time (4 + 2 here); the plain loop sees
        // the whole batch at once. With 48 outputs one image is already too large for a
        // small-matrix product, so each chunk's column gradient is made one image at a time.
        // in the forward pass this was:
        // out[o, n, y, x] += W[o, c, ky, kx] · in[c, n, y + ky − pad, x + kx − pad]
        let (channels, batch, side, kernel) = (8, 6, 20, 3)
        let layer = Conv2D(name: "conv", inputChannels: channels, outputChannels: outputs, kernelSize: kernel)
        layer.weight.value.values = GradientCheck.randomValues(layer.weight.value.count, seed: 11)
        let shape = [channels, batch, side, side]
        let input = Tensor(shape: shape, values: GradientCheck.randomValues(shape.reduce(1, *), seed: 12))
        var output = Tensor(shape: layer.outputShape(for: shape))
        layer.forward(input, into: &output, training: true)
        let outputGradient = GradientCheck.randomValues(output.count, seed: 13)
        var inputGradient: Tensor? = Tensor(shape: shape, repeating: .nan)  // every element must be written
        layer.backward(input: input, output: output, outputGradient: Tensor(shape: output.shape, values: outputGradient),
                       inputGradient: &inputGradient)
        let pad = kernel / 2
        var maxDifference: Float = 0
        for c in 0..<channels { for n in 0..<batch { for y in 0..<side { for x in 0..<side {
            var sum = 0.0
            for o in 0..<outputs { for ky in 0..<kernel { for kx in 0..<kernel {
                let (oy, ox) = (y - ky + pad, x - kx + pad)
                guard oy >= 0, oy < side, ox >= 0, ox < side else { continue }
                sum += Double(layer.weight.value.values[((o * channels + c) * kernel + ky) * kernel + kx])
                    * Double(outputGradient[((o * batch + n) * side + oy) * side + ox])
            } } }
            let fast = inputGradient!.values[((c * batch + n) * side + y) * side + x]
            maxDifference = max(maxDifference, abs(fast - Float(sum)).isNaN ? .infinity : abs(fast - Float(sum)))
        } } } }
        #expect(maxDifference < 1e-4, "conv input gradient: max |chunked BLAS − plain loop| = \(maxDifference), tolerance 1e-4")
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

    /// The definition of the column matrix, as plain loops: calls `body(entry, pixel)` for
    /// every entry of row (c, ky, kx), column (n, y, x) whose source pixel
    /// (c, n, y + ky − padY, x + kx − padX) lies inside the plane (the others are padding).
    func forEachColumnEntry(_ g: ConvolutionGeometry, _ body: (_ entry: Int, _ pixel: Int) -> Void) {
        let (padY, padX) = (g.kernelHeight / 2, g.kernelWidth / 2)
        for c in 0..<g.channels { for ky in 0..<g.kernelHeight { for kx in 0..<g.kernelWidth {
            let row = (c * g.kernelHeight + ky) * g.kernelWidth + kx
            for n in 0..<g.batch { for y in 0..<g.height { for x in 0..<g.width {
                let (sy, sx) = (y + ky - padY, x + kx - padX)
                guard sy >= 0, sy < g.height, sx >= 0, sx < g.width else { continue }
                body(row * g.columnCount + (n * g.height + y) * g.width + x, ((c * g.batch + n) * g.height + sy) * g.width + sx)
            } } }
        } } }
    }

    /// im2col as it is defined: each entry holds its source pixel, or 0 (padding).
    func plainIm2col(_ input: [Float], geometry g: ConvolutionGeometry) -> [Float] {
        var columns = [Float](repeating: 0, count: g.columnRows * g.columnCount)
        forEachColumnEntry(g) { entry, pixel in columns[entry] = input[pixel] }
        return columns
    }

    @Test(arguments: [(2, 3, 5, 4, 3), (1, 2, 1, 6, 3), (3, 1, 4, 1, 3), (2, 2, 6, 7, 5), (1, 1, 2, 2, 5), (2, 4, 7, 7, 3)])
    func im2colMatchesPlainLoop(channels: Int, batch: Int, height: Int, width: Int, kernel: Int) {
        // The fast path copies each channel's whole batch in one shifted pass, so the
        // entries it must then clear include pixels of the neighbouring image: several
        // images per channel, and a columns buffer full of NaN, catch a missed one.
        let g = ConvolutionGeometry(channels: channels, batch: batch, height: height, width: width,
                                    kernelHeight: kernel, kernelWidth: kernel)
        let input = GradientCheck.randomValues(channels * batch * height * width, seed: 7)
        let expected = plainIm2col(input, geometry: g)
        var columns = [Float](repeating: .nan, count: expected.count)
        input.withUnsafeBufferPointer { source in
            columns.withUnsafeMutableBufferPointer { im2col(source.baseAddress!, into: $0.baseAddress!, geometry: g) }
        }
        let wrong = zip(columns, expected).filter { $0 != $1 }.count
        #expect(wrong == 0, "im2col \(g): \(wrong) of \(expected.count) entries differ from the plain loop (a copy: exact)")
    }

    /// col2im as the plain sum it defines: every column entry added to its source pixel.
    func plainCol2im(_ columns: [Float], geometry g: ConvolutionGeometry) -> [Float] {
        var gradient = [Double](repeating: 0, count: g.channels * g.batch * g.height * g.width)
        forEachColumnEntry(g) { entry, pixel in gradient[pixel] += Double(columns[entry]) }
        return gradient.map { Float($0) }
    }

    @Test(arguments: [(2, 3, 5, 4, 3), (1, 2, 1, 6, 3), (3, 1, 4, 1, 3), (2, 2, 6, 7, 5), (1, 1, 2, 2, 5)])
    func col2imMatchesPlainLoop(channels: Int, batch: Int, height: Int, width: Int, kernel: Int) {
        // Planes one pixel wide or high make some kernel offsets flat shifts of 0 with dx ≠ 0.
        let g = ConvolutionGeometry(channels: channels, batch: batch, height: height, width: width,
                                    kernelHeight: kernel, kernelWidth: kernel)
        let columns = GradientCheck.randomValues(g.columnRows * g.columnCount, seed: 6)
        let expected = plainCol2im(columns, geometry: g)
        var scratch = columns
        var gradient = [Float](repeating: .nan, count: expected.count)  // every element must be written
        scratch.withUnsafeMutableBufferPointer { source in
            gradient.withUnsafeMutableBufferPointer { col2im(source.baseAddress!, into: $0.baseAddress!, geometry: g) }
        }
        let maxDifference = zip(gradient, expected).map { abs($0 - $1) }.max()!
        #expect(maxDifference < 1e-5, "col2im \(g): max |fast − plain loop| = \(maxDifference), tolerance 1e-5")
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
        let shape = [3, 2, 7, 21]
        let input = Tensor(shape: shape, values: GradientCheck.randomValues(shape.reduce(1, *), seed: 9))
        let pool = MaxPool2D()
        var training = Tensor(shape: pool.outputShape(for: shape)), inference = training
        pool.forward(input, into: &training, training: true)
        pool.forward(input, into: &inference, training: false)
        #expect(training == inference)
    }

    @Test(arguments: [[2, 3, 5, 4], [1, 2, 6, 7], [2, 1, 7, 7], [1, 2, 6, 28], [2, 1, 9, 19]])
    func backwardRoutesEachGradientToItsWindowsMaximum(shape: [Int]) {
        // Plain reference: dx is zero except at each window's maximum (first in row-major
        // order on ties), which gets dy; odd last rows and columns get nothing.
        var generator = SeededGenerator(seed: 8)
        // Values on a coarse grid: many ties, which must go to the first element.
        let input = (0..<shape.reduce(1, *)).map { _ in Float(Int.random(in: 0..<4, using: &generator)) }
        let pool = MaxPool2D()
        let outputShape = pool.outputShape(for: shape)
        var output = Tensor(shape: outputShape)
        pool.forward(Tensor(shape: shape, values: input), into: &output, training: true)
        let outputGradient = GradientCheck.randomValues(output.count, seed: 10)
        var inputGradient: Tensor? = Tensor(shape: shape, repeating: .nan)  // every element must be written
        pool.backward(input: Tensor(shape: shape, values: input), output: output,
                      outputGradient: Tensor(shape: outputShape, values: outputGradient), inputGradient: &inputGradient)

        let (planes, height, width) = (shape[0] * shape[1], shape[2], shape[3])
        var expected = [Float](repeating: 0, count: input.count)
        var o = 0
        for p in 0..<planes { for oy in 0..<(height / 2) { for ox in 0..<(width / 2) {
            var best = p * height * width + 2 * oy * width + 2 * ox
            for (dy, dx) in [(0, 1), (1, 0), (1, 1)] {
                let candidate = p * height * width + (2 * oy + dy) * width + 2 * ox + dx
                if input[candidate] > input[best] { best = candidate }
            }
            #expect(output.values[o] == input[best], "pool output \(o): \(output.values[o]) vs window maximum \(input[best])")
            expected[best] = outputGradient[o]
            o += 1
        } } }
        #expect(inputGradient!.values == expected, "maxpool backward on \(shape) differs from the plain routing")
    }
}
