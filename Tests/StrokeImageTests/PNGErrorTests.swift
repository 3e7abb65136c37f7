import Foundation
import StrokeImage
import StrokeTensor
import Testing
import TestSupport
import StrokeSupport

/// Bad input gives a `PNGError` that names the file, and no byte sequence crashes.
@Suite struct PNGErrorTests {
    /// A small valid PNG: a 28x28 gray image with a diagonal stroke.
    static let validPNG: [UInt8] = {
        var image = GrayImage(width: 28, height: 28)
        for index in 0..<28 { image[index, index] = 255 }
        return PNGFixtures.encode(width: 28, height: 28, layout: .gray, samples: image.pixels)
    }()

    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("PNGErrorTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func emptyBytesAreAnEmptyFileError() {
        #expect(throws: PNGError.emptyFile(source: "empty.png")) { try PNG.decode([], source: "empty.png") }
    }

    @Test func otherFormatsAreNotPNGAndTheMessageNamesTheFile() {
        let jpegStart: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46]
        #expect(throws: PNGError.notPNG(source: "photo.jpg")) { try PNG.decode(jpegStart, source: "photo.jpg") }
        let error = PNGError.notPNG(source: "photo.jpg")
        #expect(error.description.contains("photo.jpg"))
        #expect(throws: PNGError.notPNG(source: "a.txt")) { try PNG.decode(Array("hello".utf8), source: "a.txt") }
    }

    /// Cuts inside the signature, header or image data are truncation errors. libpng's
    /// simplified reader stops after the image data, so a file missing only (part of) its
    /// 12-byte IEND trailer still decodes, to the full image.
    @Test func cutShortFilesAreTruncatedErrors() throws {
        let imageDataEnd = Self.validPNG.count - 12
        for length in Self.validPNG.count - 12..<Self.validPNG.count {
            #expect(try PNG.decode(Array(Self.validPNG.prefix(length)), source: "cut.png")
                    == PNG.decode(Self.validPNG, source: "whole.png"), "cut inside IEND at \(length)")
        }
        for length in [4, 8, 20, 33, Self.validPNG.count / 2, imageDataEnd - 1] {
            do {
                _ = try PNG.decode(Array(Self.validPNG.prefix(length)), source: "cut.png")
                Issue.record("a PNG cut to \(length) of \(Self.validPNG.count) bytes decoded without error")
            } catch let error as PNGError {
                guard case .truncated(let source, _) = error else {
                    Issue.record("cut to \(length) bytes: expected .truncated, got \(error)")
                    continue
                }
                #expect(source == "cut.png")
                #expect(error.description.contains("cut.png"))
            }
        }
    }

    @Test func aBadChecksumIsACorruptErrorWithLibpngsMessage() throws {
        var bytes = Self.validPNG
        bytes[bytes.count - 20] ^= 0xFF  // inside the IDAT data, CRC left as it was
        do {
            _ = try PNG.decode(bytes, source: "flipped.png")
            Issue.record("a PNG with a flipped IDAT byte decoded without error")
        } catch let error as PNGError {
            guard case .corrupt(let source, let detail) = error else {
                Issue.record("expected .corrupt, got \(error)")
                return
            }
            #expect(source == "flipped.png")
            #expect(!detail.isEmpty)
        }
    }

    @Test func hugeDeclaredSizeIsRefusedBeforeAllocating() throws {
        // Rewrite IHDR's width to 20000 and fix the CRC; the data is never reached.
        var bytes = Self.validPNG
        let width: UInt32 = 20_000
        for byte in 0..<4 { bytes[16 + byte] = UInt8(truncatingIfNeeded: width >> (24 - 8 * UInt32(byte))) }
        bytes = PNGFixtures.withRecomputedCRCs(bytes)
        #expect(throws: PNGError.tooLarge(source: "huge.png", width: 20_000, height: 28)) {
            try PNG.decode(bytes, source: "huge.png")
        }
    }

    @Test func readingNamesTheMissingFile() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("missing.png")
        do {
            _ = try PNG.read(contentsOf: url)
            Issue.record("reading a missing file succeeded")
        } catch let error as PNGError {
            guard case .unreadable(let source, let reason) = error else { Issue.record("got \(error)"); return }
            #expect(source == url.path)
            #expect(reason.contains("no such file"))
        }
    }

    @Test func readingAFolderOrEmptyFileThrows() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: PNGError.self) { try PNG.read(contentsOf: folder) }
        let empty = folder.appendingPathComponent("empty.png")
        try Data().write(to: empty)
        #expect(throws: PNGError.emptyFile(source: empty.path)) { try PNG.read(contentsOf: empty) }
    }

    /// Every truncation, and thousands of random mutations (with CRCs recomputed half the
    /// time so the mutation reaches the header and zlib parsers), either decode or throw
    /// `PNGError`: nothing crashes, hangs or throws anything else.
    @Test func arbitraryBytesNeverCrash() throws {
        let interlaced = try [UInt8](Data(contentsOf: PNGDecodeTests.fixtures.appendingPathComponent("rgb8-interlaced.png")))
        let palette = try [UInt8](Data(contentsOf: PNGDecodeTests.fixtures.appendingPathComponent("palette4.png")))
        let rgba = PNGFixtures.encode(width: 5, height: 3, layout: .rgba, samples: (0..<60).map { UInt8($0 * 4) })
        var decoded = 0, rejected = 0
        func attempt(_ bytes: [UInt8]) {
            do {
                let image = try PNG.decode(bytes, source: "fuzz.png")
                #expect(image.pixels.count == image.width * image.height)
                decoded += 1
            } catch is PNGError {
                rejected += 1
            } catch {
                Issue.record("unexpected error type: \(error)")
            }
        }
        var random = SeededGenerator(seed: 0x5EED)
        for base in [Self.validPNG, interlaced, palette, rgba] {
            for length in 0..<base.count { attempt(Array(base.prefix(length))) }
            for round in 0..<1500 {
                var bytes = base
                for _ in 0...(random.next() % 4) {
                    let position = 8 + Int(random.next() % UInt64(bytes.count - 8))
                    bytes[position] = UInt8(truncatingIfNeeded: random.next())
                }
                attempt(round % 2 == 0 ? PNGFixtures.withRecomputedCRCs(bytes) : bytes)
            }
        }
        #expect(rejected > 0 && decoded > 0, "decoded \(decoded), rejected \(rejected)")
    }
}
