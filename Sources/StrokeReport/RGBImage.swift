import Foundation  // pow

/// An 8-bit RGB image, row-major, three bytes (red, green, blue) per pixel, top row first.
/// Only the heatmap PNG needs colour; StrokeKit's drawings stay `GrayImage`.
public struct RGBImage: Sendable, Hashable {
    public let width: Int
    public let height: Int
    /// `width * height * 3` bytes.
    public var pixels: [UInt8]

    /// An image of the given size filled with one colour.
    public init(width: Int, height: Int, fill: RGB = .white) {
        precondition(width >= 0 && height >= 0, "Image size \(width)x\(height) is negative")
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: 0, count: width * height * 3)
        if fill != .black { fillRectangle(x: 0, y: 0, width: width, height: height, with: fill) }
    }

    /// The pixel at column `x`, row `y`.
    public subscript(x: Int, y: Int) -> RGB {
        get {
            let offset = (y * width + x) * 3
            return RGB(pixels[offset], pixels[offset + 1], pixels[offset + 2])
        }
        set {
            let offset = (y * width + x) * 3
            pixels[offset] = newValue.red
            pixels[offset + 1] = newValue.green
            pixels[offset + 2] = newValue.blue
        }
    }

    /// Paints a rectangle, clipped to the image.
    public mutating func fillRectangle(x: Int, y: Int, width: Int, height: Int, with colour: RGB) {
        let left = max(0, x), right = min(self.width, x + width)
        let top = max(0, y), bottom = min(self.height, y + height)
        guard left < right, top < bottom else { return }
        let imageWidth = self.width
        pixels.withUnsafeMutableBufferPointer { buffer in
            for row in top..<bottom {
                var offset = (row * imageWidth + left) * 3
                for _ in left..<right {
                    buffer[offset] = colour.red
                    buffer[offset + 1] = colour.green
                    buffer[offset + 2] = colour.blue
                    offset += 3
                }
            }
        }
    }
}

/// A colour with 8-bit channels.
public struct RGB: Sendable, Hashable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    public static let white = RGB(255, 255, 255)
    public static let black = RGB(0, 0, 0)

    /// `#rrggbb`, for CSS.
    public var hex: String {
        func twoDigits(_ value: UInt8) -> String {
            let digits = String(value, radix: 16)
            return value < 16 ? "0" + digits : digits
        }
        return "#" + twoDigits(red) + twoDigits(green) + twoDigits(blue)
    }

    /// Relative luminance (WCAG 2), 0 for black to 1 for white.
    public var luminance: Double {
        func linear(_ channel: UInt8) -> Double {
            let value = Double(channel) / 255
            return value <= 0.04045 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
    }
}
