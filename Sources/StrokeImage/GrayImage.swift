/// An 8-bit grayscale image, row-major, one byte per pixel (0 = black, 255 = white).
/// StrokeKit's drawings are white ink on black, as in MNIST.
public struct GrayImage: Sendable, Hashable {
    public let width: Int
    public let height: Int
    /// `width * height` bytes, top row first.
    public var pixels: [UInt8]

    /// A black image of the given size.
    public init(width: Int, height: Int) {
        precondition(width >= 0 && height >= 0, "Image size \(width)x\(height) is negative")
        self.width = width
        self.height = height
        self.pixels = [UInt8](repeating: 0, count: width * height)
    }

    /// An image from `pixels` (row-major, `width * height` bytes).
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height,
                     "Image \(width)x\(height) needs \(width * height) pixels, got \(pixels.count)")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The pixel at column `x`, row `y`.
    public subscript(x: Int, y: Int) -> UInt8 {
        get { pixels[y * width + x] }
        set { pixels[y * width + x] = newValue }
    }
}
