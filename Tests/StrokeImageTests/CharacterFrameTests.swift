import StrokeImage
import Testing

/// Rows (top to bottom) that hold any ink.
private func inkedRows(_ image: GrayImage) -> ClosedRange<Int>? {
    let rows = (0..<image.height).filter { row in (0..<image.width).contains { image[$0, row] > 0 } }
    guard let first = rows.first, let last = rows.last else { return nil }
    return first...last
}

@Suite struct CharacterFrameTests {
    let rasterizer = Rasterizer()
    let framed = InputFraming.referenceHeight(pixels: 18)
    /// A vertical bar `height` units tall with a short foot, so it has some width.
    func bar(height: Double) -> [Stroke] { [Stroke([(0, 0), (0, height), (height / 4, height)])] }

    @Test func aspectFitFramingIsThePlainRasterizerWhateverTheFrame() {
        let strokes = [Stroke([(0, 0), (3, 7), (9, 2)]), Stroke([(1, 1), (1, 1)])]
        let plain = rasterizer.rasterize(strokes)
        #expect(rasterizer.rasterize(strokes, framing: .aspectFit, frame: nil) == plain)
        #expect(rasterizer.rasterize(strokes, framing: .aspectFit, frame: CharacterFrame(height: 100)) == plain)
    }

    @Test func aDrawingKeepsItsSizeRelativeToTheFrame() throws {
        // The frame's height spans 18 px: a bar half as tall as the frame spans about 9 px
        // (plus the pen and its soft edge), a bar nearly as tall as the frame about 17 px.
        let half = try #require(inkedRows(rasterizer.rasterize(bar(height: 5), framing: framed, frame: CharacterFrame(height: 10))))
        let full = try #require(inkedRows(rasterizer.rasterize(bar(height: 10), framing: framed, frame: CharacterFrame(height: 10.5))))
        #expect((9...12).contains(half.count), "half-height bar spans \(half.count) rows")
        #expect((17...20).contains(full.count), "a bar 0.95 of its frame spans \(full.count) rows")
        // Scaling drawing and frame together changes nothing (units do not matter).
        #expect(rasterizer.rasterize(bar(height: 5), framing: framed, frame: CharacterFrame(height: 10))
                == rasterizer.rasterize(bar(height: 50), framing: framed, frame: CharacterFrame(height: 100)))
        // Centred on its box: the half bar's rows sit around the image centre.
        #expect(abs(Double(half.lowerBound + half.upperBound) / 2 - 13.5) <= 1)
    }

    @Test func aDotStaysSmallInItsFrameButFillsItsOwnBox() throws {
        let dot = [Stroke([(0, 0), (0.4, 0.3), (0.2, 0.6), (0.5, 0.5)])]
        let inFrame = try #require(inkedRows(rasterizer.rasterize(dot, framing: framed, frame: CharacterFrame(height: 10))))
        #expect(inFrame.count <= 4, "a dot in a line 10 units tall spans \(inFrame.count) rows")
        let alone = try #require(inkedRows(rasterizer.rasterize(dot)))
        #expect(alone.count >= 20, "aspect-fit blows the dot up to \(alone.count) rows")
    }

    @Test func aDrawingTooLargeForItsFrameIsAspectFit() {
        // 3 frames tall: 54 px would not fit 28, so the drawing is aspect-fit as before.
        #expect(rasterizer.rasterize(bar(height: 30), framing: framed, frame: CharacterFrame(height: 10))
                == rasterizer.rasterize(bar(height: 30)))
    }

    @Test func withoutAFrameOrWithItsOwnBoxADrawingStandsAloneAndIsAspectFit() {
        let strokes = bar(height: 7)
        let alone = rasterizer.rasterize(strokes)
        #expect(rasterizer.rasterize(strokes, framing: framed, frame: nil) == alone)
        #expect(rasterizer.rasterize(strokes, framing: framed, frame: CharacterFrame(ownBoxOf: strokes)) == alone)
        #expect(rasterizer.rasterize(strokes, framing: framed, frame: CharacterFrame(lineTop: 3, lineBottom: 10)) == alone)
        // Any other frame frames it.
        #expect(rasterizer.rasterize(strokes, framing: framed, frame: CharacterFrame(height: 7.1)) != alone)
        #expect(CharacterFrame(height: 7).isOwnBox(ofHeight: 7) && !CharacterFrame(height: 7).isOwnBox(ofHeight: 6.99))
        // A flat stroke in a frame is scaled by the frame, not blown up without bound.
        let dash = [Stroke([(0, 0), (4, 0)])]
        #expect(rasterizer.rasterize(dash, framing: framed, frame: CharacterFrame(height: 10)) != rasterizer.rasterize(dash))
    }

    @Test func badFramesAndPointsDoNotTrap() {
        let strokes = [Stroke([(0, 0), (.nan, 1), (2, .infinity), (1, 3)])]
        for height in [0, -1, .nan, .infinity, 1e-300, 1e300] {
            _ = rasterizer.rasterize(strokes, framing: framed, frame: CharacterFrame(height: height))
        }
        #expect(rasterizer.rasterize([], framing: framed, frame: CharacterFrame(height: 1)).pixels.allSatisfy { $0 == 0 })
        #expect(CharacterFrame(ownBoxOf: [Stroke([(.nan, 0)])]) == nil)
        #expect(CharacterFrame(lineTop: 12, lineBottom: 4).height == 8)
    }

    @Test func framingNamesRoundTripAndBadOnesAreRefused() {
        for framing in [InputFraming.aspectFit, .referenceHeight(pixels: 18), .referenceHeight(pixels: 12.5)] {
            #expect(InputFraming(framing.description) == framing)
        }
        #expect(InputFraming.characterDefault.description == "reference-height:18")
        for bad in ["", "aspect", "reference-height:", "reference-height:0", "reference-height:-3",
                    "reference-height:nan", "reference-height:1e9", "reference-height:18px"] {
            #expect(InputFraming(bad) == nil, "'\(bad)' was accepted")
        }
    }
}
