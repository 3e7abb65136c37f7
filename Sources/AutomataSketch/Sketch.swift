/// A circle as drawn: centre and radius in sketch coordinates.
public struct SketchCircle: Codable, Hashable, Sendable {
    public var center: SketchPoint
    public var radius: Double

    public init(center: SketchPoint, radius: Double) {
        self.center = center
        self.radius = radius
    }
}

/// A state of the sketched automaton: a drawn circle with a name.
public struct SketchState: Codable, Hashable, Sendable, Identifiable {
    /// Stable identifier, unique in its sketch; never reused after an erase.
    public var id: Int
    /// Display name, unique in its sketch (`q0`, `q1`, … unless given or renamed).
    public var name: String
    public var center: SketchPoint
    public var radius: Double
    /// True when the state is accepting (drawn as a double circle).
    public var isFinal: Bool
    /// The outer circle that made the state final, when it was drawn separately.
    public var finalCircle: SketchCircle?

    public init(
        id: Int, name: String, center: SketchPoint, radius: Double,
        isFinal: Bool = false, finalCircle: SketchCircle? = nil
    ) {
        self.id = id
        self.name = name
        self.center = center
        self.radius = radius
        self.isFinal = isFinal
        self.finalCircle = finalCircle
    }

    /// The radius of the outermost drawn circle (the outer circle of a final state).
    public var outerRadius: Double {
        max(radius, finalCircle.map { $0.radius + Geometry.distance($0.center, center) } ?? radius)
    }
}

/// Where a transition was drawn: the stroke's points, its start and its tip.
public struct TransitionGeometry: Codable, Hashable, Sendable {
    /// All points of the stroke (or strokes) that drew the transition, in drawing order.
    public var points: [SketchPoint]
    /// The first point drawn.
    public var start: SketchPoint
    /// The arrow's tip (`Geometry.arrowTip`; for a self-loop, the loop's apex).
    public var tip: SketchPoint

    public init(points: [SketchPoint], start: SketchPoint, tip: SketchPoint) {
        self.points = points
        self.start = start
        self.tip = tip
    }

    /// Points a fifth of the shaft's path (start to tip) in from each end: with the end they
    /// give the direction the arrow leaves and arrives in (see `Geometry.endDirection`).
    var nearEnds: (start: SketchPoint, tip: SketchPoint) {
        guard let tipIndex = points.firstIndex(of: tip), tipIndex > 0 else { return (tip, start) }
        let shaft = Array(points[...tipIndex])
        return (Geometry.endDirection(shaft, atStart: true).inner, Geometry.endDirection(shaft, atStart: false).inner)
    }
}

/// A transition of the sketched automaton: an arrow between states, or a self-loop.
public struct SketchTransition: Codable, Hashable, Sendable, Identifiable {
    public enum Kind: String, Codable, Hashable, Sendable {
        case regular
        case selfLoop
    }

    /// Stable identifier, unique in its sketch; never reused after an erase.
    public var id: Int
    /// The state the transition leaves; nil when its start is free (then, with an `to`
    /// state, the arrow marks that state initial).
    public var from: Int?
    /// The state the transition enters; nil when its tip is free.
    public var to: Int?
    /// Input symbols that take this transition (several allowed).
    public var symbols: [String]
    /// True when the transition can also be taken without reading input (an ε-move).
    public var isEpsilon: Bool
    public var kind: Kind
    public var geometry: TransitionGeometry

    public init(
        id: Int, from: Int?, to: Int?, symbols: [String] = [], isEpsilon: Bool = false,
        kind: Kind, geometry: TransitionGeometry
    ) {
        self.id = id
        self.from = from
        self.to = to
        self.symbols = symbols
        self.isEpsilon = isEpsilon
        self.kind = kind
        self.geometry = geometry
    }

    /// True when the transition has no start state but an end state: it marks that state initial.
    public var isInitialMarker: Bool { from == nil && to != nil }

    /// True when both ends are attached to states.
    public var isConnected: Bool { from != nil && to != nil }
}

/// The sketched automaton: states and transitions as drawn. A value type; editing with undo
/// and redo goes through `SketchEditor`.
public struct Sketch: Codable, Hashable, Sendable {
    public internal(set) var states: [SketchState]
    public internal(set) var transitions: [SketchTransition]
    /// The id the next state gets (ids are never reused, so documents and outcomes stay unambiguous).
    var nextStateID: Int
    var nextTransitionID: Int

    /// An empty sketch.
    public init() {
        states = []
        transitions = []
        nextStateID = 0
        nextTransitionID = 0
    }

    /// The state with this id.
    public func state(_ id: Int) -> SketchState? {
        states.first { $0.id == id }
    }

    /// The state with this name.
    public func state(named name: String) -> SketchState? {
        states.first { $0.name == name }
    }

    /// The transition with this id.
    public func transition(_ id: Int) -> SketchTransition? {
        transitions.first { $0.id == id }
    }

    /// True when some transition without a start state points at this state.
    public func isInitial(_ stateID: Int) -> Bool {
        transitions.contains { $0.isInitialMarker && $0.to == stateID }
    }

    /// The state's name, or `"?"` for an id that is not in the sketch.
    func name(of stateID: Int?) -> String? {
        stateID.flatMap { state($0)?.name }
    }

    /// The first name `q0, q1, …` not in use: states drawn without a name get these in
    /// creation order. After an erase the lowest free number is reused.
    func nextDefaultName() -> String {
        let used = Set(states.map(\.name))
        var number = 0
        while used.contains("q\(number)") { number += 1 }
        return "q\(number)"
    }

    /// Things a student should fix before the automaton means what the drawing shows.
    public var warnings: [String] {
        var result: [String] = []
        if !states.isEmpty && !states.contains(where: { isInitial($0.id) }) {
            result.append("no initial state: draw an arrow from empty space into the start state")
        }
        for transition in transitions {
            let label = describe(transition)
            switch (transition.from, transition.to) {
            case (nil, nil):
                result.append("\(label) is not attached to any state: erase it or draw it between states")
            case (_?, nil):
                result.append("\(label) ends in empty space: draw its tip closer to a state, or draw a state at its tip")
            case (nil, _?):
                continue  // an initial marker
            case (_?, _?):
                if transition.symbols.isEmpty && !transition.isEpsilon {
                    result.append("\(label) has no symbols: give it symbols or mark it ε")
                }
            }
        }
        return result
    }

    /// `q0 → q1`, `self-loop on q2`, `arrow into q0`, with `?` for free ends.
    public func describe(_ transition: SketchTransition) -> String {
        let from = name(of: transition.from) ?? "?"
        let to = name(of: transition.to) ?? "?"
        if transition.kind == .selfLoop { return "self-loop on \(to)" }
        return "transition \(from) → \(to)"
    }
}
