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
        abstract: "Measure sgemm peak, training throughput and inference latency on this machine.",
        discussion: """
            Build with `swift build -c release` first: debug builds are not representative.
            Training uses synthetic 28x28 images, so no dataset is needed.
            """)

    @Flag(help: "Print one JSON object instead of a table.")
    var json = false

    @Option(help: "Training epochs to time; the median epoch after the first is reported.")
    var epochs = 7

    @Option(help: "Training worker threads (data parallel, one BLAS thread each).")
    var workers = min(2, ProcessInfo.processInfo.activeProcessorCount)

    func run() throws {
        let (training, sgemm) = try measureTrainingAndReference()
        let inference = try measureInferenceLatency()
        let stroke = try measureStrokeLatency()
        let strokesPerSecond = try measureStrokeThroughput()
        let efficiency = training.gflops / sgemm
        if json {
            let object: [String: Any] = [
                "sgemm_gflops": round2(sgemm),
                "train_images_per_second": round2(training.imagesPerSecond),
                "train_gflops": round2(training.gflops),
                "train_efficiency": round2(efficiency * 100) / 100,
                "infer_p50_us": round2(inference.p50),
                "infer_p99_us": round2(inference.p99),
                "stroke_p50_us": round2(stroke.p50),
                "stroke_p99_us": round2(stroke.p99),
                "strokes_per_second": round2(strokesPerSecond),
            ]
            try printJSON(object)
        } else {
            print("sgemm reference (1024x1024x1024, \(workers) threads, median of calls between epochs): \(format(sgemm)) GFLOP/s")
            print("training, default net, batch 32, \(workers) workers, median epoch: \(format(training.imagesPerSecond)) images/s, "
                  + "\(format(training.gflops)) GFLOP/s = \(format(efficiency * 100))% of sgemm")
            print("inference, 1 image, 1 thread: p50 \(format(inference.p50)) µs, p99 \(format(inference.p99)) µs")
            print("stroke of 60 points, rasterize + classify, 1 thread: p50 \(format(stroke.p50)) µs, "
                  + "p99 \(format(stroke.p99)) µs")
            print("strokes/s, \(ProcessInfo.processInfo.activeProcessorCount) threads: \(format(strokesPerSecond))")
        }
    }

    /// Best of several 1024³ sgemm calls with `threads` BLAS threads.
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
        let size = 1024
        let a = [Float](repeating: 0.5, count: size * size), b = a
        var c = [Float](repeating: 0, count: size * size)
        let threads = max(workers, 1)
        var sgemmRates = (0..<4).map { _ in sgemmRate(threads: threads, a: a, b: b, c: &c) }

        var generator = SeededGenerator(seed: 1)
        let images = (0..<640).map { _ in
            GrayImage(width: 28, height: 28, pixels: (0..<784).map { _ in generator.nextUnit() < 0.15 ? 255 : 0 })
        }
        let examples = LabeledExamples(images: images, labels: images.indices.map { $0 % 3 },
                                       sources: images.indices.map { "synthetic-\($0)" })
        var configuration = TrainingConfiguration()
        configuration.epochs = max(2, epochs)
        configuration.workers = workers
        let trainer = try Trainer(configuration: configuration, classes: ["a", "b", "c"])
        let result = try trainer.train(examples, validation: nil) { progress in
            // Epoch timing stops before this callback runs, so these calls do not count in it.
            if case .epoch = progress {
                for _ in 0..<2 { sgemmRates.append(sgemmRate(threads: threads, a: a, b: b, c: &c)) }
                // OpenBLAS's pool threads spin (sched_yield) for ~2^28 cycles after a
                // multi-threaded call before they sleep; let them, or they would steal the
                // next epoch's cores.
                Thread.sleep(forTimeInterval: 0.3)
            }
        }
        let imagesPerSecond = median(result.history.dropFirst().map(\.imagesPerSecond))
        let flopsPerImage = 3 * Double(result.network.forwardFLOPsPerExample)
        return ((imagesPerSecond, imagesPerSecond * flopsPerImage / 1e9), median(sgemmRates))
    }

    func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2]
            : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    /// A classifier with the default architecture and seeded random weights (latency does
    /// not depend on the weights' values).
    func benchmarkClassifier() throws -> ShapeClassifier {
        let network = try Network(architecture: .default, classCount: 3)
        network.initializeParameters(seed: 2)
        let metadata = ModelMetadata(classes: ["arrow", "circle", "cycle"], architecture: ArchitectureSpec.default.description)
        return ShapeClassifier(model: TrainedModel(network: network, metadata: metadata))
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
    func measureInferenceLatency() throws -> (p50: Double, p99: Double) {
        let classifier = try benchmarkClassifier()
        var generator = SeededGenerator(seed: 3)
        let image = GrayImage(width: 28, height: 28, pixels: (0..<784).map { _ in generator.nextUnit() < 0.15 ? 255 : 0 })
        return try withOneBLASThread { try latency { _ = try classifier.classify(image) } }
    }

    /// End to end for one synthetic stroke of about 60 points: rasterize + classify.
    func measureStrokeLatency() throws -> (p50: Double, p99: Double) {
        let classifier = try benchmarkClassifier()
        let stroke = sampleStroke()
        return try withOneBLASThread { try latency { _ = try classifier.classify(stroke) } }
    }

    /// Strokes per second with every core classifying single strokes concurrently.
    func measureStrokeThroughput() throws -> Double {
        let classifier = try benchmarkClassifier()
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
