import ArgumentParser
import Dispatch
import Foundation
import StrokeImage
import StrokeModelFile
import StrokeKit
import StrokeNN
import StrokeTensor
import StrokeTraining
import StrokeSupport

/// `strokekit bench`: hardware reference and StrokeKit's own figures, measured in one run.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure sgemm peak, training throughput, inference latency and batch throughput on this machine.",
        discussion: """
            Build with `swift build -c release` first: debug builds are not representative.
            Training uses synthetic 28x28 images, so no dataset is needed. Before any inference
            timing, the fast path's logits are checked against the reference path's (within
            1e-5 of the largest |logit|, at least 1e-5) on the benchmark's inputs; a mismatch is an error.
            """)

    @Flag(help: "Print one JSON object instead of a table.")
    var json = false

    @Option(help: "Training epochs to time; the median epoch after the first is reported.")
    var epochs = 7

    @Option(help: "Training worker threads (data parallel, one BLAS thread each).")
    var workers = min(2, ProcessInfo.processInfo.activeProcessorCount)

    @Option(help: "Model file for the inference figures (default: the thesis network with seeded random weights).")
    var model: String?

    @Option(help: "Raw 8-bit 28x28 images, one after another, for the inference figures (default: 256 seeded random blobs).")
    var inputs: String?

    @Flag(help: "Only print the machine: CPU model, vector extensions, BLAS and its core type.")
    var machine = false

    @Flag(help: "Only the inference figures (no sgemm reference, no training).")
    var inferenceOnly = false

    @Flag(help: "Only the training figure, on the --inputs images (labels: image index mod 3) or 640 seeded blobs; no sgemm reference.")
    var trainingOnly = false

    @Option(help: "Images per chunk of the fast path's batch figures (default: InferenceEngine.chunkSize).")
    var chunkSize = InferenceEngine.chunkSize

    func validate() throws {
        guard chunkSize > 0 else { throw ValidationError("--chunk-size must be at least 1, got \(chunkSize)") }
        guard !(inferenceOnly && trainingOnly) else { throw ValidationError("--inference-only and --training-only exclude each other") }
        guard workers > 0 else { throw ValidationError("--workers must be at least 1, got \(workers)") }
    }

    func run() throws {
        let here = MachineDescription.current()
        if machine {
            if json { try printJSON(["machine": here.dictionary]) } else { print(here.summary) }
            return
        }
        if !json { print(here.summary) }
        if trainingOnly {
            let images = inputs == nil ? Self.seededBlobs(count: 640) : try benchmarkImages()
            let training = try measureTraining(images: images, reference: false)
            if json {
                try printJSON([
                    "train_images_per_second": round2(training.imagesPerSecond),
                    "train_epoch_images_per_second": training.epochRates.map(round2),
                    "train_images": images.count, "batch_size": 32, "workers": workers,
                    "architecture": ArchitectureSpec.default.description, "machine": here.dictionary,
                ] as [String: Any])
            } else {
                print("training, default net, \(images.count) images, batch 32, \(workers) workers, median epoch after the first: "
                      + "\(format(training.imagesPerSecond)) images/s")
            }
            return
        }
        let classifier = try benchmarkClassifier()
        let images = try benchmarkImages(channels: benchmarkNetwork().0.inputChannels)
        let check = try checkFastPath(classifier: classifier, images: images)
        let inference = try measureInferenceLatency(classifier: classifier, image: images[0])
        let batch = try measureBatchThroughput(classifier: classifier, images: images)
        let inferenceObject: [String: Any] = [
            "fast_path_max_difference": Double(check),
            "infer_p50_us": round2(inference.p50),
            "infer_p99_us": round2(inference.p99),
            "batch": images.count,
            "batch_images_per_second_1_thread": round2(batch.oneThread.median),
            "batch_images_per_second_all_cores": round2(batch.allCores.median),
            "batch_images_per_second_1_thread_fastest": round2(batch.oneThread.fastest),
            "batch_images_per_second_all_cores_fastest": round2(batch.allCores.fastest),
            "threads_all_cores": ProcessInfo.processInfo.activeProcessorCount,
            "machine": here.dictionary,
        ]
        if inferenceOnly {
            if json { try printJSON(inferenceObject) } else { printInference(check: check, inference: inference, batch: batch, count: images.count) }
            return
        }
        let (training, sgemm) = try measureTrainingAndReference()
        let stroke = try measureStrokeLatency(classifier: classifier)
        let strokesPerSecond = try measureStrokeThroughput(classifier: classifier)
        let efficiency = training.gflops / sgemm
        if json {
            let object: [String: Any] = inferenceObject.merging([
                "sgemm_gflops": round2(sgemm),
                "train_images_per_second": round2(training.imagesPerSecond),
                "train_gflops": round2(training.gflops),
                "train_efficiency": round2(efficiency * 100) / 100,
                "stroke_p50_us": round2(stroke.p50),
                "stroke_p99_us": round2(stroke.p99),
                "strokes_per_second": round2(strokesPerSecond),
            ]) { first, _ in first }
            try printJSON(object)
        } else {
            print("sgemm reference (1024x1024x1024, \(workers) threads, median of calls between epochs): \(format(sgemm)) GFLOP/s")
            print("training, default net, batch 32, \(workers) workers, median epoch: \(format(training.imagesPerSecond)) images/s, "
                  + "\(format(training.gflops)) GFLOP/s = \(format(efficiency * 100))% of sgemm")
            printInference(check: check, inference: inference, batch: batch, count: images.count)
            print("stroke of 60 points, rasterize + classify, 1 thread: p50 \(format(stroke.p50)) µs, "
                  + "p99 \(format(stroke.p99)) µs")
            print("strokes/s, \(ProcessInfo.processInfo.activeProcessorCount) threads: \(format(strokesPerSecond))")
        }
    }

    func printInference(check: Float, inference: (p50: Double, p99: Double),
                        batch: (oneThread: BatchRate, allCores: BatchRate), count: Int) {
        print("fast path vs reference path, \(count) images: max |logit difference| \(check) (limit 1e-5 of the largest |logit|)")
        print("inference, 1 image, 1 thread: p50 \(format(inference.p50)) µs, p99 \(format(inference.p99)) µs")
        print("inference, batch \(count), 1 thread: \(format(batch.oneThread.median)) images/s "
              + "(fastest run \(format(batch.oneThread.fastest))); \(ProcessInfo.processInfo.activeProcessorCount) threads: "
              + "\(format(batch.allCores.median)) images/s (fastest run \(format(batch.allCores.fastest)))")
    }

    /// GFLOP/s of one 1024³ sgemm call with `threads` BLAS threads.
    func sgemmRate(threads: Int, a: [Float], b: [Float], c: inout [Float]) -> Double {
        let size = 1024
        let saved = BLAS.threadCount
        BLAS.threadCount = threads
        defer { BLAS.threadCount = saved }
        let start = ContinuousClock.now
        BLAS.gemm(m: size, n: size, k: size, a: a, lda: size, b: b, ldb: size, c: &c, ldc: size)
        return 2 * Double(size * size * size) / (ContinuousClock.now - start).inSeconds / 1e9
    }

    /// Trains the default network on 640 synthetic images (blobs of random ink), measuring
    /// the sgemm reference between epochs, so that both figures see the same machine (a
    /// shared machine's speed drifts by tens of percent within a minute). Returns the median
    /// epoch's throughput, the first epoch (allocation, warm-up) excluded, and the median
    /// sgemm rate of the calls made before training and after each epoch.
    func measureTrainingAndReference() throws -> (training: (imagesPerSecond: Double, gflops: Double), sgemm: Double) {
        let training = try measureTraining(images: Self.seededBlobs(count: 640), reference: true)
        return ((training.imagesPerSecond, training.gflops), training.sgemm)
    }

    /// `count` 28x28 blobs of random ink (seed 1): the default training set of the benchmark.
    static func seededBlobs(count: Int) -> [GrayImage] {
        var generator = SeededGenerator(seed: 1)
        return (0..<count).map { _ in
            GrayImage(width: 28, height: 28, pixels: (0..<784).map { _ in generator.nextUnit() < 0.15 ? 255 : 0 })
        }
    }

    /// Trains the default network on `images` (labels: index mod 3), batch 32, `workers`
    /// workers, `epochs` epochs; with `reference`, the sgemm rate is measured before training
    /// and between epochs. Returns the median epoch rate after the first, every epoch's rate,
    /// the GFLOP/s it means, and the median sgemm rate (0 without `reference`).
    func measureTraining(images: [GrayImage], reference: Bool) throws
        -> (imagesPerSecond: Double, epochRates: [Double], gflops: Double, sgemm: Double)
    {
        let size = reference ? 1024 : 0
        let a = [Float](repeating: 0.5, count: size * size), b = a
        var c = [Float](repeating: 0, count: size * size)
        let threads = max(workers, 1)
        var sgemmRates = reference ? (0..<4).map { _ in sgemmRate(threads: threads, a: a, b: b, c: &c) } : []
        let examples = LabeledExamples(images: images, labels: images.indices.map { $0 % 3 },
                                       sources: images.indices.map { "synthetic-\($0)" })
        var configuration = TrainingConfiguration()
        configuration.epochs = max(2, epochs)
        configuration.workers = workers
        let trainer = try Trainer(configuration: configuration, classes: ["a", "b", "c"])
        let result = try trainer.train(examples, validation: nil) { progress in
            // Epoch timing stops before this callback runs, so these calls do not count in it.
            if case .epoch = progress, reference {
                for _ in 0..<2 { sgemmRates.append(sgemmRate(threads: threads, a: a, b: b, c: &c)) }
                // OpenBLAS's pool threads spin (sched_yield) for ~2^28 cycles after a
                // multi-threaded call before they sleep; let them, or they would steal the
                // next epoch's cores.
                Thread.sleep(forTimeInterval: 0.3)
            }
        }
        let rates = result.history.map(\.imagesPerSecond)
        let imagesPerSecond = median(Array(rates.dropFirst()))
        let flopsPerImage = 3 * Double(result.network.forwardFLOPsPerExample)
        return (imagesPerSecond, rates, imagesPerSecond * flopsPerImage / 1e9, reference ? median(sgemmRates) : 0)
    }

    func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2]
            : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    /// The `--model` file's network, or the default architecture with seeded random weights
    /// (latency does not depend on the weights' values).
    func benchmarkNetwork() throws -> (Network, ModelMetadata) {
        if let model {
            let trained = try TrainedModel.load(contentsOf: URL(fileURLWithPath: model))
            return (trained.network, trained.metadata)
        }
        let network = try Network(architecture: .default, classCount: 3)
        network.initializeParameters(seed: 2)
        return (network, ModelMetadata(classes: ["arrow", "circle", "cycle"], architecture: ArchitectureSpec.default.description))
    }

    func benchmarkClassifier() throws -> ShapeClassifier {
        let (network, metadata) = try benchmarkNetwork()
        return ShapeClassifier(model: TrainedModel(network: network, metadata: metadata))
    }

    /// The `--inputs` images, or 256 seeded blobs of random ink; with several input
    /// `channels`, each image is that many planes stacked top to bottom (as `Rasterizer` draws them).
    func benchmarkImages(channels: Int = 1) throws -> [GrayImage] {
        let side = ModelInput.side, height = side * channels, size = side * height
        guard let inputs else {
            var generator = SeededGenerator(seed: 3)
            return (0..<256).map { _ in
                GrayImage(width: side, height: height, pixels: (0..<size).map { _ in generator.nextUnit() < 0.15 ? 255 : 0 })
            }
        }
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: inputs)))
        guard !bytes.isEmpty, bytes.count % size == 0 else {
            throw CLIError("\(inputs): expected a whole number of \(side)x\(height) 8-bit images (\(size) bytes each), got \(bytes.count) bytes")
        }
        return (0..<(bytes.count / size)).map { GrayImage(width: side, height: height, pixels: Array(bytes[($0 * size)..<(($0 + 1) * size)])) }
    }

    /// The benchmark inputs as the network sees them, NCHW floats (through `ModelInput`).
    func inputFloats(_ images: [GrayImage]) -> [Float] {
        let size = images.first?.pixels.count ?? 0
        var floats = [Float](repeating: 0, count: images.count * size)
        floats.withUnsafeMutableBufferPointer { buffer in
            for (index, image) in images.enumerated() { ModelInput.fill(image, into: buffer.baseAddress! + index * size) }
        }
        return floats
    }

    /// Largest |fast - reference| logit over the benchmark images: the fast path
    /// (`InferenceEngine`, batched, and one image at a time) against `Network.forward`.
    /// Throws when it exceeds 1e-5 times the largest |reference logit| (at least 1e-5): Float
    /// rounding grows with the logits, and a 67-class model's reach 20 and more.
    func checkFastPath(classifier: ShapeClassifier, images: [GrayImage]) throws -> Float {
        let (network, _) = try benchmarkNetwork()
        let floats = inputFloats(images)
        let side = ModelInput.side, channels = network.inputChannels
        let reference = network.forward(Tensor(shape: [images.count, channels, side, side], values: floats), training: false)
        let engine = InferenceEngine(network: network)
        var largest: Float = 0
        floats.withUnsafeBufferPointer { engine.forward(batch: images.count, images: $0.baseAddress!) }
        engine.withLogits { fast in largest = zip(fast, reference.values).map { abs($0 - $1) }.max() ?? 0 }
        let classCount = network.classCount
        for index in images.indices {
            floats.withUnsafeBufferPointer { engine.forward(batch: 1, images: $0.baseAddress! + index * channels * side * side) }
            engine.withLogits { fast in
                for k in 0..<classCount { largest = max(largest, abs(fast[k] - reference.values[index * classCount + k])) }
            }
        }
        let limit = 1e-5 * max(1, reference.values.map(abs).max() ?? 0)
        guard largest <= limit else {
            throw CLIError("fast inference path disagrees with the reference path: max |logit difference| \(largest) > \(limit) "
                           + "(1e-5 of the largest |logit|)")
        }
        return largest
    }

    /// Images per second through the fast path on the whole benchmark batch: one thread,
    /// then every core (the batch split evenly, one engine and one BLAS thread per core).
    /// Each figure is the median (and the fastest) of 15 timed runs after 3 warm-ups.
    /// Images per second over the timed runs: their median (the figure), and the fastest run
    /// (what the code does when a shared machine leaves it alone for one run).
    struct BatchRate {
        var median: Double, fastest: Double
    }

    func measureBatchThroughput(classifier: ShapeClassifier, images: [GrayImage]) throws -> (oneThread: BatchRate, allCores: BatchRate) {
        let (network, _) = try benchmarkNetwork()
        let floats = inputFloats(images)
        let count = images.count, size = network.inputChannels * ModelInput.side * ModelInput.side
        let threads = ProcessInfo.processInfo.activeProcessorCount
        let engines = (0..<threads).map { _ in InferenceEngine(network: network, imagesPerChunk: chunkSize) }
        func rate(threads: Int) -> BatchRate {
            let share = (count + threads - 1) / threads
            let runs = (0..<18).map { _ in
                let start = ContinuousClock.now
                floats.withUnsafeBufferPointer { buffer in
                    // Each thread reads its own slice and runs its own engine.
                    nonisolated(unsafe) let images = buffer.baseAddress!
                    DispatchQueue.concurrentPerform(iterations: threads) { part in
                        let first = part * share, last = min(count, first + share)
                        if first < last { engines[part].forward(batch: last - first, images: images + first * size) }
                    }
                }
                return Double(count) / (ContinuousClock.now - start).inSeconds
            }
            let timed = Array(runs.dropFirst(3))
            return BatchRate(median: median(timed), fastest: timed.max() ?? 0)
        }
        return withOneBLASThread { (rate(threads: 1), rate(threads: threads)) }
    }

    /// p50 and p99 in microseconds of `body`, run `iterations` times after a warm-up.
    func latency(iterations: Int = 2000, _ body: () throws -> Void) rethrows -> (p50: Double, p99: Double) {
        for _ in 0..<200 { try body() }
        var samples: [Double] = []
        samples.reserveCapacity(iterations)
        for _ in 0..<iterations {
            let start = ContinuousClock.now
            try body()
            samples.append((ContinuousClock.now - start).inSeconds * 1e6)
        }
        samples.sort()
        return (samples[samples.count / 2], samples[samples.count * 99 / 100])
    }

    /// p50 and p99 of classifying one 28x28 image through `ShapeClassifier`, one BLAS thread.
    func measureInferenceLatency(classifier: ShapeClassifier, image: GrayImage) throws -> (p50: Double, p99: Double) {
        return try withOneBLASThread { try latency { _ = try classifier.classify(image) } }
    }

    /// End to end for one synthetic stroke of about 60 points: rasterize + classify.
    func measureStrokeLatency(classifier: ShapeClassifier) throws -> (p50: Double, p99: Double) {
        let stroke = sampleStroke()
        return try withOneBLASThread { try latency { _ = try classifier.classify(stroke) } }
    }

    /// Strokes per second with every core classifying single strokes concurrently.
    func measureStrokeThroughput(classifier: ShapeClassifier) throws -> Double {
        let stroke = sampleStroke()
        let threads = ProcessInfo.processInfo.activeProcessorCount, perThread = 4000
        return try withOneBLASThread {
            _ = try classifier.classify(stroke)
            let start = ContinuousClock.now
            DispatchQueue.concurrentPerform(iterations: threads) { _ in
                for _ in 0..<perThread { _ = try? classifier.classify(stroke) }
            }
            return Double(threads * perThread) / (ContinuousClock.now - start).inSeconds
        }
    }

    /// A hand-drawn-like circle of 60 points, 150 units across, with a little wobble.
    func sampleStroke() -> Stroke {
        Stroke((0..<60).map { index in
            let angle = Double(index) / 59 * 2.1 * Double.pi
            let radius = 75 + 4 * sin(5 * angle)
            return (200 + radius * cos(angle), 300 + radius * sin(angle))
        })
    }

    func withOneBLASThread<Result>(_ body: () throws -> Result) rethrows -> Result {
        let saved = BLAS.threadCount
        BLAS.threadCount = 1
        defer { BLAS.threadCount = saved }
        return try body()
    }
}

func round2(_ value: Double) -> Double { (value * 100).rounded() / 100 }
func format(_ value: Double) -> String { String(format: "%.1f", value) }

/// Prints a JSON object on one line to stdout, keys sorted.
func printJSON(_ object: Any) throws {
    let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
    print(String(decoding: data, as: UTF8.self))
}
