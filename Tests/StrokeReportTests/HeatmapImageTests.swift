import Foundation
import StrokeTraining
import Testing
@testable import StrokeReport

@Suite struct HeatmapImageTests {
    @Test func everyCellIsShadedByItsShareOfTheRow() {
        let evaluation = ReportFixtures.evaluation(count: 90, errorEvery: 4)
        let image = HeatmapImage.render(evaluation)
        let layout = HeatmapImage.Layout(evaluation, cellSize: HeatmapImage.defaultCellSize)
        #expect(image.width == layout.width && image.height == layout.height)
        for row in evaluation.classes.indices {
            let rowTotal = evaluation.confusionMatrix[row].reduce(0, +)
            for column in evaluation.classes.indices {
                let share = Double(evaluation.confusionMatrix[row][column]) / Double(rowTotal)
                let expected = HeatmapColor.fill(share: share, isDiagonal: row == column)
                // A point just inside the cell's corner: no text is drawn there.
                let x = layout.gridLeft + column * layout.cellSize + HeatmapImage.gap + 2
                let y = layout.gridTop + row * layout.cellSize + HeatmapImage.gap + 2
                #expect(image[x, y] == expected, "cell \(row),\(column): expected \(expected.hex), saw \(image[x, y].hex)")
            }
        }
    }

    @Test func countsAreDrawnInLegibleInk() {
        let evaluation = ReportFixtures.evaluation(count: 90, errorEvery: 4)
        let image = HeatmapImage.render(evaluation)
        let layout = HeatmapImage.Layout(evaluation, cellSize: HeatmapImage.defaultCellSize)
        // The diagonal cell of row 0 must contain text pixels in the contrasting colour.
        let fill = image[layout.gridLeft + 4, layout.gridTop + 4]
        let ink = HeatmapColor.text(on: fill)
        var inkPixels = 0
        for y in layout.gridTop..<(layout.gridTop + layout.cellSize) {
            for x in layout.gridLeft..<(layout.gridLeft + layout.cellSize) where image[x, y] == ink { inkPixels += 1 }
        }
        #expect(inkPixels > 100, "only \(inkPixels) text pixels in the first cell")
    }

    @Test func diagonalAndConfusionScalesDifferAndDarkenWithShare() {
        var previous = (diagonal: 2.0, confusion: 2.0)
        for step in 1...10 {
            let share = Double(step) / 10
            let diagonal = HeatmapColor.fill(share: share, isDiagonal: true)
            let confusion = HeatmapColor.fill(share: share, isDiagonal: false)
            #expect(diagonal.blue > diagonal.red, "diagonal at \(share) is not blue: \(diagonal.hex)")
            #expect(confusion.red > confusion.blue, "confusion at \(share) is not red: \(confusion.hex)")
            #expect(diagonal.luminance < previous.diagonal && confusion.luminance < previous.confusion,
                    "colours do not darken at share \(share)")
            previous = (diagonal.luminance, confusion.luminance)
        }
        #expect(HeatmapColor.fill(share: 0.001, isDiagonal: false) != HeatmapColor.empty,
                "a single confusion must not look like an empty cell")
    }

    @Test func textColourHasAtLeastAAContrastOnEveryFill() {
        for step in 0...100 {
            for isDiagonal in [true, false] {
                let fill = HeatmapColor.fill(share: Double(step) / 100, isDiagonal: isDiagonal)
                let text = HeatmapColor.text(on: fill)
                let (light, dark) = fill.luminance > text.luminance ? (fill, text) : (text, fill)
                let contrast = (light.luminance + 0.05) / (dark.luminance + 0.05)
                #expect(contrast >= 4.5, "contrast \(contrast) of \(text.hex) on \(fill.hex)")
            }
        }
    }

    @Test func pngEncodingRoundTripsThroughLibpng() throws {
        let image = HeatmapImage.render(ReportFixtures.evaluation())
        let data = try PNGEncoder.encode(image)
        #expect(data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        let decoded = try #require(TestPNG.decode(data, color: true))
        #expect(decoded.width == image.width && decoded.height == image.height)
        #expect(decoded.pixels == image.pixels, "decoded pixels differ from the rendered ones")
    }

    @Test func everyFontGlyphIsSevenRowsOfFivePixels() {
        for (character, glyph) in BitmapFont.glyphs {
            let rows = glyph.split(separator: "|")
            #expect(rows.count == BitmapFont.glyphHeight, "glyph \(character) has \(rows.count) rows")
            for row in rows {
                #expect(row.count == BitmapFont.glyphWidth && row.allSatisfy { $0 == "#" || $0 == "." },
                        "glyph \(character) has a bad row \(row)")
            }
        }
    }

    @Test func longLabelsAreShortenedToFit() {
        let fitted = BitmapFont.fitting("a-very-long-class-name", maximumWidth: 88, scale: 2)
        #expect(BitmapFont.width(of: fitted, scale: 2) <= 88)
        #expect(fitted.hasSuffix("."))
        #expect(BitmapFont.fitting("circle", maximumWidth: 88, scale: 2) == "circle")
    }
}
