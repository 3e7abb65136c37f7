import FuzzDriver
import AutomataSketch
import Foundation

// `.automaton` documents; a document that reads is also turned into its NFA and simulated.
runFuzzer { input in
    let bytes = Data(input)
    guard let sketch = try? AutomatonDocument.decode(bytes, source: "fuzz.automaton") else { return }
    _ = RecognitionReport(sketch: sketch, words: ["", "0", "01", "ab"])
}
