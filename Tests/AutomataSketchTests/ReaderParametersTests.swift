@testable import AutomataSketch
import Foundation
import StrokeImage
import Testing
import TestSupport

/// The reader's parameters: every one documented in docs/recognition.md with its default,
/// changed values reach the reader, and a sweep's JSON changes exactly what it names.
@Suite struct ReaderParametersTests {
    /// stage → name → default, as `ReaderParameters` encodes them (a range as [low, high]).
    static func defaults() throws -> [String: [String: [Double]]] {
        let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(ReaderParameters())) as! [String: [String: Any]]
        return object.mapValues { stage in
            stage.mapValues { value in (value as? [Double]) ?? [(value as! NSNumber).doubleValue] }
        }
    }

    /// stage → name → default, from the parameter tables of docs/recognition.md (rows
    /// "| `name` | default | …" under a heading "#### `stage`").
    static func documented() throws -> [String: [String: [Double]]] {
        let text = try String(contentsOf: ProjectDataset.projectRoot.appendingPathComponent("docs/recognition.md"), encoding: .utf8)
        var result: [String: [String: [Double]]] = [:]
        var stage: String?
        for line in text.split(separator: "\n").map(String.init) {
            if line.hasPrefix("#### `") { stage = line.dropFirst(6).split(separator: "`").first.map(String.init); continue }
            if line.hasPrefix("## ") || line.hasPrefix("### ") { stage = nil }
            guard let stage, line.hasPrefix("| `") else { continue }
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            let name = cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            let value = cells[1].components(separatedBy: "...").compactMap { Double($0) }
            result[stage, default: [:]][name] = value
        }
        return result
    }

    @Test func everyParameterIsDocumentedWithItsDefault() throws {
        let code = try Self.defaults(), docs = try Self.documented()
        #expect(Set(code.keys) == Set(docs.keys), "stages in code \(code.keys.sorted()), in docs \(docs.keys.sorted())")
        for (stage, parameters) in code {
            for (name, value) in parameters {
                #expect(docs[stage]?[name] == value, "\(stage).\(name): code \(value), docs/recognition.md \(docs[stage]?[name] ?? [])")
            }
            let stale = Set(docs[stage]?.keys ?? [:].keys).subtracting(parameters.keys)
            #expect(stale.isEmpty, "docs/recognition.md lists \(stage) parameters the code does not have: \(stale.sorted())")
        }
    }

    @Test func sweepJSONChangesOnlyWhatItNames() throws {
        let changed = try ReaderParameters.changed(by: #"{"connectors": {"headMaxExtent": 2.25}, "rules": {"arrowSnap": 1}}"#)
        var expected = ReaderParameters()
        expected.connectors.headMaxExtent = 2.25
        expected.rules.arrowSnap = 1
        #expect(changed == expected)
        #expect(throws: (any Error).self) { try ReaderParameters.changed(by: #"{"connectors": {"headMaxExtnet": 2}}"#) }
        #expect(throws: (any Error).self) { try ReaderParameters.changed(by: #"{"shape": {"roundSpread": 0.3}}"#) }
    }

    @Test func boundParametersReachTheReader() throws {
        // Two states and an arrow between them; with drawings smaller than 100 R taken for slips
        // of the pen, the same ink has no transition (nor states).
        let a = SketchPoint(100, 100), b = SketchPoint(300, 100)
        let strokes = [Hand.circle(a, 30), Hand.circle(b, 30), Hand.stroke([a + SketchPoint(32, 0), b - SketchPoint(32, 0), b - SketchPoint(45, 10)])]
        let ink = strokes.enumerated().map { InkStroke(stroke: $0.element, drawing: $0.offset, symbols: ["0"]) }
        func transitions() throws -> Int {
            var cache = ClassificationCache()
            return try SketchReader.read(ink, classifier: ClosedOrOpenClassifier(), cache: &cache).sketch.transitions.count
        }
        #expect(try transitions() == 1)
        var slips = ReaderParameters()
        slips.rules.slipOfThePen = 100
        let withSlips = try ReaderParameters.$current.withValue(slips) { try transitions() }
        #expect(withSlips == 0)
    }
}
