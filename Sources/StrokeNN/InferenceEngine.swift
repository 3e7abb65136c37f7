import CStrokeKernels
import StrokeTensor

/// A network's forward pass for inference only, planned once from a trained `Network`:
/// the reference path (`Network.forward`) is the contract, this is the fast path, and the
/// tests check one against the other (logits within 1e-5).
///
/// Layout: activations are channels-last, (N, H, W, C), each map stored with the zero
/// border its consumer convolution needs (`FeatureMap`), so padding is never handled per
/// call. A convolution followed by a pool computes only the pixels the pool reads (an odd
/// map's last row and column are left out). A 3x3 convolution followed by a 2x2 pool, with
/// 8 or more input channels, runs by Winograd's F(2x2, 3x3) (`InferenceEngine+Winograd.swift`):
/// one 4x4 input tile per pooled pixel, transformed, 16 GEMMs (tiles, C) × (C, OC) over the
/// chunk, transformed back straight into the pool, bias and ReLU: 16 multiply-adds per
/// channel pair and pooled pixel instead of 36. Any other convolution is im2col (each patch
/// row one contiguous run of K·C floats) and one GEMM over its pixels,
/// (N·H·W, K·K·C) × (K·K·C, OC), whose output is already channels-last; the pool, bias
/// and ReLU after it are one pass that writes straight into the next map's interior.
///
/// Done at load time instead of per call: convolution weights repacked from
/// (OC, C, KH, KW) to (KH·KW·C, OC), or transformed to Winograd's 16 (C, OC) matrices;
/// the first dense layer's columns permuted from the reference's flatten order (C, H, W)
/// to (H, W, C), so flattening is free; dense weights also transposed to (in, out) for the
/// batched product; every work buffer allocated and every border zeroed; dropout removed.
///
/// Where the time goes (default network, batch 256, one thread, `perf record`): the
/// products are OpenBLAS `cblas_sgemm` (`cblas_sgemv` for a dense layer on one image),
/// about two thirds of the time; the Winograd transforms, im2col, the pool pass and the
/// input copy are hand-written (`InferenceEngine+Kernels.swift`,
/// `InferenceEngine+Winograd.swift`), the rest.
/// im2col convolutions run on as few images at a time as keep their products within
/// OpenBLAS's small-matrix kernels (no packing; a larger product is packed and was slower
/// per image); a batch runs in chunks of `imagesPerChunk` images, so that each Winograd
/// product and each dense layer is one sgemm per chunk, its weights read once per chunk
/// rather than per image.
///
/// Not thread-safe (it owns its work buffers): use one engine per thread. It may move to
/// another thread (hence `Sendable`), but two threads must never run it at once.
public final class InferenceEngine: @unchecked Sendable {
    /// Images run through the network at once by default; larger batches are split into
    /// chunks. (8: `strokekit bench --chunk-size N` on the shared 2-core machine gave the
    /// best batch-256 rate with 8 of 1, 4, 8, 16 and 32, in two interleaved runs.)
    public static let chunkSize = 8

    /// Images run through the network at once by this engine.
    public let imagesPerChunk: Int

    /// The kernels this engine runs (see the "Kernels" section of docs/benchmarks.md for
    /// which step runs on which): OpenBLAS with Swift passes, or the hand-written kernels
    /// of `CStrokeKernels` (a 3x3 convolution of a one-channel input with its pool as a
    /// direct convolution, the Winograd steps, the dense layers).
    public let kernels: KernelPath

