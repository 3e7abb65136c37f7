import Foundation
import Testing
import StrokeData
import StrokeImage
import StrokeNN
import StrokeTraining
import TestSupport

/// Resumable training: a run interrupted anywhere and resumed from its checkpoint ends with
/// bitwise the weights of an uninterrupted run.
@Suite struct CheckpointTests {
    func configuration() -> TrainingConfiguration {
        var configuration = TrainingConfiguration()
        configuration.architecture = try! ArchitectureSpec(parsing: "c4-p-dr0.3-d16-dr0.2")
        configuration.epochs = 3
        configuration.batchSize = 8
        configuration.seed = 9
        configuration.workers = 2
        configuration.augmentation = ImageAugmentation.default
        return configuration
    }

    /// Counts batches and asks to stop after `limit` of them (thread-safe: the trainer polls
    /// from its own thread).
    final class StopAfter: @unchecked Sendable {
        private let lock = NSLock()
        private var batches = 0
        let limit: Int
        init(_ limit: Int) { self.limit = limit }
        func poll() -> Bool {
            lock.lock(); defer { lock.unlock() }
            batches += 1
            return batches == limit
        }
    }

    @Test(arguments: [1, 5, 7, 12])
    func resumedRunEqualsUninterruptedRunBitwise(stopAfterBatches: Int) throws {
        let train = barsAndBoxes(count: 48, seed: 21), validation = barsAndBoxes(count: 12, seed: 22)
        let trainer = try Trainer(configuration: configuration(), classes: ["h", "v", "box"])
        let reference = try trainer.train(train, validation: validation)

        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("run.checkpoint")
        let stopper = StopAfter(stopAfterBatches)
        let checkpointing = Checkpointing(url: url, context: ["note": "test"], interruptRequested: { stopper.poll() })
        #expect(throws: TrainingError.self) { _ = try trainer.train(train, validation: validation, checkpointing: checkpointing) }
        let checkpoint = try TrainingCheckpoint.read(contentsOf: url)
        #expect(checkpoint.context["note"] == "test")
        #expect((checkpoint.epoch - 1) * 6 + checkpoint.batchesDone == stopAfterBatches, "6 batches an epoch")

        let resumed = try trainer.train(train, validation: validation, checkpointing: Checkpointing(url: url),
                                        resumingFrom: checkpoint)
        for (a, b) in zip(reference.network.parameters, resumed.network.parameters) {
            #expect(a.value.values.map(\.bitPattern) == b.value.values.map(\.bitPattern), "\(a.name) differs after resuming")
        }
        #expect(resumed.bestEpoch == reference.bestEpoch)
        #expect(resumed.history.map(\.trainLoss) == reference.history.map(\.trainLoss))
    }

    @Test func checkpointOfAnotherRunIsRefused() throws {
        let train = barsAndBoxes(count: 24, seed: 1)
        let trainer = try Trainer(configuration: configuration(), classes: ["h", "v", "box"])
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("run.checkpoint")
        _ = try trainer.train(train, validation: nil, checkpointing: Checkpointing(url: url))
        let checkpoint = try TrainingCheckpoint.read(contentsOf: url)
        #expect(checkpoint.epoch == 4 && checkpoint.history.count == 3, "written after the last epoch")
        #expect(throws: TrainingError.checkpointMismatch(path: url.path)) {
            _ = try trainer.train(barsAndBoxes(count: 24, seed: 2), validation: nil,
                                  checkpointing: Checkpointing(url: url), resumingFrom: checkpoint)
        }
    }

    @Test func aModelFileIsNotACheckpoint() throws {
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("garbage.checkpoint")
        try Data("not a checkpoint".utf8).write(to: url)
        #expect(throws: (any Error).self) { try TrainingCheckpoint.read(contentsOf: url) }
    }
}
