import StrokeSupport
import ArgumentParser
import AutomataSketch
import Foundation
import StrokeModelFile

/// `strokekit recognize`: a sketch file (ndjson or InkML) -> automaton -> words simulated.
struct RecognizeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recognize",
        abstract: "Turn a sketch (ndjson or InkML strokes) into an automaton and run words on it.",
        discussion: """
            SKETCH holds one JSON object per line, in drawing order, in the QuickDraw form \
            {"drawing": [[xs, ys]]} (screen coordinates, y down), optionally with \
            "symbols": ["0", "1"] and "epsilon": true for the transition or self-loop the \
            stroke creates, and "name": "q0" for the state it creates. An InkML file (W3C \
            Ink Markup Language, as pen tablets and the FA database write it) is read one \
            trace per line, in screen points (see docs/recognition.md).

            Each drawing is classified by the CNN, then read in the context of the sketch: a \
            curved arrow from one state to another is a transition even when the classifier \
            calls it a self-loop, a loop on a state's rim is a self-loop even when it is drawn \
            round or rejected, two circles round one centre are a final state. The report says \
            "read as SHAPE: RULE" where that happened, and why any drawing was rejected.

            The whole sketch is read again after every line, so the automaton does not \
            depend on the order of the lines: a head drawn on its own line joins the shaft \
            whose end it sits on (a head at the start end reverses it), an arrow drawn before \
            its target state attaches when the state appears, a second circle drawn later \
            round a state makes it final. Earlier decisions that a later line changed are \
            listed under "Changed by later strokes" (`revisions` in JSON).
            """)

    @Option(name: .long, help: "Classifier model file (default: the bundled model).")
    var model: String?

    @Argument(help: "The sketch file (.ndjson or .inkml).")
    var sketch: String

    @Option(
        name: .long, parsing: .upToNextOption,
        help: "Words to run (`--simulate 01 10` or repeated; \"\" is the empty word).")
    var simulate: [String] = []

    @Option(name: .long, help: "Write the automaton as Graphviz DOT to this file.")
    var dot: String?

    @Option(name: .long, help: "Write the automaton as a JFLAP finite automaton (.jff) to this file.")
    var jff: String?

    @Option(name: .long, help: "Write the automaton as a LaTeX document with a TikZ picture (automata library) to this file.")
    var tikz: String?

    @Option(name: .long, help: "Save the sketch as an .automaton document.")
    var save: String?

    @Option(name: .long, help: "Draw the ink coloured by what each stroke became, with the recognized automaton on top, to this .svg file.")
    var overlay: String?

    @Flag(name: .long, help: "Print one JSON object instead of text.")
    var json = false

    func validate() throws {
        if let overlay, !overlay.lowercased().hasSuffix(".svg") {
            throw ValidationError("--overlay \(overlay): the overlay is an SVG picture; give a file name ending in .svg")
        }
    }

    func run() throws {
        let lines = try SketchFile.read(contentsOf: URL(fileURLWithPath: sketch))
        let classifier = try loadClassifier(modelPath: model)
        let recognition = try SketchRecognizer.recognize(lines, classifier: classifier, source: sketch)
        if let dot { try write(GraphvizExport.dot(recognition.sketch), to: dot, what: "the DOT file") }
        if let jff { try write(JFLAP.jff(recognition.sketch, source: sketch), to: jff, what: "the JFLAP file") }
        if let tikz { try write(TikZExport.document(recognition.sketch), to: tikz, what: "the TikZ file") }
        if let overlay {
            let lineNumbers = lines.flatMap { line in line.strokes.map { _ in line.lineNumber } }
            let picture = SketchOverlay.svg(recognition.editor.reading, ink: recognition.editor.ink, lineNumbers: lineNumbers)
            do {
                try AtomicFile.write(Data(picture.utf8), to: URL(fileURLWithPath: overlay))
            } catch {
                throw ValidationError("\(overlay): cannot write the overlay (\(error))")
            }
        }
        if let save {
            try AutomatonDocument.save(recognition.sketch, to: URL(fileURLWithPath: save))
        }
        let report = RecognitionReport(
            sketch: recognition.sketch, strokes: recognition.strokes, revisions: recognition.revisions,
            labels: recognition.labels, words: simulate)
        print(json ? try report.json() : report.text)
    }

    private func write(_ text: String, to path: String, what: String) throws {
        do {
            try AtomicFile.write(Data(text.utf8), to: URL(fileURLWithPath: path))
        } catch {
            throw ValidationError("\(path): cannot write \(what) (\(error))")
        }
    }
}
