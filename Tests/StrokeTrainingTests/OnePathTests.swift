import Foundation
import Testing
import StrokeImage
import StrokeKit
import StrokeTraining

/// One path from drawing to decision: strokes classified by the library, the same drawing as
/// an image (and as a PNG file read back), and what `strokekit evaluate --strokes` scores for
/// it, give bit-identical probabilities and the same reject decision.
@Suite struct OnePathTests {
    @Test func strokesImagePNGAndEvaluateGiveBitIdenticalProbabilities() throws {
        let classifier = try ShapeClassifier.bundledDefault()
        let model = try TrainedModel.load(contentsOf: ShapeClassifier.bundledModelURL())
        let classes = model.metadata.classes
        let drawings = try StrokeExamples.synthesize(kinds: ["arrow", "circle", "cycle", "none"], count: 4, seed: 11)
        for drawing in drawings {
            let name = drawing.keyID ?? "?"
            let fromStrokes = try classifier.classify(drawing.strokes)
            let image = Rasterizer().rasterize(drawing.strokes)
            let fromImage = try classifier.classify(image)
            let png = try PNG.decode(PNG.encode(image), source: name)
            let fromPNG = try classifier.classify(ImagePreparation.prepare(png, invert: .no, source: name).image)
            // What `evaluate --strokes` runs, on a corpus of this one drawing.
            let conversion = try StrokeExamples.examples(from: [drawing], source: name, classes: classes)
            let evaluated = Evaluator.evaluate(model.network, on: conversion.examples, classes: classes,
                                               rejectRule: classifier.rejectRule).predictions[0]

            let strokeProbabilities = classes.map { fromStrokes.probabilities[$0]! }
            #expect(strokeProbabilities.map(\.bitPattern) == classes.map { fromImage.probabilities[$0]!.bitPattern },
                    "\(name): classify(strokes) \(strokeProbabilities) vs classify(image) \(fromImage.probabilities)")
            #expect(strokeProbabilities.map(\.bitPattern) == classes.map { fromPNG.probabilities[$0]!.bitPattern },
                    "\(name): classify(strokes) vs the PNG read back")
            #expect(strokeProbabilities.map(\.bitPattern) == evaluated.probabilities.map(\.bitPattern),
                    "\(name): classify(strokes) \(strokeProbabilities) vs evaluate --strokes \(evaluated.probabilities)")
            #expect(fromStrokes.isRejected == evaluated.isRejected, "\(name): the same reject decision")
        }
    }
}
