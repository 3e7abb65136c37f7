import Foundation
import StrokeImage

/// PNG bytes for report images: `StrokeImage.PNG.encode` (libpng), with its error as a
/// `ReportError`.
enum PNGEncoder {
    /// PNG bytes of an 8-bit gray image.
    static func encode(_ image: GrayImage) throws(ReportError) -> Data {
        try encode(pixels: image.pixels, width: image.width, height: image.height, layout: .gray)
    }

    /// PNG bytes of an 8-bit RGB image.
    static func encode(_ image: RGBImage) throws(ReportError) -> Data {
        try encode(pixels: image.pixels, width: image.width, height: image.height, layout: .rgb)
    }

    private static func encode(pixels: [UInt8], width: Int, height: Int, layout: PNG.PixelLayout) throws(ReportError) -> Data {
        do {
            return Data(try PNG.encode(pixels: pixels, width: width, height: height, layout: layout))
        } catch let error as PNGError {
            if case .encodingFailed(let detail) = error { throw .pngEncodingFailed(detail) }
            throw .pngEncodingFailed(error.description)
        } catch {
            throw .pngEncodingFailed("\(error)")
        }
    }
}
