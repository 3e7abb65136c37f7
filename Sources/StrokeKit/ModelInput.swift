import StrokeImage

/// How a drawing becomes network input: a 28x28 white-on-black 8-bit image, each pixel
/// scaled to value / 255 (the model file records this as `strokekit.input.scale = 1/255`).
/// Training and inference both go through here, so they cannot disagree.
public enum ModelInput {
    /// The side of the square input image.
    public static let side = 28

    /// Writes `image` (side x side) into `buffer` as Float values in 0...1.
    @inlinable
    public static func fill(_ image: GrayImage, into buffer: UnsafeMutablePointer<Float>) {
        precondition(image.width == side && image.height == side,
                     "model input must be \(side)x\(side), got \(image.width)x\(image.height)")
        image.pixels.withUnsafeBufferPointer { pixels in
            for i in 0..<pixels.count { buffer[i] = Float(pixels[i]) * (1 / 255) }
        }
    }
}