    public let classCount: Int
    public let inputChannels: Int, inputHeight: Int, inputWidth: Int
    private let steps: [Step]
    /// The network input of the current chunk, channels-last with the first step's border.
    private let inputMap: FeatureMap
    private let input: UnsafeMutableBufferPointer<Float>
    /// The caller's NCHW images of one chunk, before they are moved into `input`.
    private let staging: UnsafeMutableBufferPointer<Float>
    /// im2col columns and a convolution's product before its fused pass, sized for a chunk.
    private let columns: UnsafeMutableBufferPointer<Float>, product: UnsafeMutableBufferPointer<Float>
    /// One output buffer per step (the last step writes the logits instead), so each
    /// map's zero border, written once here, is never overwritten.
    private let outputs: [UnsafeMutableBufferPointer<Float>]
    /// Logits of the last `forward`, (batch, classCount).
    private var logitsBuffer = UnsafeMutableBufferPointer<Float>.allocate(capacity: 0)
    private var lastBatch = 0

    /// One fused stage of the plan.
    private enum Step {
        /// Convolution over `input` (border K/2) -> GEMM product (H, W, OC) -> optional 2x2
        /// max pool, bias, optional ReLU -> `output`. weight is (K·K·C, OC).
        case convolution(weight: [Float], bias: [Float], kernelSize: Int, input: FeatureMap,
                         product: FeatureMap, output: FeatureMap, pool: Bool, relu: Bool)
        /// A 3x3 convolution over `input` (border 1) and the 2x2 max pool after it by Winograd's
        /// F(2x2, 3x3) (`InferenceEngine+Winograd.swift`): one 4x4 input tile per pooled pixel
        /// of `output`; then bias, optional ReLU. weight is 16 transformed kernels (C, OC).
        case winograd(weight: [Float], bias: [Float], input: FeatureMap, output: FeatureMap, relu: Bool)
        /// A 3x3 convolution of a one-channel `input` (border 1) and the 2x2 max pool after it,
        /// computed directly by `sk_conv3x3_c1_pool` (hand-written kernels only): four
        /// outputs per pooled pixel, nine multiply-adds each; then bias, optional ReLU.
        /// weight is (9, OC).
        case direct(weight: [Float], bias: [Float], input: FeatureMap, output: FeatureMap, relu: Bool)
        /// A 2x2 max pool and/or ReLU on its own (e.g. a second pool in a row).
        case mapPass(input: FeatureMap, output: FeatureMap, pool: Bool, relu: Bool, zeros: [Float])
        /// Dense (N, in) -> (N, out); weight (out, in) for one image, transposed (in, out) for
        /// a chunk; then optionally ReLU.
        case dense(weight: [Float], transposedWeight: [Float], bias: [Float], inputs: Int, outputs: Int, relu: Bool)
        /// ReLU alone on `size` flat values per image.
        case relu(size: Int)

        /// What runs, for tests: "im2col", "winograd", "direct", "map", "dense" or "relu".
        var kind: String {
            switch self {
            case .convolution: "im2col"
            case .winograd: "winograd"
            case .direct: "direct"
            case .mapPass: "map"
            case .dense: "dense"
            case .relu: "relu"
            }
        }

        /// Floats per image of this step's output.
        var outputSize: Int {
            switch self {
            case let .convolution(_, _, _, _, _, output, _, _), let .winograd(_, _, _, output, _),
                 let .direct(_, _, _, output, _), let .mapPass(_, output, _, _, _): output.imageSize
            case let .dense(_, _, _, _, outputs, _): outputs
            case let .relu(size): size
            }
        }
    }

