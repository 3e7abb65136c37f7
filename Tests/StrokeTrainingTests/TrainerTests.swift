import Foundation
import Testing
import StrokeData
import StrokeImage
import StrokeKit
import StrokeNN
import StrokeTensor
import StrokeTraining
import TestSupport
import StrokeSupport

/// Small, fixed, learnable images: horizontal bars, vertical bars and boxes at random
/// positions, 28x28 white on black.
func barsAndBoxes(count: Int, seed: UInt64) -> LabeledExamples {
    var generator = SeededGenerator(seed: seed)
    var examples = LabeledExamples(images: [], labels: [], sources: [])
    for index in 0..<count {
        let label = index % 3
        var image = GrayImage(width: 28, height: 28)
        let offset = 4 + Int(generator.next() % 16), start = 3 + Int(generator.next() % 6)
        for step in 0..<18 {
            switch label {
            case 0: image[start + step, offset] = 255                     // horizontal bar
            case 1: image[offset, start + step] = 255                     // vertical bar
            default:                                                     // box outline
                let side = 4 + step % 8
                image[start + side, start] = 255
                image[start, start + side] = 255
            }
        }
        examples.images.append(image)
        examples.labels.append(label)
        examples.sources.append("synthetic-\(index)")
    }
    return examples
}

@Suite struct TrainerTests {
    func configuration(epochs: Int, seed: UInt64 = 0, workers: Int = 2) -> TrainingConfiguration {
        var configuration = TrainingConfiguration()
        configuration.architecture = try! ArchitectureSpec(parsing: "c8-p-c16-p-d32")
        configuration.epochs = epochs
        configuration.batchSize = 16
        configuration.seed = seed
        configuration.workers = workers
        return configuration
    }

    @Test func trainingReachesNinetyNinePercentOnASmallFixedSet() throws {
        let examples = barsAndBoxes(count: 96, seed: 1)
        let trainer = try Trainer(configuration: configuration(epochs: 25), classes: ["h", "v", "box"])
        let result = try trainer.train(examples, validation: nil)
        let scores = Evaluator.score(result.network, on: examples)
        #expect(scores.accuracy >= 0.99, "train accuracy \(scores.accuracy) after 25 epochs, expected >= 0.99")
        #expect(result.history.count == 25)
        #expect(result.history.last!.trainLoss < result.history.first!.trainLoss, "loss did not decrease")
    }

    @Test(arguments: [1, 2])
    func sameSeedGivesIdenticalWeights(workers: Int) throws {
        let examples = barsAndBoxes(count: 40, seed: 2)
        func weights(seed: UInt64) throws -> [[Float]] {
            let trainer = try Trainer(configuration: configuration(epochs: 2, seed: seed, workers: workers),
                                      classes: ["h", "v", "box"])
            return try trainer.train(examples, validation: nil).network.parameters.map(\.value.values)
        }
        #expect(try weights(seed: 5) == weights(seed: 5), "same seed, \(workers) workers: weights differ")
        #expect(try weights(seed: 5) != weights(seed: 6), "different seeds gave identical weights")
    }

