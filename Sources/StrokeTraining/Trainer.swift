import Dispatch
import StrokeImage
import StrokeKit
import StrokeNN
import StrokeOptimizers
import StrokeTensor
import StrokeSupport

/// What the trainer reports while it works; the CLI turns these into a progress bar,
/// plain lines or JSON.
public enum TrainingProgress: Sendable {
    /// After each batch: running means over the epoch so far.
    case batch(epoch: Int, batch: Int, batchCount: Int, loss: Double, accuracy: Double,
               imagesPerSecond: Double, secondsRemaining: Double)
    /// After each epoch, validation included.
    case epoch(EpochRecord)
}

/// The outcome of a training run.
public struct TrainingResult {
    /// The network with the best weights seen (by validation accuracy; the last epoch's
    /// when there is no validation set).
    public let network: Network
    public let history: [EpochRecord]
    /// 1-based epoch whose weights `network` holds.
    public let bestEpoch: Int
    /// Validation accuracy of those weights; nil without a validation set.
    public let validationAccuracy: Double?
    /// Wall time of the training loops only (no validation, no loading), in seconds.
    public let trainingSeconds: Double
    /// Training images processed per second of `trainingSeconds`.
    public let imagesPerSecond: Double
    /// Images in the training set.
    public let trainImages: Int
}

/// Mini-batch training of a `Network` with softmax cross-entropy.
///
/// Each batch is split across `workers` threads, each with its own network replica and
/// one BLAS thread (see `Network`; the small GEMMs of a 28x28 CNN scale better this way than with
/// multi-threaded BLAS, and the elementwise work runs in parallel too); their gradients
/// are summed in a fixed order, so a run is reproducible for a given worker count.
public final class Trainer {
    public let configuration: TrainingConfiguration
    public let classes: [String]

    public init(configuration: TrainingConfiguration, classes: [String]) throws {
        guard configuration.epochs >= 1 else { throw TrainingError.invalidConfiguration("epochs must be at least 1") }
        guard configuration.batchSize >= 1 else { throw TrainingError.invalidConfiguration("batch size must be at least 1") }
        guard configuration.learningRate > 0, configuration.learningRate.isFinite else {
            throw TrainingError.invalidConfiguration("learning rate must be a positive number")
        }
        guard configuration.workers >= 1 else { throw TrainingError.invalidConfiguration("workers must be at least 1") }
        if let patience = configuration.patience, patience < 1 {
            throw TrainingError.invalidConfiguration("patience must be at least 1")
        }
        self.configuration = configuration
        self.classes = classes
    }

    /// Trains from scratch on `train`, validating on `validation` after every epoch.
    public func train(
        _ train: LabeledExamples, validation: LabeledExamples?,
        progress: (TrainingProgress) -> Void = { _ in }
    ) throws -> TrainingResult {
        guard train.count > 0 else { throw TrainingError.emptyTrainingSet }
        let config = configuration
        let workerCount = min(config.workers, config.batchSize)
        let replicas = try (0..<workerCount).map { _ in
            try Network(architecture: config.architecture, classCount: classes.count)
        }
        let master = replicas[0]
        master.initializeParameters(seed: config.seed)
        for replica in replicas.dropFirst() { replica.copyParameters(from: master) }
        let optimizer: any Optimizer = switch config.optimizer {
        case .adam: Adam(learningRate: config.learningRate, weightDecay: config.weightDecay)
        case .sgd(let momentum): SGD(learningRate: config.learningRate, momentum: momentum, weightDecay: config.weightDecay)
        }

        let batchCount = (train.count + config.batchSize - 1) / config.batchSize
        var history: [EpochRecord] = []
        var best: (epoch: Int, accuracy: Double, loss: Double, weights: [[Float]])? = nil
        var trainingSeconds = 0.0
        var epochsWithoutImprovement = 0
        let workers = replicas.map { WorkerState(network: $0, classCount: classes.count) }

        for epoch in 1...config.epochs {
            let rate = config.schedule.rate(base: config.learningRate, epoch: epoch, epochs: config.epochs)
            switch optimizer {
            case let adam as Adam: adam.learningRate = rate
            case let sgd as SGD: sgd.learningRate = rate
            default: break
            }
            var shuffler = SeededGenerator.stream(seed: config.seed, UInt64(epoch))
            let order = Array(0..<train.count).shuffled(using: &shuffler)
            for replica in replicas { replica.reseedDropout(config.seed &+ UInt64(epoch) &* 7919) }
            var lossSum = 0.0, correct = 0, seen = 0
            let epochStart = ContinuousClock.now

            for batch in 0..<batchCount {
                let indices = order[(batch * config.batchSize)..<min(train.count, (batch + 1) * config.batchSize)]
                let chunks = split(indices, into: workerCount)
                let scale = 1 / Float(indices.count)
                let augmentation = config.augmentation, seed = config.seed
                let run: @Sendable (Int) -> Void = { worker in
                    workers[worker].step(chunks[worker], examples: train, gradientScale: scale,
                                         augmentation: augmentation, seed: seed, epoch: epoch)
                }
                if workerCount == 1 { run(0) } else { DispatchQueue.concurrentPerform(iterations: workerCount, execute: run) }
                sumGradients(into: master, from: replicas.dropFirst())
                optimizer.step(master.parameters)
                for replica in replicas.dropFirst() { replica.copyParameters(from: master) }

                let batchLoss = workers.reduce(0) { $0 + $1.lossSum }
                guard batchLoss.isFinite else {
                    throw TrainingError.nonFiniteLoss(epoch: epoch, batch: batch + 1, loss: batchLoss)
                }
                lossSum += batchLoss
                correct += workers.reduce(0) { $0 + $1.correct }
                seen += indices.count
                let elapsed = (ContinuousClock.now - epochStart).inSeconds
                let rate = Double(seen) / max(elapsed, 1e-9)
                let remainingImages = Double(train.count - seen + (config.epochs - epoch) * train.count)
                progress(.batch(epoch: epoch, batch: batch + 1, batchCount: batchCount,
                                loss: lossSum / Double(seen), accuracy: Double(correct) / Double(seen),
                                imagesPerSecond: rate, secondsRemaining: remainingImages / max(rate, 1e-9)))
            }
            let epochSeconds = (ContinuousClock.now - epochStart).inSeconds
            trainingSeconds += epochSeconds

            var validationLoss: Double? = nil, validationAccuracy: Double? = nil
            if let validation, validation.count > 0 {
                let scores = Evaluator.score(master, on: validation)
                validationLoss = scores.meanLoss
                validationAccuracy = scores.accuracy
            }
            let record = EpochRecord(
                epoch: epoch, trainLoss: lossSum / Double(seen), trainAccuracy: Double(correct) / Double(seen),
                validationLoss: validationLoss, validationAccuracy: validationAccuracy,
                seconds: epochSeconds, imagesPerSecond: Double(seen) / max(epochSeconds, 1e-9))
            history.append(record)
            progress(.epoch(record))

            // Best = highest validation accuracy; ties (common on small validation sets that
            // reach 100% early) go to the lower validation loss.
            let accuracy = validationAccuracy ?? 0, loss = validationLoss ?? 0
            if best == nil || validationAccuracy == nil || accuracy > best!.accuracy
                || (accuracy == best!.accuracy && loss < best!.loss) {
                best = (epoch, accuracy, loss, master.parameters.map(\.value.values))
                epochsWithoutImprovement = 0
            } else {
                epochsWithoutImprovement += 1
                if let patience = config.patience, epochsWithoutImprovement >= patience { break }
            }
        }

        for (parameter, values) in zip(master.parameters, best!.weights) { parameter.value.values = values }
        let imagesTrained = history.count * train.count
        return TrainingResult(
            network: master, history: history, bestEpoch: best!.epoch,
            validationAccuracy: validation == nil || validation!.count == 0 ? nil : best!.accuracy,
            trainingSeconds: trainingSeconds,
            imagesPerSecond: Double(imagesTrained) / max(trainingSeconds, 1e-9),
            trainImages: train.count)
    }

