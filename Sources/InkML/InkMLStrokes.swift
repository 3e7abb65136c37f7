import StrokeImage

extension InkML {
    /// The longest side a drawing in device units (no declared length unit) is scaled to, in
    /// screen points. Recognition reads a drawing relative to its own sizes (state radii,
    /// stroke lengths), so only the scale of undeclared units is a choice: the FA database's
    /// diagrams span 250–650 points on screen, and the editor's canvas is a few hundred wide.
    public static let deviceUnitsExtent = 600.0
    /// Where the drawing's top-left corner lands, in screen points (as in the FA database's
    /// screen-point sketches).
    public static let margin = 20.0

    /// The traces as strokes in screen points (y down), ready for the reader and the editor.
    /// When every trace declares a length unit or resolution, its true size is kept (at 96
    /// points per inch); otherwise the drawing is scaled, the same factor for x and y, so that
    /// its longer side is `deviceUnitsExtent`. Either way it is moved to start at `margin`.
    /// Pen force is not part of a `Stroke` and is dropped here.
    public static func strokes(_ traces: [InkTrace]) -> [Stroke] {
        let physical = traces.allSatisfy { $0.pointsPerUnit != nil }
        var scaled = traces.map { trace -> [InkPoint] in
            guard physical, let (sx, sy) = trace.pointsPerUnit else { return trace.points }
            return trace.points.map { InkPoint(x: $0.x * sx, y: $0.y * sy, time: $0.time, force: $0.force) }
        }
        let all = scaled.joined()
        guard let minX = all.map(\.x).min(), let maxX = all.map(\.x).max(),
            let minY = all.map(\.y).min(), let maxY = all.map(\.y).max()
        else { return [] }
        let extent = max(maxX - minX, maxY - minY)
        let factor = physical || extent == 0 ? 1 : deviceUnitsExtent / extent
        scaled = scaled.map { points in
            points.map { InkPoint(x: ($0.x - minX) * factor + margin, y: ($0.y - minY) * factor + margin, time: $0.time) }
        }
        return scaled.map { Stroke(points: $0.map { StrokePoint(x: $0.x, y: $0.y, time: $0.time) }) }
    }

    /// The drawings of a file for classifying one shape at a time: the traces of each
    /// outermost `<traceGroup>` together, and each trace outside any group alone, in the order
    /// of their first trace. Strokes as `strokes(_:)` gives them.
    public static func drawings(_ traces: [InkTrace]) -> [(strokes: [Stroke], firstTrace: InkTrace)] {
        let strokes = strokes(traces)
        var drawings: [(strokes: [Stroke], firstTrace: InkTrace)] = []
        var drawingOfGroup: [Int: Int] = [:]
        for (trace, stroke) in zip(traces, strokes) {
            if let group = trace.group, let index = drawingOfGroup[group] {
                drawings[index].strokes.append(stroke)
                continue
            }
            if let group = trace.group { drawingOfGroup[group] = drawings.count }
            drawings.append(([stroke], trace))
        }
        return drawings
    }
}
