import StrokeImage
import Testing

@Suite struct AspectFitTests {
    /// Bounding box (minX, minY, maxX, maxY) of pixels above `threshold`.
    static func inkBounds(_ image: GrayImage, threshold: UInt8 = 0) -> (Int, Int, Int, Int)? {
        var bounds: (Int, Int, Int, Int)?
        for y in 0..<image.height {
            for x in 0..<image.width where image[x, y] > threshold {
                bounds = bounds.map { (min($0.0, x), min($0.1, y), max($0.2, x), max($0.3, y)) } ?? (x, y, x, y)
            }
        }
        return bounds
    }

    @Test func wideImageFillsTheWidthAndIsCentredVertically() {
        // 56x28 all white: shrinks to 28x14, rows 7..<21 white, the rest black.
        let image = GrayImage(width: 56, height: 28, pixels: [UInt8](repeating: 255, count: 56 * 28))
        let fitted = image.aspectFit(into: 28)
        #expect(fitted.width == 28 && fitted.height == 28)
        let bounds = Self.inkBounds(fitted)
        #expect(bounds.map { [$0.0, $0.1, $0.2, $0.3] } == [0, 7, 27, 20], "ink bounds \(String(describing: bounds))")
        #expect(fitted[13, 13] == 255 && fitted[13, 3] == 0 && fitted[13, 24] == 0)
    }

    @Test func tallImageIsCentredHorizontally() {
        let image = GrayImage(width: 10, height: 40, pixels: [UInt8](repeating: 200, count: 400))
        let fitted = image.aspectFit(into: 28)
        // 10 * 28/40 = 7 columns, centred: (28 - 7) / 2 = 10 -> columns 10...16.
        #expect(Self.inkBounds(fitted).map { [$0.0, $0.1, $0.2, $0.3] } == [10, 0, 16, 27])
        #expect(fitted[13, 13] == 200)
    }

    @Test func shrinkingKeepsAOnePixelStroke() {
        // A 1-pixel vertical line in a 100x100 image would fall between point samples;
        // the box filter keeps it as a faint column.
        var image = GrayImage(width: 100, height: 100)
        for y in 0..<100 { image[51, y] = 255 }
        let fitted = image.aspectFit(into: 28)
        let column = (0..<28).map { x in (0..<28).map { Int(fitted[x, $0]) }.reduce(0, +) }
        #expect(column.max()! > 0, "the stroke vanished")
        // Area is preserved: 255 * 100 * (28/100)^2 / 28 per row ≈ 71 summed over the row.
        let rowSum = (0..<28).map { Int(fitted[$0, 10]) }.reduce(0, +)
        #expect(abs(rowSum - 71) <= 2, "row sum \(rowSum)")
    }

    @Test func enlargingInterpolatesSmoothly() {
        // 2x2 black/white checker enlarged to 28x28: corners keep their values, the middle is grey.
        let image = GrayImage(width: 2, height: 2, pixels: [0, 255, 255, 0])
        let fitted = image.aspectFit(into: 28)
        #expect(fitted[0, 0] == 0 && fitted[27, 0] == 255 && fitted[0, 27] == 255 && fitted[27, 27] == 0)
        #expect((100...155).contains(fitted[13, 14]), "centre \(fitted[13, 14])")
    }

    @Test func rightSizeIsReturnedUnchanged() {
        var image = GrayImage(width: 28, height: 28)
        image[3, 4] = 77
        #expect(image.aspectFit() == image)
    }

    @Test func intensityAndInversion() {
        let light = GrayImage(width: 2, height: 2, pixels: [255, 255, 255, 0])
        #expect(abs(light.meanIntensity - 191.25) < 1e-9)
        #expect(light.isDarkInkOnLight)
        #expect(light.inverted().pixels == [0, 0, 0, 255])
        #expect(!light.inverted().isDarkInkOnLight)
        #expect(GrayImage(width: 0, height: 0).meanIntensity == 0)
    }
}
