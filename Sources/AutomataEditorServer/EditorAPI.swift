import AutomataSketch
import Foundation

// The JSON bodies of the editor's API (`/api/...`; docs/editor.md lists the routes). Requests are
// decoded strictly and checked against `EditorLimits`; every answer that changes the sketch
// carries the whole automaton as the page draws it (`AutomatonView`).

/// What one drawing (or eraser) request carries: one or more strokes, each a list of points
/// `[x, y]` in the page's canvas coordinates (y down); a third value per point (pressure or
/// time) is allowed and ignored by recognition.
struct StrokesRequest: Decodable {
    var strokes: [[[Double]]]
}

struct FinalRequest: Decodable {
    var final: Bool
}

struct NameRequest: Decodable {
    var name: String
}

struct SymbolsRequest: Decodable {
    var symbols: [String]
    var epsilon: Bool?
}

struct WordRequest: Decodable {
    var word: String
}

/// The answer to every request that may change the sketch.
struct EditResponse: Encodable {
    var session: String
    /// How many edits the session holds; send it back as `If-Match` to refuse unmergeable edits.
    var version: Int
    /// What the request did, for the page's status line (a drawing's verdict, an erase, an undo).
    var message: String
    /// What a drawing became (docs/reading-json.md).
    var verdict: DrawingOutcome?
    var automaton: AutomatonView
    /// The strokes of an opened ink file (InkML), `[[x, y], ...]` each, for the page to show.
    var ink: [[[Double]]]? = nil
}

/// A word run on the automaton, with the active states after each symbol.
struct SimulationResponse: Encodable {
    struct Step: Encodable {
        var symbol: String?
        var states: [String]
        /// True when this symbol left the set of active states as it was (the page says so).
        var unchanged: Bool
    }

    var word: String
    var symbols: [String]
    var accepted: Bool
    var reason: String?
    var steps: [Step]

    init(_ result: SimulationResult) {
        word = result.input
        symbols = result.symbols
        accepted = result.isAccepted
        reason = result.reason?.description
        var previous: [String]? = nil
        steps = result.trace.map { step in
            defer { previous = step.states }
            return Step(symbol: step.symbol, states: step.states, unchanged: previous == step.states)
        }
    }
}

/// The shared JSON encoder settings: sorted keys so answers are stable and diffable.
enum EditorJSON {
    static func encode(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }
}
