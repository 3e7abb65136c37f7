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

extension TrainingAugmentation {
    /// `augment(_:seed:)` of each channel's plane of a multi-channel image (planes of
    /// `image.width` rows stacked top to bottom, as `Rasterizer` draws them), every plane with
    /// the same seed, hence the same transform; a square image is augmented whole.
    public func augmentPlanes(_ image: GrayImage, seed: UInt64) -> GrayImage {
        let side = image.width
        guard side > 0, image.height > side, image.height % side == 0 else { return augment(image, seed: seed) }
        let plane = side * side
        var pixels: [UInt8] = []
        pixels.reserveCapacity(image.pixels.count)
        for start in stride(from: 0, to: image.pixels.count, by: plane) {
            let channel = GrayImage(width: side, height: side, pixels: Array(image.pixels[start..<(start + plane)]))
            pixels += augment(channel, seed: seed).pixels
        }
        return GrayImage(width: side, height: image.height, pixels: pixels)
    }
}