    /// Plans the fast path for `network`'s current parameters (later changes to the network
    /// are not seen).
    /// `kernels` must be a path this CPU runs (`KernelPath.supported`).
    public init(network: Network, imagesPerChunk: Int = InferenceEngine.chunkSize,
                kernels: KernelPath = .preferred) {
        precondition(imagesPerChunk > 0, "InferenceEngine: imagesPerChunk must be positive")
        precondition(kernels.isSupported, "InferenceEngine: this CPU cannot run the \(kernels) kernels")
        self.imagesPerChunk = imagesPerChunk
        self.kernels = kernels
        classCount = network.classCount
        (inputChannels, inputHeight, inputWidth) = (network.inputChannels, network.inputHeight, network.inputWidth)
        let plan = Self.plan(network, kernels: kernels)
        steps = plan.steps
        inputMap = plan.input
        let chunk = imagesPerChunk
        func buffer(_ count: Int) -> UnsafeMutableBufferPointer<Float> {
            let buffer = UnsafeMutableBufferPointer<Float>.allocate(capacity: max(1, count))
            buffer.initialize(repeating: 0)
            return buffer
        }
        input = buffer(chunk * inputMap.imageSize)
        staging = buffer(chunk * inputChannels * inputHeight * inputWidth)
        var largestColumns = 0, largestProduct = 0
        for step in steps {
            if case let .convolution(_, _, kernelSize, input, product, _, _, _) = step {
                let group = imagesPerSmallProduct(
                    multiplyAddsPerImage: Self.multiplyAdds(input: input, product: product, kernelSize: kernelSize), images: chunk)
                largestColumns = max(largestColumns, group * product.height * product.width * kernelSize * kernelSize * input.channels)
                largestProduct = max(largestProduct, group * product.imageSize)
            } else if case let .winograd(_, _, input, output, _) = step {
                if kernels.isHandWritten {   // blocks of tiles in a scratch buffer of their own size
                    largestColumns = max(largestColumns, sk_winograd_scratch_floats(Int32(input.channels), Int32(output.channels)))
                } else {
                    let tiles = chunk * output.height * output.width
                    largestColumns = max(largestColumns, 16 * tiles * input.channels)
                    largestProduct = max(largestProduct, 16 * tiles * output.channels)
                }
            }
        }
        columns = buffer(largestColumns)   // sized for one group of images (one product)
        product = buffer(largestProduct)
        outputs = steps.dropLast().map { buffer(chunk * $0.outputSize) }
    }

    deinit {
        for buffer in [input, staging, columns, product, logitsBuffer] + outputs { buffer.deallocate() }
    }

    /// The kind of each step of the plan, in order (for tests: which kernels run).
    var stepKinds: [String] { steps.map(\.kind) }

    /// Runs the network on `batch` images whose input `fill` writes, NCHW, into the given
    /// buffer of batch·C·H·W floats; read the logits with `withLogits`.
    public func forward(batch: Int, fill: (UnsafeMutablePointer<Float>) -> Void) {
        precondition(batch > 0, "empty batch")
        if batch <= imagesPerChunk {
            fill(staging.baseAddress!)
            forward(batch: batch, images: UnsafePointer(staging.baseAddress!))
        } else {
            let images = UnsafeMutablePointer<Float>.allocate(capacity: batch * inputChannels * inputHeight * inputWidth)
            defer { images.deallocate() }
            fill(images)
            forward(batch: batch, images: UnsafePointer(images))
        }
    }

    /// Runs the network on `batch` images stored NCHW at `images`, chunk by chunk.
    public func forward(batch: Int, images: UnsafePointer<Float>) {
        precondition(batch > 0, "empty batch")
        prepareLogits(batch: batch)
        let imageSize = inputChannels * inputHeight * inputWidth
        for start in stride(from: 0, to: batch, by: imagesPerChunk) {
            let count = min(imagesPerChunk, batch - start)
            for n in 0..<count { copyIntoInputMap(images + (start + n) * imageSize, image: n) }
            runChunk(count: count, logitsRow: start)
        }
    }

    /// Reads the logits (batch, classCount) of the last `forward` without copying.
    public func withLogits<Result>(_ body: (UnsafeBufferPointer<Float>) -> Result) -> Result {
        body(UnsafeBufferPointer(rebasing: logitsBuffer[0..<(lastBatch * classCount)]))
    }

    // MARK: - Planning

