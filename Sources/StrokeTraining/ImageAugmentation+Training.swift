import StrokeData
import StrokeImage
import StrokeTensor
import StrokeSupport

extension ImageAugmentation: TrainingAugmentation {
    /// One seeded random transform of `image` (see `ImageAugmentation.apply`).
    public func augment(_ image: GrayImage, seed: UInt64) -> GrayImage {
        var generator = SeededGenerator(seed: seed)
        return apply(to: image, using: &generator)
    }
}
