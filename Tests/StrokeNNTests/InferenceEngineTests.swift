import Testing
@testable import StrokeNN
import StrokeTensor
import TestSupport

/// The fast inference path (`InferenceEngine`: channels-last maps with zero borders,
/// channels-last and one-channel im2col, repacked convolution weights, fused
/// pool/bias/ReLU, permuted and transposed dense weights, chunks) against the reference
/// path (`Network.forward`, one layer at a time).
@Suite struct InferenceEngineTests {
    /// Largest |fast - reference| over all logits of `batch` random images, for `spec`.
    func largestDifference(spec: String, batch: Int, channels: Int = 1, side: Int = 28, seed: UInt64,
                           imagesPerChunk: Int = InferenceEngine.chunkSize) throws
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
        let engine = InferenceEngine(network: network, imagesPerChunk: imagesPerChunk)
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

    @Test(arguments: [1, 3, 8, 21])
    func defaultNetworkMatchesReferencePath(batch: Int) throws {
        let (difference, scale) = try largestDifference(spec: "c16-p-c32-p-c64-p-d128", batch: batch, seed: 5)
        #expect(difference <= 1e-5 * max(1, scale),
                "batch \(batch): max |fast - reference| = \(difference), largest logit \(scale), tolerance 1e-5 relative")
    }

    @Test(arguments: ["c8k5-p-c16-p-c24k1-p-d32-dr0.5", "c4-p-p-d8", "c6-c5-p-d7-d5", "d12", "c3k5-d6"])
    func otherArchitecturesMatchReferencePath(spec: String) throws {
        for batch in [1, 10] {
            let (difference, scale) = try largestDifference(spec: spec, batch: batch, side: 14, seed: 11)
            #expect(difference <= 1e-5 * max(1, scale),
                    "\(spec), batch \(batch): max |fast - reference| = \(difference), largest logit \(scale)")
        }
    }

    @Test func multiChannelInputMatchesReferencePath() throws {
        for batch in [1, 2, 9] {
            let (difference, scale) = try largestDifference(spec: "c5-p-d6", batch: batch, channels: 3, side: 10, seed: 13)
            #expect(difference <= 1e-5 * max(1, scale),
                    "3 channels, batch \(batch): max |fast - reference| = \(difference), largest logit \(scale)")
        }
    }

    /// Odd map sizes (pools drop a trailing row and column), 1x1 and 5x5 kernels, a second
    /// pool on its own, several convolutions on a 3-channel input, and the Winograd step
    /// (3x3 kernel, pool, 8 or more input channels) on odd and even maps and on the input.
    @Test(arguments: [("c3-p-c5-p-d4", 1, 11), ("c4k5-c6k1-p-p-d5", 1, 13), ("c5k5-p-c4-d6", 3, 9), ("c7-c6-p-d5", 2, 7),
                      ("c8-p-c12-p-d4", 1, 11), ("c8-p-c8-p-c16-p-d5", 1, 14), ("c4-p-d6", 8, 10), ("c12-p-d5", 8, 9)])
    func oddMapsAndKernelsMatchReferencePath(spec: String, channels: Int, side: Int) throws {
        for batch in [1, 5] {
            let (difference, scale) = try largestDifference(spec: spec, batch: batch, channels: channels, side: side, seed: 17)
            #expect(difference <= 1e-5 * max(1, scale),
                    "\(spec), \(channels) channels, side \(side), batch \(batch): max |fast - reference| = \(difference), largest logit \(scale)")
        }
    }

    /// The plan takes the Winograd step exactly where it applies (3x3 kernel, pool after it,
    /// at least 8 input channels, channel counts multiples of 4), so the tests above run it.
    /// (Every network ends in the classifier's dense layer.)
    @Test(arguments: [("c16-p-c32-p-c64-p-d128", 1, ["im2col", "winograd", "winograd", "dense", "dense"]),
                      ("c8-p-c12-d4", 1, ["im2col", "im2col", "dense", "dense"]),
                      ("c8-p-c10-p-d4", 1, ["im2col", "im2col", "dense", "dense"]),
                      ("c8k5-p-c8-p-d4", 1, ["im2col", "winograd", "dense", "dense"]),
                      ("c4-p-d6", 8, ["winograd", "dense", "dense"])])
    func winogradStepWhereItApplies(spec: String, channels: Int, kinds: [String]) throws {
        let network = try Network(architecture: ArchitectureSpec(parsing: spec), classCount: 4,
                                  inputChannels: channels, inputHeight: 12, inputWidth: 12)
        #expect(InferenceEngine(network: network).stepKinds == kinds, "\(spec)")
    }

    /// Batches split into chunks of every size, the last one partial, give the reference's logits.
    @Test(arguments: [1, 2, 3, 8])
    func anyChunkSizeMatchesReferencePath(imagesPerChunk: Int) throws {
        let (difference, scale) = try largestDifference(spec: "c16-p-c32-p-c64-p-d128", batch: 11, seed: 19,
                                                        imagesPerChunk: imagesPerChunk)
        #expect(difference <= 1e-5 * max(1, scale),
                "chunks of \(imagesPerChunk), batch 11: max |fast - reference| = \(difference), largest logit \(scale)")
    }

    /// The two entry points agree bit for bit, and a later run on the same engine (borders
    /// and buffers reused) gives the logits of the first; one image alone (its dense layers
    /// an sgemv, not an sgemm) agrees within 1e-5.
    @Test func entryPointsAndRepeatedRunsAgree() throws {
        let network = try Network(architecture: .default, classCount: 4)
        network.initializeParameters(seed: 23)
        let images = GradientCheck.randomValues(10 * 784, in: 0...1, seed: 29)
        let engine = InferenceEngine(network: network, imagesPerChunk: 4)
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