    /// The steps for `network` and the input map they start from. Layers are matched in
    /// the order `Network` builds them (conv, [pool], [ReLU], [flatten], dense, [ReLU]);
    /// each map gets the border its consumer needs.
    private static func plan(_ network: Network, kernels: KernelPath) -> (steps: [Step], input: FeatureMap) {
        /// A step before borders are known: its input map (nil once flat).
        enum Draft {
            case convolution(Conv2D, input: FeatureMap, pool: Bool, relu: Bool)
            case mapPass(input: FeatureMap, pool: Bool, relu: Bool)
            case dense(Dense, flattening: FeatureMap?, relu: Bool)
            case relu(size: Int)
        }
        let layers = network.layers.filter { !($0 is Dropout) }   // identity at inference
        func isLayer<T>(_ type: T.Type, at index: Int) -> Bool { index < layers.count && layers[index] is T }
        var map: FeatureMap? = FeatureMap(channels: network.inputChannels, height: network.inputHeight,
                                          width: network.inputWidth)
        var flattened: FeatureMap? = nil   // the map a flatten just consumed
        var features = 0                   // values per image once flat
        var drafts: [Draft] = []
        var index = 0
        while index < layers.count {
            let layer = layers[index]
            if let conv = layer as? Conv2D, let current = map {
                let pool = isLayer(MaxPool2D.self, at: index + 1)
                let relu = isLayer(ReLU.self, at: index + (pool ? 2 : 1))
                drafts.append(.convolution(conv, input: current, pool: pool, relu: relu))
                let convolved = FeatureMap(channels: conv.outputChannels, height: current.height, width: current.width)
                map = pool ? convolved.pooled : convolved
                index += 1 + (pool ? 1 : 0) + (relu ? 1 : 0)
            } else if let current = map, layer is MaxPool2D || layer is ReLU {
                let pool = layer is MaxPool2D
                let relu = !pool || isLayer(ReLU.self, at: index + 1)
                drafts.append(.mapPass(input: current, pool: pool, relu: relu))
                map = pool ? current.pooled : current
                index += pool && relu ? 2 : 1
            } else if layer is Flatten, let current = map {
                (flattened, features, map) = (current, current.valueCount, nil)
                index += 1
            } else if let dense = layer as? Dense, map == nil {
                precondition(dense.inputFeatures == features, "InferenceEngine: \(dense.summary) after \(features) features")
                let relu = isLayer(ReLU.self, at: index + 1)
                drafts.append(.dense(dense, flattening: flattened, relu: relu))
                (flattened, features) = (nil, dense.outputFeatures)
                index += relu ? 2 : 1
            } else if layer is ReLU, map == nil {
                drafts.append(.relu(size: features))
                index += 1
            } else {
                preconditionFailure("InferenceEngine: no fast path for layer \(layer.summary) here")
            }
        }
        precondition(map == nil && features == network.classCount, "InferenceEngine: the network does not end in logits")

        // A map's border is what the step reading it needs: K/2 for a convolution, else none.
        func withBorder(_ map: FeatureMap, forStep next: Int) -> FeatureMap {
            var bordered = map
            if next < drafts.count, case let .convolution(conv, _, _, _) = drafts[next] { bordered.pad = conv.kernelSize / 2 }
            return bordered
        }
        let inputMap = withBorder(FeatureMap(channels: network.inputChannels, height: network.inputHeight,
                                             width: network.inputWidth), forStep: 0)
        let steps: [Step] = drafts.enumerated().map { position, draft in
            switch draft {
            case let .convolution(conv, input, pool, relu) where kernels.isHandWritten && usesDirect(conv, input: input, pool: pool):
                return .direct(weight: packedConvolutionWeight(conv), bias: conv.bias.value.values,
                               input: withBorder(input, forStep: position),
                               output: withBorder(FeatureMap(channels: conv.outputChannels, height: input.height / 2,
                                                             width: input.width / 2), forStep: position + 1),
                               relu: relu)
            case let .convolution(conv, input, pool, relu) where usesWinograd(conv, input: input, pool: pool):
                return .winograd(weight: winogradKernels(conv.weight.value.values, outputChannels: conv.outputChannels,
                                                         inputChannels: conv.inputChannels),
                                 bias: conv.bias.value.values, input: withBorder(input, forStep: position),
                                 output: withBorder(FeatureMap(channels: conv.outputChannels, height: input.height / 2,
                                                               width: input.width / 2), forStep: position + 1),
                                 relu: relu)
            case let .convolution(conv, input, pool, relu):
                // A pool drops an odd map's last row and column: the product leaves them out.
                let product = pool ? FeatureMap(channels: conv.outputChannels, height: input.height / 2 * 2,
                                                width: input.width / 2 * 2)
                                   : FeatureMap(channels: conv.outputChannels, height: input.height, width: input.width)
                return .convolution(
                    weight: packedConvolutionWeight(conv), bias: conv.bias.value.values, kernelSize: conv.kernelSize,
                    input: withBorder(input, forStep: position), product: product,
                    output: withBorder(pool ? product.pooled : product, forStep: position + 1), pool: pool, relu: relu)
            case let .mapPass(input, pool, relu):
                return .mapPass(input: withBorder(input, forStep: position),
                                output: withBorder(pool ? input.pooled : input, forStep: position + 1),
                                pool: pool, relu: relu, zeros: [Float](repeating: 0, count: input.channels))
            case let .dense(dense, flattening, relu):
                let weight = flattening.map { channelsLastColumns(dense, of: $0) } ?? dense.weight.value.values
                let (inputs, outputs) = (dense.inputFeatures, dense.outputFeatures)
                var transposed = [Float](repeating: 0, count: inputs * outputs)
                for o in 0..<outputs {
                    for i in 0..<inputs { transposed[i * outputs + o] = weight[o * inputs + i] }
                }
                return .dense(weight: weight, transposedWeight: transposed, bias: dense.bias.value.values,
                              inputs: inputs, outputs: outputs, relu: relu)
            case let .relu(size):
                return .relu(size: size)
            }
        }
        return (steps, inputMap)
    }

