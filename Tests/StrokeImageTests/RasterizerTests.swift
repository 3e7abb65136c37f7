import Foundation
import StrokeImage
import Testing

/// Thread CPU time in seconds: unlike the wall clock, it does not count time spent waiting
/// for a core on a busy machine.
func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
}

/// A closed circle of `count` points (the last repeats the first).
func circleStroke(centerX: Double = 0, centerY: Double = 0, radius: Double, count: Int = 60) -> Stroke {
    Stroke((0...count).map { index in
        let angle = 2 * Double.pi * Double(index) / Double(count)
        return (centerX + radius * cos(angle), centerY + radius * sin(angle))
    })
}

/// Ink in a pixel range, in pixels of full white (sum of values / 255).
func ink(_ image: GrayImage, columns: ClosedRange<Int>, rows: ClosedRange<Int>) -> Double {
    var total = 0
    for row in rows { for column in columns { total += Int(image[column, row]) } }
    return Double(total) / 255
}

@Suite struct RasterizerTests {
    let rasterizer = Rasterizer()

    @Test func circleGivesARingWithABlackCentreAndBrightRing() {
        let image = rasterizer.rasterize(circleStroke(radius: 100))
        for row in 8...19 {
            for column in 8...19 { #expect(image[column, row] == 0, "(\(column), \(row)) is inside the ring") }
        }
        // The line centre runs 14 - (1.1 / 2 + 0.6) = 12.85 px from the image centre.
        for step in 0..<24 {
            let angle = 2 * Double.pi * Double(step) / 24
            let x = 14 + 12.85 * cos(angle), y = 14 + 12.85 * sin(angle)
            let column = Int(x), row = Int(y)
            var brightest: UInt8 = 0
            for dy in -1...1 {
                for dx in -1...1 where (0..<28).contains(column + dx) && (0..<28).contains(row + dy) {
                    brightest = max(brightest, image[column + dx, row + dy])
                }
            }
            #expect(brightest >= 150, "ring near (\(x), \(y)) has peak \(brightest), expected >= 150")
        }
    }

    @Test func drawingSpansTheLongAxisAndIsCentredOnTheShortOne() {
        // An ellipse twice as wide as tall: ink in the first and last column, as in every dataset image.
        let ellipse = Stroke((0...80).map { index in
            let angle = 2 * Double.pi * Double(index) / 80
            return (200 * cos(angle), 100 * sin(angle))
        })
        let image = rasterizer.rasterize(ellipse)
        #expect(ink(image, columns: 0...0, rows: 0...27) > 0.3)
        #expect(ink(image, columns: 27...27, rows: 0...27) > 0.3)
        let inkedRows = (0..<28).filter { ink(image, columns: 0...27, rows: $0...$0) > 0 }
        let top = inkedRows.first!, bottom = 27 - inkedRows.last!
        #expect(top >= 5 && abs(top - bottom) <= 1, "blank rows above \(top), below \(bottom)")
        let left = ink(image, columns: 0...13, rows: 0...27), right = ink(image, columns: 14...27, rows: 0...27)
        #expect(abs(left - right) < 0.5, "a symmetric drawing has ink \(left) left and \(right) right")
    }

    @Test func defaultPenGivesTheSameImageWhateverTheDrawingUnits() {
        let small = rasterizer.rasterize(circleStroke(centerX: 50, centerY: 50, radius: 100))
        let large = rasterizer.rasterize(circleStroke(centerX: -3000, centerY: 7000, radius: 1000))
        let difference = zip(small.pixels, large.pixels).map { abs(Int($0) - Int($1)) }.max()!
        #expect(difference <= 1, "largest pixel difference \(difference), expected <= 1")
    }

    @Test func lineCarriesTheMeasuredDatasetWidthOfInk() {
        // A slightly sloped line crosses each column at a different sub-pixel offset; the ink
        // per column, times cos(slope), averages to the pen width (a single column can be off
        // by a few per cent: the edge profile is sampled at pixel centres, not integrated).
        let image = rasterizer.rasterize(Stroke([(0, 0), (500, 60)]))
        let cosine: Double = 500 / (500.0 * 500 + 60 * 60).squareRoot()
        let columns = 3...24
        let perColumn = columns.map { ink(image, columns: $0...$0, rows: 0...27) * cosine }
        let mean = perColumn.reduce(0, +) / Double(perColumn.count)
        #expect(abs(mean - Rasterizer.datasetPenPixels) < 0.02,
                "ink across the line \(mean), expected \(Rasterizer.datasetPenPixels) ± 0.02")
        #expect(perColumn.allSatisfy { abs($0 - Rasterizer.datasetPenPixels) < 0.1 }, "per column: \(perColumn)")
    }

    @Test func zeroHeightLineIsCentredVertically() {
        // A horizontal line has zero height: it is centred on y = 14, between rows 13 and 14.
        let image = rasterizer.rasterize(Stroke([(0, 0), (500, 0)]))
        #expect(image[14, 13] == image[14, 14])
        #expect(image[14, 13] > 100)
        #expect(ink(image, columns: 0...27, rows: 0...12) + ink(image, columns: 0...27, rows: 15...27) < 0.01)
    }

    @Test func sourceUnitsPenMakesSmallDrawingsThick() {
        let circle = circleStroke(radius: 20)   // 40 units across, pen 15: scale (28 - 1.2) / 55
        let thick = Rasterizer(pen: .sourceUnits(15)).rasterize(circle)
        let thin = rasterizer.rasterize(circle)
        let thickCut = ink(thick, columns: 0...13, rows: 14...14)
        let thinCut = ink(thin, columns: 0...13, rows: 14...14)
        let expected = 15 * 26.8 / 55
        #expect(abs(thickCut - expected) < 0.4, "ink across the thick line \(thickCut), expected \(expected) ± 0.4")
        #expect(thickCut > 3 * thinCut, "thick \(thickCut) vs default \(thinCut)")
    }

