import Dispatch
import Foundation
import StrokeImage
import StrokeKit
import StrokeModelFile
import StrokeNN
import Testing

@Suite struct ShapeClassifierTests {
    /// Softmax in Double, the textbook way: the independent computation for the classifier's.
    func softmax(_ logits: ArraySlice<Float>) -> [Double] {
        let largest = Double(logits.max()!)
        let exponentials = logits.map { Foundation.exp(Double($0) - largest) }
        let sum = exponentials.reduce(0, +)
        return exponentials.map { $0 / sum }
    }

    @Test func classifyEqualsNetworkForwardAndSoftmax() throws {
        let model = Fixtures.model()
        let classifier = ShapeClassifier(model: model)
        let images = Fixtures.images(count: 20, seed: 11)
        let logits = model.network.forward(Fixtures.inputTensor(images), training: false).values
        let classCount = Fixtures.classes.count
        for (index, image) in images.enumerated() {
            let result = try classifier.classify(image)
            let expected = softmax(logits[index * classCount ..< (index + 1) * classCount])
            let best = expected.indices.max { expected[$0] < expected[$1] }!
            #expect(result.label == Fixtures.classes[best], "image \(index)")
            #expect(abs(Double(result.confidence) - expected[best]) <= 1e-6, "image \(index)")
            for (classIndex, label) in Fixtures.classes.enumerated() {
                let found = try #require(result.probabilities[label])
                #expect(abs(Double(found) - expected[classIndex]) <= 1e-6,
                        "image \(index) class \(label): expected \(expected[classIndex]) but saw \(found), tolerance 1e-6")
            }
            #expect(!result.isRejected, "no reject rule in this model")
        }
    }

    @Test func batchResultsEqualSingleResults() throws {
        let classifier = ShapeClassifier(model: Fixtures.model())
        // 150 images: several full batches and a partial one.
        let images = Fixtures.images(count: 150, seed: 12)
        #expect(images.count > ShapeClassifier.maximumBatch && images.count % ShapeClassifier.maximumBatch != 0)
        let batch = try classifier.classify(images: images)
        #expect(batch.count == images.count)
        for (index, image) in images.enumerated() {
            let single = try classifier.classify(image)
            #expect(batch[index].label == single.label, "image \(index)")
            for (label, probability) in single.probabilities {
                let found = try #require(batch[index].probabilities[label])
                #expect(abs(found - probability) <= 1e-6,
                        "image \(index) class \(label): single \(probability), batch \(found), tolerance 1e-6")
            }
        }
        #expect(try classifier.classify(images: []).isEmpty)
    }

    @Test func concurrentClassificationEqualsSequential() throws {
        let classifier = ShapeClassifier(model: Fixtures.model())
        let images = Fixtures.images(count: 200, seed: 13)
        let sequential = try images.map { try classifier.classify($0) }

        let taskCount = 8
        // Each task writes only its own row, so the rows need no lock.
        let results = UnsafeMutableBufferPointer<Classification?>.allocate(capacity: taskCount * images.count)
        results.initialize(repeating: nil)
        defer { results.deallocate() }
        nonisolated(unsafe) let shared = results
        DispatchQueue.concurrentPerform(iterations: taskCount) { task in
            // Each task starts at a different image, so different images run at the same time.
            for step in 0..<images.count {
                let index = (step + task * 25) % images.count
                shared[task * images.count + index] = try? classifier.classify(images[index])
            }
        }
        for task in 0..<taskCount {
            for index in images.indices {
                #expect(results[task * images.count + index] == sequential[index], "task \(task), image \(index)")
            }
        }
    }

    @Test func concurrentBatchClassificationEqualsSequential() throws {
        let classifier = ShapeClassifier(model: Fixtures.model())
        let images = Fixtures.images(count: 100, seed: 14)
        let sequential = try classifier.classify(images: images)
        let taskCount = 4
        let results = UnsafeMutableBufferPointer<[Classification]>.allocate(capacity: taskCount)
        results.initialize(repeating: [])
        defer { results.deallocate() }
        nonisolated(unsafe) let shared = results
        DispatchQueue.concurrentPerform(iterations: taskCount) { task in
            shared[task] = (try? classifier.classify(images: images)) ?? []
        }
        for task in 0..<taskCount { #expect(results[task] == sequential, "task \(task)") }
    }

    @Test func rejectsBelowMinimumConfidence() throws {
        let image = Fixtures.images(count: 1, seed: 15)[0]
        let plain = try ShapeClassifier(model: Fixtures.model()).classify(image)
        let above = ShapeClassifier(model: Fixtures.model(extra: [RejectRule.minimumConfidenceKey: String(plain.confidence + 0.001)]))
        let below = ShapeClassifier(model: Fixtures.model(extra: [RejectRule.minimumConfidenceKey: String(plain.confidence - 0.001)]))
        let rejected = try above.classify(image)
        #expect(rejected.isRejected, "confidence \(plain.confidence) is below \(plain.confidence + 0.001)")
        #expect(rejected.label == plain.label && rejected.confidence == plain.confidence)
        #expect(try !below.classify(image).isRejected, "confidence \(plain.confidence) is above \(plain.confidence - 0.001)")
    }

    @Test func backgroundClassPredictionIsRejectedWithBestShapeLabel() throws {
        let model = Fixtures.model(classes: ["arrow", "none", "cycle"])
        // A large bias on the output for "none" makes it win for every drawing.
        let outputBias = try #require(model.network.parameters.last)
        #expect(outputBias.name == "dense2.bias")
        outputBias.value.values[1] = 20
        let classifier = ShapeClassifier(model: model)
        #expect(classifier.rejectRule.backgroundClasses == [1])
        for (index, image) in Fixtures.images(count: 10, seed: 16).enumerated() {
            let result = try classifier.classify(image)
            let arrow = try #require(result.probabilities["arrow"])
            let none = try #require(result.probabilities["none"])
            let cycle = try #require(result.probabilities["cycle"])
            #expect(none > max(arrow, cycle), "image \(index): 'none' should win")
            #expect(result.isRejected, "image \(index)")
            #expect(result.label == (arrow >= cycle ? "arrow" : "cycle"), "image \(index)")
            #expect(result.confidence == max(arrow, cycle), "image \(index): confidence is the reported label's")
        }
    }

    @Test func classifyRejectsImagesOfAnotherSize() throws {
        let classifier = ShapeClassifier(model: Fixtures.model())
        let large = GrayImage(width: 32, height: 28)
        let error = try #require(throws: ClassifierError.self) { try classifier.classify(large) }
        #expect(error == .imageSizeMismatch(index: nil, width: 32, height: 28, expectedSide: 28))
        #expect(error.description.contains("aspect-fit"), "\(error)")
        let images = Fixtures.images(count: 3, seed: 17) + [large]
        #expect(throws: ClassifierError.imageSizeMismatch(index: 3, width: 32, height: 28, expectedSide: 28)) {
            try classifier.classify(images: images)
        }
    }

    @Test func classifierKeepsItsOwnCopyOfTheParameters() throws {
        let model = Fixtures.model()
        let classifier = ShapeClassifier(model: model)
        let image = Fixtures.images(count: 1, seed: 18)[0]
        let before = try classifier.classify(image)
        for parameter in model.network.parameters { parameter.value.zero() }
        #expect(try classifier.classify(image) == before)
    }

    @Test func classifierLoadedFromFileMatchesTheModel() throws {
        let model = Fixtures.model()
        let images = Fixtures.images(count: 5, seed: 19)
        try Fixtures.withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("model.safetensors")
            try model.write(to: url)
            let loaded = try ShapeClassifier(contentsOf: url)
            #expect(loaded.classes == Fixtures.classes)
            #expect(loaded.metadata == model.metadata)
            #expect(try loaded.classify(images: images) == ShapeClassifier(model: model).classify(images: images))
        }
    }

    @Test func bundledDefaultModelRecognisesPlainShapes() throws {
        // The bundled model (Sources/StrokeKit/Resources) is a real, trained one: it knows the
        // three shapes plus the reject class, and reads plainly drawn strokes correctly.
        let classifier = try ShapeClassifier.bundledDefault()
        #expect(Array(classifier.classes.prefix(3)) == ["arrow", "circle", "cycle"])
        #expect(classifier.rejectRule.backgroundClasses == Set(classifier.classes.indices.filter { classifier.classes[$0] == "none" }))
        let circle = Stroke((0...72).map { step in
            let angle = Double(step) / 72 * 2 * Double.pi
            return (300 + 120 * cos(angle), 200 + 100 * sin(angle))
        })
        let arrow = Stroke([(0, 0), (100, 4), (200, 8), (300, 12), (270, -15), (300, 12), (268, 38)])
        #expect(try classifier.classify(circle).label == "circle")
        #expect(try classifier.classify(arrow).label == "arrow")
    }
}

@Suite struct ModelInputTests {
    @Test func everyLevelIsItsValueTimesTheScale() {
        for level in 0...255 {
            #expect(ModelInput.value(ofLevel: UInt8(level)) == Float(level) * (1 / 255 as Float), "level \(level)")
        }
        let pixels = (0..<784).map { UInt8($0 % 256) }
        var buffer = [Float](repeating: -1, count: 784)
        pixels.withUnsafeBufferPointer { source in
            buffer.withUnsafeMutableBufferPointer { ModelInput.fill(pixels: source, into: $0.baseAddress!) }
        }
        #expect(buffer == pixels.map { Float($0) * ModelInput.scale })
    }
}