    /// Whether `conv` on `input` runs as a Winograd step: a 3x3 kernel followed by a 2x2 pool,
    /// at least 8 input channels (with fewer, the 16 products' inner dimension is too short
    /// for sgemm to beat im2col's one product) and channel counts that are multiples of 4
    /// (the transforms' vector width).
    private static func usesWinograd(_ conv: Conv2D, input: FeatureMap, pool: Bool) -> Bool {
        conv.kernelSize == 3 && pool && input.channels >= 8 && input.channels % 4 == 0
            && conv.outputChannels % 4 == 0 && input.height >= 2 && input.width >= 2
    }

    /// Whether `conv` on `input` runs as a direct step (hand-written kernels only): a 3x3
    /// kernel on a one-channel map, followed by a 2x2 pool. (With one input channel a Winograd
    /// tile's 16 products would each have an inner dimension of 1.)
    private static func usesDirect(_ conv: Conv2D, input: FeatureMap, pool: Bool) -> Bool {
        conv.kernelSize == 3 && pool && input.channels == 1 && input.height >= 2 && input.width >= 2
    }

    /// conv.weight (OC, C, KH, KW) as the (KH·KW·C, OC) matrix that multiplies channels-last
    /// im2col rows.
    private static func packedConvolutionWeight(_ conv: Conv2D) -> [Float] {
        let (outputs, channels, kernel) = (conv.outputChannels, conv.inputChannels, conv.kernelSize)
        let weight = conv.weight.value.values
        var packed = [Float](repeating: 0, count: weight.count)
        for o in 0..<outputs {
            for c in 0..<channels {
                for ky in 0..<kernel {
                    for kx in 0..<kernel {
                        packed[((ky * kernel + kx) * channels + c) * outputs + o] = weight[((o * channels + c) * kernel + ky) * kernel + kx]
                    }
                }
            }
        }
        return packed
    }

