import StrokeTensor

extension LabeledImageDataset {
    /// Writes the images at `indices` into `tensor` as shape (N, 1, side, side), N =
    /// `indices.count`, each value `pixel / 255` (the model's input scaling: 0 black, 1 white).
    /// The tensor's storage is reused when N is unchanged, so a training loop allocates once.
    public func fillInputs(for indices: some Collection<Int>, into tensor: inout Tensor) {
        let pixelCount = imageSide * imageSide
        tensor.reshapeDiscardingContents(to: [indices.count, 1, imageSide, imageSide])
        tensor.values.withUnsafeMutableBufferPointer { values in
            for (position, sampleIndex) in indices.enumerated() {
                let pixels = samples[sampleIndex].image.pixels
                let offset = position * pixelCount
                for pixel in 0..<pixelCount {
                    values[offset + pixel] = Float(pixels[pixel]) / 255
                }
            }
        }
    }

    /// The class indices of the samples at `indices`, in the same order.
    public func labels(for indices: some Collection<Int>) -> [Int] {
        indices.map { samples[$0].classIndex }
    }
}
