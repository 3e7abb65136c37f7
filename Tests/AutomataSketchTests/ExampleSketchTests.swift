import AutomataSketch
import Foundation
import StrokeKit
import Testing

/// The example sketches in `docs/sketches/` (what `scripts/recognize-benchmark.sh` runs).
/// They were drawn by `SynthesizedTextbook.draw` with the seeds below; regenerate them with
/// `AUTOMATA_SKETCH_WRITE_EXAMPLES=1 swift test --filter ExampleSketchTests`.
@Suite struct ExampleSketchTests {
    struct Example: Sendable, CustomStringConvertible {
        var file: String
        var layout: TextbookLayout
        var seed: UInt64
        var description: String { file }
    }

    static let examples = [
        Example(file: "ends-in-01.ndjson", layout: TextbookLayout.all[2], seed: 4),
        Example(file: "even-number-of-as.ndjson", layout: TextbookLayout.all[0], seed: 7),
        Example(file: "binary-multiples-of-3.ndjson", layout: TextbookLayout.all[5], seed: 11),
    ]

    /// This file is Tests/AutomataSketchTests/ExampleSketchTests.swift: the root is two levels up.
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/sketches")

    @Test(.enabled(if: (try? RealClassifierTextbookTests.classifier.get()) != nil, "the bundled model is missing from this build"),
          arguments: examples)
    func exampleSketchIsRecognisedAsItsLanguage(_ example: Example) throws {
        let url = Self.folder.appendingPathComponent(example.file)
        if ProcessInfo.processInfo.environment["AUTOMATA_SKETCH_WRITE_EXAMPLES"] != nil {
            let lines = SynthesizedTextbook.draw(example.layout, seed: example.seed).map(\.line)
            try FileManager.default.createDirectory(at: Self.folder, withIntermediateDirectories: true)
            try SynthesizedTextbook.ndjson(lines).write(to: url, atomically: true, encoding: .utf8)
        }
        let lines = try SketchFile.read(contentsOf: url)
        let recognition = try SketchRecognizer.recognize(
            lines, classifier: try RealClassifierTextbookTests.classifier.get(), source: example.file)
        let automaton = recognition.sketch.automaton()
        let words = RealClassifierTextbookTests.words(over: example.layout.alphabet, upTo: 5)
        let wrong = words.filter { automaton.simulate($0).isAccepted != example.layout.language($0) }
        #expect(wrong.isEmpty, "\(example.file) (\(example.layout)): wrong on \(wrong.prefix(6))")
        #expect(recognition.strokes.allSatisfy { !$0.outcome.isRejected })
        #expect(recognition.sketch.warnings.isEmpty, "\(recognition.sketch.warnings)")
    }
}
