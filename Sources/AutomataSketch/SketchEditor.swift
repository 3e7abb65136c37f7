import StrokeImage
import StrokeKit

/// Why an edit could not be made. Messages say what to do instead.
public enum SketchEditError: Error, Hashable, Sendable, CustomStringConvertible {
    case noClassifier
    case unknownState(Int)
    case unknownTransition(Int)
    case invalidName(String)
    case invalidSymbols(String)
    case notATransitionWithSymbols(String)

    public var description: String {
        switch self {
        case .noClassifier:
            return "no stroke classifier is set; give the editor a classifier, or add strokes with add(_:as:)"
        case let .unknownState(id):
            return "there is no state with id \(id) in the sketch (it may have been erased)"
        case let .unknownTransition(id):
            return "there is no transition with id \(id) in the sketch (it may have been erased)"
        case let .invalidName(problem), let .invalidSymbols(problem):
            return problem
        case let .notATransitionWithSymbols(what):
            return "\(what) marks the initial state and takes no symbols; label the transitions between states instead"
        }
    }
}

/// The editor's headless core: the sketch's ink, the automaton read from it, the classifier
/// that reads strokes, editing, and undo/redo of every change.
///
/// The editor keeps every stroke and re-reads the whole ink when it changes (`SketchReader`),
/// so a head drawn before its shaft, an arrow drawn before its target state or a second
/// circle drawn much later all end up where they belong. Edits (renames, symbols, erasing)
/// are written into the ink, so re-reading keeps them. A drawing that is rejected changes
/// nothing and is not recorded in the history, but its ink stays pending: a later stroke can
/// complete it (a head whose shaft comes next). Failed edits change nothing.
public struct SketchEditor: Sendable {
    /// The automaton as read from the ink, on top of the sketch the editor was opened with.
    public private(set) var sketch: Sketch
    public var classifier: (any StrokeClassifying)?
    /// The reading behind `sketch`: every symbol and its strokes.
    public private(set) var reading: SketchReading
    private var content: Content
    var cache = ClassificationCache()
    private var undoStack: [Content] = []
    private var redoStack: [Content] = []

    /// What the history records: the opened sketch, the ink on it, and the reading.
    private struct Content: Sendable {
        var base: Sketch
        var ink: [InkStroke]
        var nextDrawing: Int
        var sketch: Sketch
        var reading: SketchReading
    }

    /// An editor on `sketch` (for example a loaded document; its states and transitions stay
    /// as they are and new ink is read around them).
    public init(sketch: Sketch = Sketch(), classifier: (any StrokeClassifying)? = nil) {
        self.sketch = sketch
        self.classifier = classifier
        let firstDrawing = max(sketch.nextStateID, sketch.nextTransitionID)
        reading = SketchReading(sketch: sketch, symbols: [], symbolOfStroke: [])
        content = Content(base: sketch, ink: [], nextDrawing: firstDrawing, sketch: sketch, reading: reading)
    }

    public var canUndo: Bool { !undoStack.isEmpty }
    public var canRedo: Bool { !redoStack.isEmpty }
    /// Every stroke drawn, in order.
    public var ink: [InkStroke] { content.ink }

    // MARK: - Drawing

    /// Adds a drawing (usually one stroke) and re-reads the sketch: the drawing is grouped with
    /// the strokes it belongs to (see `SymbolGrouping`), classified, and read in the context of
    /// the whole sketch (see `ContextRule`: the sketch around a drawing can overrule the
    /// classifier's first choice or its rejection). `name` names the state a circle creates;
    /// `symbols` and `isEpsilon` label the transition or self-loop an arrow or loop creates.
    /// Returns what the symbol the drawing joined became. Throws when no classifier is set or
    /// the classifier fails.
    public mutating func add(
        _ strokes: [Stroke], name: String? = nil, symbols: [String] = [], isEpsilon: Bool = false
    ) throws -> DrawingOutcome {
        guard classifier != nil else { throw SketchEditError.noClassifier }
        return try addInk(strokes, name: name, symbols: symbols, isEpsilon: isEpsilon, shape: nil)
    }

