import StrokeKit

/// What one line of a sketch file became in the finished reading. Its JSON is one object:
/// `index`, `line`, `symbolIndex`, `head`, `notes` and the keys of its `DrawingOutcome`.
public struct RecognizedStroke: Hashable, Sendable {
    /// 0-based position in drawing order.
    public var index: Int
    public var lineNumber: Int
    /// What the symbol the line is part of became (the classifier's answer for the whole symbol).
    public var outcome: DrawingOutcome
    /// The line's symbol's number among the reading's symbols (lines with one number are one symbol).
    public var symbolIndex: Int
    /// True when the line is an arrowhead joined to a shaft drawn on another line.
    public var isHead: Bool
    /// Labels on the line that did not apply (e.g. symbols on a stroke that became a state).
    public var notes: [String]
}

extension RecognizedStroke: Codable {
    enum CodingKeys: String, CodingKey {
        case index, line, symbolIndex, head, notes
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        index = try container.decode(Int.self, forKey: .index)
        lineNumber = try container.decode(Int.self, forKey: .line)
        symbolIndex = try container.decode(Int.self, forKey: .symbolIndex)
        isHead = try container.decode(Bool.self, forKey: .head)
        notes = try container.decode([String].self, forKey: .notes)
        outcome = try DrawingOutcome(from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(index, forKey: .index)
        try container.encode(lineNumber, forKey: .line)
        try container.encode(symbolIndex, forKey: .symbolIndex)
        try container.encode(isHead, forKey: .head)
        try container.encode(notes, forKey: .notes)
        try outcome.encode(to: encoder)
    }
}

/// A handwritten label of a sketch file's ink, as reported (see `HandwrittenLabel`).
public struct RecognizedLabel: Hashable, Sendable {
    public var label: HandwrittenLabel
    /// The 1-based file lines of its strokes.
    public var lineNumbers: [Int]
    /// The ink strokes of the state or transition it belongs to (empty for nothing).
    public var ownerStrokes: [Int]
    /// What it belongs to, as a person would say it: "transition q0 → q1", "state q2", "nothing".
    public var ownerDescription: String
}

/// An earlier line whose reading changed when a later line arrived (an arrow drawn before its
/// target state, a head drawn after its shaft, a circle that made a state final, a label
/// giving a transition its symbols): an editor redraws it.
public struct ReadingRevision: Codable, Hashable, Sendable, CustomStringConvertible {
    /// The line whose reading changed, and the line whose arrival changed it.
    public var line: Int
    public var changedBy: Int
    /// What the line's symbol became before and after.
    public var before: DrawingOutcome.Became
    public var after: DrawingOutcome.Became

    public var description: String {
        "line \(line), when line \(changedBy) arrived: was \(before); now \(after)"
    }
}

/// A whole sketch file read into an editor.
public struct Recognition: Sendable {
    public var strokes: [RecognizedStroke]
    /// Earlier decisions that later lines changed, in the order they happened.
    public var revisions: [ReadingRevision]
    /// The handwritten labels read from the ink, in order of their first stroke.
    public var labels: [RecognizedLabel]
    /// The editor holding the sketch's ink (undo steps back drawing by drawing).
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

/// Reads a sketch file as an editor receives it, line by line; the whole sketch is re-read
/// after every line (see `SketchReader`), so the result does not depend on the line order,
/// and every earlier line whose reading a later one changed is reported.
public enum SketchRecognizer {
    public static func recognize(
        _ lines: [SketchLine], classifier: any StrokeClassifying, source: String = "sketch"
    ) throws -> Recognition {
        var editor = SketchEditor(classifier: classifier)
        var revisions: [ReadingRevision] = []
        var previous: [DrawingOutcome.Became] = []
        for line in lines {
            do {
                try editor.addInk(line.strokes, name: line.name, symbols: line.symbols, isEpsilon: line.isEpsilon)
            } catch {
                throw RecognitionError(source: source, line: line.lineNumber, underlying: "\(error)")
            }
            let current = linesBecame(editor.reading, lines: lines)
            for (index, before) in previous.enumerated() where current[index] != before {
                revisions.append(ReadingRevision(
                    line: lines[index].lineNumber, changedBy: line.lineNumber, before: before, after: current[index]))
            }
            previous = current
        }
        let reading = editor.reading
        var recognized: [RecognizedStroke] = []
        var firstStroke = 0
        for (index, line) in lines.enumerated() {
            let symbolIndex = reading.symbolOfStroke[firstStroke]
            let symbol = reading.symbols[symbolIndex]
            recognized.append(RecognizedStroke(
                index: index, lineNumber: line.lineNumber, outcome: symbol.outcome, symbolIndex: symbolIndex,
                isHead: symbol.group.heads.contains(firstStroke) && line.strokes.count == 1,
                notes: notes(for: line, kind: symbol.outcome.kind)))
            firstStroke += line.strokes.count
        }
        let lineOfStroke = lines.flatMap { line in line.strokes.map { _ in line.lineNumber } }
        let labels = reading.labels.map { label in
            RecognizedLabel(
                label: label, lineNumbers: Array(Set(label.strokes.map { lineOfStroke[$0] })).sorted(),
                ownerStrokes: reading.strokes(of: label.owner), ownerDescription: reading.describe(label.owner))
        }
        return Recognition(strokes: recognized, revisions: revisions, labels: labels, editor: editor)
    }

    /// What each line read so far became (its symbol's outcome).
    private static func linesBecame(_ reading: SketchReading, lines: [SketchLine]) -> [DrawingOutcome.Became] {
        var result: [DrawingOutcome.Became] = []
        var firstStroke = 0
        for line in lines where firstStroke < reading.symbolOfStroke.count {
            result.append(reading.symbols[reading.symbolOfStroke[firstStroke]].outcome.became)
            firstStroke += line.strokes.count
        }
        return result
    }

    private static func notes(for line: SketchLine, kind: SymbolKind) -> [String] {
        var notes: [String] = []
        let labelsTransition = [.transition, .selfLoop, .openArrow].contains(kind)
        if !labelsTransition && (!line.symbols.isEmpty || line.isEpsilon) {
            notes.append("symbols on line \(line.lineNumber) ignored: the stroke did not create a transition")
        }
        if ![.state, .finalState].contains(kind), let name = line.name {
            notes.append("name \"\(name)\" on line \(line.lineNumber) ignored: the stroke did not create a state")
        }
        return notes
    }
}
