/// How wide the pen is when strokes are drawn into an image.
public enum PenWidth: Sendable, Hashable {
    /// Width in output pixels, whatever the size and units of the drawing, so a stroke from
    /// any device (mouse, phone, web canvas) gets dataset-like lines. The default.
    case pixels(Double)
    /// Width in the drawing's own units, scaled with the drawing as MNIST Maker does
    /// (`.sourceUnits(15)` for its 15-point pen): small drawings get thick lines.
    case sourceUnits(Double)
}

/// Draws pen strokes into a small square image the way the automata-shapes dataset was made
/// by MNIST Maker: the bounding box of all points (grown by half the pen and a small margin)
/// is aspect-fit and centred into `side x side`, and the polylines are drawn white on black,
/// antialiased, with round caps and joins.
///
/// The defaults were measured on the 670 dataset images (28x28): the long axis of every
/// drawing spans the whole image; a perpendicular cut through a line carries about 1.1 px of
/// ink (median; quartiles 0.96 and 1.39); the line peak is only about 0.62 of that ink, i.e.
/// the profile is softer than a box-filtered 1.1 px line, which a 1.5 px edge reproduces;
/// and where a drawing touches the border, the line centre sits about 1.15 px inside it.
///
/// Points with a NaN or infinite coordinate are skipped (a stroke of only such points draws
/// nothing), so untrusted input never traps. Empty input gives a black image.
public struct Rasterizer: Sendable {
    /// Measured dataset line width in output pixels (see the type's comment).
    public static let datasetPenPixels = 1.1
    /// Space between the ink's nominal edge and the image border, in output pixels: with the
    /// default pen it puts the line centre 1.15 px inside the border, as in the dataset.
    public static let datasetMargin = 0.6
    /// Width of the antialiased edge in output pixels (1 would be a plain box filter).
    public static let datasetEdgeWidth = 1.5

    /// Width and height of the output image, in pixels.
    public let side: Int
    public let pen: PenWidth
    /// Empty space between the pen's edge and the image border, in output pixels.
    public let margin: Double
    /// Width of the soft edge of a line, in output pixels. The ink profile across a line is
    /// the pen's box convolved with a box of this width, so the ink per unit length equals
    /// the pen width whatever the edge; only the sharpness changes.
    public let edgeWidth: Double

    /// A rasterizer producing `side x side` images.
    /// - Parameters:
    ///   - side: output size in pixels (28 for the dataset).
    ///   - pen: line width; by default the dataset's measured 1.1 px whatever the input units.
    ///   - margin: extra border beyond the pen's half width, in output pixels.
    ///   - edgeWidth: antialiasing edge width in output pixels.
    public init(
        side: Int = 28,
        pen: PenWidth = .pixels(Rasterizer.datasetPenPixels),
        margin: Double = Rasterizer.datasetMargin,
        edgeWidth: Double = Rasterizer.datasetEdgeWidth
    ) {
        precondition(side > 0, "Rasterizer side must be positive, got \(side)")
        switch pen {
        case .pixels(let width), .sourceUnits(let width):
            precondition(width.isFinite && width > 0, "Pen width must be positive and finite, got \(width)")
        }
        precondition(margin.isFinite && margin >= 0, "Margin must be zero or positive, got \(margin)")
        precondition(edgeWidth.isFinite && edgeWidth > 0, "Edge width must be positive, got \(edgeWidth)")
        self.side = side
        self.pen = pen
        self.margin = margin
        self.edgeWidth = edgeWidth
    }

    /// One stroke as an image.
    public func rasterize(_ stroke: Stroke) -> GrayImage {
        rasterize([stroke])
    }

    /// All strokes of a drawing as one image, white ink on black.
    public func rasterize(_ strokes: [Stroke]) -> GrayImage {
        var image = GrayImage(width: side, height: side)
        image.pixels.withUnsafeMutableBufferPointer { rasterize(strokes, into: $0) }
        return image
    }