    /// Classifies one stroke and applies the rule for its shape.
    public mutating func add(
        _ stroke: Stroke, name: String? = nil, symbols: [String] = [], isEpsilon: Bool = false
    ) throws -> DrawingOutcome {
        try add([stroke], name: name, symbols: symbols, isEpsilon: isEpsilon)
    }

    /// Applies the rule for `shape` to a drawing a front end has already classified.
    public mutating func add(
        _ strokes: [Stroke], as shape: StrokeShape,
        name: String? = nil, symbols: [String] = [], isEpsilon: Bool = false
    ) -> DrawingOutcome {
        // A drawing with its shape given needs no classifier, so reading cannot throw.
        (try? addInk(strokes, name: name, symbols: symbols, isEpsilon: isEpsilon, shape: shape)) ?? .unclassified(.unreadable)
    }

    /// Applies the rule for `shape` to one pre-classified stroke.
    public mutating func add(
        _ stroke: Stroke, as shape: StrokeShape,
        name: String? = nil, symbols: [String] = [], isEpsilon: Bool = false
    ) -> DrawingOutcome {
        add([stroke], as: shape, name: name, symbols: symbols, isEpsilon: isEpsilon)
    }

    /// Adds a drawing and re-reads the sketch (`add` for files: `SketchRecognizer`).
    @discardableResult
    mutating func addInk(
        _ strokes: [Stroke], name: String?, symbols: [String], isEpsilon: Bool, shape: StrokeShape? = nil
    ) throws -> DrawingOutcome {
        var changed = content
        let first = changed.ink.count
        for (index, stroke) in strokes.enumerated() {
            // Labels ride on the drawing's first stroke.
            changed.ink.append(InkStroke(
                stroke: stroke, drawing: changed.nextDrawing,
                symbols: index == 0 ? symbols : [], isEpsilon: index == 0 && isEpsilon,
                name: index == 0 ? name : nil, shape: shape))
        }
        changed.nextDrawing += 1
        try reread(&changed)
        guard first < changed.ink.count else { return .unclassified(.noStrokes) }
        var outcome = changed.reading.symbols[changed.reading.symbolOfStroke[first]].outcome
        if case let .state(id, name, true, _) = outcome.became, sketch.state(id)?.isFinal == false {
            // A second circle round a state drawn earlier.
            outcome.became = .finalCircle(state: id, name: name)
        } else if case let .state(id, name, final, _) = outcome.became {
            // Arrows drawn before this state that now end at it.
            let connected = changed.sketch.transitions.filter { $0.id < id && ($0.from == id || $0.to == id) }
            outcome.became = .state(id: id, name: name, final: final, connected: connected.map(changed.sketch.describe))
        }
        if outcome.kind == .text {
            // Handwriting is an edit like any other stroke: an undo step, even when what it
            // reads changes nothing yet (a label's first character, a stray word).
            commit(changed, always: true)
        } else if outcome.isRejected {
            // Pending ink: kept for later strokes, not an undo step. The sketch follows the new
            // reading all the same: the ink may have changed how earlier symbols read (a head
            // drawn apart joins a shaft, which may leave another arrow's reading).
            content.ink = changed.ink
            content.nextDrawing = changed.nextDrawing
            content.reading = changed.reading
            content.sketch = changed.sketch
            reading = changed.reading
            sketch = changed.sketch
        } else {
            commit(changed)
        }
        return outcome
    }

