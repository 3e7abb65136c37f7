import StrokeTensor

/// A network's forward pass for inference only, planned once from a trained `Network`:
/// the reference path (`Network.forward`) is the contract, this is the fast path, and the
/// tests check one against the other (logits within 1e-5).
///
/// What is done at load time instead of per call: weights copied into the GEMM layout
/// (a dense layer's weight transposed to (in, out), so its batched product is a plain
/// row-major sgemm), work buffers sized for the largest chunk, dropout removed.
/// What is fused: a convolution's bias, its max pool and its ReLU are one pass over the
/// GEMM output (bias and ReLU commute with the maximum: max(a + b, c + b) = max(a, c) + b),
/// and the last convolution writes its output already flattened, image-major, for the
/// first dense layer; a dense layer's bias and ReLU are one pass.
///
/// Where the time goes: the convolutions' and dense layers' matrix products are
/// OpenBLAS `cblas_sgemm` (`cblas_sgemv` for a dense layer on one image), im2col and the
/// fused bias/pool/ReLU passes are hand-written loops here and in `StrokeTensor`.
/// A batch runs in chunks of at most `chunkSize` images so that im2col columns stay in
/// the L2 cache.
///
/// Not thread-safe (it owns its work buffers): use one engine per thread. It may move to
/// another thread (hence `Sendable`), but two threads must never run it at once.
public final class InferenceEngine: @unchecked Sendable {
    /// Images run through the network at once; larger batches are split into chunks.
    /// (4: one run of `strokekit bench` on the shared 2-core machine gave 9,400 images/s at
    /// batch 256 with chunks of 1 and 4, 7,900 with 8, 6,100 with 16, 5,300 with 32: beyond
    /// 4 the conv2 im2col, 144 x 784·chunk floats, outgrows the L2 cache.)
    public static let chunkSize = 4

    public let classCount: Int
    public let inputChannels: Int, inputHeight: Int, inputWidth: Int
    private let steps: [Step]
    /// Two ping-pong activation buffers, a convolution's product before its fused pass,
    /// and the im2col columns, each sized for a full chunk.
    /// Allocated at init, freed in deinit; nothing is allocated per call except logits
    /// for a larger batch than before.
    private let bufferA: UnsafeMutableBufferPointer<Float>, bufferB: UnsafeMutableBufferPointer<Float>
    private let product: UnsafeMutableBufferPointer<Float>, columns: UnsafeMutableBufferPointer<Float>
    /// The input of the current chunk, (C, N, H, W).
    private let input: UnsafeMutableBufferPointer<Float>
    /// Logits of the last `forward`, (batch, classCount).
    private var logitsBuffer = UnsafeMutableBufferPointer<Float>.allocate(capacity: 0)
    private var lastBatch = 0

    /// One fused stage of the plan.
    private enum Step {
        /// Convolution (C, N, H, W) -> (OC, N, H, W), then optionally a 2x2 max pool, then
        /// bias and ReLU; `flattenOutput` writes (N, OC·H'·W') instead of channel-major.
        case convolution(weight: [Float], bias: [Float], inputChannels: Int, outputChannels: Int,
                         kernelSize: Int, height: Int, width: Int, pool: Bool, relu: Bool, flattenOutput: Bool)
        /// A 2x2 max pool alone (C, N, H, W), e.g. a second pool in a row.
        case pool(channels: Int, height: Int, width: Int)
        /// (C, N, H, W) -> (N, C·H·W), when no convolution could write it so.
        case flatten(channels: Int, plane: Int)
        /// Dense (N, in) -> (N, out); weight stored transposed, (in, out); then optionally ReLU.
        case dense(transposedWeight: [Float], weight: [Float], bias: [Float], inputs: Int, outputs: Int, relu: Bool)
        /// ReLU alone on `size` values per image (e.g. after a pool that follows a dense layer).
        case relu(size: Int)
    }

