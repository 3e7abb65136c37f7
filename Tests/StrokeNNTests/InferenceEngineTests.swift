import Testing
import StrokeNN
import StrokeTensor
import TestSupport

/// The fast inference path (`InferenceEngine`: chunked, fused bias/pool/ReLU, transposed
/// dense weights) against the reference path (`Network.forward`, one layer at a time).
@Suite struct InferenceEngineTests {
    /// Largest |fast - reference| over all logits of `batch` random images, for `spec`.
    func largestDifference(spec: String, batch: Int, channels: Int = 1, side: Int = 28, seed: UInt64) throws
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
        let engine = InferenceEngine(network: network)
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
}
