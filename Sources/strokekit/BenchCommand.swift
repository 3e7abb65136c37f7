import ArgumentParser
import Foundation
import StrokeImage
import StrokeKit
import StrokeNN
import StrokeTensor
import StrokeTraining

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

    @Option(help: "Training epochs to time (more = steadier figure).")
    var epochs = 5

    @Option(help: "Training worker threads (data parallel, one BLAS thread each).")
    var workers = min(2, ProcessInfo.processInfo.activeProcessorCount)

    func run() throws {
        let sgemm = measureSGEMM(threads: max(workers, 1))
        let training = try measureTraining()
        let latency = try measureInferenceLatency()
        let efficiency = training.gflops / sgemm
        if json {
            let object: [String: Any] = [
                "sgemm_gflops": round2(sgemm),
                "train_images_per_second": round2(training.imagesPerSecond),
                "train_gflops": round2(training.gflops),
                "train_efficiency": round2(efficiency * 100) / 100,
                "infer_p50_us": round2(latency.p50),
                "infer_p99_us": round2(latency.p99),
            ]
            try printJSON(object)
        } else {
            print("sgemm reference (1024x1024x1024, \(workers) threads): \(format(sgemm)) GFLOP/s")
            print("training, default net, batch 32, \(workers) workers: \(format(training.imagesPerSecond)) images/s, "
                  + "\(format(training.gflops)) GFLOP/s = \(format(efficiency * 100))% of sgemm")
            print("inference, 1 image, 1 thread: p50 \(format(latency.p50)) µs, p99 \(format(latency.p99)) µs")
        }
    }

    /// Best of several 1024³ sgemm calls with `threads` BLAS threads.
    func measureSGEMM(threads: Int) -> Double {
        let size = 1024
        let a = [Float](repeating: 0.5, count: size * size), b = a
        var c = [Float](repeating: 0, count: size * size)
        let saved = BLAS.threadCount
        BLAS.threadCount = threads
        defer { BLAS.threadCount = saved }
        var best = 0.0
        for _ in 0..<8 {
            let start = ContinuousClock.now
            BLAS.gemm(m: size, n: size, k: size, a: a, lda: size, b: b, ldb: size, c: &c, ldc: size)
            let seconds = (ContinuousClock.now - start).inSeconds
            best = max(best, 2 * Double(size * size * size) / seconds / 1e9)
        }
        return best
    }

    /// Trains the default network on 640 synthetic images (blobs of random ink).
    func measureTraining() throws -> (imagesPerSecond: Double, gflops: Double) {
        var generator = SeededGenerator(seed: 1)
        let images = (0..<640).map { _ in
            GrayImage(width: 28, height: 28, pixels: (0..<784).map { _ in generator.nextUnit() < 0.15 ? 255 : 0 })
        }
        let examples = LabeledExamples(images: images, labels: images.indices.map { $0 % 3 },
                                       sources: images.indices.map { "synthetic-\($0)" })
        var configuration = TrainingConfiguration()
        configuration.epochs = epochs
        configuration.workers = workers
        let trainer = try Trainer(configuration: configuration, classes: ["a", "b", "c"])
        let result = try trainer.train(examples, validation: nil)
        let flopsPerImage = 3 * Double(result.network.forwardFLOPsPerExample)
        return (result.imagesPerSecond, result.imagesPerSecond * flopsPerImage / 1e9)
    }

    /// p50 and p99 of single-image forward passes on one thread.
    func measureInferenceLatency() throws -> (p50: Double, p99: Double) {
        let network = try Network(architecture: .default, classCount: 3)
        network.initializeParameters(seed: 2)
        let saved = BLAS.threadCount
        BLAS.threadCount = 1
        defer { BLAS.threadCount = saved }
        var generator = SeededGenerator(seed: 3)
        let image = GrayImage(width: 28, height: 28, pixels: (0..<784).map { _ in generator.nextUnit() < 0.15 ? 255 : 0 })
        var samples: [Double] = []
        for iteration in 0..<2200 {
            let start = ContinuousClock.now
            network.forward(batch: 1, training: false) { ModelInput.fill(image, into: $0) }
            let micros = (ContinuousClock.now - start).inSeconds * 1e6
            if iteration >= 200 { samples.append(micros) }  // warm-up excluded
        }
        samples.sort()
        return (samples[samples.count / 2], samples[samples.count * 99 / 100])
    }
}

func round2(_ value: Double) -> Double { (value * 100).rounded() / 100 }
func format(_ value: Double) -> String { String(format: "%.1f", value) }

/// Prints a JSON object on one line to stdout, keys sorted.
func printJSON(_ object: Any) throws {
    let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
    print(String(decoding: data, as: UTF8.self))
}

extension Duration {
    var inSeconds: Double {
        let (whole, fraction) = components
        return Double(whole) + Double(fraction) * 1e-18
    }
}
