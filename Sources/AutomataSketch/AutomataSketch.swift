// AutomataSketch: strokes -> states and transitions -> NFA with epsilon moves -> simulation
// with a step-by-step trace, subset-construction DFA, transition table, documents.
//
// Reading order: Geometry, Sketch (the data), StrokeRules and ContextRules (what a classified
// drawing becomes), SymbolGrouping and SketchReader (the whole sketch read in stages: strokes
// -> symbols -> classified -> structure), Erasing, SketchEditor (the ink, re-read on every
// change, editing, undo/redo), NFA, Simulation, DFA, TransitionTable, AutomatonDocument,
// GraphvizExport, SketchFile (ndjson), SketchRecognizer, RecognitionReport and SketchOverlay
// (what `strokekit recognize` prints and draws).
import StrokeImage

/// A point in the sketch's coordinates (screen units, y grows down).
public typealias SketchPoint = SIMD2<Double>

extension Stroke {
    /// The stroke's points as sketch points.
    var sketchPoints: [SketchPoint] {
        points.map { SketchPoint($0.x, $0.y) }
    }
}
