import Foundation
import Testing
import StrokeImage
import TestSupport

/// Every size limit on outside input, fed an input just over it: a clear error naming the
/// limit, never a crash or an allocation of the declared size.
@Suite struct InputLimitTests {
    /// One drawing with `strokes` strokes of `points` points each, as an ndjson line.
    func line(strokes: Int, points: Int) -> String {
        let xs = (0..<points).map(String.init).joined(separator: ",")
        let stroke = "[[\(xs)],[\(xs)]]"
        return "{\"drawing\":[" + Array(repeating: stroke, count: strokes).joined(separator: ",") + "]}"
    }

    func expectOverLimit(_ text: String, limits: QuickDraw.Limits = QuickDraw.Limits(), named limit: String) {
        do {
            _ = try QuickDraw.parse(text, source: "big.ndjson", limits: limits)
            Issue.record("a line over \(limit) was accepted")
        } catch let error as QuickDrawError {
            guard case .overLimit(_, _, _, _, let name, _) = error else {
                Issue.record("expected the \(limit) limit, got \(error)")
                return
            }
            #expect(name == limit)
            #expect(error.description.contains("QuickDraw.Limits.\(limit)"), "\(error)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func pointsPerStrokeJustOverTheDefaultLimit() throws {
        let limit = QuickDraw.Limits().maximumPointsPerStroke
        #expect(try QuickDraw.parse(line(strokes: 1, points: limit), source: "ok.ndjson").drawings.count == 1)
        expectOverLimit(line(strokes: 1, points: limit + 1), named: "maximumPointsPerStroke")
    }

    @Test func strokesPerDrawingJustOverTheDefaultLimit() throws {
        let limit = QuickDraw.Limits().maximumStrokesPerDrawing
        #expect(try QuickDraw.parse(line(strokes: limit, points: 1), source: "ok.ndjson").drawings.count == 1)
        expectOverLimit(line(strokes: limit + 1, points: 1), named: "maximumStrokesPerDrawing")
    }

    @Test func lineBytesJustOverTheDefaultLimit() throws {
        let limit = QuickDraw.Limits().maximumLineBytes
        let drawing = line(strokes: 1, points: 2)
        let padded = drawing.dropLast() + String(repeating: " ", count: limit - drawing.utf8.count) + "}"
        #expect(padded.utf8.count == limit)
        #expect(try QuickDraw.parse(String(padded), source: "ok.ndjson").drawings.count == 1)
        expectOverLimit(String(padded) + " ", named: "maximumLineBytes")
    }

    @Test func limitsCanBeRaisedOrLowered() throws {
        let small = QuickDraw.Limits(maximumLineBytes: 1_000, maximumStrokesPerDrawing: 2, maximumPointsPerStroke: 3)
        expectOverLimit(line(strokes: 1, points: 4), limits: small, named: "maximumPointsPerStroke")
        expectOverLimit(line(strokes: 3, points: 1), limits: small, named: "maximumStrokesPerDrawing")
        let large = QuickDraw.Limits(maximumPointsPerStroke: 200_000)
        #expect(try QuickDraw.parse(line(strokes: 1, points: 150_000), source: "big.ndjson", limits: large).drawings.count == 1)
    }

    /// A valid 1x1 PNG whose IHDR declares `width` x `height` (CRCs fixed): the decoder must
    /// refuse it from the header alone.
    func declaring(width: UInt32, height: UInt32) -> [UInt8] {
        var bytes = PNGFixtures.encode(width: 1, height: 1, layout: .gray, samples: [0])
        for byte in 0..<4 {
            bytes[16 + byte] = UInt8(truncatingIfNeeded: width >> (24 - 8 * UInt32(byte)))
            bytes[20 + byte] = UInt8(truncatingIfNeeded: height >> (24 - 8 * UInt32(byte)))
        }
        return PNGFixtures.withRecomputedCRCs(bytes)
    }

    @Test func imagePixelsJustOverTheLimits() {
        let side = UInt32(PNG.maximumSide)
        let rows = UInt32(PNG.maximumPixelCount / PNG.maximumSide)
        for (width, height) in [(side + 1, 1), (side, rows + 1)] {
            #expect(throws: PNGError.tooLarge(source: "big.png", width: Int(width), height: Int(height))) {
                try PNG.decode(declaring(width: width, height: height), source: "big.png")
            }
        }
        let message = PNGError.tooLarge(source: "big.png", width: 1, height: 1).description
        #expect(message.contains("PNG.maximumPixelCount"), "\(message)")
    }

