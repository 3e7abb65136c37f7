import Foundation
import Testing
import StrokeData
import StrokeImage
import StrokeKit
import StrokeModelFile
import StrokeNN
import StrokeTraining
import TestSupport

/// The training recipe as library API: classes, reject rule, metadata, cross-validation.
@Suite struct TrainingRecipeTests {
    /// A small in-memory dataset of bars and boxes (see `barsAndBoxes`).
    func dataset(count: Int = 60) -> LabeledImageDataset {
        let examples = barsAndBoxes(count: count, seed: 3)
        return LabeledImageDataset(classes: ["box", "h", "v"], samples: examples.images.indices.map { index in
            .init(url: URL(fileURLWithPath: "/data/\(index).png"), classIndex: (examples.labels[index] + 1) % 3,
                  image: examples.images[index])
        })
    }

    func recipe(negatives: Int = 0, rejectBelow: Float? = nil, epochs: Int = 2) -> TrainingRecipe {
        var configuration = TrainingConfiguration()
        configuration.architecture = try! ArchitectureSpec(parsing: "c4-p-d8")
        configuration.epochs = epochs
        configuration.batchSize = 16
        configuration.workers = 1
        return TrainingRecipe(data: dataset(), configuration: configuration, syntheticPerClass: 0,
                              negatives: negatives, rejectBelow: rejectBelow)
    }

    @Test func negativesAddTheRejectClassAndItsRule() {
        let plain = recipe()
        #expect(plain.classes == ["box", "h", "v"])
        #expect(plain.rejectRule == RejectRule())
        let withNone = recipe(negatives: 10, rejectBelow: 0.5)
        #expect(withNone.classes == ["box", "h", "v", "none"])
        #expect(withNone.rejectRule == RejectRule(minimumConfidence: 0.5, backgroundClasses: [3]))
        #expect(withNone.trainingSet([0, 1, 2], stream: 0).count == 3 + 10)
    }

    @Test func metadataRecordsTheRecipeUnderItsKeys() throws {
        let recipe = recipe(negatives: 5, rejectBelow: 0.25)
        let result = try Trainer(configuration: recipe.configuration, classes: recipe.classes)
            .train(recipe.trainingSet(Array(0..<30), stream: 0), validation: recipe.data.examples(Array(30..<60)))
        let metadata = recipe.metadata(for: result, created: Date(timeIntervalSince1970: 0))
        #expect(metadata.classes == recipe.classes)
        #expect(metadata.architecture == "c4-p-d8")
        #expect(metadata.extra[ModelMetadata.Key.rejectMinimumConfidence] == "0.25")
        #expect(metadata.extra[ModelMetadata.Key.syntheticNegatives] == "5")
        #expect(metadata.extra[ModelMetadata.Key.syntheticPerClass] == nil)
        let flags = try #require(metadata.extra[ModelMetadata.Key.trainingRecipe])
        #expect(flags.contains("--epochs 2") && flags.contains("--negatives 5") && flags.contains("--reject-below 0.25"), "\(flags)")
        // The rule read back from the metadata is the recipe's.
        #expect(try RejectRule(metadata: metadata, source: "m") == recipe.rejectRule)
    }

    @Test func crossValidationScoresEverySampleOnceOnHeldOutFolds() throws {
        let recipe = recipe(epochs: 1)
        var finished: [Int] = []
        var labels: Set<String> = []
        let result = try recipe.crossValidate(folds: 3, progress: { label, _ in labels.insert(label) }) {
            finished.append($0.fold)
        }
        #expect(finished == [1, 2, 3])
        #expect(labels == ["fold 1/3", "fold 2/3", "fold 3/3"])
        let sources = result.folds.flatMap { $0.evaluation.predictions.map(\.source) }
        #expect(sources.count == recipe.data.samples.count && Set(sources).count == sources.count,
                "each sample is scored exactly once")
        #expect(result.combined.count == recipe.data.samples.count)
        let mean = result.accuracies.reduce(0, +) / 3
        #expect(abs(result.meanAccuracy - mean) < 1e-12)
    }

    @Test func rejectSummaryCountsShapesAndNonShapes() {
        let rule = RejectRule(minimumConfidence: nil, backgroundClasses: [1])
        func prediction(_ trueClass: Int, rejected: Bool) -> Prediction {
            Prediction(source: "x", trueClass: trueClass, predictedClass: rejected ? 1 : 0, confidence: 0.9,
                       probabilities: [0.1, 0.9], isRejected: rejected)
        }
        let evaluation = Evaluation(classes: ["arrow", "none"], predictions: [
            prediction(0, rejected: false), prediction(0, rejected: true), prediction(1, rejected: true),
        ])
        let extra = Evaluation(classes: ["arrow", "none"], predictions: [prediction(1, rejected: false)])
        let summary = try! #require(RejectSummary(rule: rule, evaluation: evaluation, nonShapes: extra))
        #expect(summary.trueShapeCount == 2 && summary.trueShapesRejected == 1)
        #expect(summary.nonShapeCount == 2 && summary.nonShapesRejected == 1)
        #expect(summary.rule == "class 'none'")
        #expect(RejectSummary(rule: RejectRule(), evaluation: evaluation) == nil, "no reject option, no summary")
    }

    @Test func epochLogWritesOneJSONObjectPerEpoch() throws {
        let directory = try TemporaryDirectory()
        let path = directory.url.appendingPathComponent("log.jsonl").path
        let log = try EpochLog(path: path)
        let record = EpochRecord(epoch: 1, trainLoss: 0.5, trainAccuracy: 0.8, validationLoss: nil,
                                 validationAccuracy: nil, seconds: 1, imagesPerSecond: 100)
        log.append(record)
        log.append(record, fold: "fold 1/2")
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2)
        let second = try #require(try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any])
        #expect(second["fold"] as? String == "fold 1/2" && second["epoch"] as? Int == 1)
        #expect(second["validation_accuracy"] is NSNull)
        #expect(throws: TrainingError.cannotWriteLog(path: "/nonexistent-folder/log.jsonl")) {
            try EpochLog(path: "/nonexistent-folder/log.jsonl")
        }
    }
}
