import ArgumentParser
import AutomataSketch
import Foundation
import StrokeImage
import StrokeTraining

/// `strokekit read-labels`: diagrams' handwritten labels, grouped and attached beforehand,
/// read as the whole-sketch reader reads the labels it finds (`HandwrittenLabels.read`).
struct ReadLabelsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "read-labels",
        abstract: "Read diagrams' handwritten labels, given grouped and attached, as the sketch reader does.",
        discussion: """
            Each line of the QuickDraw ndjson file is one label: its strokes, "diagram" (the \
            name of the diagram it belongs to) and "of" ("transition", "state" or "nothing"). \
            The labels of one diagram are read together with the bundled character model, each \
            character within what the diagram's other labels allow (its transitions' alphabet, \
            its state names' form), as `strokekit recognize` reads the labels it groups and \
            attaches itself. Prints one line per label, in the file's order.
            """)

    @Argument(help: ArgumentHelp("QuickDraw ndjson file: one label a line.", valueName: "file.ndjson"))
    var file: String

    @Flag(help: "Print one JSON object per label: source, line, key_id, diagram, of, text, symbols, confidence, alternatives.")
    var json = false

    func run() throws {
        let (drawings, warnings) = try QuickDraw.read(contentsOf: URL(fileURLWithPath: file))
        Terminal.warn(warnings)
        for diagram in try HandwrittenLabels.diagrams(from: drawings, source: file) {
            let labels = try HandwrittenLabels.read(diagram.labels)
            for (drawing, label) in zip(diagram.drawings, labels) {
                if json {
                    var object: [String: Any] = [
                        "source": file, "line": drawing.lineNumber, "diagram": diagram.name, "of": label.owner.kind,
                        "text": label.text, "symbols": label.symbols, "confidence": Double(label.confidence),
                        "alternatives": label.alternatives.map { ["text": $0.text, "confidence": Double($0.confidence)] as [String: Any] },
                    ]
                    if let keyID = drawing.keyID { object["key_id"] = keyID }
                    try printJSON(object)
                } else {
                    let alternatives = label.alternatives.map { "\($0.text) \(String(format: "%.1f%%", $0.confidence * 100))" }
                    print("\(StrokeExamples.sourceName(drawing, file: file)) [\(diagram.name), \(label.owner.kind)]: \(label.text) "
                        + String(format: "%.1f%%", label.confidence * 100)
                        + (alternatives.isEmpty ? "" : "  (or \(alternatives.joined(separator: ", ")))"))
                }
            }
        }
    }
}