    /// Draws the same image as `rasterize(_:)` into `pixels` (`side * side` bytes, row-major)
    /// with no heap allocation: the classifier's path, which then turns the bytes into
    /// network input exactly as it does a PNG's.
    public func rasterize(_ strokes: [Stroke], into pixels: UnsafeMutableBufferPointer<UInt8>) {
        rasterize(strokes, framing: .aspectFit, frame: nil, into: pixels)
    }

    /// All strokes of a drawing as one image, placed by `framing` within `frame` (see
    /// `InputFraming`); `.aspectFit` ignores the frame and is `rasterize(_:)`. A framing of
    /// several channels gives their planes stacked top to bottom (`side` wide,
    /// `side * framing.channels` tall, channel-major as the network reads it), each drawn
    /// as that channel's framing draws it alone.
    public func rasterize(_ strokes: [Stroke], framing: InputFraming, frame: CharacterFrame?) -> GrayImage {
        var image = GrayImage(width: side, height: side * framing.channels)
        image.pixels.withUnsafeMutableBufferPointer { rasterize(strokes, framing: framing, frame: frame, into: $0) }
        return image
    }

    /// `rasterize(_:framing:frame:)` into `pixels` (`side * side * framing.channels` bytes,
    /// row-major, the channels' planes one after the other), with no heap allocation.
    public func rasterize(_ strokes: [Stroke], framing: InputFraming, frame: CharacterFrame?,
                          into pixels: UnsafeMutableBufferPointer<UInt8>) {
        let plane = side * side, channels = framing.channelFramings
        precondition(pixels.count == plane * channels.count,
                     "Buffer holds \(pixels.count) pixels, \(channels.count) \(side)x\(side) plane(s) need \(plane * channels.count)")
        withUnsafeTemporaryAllocation(of: Float.self, capacity: plane) { coverage in
            for (channel, channelFraming) in channels.enumerated() {
                draw(strokes, placement: placement(for: strokes, framing: channelFraming, frame: frame),
                     penOrder: channelFraming == .penOrder, into: coverage)
                for index in coverage.indices { pixels[channel * plane + index] = Self.byte(coverage[index]) }
            }
        }
    }

    @inline(__always)
    private static func byte(_ coverage: Float) -> UInt8 {
        UInt8(min(max(coverage, 0), 1) * 255 + 0.5)   // round half up; libm roundf is a call
    }

    // MARK: - Placement

    /// Maps drawing coordinates to pixel coordinates (pixel (i, j) covers [i, i+1] x [j, j+1]).
    private struct Placement {
        var scale: Double
        var sourceCenterX: Double, sourceCenterY: Double
        var imageCenter: Double
        /// Pen width in output pixels.
        var penPixels: Double

        @inline(__always)
        func map(_ point: StrokePoint) -> (x: Double, y: Double) {
            ((point.x - sourceCenterX) * scale + imageCenter, (point.y - sourceCenterY) * scale + imageCenter)
        }
    }

