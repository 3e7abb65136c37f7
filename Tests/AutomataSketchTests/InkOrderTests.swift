@testable import AutomataSketch
import Foundation
import StrokeImage
import StrokeKit
import StrokeSupport
import Testing
import TestSupport

/// The reader reads the whole ink at once: the order a person drew the symbols and wrote the
/// labels in must not change the automaton (`scripts/fa-benchmark.sh` measures the same on every
/// diagram, 20 random orders each).
@Suite struct InkOrderTests {
    /// The automaton in the ink's own ids (a state or transition is named by the drawing of its
    /// first stroke): states and whether final, initial states, transitions with their symbols.
    struct Automaton: Equatable, CustomStringConvertible {
        var states: [String]
        var initial: [Int]
        var transitions: [String]

        init(_ sketch: Sketch) {
            states = sketch.states.map { "\($0.id)\($0.isFinal ? " final" : "")" }.sorted()
            initial = sketch.states.filter { sketch.isInitial($0.id) }.map(\.id).sorted()
            transitions = sketch.transitions.filter { $0.from != nil || $0.to != nil }.map { transition in
                let ends = [transition.from, transition.to].map { $0.map(String.init) ?? "?" }.joined(separator: "→")
                return "\(ends) \(transition.symbols.sorted().joined(separator: ","))\(transition.isEpsilon ? " ε" : "")"
            }.sorted()
        }

        var description: String { "states \(states), initial \(initial), transitions \(transitions)" }
    }

    /// Diagrams whose reading once depended on the order: a head read as text beside a label
    /// written right after it (writer007_fa_011), a name written in a final state before its
    /// circles (writer010_fa_012), a comma under its label's line (writer001_fa_009). Each is
    /// read in the writer's order and in three seeded random orders of what a person draws as one
    /// thing (each symbol's strokes and each label's strokes kept together, in the writer's order
    /// within): the same automaton, symbols read from the labels included.
    @Test func randomOrdersOfRealInkGiveTheWritersAutomaton() throws {
        guard let inks = try SharedDataset.faDiagramsInk() else { return }
        let classifier = try ShapeClassifier.bundledDefault()
        let chosen = ["writer007_fa_011", "writer010_fa_012", "writer001_fa_009"]
        var compared = 0
        for url in inks where chosen.contains(url.deletingPathExtension().lastPathComponent) {
            let file = url.lastPathComponent
            let lines = try SketchFile.read(contentsOf: url)
            let truthURL = url.deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("ink_truth/" + file.replacingOccurrences(of: ".ndjson", with: ".json"))
            let truth = try JSONSerialization.jsonObject(with: Data(contentsOf: truthURL)) as! [String: Any]
            // The units a person draws at once: each symbol's strokes, each label's strokes.
            var units: [String: [Int]] = [:], firstSeen: [String] = []
            for entry in truth["strokes"] as! [[String: Any]] {
                let key = entry["role"] as! String == "label" ? "label \(entry["label"] as! Int)" : "symbol \(entry["symbol"] as! Int)"
                if units[key] == nil { firstSeen.append(key) }
                units[key, default: []].append(entry["line"] as! Int)
            }
            // Every stroke keeps its line as its drawing, so ids name the same symbols in every order.
            func read(_ order: [Int]) throws -> Automaton {
                var cache = ClassificationCache()
                let ink = order.map { InkStroke(stroke: lines[$0].strokes[0], drawing: $0) }
                return Automaton(try SketchReader.read(ink, classifier: classifier, cache: &cache).sketch)
            }
            let writer = try read(Array(lines.indices))
            #expect(!writer.transitions.isEmpty, "\(file): the writer's order reads transitions")
            var generator = SeededGenerator(seed: 26)
            for number in 0..<3 {
                let order = firstSeen.shuffled(using: &generator).flatMap { units[$0]! }
                #expect(order.sorted() == Array(lines.indices))
                let shuffled = try read(order)
                #expect(shuffled == writer, "\(file), random order \(number): \(shuffled)\n  writer's order: \(writer)")
                compared += 1
            }
        }
        #expect(compared == 9)
    }
}
