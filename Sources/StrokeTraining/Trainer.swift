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
/// are summed in a fixed order, so a run is reproducible for a given worker count. The
/// sum, the optimizer update and the copy of the new weights to the replicas are shared
/// out too, each thread taking a part of every parameter's elements.
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
        if let distillation = configuration.distillation {
            guard (0...1).contains(distillation.weight) else {
                throw TrainingError.invalidConfiguration("distillation weight must be in 0...1")
            }
            guard distillation.temperature > 0, distillation.temperature.isFinite else {
                throw TrainingError.invalidConfiguration("distillation temperature must be positive")
            }
            let student = try Network(architecture: configuration.architecture, classCount: classes.count)
            try distillation.teacher.checkCompatible(classes: classes, input: student)
        }
        self.configuration = configuration
        self.classes = classes
    }

    /// The input channels of the examples' images: `ModelInput.side` wide, one plane of
    /// `ModelInput.side` rows per channel (`Rasterizer` stacks a multi-channel framing's planes);
    /// every image the same size.
    static func inputChannels(of examples: [LabeledExamples]) throws -> Int {
        let side = ModelInput.side
        guard let first = examples.lazy.flatMap(\.images).first else { return 1 }
        for image in examples.lazy.flatMap(\.images)
        where image.width != side || image.height != first.height || image.height % side != 0 {
            throw TrainingError.invalidConfiguration(
                "every image must be \(side) wide and \(side) tall per channel, all the same size: found "
                + "\(first.width)x\(first.height) and \(image.width)x\(image.height)")
        }
        return first.height / side
    }

    /// Trains on `train`, validating on `validation` after every epoch: from scratch, or
    /// from `checkpoint` (written by an interrupted run of the same data and configuration),
    /// ending with bitwise the weights an uninterrupted run gives. With `checkpointing`, the
    /// full state is written atomically after every epoch, and when its `interruptRequested`
    /// turns true the run writes it after the current batch and throws `.interrupted`.
    public func train(
        _ train: LabeledExamples, validation: LabeledExamples?,
        checkpointing: Checkpointing? = nil, resumingFrom checkpoint: TrainingCheckpoint? = nil,
        progress: (TrainingProgress) -> Void = { _ in }
    ) throws -> TrainingResult {
        guard train.count > 0 else { throw TrainingError.emptyTrainingSet }
        let config = configuration
        let workerCount = min(config.workers, config.batchSize)
        let channels = try Self.inputChannels(of: [train] + (validation.map { [$0] } ?? []))
        let replicas = try (0..<workerCount).map { _ in
            try Network(architecture: config.architecture, classCount: classes.count, inputChannels: channels)
        }
        let master = replicas[0]
        master.initializeParameters(seed: config.seed)
        let optimizer: any Optimizer = switch config.optimizer {
        case .adam: Adam(learningRate: config.learningRate, weightDecay: config.weightDecay)
        case .sgd(let momentum): SGD(learningRate: config.learningRate, momentum: momentum, weightDecay: config.weightDecay)
        }
        let dropouts = replicas.flatMap { $0.layers.compactMap { $0 as? Dropout } }
        let fingerprint = runFingerprint(train, validation)

        var run = checkpoint ?? TrainingCheckpoint(
            epoch: 1, batchesDone: 0, epochLossSum: 0, epochCorrect: 0, epochSeen: 0, epochSeconds: 0, history: [],
            weights: [], optimizer: OptimizerState(), best: nil, epochsWithoutImprovement: 0, trainingSeconds: 0,
            dropoutStates: [], runFingerprint: fingerprint, context: checkpointing?.context ?? [:])
        if let checkpoint {
            guard checkpoint.runFingerprint == fingerprint, checkpoint.weights.count == master.parameters.count,
                  zip(checkpoint.weights, master.parameters).allSatisfy({ $0.count == $1.value.count }) else {
                throw TrainingError.checkpointMismatch(path: checkpointing?.url.path ?? "the checkpoint")
            }
            for (parameter, values) in zip(master.parameters, checkpoint.weights) { parameter.value.values = values }
            optimizer.state = checkpoint.optimizer
        }
        for replica in replicas.dropFirst() { replica.copyParameters(from: master) }

        let batchCount = (train.count + config.batchSize - 1) / config.batchSize
        let team = WorkerRounds(size: workerCount)
        defer { team.stop() }
        // One teacher engine per worker: an InferenceEngine owns its buffers.
        let workers = try replicas.map { replica in
            WorkerState(network: replica, classCount: classes.count, distillation: try config.distillation.map {
                (engine: InferenceEngine(network: try $0.teacher.makeNetwork()), weight: $0.weight, temperature: $0.temperature)
            })
        }
        /// The run's state now, for a checkpoint.
        func snapshot() -> TrainingCheckpoint {
            var state = run
            state.weights = master.parameters.map(\.value.values)
            state.optimizer = optimizer.state
            state.dropoutStates = dropouts.map(\.generatorState)
            state.context = checkpointing?.context ?? run.context
            return state
        }

        epochs: while run.epoch <= config.epochs {
            let epoch = run.epoch
            let rate = config.schedule.rate(base: config.learningRate, epoch: epoch, epochs: config.epochs)
            switch optimizer {
            case let adam as Adam: adam.learningRate = rate
            case let sgd as SGD: sgd.learningRate = rate
            default: break
            }
            var shuffler = SeededGenerator.stream(seed: config.seed, UInt64(epoch))
            let order = Array(0..<train.count).shuffled(using: &shuffler)
            if run.batchesDone == 0 {
                for replica in replicas { replica.reseedDropout(config.seed &+ UInt64(epoch) &* 7919) }
            } else {
                // Resuming inside an epoch: the dropout masks continue where they were.
                for (dropout, state) in zip(dropouts, run.dropoutStates) { dropout.generatorState = state }
            }
            let epochStart = ContinuousClock.now
            let secondsBefore = run.epochSeconds

            for batch in run.batchesDone..<batchCount {
                let indices = order[(batch * config.batchSize)..<min(train.count, (batch + 1) * config.batchSize)]
                let chunks = split(indices, into: workerCount)
                let scale = 1 / Float(indices.count)
                let augmentation = config.augmentation, seed = config.seed
                let step: @Sendable (Int) -> Void = { worker in
                    workers[worker].step(chunks[worker], examples: train, gradientScale: scale,
                                         augmentation: augmentation, seed: seed, epoch: epoch)
                }
                team.run(step)
                optimizer.beginStep(master.parameters)
                combineGradientsAndUpdate(replicas, optimizer: optimizer, team: team)

                let batchLoss = workers.reduce(0) { $0 + $1.lossSum }
                guard batchLoss.isFinite else {
                    throw TrainingError.nonFiniteLoss(epoch: epoch, batch: batch + 1, loss: batchLoss)
                }
                run.epochLossSum += batchLoss
                run.epochCorrect += workers.reduce(0) { $0 + $1.correct }
                run.epochSeen += indices.count
                run.batchesDone = batch + 1
                let elapsed = (ContinuousClock.now - epochStart).inSeconds
                run.epochSeconds = secondsBefore + elapsed
                let imageRate = Double(indices.endIndex) / max(run.epochSeconds, 1e-9)
                let remainingImages = Double(train.count - indices.endIndex + (config.epochs - epoch) * train.count)
                progress(.batch(epoch: epoch, batch: batch + 1, batchCount: batchCount,
                                loss: run.epochLossSum / Double(run.epochSeen),
                                accuracy: Double(run.epochCorrect) / Double(run.epochSeen),
                                imagesPerSecond: imageRate, secondsRemaining: remainingImages / max(imageRate, 1e-9)))
                if let checkpointing, checkpointing.interruptRequested() {
                    try snapshot().write(to: checkpointing.url)
                    throw TrainingError.interrupted(checkpoint: checkpointing.url.path, epoch: epoch, batchesDone: batch + 1)
                }
            }
            run.trainingSeconds += run.epochSeconds

            var validationLoss: Double? = nil, validationAccuracy: Double? = nil
            if let validation, validation.count > 0 {
                let scores = Evaluator.score(master, on: validation)
                validationLoss = scores.meanLoss
                validationAccuracy = scores.accuracy
            }
            let record = EpochRecord(
                epoch: epoch, trainLoss: run.epochLossSum / Double(max(run.epochSeen, 1)),
                trainAccuracy: Double(run.epochCorrect) / Double(max(run.epochSeen, 1)),
                validationLoss: validationLoss, validationAccuracy: validationAccuracy,
                seconds: run.epochSeconds, imagesPerSecond: Double(run.epochSeen) / max(run.epochSeconds, 1e-9))
            run.history.append(record)
            progress(.epoch(record))
            (run.epoch, run.batchesDone) = (epoch + 1, 0)
            (run.epochLossSum, run.epochCorrect, run.epochSeen, run.epochSeconds) = (0, 0, 0, 0)

            // Best = highest validation accuracy; ties (common on small validation sets that
            // reach 100% early) go to the lower validation loss.
            let accuracy = validationAccuracy ?? 0, loss = validationLoss ?? 0
            var stop = false
            if let best = run.best, validationAccuracy != nil,
               !(accuracy > best.accuracy || (accuracy == best.accuracy && loss < best.loss)) {
                run.epochsWithoutImprovement += 1
                stop = config.patience.map { run.epochsWithoutImprovement >= $0 } ?? false
            } else {
                run.best = .init(epoch: epoch, accuracy: accuracy, loss: loss, weights: master.parameters.map(\.value.values))
                run.epochsWithoutImprovement = 0
            }
            if let checkpointing { try snapshot().write(to: checkpointing.url) }
            if stop { break epochs }
        }

        guard let best = run.best else { throw TrainingError.emptyTrainingSet }
        for (parameter, values) in zip(master.parameters, best.weights) { parameter.value.values = values }
        let imagesTrained = run.history.count * train.count
        return TrainingResult(
            network: master, history: run.history, bestEpoch: best.epoch,
            validationAccuracy: validation == nil || validation!.count == 0 ? nil : best.accuracy,
            trainingSeconds: run.trainingSeconds,
            imagesPerSecond: Double(imagesTrained) / max(run.trainingSeconds, 1e-9),
            trainImages: train.count)
    }

    /// Identifies a run: the configuration, the classes and every training and validation
    /// example (FNV-1a, 64 bits), so that a checkpoint resumes only the run that wrote it.
    private func runFingerprint(_ train: LabeledExamples, _ validation: LabeledExamples?) -> String {
        var hash = FNV1a()
        let config = configuration
        let settings = "\(config.architecture) \(config.epochs) \(config.batchSize) \(config.learningRate) "
            + "\(config.optimizer) \(config.weightDecay) \(config.seed) \(config.patience ?? 0) \(config.workers) "
            + "\(config.schedule) \(config.augmentation.map { "\(type(of: $0))" } ?? "none") \(classes)"
        hash.mix(settings.utf8)
        if let distillation = config.distillation {
            hash.mix("distill \(distillation.weight) \(distillation.temperature) \(distillation.teacher.fingerprint)".utf8)
        }
        for examples in [train, validation ?? LabeledExamples(images: [], labels: [], sources: [])] {
            hash.mix("|\(examples.count)|".utf8)
            for (image, label) in zip(examples.images, examples.labels) {
                hash.mix(String(label).utf8)
                hash.mix(image.pixels)
            }
        }
        return hash.hex
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

    /// The serial part of a step, shared out: each worker thread takes one part of every
    /// parameter's elements, adds the replicas' gradients into the master's (in replica
    /// order, so the sum is deterministic), updates those elements with `optimizer`, and
    /// copies the new values to the replicas. `optimizer.beginStep` must have run.
    private func combineGradientsAndUpdate(_ replicas: [Network], optimizer: any Optimizer, team: WorkerRounds) {
        let parts = replicas.count
        withParameterBuffers(of: replicas) { buffers in
            let shared = UncheckedSendable((buffers, optimizer))
            let combine: @Sendable (Int) -> Void = { part in
                let (buffers, optimizer) = shared.value
                let master = buffers[0]
                for (index, target) in master.enumerated() {
                    let range = target.elements(part: part, of: parts)
                    for replica in buffers.dropFirst() {
                        let source = replica[index].gradient
                        for i in range { target.gradient[i] += source[i] }
                    }
                }
                optimizer.update(master, part: part, of: parts)
                for (index, source) in master.enumerated() {
                    let range = source.elements(part: part, of: parts)
                    for replica in buffers.dropFirst() {
                        (replica[index].value + range.lowerBound).update(from: source.value + range.lowerBound, count: range.count)
                    }
                }
            }
            team.run(combine)
        }
    }

    /// Calls `body` with every network's parameter buffers (outer index: network), all
    /// valid until it returns.
    private func withParameterBuffers(of networks: [Network], _ body: ([[ParameterBuffers]]) -> Void) {
        func nest(_ index: Int, _ collected: [[ParameterBuffers]]) {
            guard index < networks.count else { return body(collected) }
            ParameterBuffers.with(networks[index].parameters) { nest(index + 1, collected + [$0]) }
        }
        nest(0, [])
    }
}