    @Test func sourceUnitsPenOnALargeDrawingIsDatasetThin() {
        // MNIST Maker's 15-point pen on a ~350-point drawing gives the dataset's ~1.1 px line.
        let image = Rasterizer(pen: .sourceUnits(15)).rasterize(circleStroke(radius: 175))
        let cut = ink(image, columns: 0...13, rows: 14...14)
        #expect(cut > 0.9 && cut < 1.4, "ink across the line \(cut), expected 0.9...1.4")
    }

    @Test func degenerateStrokesDrawAFiniteNonEmptyCentredImage() {
        let cases: [(String, [Stroke])] = [
            ("single point", [Stroke([(5, 5)])]),
            ("duplicate points", [Stroke(Array(repeating: (3, 4), count: 10))]),
            ("repeated points along a line", [Stroke([(0, 0), (0, 0), (10, 10), (10, 10), (20, 20)])]),
            ("vertical line", [Stroke([(7, -50), (7, 50)])]),
            ("horizontal line", [Stroke([(-50, 7), (50, 7)])]),
            ("point among non-finite values", [Stroke([(.nan, 1), (2, 2), (.infinity, 3)])]),
        ]
        for (name, strokes) in cases {
            let image = rasterizer.rasterize(strokes)
            var buffer = [UInt8](repeating: 99, count: 28 * 28)
            buffer.withUnsafeMutableBufferPointer { rasterizer.rasterize(strokes, into: $0) }
            #expect(buffer == image.pixels, "\(name): the buffer variant draws the same image")
            let total = ink(image, columns: 0...27, rows: 0...27)
            #expect(total > 0.5, "\(name): ink \(total), expected > 0.5")
            let left = ink(image, columns: 0...13, rows: 0...27), right = ink(image, columns: 14...27, rows: 0...27)
            #expect(abs(left - right) < 0.05 * total + 0.01, "\(name): ink left \(left), right \(right)")
        }
    }

    @Test func emptyInputGivesABlackImage() {
        for strokes in [[], [Stroke(points: [])], [Stroke([(.nan, .nan)])]] {
            let image = rasterizer.rasterize(strokes)
            #expect(image.width == 28 && image.height == 28)
            #expect(image.pixels.allSatisfy { $0 == 0 })
        }
    }

    @Test func nonFinitePointsAreSkipped() {
        let clean = Stroke([(0, 0), (100, 40), (30, 90)])
        let dirty = Stroke([(0, 0), (.nan, 5), (100, 40), (-.infinity, 1), (30, 90), (4, .infinity)])
        #expect(rasterizer.rasterize(dirty) == rasterizer.rasterize(clean))
    }

    @Test func bufferVariantEqualsTheImage() {
        let strokes = [circleStroke(radius: 80), Stroke([(-100, 0), (100, 30)])]
        for pen in [PenWidth.pixels(1.1), .pixels(2.5), .sourceUnits(15)] {
            let rasterizer = Rasterizer(pen: pen)
            let image = rasterizer.rasterize(strokes)
            var buffer = [UInt8](repeating: 7, count: 28 * 28)
            buffer.withUnsafeMutableBufferPointer { rasterizer.rasterize(strokes, into: $0) }
            let mismatches = buffer.indices.filter { buffer[$0] != image.pixels[$0] }
            #expect(mismatches.isEmpty, "pen \(pen): pixels \(mismatches.prefix(5)) differ")
        }
    }

    @Test func crossingStrokesAreBrighterWhereTheyCross() {
        // Both images have the same bounds; the second replaces the vertical line by its end points.
        let horizontal = Stroke([(0, 50), (100, 50)]), vertical = Stroke([(50, 0), (50, 100)])
        let both = rasterizer.rasterize([horizontal, vertical])
        let onlyHorizontal = rasterizer.rasterize([horizontal, Stroke([(50, 0)]), Stroke([(50, 100)])])
        #expect(both[13, 13] > onlyHorizontal[13, 13], "crossing \(both[13, 13]) vs line \(onlyHorizontal[13, 13])")
        #expect(both[13, 13] > both[3, 13], "crossing \(both[13, 13]) vs elsewhere on the line \(both[3, 13])")
        #expect(both[3, 13] == onlyHorizontal[3, 13])
    }

    @Test func otherSidesKeepTheDrawingInside() {
        let image = Rasterizer(side: 64).rasterize(circleStroke(radius: 10))
        #expect(image.width == 64)
        #expect(ink(image, columns: 0...0, rows: 0...63) > 0.2)
        #expect(image[32, 32] == 0)
    }

    /// Prints the time per call; never asserts on it (machines differ, the CPU is shared).
    @Test func printRasterizeTiming() {
        let stroke = circleStroke(radius: 150, count: 59)   // 60 points
        var buffer = [UInt8](repeating: 0, count: 28 * 28)
        let repetitions = 2000
        let strokes = [stroke]
        let start = threadCPUSeconds()
        buffer.withUnsafeMutableBufferPointer { pointer in
            for _ in 0..<repetitions { rasterizer.rasterize(strokes, into: pointer) }
        }
        let seconds = threadCPUSeconds() - start
        print("Rasterizer: 60-point stroke into a buffer: \(seconds / Double(repetitions) * 1e6) µs CPU per call")
        #expect(buffer.contains { $0 > 0 })
    }
}
