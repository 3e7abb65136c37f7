/// The reference a character is drawn against: the height of its line of writing (or, for
/// an isolated character, of its writer's characters), in the drawing's own units. Within a
/// frame a `.` stays small and `o` stays smaller than `O`; a character's own box alone erases
/// both.
public struct CharacterFrame: Sendable, Hashable {
    /// The reference height, in the drawing's units (positive and finite to be used).
    public var height: Double

    public init(height: Double) {
        self.height = height
    }

    /// The frame of a line of writing from its top and bottom (y down, either order).
    public init(lineTop: Double, lineBottom: Double) {
        height = abs(lineBottom - lineTop)
    }

    /// The frame of a drawing standing alone: its own box's height.
    public init?(ownBoxOf strokes: [Stroke]) {
        guard let box = Self.box(of: strokes) else { return nil }
        height = box.maxY - box.minY
    }

    /// The usual frame of a page's handwritten labels (a diagram's transition labels and
    /// state names), estimated from the boxes of the labels themselves: 1.2 times the median
    /// height of their boxes. The median label is a little shorter than a full-height
    /// character, the height a frame stands for (many labels are one lowercase letter or a
    /// small digit; a few hang a descender, `q0`); 1.2 brings it there. A label's own box says
    /// nothing about its size; against its page's usual height a small `o` stays smaller than
    /// an `O`, a `c` than a `C`. The labels' texts play no part. Labels without finite
    /// points or flat ones (height 0) are not counted; fewer than `minimumLabels` counted give
    /// nil (too few to say what is usual: read each label alone).
    ///
    /// Chosen on fa-diagrams' single-character labels, on one half of the writers, among
    /// quantiles of label and stroke heights and multiples of their medians (docs/label-model.md).
    public init?(labels: [[Stroke]], minimumLabels: Int = 3) {
        self.init(labelHeights: labels.compactMap { Self.box(of: $0).map { $0.maxY - $0.minY } },
                  minimumLabels: minimumLabels)
    }

    /// `init(labels:minimumLabels:)` from the heights of the labels' boxes (those that are
    /// not positive and finite are not counted).
    public init?(labelHeights: [Double], minimumLabels: Int = 3) {
        let heights = labelHeights.filter { $0 > 0 && $0.isFinite }
        guard heights.count >= max(minimumLabels, 1) else { return nil }
        let usual = Self.usualLabelScale * Self.quantile(0.5, of: heights)
        guard usual.isFinite && usual > 0 else { return nil }
        height = usual
    }

    /// A page's frame over the median height of its labels' boxes (`init(labels:)`).
    public static let usualLabelScale = 1.2

    /// The `p`-quantile of non-empty `values`, linear between order statistics (NumPy's default).
    static func quantile(_ p: Double, of values: [Double]) -> Double {
        let sorted = values.sorted()
        let position = p * Double(sorted.count - 1)
        let lower = Int(position.rounded(.down))
        guard lower + 1 < sorted.count else { return sorted[sorted.count - 1] }
        let fraction = position - Double(lower)
        return sorted[lower] * (1 - fraction) + sorted[lower + 1] * fraction
    }

    /// True when this frame is a drawing's own box, the drawing `height` tall (equal within
    /// a millionth): a character alone on its line, or the one that spans it, whose frame
    /// says nothing about its size.
    public func isOwnBox(ofHeight height: Double) -> Bool {
        abs(self.height - height) <= 1e-6 * max(abs(self.height), abs(height))
    }

    /// The bounding box of the finite points of `strokes`, or nil when there are none.
    public static func box(of strokes: [Stroke]) -> (minX: Double, minY: Double, maxX: Double, maxY: Double)? {
        var minX = Double.infinity, minY = Double.infinity
        var maxX = -Double.infinity, maxY = -Double.infinity
        for stroke in strokes {
            for point in stroke.points where point.x.isFinite && point.y.isFinite {
                minX = min(minX, point.x); maxX = max(maxX, point.x)
                minY = min(minY, point.y); maxY = max(maxY, point.y)
            }
        }
        return minX <= maxX ? (minX, minY, maxX, maxY) : nil
    }
}

