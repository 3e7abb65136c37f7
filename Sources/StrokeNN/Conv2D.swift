import CStrokeKernels
import StrokeTensor

/// 2-D convolution, stride 1, 'same' zero padding, via im2col and one sgemm per pass.
/// input (C, N, H, W) -> output (OC, N, H, W); weight (OC, C, KH, KW) as PyTorch stores it,
/// which is the (OC, C·KH·KW) matrix the GEMM needs; bias (OC).
///
/// Most of the training time is spent in the three GEMMs here (forward, weight gradient,
/// column gradient) and in im2col/col2im. A 3x3 convolution of a one-channel input (the
/// first layer) runs on the hand-written kernels instead when `kernels` names them
/// (`sk_conv3x3_c1_forward` and `sk_conv3x3_c1_weight_gradient`: no im2col, no product with
/// an inner dimension of 9).
public final class Conv2D: Layer {
    public let inputChannels: Int
    public let outputChannels: Int
    public let kernelSize: Int
    public let weight: Parameter
    public let bias: Parameter
    /// im2col of the last input, kept for the weight gradient. Work buffers only grow, so
    /// training that alternates batch sizes (a last partial batch, validation) reuses them.
    private var columns: [Float] = []
    /// Gradient with respect to a chunk of `columns` (a few images), folded back by col2im.
    private var columnGradient: [Float] = []
    /// The kernels of the one-channel 3x3 case (`KernelPath.preferred` unless set; `blas`
    /// runs im2col and sgemm as every other convolution).
    public var kernels: KernelPath = .preferred
    /// Work memory of the hand-written one-channel kernels.
    private var directScratch: [Float] = []

    /// Whether forward and the weight gradient run on the hand-written one-channel kernels.
    var runsDirect: Bool { kernels.isHandWritten && inputChannels == 1 && kernelSize == 3 }

    public init(name: String, inputChannels: Int, outputChannels: Int, kernelSize: Int = 3) {
        self.inputChannels = inputChannels
        self.outputChannels = outputChannels
        self.kernelSize = kernelSize
        weight = Parameter(
            name: "\(name).weight",
            value: Tensor(shape: [outputChannels, inputChannels, kernelSize, kernelSize]))
        bias = Parameter(name: "\(name).bias", value: Tensor(shape: [outputChannels]))
    }

    public var summary: String { "conv\(kernelSize)x\(kernelSize) \(inputChannels)->\(outputChannels)" }
    public var parameters: [Parameter] { [weight, bias] }

    public func outputShape(for inputShape: [Int]) -> [Int] {
        precondition(inputShape.count == 4 && inputShape[0] == inputChannels,
                     "\(summary) expects (C=\(inputChannels), N, H, W), got \(inputShape)")
        return [outputChannels, inputShape[1], inputShape[2], inputShape[3]]
    }

    private func geometry(_ shape: [Int]) -> ConvolutionGeometry {
        ConvolutionGeometry(channels: shape[0], batch: shape[1], height: shape[2], width: shape[3],
                            kernelHeight: kernelSize, kernelWidth: kernelSize)
    }

    public func forward(_ input: Tensor, into output: inout Tensor, training: Bool) {
        let g = geometry(input.shape)
        if runsDirect {
            prepareDirectScratch(g)
            sk_conv3x3_c1_forward(kernels.cPath, input.values, Int32(g.batch), Int32(g.height), Int32(g.width),
                                  weight.value.values, bias.value.values, Int32(outputChannels), &output.values,
                                  &directScratch)
            return
        }
        let columnCount = g.columnCount, rows = g.columnRows
        if columns.count < rows * columnCount {
            columns = [Float](repeating: 0, count: rows * columnCount)
        }
        input.values.withUnsafeBufferPointer { source in
            columns.withUnsafeMutableBufferPointer { im2col(source.baseAddress!, into: $0.baseAddress!, geometry: g) }
        }
        output.values.withUnsafeMutableBufferPointer { out in
            // Start from the bias, then add weight × columns (beta = 1).
            bias.value.values.withUnsafeBufferPointer { b in
                for o in 0..<outputChannels {
                    (out.baseAddress! + o * columnCount).update(repeating: b[o], count: columnCount)
                }
            }
            // One product per group of images small enough for OpenBLAS's small-matrix kernels.
            let plane = g.height * g.width
            let group = imagesPerSmallProduct(multiplyAddsPerImage: outputChannels * rows * plane, images: g.batch)
            weight.value.values.withUnsafeBufferPointer { w in
                columns.withUnsafeBufferPointer { cols in
                    for first in stride(from: 0, to: g.batch, by: group) {
                        let images = min(group, g.batch - first)
                        BLAS.gemm(m: outputChannels, n: images * plane, k: rows,
                                  a: w.baseAddress!, lda: rows, b: cols.baseAddress! + first * plane, ldb: columnCount,
                                  beta: 1, c: out.baseAddress! + first * plane, ldc: columnCount)
                    }
                }
            }
        }
    }

