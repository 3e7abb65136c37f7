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
        for framing in [InputFraming.aspectFit, .referenceHeight(pixels: 18), .referenceHeight(pixels: 12.5),
                        .referenceHeightAndShape(pixels: 18), .referenceHeightAndShape(pixels: 12.5), .penOrder,
                        .referenceHeightShapeAndPenOrder(pixels: 18), .referenceHeightShapeAndPenOrder(pixels: 12.5)] {
            #expect(InputFraming(framing.description) == framing)
        }
        #expect(InputFraming.characterDefault.description == "reference-height:18+aspect-fit+pen-order")
        #expect(InputFraming.referenceHeightAndShape(pixels: 18).description == "reference-height:18+aspect-fit")
        #expect(InputFraming.referenceHeightShapeAndPenOrder(pixels: 18).description == "reference-height:18+aspect-fit+pen-order")
        for bad in ["", "aspect", "reference-height:", "reference-height:0", "reference-height:-3",
                    "reference-height:nan", "reference-height:1e9", "reference-height:18px",
                    "+aspect-fit", "aspect-fit+aspect-fit", "reference-height:0+aspect-fit",
                    "reference-height:18+aspect-fit+aspect-fit", "reference-height:18+shape",
                    "reference-height:18+pen-order", "aspect-fit+pen-order", "pen-order+aspect-fit",
                    "reference-height:18+aspect-fit+pen-order+pen-order", "reference-height:0+aspect-fit+pen-order"] {
            #expect(InputFraming(bad) == nil, "'\(bad)' was accepted")
        }
    }

    @Test func aPagesLabelFrameIsAFifthMoreThanItsMedianLabel() throws {
        // Labels 1, 2, 3, 4 and 5 units tall (one or two strokes each), in any order and place:
        // the median label is 3, the frame 1.2 * 3.
        let heights: [Double] = [3, 5, 1, 4, 2]
        let labels = heights.enumerated().map { index, height in
            [Stroke([(Double(index) * 10, 7), (Double(index) * 10 + 1, 7 + height / 2)]),
             Stroke([(Double(index) * 10 + 2, 7 + height / 2), (Double(index) * 10 + 2, 7 + height)])]
        }
        #expect(CharacterFrame.usualLabelScale == 1.2)
        #expect(abs(try #require(CharacterFrame(labels: labels)).height - 3.6) < 1e-12)
        // Of an even count, the mean of the middle two: of 3, 5, 1, 4 it is 3.5.
        #expect(abs(try #require(CharacterFrame(labels: Array(labels.prefix(4)))).height - 4.2) < 1e-12)
        #expect(CharacterFrame(labelHeights: [3, 5, 1, 4]) == CharacterFrame(labels: Array(labels.prefix(4))))
        // Scaling the page scales the frame; moving it changes nothing.
        let scaled = labels.map { $0.map { Stroke($0.points.map { (3 * $0.x + 100, 3 * $0.y - 40) }) } }
        #expect(abs(try #require(CharacterFrame(labels: scaled)).height - 10.8) < 1e-12)
        // Flat labels (a dash), labels without finite points and empty ones are not counted.
        let noise = [[Stroke([(0, 1), (9, 1)])], [Stroke([(Double.nan, 0), (1, Double.infinity)])], []]
        #expect(abs(try #require(CharacterFrame(labels: labels + noise)).height - 3.6) < 1e-12)
        // Too few labels to say what is usual: nil, and each label is read alone.
        #expect(CharacterFrame(labels: Array(labels.prefix(2))) == nil)
        #expect(CharacterFrame(labels: Array(labels.prefix(2)), minimumLabels: 2) != nil)
        #expect(CharacterFrame(labels: noise, minimumLabels: 1) == nil)
        #expect(CharacterFrame(labels: []) == nil)
        #expect(CharacterFrame(labelHeights: [1, 2, .infinity, -3, .nan]) == nil)
    }

    @Test func aSmallLabelInItsPagesFrameStaysSmallerThanATallOne() throws {
        // A page of labels 10 units tall and one small label 6 tall: read against the page's
        // frame, the small one is drawn smaller than a tall one; alone, both fill the image.
        let page = Array(repeating: bar(height: 10), count: 6) + [bar(height: 6)]
        let frame = try #require(CharacterFrame(labels: page))
        #expect(abs(frame.height - 12) < 1e-12)
        let small = try #require(inkedRows(rasterizer.rasterize(bar(height: 6), framing: framed, frame: frame)))
        let tall = try #require(inkedRows(rasterizer.rasterize(bar(height: 10), framing: framed, frame: frame)))
        #expect(small.count + 5 <= tall.count, "small label \(small.count) rows, tall \(tall.count)")
        let smallAlone = try #require(inkedRows(rasterizer.rasterize(bar(height: 6))))
        let tallAlone = try #require(inkedRows(rasterizer.rasterize(bar(height: 10))))
        #expect(smallAlone.count == tallAlone.count)
    }

    // MARK: - Two channels: the framed drawing and its shape

    /// The planes of a multi-channel image, each `side` x `side`.
    private func planes(_ image: GrayImage) -> [GrayImage] {
        let side = image.width, plane = side * side
        return stride(from: 0, to: image.pixels.count, by: plane).map {
            GrayImage(width: side, height: side, pixels: Array(image.pixels[$0..<($0 + plane)]))
        }
    }

    @Test func twoChannelsAreTheFramedDrawingAboveItsAspectFitShape() throws {
        let twoChannels = InputFraming.referenceHeightAndShape(pixels: 18)
        #expect(twoChannels.channels == 2)
        #expect(twoChannels.channelFramings == [framed, .aspectFit])
        #expect(framed.channels == 1 && InputFraming.aspectFit.channels == 1)
        // A comma-like hook, small in a tall frame: channel 0 keeps it small, channel 1 blows it up.
        let comma = [Stroke([(0, 0), (0.4, 0.1), (0.5, 0.8), (0.1, 1.6)])]
        for frame in [CharacterFrame(height: 10), CharacterFrame(height: 3), nil] {
            let image = rasterizer.rasterize(comma, framing: twoChannels, frame: frame)
            #expect(image.width == 28 && image.height == 56)
            let channel = planes(image)
            // Each channel against the plain one-channel rasterizer of its framing.
            #expect(channel[0] == rasterizer.rasterize(comma, framing: framed, frame: frame), "frame \(String(describing: frame))")
            #expect(channel[1] == rasterizer.rasterize(comma), "frame \(String(describing: frame))")
            // The allocation-free path draws the same bytes.
            var buffer = [UInt8](repeating: 7, count: 2 * 28 * 28)
            buffer.withUnsafeMutableBufferPointer { rasterizer.rasterize(comma, framing: twoChannels, frame: frame, into: $0) }
            #expect(buffer == image.pixels)
        }
        let small = try #require(inkedRows(planes(rasterizer.rasterize(comma, framing: twoChannels, frame: CharacterFrame(height: 10)))[0]))
        let shape = try #require(inkedRows(planes(rasterizer.rasterize(comma, framing: twoChannels, frame: CharacterFrame(height: 10)))[1]))
        #expect(small.count * 3 < shape.count, "framed \(small.count) rows, shape \(shape.count) rows")
        // No ink: both planes black.
        #expect(rasterizer.rasterize([], framing: twoChannels, frame: CharacterFrame(height: 10)) == GrayImage(width: 28, height: 56))
    }

    // MARK: - Three channels: the pen's order

    @Test func threeChannelsAreTheTwoAndThePenOrderPlane() throws {
        let threeChannels = InputFraming.referenceHeightShapeAndPenOrder(pixels: 18)
        #expect(threeChannels.channels == 3)
        #expect(threeChannels.channelFramings == [framed, .aspectFit, .penOrder])
        let comma = [Stroke([(0, 0), (0.4, 0.1), (0.5, 0.8), (0.1, 1.6)])]
        for frame in [CharacterFrame(height: 10), CharacterFrame(height: 3), nil] {
            let image = rasterizer.rasterize(comma, framing: threeChannels, frame: frame)
            #expect(image.width == 28 && image.height == 84)
            let channel = planes(image)
            #expect(channel[0] == rasterizer.rasterize(comma, framing: framed, frame: frame))
            #expect(channel[1] == rasterizer.rasterize(comma))
            #expect(channel[2] == rasterizer.rasterize(comma, framing: .penOrder, frame: frame))
            var buffer = [UInt8](repeating: 7, count: 3 * 28 * 28)
            buffer.withUnsafeMutableBufferPointer { rasterizer.rasterize(comma, framing: threeChannels, frame: frame, into: $0) }
            #expect(buffer == image.pixels)
        }
        #expect(rasterizer.rasterize([], framing: threeChannels, frame: nil) == GrayImage(width: 28, height: 84))
    }

    /// The plain reference of the pen-order plane for one straight stroke from `a` to `b`: the
    /// aspect-fit ink of each pixel times the weight where its centre projects on the stroke,
    /// a quarter at `a` rising linearly to 1 at `b`.
    @Test func penOrderIsTheAspectFitInkWeightedAlongThePath() {
        for (a, b) in [((0.0, 0.0), (10.0, 0.0)), ((3.0, 8.0), (-1.0, 1.0)), ((0.0, 5.0), (0.0, -2.0))] {
            let stroke = Stroke([a, b])
            let plain = rasterizer.rasterize([stroke]), ordered = rasterizer.rasterize([stroke], framing: .penOrder, frame: nil)
            // Where a and b land in the image: the same placement as the aspect-fit plane.
            let extent = max(abs(b.0 - a.0), abs(b.1 - a.1))
            let scale = (28 - Rasterizer.datasetPenPixels - 2 * Rasterizer.datasetMargin) / extent
            let centre = ((a.0 + b.0) / 2, (a.1 + b.1) / 2)
            let pa = ((a.0 - centre.0) * scale + 14, (a.1 - centre.1) * scale + 14)
            let pb = ((b.0 - centre.0) * scale + 14, (b.1 - centre.1) * scale + 14)
            let dx = pb.0 - pa.0, dy = pb.1 - pa.1
            var worst = 0.0
            for row in 0..<28 {
                for column in 0..<28 {
                    let px = Double(column) + 0.5 - pa.0, py = Double(row) + 0.5 - pa.1
                    let t = min(max((px * dx + py * dy) / (dx * dx + dy * dy), 0), 1)
                    let expected = Double(plain.pixels[row * 28 + column]) * (0.25 + 0.75 * t)
                    worst = max(worst, abs(Double(ordered.pixels[row * 28 + column]) - expected))
                }
            }
            #expect(worst <= 1, "stroke \(a) to \(b): off by \(worst)")
            // Drawn the other way, the weights mirror: the two planes add up to 1.25 of the ink.
            let reversed = rasterizer.rasterize([Stroke([b, a])], framing: .penOrder, frame: nil)
            for index in plain.pixels.indices {
                let sum = Double(ordered.pixels[index]) + Double(reversed.pixels[index])
                #expect(abs(sum - 1.25 * Double(plain.pixels[index])) <= 2)
            }
        }
    }

    @Test func penOrderFollowsTheStrokesOrderAndSkipsTheJumps() throws {
        // Two equal dashes: the first drawn is dimmer than the second; swapping the order swaps them.
        let left = Stroke([(0, 0), (0, 4)]), right = Stroke([(6, 0), (6, 4)])
        func inks(_ strokes: [Stroke]) -> (left: Double, right: Double) {
            let image = rasterizer.rasterize(strokes, framing: .penOrder, frame: nil)
            var sums = (left: 0.0, right: 0.0)
            for row in 0..<28 {
                for column in 0..<28 {
                    let value = Double(image.pixels[row * 28 + column])
                    if column < 14 { sums.left += value } else { sums.right += value }
                }
            }
            return sums
        }
        let forward = inks([left, right]), backward = inks([right, left])
        #expect(forward.left < forward.right && backward.left > backward.right)
        #expect(abs(forward.left - backward.right) <= 28 && abs(forward.right - backward.left) <= 28)
        // The jump between the strokes is not path: the first dash's weights run from 0.25 to
        // 0.625, the second's from 0.625 to 1 (means 0.4375 and 0.8125), as for a path drawn in one.
        let plain = rasterizer.rasterize([left, right])
        let plainLeft = (0..<28).flatMap { row in (0..<14).map { Double(plain.pixels[row * 28 + $0]) } }.reduce(0, +)
        #expect(abs(forward.left / plainLeft - 0.4375) < 0.03, "\(forward.left / plainLeft)")
        #expect(abs(forward.right / plainLeft - 0.8125) < 0.03, "\(forward.right / plainLeft)")
        // A dot (no path) is full ink, as aspect-fit draws it; bad points do not trap.
        #expect(rasterizer.rasterize([Stroke([(2, 2)])], framing: .penOrder, frame: nil) == rasterizer.rasterize([Stroke([(2, 2)])]))
        _ = rasterizer.rasterize([Stroke([(0, 0), (.nan, 1), (2, .infinity), (1e308, -1e308), (1, 3)])], framing: .penOrder, frame: nil)
    }
}
