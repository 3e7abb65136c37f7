import CPNG
import Foundation
import StrokeImage

/// PNG bytes for report images, through libpng's simplified write API.
///
/// TODO: the gray path duplicates `StrokeImage.PNG.encode(GrayImage)` (being written on the
/// `data` branch); switch `encode(_: GrayImage)` to it once it lands. RGB stays here: only
/// the report draws in colour.
enum PNGEncoder {
    /// PNG bytes of an 8-bit gray image.
    static func encode(_ image: GrayImage) throws(ReportError) -> Data {
        try encode(pixels: image.pixels, width: image.width, height: image.height, format: UInt32(PNG_FORMAT_GRAY))
    }

    /// PNG bytes of an 8-bit RGB image.
    static func encode(_ image: RGBImage) throws(ReportError) -> Data {
        try encode(pixels: image.pixels, width: image.width, height: image.height, format: UInt32(PNG_FORMAT_RGB))
    }

    /// `png_image_write_to_memory` twice: once to learn the size, once to write. The simplified
    /// API returns a status and a message instead of longjmp-ing through our frames.
    private static func encode(pixels: [UInt8], width: Int, height: Int, format: UInt32) throws(ReportError) -> Data {
        guard width > 0, height > 0 else {
            throw .pngEncodingFailed("an image of \(width)x\(height) pixels has nothing to encode")
        }
        var image = png_image()
        image.version = png_uint_32(PNG_IMAGE_VERSION)
        image.width = png_uint_32(width)
        image.height = png_uint_32(height)
        image.format = png_uint_32(format)
        defer { png_image_free(&image) }

        var size: png_alloc_size_t = 0
        var data = Data()
        let status: Int32 = pixels.withUnsafeBytes { buffer in
            guard png_image_write_to_memory(&image, nil, &size, 0, buffer.baseAddress, 0, nil) != 0 else {
                return 0
            }
            data = Data(count: Int(size))
            return data.withUnsafeMutableBytes { output in
                png_image_write_to_memory(&image, output.baseAddress, &size, 0, buffer.baseAddress, 0, nil)
            }
        }
        guard status != 0 else {
            let message = withUnsafeBytes(of: image.message) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            throw .pngEncodingFailed(message.isEmpty ? "libpng gave no reason" : message)
        }
        return data.prefix(Int(size))
    }
}