    /// Contiguous, nearly equal chunks (the first ones one longer when it does not divide).
    private func split(_ indices: ArraySlice<Int>, into parts: Int) -> [ArraySlice<Int>] {
        let base = indices.count / parts, extra = indices.count % parts
        var chunks: [ArraySlice<Int>] = []
        var start = indices.startIndex
        for part in 0..<parts {
            let end = start + base + (part < extra ? 1 : 0)
            chunks.append(indices[start..<end])
            start = end
        }
        return chunks
    }

    /// master.gradient += each replica's gradient, in replica order (deterministic).
    private func sumGradients(into master: Network, from replicas: ArraySlice<Network>) {
        for replica in replicas {
            for (target, source) in zip(master.parameters, replica.parameters) {
                target.gradient.values.withUnsafeMutableBufferPointer { t in
                    source.gradient.values.withUnsafeBufferPointer { s in
                        for i in 0..<t.count { t[i] += s[i] }
                    }
                }
            }
        }
    }
}

/// One training thread's network replica and what its last step measured.
private final class WorkerState: @unchecked Sendable {
    let network: Network
    let classCount: Int
    var labels: [Int] = []
    var lossSum = 0.0
    var correct = 0

    init(network: Network, classCount: Int) {
        self.network = network
        self.classCount = classCount
    }

    /// Forward and backward on `indices`; leaves the replica's parameter gradients set to
    /// d(mean batch loss)/dθ restricted to this chunk (the master sums the chunks).
    func step(_ indices: ArraySlice<Int>, examples: LabeledExamples, gradientScale: Float,
              augmentation: (any TrainingAugmentation)?, seed: UInt64, epoch: Int) {
        lossSum = 0
        correct = 0
        guard !indices.isEmpty else {
            for parameter in network.parameters { parameter.gradient.zero() }
            return
        }
        labels.removeAll(keepingCapacity: true)
        for index in indices { labels.append(examples.labels[index]) }
        let imageSize = ModelInput.side * ModelInput.side
        network.forward(batch: indices.count, training: true) { buffer in
            for (offset, index) in indices.enumerated() {
                var image = examples.images[index]
                if let augmentation {
                    // One stream per (epoch, image): independent of batch order and worker count.
                    var imageStream = SeededGenerator.stream(seed: seed, UInt64(epoch) << 32 | UInt64(index))
                    let imageSeed = imageStream.next()
                    image = augmentation.augment(image, seed: imageSeed)
                }
                ModelInput.fill(image, into: buffer + offset * imageSize)
            }
        }
        network.backward { gradient in
            let result = SoftmaxCrossEntropy.evaluate(
                logits: network.logits, labels: labels, gradientScale: gradientScale, gradient: &gradient)
            lossSum = result.lossSum
            correct = result.correct
        }
    }
}

extension Duration {
    /// The duration in seconds, as a Double.
    public var inSeconds: Double {
        let (whole, fraction) = components
        return Double(whole) + Double(fraction) * 1e-18
    }
}
