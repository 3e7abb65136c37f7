import Foundation
import StrokeModelFile
import StrokeOptimizers

/// Everything a training run needs to continue exactly where it stopped: the weights, the
/// optimizer's moments, where in which epoch it was, the epoch's running figures, the best
/// weights so far, the dropout generators' states and the history. Resuming from it gives
/// bitwise the weights an uninterrupted run with the same configuration gives.
///
/// Stored as a safetensors file (F32, checksummed like a model) with
/// `strokekit.format = strokekit-checkpoint`; written atomically, so a run killed while
/// writing leaves the previous checkpoint intact.
public struct TrainingCheckpoint: Sendable, Equatable {
    /// The value of `strokekit.format` in a checkpoint.
    public static let formatName = "strokekit-checkpoint"
    public static let formatVersion = 1

    /// The epoch in progress (1-based)…
    public var epoch: Int
    /// …and how many of its batches are done (0: the epoch has not started).
    public var batchesDone: Int
    /// Running sums of the epoch in progress (for its `EpochRecord`).
    public var epochLossSum: Double
    public var epochCorrect: Int
    public var epochSeen: Int
    public var epochSeconds: Double
    /// The finished epochs.
    public var history: [EpochRecord]
    /// Master weights, in parameter order.
    public var weights: [[Float]]
    public var optimizer: OptimizerState
    /// The best epoch so far with its validation accuracy, loss and weights.
    public var best: Best?
    public var epochsWithoutImprovement: Int
    public var trainingSeconds: Double
    /// Dropout generator states, per replica then per dropout layer.
    public var dropoutStates: [UInt64]
    /// Identifies the training and validation sets and the configuration: a checkpoint only
    /// resumes the run that wrote it.
    public var runFingerprint: String
    /// Whatever the caller keeps with the run (the CLI: its arguments), `strokekit.checkpoint.context.*`.
    public var context: [String: String]

    public struct Best: Sendable, Equatable {
        public var epoch: Int
        public var accuracy: Double
        public var loss: Double
        public var weights: [[Float]]
    }

    // MARK: - File

    private enum Key {
        static let prefix = "strokekit.checkpoint."
        static let epoch = prefix + "epoch", batchesDone = prefix + "batches_done"
        static let lossSum = prefix + "epoch_loss_sum", correct = prefix + "epoch_correct"
        static let seen = prefix + "epoch_seen", epochSeconds = prefix + "epoch_seconds"
        static let history = prefix + "history", optimizerSteps = prefix + "optimizer_steps"
        static let optimizerBuffers = prefix + "optimizer_buffers"
        static let bestEpoch = prefix + "best_epoch", bestAccuracy = prefix + "best_accuracy"
        static let bestLoss = prefix + "best_loss", stale = prefix + "epochs_without_improvement"
        static let trainingSeconds = prefix + "training_seconds", dropout = prefix + "dropout_states"
        static let fingerprint = prefix + "run_fingerprint", context = prefix + "context."
    }

    /// Writes the checkpoint atomically to `url`.
    public func write(to url: URL) throws {
        var tensors: [NamedTensor] = []
        for (index, values) in weights.enumerated() {
            tensors.append(NamedTensor(name: "weights.\(index)", shape: [values.count], values: values))
        }
        for (index, values) in (best?.weights ?? []).enumerated() {
            tensors.append(NamedTensor(name: "best.\(index)", shape: [values.count], values: values))
        }
        for (index, values) in optimizer.buffers.enumerated() {
            tensors.append(NamedTensor(name: "optimizer.\(index)", shape: [values.count], values: values))
        }
        var metadata: [String: String] = [
            ModelMetadata.Key.format: Self.formatName, ModelMetadata.Key.formatVersion: String(Self.formatVersion),
            Key.epoch: String(epoch), Key.batchesDone: String(batchesDone), Key.lossSum: String(epochLossSum),
            Key.correct: String(epochCorrect), Key.seen: String(epochSeen), Key.epochSeconds: String(epochSeconds),
            Key.history: String(decoding: try JSONEncoder().encode(history), as: UTF8.self),
            Key.optimizerSteps: String(optimizer.stepCount), Key.optimizerBuffers: String(optimizer.buffers.count),
            Key.stale: String(epochsWithoutImprovement), Key.trainingSeconds: String(trainingSeconds),
            Key.dropout: dropoutStates.map(String.init).joined(separator: ","), Key.fingerprint: runFingerprint,
        ]
        if let best {
            metadata[Key.bestEpoch] = String(best.epoch)
            metadata[Key.bestAccuracy] = String(best.accuracy)
            metadata[Key.bestLoss] = String(best.loss)
        }
        for (key, value) in context { metadata[Key.context + key] = value }
        try SafeTensorsFile(tensors: tensors, metadata: metadata, source: url.path).write(to: url, precision: .float32)
    }