    /// Plans the fast path for `network`'s current parameters (later changes to the network
    /// are not seen).
    public init(network: Network) {
        classCount = network.classCount
        (inputChannels, inputHeight, inputWidth) = (network.inputChannels, network.inputHeight, network.inputWidth)
        var steps: [Step] = []
        // (channels, height, width) per image while convolutional, (1, features, 1) once flat.
        var (channels, height, width) = (network.inputChannels, network.inputHeight, network.inputWidth)
        var largest = channels * height * width, largestProduct = 0, largestColumns = 0
        let layers = network.layers.filter { !($0 is Dropout) }   // identity at inference
        func isLayer<T>(_ type: T.Type, at index: Int) -> Bool { index < layers.count && layers[index] is T }
        var index = 0
        while index < layers.count {
            let layer = layers[index]
            if let conv = layer as? Conv2D {
                let pool = isLayer(MaxPool2D.self, at: index + 1)
                let reluIndex = index + (pool ? 2 : 1)
                let relu = isLayer(ReLU.self, at: reluIndex)
                let next = reluIndex + (relu ? 1 : 0)
                let flatten = isLayer(Flatten.self, at: next)
                steps.append(.convolution(
                    weight: conv.weight.value.values, bias: conv.bias.value.values,
                    inputChannels: conv.inputChannels, outputChannels: conv.outputChannels,
                    kernelSize: conv.kernelSize, height: height, width: width,
                    pool: pool, relu: relu, flattenOutput: flatten))
                largestColumns = max(largestColumns, conv.inputChannels * conv.kernelSize * conv.kernelSize * height * width)
                largestProduct = max(largestProduct, conv.outputChannels * height * width)
                channels = conv.outputChannels
                if pool { (height, width) = (height / 2, width / 2) }
                largest = max(largest, channels * height * width)
                if flatten { (channels, height, width) = (1, channels * height * width, 1) }
                index = next + (flatten ? 1 : 0)
            } else if layer is MaxPool2D {
                steps.append(.pool(channels: channels, height: height, width: width))
                (height, width) = (height / 2, width / 2)
                index += 1
            } else if layer is Flatten {
                steps.append(.flatten(channels: channels, plane: height * width))
                (channels, height, width) = (1, channels * height * width, 1)
                index += 1
            } else if let dense = layer as? Dense {
                let relu = isLayer(ReLU.self, at: index + 1)
                let (inputs, outputs) = (dense.inputFeatures, dense.outputFeatures)
                var transposed = [Float](repeating: 0, count: inputs * outputs)
                for o in 0..<outputs {
                    for i in 0..<inputs { transposed[i * outputs + o] = dense.weight.value.values[o * inputs + i] }
                }
                steps.append(.dense(transposedWeight: transposed, weight: dense.weight.value.values,
                                    bias: dense.bias.value.values, inputs: inputs, outputs: outputs, relu: relu))
                (channels, height, width) = (1, outputs, 1)
                largest = max(largest, outputs)
                index += relu ? 2 : 1
            } else if layer is ReLU {
                steps.append(.relu(size: channels * height * width))
                index += 1
            } else {
                preconditionFailure("InferenceEngine: no fast path for layer \(layer.summary)")
            }
        }
        self.steps = steps
        let chunk = Self.chunkSize
        func buffer(_ count: Int) -> UnsafeMutableBufferPointer<Float> {
            let buffer = UnsafeMutableBufferPointer<Float>.allocate(capacity: max(1, count))
            buffer.initialize(repeating: 0)
            return buffer
        }
        bufferA = buffer(largest * chunk)
        bufferB = buffer(largest * chunk)
        product = buffer(largestProduct * chunk)
        columns = buffer(largestColumns * chunk)
        input = buffer(inputChannels * inputHeight * inputWidth * chunk)
    }

    deinit {
        for buffer in [bufferA, bufferB, product, columns, input, logitsBuffer] { buffer.deallocate() }
    }

    /// Runs the network on `batch` images whose input `fill` writes, NCHW, into the given
    /// buffer of batch·C·H·W floats; read the logits with `withLogits`.
    public func forward(batch: Int, fill: (UnsafeMutablePointer<Float>) -> Void) {
        precondition(batch > 0, "empty batch")
        if batch == 1 || (batch <= Self.chunkSize && inputChannels == 1) {
            // One chunk whose NCHW input is already (C, N, H, W): fill it in place.
            prepareLogits(batch: batch)
            fill(input.baseAddress!)
            runChunk(count: batch, logitsRow: 0)
        } else {
            let staging = UnsafeMutablePointer<Float>.allocate(capacity: batch * inputChannels * inputHeight * inputWidth)
            defer { staging.deallocate() }
            fill(staging)
            forward(batch: batch, images: UnsafePointer(staging))
        }
    }

    /// Runs the network on `batch` images stored NCHW at `images`, chunk by chunk.
    public func forward(batch: Int, images: UnsafePointer<Float>) {
        precondition(batch > 0, "empty batch")
        prepareLogits(batch: batch)
        let plane = inputHeight * inputWidth, imageSize = inputChannels * plane
        for start in stride(from: 0, to: batch, by: Self.chunkSize) {
            let count = min(Self.chunkSize, batch - start)
            for n in 0..<count {
                for c in 0..<inputChannels {   // NCHW -> (C, N, H, W)
                    (input.baseAddress! + (c * count + n) * plane)
                        .update(from: images + (start + n) * imageSize + c * plane, count: plane)
                }
            }
            runChunk(count: count, logitsRow: start)
        }
    }

    /// Reads the logits (batch, classCount) of the last `forward` without copying.
    public func withLogits<Result>(_ body: (UnsafeBufferPointer<Float>) -> Result) -> Result {
        body(UnsafeBufferPointer(rebasing: logitsBuffer[0..<(lastBatch * classCount)]))
    }

    // MARK: - Implementation

    private func prepareLogits(batch: Int) {
        lastBatch = batch
        guard logitsBuffer.count < batch * classCount else { return }
        logitsBuffer.deallocate()
        logitsBuffer = .allocate(capacity: batch * classCount)
        logitsBuffer.initialize(repeating: 0)
    }

