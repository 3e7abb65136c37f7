import CStrokeKernels
import Testing
@testable import StrokeNN
import StrokeTensor
import TestSupport

/// The fast inference path (`InferenceEngine`: channels-last maps with zero borders,
/// channels-last and one-channel im2col, repacked convolution weights, fused
/// pool/bias/ReLU, permuted and transposed dense weights, chunks) against the reference
/// path (`Network.forward`, one layer at a time), on every kernel path this CPU runs
/// (`KernelPath.supported`: OpenBLAS, and the hand-written plain C, AVX2 and AVX-512 kernels).
@Suite struct InferenceEngineTests {
    /// Largest |fast - reference| over all logits of `batch` random images, for `spec`.
    func largestDifference(spec: String, batch: Int, channels: Int = 1, side: Int = 28, seed: UInt64,
                           imagesPerChunk: Int = InferenceEngine.chunkSize, kernels: KernelPath) throws
        -> (difference: Float, scale: Float)
    {
        let network = try Network(architecture: ArchitectureSpec(parsing: spec), classCount: 4,
                                  inputChannels: channels, inputHeight: side, inputWidth: side)
        network.initializeParameters(seed: seed)
        // Non-zero biases, so that the fused bias pass is exercised.
        for parameter in network.parameters where parameter.value.shape.count == 1 {
            parameter.value.values = GradientCheck.randomValues(parameter.value.count, in: -0.5...0.5, seed: seed &+ 9)
        }
        let images = GradientCheck.randomValues(batch * channels * side * side, in: 0...1, seed: seed &+ 1)
        let reference = network.forward(Tensor(shape: [batch, channels, side, side], values: images), training: false)
        let engine = InferenceEngine(network: network, imagesPerChunk: imagesPerChunk, kernels: kernels)
        engine.forward(batch: batch) { buffer in
            images.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress!, count: $0.count) }
        }
        return engine.withLogits { fast in
            #expect(fast.count == reference.count, "\(spec): \(fast.count) logits, reference \(reference.count)")
            let difference = zip(fast, reference.values).map { abs($0 - $1) }.max() ?? .infinity
            let scale = reference.values.map(abs).max() ?? 0
            return (difference, scale)
        }
    }

    @Test(arguments: [1, 3, 8, 21], KernelPath.supported)
    func defaultNetworkMatchesReferencePath(batch: Int, kernels: KernelPath) throws {
        let (difference, scale) = try largestDifference(spec: "c16-p-c32-p-c64-p-d128", batch: batch, seed: 5, kernels: kernels)
        #expect(difference <= 1e-5 * max(1, scale),
                "\(kernels), batch \(batch): max |fast - reference| = \(difference), largest logit \(scale), tolerance 1e-5 relative")
    }

    /// The default network and the shipped compact one's shape at their real sizes, with
    /// weights of a trained network's scale, on every path: within 1e-5 absolute too.
    @Test(arguments: ["c16-p-c32-p-c64-p-d128", "c16-p-c32-p-c48-p-d64"], KernelPath.supported)
    func fastPathWithinOneHundredThousandth(spec: String, kernels: KernelPath) throws {
        let (difference, _) = try largestDifference(spec: spec, batch: 9, seed: 41, kernels: kernels)
        #expect(difference <= 1e-5, "\(spec), \(kernels): max |fast - reference| = \(difference)")
    }

    @Test(arguments: ["c8k5-p-c16-p-c24k1-p-d32-dr0.5", "c4-p-p-d8", "c6-c5-p-d7-d5", "d12", "c3k5-d6", "c16-p-d20"],
          KernelPath.supported)
    func otherArchitecturesMatchReferencePath(spec: String, kernels: KernelPath) throws {
        for batch in [1, 10] {
            let (difference, scale) = try largestDifference(spec: spec, batch: batch, side: 14, seed: 11, kernels: kernels)
            #expect(difference <= 1e-5 * max(1, scale),
                    "\(spec), \(kernels), batch \(batch): max |fast - reference| = \(difference), largest logit \(scale)")
        }
    }

    @Test(arguments: KernelPath.supported)
    func multiChannelInputMatchesReferencePath(kernels: KernelPath) throws {
        for batch in [1, 2, 9] {
            let (difference, scale) = try largestDifference(spec: "c5-p-d6", batch: batch, channels: 3, side: 10, seed: 13,
                                                            kernels: kernels)
            #expect(difference <= 1e-5 * max(1, scale),
                    "3 channels, \(kernels), batch \(batch): max |fast - reference| = \(difference), largest logit \(scale)")
        }
    }

    /// Odd map sizes (pools drop a trailing row and column), 1x1 and 5x5 kernels, a second
    /// pool on its own, several convolutions on a 3-channel input, and the Winograd step
    /// (3x3 kernel, pool, 8 or more input channels) on odd and even maps and on the input.
    @Test(arguments: [("c3-p-c5-p-d4", 1, 11), ("c4k5-c6k1-p-p-d5", 1, 13), ("c5k5-p-c4-d6", 3, 9), ("c7-c6-p-d5", 2, 7),
                      ("c8-p-c12-p-d4", 1, 11), ("c8-p-c8-p-c16-p-d5", 1, 14), ("c4-p-d6", 8, 10), ("c12-p-d5", 8, 9),
                      ("c16-p-c32-p-c48-p-d24", 1, 15), ("c24-p-c40-p-d17", 1, 9)])
    func oddMapsAndKernelsMatchReferencePath(spec: String, channels: Int, side: Int) throws {
        for kernels in KernelPath.supported {
            for batch in [1, 5] {
                let (difference, scale) = try largestDifference(spec: spec, batch: batch, channels: channels, side: side,
                                                                seed: 17, kernels: kernels)
                #expect(difference <= 1e-5 * max(1, scale),
                        "\(spec), \(kernels), \(channels) channels, side \(side), batch \(batch): max |fast - reference| = \(difference), largest logit \(scale)")
            }
        }
    }

    /// The plan takes the Winograd step exactly where it applies (3x3 kernel, pool after it,
    /// at least 8 input channels, channel counts multiples of 4), so the tests above run it;
    /// with the hand-written kernels a 3x3 convolution of a one-channel map followed by a
    /// pool is a direct step. (Every network ends in the classifier's dense layer.)
    @Test(arguments: [
        ("c16-p-c32-p-c64-p-d128", 1, ["im2col", "winograd", "winograd", "dense", "dense"],
         ["direct", "winograd", "winograd", "dense", "dense"]),
        ("c8-p-c12-d4", 1, ["im2col", "im2col", "dense", "dense"], ["direct", "im2col", "dense", "dense"]),
        ("c8-p-c10-p-d4", 1, ["im2col", "im2col", "dense", "dense"], ["direct", "im2col", "dense", "dense"]),
        ("c8-c8-p-d4", 1, ["im2col", "winograd", "dense", "dense"], ["im2col", "winograd", "dense", "dense"]),
        ("c8k5-p-c8-p-d4", 1, ["im2col", "winograd", "dense", "dense"], ["im2col", "winograd", "dense", "dense"]),
        ("c4-p-d6", 8, ["winograd", "dense", "dense"], ["winograd", "dense", "dense"]),
    ])
    func winogradStepWhereItApplies(spec: String, channels: Int, blasKinds: [String], handWrittenKinds: [String]) throws {
        let network = try Network(architecture: ArchitectureSpec(parsing: spec), classCount: 4,
                                  inputChannels: channels, inputHeight: 12, inputWidth: 12)
        #expect(InferenceEngine(network: network, kernels: .blas).stepKinds == blasKinds, "\(spec)")
        #expect(InferenceEngine(network: network, kernels: .generic).stepKinds == handWrittenKinds, "\(spec)")
    }

    /// Batches split into chunks of every size, the last one partial, give the reference's logits.
    @Test(arguments: [1, 2, 3, 8], KernelPath.supported)
    func anyChunkSizeMatchesReferencePath(imagesPerChunk: Int, kernels: KernelPath) throws {
        let (difference, scale) = try largestDifference(spec: "c16-p-c32-p-c64-p-d128", batch: 11, seed: 19,
                                                        imagesPerChunk: imagesPerChunk, kernels: kernels)
        #expect(difference <= 1e-5 * max(1, scale),
                "\(kernels), chunks of \(imagesPerChunk), batch 11: max |fast - reference| = \(difference), largest logit \(scale)")
    }

    /// The two entry points agree bit for bit, and a later run on the same engine (borders
    /// and buffers reused) gives the logits of the first; one image alone (its dense layers
    /// an sgemv, not an sgemm) agrees within 1e-5.
    @Test(arguments: KernelPath.supported)
    func entryPointsAndRepeatedRunsAgree(kernels: KernelPath) throws {
        let network = try Network(architecture: .default, classCount: 4)
        network.initializeParameters(seed: 23)
        let images = GradientCheck.randomValues(10 * 784, in: 0...1, seed: 29)
        let engine = InferenceEngine(network: network, imagesPerChunk: 4, kernels: kernels)
        images.withUnsafeBufferPointer { engine.forward(batch: 10, images: $0.baseAddress!) }
        let first = engine.withLogits { Array($0) }
        engine.forward(batch: 10) { buffer in images.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress!, count: $0.count) } }
        #expect(engine.withLogits { Array($0) } == first, "forward(batch:fill:) differs from forward(batch:images:)")
        images.withUnsafeBufferPointer { engine.forward(batch: 10, images: $0.baseAddress!) }
        #expect(engine.withLogits { Array($0) } == first, "a second run differs from the first")
        for index in [0, 9] {
            images.withUnsafeBufferPointer { engine.forward(batch: 1, images: $0.baseAddress! + index * 784) }
            let single = engine.withLogits { Array($0) }
            let inBatch = Array(first[(index * 4)..<(index * 4 + 4)])
            let difference = zip(single, inBatch).map { abs($0 - $1) }.max() ?? .infinity
            #expect(difference <= 1e-5 * max(1, inBatch.map(abs).max() ?? 0),
                    "image \(index) alone: \(single), in the batch: \(inBatch)")
        }
    }
}

