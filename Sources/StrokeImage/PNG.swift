import CPNG
import Foundation

/// PNG reading and writing through libpng's simplified API (`png_image_*`), which
/// reports errors as a status and a message, so libpng's longjmp never crosses Swift frames.
///
/// Reading accepts every PNG kind (gray at 1/2/4/8/16 bits, gray+alpha, RGB, RGBA,
/// palette with or without tRNS, interlaced) and returns 8-bit sRGB-encoded luminance:
/// - Colour becomes luminance the way libpng's simplified API does it: decoded to linear
///   light with the sRGB curve, weighted by the sRGB/Rec. 709 coefficients, re-encoded.
/// - Alpha is composited onto black: the output buffer is zeroed and no background colour
///   is passed, so libpng blends onto the buffer (in linear light). A half-transparent white
///   pixel therefore reads as about 188, not 128. StrokeKit's inputs are white ink on black,
///   so a transparent background must read as black.
/// - 16-bit images without a gAMA or sRGB chunk are taken as sRGB-encoded (like 8-bit ones
///   and like common viewers), not as linear, which is libpng's default; files that do carry
///   gamma information are converted accordingly. NOTE: for gamma-tagged 16-bit data libpng
///   uses its gamma-2.2 power law rather than the exact sRGB curve (linear 0.5 reads as 186,
///   not 188; the two differ most in the darkest tenth).
/// - libpng stops reading after the image data, so a file cut inside its final IEND chunk
///   still decodes; a cut anywhere earlier is `PNGError.truncated`.
/// - libpng warnings (e.g. about an ICC profile) are ignored; only errors throw.
/// - Every chunk before the image data must fit in the file: libpng allocates some chunks
///   (eXIf) by their declared length, so a small file declaring a huge chunk is
///   `PNGError.truncated` before libpng reads it.
/// - Limits come before any allocation of pixels: the header's size against `maximumSide` and
///   `maximumPixelCount`, then against what the file's bytes can inflate to (a small file
///   declaring a large image is `PNGError.truncated` at once, not an allocation of its size).
///   libpng's own limits stay at its defaults (chunks of at most 8 MB, 1,000 cached unknown
///   chunks): the simplified API gives no access to png_set_user_limits or
///   png_set_chunk_malloc_max, and it skips every chunk that does not affect the pixels
///   (text, unknown chunks); an ICC profile is still read and checked, within the 8 MB.
/// Writing produces an 8-bit grayscale PNG.
public enum PNG {
    /// Largest accepted width or height, so a hostile header cannot request a huge allocation.
    public static let maximumSide = 16_384
    /// Largest accepted pixel count (64 Mi pixels, 64 MiB of gray output).
    public static let maximumPixelCount = 1 << 26

    private static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Decodes PNG bytes to an 8-bit luminance image. `source` names the data in error messages.
    public static func decode(_ bytes: [UInt8], source: String) throws -> GrayImage {
        try checkSignature(bytes, source: source)
        try checkChunkLengths(bytes, source: source)
        return try bytes.withUnsafeBytes { memory in
            var image = png_image()
            image.version = UInt32(PNG_IMAGE_VERSION)
            defer { png_image_free(&image) }

            // libpng keeps `memory` until finish_read returns: both calls stay in this closure.
            guard png_image_begin_read_from_memory(&image, memory.baseAddress, memory.count) != 0 else {
                throw readError(message(of: image), source: source)
            }
            let width = Int(image.width), height = Int(image.height)
            guard width <= maximumSide, height <= maximumSide, width * height <= maximumPixelCount else {
                throw PNGError.tooLarge(source: source, width: width, height: height)
            }
            // Nothing is allocated for the pixels before the file is known to be able to hold them.
            try checkDataCanHoldImage(bytes, width: width, height: height, source: source)
            image.format = UInt32(PNG_FORMAT_GRAY)
            image.flags |= UInt32(PNG_IMAGE_FLAG_16BIT_sRGB)  // set after begin_read, which resets flags

            // Zeroed buffer + NULL background: libpng composites any alpha onto black.
            var pixels = [UInt8](repeating: 0, count: width * height)
            let status = pixels.withUnsafeMutableBytes { buffer in
                png_image_finish_read(&image, nil, buffer.baseAddress, png_int_32(width), nil)
            }
            guard status != 0 else { throw readError(message(of: image), source: source) }
            return GrayImage(width: width, height: height, pixels: pixels)
        }
    }

