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

/// A stroke's classification and what it did to the sketch.
public struct ClassifiedOutcome: Hashable, Sendable {
    public var classification: Classification
    /// The shape the rules read the drawing as, and the context rule that chose it when it is
    /// not the classifier's accepted label; nil when the drawing was rejected.
    public var reading: StrokeReading?
    public var outcome: StrokeOutcome
}

/// The editor's headless core: a sketch, the classifier that reads strokes, editing, and
/// undo/redo of every change. Rejected strokes and failed edits change nothing and are not
/// recorded in the history.
public struct SketchEditor: Sendable {
    public private(set) var sketch: Sketch
    public var classifier: (any StrokeClassifying)?
    private var undoStack: [Sketch] = []
    private var redoStack: [Sketch] = []

    public init(sketch: Sketch = Sketch(), classifier: (any StrokeClassifying)? = nil) {
        self.sketch = sketch
        self.classifier = classifier
    }

    public var canUndo: Bool { !undoStack.isEmpty }
    public var canRedo: Bool { !redoStack.isEmpty }

    // MARK: - Drawing

    /// Classifies a drawing (usually one stroke), reads it in the context of the sketch (see
    /// `ContextRule`: the sketch around a drawing can overrule the classifier's first choice
    /// or its rejection) and applies the rule for that shape. `name` names the state a circle
    /// creates; `symbols` and `isEpsilon` label the transition or self-loop an arrow or loop
    /// creates. Throws when no classifier is set or the classifier fails.
    public mutating func add(
        _ strokes: [Stroke], name: String? = nil, symbols: [String] = [], isEpsilon: Bool = false
    ) throws -> ClassifiedOutcome {
        guard let classifier else { throw SketchEditError.noClassifier }
        let classification = try classifier.classify(strokes)
        var changed = sketch
        let (outcome, reading) = changed.apply(
            strokes.map(\.sketchPoints), classification: classification,
            name: name, symbols: symbols, isEpsilon: isEpsilon)
        if !outcome.isRejected { commit(changed) }
        return ClassifiedOutcome(classification: classification, reading: reading, outcome: outcome)
    }

    /// Classifies one stroke and applies the rule for its shape.
    public mutating func add(
        _ stroke: Stroke, name: String? = nil, symbols: [String] = [], isEpsilon: Bool = false
    ) throws -> ClassifiedOutcome {
        try add([stroke], name: name, symbols: symbols, isEpsilon: isEpsilon)
    }

    /// Applies the rule for `shape` to a drawing a front end has already classified.
    public mutating func add(
        _ strokes: [Stroke], as shape: StrokeShape,
        name: String? = nil, symbols: [String] = [], isEpsilon: Bool = false
    ) -> StrokeOutcome {
        var changed = sketch
        let outcome = changed.apply(
            strokes.map(\.sketchPoints), as: shape, name: name, symbols: symbols, isEpsilon: isEpsilon)
        if !outcome.isRejected { commit(changed) }
        return outcome
    }

    /// Applies the rule for `shape` to one pre-classified stroke.
    public mutating func add(
        _ stroke: Stroke, as shape: StrokeShape,
        name: String? = nil, symbols: [String] = [], isEpsilon: Bool = false
    ) -> StrokeOutcome {
        add([stroke], as: shape, name: name, symbols: symbols, isEpsilon: isEpsilon)
    }

    /// Erases what an eraser stroke crosses (see `EraseOutcome`).
    @discardableResult
    public mutating func erase(_ stroke: Stroke) -> EraseOutcome {
        var changed = sketch
        let outcome = changed.erase([stroke.sketchPoints])
        if !outcome.isEmpty { commit(changed) }
        return outcome
    }

    // MARK: - Editing

    /// Sets the symbols (several allowed, repeats dropped) and the ε flag of a transition or self-loop.
    public mutating func setSymbols(_ symbols: [String], isEpsilon: Bool, forTransition id: Int) throws {
        guard let index = sketch.transitions.firstIndex(where: { $0.id == id }) else {
            throw SketchEditError.unknownTransition(id)
        }
        if sketch.transitions[index].isInitialMarker, !symbols.isEmpty || isEpsilon {
            throw SketchEditError.notATransitionWithSymbols("the arrow into \(sketch.name(of: sketch.transitions[index].to) ?? "?")")
        }
        if let problem = SketchNames.problem(withSymbols: symbols) { throw SketchEditError.invalidSymbols(problem) }
        var changed = sketch
        changed.transitions[index].symbols = SketchNames.normalized(symbols)
        changed.transitions[index].isEpsilon = isEpsilon
        commit(changed)
    }

    /// Renames a state; the name must be non-empty and not used by another state.
    public mutating func rename(state id: Int, to name: String) throws {
        guard let index = sketch.states.firstIndex(where: { $0.id == id }) else {
            throw SketchEditError.unknownState(id)
        }
        if let problem = SketchNames.problem(withStateName: name, in: sketch, excluding: id) {
            throw SketchEditError.invalidName(problem)
        }
        var changed = sketch
        changed.states[index].name = name
        commit(changed)
    }

    /// Removes everything (undoable).
    public mutating func clear() {
        guard sketch.states.count + sketch.transitions.count > 0 else { return }
        var changed = sketch
        changed.states = []
        changed.transitions = []
        commit(changed)
    }

    // MARK: - History

    /// Undoes the last change; false when there is nothing to undo.
    @discardableResult
    public mutating func undo() -> Bool {
        guard let previous = undoStack.popLast() else { return false }
        redoStack.append(sketch)
        sketch = previous
        return true
    }

    /// Redoes the last undone change; false when there is nothing to redo.
    @discardableResult
    public mutating func redo() -> Bool {
        guard let next = redoStack.popLast() else { return false }
        undoStack.append(sketch)
        sketch = next
        return true
    }

    private mutating func commit(_ changed: Sketch) {
        guard changed != sketch else { return }
        undoStack.append(sketch)
        redoStack.removeAll()
        sketch = changed
    }
}
