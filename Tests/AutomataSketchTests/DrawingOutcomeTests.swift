@testable import AutomataSketch
import Foundation
import StrokeKit
import Testing

/// `DrawingOutcome`, the one value for what a drawing became: its JSON round-trips for every
/// case, and the text people read says what the JSON says.
@Suite struct DrawingOutcomeTests {
    typealias Became = DrawingOutcome.Became
    typealias Rejection = DrawingOutcome.Rejection

    static let rejections: [Rejection] = [
        .noPoints, .noStrokes, .unreadable, .notASketchShape(label: "star"), .noShape(closest: "self-loop", percent: 41),
        .noShape(closest: "arrow", percent: 3), .retracedCircle, .circleWithoutSize,
        .enclosesState(name: "q0", fit: .muchSmaller), .enclosesState(name: "q1", fit: .muchLarger),
        .enclosesState(name: "q2", fit: .notCentred), .alreadyFinal(name: "q3"), .circleTooSmall,
        .overlapsState(name: "q4"), .invalidName(problem: "a state named q0 already exists"),
        .invalidSymbols(problem: "symbols are separate entries"), .arrowTooShort, .loopWithoutStates, .loopOffStates,
    ]

    static let targets: [DrawingOutcome.LabelTarget] = [
        .transition(id: 4, from: "q0", to: "q1"), .transition(id: 5, from: nil, to: "q0"), .selfLoop(id: 6, state: "q1"),
        .state(id: 2, name: "even"), .nothing,
    ]

    /// At least one value of every case, with and without its optional parts.
    static let became: [Became] = [
        .state(id: 0, name: "q0", final: false, connected: []),
        .state(id: 1, name: "q1", final: true, connected: ["transition q0 → q1", "self-loop on q1"]),
        .finalCircle(state: 1, name: "q1"),
        .transition(id: 3, from: "q0", to: "q1", symbols: [], epsilon: false),
        .transition(id: 3, from: "q0", to: "q1", symbols: ["a", "b"], epsilon: true),
        .selfLoop(id: 7, state: "q1", symbols: ["0"], epsilon: false),
        .initialArrow(id: 8, to: "q0"),
        .openArrow(id: 9, from: "q0", symbols: ["c"], epsilon: false),
        .openArrow(id: 10, from: nil, symbols: [], epsilon: true),
    ] + targets.map { .text(text: "a,b", belongsTo: $0) } + rejections.map { .rejected(reason: $0) }

    /// The name of a value's case: exhaustive, so a new case fails to compile until it is listed.
    static func caseName(_ value: Became) -> String {
        switch value {
        case .state: "state"
        case .finalCircle: "finalCircle"
        case .transition: "transition"
        case .selfLoop: "selfLoop"
        case .initialArrow: "initialArrow"
        case .openArrow: "openArrow"
        case .text: "text"
        case .rejected: "rejected"
        }
    }

    static func caseName(_ value: Rejection) -> String {
        switch value {
        case .noPoints: "noPoints"
        case .noStrokes: "noStrokes"
        case .unreadable: "unreadable"
        case .notASketchShape: "notASketchShape"
        case .noShape: "noShape"
        case .retracedCircle: "retracedCircle"
        case .circleWithoutSize: "circleWithoutSize"
        case .enclosesState: "enclosesState"
        case .alreadyFinal: "alreadyFinal"
        case .circleTooSmall: "circleTooSmall"
        case .overlapsState: "overlapsState"
        case .invalidName: "invalidName"
        case .invalidSymbols: "invalidSymbols"
        case .arrowTooShort: "arrowTooShort"
        case .loopWithoutStates: "loopWithoutStates"
        case .loopOffStates: "loopOffStates"
        }
    }

    static let outcomes: [DrawingOutcome] = became.enumerated().map { index, became in
        let classification = Classification(
            label: index % 3 == 0 ? "arrow" : "cycle", confidence: Float(index) / 40,
            probabilities: ["arrow": Float(index) / 40, "circle": 0.125, "cycle": 0.5], isRejected: index % 4 == 0)
        let readings: [StrokeReading?] = [nil, StrokeReading(shape: .arrow, rule: nil), StrokeReading(shape: .cycle, rule: .loopOnRim)]
        return DrawingOutcome(became: became, classification: classification, reading: readings[index % 3])
    }

