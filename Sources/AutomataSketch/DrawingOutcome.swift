import StrokeKit

/// What one drawing became in the reading: the one answer the reader gives for a symbol, and
/// the one the editor returns, the recognition report lists, `strokekit recognize --json`
/// prints and the editor server sends (docs/reading-json.md describes its JSON).
///
/// The value is what happened (`became`), how the classifier saw the drawing and the shape the
/// rules read it as, with the rule that decided; every text and every coarser view (`kind`,
/// `description`) is computed from it.
public struct DrawingOutcome: Hashable, Sendable, CustomStringConvertible {
    /// What the drawing became.
    public var became: Became
    /// The classifier's answer for the drawing's symbol (for a handwritten label, the text read
    /// and its confidence; for a shape a front end gave, that shape at confidence 1).
    public var classification: Classification
    /// The shape the rules read the drawing as, and the context rule that chose it when it is
    /// not the classifier's accepted label; nil when the drawing was rejected or is text.
    public var reading: StrokeReading?

    public init(became: Became, classification: Classification, reading: StrokeReading? = nil) {
        self.became = became
        self.classification = classification
        self.reading = reading
    }

    /// What a drawing became: a state, a circle making a state final, a transition, a self-loop,
    /// the initial arrow, an arrow with its tip (or both ends) in empty space, handwriting, or
    /// nothing, for a reason.
    public enum Became: Codable, Hashable, Sendable, CustomStringConvertible {
        /// A new state (`final` when it is final in the finished reading); `connected` lists
        /// the transitions drawn earlier whose free end it took (the editor says so).
        case state(id: Int, name: String, final: Bool, connected: [String])
        /// A circle round an existing state, which made it final.
        case finalCircle(state: Int, name: String)
        /// A transition between two states, with its symbols.
        case transition(id: Int, from: String, to: String, symbols: [String], epsilon: Bool)
        case selfLoop(id: Int, state: String, symbols: [String], epsilon: Bool)
        /// An arrow from empty space into a state: that state is initial.
        case initialArrow(id: Int, to: String)
        /// An arrow whose tip is in empty space (`from` nil: both ends are): resolved when a
        /// state appears there.
        case openArrow(id: Int, from: String?, symbols: [String], epsilon: Bool)
        /// Handwriting: a label's strokes, the text read, and what it belongs to.
        case text(text: String, belongsTo: LabelTarget)
        /// Nothing changed, for this reason.
        case rejected(reason: Rejection)

        /// The sentence a person reads.
        public var description: String {
            switch self {
            case let .state(_, name, final, connected):
                let links = connected.isEmpty ? "" : " and connected to " + connected.joined(separator: ", ")
                return "\(final ? "final state" : "state") \(name) added\(links)"
            case let .finalCircle(_, name):
                return "state \(name) made final"
            case let .transition(_, from, to, symbols, epsilon):
                return "transition added and connected to \(from) → \(to)" + Self.labelled(symbols, epsilon)
            case let .initialArrow(_, to):
                return "initial arrow added: \(to) is now initial"
            case let .openArrow(_, from?, symbols, epsilon):
                return "transition added from \(from)\(Self.labelled(symbols, epsilon)); its tip is not near a state (draw a state there or redraw the arrow closer)"
            case let .openArrow(_, nil, symbols, epsilon):
                return "transition added\(Self.labelled(symbols, epsilon)) but not near any state (draw states at its ends to connect it)"
            case let .selfLoop(_, state, symbols, epsilon):
                return "self-loop on \(state)" + Self.labelled(symbols, epsilon)
            case let .text(text, belongsTo):
                return "handwritten label \"\(text)\" \(belongsTo.phrase)"
            case let .rejected(reason):
                return "rejected: \(reason)"
            }
        }

        /// " (symbols a, b)", " (symbols ε)", or nothing for a transition without any.
        private static func labelled(_ symbols: [String], _ epsilon: Bool) -> String {
            let all = symbols + (epsilon ? ["ε"] : [])
            return all.isEmpty ? "" : " (symbols \(all.joined(separator: ", ")))"
        }

        /// What the symbol is, as a person names it (a circle that made a state final is part
        /// of a final state).
        public var kind: SymbolKind {
            switch self {
            case let .state(_, _, final, _): final ? .finalState : .state
            case .finalCircle: .finalState
            case .transition: .transition
            case .selfLoop: .selfLoop
            case .initialArrow: .initialArrow
            case .openArrow: .openArrow
            case .text: .text
            case .rejected: .rejected
            }
        }

        public var isRejected: Bool {
            if case .rejected = self { return true }
            return false
        }

        /// The state the drawing created (nil for anything else, a circle making one final too).
        public var createdState: Int? {
            if case let .state(id, _, _, _) = self { return id }
            return nil
        }

        /// The transition the drawing created: between states, a self-loop, the initial arrow or an open arrow.
        public var createdTransition: Int? {
            switch self {
            case let .transition(id, _, _, _, _), let .selfLoop(id, _, _, _), let .initialArrow(id, _), let .openArrow(id, _, _, _):
                return id
            default:
                return nil
            }
        }
    }