    /// A header within the limits on a file far too small to hold the image it declares:
    /// refused from the header and the file's size, before the pixel buffer is allocated
    /// (the error is the size check's, not libpng's "Not enough image data" after allocating).
    @Test func declaredImageTheFileCannotHoldIsRefusedBeforeAllocating() throws {
        let side = UInt32(PNG.maximumSide)
        let rows = UInt32(PNG.maximumPixelCount / PNG.maximumSide)
        // depth 8 gray (as encoded), then depth 1 gray (8 pixels a byte), then 16-bit RGBA.
        for (depth, colourType) in [(UInt8(8), UInt8(0)), (1, 0), (16, 6)] {
            var bytes = declaring(width: side, height: rows)
            bytes[24] = depth
            bytes[25] = colourType
            bytes = PNGFixtures.withRecomputedCRCs(bytes)
            expectTruncated(bytes, saying: "declares a \(side)x\(rows) image, ",
                            "the file's \(bytes.count) bytes can hold at most")
        }
    }

    /// Decoding `bytes` as "hostile.png" throws `PNGError.truncated` naming it, with a detail
    /// containing every one of `phrases` (each check's own wording, not libpng's).
    func expectTruncated(_ bytes: [UInt8], saying phrases: String...) {
        do {
            _ = try PNG.decode(bytes, source: "hostile.png")
            Issue.record("a hostile \(bytes.count)-byte file decoded")
        } catch let error as PNGError {
            guard case .truncated(let source, let detail) = error else {
                Issue.record("expected .truncated, got \(error)")
                return
            }
            #expect(source == "hostile.png")
            for phrase in phrases { #expect(detail.contains(phrase), "\(detail)") }
            #expect(error.description.hasPrefix("hostile.png: truncated PNG"), "\(error)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    /// A chunk before the image data declaring more bytes than the file holds is refused
    /// before libpng reads it (libpng would allocate an eXIf chunk's declared 1.1 GB in full,
    /// as FuzzPNG found); the same chunk with its true length still decodes.
    @Test func chunkLongerThanTheFileIsRefusedBeforeLibpngAllocatesIt() throws {
        let valid = PNGFixtures.encode(width: 1, height: 1, layout: .gray, samples: [200])
        let exif: [UInt8] = Array("MM".utf8) + [0, 42, 0, 0, 0, 8, 0, 0]  // a big-endian TIFF header
        func withExif(declaring length: UInt32) -> [UInt8] {
            let lengthBytes = (0..<4).map { UInt8(truncatingIfNeeded: length >> (24 - 8 * UInt32($0))) }
            let chunk = lengthBytes + Array("eXIf".utf8) + exif + [0, 0, 0, 0]
            // Right after IHDR (signature 8 bytes, IHDR 25), CRCs recomputed where the lengths allow.
            return PNGFixtures.withRecomputedCRCs(Array(valid[..<33]) + chunk + Array(valid[33...]))
        }
        #expect(try PNG.decode(withExif(declaring: UInt32(exif.count)), source: "exif.png").pixels == [200])

        expectTruncated(withExif(declaring: 1_100_556_344),
                        saying: "the chunk 'eXIf' at byte 33 declares 1100556344 bytes of data")
    }

    /// The size check never refuses a real file: images of one colour, which zlib packs
    /// close to deflate's 1032-fold limit, still decode, in every layout the encoder writes.
    @Test func highlyCompressedImagesStillDecode() throws {
        let width = 1_024, height = 1_024
        for layout in PNGFixtures.Layout.allCases {
            let count = width * height * layout.channels
            for (bytes, dataBytes) in [
                (PNGFixtures.encode(width: width, height: height, layout: layout,
                                    samples: [UInt8](repeating: 0, count: count)), count),
                (PNGFixtures.encodeLinear(width: width, height: height, layout: layout,
                                          samples: [UInt16](repeating: 0, count: count)), 2 * count),
            ] {
                let ratio = Double(dataBytes) / Double(bytes.count)
                #expect(ratio > 500, "\(layout): \(bytes.count) bytes for \(dataBytes), ratio \(ratio)")
                let image = try PNG.decode(bytes, source: "black.png")
                #expect(image.width == width && image.height == height)
                #expect(image.pixels.allSatisfy { $0 == 0 })
            }
        }
    }
}