    static func json(_ value: some Encodable) throws -> [String: Any] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try #require(try JSONSerialization.jsonObject(with: try encoder.encode(value)) as? [String: Any])
    }

    @Test func everyCaseIsSampled() {
        #expect(Set(Self.became.map(Self.caseName)).count == 8)
        #expect(Set(Self.rejections.map(Self.caseName)).count == 16)
    }

    @Test func everyCaseRoundTripsThroughJSON() throws {
        for outcome in Self.outcomes {
            let data = try JSONEncoder().encode(outcome)
            #expect(try JSONDecoder().decode(DrawingOutcome.self, from: data) == outcome, "\(String(decoding: data, as: UTF8.self))")
        }
        let stroke = RecognizedStroke(index: 2, lineNumber: 5, outcome: Self.outcomes[4], symbolIndex: 1, isHead: true, notes: ["a note"])
        #expect(try JSONDecoder().decode(RecognizedStroke.self, from: try JSONEncoder().encode(stroke)) == stroke)
        let revision = ReadingRevision(line: 2, changedBy: 4, before: Self.became[8], after: Self.became[3])
        #expect(try JSONDecoder().decode(ReadingRevision.self, from: try JSONEncoder().encode(revision)) == revision)
    }

    /// What the text says is what the JSON's fields say: the derived keys are the value's
    /// views, and every name, symbol and reason in the value appears in the sentence.
    @Test func textAndJSONAgree() throws {
        for outcome in Self.outcomes {
            let object = try Self.json(outcome)
            let text = try #require(object["outcome"] as? String)
            #expect(text == outcome.description)
            #expect(object["symbol"] as? String == outcome.kind.rawValue)
            #expect(object["kind"] as? String == (outcome.kind == .text ? "text" : "shape"))
            #expect(object["rejected"] as? Bool == text.hasPrefix("rejected: "), "\(text)")
            #expect(object["label"] as? String == outcome.classification.label)
            #expect(object["classifierRejected"] as? Bool == outcome.classification.isRejected)
            #expect(object["shape"] as? String == outcome.reading?.shape.rawValue)
            #expect(object["rule"] as? String == outcome.reading?.rule?.rawValue)
            #expect(object["ruleDescription"] as? String == outcome.reading?.rule?.description)
            let became = try #require(object["became"] as? [String: Any])
            #expect(became.count == 1 && became.keys.first == Self.caseName(outcome.became), "\(became)")
            let fields = try #require(became.values.first as? [String: Any])
            // Every name and symbol the value holds is in the sentence.
            for key in ["name", "from", "to", "state", "text"] {
                guard let name = fields[key] as? String else { continue }
                #expect(text.contains(name), "\(key) \(name) missing from \(text)")
            }
            for symbol in fields["symbols"] as? [String] ?? [] { #expect(text.contains(symbol), "\(symbol) missing from \(text)") }
            if fields["epsilon"] as? Bool == true { #expect(text.contains("ε"), "\(text)") }
            for link in fields["connected"] as? [String] ?? [] { #expect(text.contains(link), "\(text)") }
            if let final = fields["final"] as? Bool { #expect(text.hasPrefix("final state") == final, "\(text)") }
            if case let .text(_, target) = outcome.became { #expect(text.hasSuffix(target.phrase), "\(text)") }
            if case let .rejected(reason) = outcome.became { #expect(text == "rejected: \(reason)") }
            switch outcome.became {
            case let .state(id, _, _, _), let .finalCircle(id, _):
                #expect(object["state"] as? Int == id && object["transition"] is NSNull)
            case let .transition(id, _, _, _, _), let .selfLoop(id, _, _, _), let .openArrow(id, _, _, _):
                #expect(object["transition"] as? Int == id && object["state"] is NSNull)
            default:
                #expect(object["transition"] is NSNull && object["state"] is NSNull, "\(object)")
            }
        }
        // Rejection reasons are written for the student, each its own sentence.
        let reasons = Self.rejections.map(\.description)
        #expect(Set(reasons).count == reasons.count)
        #expect(Rejection.noShape(closest: "arrow", percent: 3).description.contains("closest") == false)
        #expect(Rejection.noShape(closest: "arrow", percent: 40).description.contains("(closest: arrow, 40%)"))
    }

    /// A sketch file's report: its JSON decodes to the same report, and each stroke's line of
    /// the text report ends in what its JSON's `outcome` says.
    @Test func recognitionReportRoundTripsAndItsTextMatchesItsJSON() throws {
        let script = SketchFileTests().oddOnes()
        let recognition = try script.recognize()
        let report = RecognitionReport(
            sketch: recognition.sketch, strokes: recognition.strokes, revisions: recognition.revisions, words: ["", "1"])
        let json = try report.json()
        #expect(try JSONDecoder().decode(RecognitionReport.self, from: Data(json.utf8)) == report)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let strokes = try #require(object["strokes"] as? [[String: Any]])
        let text = report.text.split(separator: "\n").map(String.init)
        for (stroke, entry) in zip(recognition.strokes, strokes) {
            let outcome = try #require(entry["outcome"] as? String)
            #expect(text.contains { $0.hasPrefix("  #\(stroke.index) (line \(stroke.lineNumber),") && $0.hasSuffix(": " + outcome) }, "\(outcome)")
            #expect(entry["symbol"] as? String == stroke.outcome.kind.rawValue)
        }
    }

    /// Revisions are found by comparing values: a circle drawn later round a state changes
    /// the first circle's line from a state to a final state, and the text says it in the
    /// outcome's own words.
    @Test func revisionsCompareValues() throws {
        var script = ScriptedSketch()
        script.draw(Pen.circle(SketchPoint(100, 100), 40), as: "circle")
        script.draw(Pen.arrow(SketchPoint(145, 100), SketchPoint(260, 100)), as: "arrow")
        script.draw(Pen.circle(SketchPoint(300, 100), 40), as: "circle")
        script.draw(Pen.circle(SketchPoint(300, 100), 52), as: "circle")
        let recognition = try script.recognize()
        let arrow = try #require(recognition.revisions.first { $0.line == 2 && $0.changedBy == 3 })
        #expect(arrow.before == .openArrow(id: 1, from: "q0", symbols: [], epsilon: false), "\(arrow)")
        #expect(arrow.after == .transition(id: 1, from: "q0", to: "q1", symbols: [], epsilon: false), "\(arrow)")
        let final = try #require(recognition.revisions.first { $0.line == 3 && $0.changedBy == 4 })
        #expect(final.before == .state(id: 2, name: "q1", final: false, connected: []))
        #expect(final.after == .state(id: 2, name: "q1", final: true, connected: []))
        #expect(final.description == "line 3, when line 4 arrived: was state q1 added; now final state q1 added")
        let report = RecognitionReport(sketch: recognition.sketch, strokes: recognition.strokes, revisions: recognition.revisions, words: [])
        #expect(report.text.contains("  " + final.description))
        // Lines whose value did not change are not revisions.
        #expect(!recognition.revisions.contains { $0.line == 1 }, "\(recognition.revisions)")
    }
}