    /// Erases what an eraser stroke crosses (see `EraseOutcome`): the ink of removed states
    /// and transitions with their handwritten labels, the outer circle of a final state, and
    /// the handwritten labels it crosses.
    @discardableResult
    public mutating func erase(_ stroke: Stroke) -> EraseOutcome {
        var erased = sketch
        var outcome = erased.erase([stroke.sketchPoints])
        let erasedLabels = labelsErased(by: stroke.sketchPoints, leaving: erased)
        outcome.removedLabels = erasedLabels.map { "\"\(reading.labels[$0].text)\"" }
        guard !outcome.isEmpty else { return outcome }
        var changed = content
        let keptStates = Set(erased.states.map(\.id)), keptTransitions = Set(erased.transitions.map(\.id))
        let nonFinal = Set(erased.states.filter { !$0.isFinal }.map(\.id))
        var removedStrokes = Set(erasedLabels.flatMap { reading.labels[$0].strokes })
        for symbol in changed.reading.symbols {
            let became = symbol.outcome.became
            if let id = became.createdState, !keptStates.contains(id) {
                removedStrokes.formUnion(symbol.group.strokes)
            } else if let id = became.createdTransition, !keptTransitions.contains(id) {
                removedStrokes.formUnion(symbol.group.strokes)
            } else if let id = became.createdState, nonFinal.contains(id) && sketch.state(id)?.isFinal == true {
                removedStrokes.formUnion(Self.innerCircleOnly(symbol, ink: &changed.ink))
            } else if case let .finalCircle(id, _) = became, !keptStates.contains(id) || nonFinal.contains(id) {
                removedStrokes.formUnion(symbol.group.strokes)
            }
        }
        changed.ink = changed.ink.indices.filter { !removedStrokes.contains($0) }.map { changed.ink[$0] }
        // What the opened sketch held is erased there.
        changed.base.states = changed.base.states.compactMap { state in
            guard keptStates.contains(state.id) else { return nil }
            var state = state
            if nonFinal.contains(state.id) { state.isFinal = false; state.finalCircle = nil }
            return state
        }
        changed.base.transitions.removeAll { !keptTransitions.contains($0.id) }
        try? reread(&changed)  // the ink was read before; only classified groups remain
        commit(changed, always: true)
        return outcome
    }

    /// The handwritten labels (indices into `reading.labels`) an eraser stroke takes: those
    /// whose strokes it crosses (but not the name of a state it only made non-final), and
    /// those of the states and transitions it removes (`erased` is the sketch after erasing).
    private func labelsErased(by eraser: [SketchPoint], leaving erased: Sketch) -> [Int] {
        guard !eraser.isEmpty else { return [] }
        let tolerance = max(2, Sketch.eraserTransitionTolerance * (sketch.typicalRadius ?? 0))
        let madeNonFinal = Set(sketch.states.filter { $0.isFinal && erased.state($0.id)?.isFinal == false }.map(\.id))
        return reading.labels.indices.filter { index in
            let label = reading.labels[index]
            switch label.owner {
            case let .state(id) where erased.state(id) == nil: return true
            case let .transition(id) where erased.transition(id) == nil: return true
            case let .state(id) where madeNonFinal.contains(id): return false
            default:
                return label.strokes.contains { stroke in
                    content.ink.indices.contains(stroke)
                        && Geometry.distance(betweenPolylines: eraser, content.ink[stroke].stroke.sketchPoints.nonEmptyOrOrigin) <= tolerance
                }
            }
        }
    }

    /// Makes a final state's symbol ordinary: drops its outer circle (the larger of its
    /// strokes, or the outer turn of a double circle drawn in one stroke). Returns the strokes to remove.
    private static func innerCircleOnly(_ symbol: ReadSymbol, ink: inout [InkStroke]) -> [Int] {
        let strokes = symbol.group.strokes
        let radii = strokes.map { DrawingMeasures(ink[$0].stroke.sketchPoints.nonEmptyOrOrigin).meanRadius }
        if strokes.count > 1 { return [strokes[radii.indices.max { radii[$0] < radii[$1] }!]] }
        let points = ink[strokes[0]].stroke.points
        let center = Geometry.centroid(ink[strokes[0]].stroke.sketchPoints.nonEmptyOrOrigin)
        let distances = points.map { Geometry.distance(SketchPoint($0.x, $0.y), center) }.sorted()
        let middle = distances[distances.count / 2]
        ink[strokes[0]].stroke.points = points.filter { Geometry.distance(SketchPoint($0.x, $0.y), center) <= middle }
        return []
    }

