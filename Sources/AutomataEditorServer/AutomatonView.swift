import AutomataSketch
import Foundation

/// The automaton as the page draws it: clean shapes placed where the student drew them.
/// The layout is computed here once, so the page's canvas and the SVG export draw the same
/// thing: every edge is an SVG path string (`M … Q …` or `M … C …`) that the canvas draws with
/// `Path2D` and the SVG export writes as it is.
struct AutomatonView: Encodable, Sendable {
    struct State: Encodable, Sendable {
        var id: Int
        var name: String
        var x: Double
        var y: Double
        var radius: Double
        var final: Bool
        var initial: Bool
    }

    struct Edge: Encodable, Sendable {
        var id: Int
        /// State ids; nil for a free end.
        var from: Int?
        var to: Int?
        var symbols: [String]
        var epsilon: Bool
        /// `regular`, `selfLoop` or `initial` (the arrow from empty space into a start state).
        var kind: String
        /// `symbols, ε` as shown; empty when the transition has none yet.
        var label: String
        /// The edge's line as an SVG path, and the arrowhead (tip, then the two barbs).
        var path: String
        var head: [[Double]]
        /// Where the label is written (its centre).
        var labelX: Double
        var labelY: Double
        /// True when an end is free: the page draws the edge dashed.
        var dangling: Bool
    }

    struct Table: Encodable, Sendable {
        struct Row: Encodable, Sendable {
            var marker: String
            var state: String
            var cells: [String]
        }

        var columns: [String]
        var rows: [Row]
    }

    /// A handwritten label read from the ink (see `HandwrittenLabel`), for the page to show
    /// in place and to open for correction.
    struct Label: Encodable, Sendable {
        /// Its strokes: positions in the session's ink, in drawing order.
        var strokes: [Int]
        var text: String
        var confidence: Float
        /// `transition` (its symbols), `state` (its name) or `nothing` (a stray text), and the
        /// id of that transition or state.
        var belongsTo: String
        var owner: Int?
        /// Where its strokes lie: [minX, minY, maxX, maxY] in canvas coordinates.
        var box: [Double]

        init(_ label: HandwrittenLabel) {
            strokes = label.strokes
            text = label.text
            confidence = label.confidence
            belongsTo = label.owner.kind
            owner = label.owner.id
            box = [label.box.minX, label.box.minY, label.box.maxX, label.box.maxY].map(EdgeLayout.rounded)
        }
    }

    var states: [State]
    var edges: [Edge]
    var labels: [Label]
    var alphabet: [String]
    var warnings: [String]
    var table: Table
    var canUndo: Bool
    var canRedo: Bool
    /// Drawings received by this session (accepted or rejected); the load benchmark checks
    /// that none is lost.
    var strokesReceived: Int

    init(sketch: Sketch, labels: [HandwrittenLabel] = [], canUndo: Bool, canRedo: Bool, strokesReceived: Int) {
        let nfa = sketch.automaton()
        self.labels = labels.map(Label.init)
        states = sketch.states.map {
            State(
                id: $0.id, name: $0.name, x: $0.center.x, y: $0.center.y, radius: $0.radius,
                final: $0.isFinal, initial: sketch.isInitial($0.id))
        }
        edges = sketch.transitions.map { EdgeLayout.edge($0, in: sketch) }
        alphabet = nfa.alphabet
        warnings = sketch.warnings
        let table = nfa.transitionTable()
        self.table = Table(
            columns: table.columns,
            rows: table.rows.map { Table.Row(marker: $0.marker, state: $0.state, cells: $0.cells) })
        self.canUndo = canUndo
        self.canRedo = canRedo
        self.strokesReceived = strokesReceived
    }
}

/// Where a transition's clean line goes. Regular edges run rim to rim and bend the way the
/// student's stroke bent (so two opposite edges drawn as arcs stay apart); self-loops stand
/// on the rim where they were drawn; the initial arrow comes from the side it was drawn from.
enum EdgeLayout {
    typealias Point = SIMD2<Double>