    /// The placement of all finite points, or nil when there are none: the drawing's box
    /// centred, aspect-fit, or (`.referenceHeight`) scaled so that the frame's height spans
    /// the framing's pixels, and aspect-fit after all when that would not fit the image.
    private func placement(for strokes: [Stroke], framing: InputFraming, frame: CharacterFrame?) -> Placement? {
        guard let box = CharacterFrame.box(of: strokes) else { return nil }
        // Halves first: (min + max) / 2 can overflow for huge finite coordinates.
        let centerX = box.minX / 2 + box.maxX / 2, centerY = box.minY / 2 + box.maxY / 2
        let extent = max(box.maxX - box.minX, box.maxY - box.minY)   // may be 0 (a dot, a straight line)
        let side = Double(self.side)
        var scale: Double
        var penPixels: Double
        switch pen {
        case .pixels(let width):
            // extent * scale + width + 2 * margin == side
            penPixels = width
            scale = max(side - width - 2 * margin, 0) / extent
        case .sourceUnits(let width):
            // (extent + width) * scale + 2 * margin == side
            scale = max(side - 2 * margin, 0) / (extent + width)
            penPixels = width * scale
        }
        if case .referenceHeight(let pixels) = framing, let frame, !frame.isOwnBox(ofHeight: box.maxY - box.minY) {
            // The frame spans `pixels`; a drawing larger than the image allows keeps the
            // aspect-fit scale, the largest that fits. Without a frame, or with its own box
            // for one, a drawing stands alone: its size is unknown, and it is aspect-fit.
            let framed = pixels / frame.height
            if framed.isFinite && framed > 0 && framed < scale {
                scale = framed
                if case .sourceUnits(let width) = pen { penPixels = width * scale }
            }
        }
        // A single point (extent 0) is a dot at the centre; any finite scale will do.
        if !scale.isFinite { scale = 1 }
        if !penPixels.isFinite { penPixels = 0 }
        return Placement(scale: scale, sourceCenterX: centerX, sourceCenterY: centerY,
                         imageCenter: side / 2, penPixels: penPixels)
    }

    // MARK: - Drawing

    /// Writes ink coverage in [0, 1] into `coverage`. Segments of one stroke combine by
    /// maximum (so joints are not drawn twice); separate strokes combine like overlapping
    /// paint, 1 - (1 - a)(1 - b), so crossing strokes are brighter where they cross.
    /// With `penOrder` each point's ink is weighted by `PenOrder` (a quarter at the path's
    /// start, all of it at its end, linearly in the path length drawn before it).
    private func draw(_ strokes: [Stroke], placement: Placement?, penOrder: Bool = false,
                      into coverage: UnsafeMutableBufferPointer<Float>) {
        coverage.update(repeating: 0)
        guard let placement, placement.penPixels > 0 else { return }
        var order = penOrder ? PenOrder(strokes) : nil
        if strokes.count == 1 {
            drawStroke(strokes[0], placement, order: &order, into: coverage)
            return
        }
        // 28 * 28 floats is 3 KB: small enough for the stack, so nothing is heap-allocated.
        withUnsafeTemporaryAllocation(of: Float.self, capacity: coverage.count) { strokeCoverage in
            for stroke in strokes where stroke.points.contains(where: { $0.x.isFinite && $0.y.isFinite }) {
                strokeCoverage.update(repeating: 0)
                drawStroke(stroke, placement, order: &order, into: strokeCoverage)
                for index in coverage.indices {
                    let a = coverage[index], b = strokeCoverage[index]
                    coverage[index] = a + b - a * b
                }
            }
        }
    }

    /// Max-combines the coverage of every segment of `stroke` into `coverage`; with an
    /// `order`, each weighted by the pen's order (and `order` advanced along the stroke).
    private func drawStroke(_ stroke: Stroke, _ placement: Placement, order: inout PenOrder?,
                            into coverage: UnsafeMutableBufferPointer<Float>) {
        var previous: (x: Double, y: Double)?
        var previousPoint: StrokePoint?
        for point in stroke.points where point.x.isFinite && point.y.isFinite {
            let current = placement.map(point)
            guard current.x.isFinite && current.y.isFinite else { continue }
            var weights = (start: 1.0, end: 1.0)
            if order != nil { weights = order!.advance(from: previousPoint, to: point) }
            if let start = previous {
                drawSegment(from: start, to: current, placement.penPixels, weights: weights, into: coverage)
            } else {
                drawSegment(from: current, to: current, placement.penPixels, weights: weights, into: coverage)   // a dot
            }
            previous = current
            previousPoint = point
        }
    }

    /// The pen's order along a drawing: the weight of a point is a quarter plus three
    /// quarters of the share of the drawing's path length drawn before it (strokes in their
    /// order, the jumps between them not counted). A drawing without length (a dot) weighs 1.
    struct PenOrder {
        static let startWeight = 0.25
        let total: Double
        var drawn = 0.0