    /// Reads a checkpoint; errors name the file and what is wrong with it.
    public static func read(contentsOf url: URL) throws -> TrainingCheckpoint {
        let file = try SafeTensorsFile.read(contentsOf: url, requireChecksum: true)
        let metadata = file.metadata
        func fail(_ problem: String) -> TrainingError { .badCheckpoint(path: url.path, problem: problem) }
        guard metadata[ModelMetadata.Key.format] == formatName else {
            throw fail("not a training checkpoint (strokekit.format is '\(metadata[ModelMetadata.Key.format] ?? "missing")')")
        }
        guard metadata[ModelMetadata.Key.formatVersion] == String(formatVersion) else {
            throw fail("checkpoint version \(metadata[ModelMetadata.Key.formatVersion] ?? "missing") is not \(formatVersion)")
        }
        func value<T: LosslessStringConvertible>(_ key: String) throws -> T {
            guard let text = metadata[key], let value = T(text) else { throw fail("'\(key)' is missing or malformed") }
            return value
        }
        func tensors(_ prefix: String) -> [[Float]] {
            var result: [[Float]] = []
            while let tensor = file.tensor(named: "\(prefix).\(result.count)") { result.append(tensor.values) }
            return result
        }
        let historyText = metadata[Key.history] ?? ""
        guard let history = try? JSONDecoder().decode([EpochRecord].self, from: Data(historyText.utf8)) else {
            throw fail("'\(Key.history)' is not a list of epoch records")
        }
        let bufferCount: Int = try value(Key.optimizerBuffers)
        let buffers = tensors("optimizer")
        guard buffers.count == bufferCount else { throw fail("\(bufferCount) optimizer buffers expected, \(buffers.count) found") }
        var best: Best? = nil
        if metadata[Key.bestEpoch] != nil {
            best = Best(epoch: try value(Key.bestEpoch), accuracy: try value(Key.bestAccuracy),
                        loss: try value(Key.bestLoss), weights: tensors("best"))
        }
        let dropoutText = metadata[Key.dropout] ?? ""
        let dropoutStates = try dropoutText.isEmpty ? [] : dropoutText.split(separator: ",").map { text -> UInt64 in
            guard let state = UInt64(text) else { throw fail("'\(Key.dropout)' is malformed") }
            return state
        }
        var context: [String: String] = [:]
        for (key, text) in metadata where key.hasPrefix(Key.context) { context[String(key.dropFirst(Key.context.count))] = text }
        return TrainingCheckpoint(
            epoch: try value(Key.epoch), batchesDone: try value(Key.batchesDone), epochLossSum: try value(Key.lossSum),
            epochCorrect: try value(Key.correct), epochSeen: try value(Key.seen), epochSeconds: try value(Key.epochSeconds),
            history: history, weights: tensors("weights"),
            optimizer: OptimizerState(buffers: buffers, stepCount: try value(Key.optimizerSteps)),
            best: best, epochsWithoutImprovement: try value(Key.stale), trainingSeconds: try value(Key.trainingSeconds),
            dropoutStates: dropoutStates, runFingerprint: metadata[Key.fingerprint] ?? "", context: context)
    }
}

/// Where and when a training run writes checkpoints.
public struct Checkpointing: Sendable {
    /// The checkpoint file, rewritten atomically after every epoch and on interruption.
    public var url: URL
    /// Polled after every batch; when it returns true the run writes the checkpoint and
    /// stops with `TrainingError.interrupted` (the CLI sets it on SIGINT).
    public var interruptRequested: @Sendable () -> Bool
    /// Kept in the checkpoint (see `TrainingCheckpoint.context`).
    public var context: [String: String]

    public init(url: URL, context: [String: String] = [:], interruptRequested: @escaping @Sendable () -> Bool = { false }) {
        self.url = url
        self.context = context
        self.interruptRequested = interruptRequested
    }
}