    /// dense.weight (out, C·H·W) with its columns reordered from the reference's flatten
    /// order (c, y, x) to the channels-last order (y, x, c) of `map`.
    private static func channelsLastColumns(_ dense: Dense, of map: FeatureMap) -> [Float] {
        let weight = dense.weight.value.values, inputs = dense.inputFeatures
        var permuted = [Float](repeating: 0, count: weight.count)
        for o in 0..<dense.outputFeatures {
            for c in 0..<map.channels {
                for y in 0..<map.height {
                    for x in 0..<map.width {
                        permuted[o * inputs + (y * map.width + x) * map.channels + c] =
                            weight[o * inputs + (c * map.height + y) * map.width + x]
                    }
                }
            }
        }
        return permuted
    }

    // MARK: - Running

    private func prepareLogits(batch: Int) {
        lastBatch = batch
        guard logitsBuffer.count < batch * classCount else { return }
        logitsBuffer.deallocate()
        logitsBuffer = .allocate(capacity: batch * classCount)
        logitsBuffer.initialize(repeating: 0)
    }

    /// Moves one NCHW image into slot `image` of the input map (channels-last, bordered).
    private func copyIntoInputMap(_ source: UnsafePointer<Float>, image: Int) {
        let target = input.baseAddress! + image * inputMap.imageSize
        for y in 0..<inputHeight {
            let row = target + inputMap.offset(y: y, x: 0)
            if inputChannels == 1 {
                copyShort(from: source + y * inputWidth, to: row, count: inputWidth)
            } else {
                for x in 0..<inputWidth {
                    for c in 0..<inputChannels { row[x * inputChannels + c] = source[(c * inputHeight + y) * inputWidth + x] }
                }
            }
        }
    }

    /// Runs the plan on the `count` images in `input` and writes their logits from row
    /// `logitsRow` on.
    private func runChunk(count: Int, logitsRow: Int) {
        var source = UnsafePointer(input.baseAddress!)
        for (index, step) in steps.enumerated() {
            let target = index == steps.count - 1 ? logitsBuffer.baseAddress! + logitsRow * classCount
                                                  : outputs[index].baseAddress!
            run(step, count: count, source: source, target: target)
            source = UnsafePointer(target)
        }
    }

    /// Multiply-adds per image of an im2col convolution's product (8 images of the default
    /// network's conv1 fit one small-matrix product).
    private static func multiplyAdds(input: FeatureMap, product: FeatureMap, kernelSize: Int) -> Int {
        product.height * product.width * kernelSize * kernelSize * input.channels * product.channels
    }

    /// `count` images through a convolution step as one product. In the reference path:
    /// out = W · im2col(x) + b, then max pool, then ReLU.
    private func convolve(_ source: UnsafePointer<Float>, into target: UnsafeMutablePointer<Float>, count: Int,
                          weight: [Float], bias: [Float], kernelSize: Int,
                          input: FeatureMap, product: FeatureMap, output: FeatureMap, pool: Bool, relu: Bool) {
        let patch = kernelSize * kernelSize * input.channels, pixels = count * product.height * product.width
        // A 1x1 kernel's im2col is the (borderless) map itself unless the product leaves
        // pixels out; a one-channel map's is stored transposed (see im2colSingleChannel).
        let direct = kernelSize == 1 && product.height == input.height && product.width == input.width
        let transposed = !direct && input.channels == 1
        let rows = direct ? source : UnsafePointer(columns.baseAddress!)
        if transposed {
            im2colSingleChannel(source, map: input, kernelSize: kernelSize, outputHeight: product.height,
                                outputWidth: product.width, count: count, into: columns.baseAddress!)
        } else if !direct {
            im2colChannelsLast(source, map: input, kernelSize: kernelSize, outputHeight: product.height,
                               outputWidth: product.width, count: count, into: columns.baseAddress!)
        }
        weight.withUnsafeBufferPointer { w in
            BLAS.gemm(transposeA: transposed, m: pixels, n: product.channels, k: patch, a: rows,
                      lda: transposed ? pixels : patch, b: w.baseAddress!, ldb: product.channels,
                      c: self.product.baseAddress!, ldc: product.channels)
        }
        bias.withUnsafeBufferPointer { b in
            poolBiasReLU(self.product.baseAddress!, map: product, into: target, map: output,
                         count: count, pool: pool, bias: b.baseAddress!, relu: relu)
        }
    }

