import CPNG
import Foundation
import StrokeImage

/// PNG files made with libpng's simplified writer at test time, in the layouts it can
/// write: 8-bit gray / gray+alpha / RGB / RGBA, 16-bit linear, and colour-mapped (palette,
/// with a tRNS chunk when the colour-map has alpha). Sub-8-bit and interlaced files are
/// committed fixtures instead (scripts/make-png-fixtures.py).
public enum PNGFixtures {
    /// Channel layout of the samples passed to the encoders.
    public enum Layout: Sendable, CaseIterable {
        case gray, grayAlpha, rgb, rgba

        public var channels: Int {
            switch self {
            case .gray: 1
            case .grayAlpha: 2
            case .rgb: 3
            case .rgba: 4
            }
        }

        var format: UInt32 {
            switch self {
            case .gray: UInt32(PNG_FORMAT_GRAY)
            case .grayAlpha: UInt32(PNG_FORMAT_GA)
            case .rgb: UInt32(PNG_FORMAT_RGB)
            case .rgba: UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)
            }
        }
    }

    /// An 8-bit PNG of `layout`; `samples` holds `width * height * channels` sRGB bytes, row-major.
    public static func encode(width: Int, height: Int, layout: Layout, samples: [UInt8]) -> [UInt8] {
        precondition(samples.count == width * height * layout.channels, "fixture sample count mismatch")
        return samples.withUnsafeBytes { write(width: width, height: height, format: layout.format,
                                               convertTo8Bit: false, buffer: $0.baseAddress!, colormap: nil) }
    }

    /// A 16-bit PNG from linear samples (0...65535, libpng's linear formats); libpng writes
    /// a gAMA chunk saying the data is linear.
    public static func encodeLinear(width: Int, height: Int, layout: Layout, samples: [UInt16]) -> [UInt8] {
        precondition(samples.count == width * height * layout.channels, "fixture sample count mismatch")
        let format = layout.format | UInt32(PNG_FORMAT_FLAG_LINEAR)
        return samples.withUnsafeBytes { write(width: width, height: height, format: format,
                                               convertTo8Bit: false, buffer: $0.baseAddress!, colormap: nil) }
    }

    /// A palette PNG: `colormap` holds `entries * layout.channels` sRGB bytes (use `.rgba`
    /// or `.grayAlpha` to get a tRNS chunk), `indices` one byte per pixel.
    public static func encodeColormapped(
        width: Int, height: Int, layout: Layout, colormap: [UInt8], indices: [UInt8]
    ) -> [UInt8] {
        precondition(indices.count == width * height, "fixture index count mismatch")
        precondition(colormap.count % layout.channels == 0, "colormap size is not a whole number of entries")
        let format = layout.format | UInt32(PNG_FORMAT_FLAG_COLORMAP)
        return indices.withUnsafeBytes { pixels in
            colormap.withUnsafeBytes { map in
                write(width: width, height: height, format: format, convertTo8Bit: false,
                      buffer: pixels.baseAddress!, colormap: map.baseAddress!,
                      colormapEntries: colormap.count / layout.channels)
            }
        }
    }

    /// Writes `image` as an 8-bit gray PNG file at `url`, creating its folder.
    public static func writeGray(_ image: GrayImage, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let bytes = encode(width: image.width, height: image.height, layout: .gray, samples: image.pixels)
        try Data(bytes).write(to: url)
    }

    /// `bytes` with every chunk's CRC recomputed, walking the chunk structure after the
    /// signature as far as the lengths allow. Fuzz tests use it so that mutated chunk data
    /// reaches libpng's parsers instead of stopping at the CRC check.
    public static func withRecomputedCRCs(_ bytes: [UInt8]) -> [UInt8] {
        var result = bytes
        var offset = 8
        while offset + 12 <= result.count {
            let length = result[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let end = offset + 8 + length  // CRC covers type + data, and starts here
            guard length >= 0, end + 4 <= result.count else { break }
            let crc = crc32(result[(offset + 4)..<end])
            for byte in 0..<4 { result[end + byte] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * UInt32(byte))) }
            offset = end + 4
        }
        return result
    }

    /// CRC-32 as PNG defines it (ISO 3309, polynomial 0xEDB88320, reflected).
    public static func crc32(_ bytes: some Collection<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    private static func write(
        width: Int, height: Int, format: UInt32, convertTo8Bit: Bool,
        buffer: UnsafeRawPointer, colormap: UnsafeRawPointer?, colormapEntries: Int = 0
    ) -> [UInt8] {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(width)
        image.height = UInt32(height)
        image.format = format
        image.colormap_entries = UInt32(colormapEntries)
        defer { png_image_free(&image) }
        var size = 0
        let convert: Int32 = convertTo8Bit ? 1 : 0
        precondition(png_image_write_to_memory(&image, nil, &size, convert, buffer, 0, colormap) != 0,
                     "libpng could not size the fixture: \(message(of: image))")
        var output = [UInt8](repeating: 0, count: size)
        let status = output.withUnsafeMutableBytes {
            png_image_write_to_memory(&image, $0.baseAddress, &size, convert, buffer, 0, colormap)
        }
        precondition(status != 0, "libpng could not write the fixture: \(message(of: image))")
        return Array(output.prefix(size))
    }

    private static func message(of image: png_image) -> String {
        withUnsafeBytes(of: image.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
}
