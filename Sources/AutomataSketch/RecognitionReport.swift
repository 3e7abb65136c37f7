import Foundation

/// What `strokekit recognize` and `strokekit simulate` print: as JSON (`--json`) or as text.
public struct RecognitionReport: Codable, Hashable, Sendable {
    /// A handwritten label (see `HandwrittenLabel`).
    public struct LabelEntry: Codable, Hashable, Sendable {
        public struct Alternative: Codable, Hashable, Sendable {
            public var text: String
            public var confidence: Float
        }
        /// Its strokes (0-based positions in the ink, as `index` numbers one-stroke lines) and lines.
        public var strokes: [Int]
        public var lines: [Int]
        public var text: String
        /// The symbols it gives its transition (empty for a state's name or stray text).
        public var symbols: [String]
        public var confidence: Float
        public var alternatives: [Alternative]
        /// `transition`, `state` or `nothing`, with a description ("transition q0 → q1",
        /// "state q2") and the strokes of that transition or state.
        public var belongsTo: String
        public var of: String
        public var ownerStrokes: [Int]
        /// Where it lies: [minX, minY, maxX, maxY] in sketch coordinates.
        public var box: [Double]
    }

    public struct StateEntry: Codable, Hashable, Sendable {
        public var name: String
        public var initial: Bool
        public var final: Bool
        /// Where the state's circle is: centre [x, y] and radius in sketch coordinates.
        public var center: [Double]
        public var radius: Double
    }

    public struct TransitionEntry: Codable, Hashable, Sendable {
        public var from: String?
        public var to: String?
        public var symbols: [String]
        public var epsilon: Bool

        public func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(from, forKey: .from)  // null for a free end
            try container.encode(to, forKey: .to)
            try container.encode(symbols, forKey: .symbols)
            try container.encode(epsilon, forKey: .epsilon)
        }
    }

    public struct SimulationEntry: Codable, Hashable, Sendable {
        public var input: String
        public var accepted: Bool
        public var reason: String?
        public var trace: [TraceStep]

        public func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(input, forKey: .input)
            try container.encode(accepted, forKey: .accepted)
            try container.encode(reason, forKey: .reason)  // null when accepted
            try container.encode(trace, forKey: .trace)
        }
    }

    /// What each line of the sketch became (`RecognizedStroke`, with its `DrawingOutcome`).
    public var strokes: [RecognizedStroke]
    /// The handwritten labels read from the ink.
    public var labels: [LabelEntry]
    public var states: [StateEntry]
    public var transitions: [TransitionEntry]
    public var simulations: [SimulationEntry]
    /// Decisions on earlier lines that later lines changed, for an editor to redraw.
    public var revisions: [ReadingRevision]
    /// Problems in the sketch and labels that did not apply.
    public var warnings: [String]
    /// The transition table as text.
    public var table: String

    /// A report on a sketch, the strokes that drew it (empty for a loaded document), and `words` run on it.
    public init(
        sketch: Sketch, strokes: [RecognizedStroke] = [], revisions: [ReadingRevision] = [], labels: [RecognizedLabel] = [],
        words: [String]
    ) {
        let automaton = sketch.automaton()
        self.strokes = strokes
        self.labels = labels.map { recognized in
            let label = recognized.label
            return LabelEntry(
                strokes: label.strokes, lines: recognized.lineNumbers, text: label.text, symbols: label.symbols,
                confidence: label.confidence,
                alternatives: label.alternatives.map { LabelEntry.Alternative(text: $0.text, confidence: $0.confidence) },
                belongsTo: label.owner.kind, of: recognized.ownerDescription, ownerStrokes: recognized.ownerStrokes,
                box: [label.box.minX, label.box.minY, label.box.maxX, label.box.maxY])
        }
        self.revisions = revisions
        states = sketch.states.map { StateEntry(
                name: $0.name, initial: sketch.isInitial($0.id), final: $0.isFinal,
                center: [$0.center.x, $0.center.y], radius: $0.radius) }
        transitions = sketch.transitions.filter { !$0.isInitialMarker }.map {
            TransitionEntry(
                from: sketch.name(of: $0.from), to: sketch.name(of: $0.to), symbols: $0.symbols, epsilon: $0.isEpsilon)
        }
        simulations = words.map { word in
            let result = automaton.simulate(word)
            return SimulationEntry(
                input: word, accepted: result.isAccepted, reason: result.reason?.description, trace: result.trace)
        }
        warnings = strokes.flatMap(\.notes) + sketch.warnings
        table = automaton.transitionTable().description
    }

    /// The report as one JSON object (keys sorted; every key always present, `null` for a
    /// free transition end, the reason of an accepted word, the shape of a rejected stroke and
    /// the rule of a stroke read as classified; docs/reading-json.md).
    public func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// The report as text for people: strokes, table, words with reasons and traces, warnings.
    public var text: String {
        var lines: [String] = []
        if !strokes.isEmpty {
            lines.append("Strokes:")
            for stroke in strokes {
                let outcome = stroke.outcome
                let percent = Int((outcome.classification.confidence * 100).rounded())
                var seen = "\(outcome.classification.label) \(percent)%\(outcome.classification.isRejected ? " (rejected)" : "")"
                if let reading = outcome.reading, let rule = reading.rule {
                    seen += ", read as \(reading.shape.rawValue): \(rule)"
                }
                let part = stroke.isHead ? "head of symbol \(stroke.symbolIndex)" : "symbol \(stroke.symbolIndex)"
                lines.append("  #\(stroke.index) (line \(stroke.lineNumber), \(part): \(outcome.kind.rawValue)) \(seen): \(outcome)")
            }
            lines.append("")
        }
        if !labels.isEmpty {
            lines.append("Labels:")
            for label in labels {
                let percent = Int((label.confidence * 100).rounded())
                let others = label.alternatives.map { "\"\($0.text)\" \(Int(($0.confidence * 100).rounded()))%" }
                let lineList = label.lines.map(String.init).joined(separator: ", ")
                lines.append("  \"\(label.text)\" \(percent)% (line\(label.lines.count == 1 ? "" : "s") \(lineList)): \(label.of)"
                    + (others.isEmpty ? "" : "; or " + others.joined(separator: ", ")))
            }
            lines.append("")
        }
        if !revisions.isEmpty {
            lines.append("Changed by later strokes:")
            lines.append(contentsOf: revisions.map { "  \($0)" })
            lines.append("")
        }
        lines.append("Transition table (→ initial, ← final):")
        lines.append(table.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n"))
        if !simulations.isEmpty {
            lines.append("")
            lines.append("Words:")
            for simulation in simulations {
                let word = "\"\(simulation.input)\""
                let verdict = simulation.accepted ? "accepted" : "rejected: \(simulation.reason ?? "")"
                lines.append("  \(word) \(verdict)")
                if !simulation.trace.isEmpty {
                    let steps = simulation.trace.map { step in
                        let set = "{\(step.states.joined(separator: ", "))}"
                        return step.symbol.map { "-\($0)-> \(set)" } ?? set
                    }
                    lines.append("    trace: " + steps.joined(separator: " "))
                }
            }
        }
        if !warnings.isEmpty {
            lines.append("")
            lines.append("Warnings:")
            lines.append(contentsOf: warnings.map { "  " + $0 })
        }
        return lines.joined(separator: "\n")
    }
}