    /// Runs the plan on the `count` images in `input`, (C, count, H, W), and writes their
    /// logits from row `logitsRow` on.
    private func runChunk(count: Int, logitsRow: Int) {
        let work = WorkBuffers(product: product.baseAddress!, columns: columns.baseAddress!)
        var (source, target, spare) = (input.baseAddress!, bufferA.baseAddress!, bufferB.baseAddress!)
        let logits = logitsBuffer.baseAddress! + logitsRow * classCount
        for (stepIndex, step) in steps.enumerated() {
            let isLast = stepIndex == steps.count - 1
            run(step, count: count, source: source, target: isLast ? logits : target, work: work)
            source = target
            swap(&target, &spare)
        }
    }

    private struct WorkBuffers {
        let product: UnsafeMutablePointer<Float>, columns: UnsafeMutablePointer<Float>
    }

    private func run(_ step: Step, count: Int, source: UnsafeMutablePointer<Float>,
                     target: UnsafeMutablePointer<Float>, work: WorkBuffers) {
        switch step {
        case let .convolution(weight, bias, inputChannels, outputChannels, kernelSize, height, width, pool, relu, flatten):
            // in the reference path: out = W · im2col(x) + b, then max pool, then ReLU
            let g = ConvolutionGeometry(channels: inputChannels, batch: count, height: height, width: width,
                                        kernelHeight: kernelSize, kernelWidth: kernelSize)
            im2col(source, into: work.columns, geometry: g)
            weight.withUnsafeBufferPointer { w in
                BLAS.gemm(m: outputChannels, n: g.columnCount, k: g.columnRows,
                          a: w.baseAddress!, lda: g.columnRows, b: work.columns, ldb: g.columnCount,
                          c: work.product, ldc: g.columnCount)
            }
            bias.withUnsafeBufferPointer { b in
                biasPoolReLU(work.product, into: target, channels: outputChannels, batch: count, height: height, width: width,
                             bias: b.baseAddress!, pool: pool, relu: relu, flatten: flatten)
            }
        case let .pool(channels, height, width):
            biasPoolReLU(source, into: target, channels: channels, batch: count, height: height, width: width,
                         bias: nil, pool: true, relu: false, flatten: false)
        case let .flatten(channels, plane):
            for c in 0..<channels {
                for n in 0..<count {
                    (target + (n * channels + c) * plane).update(from: source + (c * count + n) * plane, count: plane)
                }
            }
        case let .dense(transposedWeight, weight, bias, inputs, outputs, relu):
            bias.withUnsafeBufferPointer { b in
                for n in 0..<count { (target + n * outputs).update(from: b.baseAddress!, count: outputs) }
            }
            if count == 1 {
                // One row: sgemm would pack the whole weight matrix first; sgemv does not.
                weight.withUnsafeBufferPointer { w in
                    BLAS.gemv(m: outputs, n: inputs, a: w.baseAddress!, lda: inputs, x: source, beta: 1, y: target)
                }
            } else {
                transposedWeight.withUnsafeBufferPointer { w in
                    BLAS.gemm(m: count, n: outputs, k: inputs, a: source, lda: inputs, b: w.baseAddress!, ldb: outputs,
                              beta: 1, c: target, ldc: outputs)
                }
            }
            if relu { for i in 0..<(count * outputs) { target[i] = max(target[i], 0) } }
        case let .relu(size):
            for i in 0..<(count * size) { target[i] = max(source[i], 0) }
        }
    }
}

/// The pass after a convolution's GEMM, fused: (C, N, H, W) -> optional 2x2 max pool ->
/// + bias[c] -> optional ReLU, written channel-major (C, N, H', W') or, with `flatten`,
/// image-major (N, C·H'·W') as `Flatten` would. Odd trailing rows/columns are dropped by
/// the pool, as `MaxPool2D` does. A nil bias adds nothing.
func biasPoolReLU(_ input: UnsafePointer<Float>, into output: UnsafeMutablePointer<Float>,
                  channels: Int, batch: Int, height: Int, width: Int,
                  bias: UnsafePointer<Float>?, pool: Bool, relu: Bool, flatten: Bool) {
    let (outHeight, outWidth) = pool ? (height / 2, width / 2) : (height, width)
    let outPlane = outHeight * outWidth
    let floor: Float = relu ? 0 : -.infinity
    for c in 0..<channels {
        let b = bias?[c] ?? 0
        for n in 0..<batch {
            let plane = input + (c * batch + n) * height * width
            let out = output + (flatten ? (n * channels + c) : (c * batch + n)) * outPlane
            if pool {
                for oy in 0..<outHeight {
                    let top = plane + 2 * oy * width, bottom = top + width, row = out + oy * outWidth
                    for ox in 0..<outWidth {
                        let m = max(max(top[2 * ox], top[2 * ox + 1]), max(bottom[2 * ox], bottom[2 * ox + 1]))
                        row[ox] = max(m + b, floor)
                    }
                }
            } else {
                for i in 0..<outPlane { out[i] = max(plane[i] + b, floor) }
            }
        }
    }
}
