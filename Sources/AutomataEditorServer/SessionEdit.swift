import AutomataSketch
import Foundation
import StrokeImage

/// One edit of a session as the page sent it: what the session store keeps. A session is its
/// edits in order; replaying them on an empty editor with the same model rebuilds it exactly
/// (the automaton, the ink, the undo and redo history), whatever the reader does inside.
enum SessionEdit: Codable, Sendable, Equatable {
    /// A drawing (one or more strokes read as one symbol); points `[x, y]` as received.
    case draw(strokes: [[[Double]]])
    /// Eraser strokes, each applied in turn.
    case erase(strokes: [[[Double]]])
    case undo
    case redo
    case clear
    case setFinal(state: Int, final: Bool)
    case rename(state: Int, name: String)
    case setSymbols(transition: Int, symbols: [String], epsilon: Bool)
    /// An uploaded `.automaton` document, as its bytes (UTF-8 JSON).
    case loadDocument(String)
    /// An opened file (`.automaton`, JFLAP or InkML ink), as its bytes in base64.
    case openFile(base64: String)

    /// True for edits that re-read new ink against whatever the session holds: they merge with
    /// edits made meanwhile elsewhere. The others (undo, redo, clear, a loaded document, edits
    /// naming a state or transition) only mean what the sender meant on the version it saw.
    var mergesWithConcurrentEdits: Bool {
        switch self {
        case .draw, .erase: return true
        default: return false
        }
    }

    /// True when the edit counts as one drawing received (the page's stroke counter): a drawing,
    /// or opened ink (counted once, as when it was opened).
    var countsStroke: Bool {
        switch self {
        case .draw: return true
        case let .openFile(base64):
            guard let data = Data(base64Encoded: base64), case .ink = try? OpenedFile.read(data, source: "a stored file")
            else { return false }
            return true
        default: return false
        }
    }

    /// What the edit did, in words, and the verdict of a drawing. Throws the editor's errors
    /// (an unknown state, a bad name) and the classifier's; a failed edit changes nothing.
    func apply(to adapter: inout EditorAdapter) throws -> (message: String, verdict: DrawingOutcome?) {
        switch self {
        case let .draw(strokes):
            let verdict = try adapter.draw(strokes.map(Self.stroke))
            return (verdict.description, verdict)
        case let .erase(strokes):
            return (strokes.map { adapter.erase(Self.stroke($0)) }.joined(separator: "; "), nil)
        case .undo:
            return (adapter.undo() ? "undone" : "nothing to undo", nil)
        case .redo:
            return (adapter.redo() ? "redone" : "nothing to redo", nil)
        case .clear:
            adapter.clear()
            return ("cleared (undo brings it back)", nil)
        case let .setFinal(state, final):
            return (try adapter.setFinal(final, state: state), nil)
        case let .rename(state, name):
            try adapter.rename(state: state, to: name)
            return ("renamed to \(name)", nil)
        case let .setSymbols(transition, symbols, epsilon):
            try adapter.setSymbols(symbols, isEpsilon: epsilon, transition: transition)
            return ("symbols set", nil)
        case let .loadDocument(text):
            let sketch = try AutomatonDocument.decode(Data(text.utf8), source: "the uploaded document")
            adapter.load(sketch)
            return ("document loaded", nil)
        case let .openFile(base64):
            switch try OpenedFile.read(Data(base64Encoded: base64) ?? Data(), source: "the opened file") {
            case let .sketch(sketch):
                adapter.load(sketch)
                return ("automaton opened", nil)
            case let .ink(strokes):
                adapter.load(Sketch())
                for stroke in strokes { _ = try adapter.draw([stroke]) }
                return ("ink opened: \(strokes.count) strokes read", nil)
            }
        }
    }

    /// Points checked by the server before an edit is made (finite, at least one per stroke).
    static func stroke(_ points: [[Double]]) -> Stroke {
        Stroke(points: points.map { StrokePoint(x: $0[0], y: $0[1]) })
    }

    // MARK: - Stored form

    func encoded() throws -> String {
        String(decoding: try JSONEncoder().encode(self), as: UTF8.self)
    }

    static func decode(_ text: String, session: String, version: Int) throws -> SessionEdit {
        do {
            return try JSONDecoder().decode(SessionEdit.self, from: Data(text.utf8))
        } catch {
            throw SessionStoreError.corrupt(
                "session \(session), edit \(version): the stored edit is not readable (\(error))")
        }
    }
}
