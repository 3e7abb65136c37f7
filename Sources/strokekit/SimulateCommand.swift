import ArgumentParser
import AutomataSketch
import Foundation

/// `strokekit simulate`: run words on a saved `.automaton` document or a JFLAP `.jff` file.
struct SimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Run words on a saved .automaton document or a JFLAP .jff automaton, with a step-by-step trace.")

    @Argument(help: "The .automaton document or .jff file.")
    var document: String

    @Argument(help: "Words to run (\"\" is the empty word; separate multi-character symbols with spaces).")
    var words: [String] = []

    @Flag(name: .long, help: "Print one JSON object instead of text.")
    var json = false

    func run() throws {
        let sketch = try AutomatonDocument.open(URL(fileURLWithPath: document))
        let report = RecognitionReport(sketch: sketch, words: words)
        print(json ? try report.json() : report.text)
    }
}
