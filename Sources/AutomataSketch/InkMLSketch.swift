import InkML
import StrokeImage

extension SketchFile {
    /// An InkML drawing as sketch lines: one line per trace in document order (the order it
    /// was drawn in), numbered from 1, in screen points (`InkML.strokes`). Trace groups are
    /// not used: in datasets they are the answer (which strokes form a symbol), and the reader
    /// finds symbols itself.
    public static func lines(inkML traces: [InkTrace]) -> [SketchLine] {
        InkML.strokes(traces).enumerated().map { index, stroke in
            SketchLine(lineNumber: index + 1, strokes: [stroke])
        }
    }
}
