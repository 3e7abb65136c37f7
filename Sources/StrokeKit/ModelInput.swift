import StrokeImage

/// How a drawing becomes network input: a 28x28 white-on-black 8-bit image, each pixel
/// multiplied by the Float nearest 1/255 (the model file records this as
/// `strokekit.input.scale = 1/255`): exactly what an image scaler of 1/255 computes, so an
/// exported Core ML model fed the same 8-bit image sees the same floats.
/// This is the one place bytes become floats: training, evaluation, PNG prediction and
/// stroke classification all go through it, so they cannot disagree.
public enum ModelInput {
    /// The side of the square input image.
    public static let side = 28

    /// The multiplier from an 8-bit gray level to network input.
    public static let scale: Float = 1 / 255

    /// The network input of each 8-bit gray level: `levels[v] == Float(v) * scale`.
    public static let levels: [Float] = (0...255).map { Float($0) * scale }

    /// The network input for one 8-bit gray level (0 -> 0, 255 -> 1).
    @inlinable
    public static func value(ofLevel level: UInt8) -> Float {
        levels[Int(level)]
    }

    /// Writes `pixels` (side x side bytes, row-major, or several such planes one after the
    /// other: the channels of a multi-channel input) into `buffer` as floats in 0...1.
    public static func fill(pixels: UnsafeBufferPointer<UInt8>, into buffer: UnsafeMutablePointer<Float>) {
        precondition(pixels.count > 0 && pixels.count % (side * side) == 0,
                     "model input must be \(side)x\(side) pixels per channel, got \(pixels.count)")
        // A table lookup per pixel: the same floats as the multiplication.
        levels.withUnsafeBufferPointer { table in
            for index in 0..<pixels.count { buffer[index] = table[Int(pixels[index])] }
        }
    }

    /// Writes `image` (side x side, or side x (side * channels): the channels' planes stacked
    /// top to bottom, as `Rasterizer` draws a multi-channel framing) into `buffer` as floats in 0...1.
    public static func fill(_ image: GrayImage, into buffer: UnsafeMutablePointer<Float>) {
        precondition(image.width == side && image.height > 0 && image.height % side == 0,
                     "model input must be \(side)x\(side) per channel, got \(image.width)x\(image.height)")
        image.pixels.withUnsafeBufferPointer { fill(pixels: $0, into: buffer) }
    }
}