/// How a model's input image is made from strokes: what `Rasterizer` does with a drawing's
/// size. A model file records it (`strokekit.input.framing`); a file without it is `.aspectFit`.
public enum InputFraming: Sendable, Hashable, CustomStringConvertible {
    /// The drawing's own box aspect-fit into the image (MNIST Maker's rule): size and place
    /// are erased. The shape models, and every model file without the key.
    case aspectFit
    /// The frame's height spans this many output pixels and the drawing keeps its size
    /// relative to it, centred on its box; a drawing too large for the image is aspect-fit.
    /// A drawing without a frame, or framed by its own box (a character alone on its line,
    /// or the one that spans it), stands alone: its size is unknown, and it is aspect-fit,
    /// so a model framed this way learns every character both ways.
    case referenceHeight(pixels: Double)
    /// Two channels of the same drawing: channel 0 `.referenceHeight(pixels:)` (its size and
    /// place against its frame), channel 1 `.aspectFit` (its shape at full size, which a
    /// framed `,` two pixels tall no longer shows). The network's input has two channels.
    case referenceHeightAndShape(pixels: Double)
    /// The drawing aspect-fit, its ink brighter the later the pen drew it: a quarter of full
    /// ink where the pen's path starts, rising with the path length drawn (strokes in the
    /// order they were drawn, the jumps between them not counted) to full ink where it ends.
    /// What the pen did, which a raster lacks: a comma's tail is where its path ends.
    case penOrder
    /// Three channels: those of `.referenceHeightAndShape(pixels:)` and `.penOrder`.
    case referenceHeightShapeAndPenOrder(pixels: Double)

    /// The bundled character model's framing: a line's (or writer's) height over 18 of the 28
    /// pixels, so characters up to 1.4 times as tall still fit unshrunk, then the shape
    /// aspect-fit, then the pen's order (three channels).
    public static let characterDefault = InputFraming.referenceHeightShapeAndPenOrder(pixels: 18)

    /// The framing of each of the input's channels, in order: itself for a one-channel
    /// framing, `[.referenceHeight(pixels:), .aspectFit]` for `.referenceHeightAndShape`,
    /// and `.penOrder` after those for `.referenceHeightShapeAndPenOrder`.
    public var channelFramings: [InputFraming] {
        switch self {
        case .aspectFit, .referenceHeight, .penOrder: return [self]
        case .referenceHeightAndShape(let pixels): return [.referenceHeight(pixels: pixels), .aspectFit]
        case .referenceHeightShapeAndPenOrder(let pixels): return [.referenceHeight(pixels: pixels), .aspectFit, .penOrder]
        }
    }

    /// How many channels (image planes) the input has.
    public var channels: Int { channelFramings.count }

    /// The metadata value: `aspect-fit`, `reference-height:<pixels>`,
    /// `reference-height:<pixels>+aspect-fit` (two channels), `pen-order`, or
    /// `reference-height:<pixels>+aspect-fit+pen-order` (three channels).
    public var description: String {
        switch self {
        case .aspectFit: return "aspect-fit"
        case .referenceHeight(let pixels):
            return "reference-height:" + (pixels == pixels.rounded() ? String(Int(pixels)) : String(pixels))
        case .referenceHeightAndShape(let pixels):
            return InputFraming.referenceHeight(pixels: pixels).description + Self.shapeChannelSuffix
        case .penOrder: return "pen-order"
        case .referenceHeightShapeAndPenOrder(let pixels):
            return InputFraming.referenceHeightAndShape(pixels: pixels).description + Self.penOrderChannelSuffix
        }
    }

    private static let shapeChannelSuffix = "+aspect-fit"
    private static let penOrderChannelSuffix = "+pen-order"

    /// Reads a metadata value (`description`'s spelling); nil for anything else, including
    /// a pixel count that is not a positive number of at most 1,000.
    public init?(_ text: String) {
        if text == "aspect-fit" { self = .aspectFit; return }
        if text == "pen-order" { self = .penOrder; return }
        if text.hasSuffix(Self.penOrderChannelSuffix) {
            guard case .referenceHeightAndShape(let pixels)? = InputFraming(String(text.dropLast(Self.penOrderChannelSuffix.count)))
            else { return nil }
            self = .referenceHeightShapeAndPenOrder(pixels: pixels)
            return
        }
        if text.hasSuffix(Self.shapeChannelSuffix) {
            guard case .referenceHeight(let pixels)? = InputFraming(String(text.dropLast(Self.shapeChannelSuffix.count)))
            else { return nil }
            self = .referenceHeightAndShape(pixels: pixels)
            return
        }
        let prefix = "reference-height:"
        guard text.hasPrefix(prefix), let pixels = Double(text.dropFirst(prefix.count)),
              pixels.isFinite, pixels > 0, pixels <= 1_000 else { return nil }
        self = .referenceHeight(pixels: pixels)
    }
}