    static func edge(_ transition: SketchTransition, in sketch: Sketch) -> AutomatonView.Edge {
        let from = transition.from.flatMap(sketch.state)
        let to = transition.to.flatMap(sketch.state)
        let label = (transition.symbols + (transition.isEpsilon ? ["ε"] : [])).joined(separator: ", ")
        let shape: (path: String, head: [Point], label: Point)
        let kind: String
        if transition.kind == .selfLoop, let state = to ?? from {
            shape = selfLoop(on: state, apex: transition.geometry.tip)
            kind = "selfLoop"
        } else if transition.isInitialMarker, let state = to {
            shape = initialArrow(into: state, from: transition.geometry.start)
            kind = "initial"
        } else {
            let start = from.map { rimPoint($0, toward: transition.geometry.tip) } ?? transition.geometry.start
            let end = to.map { rimPoint($0, toward: transition.geometry.start) } ?? transition.geometry.tip
            shape = arc(from: start, to: end, drawn: transition.geometry.points, fromState: from, toState: to)
            kind = "regular"
        }
        return AutomatonView.Edge(
            id: transition.id, from: transition.from, to: transition.to, symbols: transition.symbols,
            epsilon: transition.isEpsilon, kind: kind, label: label, path: shape.path,
            head: shape.head.map { [rounded($0.x), rounded($0.y)] },
            labelX: rounded(shape.label.x), labelY: rounded(shape.label.y),
            dangling: kind == "regular" && (from == nil || to == nil))
    }

    private static func rimPoint(_ state: SketchState, toward point: Point) -> Point {
        state.center + unit(point - state.center, fallback: Point(1, 0)) * state.radius
    }

    /// A quadratic curve from `start` to `end` through the drawn stroke's middle (bent at most
    /// 0.6 of its length), with its ends moved onto the states' rims along the curve.
    private static func arc(
        from start: Point, to end: Point, drawn: [Point], fromState: SketchState?, toState: SketchState?
    ) -> (String, [Point], Point) {
        let chord = end - start
        let length = max(norm(chord), 1e-6)
        let normal = Point(-chord.y, chord.x) / length
        let middle = drawn.isEmpty ? (start + end) / 2 : drawn[drawn.count / 2]
        let bend = max(-0.6 * length, min(0.6 * length, dot(middle - (start + end) / 2, normal)))
        // The curve passes through the middle offset by `bend`: its control point is twice as far.
        var control = (start + end) / 2 + normal * (2 * bend)
        var head0 = start, tip = end
        if let fromState { head0 = rimPoint(fromState, toward: control) }
        if let toState { tip = rimPoint(toState, toward: control) }
        control = (head0 + tip) / 2 + normal * (2 * bend)
        let labelPoint = 0.25 * head0 + 0.5 * control + 0.25 * tip + normal * (bend >= 0 ? 11 : -11)
        let path = "M \(format(head0)) Q \(format(control)) \(format(tip))"
        return (path, arrowHead(tip: tip, from: control), labelPoint)
    }

    /// A loop standing on the state's rim, centred on the direction of the drawn loop's apex.
    private static func selfLoop(on state: SketchState, apex: Point) -> (String, [Point], Point) {
        let direction = unit(apex - state.center, fallback: Point(0, -1))
        let r = state.radius
        func rotated(_ v: Point, _ angle: Double) -> Point {
            Point(v.x * cos(angle) - v.y * sin(angle), v.x * sin(angle) + v.y * cos(angle))
        }
        let start = state.center + rotated(direction, -0.45) * r
        let end = state.center + rotated(direction, 0.45) * r
        let control1 = state.center + rotated(direction, -0.6) * (r * 2.6)
        let control2 = state.center + rotated(direction, 0.6) * (r * 2.6)
        let path = "M \(format(start)) C \(format(control1)) \(format(control2)) \(format(end))"
        return (path, arrowHead(tip: end, from: control2), state.center + direction * (r * 2.35 + 10))
    }

    /// A short straight arrow into the rim, from the side the student drew it.
    private static func initialArrow(into state: SketchState, from drawnStart: Point) -> (String, [Point], Point) {
        let direction = unit(drawnStart - state.center, fallback: Point(-1, 0))
        let tip = state.center + direction * state.radius
        let tail = state.center + direction * (state.radius * 2.2)
        return ("M \(format(tail)) L \(format(tip))", arrowHead(tip: tip, from: tail), tail)
    }

    private static func arrowHead(tip: Point, from previous: Point) -> [Point] {
        let back = unit(previous - tip, fallback: Point(-1, 0)) * 9
        let side = Point(-back.y, back.x) * 0.5
        return [tip, tip + back + side, tip + back - side]
    }

    private static func unit(_ v: Point, fallback: Point) -> Point {
        let length = norm(v)
        return length < 1e-9 ? fallback : v / length
    }

    private static func norm(_ v: Point) -> Double { (v.x * v.x + v.y * v.y).squareRoot() }
    private static func dot(_ a: Point, _ b: Point) -> Double { a.x * b.x + a.y * b.y }
    static func rounded(_ value: Double) -> Double { (value * 10).rounded() / 10 }
    private static func format(_ p: Point) -> String { "\(rounded(p.x)) \(rounded(p.y))" }
}
