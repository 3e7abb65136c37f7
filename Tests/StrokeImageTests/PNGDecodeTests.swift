import Foundation
import StrokeImage
import Testing
import TestSupport

/// Every PNG kind decodes to the expected 8-bit luminance. Files libpng's simplified writer
/// can make are made at test time (TestSupport.PNGFixtures); sub-8-bit, interlaced and
/// untagged 16-bit files are committed under Fixtures/ (scripts/make-png-fixtures.py, whose
/// formulas the expectations below repeat).
@Suite struct PNGDecodeTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// sRGB-encoded byte of a linear value in [0, 1] (IEC 61966-2-1), the curve libpng uses.
    static func sRGBByte(linear: Double) -> Int {
        let encoded = linear <= 0.0031308 ? 12.92 * linear : 1.055 * pow(linear, 1 / 2.4) - 0.055
        return Int((encoded * 255).rounded())
    }

    static func linear(sRGBByte value: UInt8) -> Double {
        let encoded = Double(value) / 255
        return encoded <= 0.04045 ? encoded / 12.92 : pow((encoded + 0.055) / 1.055, 2.4)
    }

    /// Compares pixel by pixel and reports the first mismatch with its coordinate.
    static func expectPixels(_ image: GrayImage, width: Int, height: Int, tolerance: Int = 0,
                             _ expected: (Int, Int) -> Int, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(image.width == width && image.height == height,
                "size: expected \(width)x\(height), decoded \(image.width)x\(image.height)", sourceLocation: sourceLocation)
        guard image.width == width, image.height == height else { return }
        for y in 0..<height {
            for x in 0..<width where abs(Int(image[x, y]) - expected(x, y)) > tolerance {
                Issue.record("pixel (\(x), \(y)): expected \(expected(x, y)) ± \(tolerance), decoded \(image[x, y])",
                             sourceLocation: sourceLocation)
                return
            }
        }
    }

    @Test func encodeThenDecodeGivesTheSamePixels() throws {
        var image = GrayImage(width: 37, height: 23)
        for index in image.pixels.indices { image.pixels[index] = UInt8(truncatingIfNeeded: index * 7 + index / 37) }
        let bytes = try PNG.encode(image)
        #expect(Array(bytes.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
        #expect(try PNG.decode(bytes, source: "roundtrip.png") == image)
    }

    @Test func encodingAnEmptyImageThrows() {
        #expect(throws: PNGError.self) { try PNG.encode(GrayImage(width: 0, height: 5)) }
    }

    @Test func eightBitGrayIsUnchanged() throws {
        let samples = (0..<(16 * 16)).map { UInt8($0) }
        let bytes = PNGFixtures.encode(width: 16, height: 16, layout: .gray, samples: samples)
        Self.expectPixels(try PNG.decode(bytes, source: "gray8.png"), width: 16, height: 16) { x, y in y * 16 + x }
    }

    @Test func neutralRGBKeepsItsGrayLevel() throws {
        let levels = (0..<256).map { UInt8($0) }
        let samples = levels.flatMap { [$0, $0, $0] }
        let bytes = PNGFixtures.encode(width: 256, height: 1, layout: .rgb, samples: samples)
        Self.expectPixels(try PNG.decode(bytes, source: "rgb.png"), width: 256, height: 1, tolerance: 1) { x, _ in x }
    }

    @Test func colourBecomesLinearLightLuminance() throws {
        let colours: [[UInt8]] = [[255, 0, 0], [0, 255, 0], [0, 0, 255], [200, 100, 50], [10, 240, 130]]
        let bytes = PNGFixtures.encode(width: colours.count, height: 1, layout: .rgb, samples: colours.flatMap { $0 })
        let image = try PNG.decode(bytes, source: "colour.png")
        Self.expectPixels(image, width: colours.count, height: 1, tolerance: 2) { x, _ in
            let rgb = colours[x].map(Self.linear(sRGBByte:))
            return Self.sRGBByte(linear: 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2])
        }
    }

    @Test func grayAlphaIsCompositedOntoBlack() throws {
        // White at alpha 0, 64, 128, 255, then gray 100 at alpha 255 and 0.
        let pairs: [(UInt8, UInt8)] = [(255, 0), (255, 64), (255, 128), (255, 255), (100, 255), (100, 0)]
        let bytes = PNGFixtures.encode(width: pairs.count, height: 1, layout: .grayAlpha,
                                       samples: pairs.flatMap { [$0.0, $0.1] })
        let image = try PNG.decode(bytes, source: "ga.png")
        // Blending happens in linear light: white at alpha a reads as sRGB(a / 255).
        Self.expectPixels(image, width: pairs.count, height: 1, tolerance: 1) { x, _ in
            Self.sRGBByte(linear: Self.linear(sRGBByte: pairs[x].0) * Double(pairs[x].1) / 255)
        }
        #expect(image[0, 0] == 0, "fully transparent must be black, decoded \(image[0, 0])")
        #expect(image[2, 0] > 150, "half-transparent white blends in linear light (about 188), decoded \(image[2, 0])")
    }

    @Test func rgbaIsCompositedOntoBlack() throws {
        let pixels: [[UInt8]] = [[255, 255, 255, 0], [255, 255, 255, 255], [0, 255, 0, 255], [255, 255, 255, 128]]
        let bytes = PNGFixtures.encode(width: 4, height: 1, layout: .rgba, samples: pixels.flatMap { $0 })
        let image = try PNG.decode(bytes, source: "rgba.png")
        #expect(image[0, 0] == 0)
        #expect(image[1, 0] == 255)
        #expect(abs(Int(image[2, 0]) - Self.sRGBByte(linear: 0.7152)) <= 2, "green decoded \(image[2, 0])")
        #expect(abs(Int(image[3, 0]) - Self.sRGBByte(linear: 128.0 / 255)) <= 1, "half white decoded \(image[3, 0])")
    }

    @Test func sixteenBitLinearIsGammaEncoded() throws {
        // NOTE: libpng converts gamma-tagged 16-bit data with its gamma-2.2 power law, not the
        // exact sRGB curve: linear 0.5 reads as 186 (exact sRGB: 188), linear 0.01 as 31 (25).
        let samples: [UInt16] = [0, 65535, 32768, 13107, 655]
        let bytes = PNGFixtures.encodeLinear(width: samples.count, height: 1, layout: .gray, samples: samples)
        Self.expectPixels(try PNG.decode(bytes, source: "gray16-linear.png"), width: samples.count, height: 1,
                          tolerance: 1) { x, _ in Int((255 * pow(Double(samples[x]) / 65535, 1 / 2.2)).rounded()) }
    }

    @Test func paletteWithTransparencyIsCompositedOntoBlack() throws {
        // Entries: opaque white, transparent white, opaque black, opaque 200-gray, half-transparent white.
        let colormap: [UInt8] = [255, 255, 255, 255, 255, 255, 255, 0, 0, 0, 0, 255, 200, 200, 200, 255, 255, 255, 255, 128]
        let indices: [UInt8] = [0, 1, 2, 3, 4, 0, 3, 1]
        let bytes = PNGFixtures.encodeColormapped(width: 4, height: 2, layout: .rgba, colormap: colormap, indices: indices)
        let expectedByEntry = [255, 0, 0, 200, Self.sRGBByte(linear: 128.0 / 255)]
        Self.expectPixels(try PNG.decode(bytes, source: "palette-trns.png"), width: 4, height: 2, tolerance: 1) { x, y in
            expectedByEntry[Int(indices[y * 4 + x])]
        }
    }

    @Test func opaquePaletteDecodesToItsGrayLevels() throws {
        let levels: [UInt8] = (0..<16).map { UInt8($0 * 17) }
        let colormap: [UInt8] = levels.flatMap { level -> [UInt8] in [level, level, level] }
        let indices = (0..<32).map { UInt8($0 % 16) }
        let bytes = PNGFixtures.encodeColormapped(width: 8, height: 4, layout: .rgb, colormap: colormap, indices: indices)
        Self.expectPixels(try PNG.decode(bytes, source: "palette.png"), width: 8, height: 4, tolerance: 1) { x, y in
            Int(indices[y * 8 + x]) * 17
        }
    }

    // MARK: - Committed fixtures (scripts/make-png-fixtures.py)

    @Test func oneBitGray() throws {
        let image = try PNG.read(contentsOf: Self.fixtures.appendingPathComponent("gray1.png"))
        Self.expectPixels(image, width: 13, height: 5) { x, y in (x + y) % 3 == 0 ? 255 : 0 }
    }

    @Test func twoBitGray() throws {
        let image = try PNG.read(contentsOf: Self.fixtures.appendingPathComponent("gray2.png"))
        Self.expectPixels(image, width: 7, height: 3) { x, y in (x + y) % 4 * 85 }
    }

    @Test func fourBitGray() throws {
        let image = try PNG.read(contentsOf: Self.fixtures.appendingPathComponent("gray4.png"))
        Self.expectPixels(image, width: 5, height: 4) { x, y in (4 * x + y) % 16 * 17 }
    }

    @Test func interlacedGray() throws {
        let image = try PNG.read(contentsOf: Self.fixtures.appendingPathComponent("gray8-interlaced.png"))
        Self.expectPixels(image, width: 11, height: 9) { x, y in (23 * x + 7 * y) % 256 }
    }

    @Test func interlacedRGB() throws {
        let image = try PNG.read(contentsOf: Self.fixtures.appendingPathComponent("rgb8-interlaced.png"))
        Self.expectPixels(image, width: 9, height: 6, tolerance: 1) { x, y in (29 * x + 11 * y) % 256 }
    }

    @Test func fourBitPalette() throws {
        let image = try PNG.read(contentsOf: Self.fixtures.appendingPathComponent("palette4.png"))
        Self.expectPixels(image, width: 6, height: 3, tolerance: 1) { x, y in (x + 6 * y) % 16 * 17 }
    }

    @Test func untaggedSixteenBitIsReadAsSRGB() throws {
        let image = try PNG.read(contentsOf: Self.fixtures.appendingPathComponent("gray16-untagged.png"))
        Self.expectPixels(image, width: 4, height: 4, tolerance: 1) { x, y in (64 * x + 16 * y) % 256 }
    }
}
