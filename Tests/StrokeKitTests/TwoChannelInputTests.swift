import Foundation
import StrokeImage
import StrokeKit
import StrokeModelFile
import StrokeNN
import StrokeTensor
import Testing

/// A model of two input channels (`reference-height:18+aspect-fit`): the framed drawing and
/// its aspect-fit shape, drawn by the one rasterizer for training, evaluation and reading.
@Suite struct TwoChannelInputTests {
    let comma = [Stroke([(0, 0), (0.4, 0.1), (0.5, 0.8), (0.1, 1.6)])]
    let twoChannelExtra = [ModelMetadata.Key.inputFraming: "reference-height:18+aspect-fit"]

    /// The plain reference: each channel rasterized alone by its one-channel framing, the
    /// planes concatenated as (1, 2, 28, 28) floats, `Network.forward` and a softmax.
    func referenceProbabilities(_ model: TrainedModel, frame: CharacterFrame?) -> [Float] {
        let rasterizer = Rasterizer()
        let framed = rasterizer.rasterize(comma, framing: .referenceHeight(pixels: 18), frame: frame)
        let shape = rasterizer.rasterize(comma)
        let input = Tensor(shape: [1, 2, 28, 28], values: (framed.pixels + shape.pixels).map { Float($0) / 255 })
        var logits = model.network.forward(input, training: false).values
        logits.withUnsafeMutableBufferPointer { Softmax.apply($0) }
        return logits
    }

    @Test func classifyingStrokesMatchesThePlainTwoChannelReference() throws {
        let model = Fixtures.model(extra: twoChannelExtra, inputChannels: 2)
        let classifier = ShapeClassifier(model: model)
        #expect(classifier.framing == .referenceHeightAndShape(pixels: 18))
        for frame in [CharacterFrame(height: 10), CharacterFrame(height: 2.5), nil] {
            let expected = referenceProbabilities(model, frame: frame)
            let found = try classifier.classify(comma, frame: frame)
            let batch = try classifier.classify(strokeBatch: [comma, comma], frames: [frame, frame])
            for result in [found] + batch {
                for (index, label) in Fixtures.classes.enumerated() {
                    #expect(abs((result.probabilities[label] ?? -1) - expected[index]) <= 1e-5, "\(label), frame \(String(describing: frame))")
                }
            }
            // The image path takes the two planes stacked, as the rasterizer draws them.
            let image = Rasterizer().rasterize(comma, framing: classifier.framing, frame: frame)
            #expect(try classifier.classify(image) == found)
        }
        // The frame reaches channel 0: a small comma in a tall line is another input.
        #expect(referenceProbabilities(model, frame: CharacterFrame(height: 10)) != referenceProbabilities(model, frame: nil))
    }

    @Test func aOneChannelImageIsRefusedByATwoChannelModel() throws {
        let classifier = ShapeClassifier(model: Fixtures.model(extra: twoChannelExtra, inputChannels: 2))
        #expect(throws: ClassifierError.stackedImageSizeMismatch(index: nil, width: 28, height: 28, side: 28, channels: 2)) {
            try classifier.classify(Rasterizer().rasterize(comma))
        }
    }

    @Test func theChannelsSurviveTheModelFileAndMustMatchTheFraming() throws {
        let model = Fixtures.model(extra: twoChannelExtra, inputChannels: 2)
        let loaded = try TrainedModel.load(bytes: model.file.encode(), source: "two.safetensors")
        #expect(loaded.framing == .referenceHeightAndShape(pixels: 18))
        #expect(loaded.network.inputChannels == 2 && loaded.metadata.input.channels == 2)
        // A two-channel framing over a one-channel network, and the other way round: refused, naming the file.
        for (extra, channels) in [(twoChannelExtra, 1), ([ModelMetadata.Key.inputFraming: "reference-height:18"], 2)] {
            let bytes = try Fixtures.model(extra: extra, inputChannels: channels).file.encode()
            let error = try #require(throws: ClassifierError.self) { try TrainedModel.load(bytes: bytes, source: "mismatch.safetensors") }
            guard case let .unsupportedInput(source, _, _) = error else {
                Issue.record("expected unsupportedInput, got \(error)")
                continue
            }
            #expect(source == "mismatch.safetensors")
        }
    }

    /// Three channels (`reference-height:18+aspect-fit+pen-order`): the classifier against the
    /// plain reference, the three one-channel planes concatenated and `Network.forward`.
    @Test func classifyingStrokesWithThePenOrderMatchesThePlainThreeChannelReference() throws {
        let model = Fixtures.model(extra: [ModelMetadata.Key.inputFraming: "reference-height:18+aspect-fit+pen-order"],
                                   inputChannels: 3)
        let loaded = try TrainedModel.load(bytes: model.file.encode(), source: "three.safetensors")
        #expect(loaded.framing == .referenceHeightShapeAndPenOrder(pixels: 18) && loaded.network.inputChannels == 3)
        let classifier = ShapeClassifier(model: loaded)
        let rasterizer = Rasterizer()
        for frame in [CharacterFrame(height: 10), nil] {
            let planes = rasterizer.rasterize(comma, framing: .referenceHeight(pixels: 18), frame: frame).pixels
                + rasterizer.rasterize(comma).pixels + rasterizer.rasterize(comma, framing: .penOrder, frame: frame).pixels
            var logits = loaded.network.forward(Tensor(shape: [1, 3, 28, 28], values: planes.map { Float($0) / 255 }),
                                                training: false).values
            logits.withUnsafeMutableBufferPointer { Softmax.apply($0) }
            let found = try classifier.classify(comma, frame: frame)
            for (index, label) in Fixtures.classes.enumerated() {
                #expect(abs((found.probabilities[label] ?? -1) - logits[index]) <= 1e-5, "\(label)")
            }
        }
        // The pen's order reaches the input: the comma drawn backwards is another input.
        let backwards = [Stroke(points: comma[0].points.reversed())]
        #expect(try classifier.classify(backwards, frame: nil).probabilities != classifier.classify(comma, frame: nil).probabilities)
    }
}