    /// What a handwritten label belongs to, named as the finished reading names it.
    public enum LabelTarget: Codable, Hashable, Sendable {
        /// A transition (or the initial arrow); `nil` for a free end.
        case transition(id: Int, from: String?, to: String?)
        case selfLoop(id: Int, state: String)
        /// The state it names.
        case state(id: Int, name: String)
        /// Nothing: a stray text.
        case nothing

        /// "transition q0 → q1" (`?` for a free end), "self-loop on q1", "state q2", "nothing".
        public var name: String {
            switch self {
            case let .transition(_, from, to): "transition \(from ?? "?") → \(to ?? "?")"
            case let .selfLoop(_, state): "self-loop on \(state)"
            case let .state(_, name): "state \(name)"
            case .nothing: "nothing"
            }
        }

        /// "of transition q0 → q1", "of self-loop on q1", "naming state q2", "belonging to nothing".
        public var phrase: String {
            switch self {
            case .transition, .selfLoop: "of " + name
            case .state: "naming " + name
            case .nothing: "belonging to nothing"
            }
        }
    }

    /// Why a drawing changed nothing; `description` is written for the student.
    public enum Rejection: Codable, Hashable, Sendable, CustomStringConvertible {
        case noPoints
        case noStrokes
        /// The editor could not read a drawing given with its shape.
        case unreadable
        /// The classifier's label is none of the sketch's shapes (a model for other classes).
        case notASketchShape(label: String)
        /// No shape, and no rule read one; `closest` and `percent` are the classifier's best guess.
        case noShape(closest: String, percent: Int)
        /// The stroke runs along a state's circle.
        case retracedCircle
        case circleWithoutSize
        /// A circle round a state that is not a second circle just round it.
        case enclosesState(name: String, fit: Enclosure)
        case alreadyFinal(name: String)
        case circleTooSmall
        case overlapsState(name: String)
        case invalidName(problem: String)
        case invalidSymbols(problem: String)
        case arrowTooShort
        case loopWithoutStates
        case loopOffStates

        /// How a circle round a state fails to be its final circle.
        public enum Enclosure: String, Codable, Hashable, Sendable {
            case muchSmaller, muchLarger, notCentred
        }

        public var description: String {
            switch self {
            case .noPoints: "the stroke has no points; draw it again"
            case .noStrokes: "the drawing has no strokes; draw it again"
            case .unreadable: "the drawing could not be read"
            case let .notASketchShape(label):
                "the classifier answered \"\(label)\", which is not a sketch shape (arrow, circle, cycle); use a model trained on those classes"
            case let .noShape(closest, percent):
                // Below 5% the "closest" shape is noise, and naming it would only mislead.
                "the stroke does not look like an arrow, a circle or a self-loop"
                    + (percent >= 5 ? " (closest: \(closest), \(percent)%)" : "")
                    + "; draw it again as one clear shape: a circle for a state, a line from one state to another with its head at the end, or a loop that leaves a state's rim and comes back to it"
            case .retracedCircle: "this stroke runs along a state's circle; it changes nothing"
            case .circleWithoutSize: "the circle has no size; draw it again"
            case let .enclosesState(name, fit):
                "this circle encloses \(name) but "
                    + (fit == .muchSmaller ? "is much smaller than it" : fit == .muchLarger ? "is much larger than it" : "is not centred on it")
                    + "; to make \(name) final, draw a second circle just around it"
            case let .alreadyFinal(name):
                "\(name) is already final; the extra circle is ignored (erase the outer circle to make it non-final)"
            case .circleTooSmall: "this circle is much smaller than the other states; draw states about the same size"
            case let .overlapsState(name):
                "this circle overlaps \(name); draw new states apart from existing ones, or a circle right around \(name) to make it final"
            case let .invalidName(problem), let .invalidSymbols(problem): problem
            case .arrowTooShort: "this arrow is too short to tell where it starts and ends; draw it from one state to another"
            case .loopWithoutStates: "a self-loop needs a state: draw the state first, then the loop on its rim"
            case .loopOffStates: "this self-loop is not on any state; draw it touching the rim of the state it belongs to"
            }
        }
    }

    /// The sentence a person reads: what the drawing became (`Became.description`).
    public var description: String { became.description }
    public var kind: SymbolKind { became.kind }
    public var isRejected: Bool { became.isRejected }

    /// The rejected outcome of a drawing nobody classified.
    static func unclassified(_ reason: Rejection) -> DrawingOutcome {
        DrawingOutcome(
            became: .rejected(reason: reason),
            classification: Classification(label: "none", confidence: 0, probabilities: [:], isRejected: true))
    }
}

