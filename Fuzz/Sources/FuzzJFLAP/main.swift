import FuzzDriver
import Foundation
import AutomataSketch

// JFLAP .jff finite automata, read and written back.
runFuzzer { input in
    guard let sketch = try? JFLAP.parse(Data(input), source: "fuzz.jff") else { return }
    _ = try? JFLAP.jff(sketch)
}