    /// Reads the ink again (`SketchReader`), on top of the opened sketch.
    private mutating func reread(_ changed: inout Content) throws {
        changed.reading = try SketchReader.read(changed.ink, on: changed.base, classifier: classifier, cache: &cache)
        changed.sketch = changed.reading.sketch
    }

    // MARK: - Editing

    /// Sets the symbols (several allowed, repeats dropped) and the ε flag of a transition or self-loop.
    public mutating func setSymbols(_ symbols: [String], isEpsilon: Bool, forTransition id: Int) throws {
        guard let transition = sketch.transition(id) else { throw SketchEditError.unknownTransition(id) }
        if transition.isInitialMarker, !symbols.isEmpty || isEpsilon {
            throw SketchEditError.notATransitionWithSymbols("the arrow into \(sketch.name(of: transition.to) ?? "?")")
        }
        if let problem = SketchNames.problem(withSymbols: symbols) { throw SketchEditError.invalidSymbols(problem) }
        var changed = content
        if let strokes = inkOf(transition: id) {
            for (position, stroke) in strokes.enumerated() {
                changed.ink[stroke].symbols = position == 0 ? SketchNames.normalized(symbols) : []
                changed.ink[stroke].isEpsilon = position == 0 && isEpsilon
            }
        } else if let index = changed.base.transitions.firstIndex(where: { $0.id == id }) {
            changed.base.transitions[index].symbols = SketchNames.normalized(symbols)
            changed.base.transitions[index].isEpsilon = isEpsilon
        }
        try reread(&changed)
        commit(changed)
    }

    /// Renames a state; the name must be non-empty and not used by another state.
    public mutating func rename(state id: Int, to name: String) throws {
        guard sketch.state(id) != nil else { throw SketchEditError.unknownState(id) }
        if let problem = SketchNames.problem(withStateName: name, in: sketch, excluding: id) {
            throw SketchEditError.invalidName(problem)
        }
        var changed = content
        if let strokes = inkOf(state: id) {
            for (position, stroke) in strokes.enumerated() { changed.ink[stroke].name = position == 0 ? name : nil }
        } else if let index = changed.base.states.firstIndex(where: { $0.id == id }) {
            changed.base.states[index].name = name
        }
        try reread(&changed)
        commit(changed)
    }

    /// Removes everything (undoable).
    public mutating func clear() {
        guard sketch.states.count + sketch.transitions.count > 0 else { return }
        var changed = content
        changed.base = Sketch()
        changed.ink = []
        try? reread(&changed)  // no ink: nothing to classify
        commit(changed)
    }

    /// The ink strokes of the symbol that created a state (nil for a state of the opened sketch).
    private func inkOf(state id: Int) -> [Int]? {
        reading.symbols.first { $0.outcome.became.createdState == id }?.group.strokes
    }

    /// The ink strokes of the symbol that created a transition (nil for one of the opened sketch).
    private func inkOf(transition id: Int) -> [Int]? {
        reading.symbols.first { $0.outcome.became.createdTransition == id }?.group.strokes
    }

    // MARK: - History

    /// Undoes the last change; false when there is nothing to undo.
    @discardableResult
    public mutating func undo() -> Bool {
        guard let previous = undoStack.popLast() else { return false }
        redoStack.append(content)
        restore(previous)
        return true
    }

    /// Redoes the last undone change; false when there is nothing to redo.
    @discardableResult
    public mutating func redo() -> Bool {
        guard let next = redoStack.popLast() else { return false }
        undoStack.append(content)
        restore(next)
        return true
    }

    private mutating func restore(_ saved: Content) {
        content = saved
        sketch = saved.sketch
        reading = saved.reading
    }

    /// Makes `changed` the content, as an undo step when the automaton changed (or `always`).
    private mutating func commit(_ changed: Content, always: Bool = false) {
        guard always || changed.sketch != sketch else {
            // The automaton is the same (e.g. a head joined a shaft): keep the ink, no undo step.
            content.ink = changed.ink
            content.nextDrawing = changed.nextDrawing
            content.reading = changed.reading
            reading = changed.reading
            return
        }
        undoStack.append(content)
        redoStack.removeAll()
        restore(changed)
    }
}