    /// Reads and decodes the PNG file at `url`; errors name the file's path.
    public static func read(contentsOf url: URL) throws -> GrayImage {
        try decode(readBytes(of: url), source: url.path)
    }

    /// Reads a file's bytes, turning file-system failures into `PNGError.unreadable`
    /// (and an empty file into `PNGError.emptyFile`). `source` names the file in errors.
    public static func readBytes(of url: URL, source: String? = nil) throws -> [UInt8] {
        let source = source ?? url.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw PNGError.unreadable(source: source, reason: "no such file")
        }
        guard !isDirectory.boolValue else {
            throw PNGError.unreadable(source: source, reason: "it is a folder, not a file")
        }
        guard FileManager.default.isReadableFile(atPath: url.path) else {
            throw PNGError.unreadable(source: source, reason: "permission denied")
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw PNGError.unreadable(source: source, reason: error.localizedDescription)
        }
        guard !data.isEmpty else { throw PNGError.emptyFile(source: source) }
        return [UInt8](data)
    }

    /// Channel layouts `encode(pixels:width:height:layout:)` writes.
    public enum PixelLayout: Sendable {
        /// One byte per pixel.
        case gray
        /// Three bytes per pixel, red, green, blue.
        case rgb

        var channels: Int { self == .gray ? 1 : 3 }
        var libpngFormat: UInt32 { self == .gray ? UInt32(PNG_FORMAT_GRAY) : UInt32(PNG_FORMAT_RGB) }
    }

    /// Encodes `image` as an 8-bit grayscale PNG (`png_image_write_to_memory`).
    /// Throws `PNGError.encodingFailed` for an image libpng cannot write (e.g. 0 pixels wide).
    public static func encode(_ image: GrayImage) throws -> [UInt8] {
        try encode(pixels: image.pixels, width: image.width, height: image.height, layout: .gray)
    }

    /// Encodes 8-bit `pixels` (row-major, `layout.channels` bytes per pixel) as a PNG.
    public static func encode(pixels: [UInt8], width: Int, height: Int, layout: PixelLayout) throws -> [UInt8] {
        guard width > 0, height > 0 else {
            throw PNGError.encodingFailed(detail: "image is \(width)x\(height); PNG needs at least 1x1")
        }
        guard width <= maximumSide, height <= maximumSide else {
            throw PNGError.encodingFailed(detail: "image is \(width)x\(height), over the \(maximumSide) limit")
        }
        precondition(pixels.count == width * height * layout.channels,
                     "\(width)x\(height) \(layout) pixels need \(width * height * layout.channels) bytes, got \(pixels.count)")
        var header = png_image()
        header.version = UInt32(PNG_IMAGE_VERSION)
        header.width = UInt32(width)
        header.height = UInt32(height)
        header.format = layout.libpngFormat
        defer { png_image_free(&header) }

        return try pixels.withUnsafeBytes { pixels in
            // First call with no memory asks for the size; the second writes.
            var size = 0
            guard png_image_write_to_memory(&header, nil, &size, 0, pixels.baseAddress, 0, nil) != 0 else {
                throw PNGError.encodingFailed(detail: message(of: header))
            }
            var output = [UInt8](repeating: 0, count: size)
            let status = output.withUnsafeMutableBytes { memory in
                png_image_write_to_memory(&header, memory.baseAddress, &size, 0, pixels.baseAddress, 0, nil)
            }
            guard status != 0 else { throw PNGError.encodingFailed(detail: message(of: header)) }
            output.removeLast(output.count - size)
            return output
        }
    }

    // MARK: - Helpers

    private static func checkSignature(_ bytes: [UInt8], source: String) throws {
        if bytes.isEmpty { throw PNGError.emptyFile(source: source) }
        let prefix = bytes.prefix(signature.count)
        guard prefix.elementsEqual(signature.prefix(prefix.count)) else {
            throw PNGError.notPNG(source: source)
        }
        if prefix.count < signature.count {
            throw PNGError.truncated(source: source, detail: "only \(bytes.count) bytes of the 8-byte signature")
        }
    }

    /// Refuses, before libpng sees the data, a chunk before the image data whose declared
    /// length runs past the end of the file. libpng allocates some chunks' buffers from their
    /// declared length before reading them, beyond its chunk limit (1.6.39: an eXIf chunk
    /// declaring 1.1 GB in a 3.6 KB file is a 1.1 GB allocation), so every length up to the
    /// first IDAT is checked against the bytes there are. The image data and what follows it
    /// are left to libpng, which reads them in small pieces and stops after the image.
    private static func checkChunkLengths(_ bytes: [UInt8], source: String) throws {
        var offset = signature.count
        while offset + 8 <= bytes.count {
            let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let type = bytes[offset + 4..<offset + 8]
            if type.elementsEqual("IDAT".utf8) || type.elementsEqual("IEND".utf8) { return }
            let following = bytes.count - offset - 8
            guard length <= following else {
                let name = type.allSatisfy { (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
                    ? "'\(String(decoding: type, as: UTF8.self))'"
                    : "of type " + type.map { String($0, radix: 16) }.joined(separator: " ")
                throw PNGError.truncated(source: source, detail: "the chunk \(name) at byte \(offset) declares "
                    + "\(length) bytes of data, but only \(following) bytes follow")
            }
            offset += 12 + length
        }
    }

    /// Deflate's largest possible expansion: at best one 258-byte match costs two bits, so
    /// no zlib stream inflates to more than 1032 times its own size.
    private static let maximumInflationRatio = 1032

    /// The fewest bytes of pixel data an image of this size and kind holds: its pixels'
    /// bits without the filter bytes (a lower bound for interlaced images too), from the
    /// bit depth and colour type in the IHDR chunk, which libpng has just read and checked
    /// (it is the first chunk: bytes 8 to 33 of the file).
    private static func minimumPixelDataBytes(_ bytes: [UInt8], width: Int, height: Int) -> Int {
        let bitDepth = Int(bytes[24]), colourType = bytes[25]
        let channels: Int
        switch colourType {
        case 2: channels = 3   // RGB
        case 4: channels = 2   // gray + alpha
        case 6: channels = 4   // RGBA
        default: channels = 1  // gray, palette
        }
        return (width * height * channels * bitDepth + 7) / 8
    }

    /// Refuses, before the pixel buffer is allocated, a header declaring more pixel data
    /// than the file's bytes could inflate to (a hostile or damaged header on a small file
    /// would otherwise cost an allocation of up to `maximumPixelCount` bytes).
    private static func checkDataCanHoldImage(_ bytes: [UInt8], width: Int, height: Int, source: String) throws {
        let needed = minimumPixelDataBytes(bytes, width: width, height: height)
        let possible = bytes.count * maximumInflationRatio
        guard needed <= possible else {
            throw PNGError.truncated(source: source, detail: "the header declares a \(width)x\(height) image, "
                + "\(needed) bytes of pixel data, but the file's \(bytes.count) bytes can hold at most "
                + "\(possible) (zlib inflates at most \(maximumInflationRatio)-fold)")
        }
    }

    /// Sorts libpng's message into truncated versus corrupt data. The memory reader says
    /// "read beyond end of data" when the stream ends early.
    private static func readError(_ message: String, source: String) -> PNGError {
        if message.contains("beyond end of data") {
            return .truncated(source: source, detail: message)
        }
        return .corrupt(source: source, detail: message.isEmpty ? "unknown error" : message)
    }

    /// The NUL-terminated `message` field of a `png_image`.
    private static func message(of image: png_image) -> String {
        withUnsafeBytes(of: image.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
