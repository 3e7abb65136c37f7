import Foundation
import StrokeImage
import StrokeKit
import StrokeModelFile
import Testing

/// How a classifier frames strokes: by its model file's `strokekit.input.framing`.
@Suite struct CharacterFrameClassifierTests {
    let strokes = [Stroke([(0, 0), (2, 6), (4, 0)]), Stroke([(1, 3), (3, 3)])]
    let framedExtra = [ModelMetadata.Key.inputFraming: "reference-height:18"]

    @Test func aFramedModelRasterizesWithinTheFrame() throws {
        let model = Fixtures.model(extra: framedExtra)
        #expect(model.framing == .referenceHeight(pixels: 18))
        let classifier = ShapeClassifier(model: model)
        #expect(classifier.framing == .referenceHeight(pixels: 18))
        let rasterizer = Rasterizer()
        for height in [6.0, 12, 30] {
            let frame = CharacterFrame(height: height)
            let image = rasterizer.rasterize(strokes, framing: classifier.framing, frame: frame)
            #expect(try classifier.classify(strokes, frame: frame) == classifier.classify(image), "frame \(height)")
        }
        // Without a frame, the drawing stands alone: aspect-fit, alone and in a batch.
        let own = try classifier.classify(rasterizer.rasterize(strokes))
        #expect(try classifier.classify(strokes) == own)
        // A batch runs the network on several images at once: the same up to float rounding.
        let batch = try classifier.classify(strokeBatch: [strokes, strokes], frames: [CharacterFrame(height: 12), nil])
        let framedImage = rasterizer.rasterize(strokes, framing: classifier.framing, frame: CharacterFrame(height: 12))
        #expect(batch == (try classifier.classify(images: [framedImage, rasterizer.rasterize(strokes)])))
        for (found, expected) in zip(batch, [try classifier.classify(strokes, frame: CharacterFrame(height: 12)), own]) {
            #expect(found.label == expected.label)
            for (label, probability) in expected.probabilities {
                #expect(abs((found.probabilities[label] ?? -1) - probability) <= 1e-5, "\(label)")
            }
        }
        // The frame matters: a small character in a tall line is a different picture.
        #expect(rasterizer.rasterize(strokes, framing: classifier.framing, frame: CharacterFrame(height: 12))
                != rasterizer.rasterize(strokes, framing: classifier.framing, frame: nil))
    }

    @Test func aModelWithoutFramingIgnoresTheFrame() throws {
        let model = Fixtures.model()
        #expect(model.framing == .aspectFit)
        let classifier = ShapeClassifier(model: model)
        let plain = try classifier.classify(Rasterizer().rasterize(strokes))
        #expect(try classifier.classify(strokes) == plain)
        #expect(try classifier.classify(strokes, frame: CharacterFrame(height: 40)) == plain)
        #expect(try classifier.classify(strokeBatch: [strokes], frames: [CharacterFrame(height: 40)]) == [plain])
    }

    @Test func theFramingSurvivesTheModelFile() throws {
        let model = Fixtures.model(extra: framedExtra)
        let loaded = try TrainedModel.load(bytes: model.file.encode(), source: "framed.safetensors")
        #expect(loaded.framing == .referenceHeight(pixels: 18))
    }

    @Test func anUnknownFramingIsRefusedNamingTheFile() throws {
        let model = Fixtures.model(extra: [ModelMetadata.Key.inputFraming: "reference-height:zero"])
        let bytes = try model.file.encode()
        let error = try #require(throws: ClassifierError.self) {
            try TrainedModel.load(bytes: bytes, source: "odd-framing.safetensors")
        }
        guard case let .unsupportedInput(source, found, _) = error else {
            Issue.record("expected unsupportedInput, got \(error)")
            return
        }
        #expect(source == "odd-framing.safetensors")
        #expect(found.contains("reference-height:zero"), "\(error)")
    }
}
