import Foundation
import StrokeSupport
import StrokeExport
import StrokeKit
import StrokeModelFile
import StrokeNN
import StrokeTensor

/// Models and folders shared by the export tests.
enum ExportFixtures {
    /// A non-default architecture: 5x5 and 1x1 kernels, a pool of an odd (7x7) map, dropout.
    static let smallArchitecture = "c8k5-p-c16-p-c24k1-p-d32-dr0.5"

    /// A network of `architecture` with seeded weights and small non-zero biases.
    static func model(architecture: String = ArchitectureSpec.default.description,
                      classes: [String] = ["arrow", "circle", "cycle", "none"],
                      extra: [String: String] = [:], seed: UInt64 = 3) -> TrainedModel {
        let network = try! Network(architecture: ArchitectureSpec(parsing: architecture), classCount: classes.count)
        network.initializeParameters(seed: seed)
        var generator = SeededGenerator(seed: seed &+ 1)
        for parameter in network.parameters where parameter.value.shape.count == 1 {
            for index in 0..<parameter.value.count { parameter.value.values[index] = Float(generator.nextUnit() - 0.5) * 0.1 }
        }
        return TrainedModel(network: network, metadata: TrainedModel.metadata(for: network, classes: classes, extra: extra))
    }

    /// An exporter for an in-memory model.
    static func exporter(_ model: TrainedModel) -> ModelExporter {
        try! ModelExporter(model: model, source: "test.safetensors")
    }

    /// Random 28x28 inputs scaled as ModelInput does, (N, 1, 28, 28).
    static func inputs(count: Int, seed: UInt64) -> Tensor {
        var generator = SeededGenerator(seed: seed)
        let values = (0..<(count * 784)).map { _ in
            generator.nextUnit() < 0.25 ? ModelInput.value(ofLevel: UInt8(truncatingIfNeeded: generator.next() % 256)) : 0
        }
        return Tensor(shape: [count, 1, 28, 28], values: values)
    }

    /// A fresh temporary directory, removed after `body`.
    static func withTemporaryDirectory<Result>(_ body: (URL) throws -> Result) rethrows -> Result {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("strokekit-export-tests-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        return try body(directory)
    }
}
