import Foundation
import StrokeData
import StrokeImage
import StrokeKit
import StrokeNN
import StrokeSupport
import StrokeTensor
import StrokeTraining
import Testing

/// Training on images of two channels (planes stacked top to bottom, as `Rasterizer` draws
/// `reference-height:P+aspect-fit`).
@Suite struct TwoChannelTrainingTests {
    /// Each image of `examples` over a copy of itself flipped upside down: two planes.
    func twoPlanes(_ examples: LabeledExamples) -> LabeledExamples {
        var result = examples
        result.images = examples.images.map { image in
            let flipped = (0..<image.height).reversed().flatMap { row in image.pixels[(row * image.width)..<((row + 1) * image.width)] }
            return GrayImage(width: image.width, height: 2 * image.height, pixels: image.pixels + flipped)
        }
        return result
    }

    @Test func eachPlaneIsAugmentedAloneWithTheSameTransform() {
        let examples = twoPlanes(barsAndBoxes(count: 6, seed: 4))
        let augmentation = ImageAugmentation.default
        for (index, image) in examples.images.enumerated() {
            let seed = UInt64(100 + index)
            let augmented = augmentation.augmentPlanes(image, seed: seed)
            #expect(augmented.width == 28 && augmented.height == 56)
            let top = GrayImage(width: 28, height: 28, pixels: Array(image.pixels[0..<784]))
            let bottom = GrayImage(width: 28, height: 28, pixels: Array(image.pixels[784...]))
            #expect(Array(augmented.pixels[0..<784]) == augmentation.augment(top, seed: seed).pixels)
            #expect(Array(augmented.pixels[784...]) == augmentation.augment(bottom, seed: seed).pixels)
        }
        // A square image is augmented whole.
        let square = barsAndBoxes(count: 1, seed: 5).images[0]
        #expect(augmentation.augmentPlanes(square, seed: 9) == augmentation.augment(square, seed: 9))
    }

    @Test func twoPlaneImagesTrainANetworkOfTwoInputChannels() throws {
        var configuration = TrainingConfiguration()
        configuration.architecture = try ArchitectureSpec(parsing: "c8-p-c16-p-d32")
        configuration.epochs = 2
        configuration.batchSize = 16
        configuration.augmentation = ImageAugmentation.default
        let examples = twoPlanes(barsAndBoxes(count: 48, seed: 6))
        let trainer = try Trainer(configuration: configuration, classes: ["h", "v", "box"])
        let result = try trainer.train(examples, validation: nil)
        #expect(result.network.inputChannels == 2)
        // The evaluator reads both planes: the same probabilities as Network.forward on them.
        let probabilities = Evaluator.probabilities(result.network, images: Array(examples.images.prefix(4)))
        let input = Tensor(shape: [4, 2, 28, 28],
                                        values: examples.images.prefix(4).flatMap { $0.pixels.map(ModelInput.value(ofLevel:)) })
        var logits = result.network.forward(input, training: false).values
        for row in 0..<4 {
            logits.withUnsafeMutableBufferPointer { Softmax.apply(UnsafeMutableBufferPointer(rebasing: $0[(row * 3)..<(row * 3 + 3)])) }
            for k in 0..<3 { #expect(abs(probabilities[row][k] - logits[row * 3 + k]) <= 1e-5) }
        }
    }

    @Test func imagesOfDifferentSizesAreRefused() throws {
        var mixed = twoPlanes(barsAndBoxes(count: 8, seed: 7))
        mixed.images[3] = barsAndBoxes(count: 1, seed: 8).images[0]
        var configuration = TrainingConfiguration()
        configuration.architecture = try ArchitectureSpec(parsing: "c8-p-d16")
        configuration.epochs = 1
        let trainer = try Trainer(configuration: configuration, classes: ["h", "v", "box"])
        #expect(throws: TrainingError.self) { try trainer.train(mixed, validation: nil) }
    }
}