        init(_ strokes: [Stroke]) {
            total = strokes.reduce(0) { $0 + Self.length(of: $1) }
        }

        /// The finite path length of a stroke (segments between consecutive finite points).
        static func length(of stroke: Stroke) -> Double {
            var length = 0.0, previous: StrokePoint?
            for point in stroke.points where point.x.isFinite && point.y.isFinite {
                if let previous { length += Self.distance(previous, point) }
                previous = point
            }
            return length
        }

        static func distance(_ a: StrokePoint, _ b: StrokePoint) -> Double {
            let dx = b.x - a.x, dy = b.y - a.y
            let distance = (dx * dx + dy * dy).squareRoot()
            return distance.isFinite ? distance : 0
        }

        func weight(at drawn: Double) -> Double {
            guard total > 0, total.isFinite else { return 1 }
            return Self.startWeight + (1 - Self.startWeight) * min(max(drawn / total, 0), 1)
        }

        /// The weights at the ends of the segment from `previous` (nil: a stroke's first
        /// point, a dot) to `point`, moving along it.
        mutating func advance(from previous: StrokePoint?, to point: StrokePoint) -> (start: Double, end: Double) {
            let start = weight(at: drawn)
            if let previous { drawn += Self.distance(previous, point) }
            return (start, weight(at: drawn))
        }
    }

    /// Coverage of a round-capped segment: at distance d from the segment, the overlap of
    /// [d - e/2, d + e/2] with the pen [-w/2, w/2], divided by e (the pen's box convolved
    /// with the edge box, sampled at the pixel centre). Only the segment's bounding box,
    /// grown by the ink's reach, is visited: this loop is where the time goes.
    @inline(__always)
    private func drawSegment(from a: (x: Double, y: Double), to b: (x: Double, y: Double),
                             _ penPixels: Double, weights: (start: Double, end: Double),
                             into coverage: UnsafeMutableBufferPointer<Float>) {
        let halfPen = penPixels / 2, halfEdge = edgeWidth / 2
        let reach = halfPen + halfEdge
        let reachSquared = reach * reach
        let inverseEdge = 1 / edgeWidth
        let last = Double(side - 1)
        // Pixel centres (i + 0.5) within reach of the segment's bounding box.
        let firstColumn = Int(max(0, (min(a.x, b.x) - reach - 0.5).rounded(.up)))
        let lastColumn = Int(min(last, (max(a.x, b.x) + reach - 0.5).rounded(.down)))
        let firstRow = Int(max(0, (min(a.y, b.y) - reach - 0.5).rounded(.up)))
        let lastRow = Int(min(last, (max(a.y, b.y) + reach - 0.5).rounded(.down)))
        guard firstColumn <= lastColumn, firstRow <= lastRow else { return }
        let dx = b.x - a.x, dy = b.y - a.y
        let lengthSquared = dx * dx + dy * dy
        let inverseLengthSquared = lengthSquared > 0 ? 1 / lengthSquared : 0
        let weighted = weights.start != 1 || weights.end != 1
        for row in firstRow...lastRow {
            let py = Double(row) + 0.5 - a.y
            let rowStart = row * side
            for column in firstColumn...lastColumn {
                let px = Double(column) + 0.5 - a.x
                let t = min(max((px * dx + py * dy) * inverseLengthSquared, 0), 1)
                let ex = px - t * dx, ey = py - t * dy
                let distanceSquared = ex * ex + ey * ey
                if distanceSquared >= reachSquared { continue }
                let distance = distanceSquared.squareRoot()
                var ink = (min(distance + halfEdge, halfPen) - max(distance - halfEdge, -halfPen)) * inverseEdge
                if weighted { ink *= weights.start + t * (weights.end - weights.start) }
                let value = Float(ink)
                if value > coverage[rowStart + column] { coverage[rowStart + column] = value }
            }
        }
    }
}
