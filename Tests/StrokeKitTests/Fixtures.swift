import Foundation
import StrokeImage
import StrokeKit
import StrokeModelFile
import StrokeNN
import StrokeTensor
import StrokeSupport

/// Models, images and files shared by the StrokeKit tests.
enum Fixtures {
    static let classes = ["arrow", "circle", "cycle"]

    /// The default architecture with He-initialised weights (and, since He init zeroes biases,
    /// small non-zero biases so that the bias tensors are exercised too).
    static func model(classes: [String] = classes, seed: UInt64 = 7, extra: [String: String] = [:],
                      inputChannels: Int = 1) -> TrainedModel {
        let network = try! Network(architecture: .default, classCount: classes.count, inputChannels: inputChannels)
        network.initializeParameters(seed: seed)
        var generator = SeededGenerator(seed: seed &+ 1)
        for parameter in network.parameters where parameter.value.shape.count == 1 {
            for index in 0..<parameter.value.count { parameter.value.values[index] = Float(generator.nextUnit() - 0.5) * 0.1 }
        }
        return TrainedModel(network: network, metadata: TrainedModel.metadata(for: network, classes: classes, extra: extra))
    }

    /// 28x28 drawings of random ink: about a fifth of the pixels lit, at random levels.
    static func images(count: Int, seed: UInt64) -> [GrayImage] {
        var generator = SeededGenerator(seed: seed)
        return (0..<count).map { _ in
            GrayImage(width: 28, height: 28, pixels: (0..<784).map { _ in
                generator.nextUnit() < 0.2 ? UInt8(truncatingIfNeeded: generator.next() % 256) : 0
            })
        }
    }

    /// The images as a network input tensor (N, 1, 28, 28), through `ModelInput`.
    static func inputTensor(_ images: [GrayImage]) -> Tensor {
        Tensor(shape: [images.count, 1, 28, 28], values: images.flatMap { $0.pixels.map(ModelInput.value(ofLevel:)) })
    }

    /// A fresh temporary directory, removed after `body`.
    static func withTemporaryDirectory<Result>(_ body: (URL) throws -> Result) rethrows -> Result {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("strokekit-tests-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        return try body(directory)
    }
}
