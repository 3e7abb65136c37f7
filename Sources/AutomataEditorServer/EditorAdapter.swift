import Foundation
import AutomataSketch
import StrokeImage
import StrokeKit

/// The one place the server calls `SketchEditor`: every edit the page can make, as a method
/// that returns what happened in words the page shows. Keep it small: when the editor's API
/// changes, only this file should need to follow.
struct EditorAdapter: Sendable {
    private(set) var editor: SketchEditor

    init(classifier: any StrokeClassifying, sketch: Sketch = Sketch()) {
        editor = SketchEditor(sketch: sketch, classifier: classifier)
    }

    var sketch: Sketch { editor.sketch }
    /// The handwritten labels read from the ink.
    var labels: [HandwrittenLabel] { editor.reading.labels }
    var canUndo: Bool { editor.canUndo }
    var canRedo: Bool { editor.canRedo }

    /// Classifies a drawing (one stroke, or several drawn as one symbol) and applies it.
    mutating func draw(_ strokes: [Stroke]) throws -> DrawingOutcome {
        try editor.add(strokes)
    }

    /// Erases what the eraser stroke crosses; returns what it did.
    mutating func erase(_ stroke: Stroke) -> String {
        editor.erase(stroke).description
    }

    /// Makes a state final or ordinary. The editor has no call for this, so it is done the
    /// way a student does it: a circle round the state makes it final, an eraser touching
    /// only its centre takes the final mark away (and nothing else: a final state loses its
    /// mark before it can be removed, and transitions are only crossed outside the states hit).
    mutating func setFinal(_ isFinal: Bool, state id: Int) throws -> String {
        guard let state = editor.sketch.state(id) else { throw SketchEditError.unknownState(id) }
        if state.isFinal == isFinal { return "\(state.name) is already \(isFinal ? "final" : "not final")" }
        if isFinal {
            let radius = state.radius * 1.3
            let ring = (0...48).map { step -> (Double, Double) in
                let angle = Double(step) / 48 * 2 * Double.pi
                return (state.center.x + radius * cos(angle), state.center.y + radius * sin(angle))
            }
            let outcome = editor.add(Stroke(ring), as: .circle)
            return outcome.isRejected ? outcome.description : "\(state.name) made final"
        }
        let dot = Stroke([(state.center.x, state.center.y), (state.center.x + 0.01, state.center.y)])
        _ = editor.erase(dot)
        return "\(state.name) made non-final"
    }

    mutating func rename(state id: Int, to name: String) throws {
        try editor.rename(state: id, to: name)
    }

    mutating func setSymbols(_ symbols: [String], isEpsilon: Bool, transition id: Int) throws {
        try editor.setSymbols(symbols, isEpsilon: isEpsilon, forTransition: id)
    }

    mutating func undo() -> Bool { editor.undo() }
    mutating func redo() -> Bool { editor.redo() }
    mutating func clear() { editor.clear() }

    /// Replaces the sketch with a loaded document (the history starts again from it).
    mutating func load(_ sketch: Sketch) {
        editor = SketchEditor(sketch: sketch, classifier: editor.classifier)
    }
}