    private func prepareDirectScratch(_ g: ConvolutionGeometry) {
        let needed = sk_conv3x3_c1_scratch_floats(Int32(g.height), Int32(g.width), Int32(outputChannels))
        if directScratch.count < needed { directScratch = [Float](repeating: 0, count: needed) }
    }

    public func backward(input: Tensor, output: Tensor, outputGradient: Tensor, inputGradient: inout Tensor?) {
        let g = geometry(input.shape)
        let columnCount = g.columnCount, rows = g.columnRows
        if runsDirect {
            prepareDirectScratch(g)
            sk_conv3x3_c1_weight_gradient(kernels.cPath, input.values, Int32(g.batch), Int32(g.height), Int32(g.width),
                                          outputGradient.values, Int32(outputChannels), &weight.gradient.values,
                                          &bias.gradient.values, &directScratch)
        }
        outputGradient.values.withUnsafeBufferPointer { dOut in
            // in the forward pass this was: out = W · cols + b
            // dW (OC, rows) = dOut (OC, NHW) · colsᵀ, summed over groups of images when
            // several fit one small-matrix product (a small dW, as the first convolution's
            // 16x9: one product over the whole batch is packed and was 3x slower); else one product.
            let plane = g.height * g.width
            let small = imagesPerSmallProduct(multiplyAddsPerImage: outputChannels * rows * plane, images: g.batch)
            let group = small > 1 ? small : g.batch
            if !runsDirect {   // else the direct kernel wrote dW and db above
                columns.withUnsafeBufferPointer { cols in
                    weight.gradient.values.withUnsafeMutableBufferPointer { dW in
                        for first in stride(from: 0, to: g.batch, by: group) {
                            let images = min(group, g.batch - first)
                            BLAS.gemm(transposeB: true, m: outputChannels, n: rows, k: images * plane,
                                      a: dOut.baseAddress! + first * plane, lda: columnCount,
                                      b: cols.baseAddress! + first * plane, ldb: columnCount,
                                      beta: first == 0 ? 0 : 1, c: dW.baseAddress!, ldc: rows)
                        }
                    }
                }
                // db = row sums of dOut
                bias.gradient.values.withUnsafeMutableBufferPointer { dB in
                    for o in 0..<outputChannels {
                        dB[o] = vectorSum(dOut.baseAddress! + o * columnCount, count: columnCount)
                    }
                }
            }
            guard inputGradient != nil else { return }
            // dCols (rows, NHW) = Wᵀ · dOut, folded back onto the input by col2im, a few
            // images at a time, so the chunk is written and folded while it is still in the
            // L2 cache. Within a chunk, one product per group of images small enough for
            // OpenBLAS's small-matrix kernels, which write their output without first
            // clearing it (the packed product over the chunk cleared it in a pass of its own).
            let productImages = imagesPerSmallProduct(multiplyAddsPerImage: outputChannels * rows * plane, images: g.batch)
            let chunkImages = max(1, min(g.batch, Self.columnGradientChunkFloats / (rows * plane)))
            if columnGradient.count < rows * chunkImages * plane {
                columnGradient = [Float](repeating: 0, count: rows * chunkImages * plane)
            }
            columnGradient.withUnsafeMutableBufferPointer { dCols in
                weight.value.values.withUnsafeBufferPointer { w in
                    inputGradient!.values.withUnsafeMutableBufferPointer { dIn in
                        for first in stride(from: 0, to: g.batch, by: chunkImages) {
                            let images = min(chunkImages, g.batch - first)
                            for group in stride(from: 0, to: images, by: productImages) {
                                let groupImages = min(productImages, images - group)
                                BLAS.gemm(transposeA: true, m: rows, n: groupImages * plane, k: outputChannels,
                                          a: w.baseAddress!, lda: rows,
                                          b: dOut.baseAddress! + (first + group) * plane, ldb: columnCount,
                                          c: dCols.baseAddress! + group * plane, ldc: images * plane)
                            }
                            var chunk = g
                            chunk.batch = images
                            col2im(dCols.baseAddress!, into: dIn.baseAddress! + first * plane, geometry: chunk,
                                   channelStride: g.batch * plane)
                        }
                    }
                }
            }
        }
    }

    /// Size of the column-gradient chunk, in floats (512 KB: half a typical L2 cache).
    static let columnGradientChunkFloats = 128 * 1024
}

/// Images of a per-image product of `multiplyAddsPerImage` to give one sgemm call: as many
/// as keep M·N·K within OpenBLAS's small-matrix kernels (≤ 100³ for sgemm on this CPU in
/// OpenBLAS 0.3.21), which skip packing and were faster than one packed product over the
/// whole batch; at least one, at most `images`.
func imagesPerSmallProduct(multiplyAddsPerImage: Int, images: Int) -> Int {
    max(1, min(images, 1_000_000 / max(1, multiplyAddsPerImage)))
}
