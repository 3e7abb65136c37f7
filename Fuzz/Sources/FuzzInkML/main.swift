import FuzzDriver
import Foundation
import InkML

// InkML: the XML reader (formats, contexts, groups, units), the trace-value decoder
// (explicit values, first and second differences), then the conversion to screen points.
runFuzzer { input in
    guard let traces = try? InkML.parse(Data(input), source: "fuzz.inkml") else { return }
    _ = InkML.drawings(traces)
}
