/// An axis-aligned box in sketch coordinates (y down): where a label, or a line of
/// handwriting, lies on the page.
public struct LabelBox: Codable, Hashable, Sendable {
    public var minX: Double, minY: Double, maxX: Double, maxY: Double

    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }

    /// The box round `points` (a zero box at the origin for none).
    init(_ points: some Sequence<SketchPoint>) {
        var low = SketchPoint(Double.infinity, Double.infinity), high = -low
        for point in points {
            low = pointwiseMin(low, point)
            high = pointwiseMax(high, point)
        }
        if low.x > high.x { low = .zero; high = .zero }
        self.init(minX: low.x, minY: low.y, maxX: high.x, maxY: high.y)
    }

    public var width: Double { maxX - minX }
    public var height: Double { maxY - minY }
    public var center: SketchPoint { SketchPoint((minX + maxX) / 2, (minY + maxY) / 2) }
    /// The larger of width and height.
    var size: Double { max(width, height) }

    /// The smallest box holding both.
    func union(_ other: LabelBox) -> LabelBox {
        LabelBox(minX: min(minX, other.minX), minY: min(minY, other.minY), maxX: max(maxX, other.maxX), maxY: max(maxY, other.maxY))
    }

    /// The distance between the boxes (0 when they overlap).
    func gap(to other: LabelBox) -> Double {
        let dx = max(0, max(other.minX - maxX, minX - other.maxX))
        let dy = max(0, max(other.minY - maxY, minY - other.maxY))
        return (dx * dx + dy * dy).squareRoot()
    }
}

/// What a handwritten label belongs to.
public enum LabelOwner: Hashable, Sendable {
    /// The transition (or self-loop, or initial arrow) with this id: the label gives its symbols.
    case transition(Int)
    /// The state with this id: the label is written inside it and names it.
    case state(Int)
    /// Nothing: a stray text (a title, "Start" far from any arrow).
    case nothing

    /// Its kind as the JSON outputs name it: `transition`, `state` or `nothing`.
    public var kind: String {
        switch self {
        case .transition: "transition"
        case .state: "state"
        case .nothing: "nothing"
        }
    }

    /// The id of the transition or state it belongs to; nil for nothing.
    public var id: Int? {
        switch self {
        case let .transition(id), let .state(id): id
        case .nothing: nil
        }
    }
}

/// Another way to read a label, less probable than the one chosen.
public struct LabelAlternative: Hashable, Sendable {
    public var text: String
    public var confidence: Float

    public init(text: String, confidence: Float) {
        self.text = text
        self.confidence = confidence
    }
}

/// One handwritten label read from the ink: its strokes, the text read from them, and what it
/// belongs to. A label never becomes a state, an arrow or a loop.
public struct HandwrittenLabel: Hashable, Sendable {
    /// Indices into the ink, in drawing order.
    public var strokes: [Int]
    /// Where it lies.
    public var box: LabelBox
    /// The text read (`0,1`, `q0`, `a`); empty when no character model is available.
    public var text: String
    /// The symbols it gives a transition: `text` split at the separators `,` `+` `.` `;`.
    public var symbols: [String]
    /// How sure the reading is: the product of its characters' probabilities within the
    /// characters the diagram's context allows (0...1).
    public var confidence: Float
    /// The next most probable readings, best first.
    public var alternatives: [LabelAlternative]
    public var owner: LabelOwner

    public init(
        strokes: [Int], box: LabelBox, text: String, symbols: [String], confidence: Float,
        alternatives: [LabelAlternative], owner: LabelOwner
    ) {
        self.strokes = strokes
        self.box = box
        self.text = text
        self.symbols = symbols
        self.confidence = confidence
        self.alternatives = alternatives
        self.owner = owner
    }
}