/// What one symbol of the sketch became, as a person would name it (`DrawingOutcome.kind`).
public enum SymbolKind: String, Codable, Hashable, Sendable {
    case state
    case finalState = "final state"
    case transition
    case selfLoop = "self-loop"
    case initialArrow = "initial arrow"
    /// An arrow with an end (or both) in empty space: resolved when a state appears there.
    case openArrow = "open arrow"
    case rejected
    /// Handwriting: a label's strokes (see `SketchReading.labels`).
    case text
}

// MARK: - JSON

/// One flat JSON object (docs/reading-json.md): `became` and the classifier's and the rules'
/// answers are the value; `outcome`, `symbol`, `kind`, `rejected`, `ruleDescription`, `state`
/// and `transition` are computed from it for readers that want them ready (they are ignored
/// when decoding). Every key is always present, `null` where it does not apply.
extension DrawingOutcome: Codable {
    enum CodingKeys: String, CodingKey {
        case became, label, confidence, probabilities, classifierRejected, shape, rule
        case outcome, symbol, kind, rejected, ruleDescription, state, transition
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        became = try container.decode(Became.self, forKey: .became)
        classification = Classification(
            label: try container.decode(String.self, forKey: .label),
            confidence: try container.decode(Float.self, forKey: .confidence),
            probabilities: try container.decode([String: Float].self, forKey: .probabilities),
            isRejected: try container.decode(Bool.self, forKey: .classifierRejected))
        let shape = try container.decodeIfPresent(StrokeShape.self, forKey: .shape)
        let rule = try container.decodeIfPresent(ContextRule.self, forKey: .rule)
        reading = shape.map { StrokeReading(shape: $0, rule: rule) }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(became, forKey: .became)
        try container.encode(classification.label, forKey: .label)
        try container.encode(classification.confidence, forKey: .confidence)
        try container.encode(classification.probabilities, forKey: .probabilities)
        try container.encode(classification.isRejected, forKey: .classifierRejected)
        try container.encode(reading?.shape, forKey: .shape)
        try container.encode(reading?.rule, forKey: .rule)
        try container.encode(description, forKey: .outcome)
        try container.encode(kind, forKey: .symbol)
        try container.encode(kind == .text ? "text" : "shape", forKey: .kind)
        try container.encode(isRejected, forKey: .rejected)
        try container.encode(reading?.rule?.description, forKey: .ruleDescription)
        try container.encode(stateTouched, forKey: .state)
        try container.encode(transitionTakingSymbols, forKey: .transition)
    }

    /// The state the drawing created or made final.
    var stateTouched: Int? {
        if case let .finalCircle(id, _) = became { return id }
        return became.createdState
    }

    /// The transition the drawing created that takes symbols (every one but the initial
    /// arrow), so an editor can ask for them at once.
    var transitionTakingSymbols: Int? {
        if case .initialArrow = became { return nil }
        return became.createdTransition
    }
}

// MARK: - Made from the sketch

extension Sketch {
    /// What the transition with this id is in this sketch, by its ends: between states, a
    /// self-loop, the initial arrow, or open (nil when there is no such transition).
    func outcome(ofTransition id: Int) -> DrawingOutcome.Became? {
        guard let transition = transition(id) else { return nil }
        let from = name(of: transition.from), to = name(of: transition.to)
        if transition.kind == .selfLoop, let state = to ?? from {
            return .selfLoop(id: id, state: state, symbols: transition.symbols, epsilon: transition.isEpsilon)
        }
        switch (from, to) {
        case let (from?, to?): return .transition(id: id, from: from, to: to, symbols: transition.symbols, epsilon: transition.isEpsilon)
        case let (nil, to?): return .initialArrow(id: id, to: to)
        case let (from, nil): return .openArrow(id: id, from: from, symbols: transition.symbols, epsilon: transition.isEpsilon)
        }
    }

    /// What a handwritten label's owner is in this sketch.
    func target(of owner: LabelOwner) -> DrawingOutcome.LabelTarget {
        switch owner {
        case let .transition(id):
            guard let transition = transition(id) else { return .transition(id: id, from: nil, to: nil) }
            if transition.kind == .selfLoop, let state = name(of: transition.to) ?? name(of: transition.from) {
                return .selfLoop(id: id, state: state)
            }
            return .transition(id: id, from: name(of: transition.from), to: name(of: transition.to))
        case let .state(id):
            return .state(id: id, name: state(id)?.name ?? "?")
        case .nothing:
            return .nothing
        }
    }
}

extension DrawingOutcome.Became {
    /// The outcome as the finished sketch has it: a transition's ends and symbols as they are
    /// after every state was drawn, every loose end resolved and every label read; a state final
    /// when a circle drawn later made it so. The one place an outcome is described again.
    func finished(on sketch: Sketch) -> Self {
        switch self {
        case let .state(id, name, _, connected):
            return .state(id: id, name: name, final: sketch.state(id)?.isFinal == true, connected: connected)
        case let .transition(id, _, _, _, _), let .selfLoop(id, _, _, _), let .initialArrow(id, _), let .openArrow(id, _, _, _):
            return sketch.outcome(ofTransition: id) ?? self
        default:
            return self
        }
    }
}