/// A value handed to worker threads that only touch disjoint memory through it.
private struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// One training thread's network replica and what its last step measured.
private final class WorkerState: @unchecked Sendable {
    let network: Network
    let classCount: Int
    /// The teacher's fast path (this worker's own) and the soft-target weight and temperature.
    let distillation: (engine: InferenceEngine, weight: Float, temperature: Float)?
    var labels: [Int] = []
    var lossSum = 0.0
    var correct = 0

    init(network: Network, classCount: Int, distillation: (engine: InferenceEngine, weight: Float, temperature: Float)?) {
        self.network = network
        self.classCount = classCount
        self.distillation = distillation
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
        let imageSize = network.inputChannels * ModelInput.side * ModelInput.side
        network.forward(batch: indices.count, training: true) { buffer in
            for (offset, index) in indices.enumerated() {
                var image = examples.images[index]
                if let augmentation {
                    // One stream per (epoch, image): independent of batch order and worker count.
                    var imageStream = SeededGenerator.stream(seed: seed, UInt64(epoch) << 32 | UInt64(index))
                    let imageSeed = imageStream.next()
                    image = augmentation.augmentPlanes(image, seed: imageSeed)
                }
                ModelInput.fill(image, into: buffer + offset * imageSize)
            }
            // The teacher sees exactly the (augmented) images the student does.
            distillation?.engine.forward(batch: indices.count, images: UnsafePointer(buffer))
        }
        let softTargets = distillation.map { teacher in
            teacher.engine.withLogits { logits in
                SoftmaxCrossEntropy.SoftTargets(
                    teacherLogits: Tensor(shape: [indices.count, classCount], values: Array(logits)),
                    weight: teacher.weight, temperature: teacher.temperature)
            }
        }
        network.backward { gradient in
            let result = SoftmaxCrossEntropy.evaluate(
                logits: network.logits, labels: labels, softTargets: softTargets, gradientScale: gradientScale,
                gradient: &gradient)
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