    @Test func divergingTrainingStopsWithAClearError() throws {
        // Adam moves every weight by about ±learningRate per step: weights overflow to ±inf
        // within a few steps, 0 · inf = NaN reaches the logits and the loss. (Through ReLU
        // alone NaN would not survive: max(0, NaN) is 0; the last dense layer has no ReLU.)
        var diverging = configuration(epochs: 3)
        diverging.learningRate = 1e38
        let trainer = try Trainer(configuration: diverging, classes: ["h", "v", "box"])
        #expect {
            _ = try trainer.train(barsAndBoxes(count: 48, seed: 3), validation: nil)
        } throws: { error in
            guard case TrainingError.nonFiniteLoss = error else { return false }
            return "\(error)".contains("lower --learning-rate")
        }
    }

    @Test func bestValidationWeightsAreKeptAndPatienceStopsEarly() throws {
        var early = configuration(epochs: 30)
        early.patience = 2
        let trainer = try Trainer(configuration: early, classes: ["h", "v", "box"])
        // Validation labels are shuffled, so validation accuracy plateaus and patience acts.
        var validation = barsAndBoxes(count: 30, seed: 5)
        var generator = SeededGenerator(seed: 6)
        validation.labels.shuffle(using: &generator)
        let result = try trainer.train(barsAndBoxes(count: 60, seed: 4), validation: validation)
        let best = result.history.max { ($0.validationAccuracy!, -$0.validationLoss!) < ($1.validationAccuracy!, -$1.validationLoss!) }!
        #expect(result.bestEpoch == best.epoch)
        #expect(result.history.count < 30, "patience 2 should stop before 30 epochs")
        #expect(result.history.count >= result.bestEpoch + 2)
        // The returned network holds the best epoch's weights: its validation score is that epoch's.
        #expect(abs(Evaluator.score(result.network, on: validation).accuracy - best.validationAccuracy!) < 1e-9)
    }

    @Test func invalidConfigurationsAreRejected() {
        for change in [{ (c: inout TrainingConfiguration) in c.epochs = 0 }, { $0.batchSize = 0 },
                       { $0.learningRate = -1 }, { $0.workers = 0 }, { $0.patience = 0 }] {
            var bad = configuration(epochs: 1)
            change(&bad)
            #expect(throws: TrainingError.self) { try Trainer(configuration: bad, classes: ["a", "b"]) }
        }
        #expect(throws: TrainingError.emptyTrainingSet) {
            try Trainer(configuration: configuration(epochs: 1), classes: ["a", "b", "c"])
                .train(LabeledExamples(images: [], labels: [], sources: []), validation: nil)
        }
    }

    @Test
    func shortTrainingOnTheRealDatasetLearns() throws {
        let dataset = try LabeledImageDataset(root: ProjectDataset.automataShapes)
        let split = try dataset.stratifiedSplit(validationFraction: 0.2, seed: 0)
        func examples(_ indices: [Int]) -> LabeledExamples {
            LabeledExamples(images: indices.map { dataset.samples[$0].image },
                            labels: indices.map { dataset.samples[$0].classIndex },
                            sources: indices.map { dataset.samples[$0].url.path })
        }
        var short = TrainingConfiguration()
        short.epochs = 4
        let result = try Trainer(configuration: short, classes: dataset.classes)
            .train(examples(split.train), validation: examples(split.validation))
        #expect(result.validationAccuracy! >= 0.9, "validation accuracy \(result.validationAccuracy!) after 4 epochs")
    }
}

@Suite struct EvaluationTests {
    @Test func metricsMatchAHandComputedExample() {
        // true:      a a a b b c
        // predicted: a a b b c c
        let pairs = [(0, 0), (0, 0), (0, 1), (1, 1), (1, 2), (2, 2)]
        let evaluation = Evaluation(classes: ["a", "b", "c"], predictions: pairs.enumerated().map { index, pair in
            Prediction(source: "\(index)", trueClass: pair.0, predictedClass: pair.1, confidence: 0.5 + Float(index) / 20,
                       probabilities: [0.3, 0.3, 0.4])
        })
        #expect(evaluation.confusionMatrix == [[2, 1, 0], [0, 1, 1], [0, 0, 1]])
        #expect(abs(evaluation.accuracy - 4.0 / 6) < 1e-12)
        let b = evaluation.perClass[1]
        #expect(abs(b.precision - 0.5) < 1e-12 && abs(b.recall - 0.5) < 1e-12 && b.support == 2)
        let c = evaluation.perClass[2]
        #expect(abs(c.precision - 0.5) < 1e-12 && c.recall == 1 && abs(c.f1 - 2.0 / 3) < 1e-12)
        #expect(evaluation.misclassified.map(\.source) == ["2", "4"])
        let json = evaluation.jsonObject()
        // Classes a, b, c are lowercase letters, so the character groups' figures are there too.
        #expect(Set(json.keys) == ["classes", "count", "accuracy", "per_class", "confusion_matrix", "misclassified",
                                   "top3_accuracy", "groups", "look_alike_accuracy"])
        #expect(Set(Evaluation(classes: ["arrow", "circle"], predictions: []).jsonObject().keys)
                == ["classes", "count", "accuracy", "per_class", "confusion_matrix", "misclassified", "top3_accuracy"])
        #expect(evaluation.textReport().contains("accuracy: 66.7% (4/6)"))
    }
}
