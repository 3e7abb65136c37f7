import Foundation

/// What `strokekit recognize` and `strokekit simulate` print: as JSON (`--json`) or as text.
public struct RecognitionReport: Codable, Hashable, Sendable {
    public struct StrokeEntry: Codable, Hashable, Sendable {
        public var index: Int
        public var line: Int
        /// The classifier's label (its best shape when it rejected the drawing) and probability.
        public var label: String
        public var confidence: Float
        /// True when the classifier rejected the drawing as no shape.
        public var rejected: Bool
        /// The shape the rules read the drawing as (nil when the drawing was rejected)…
        public var shape: String?
        /// …and why, when that is not the classifier's accepted label (see `ContextRule`).
        public var rule: String?
        public var outcome: String
        /// What the line's symbol is in the finished reading (`SymbolKind`), the symbol's
        /// number (lines with one number are one symbol), and whether the line is its head.
        public var symbol: String
        public var symbolIndex: Int
        public var head: Bool
        /// `text` for a stroke of a handwritten label, `shape` for any other.
        public var kind: String

        public func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(index, forKey: .index)
            try container.encode(line, forKey: .line)
            try container.encode(label, forKey: .label)
            try container.encode(confidence, forKey: .confidence)
            try container.encode(rejected, forKey: .rejected)
            try container.encode(shape, forKey: .shape)  // null when rejected
            try container.encode(rule, forKey: .rule)
            try container.encode(outcome, forKey: .outcome)
            try container.encode(symbol, forKey: .symbol)
            try container.encode(symbolIndex, forKey: .symbolIndex)
            try container.encode(head, forKey: .head)
            try container.encode(kind, forKey: .kind)
        }
    }

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

    /// An earlier line whose reading a later line changed (see `ReadingRevision`).
    public struct RevisionEntry: Codable, Hashable, Sendable {
        public var line: Int
        public var changedBy: Int
        public var before: String
        public var after: String
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

    public var strokes: [StrokeEntry]
    /// The handwritten labels read from the ink.
    public var labels: [LabelEntry]
    public var states: [StateEntry]
    public var transitions: [TransitionEntry]
    public var simulations: [SimulationEntry]
    /// Decisions on earlier lines that later lines changed, for an editor to redraw.
    public var revisions: [RevisionEntry]
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
        self.strokes = strokes.map {
            StrokeEntry(
                index: $0.index, line: $0.lineNumber, label: $0.classification.label,
                confidence: $0.classification.confidence, rejected: $0.classification.isRejected,
                shape: $0.reading?.shape.rawValue, rule: $0.reading?.rule?.rawValue,
                outcome: $0.outcome.description, symbol: $0.symbol.rawValue, symbolIndex: $0.symbolIndex,
                head: $0.isHead, kind: $0.symbol == .text ? "text" : "shape")
        }
        self.labels = labels.map { recognized in
            let label = recognized.label
            return LabelEntry(
                strokes: label.strokes, lines: recognized.lineNumbers, text: label.text, symbols: label.symbols,
                confidence: label.confidence,
                alternatives: label.alternatives.map { LabelEntry.Alternative(text: $0.text, confidence: $0.confidence) },
                belongsTo: label.owner.kind, of: recognized.ownerDescription, ownerStrokes: recognized.ownerStrokes,
                box: [label.box.minX, label.box.minY, label.box.maxX, label.box.maxY])
        }
        self.revisions = revisions.map {
            RevisionEntry(line: $0.line, changedBy: $0.changedBy, before: $0.before, after: $0.after)
        }
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
    /// the rule of a stroke read as classified).
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
                let percent = Int((stroke.confidence * 100).rounded())
                var seen = "\(stroke.label) \(percent)%\(stroke.rejected ? " (rejected)" : "")"
                if let shape = stroke.shape, let rule = stroke.rule.flatMap(ContextRule.init(rawValue:)) {
                    seen += ", read as \(shape): \(rule)"
                }
                let part = stroke.head ? "head of symbol \(stroke.symbolIndex)" : "symbol \(stroke.symbolIndex)"
                lines.append("  #\(stroke.index) (line \(stroke.line), \(part): \(stroke.symbol)) \(seen): \(stroke.outcome)")
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
            for revision in revisions {
                lines.append("  line \(revision.line), when line \(revision.changedBy) arrived: was \(revision.before); now \(revision.after)")
            }
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