    /// `count` images through a Winograd step: the input tiles transformed into `columns`,
    /// 16 products (count·tiles, C)·(C, OC) into `product`, then transformed back, pooled,
    /// biased and clamped into `target`.
    private func convolveByWinograd(_ source: UnsafePointer<Float>, into target: UnsafeMutablePointer<Float>, count: Int,
                                    weight: [Float], bias: [Float], input: FeatureMap, output: FeatureMap, relu: Bool) {
        let tiles = count * output.height * output.width
        let (channels, outputChannels) = (input.channels, output.channels)
        let (transformed, products) = (columns.baseAddress!, product.baseAddress!)
        winogradInputTiles(source, map: input, tileRows: output.height, tileColumns: output.width, count: count,
                           into: transformed)
        weight.withUnsafeBufferPointer { w in
            for element in 0..<16 {
                BLAS.gemm(m: tiles, n: outputChannels, k: channels, a: transformed + element * tiles * channels,
                          lda: channels, b: w.baseAddress! + element * channels * outputChannels, ldb: outputChannels,
                          c: products + element * tiles * outputChannels, ldc: outputChannels)
            }
        }
        bias.withUnsafeBufferPointer { b in
            winogradOutputPool(products, tileRows: output.height, tileColumns: output.width, count: count,
                               bias: b.baseAddress!, relu: relu, into: target, map: output)
        }
    }

    private func run(_ step: Step, count: Int, source: UnsafePointer<Float>, target: UnsafeMutablePointer<Float>) {
        switch step {
        case let .convolution(weight, bias, kernelSize, input, product, output, pool, relu):
            let group = imagesPerSmallProduct(
                multiplyAddsPerImage: Self.multiplyAdds(input: input, product: product, kernelSize: kernelSize), images: imagesPerChunk)
            for first in stride(from: 0, to: count, by: group) {
                convolve(source + first * input.imageSize, into: target + first * output.imageSize,
                         count: min(group, count - first), weight: weight, bias: bias, kernelSize: kernelSize,
                         input: input, product: product, output: output, pool: pool, relu: relu)
            }
        case let .winograd(weight, bias, input, output, relu) where kernels.isHandWritten:
            sk_winograd_pool(kernels.cPath, source, input.rowStride, input.imageSize, Int32(input.channels),
                             weight, bias, Int32(output.channels), Int32(output.height), Int32(output.width),
                             Int32(count), target + output.offset(y: 0, x: 0), output.rowStride, output.imageSize,
                             relu ? 1 : 0, columns.baseAddress!)
        case let .winograd(weight, bias, input, output, relu):
            convolveByWinograd(source, into: target, count: count, weight: weight, bias: bias,
                               input: input, output: output, relu: relu)
        case let .direct(weight, bias, input, output, relu):
            sk_conv3x3_c1_pool(kernels.cPath, source, input.rowStride, input.imageSize, weight, bias,
                               Int32(output.channels), Int32(output.height), Int32(output.width), Int32(count),
                               target + output.offset(y: 0, x: 0), output.rowStride, output.imageSize, relu ? 1 : 0)
        case let .dense(weight, transposedWeight, bias, inputs, outputs, relu) where kernels.isHandWritten:
            sk_dense(kernels.cPath, source, inputs, Int32(count), Int32(inputs), transposedWeight, weight, bias,
                     Int32(outputs), target, outputs, relu ? 1 : 0)
        case let .mapPass(input, output, pool, relu, zeros):
            zeros.withUnsafeBufferPointer { z in
                poolBiasReLU(source, map: input, into: target, map: output, count: count, pool: pool,
                             bias: z.baseAddress!, relu: relu)
            }
        case let .dense(weight, transposedWeight, bias, inputs, outputs, relu):
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
