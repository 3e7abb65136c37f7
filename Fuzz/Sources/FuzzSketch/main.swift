import FuzzDriver
import AutomataSketch

// Sketch files: the QuickDraw reader plus the sketch's own keys (symbols, epsilon, name).
runFuzzer { input in
    let text = String(decoding: input, as: UTF8.self)
    _ = try? SketchFile.parse(text, source: "fuzz.ndjson")
}
