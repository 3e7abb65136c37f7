import Foundation
import Testing
import StrokeData
import StrokeKit
import StrokeModelFile
import StrokeNN
import StrokeTraining
import TestSupport

/// Knowledge distillation in the trainer: a teacher that cannot teach is a clear error
/// naming it, a weight of 0 trains exactly as labels alone do, runs are reproducible with
/// two workers (one teacher engine each), and cross-validation never uses a teacher that
/// has seen the held-out fold.
@Suite struct DistillationTests {
    let classes = ["h", "v", "box"]

    func configuration(epochs: Int = 2, workers: Int = 2) -> TrainingConfiguration {
        var configuration = TrainingConfiguration()
        configuration.architecture = try! ArchitectureSpec(parsing: "c8-p-c16-p-d32")
        configuration.epochs = epochs
        configuration.batchSize = 16
        configuration.workers = workers
        configuration.augmentation = ImageAugmentation.default
        return configuration
    }

    /// A small trained teacher (another architecture than the student's).
    func teacher(classes: [String]? = nil) throws -> Teacher {
        var setup = configuration(epochs: 3)
        setup.architecture = try ArchitectureSpec(parsing: "c8-p-d16")
        let result = try Trainer(configuration: setup, classes: classes ?? self.classes)
            .train(barsAndBoxes(count: 48, seed: 11), validation: nil)
        return Teacher(network: result.network, classes: classes ?? self.classes, source: "in-memory teacher")
    }

    @Test func teacherWithOtherClassesIsAClearErrorNamingTheFile() throws {
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("other-classes.safetensors")
        let network = try Network(architecture: ArchitectureSpec(parsing: "c4-p-d8"), classCount: 3)
        network.initializeParameters(seed: 1)
        try TrainedModel(network: network, metadata: TrainedModel.metadata(for: network, classes: ["h", "box", "v"]))
            .write(to: url)
        var distilling = configuration()
        distilling.distillation = Distillation(teacher: try Teacher(contentsOf: url))
        #expect {
            _ = try Trainer(configuration: distilling, classes: classes)
        } throws: { error in
            guard case TrainingError.teacherMismatch = error else { return false }
            let message = "\(error)"
            return message.contains(url.path) && message.contains("[\"h\", \"box\", \"v\"]")
        }
    }

    @Test func teacherWithAnotherInputShapeIsAClearErrorNamingIt() throws {
        // In memory: the trainer's own check.
        let wide = try Network(architecture: ArchitectureSpec(parsing: "c4-p-d8"), classCount: 3,
                               inputChannels: 1, inputHeight: 32, inputWidth: 32)
        var distilling = configuration()
        distilling.distillation = Distillation(teacher: Teacher(network: wide, classes: classes, source: "wide teacher"))
        #expect {
            _ = try Trainer(configuration: distilling, classes: classes)
        } throws: { error in
            "\(error)".contains("wide teacher") && "\(error)".contains("1x32x32")
        }
        // From a file: the model loader refuses it, naming the file.
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("wide.safetensors")
        try TrainedModel(network: wide, metadata: TrainedModel.metadata(for: wide, classes: classes)).write(to: url)
        #expect { _ = try Teacher(contentsOf: url) } throws: { "\($0)".contains(url.path) }
    }

    @Test(arguments: [1, 2])
    func zeroWeightTrainsExactlyAsLabelsAlone(workers: Int) throws {
        let examples = barsAndBoxes(count: 40, seed: 2)
        let plain = try Trainer(configuration: configuration(workers: workers), classes: classes)
            .train(examples, validation: nil)
        var silent = configuration(workers: workers)
        silent.distillation = Distillation(teacher: try teacher(), weight: 0)
        let distilled = try Trainer(configuration: silent, classes: classes).train(examples, validation: nil)
        #expect(distilled.network.parameters.map(\.value.values) == plain.network.parameters.map(\.value.values),
                "\(workers) workers: a teacher with weight 0 changed the weights")
        #expect(distilled.history.map(\.trainLoss) == plain.history.map(\.trainLoss))
    }

    @Test func distillationIsReproducibleWithTwoWorkersAndChangesTheWeights() throws {
        let examples = barsAndBoxes(count: 40, seed: 2)
        var distilling = configuration(workers: 2)
        distilling.distillation = Distillation(teacher: try teacher(), weight: 0.7, temperature: 2)
        func weights() throws -> [[Float]] {
            try Trainer(configuration: distilling, classes: classes).train(examples, validation: nil)
                .network.parameters.map(\.value.values)
        }
        let plain = try Trainer(configuration: configuration(workers: 2), classes: classes).train(examples, validation: nil)
        #expect(try weights() == weights(), "same teacher, same seed, 2 workers: weights differ")
        #expect(try weights() != plain.network.parameters.map(\.value.values), "the teacher changed nothing")
    }

    @Test func crossValidationTrainsOneTeacherPerFoldAndRefusesAFixedOne() throws {
        let examples = barsAndBoxes(count: 45, seed: 3)
        let data = LabeledImageDataset(classes: classes, samples: examples.images.indices.map { index in
            .init(url: URL(fileURLWithPath: "/data/\(index).png"), classIndex: examples.labels[index],
                  image: examples.images[index])
        })
        var fixed = configuration(epochs: 1, workers: 1)
        fixed.distillation = Distillation(teacher: try teacher())
        #expect { _ = try TrainingRecipe(data: data, configuration: fixed).crossValidate(folds: 3) } throws: { error in
            "\(error)".contains("in-memory teacher") && "\(error)".contains("leak")
        }
        let recipe = TrainingRecipe(
            data: data, configuration: configuration(epochs: 1, workers: 1),
            teacherRecipe: .init(architecture: try ArchitectureSpec(parsing: "c8-p-d16"), weight: 0.5))
        var labels: [String] = []
        _ = try recipe.crossValidate(folds: 3, progress: { label, progress in
            if case .epoch = progress { labels.append(label) }
        })
        #expect(labels == ["fold 1/3 teacher", "fold 1/3", "fold 2/3 teacher", "fold 2/3", "fold 3/3 teacher", "fold 3/3"])
        #expect(recipe.flags.contains("--teacher-arch c8-p-d16 --distill-weight 0.5"), "\(recipe.flags)")
    }
}
