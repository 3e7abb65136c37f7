import StrokeKit

/// What one line of a sketch file became.
public struct RecognizedStroke: Hashable, Sendable {
    /// 0-based position in drawing order.
    public var index: Int
    public var lineNumber: Int
    public var classification: Classification
    /// What the rules read the drawing as (nil when rejected); see `ContextRule`.
    public var reading: StrokeReading?
    public var outcome: StrokeOutcome
    /// Labels on the line that did not apply (e.g. symbols on a stroke that became a state).
    public var notes: [String]
}

/// A whole sketch file read into an editor.
public struct Recognition: Sendable {
    public var strokes: [RecognizedStroke]
    /// The editor after the last stroke (undo steps back stroke by stroke).
    public var editor: SketchEditor
    public var sketch: Sketch { editor.sketch }
}

/// Why a sketch could not be recognised (the classifier itself failed on a line).
public struct RecognitionError: Error, CustomStringConvertible {
    public var source: String
    public var line: Int
    public var underlying: String

    public var description: String {
        "\(source):\(line): the classifier failed on this drawing: \(underlying)"
    }
}

/// Replays a sketch file stroke by stroke, as a student drew it.
public enum SketchRecognizer {
    /// Classifies each line's drawing and applies it to a fresh sketch, in order.
    public static func recognize(
        _ lines: [SketchLine], classifier: any StrokeClassifying, source: String = "sketch"
    ) throws -> Recognition {
        var editor = SketchEditor(classifier: classifier)
        var recognized: [RecognizedStroke] = []
        for (index, line) in lines.enumerated() {
            let result: ClassifiedOutcome
            do {
                result = try editor.add(line.strokes, name: line.name, symbols: line.symbols, isEpsilon: line.isEpsilon)
            } catch {
                throw RecognitionError(source: source, line: line.lineNumber, underlying: "\(error)")
            }
            recognized.append(RecognizedStroke(
                index: index, lineNumber: line.lineNumber, classification: result.classification,
                reading: result.reading, outcome: result.outcome, notes: notes(for: line, outcome: result.outcome)))
        }
        return Recognition(strokes: recognized, editor: editor)
    }

    private static func notes(for line: SketchLine, outcome: StrokeOutcome) -> [String] {
        var notes: [String] = []
        let labelsTransition: Bool
        let createsState: Bool
        switch outcome {
        case .transitionAdded, .selfLoopAdded: (labelsTransition, createsState) = (true, false)
        case .stateAdded: (labelsTransition, createsState) = (false, true)
        case .madeFinal, .rejected: (labelsTransition, createsState) = (false, false)
        }
        if !labelsTransition && (!line.symbols.isEmpty || line.isEpsilon) {
            notes.append("symbols on line \(line.lineNumber) ignored: the stroke did not create a transition")
        }
        if !createsState, let name = line.name {
            notes.append("name \"\(name)\" on line \(line.lineNumber) ignored: the stroke did not create a state")
        }
        return notes
    }
}