/// The Winograd kernels on their own (transformed kernels, input tiles, 16 sgemm, output
/// transform with pool, bias and ReLU) against a plain-loop 3x3 'same' correlation, 2x2
/// max pool, bias and ReLU on one channels-last map, so that a failure points at them.
@Suite struct WinogradKernelTests {
    @Test(arguments: [(8, 4, 6, 6, true), (8, 12, 7, 5, false), (12, 8, 3, 2, true)])
    func matchesPlainLoops(channels: Int, outputChannels: Int, height: Int, width: Int, relu: Bool) {
        let count = 2
        let weight = GradientCheck.randomValues(outputChannels * channels * 9, seed: 31)
        let bias = GradientCheck.randomValues(outputChannels, seed: 32)
        let input = FeatureMap(channels: channels, height: height, width: width, pad: 1)
        let output = FeatureMap(channels: outputChannels, height: height / 2, width: width / 2)
        let map = PlainLoops.randomMap(input, count: count, seed: 33)
        let expected = PlainLoops.convolvedAndPooled(map, map: input, count: count, weight: weight, bias: bias,
                                                     output: output, relu: relu)

        let tiles = count * output.height * output.width
        let kernels = winogradKernels(weight, outputChannels: outputChannels, inputChannels: channels)
        var transformed = [Float](repeating: .nan, count: 16 * tiles * channels)
        var products = [Float](repeating: .nan, count: 16 * tiles * outputChannels)
        var result = [Float](repeating: 0, count: count * output.imageSize)
        map.withUnsafeBufferPointer { source in
            transformed.withUnsafeMutableBufferPointer {
                winogradInputTiles(source.baseAddress!, map: input, tileRows: output.height, tileColumns: output.width,
                                   count: count, into: $0.baseAddress!)
            }
        }
        for element in 0..<16 {
            transformed.withUnsafeBufferPointer { a in
                kernels.withUnsafeBufferPointer { b in
                    products.withUnsafeMutableBufferPointer { c in
                        BLAS.gemm(m: tiles, n: outputChannels, k: channels, a: a.baseAddress! + element * tiles * channels,
                                  lda: channels, b: b.baseAddress! + element * channels * outputChannels, ldb: outputChannels,
                                  c: c.baseAddress! + element * tiles * outputChannels, ldc: outputChannels)
                    }
                }
            }
        }
        products.withUnsafeBufferPointer { source in
            bias.withUnsafeBufferPointer { b in
                result.withUnsafeMutableBufferPointer {
                    winogradOutputPool(source.baseAddress!, tileRows: output.height, tileColumns: output.width, count: count,
                                       bias: b.baseAddress!, relu: relu, into: $0.baseAddress!, map: output)
                }
            }
        }
        let difference = zip(result, expected).map { abs($0 - $1) }.max() ?? .infinity
        let scale = expected.map(abs).max() ?? 0
        #expect(difference <= 1e-5 * max(1, scale),
                "\(channels)->\(outputChannels), \(height)x\(width), relu \(relu): max |winograd - plain| = \(difference), largest \(scale)")
    }
}
