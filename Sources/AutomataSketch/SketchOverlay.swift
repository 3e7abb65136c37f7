import Foundation

/// A picture of a reading for debugging (`strokekit recognize --overlay FILE.svg`): the ink
/// coloured by the kind of symbol each stroke became (heads drawn thicker, rejected strokes
/// dashed), each stroke numbered by its line, and on top the recognized states (name,
/// double rim when final, a dot when initial) and transitions (a straight arrow with its
/// symbols), so a person sees at a glance what went wrong.
public enum SketchOverlay {
    /// The colour of each kind of symbol, also printed in the picture's legend.
    static let colors: [(SymbolKind, String)] = [
        (.state, "#1f77b4"), (.finalState, "#9467bd"), (.transition, "#2ca02c"), (.selfLoop, "#17becf"),
        (.initialArrow, "#ff7f0e"), (.openArrow, "#d62728"), (.rejected, "#999999"),
        (.text, "#8c564b"),
    ]

    /// The SVG text. `lineNumbers[i]` labels ink stroke `i` (its line in the sketch file).
    public static func svg(_ reading: SketchReading, ink: [InkStroke], lineNumbers: [Int]) -> String {
        let points = ink.flatMap(\.stroke.sketchPoints)
        let low = points.reduce(SketchPoint(Double.infinity, .infinity)) { pointwiseMin($0, $1) }
        let high = points.reduce(SketchPoint(-Double.infinity, -.infinity)) { pointwiseMax($0, $1) }
        let margin = 30.0, legendHeight = 24.0
        let origin = (points.isEmpty ? .zero : low) - SketchPoint(margin, margin + legendHeight)
        let size = (points.isEmpty ? SketchPoint(200, 100) : high - low) + SketchPoint(2 * margin, 2 * margin + legendHeight)
        func number(_ value: Double) -> String { String(format: "%.1f", value) }
        /// `x="…" y="…"` (or other attribute names) for a sketch point.
        func at(_ point: SketchPoint, _ x: String = "x", _ y: String = "y") -> String {
            "\(x)=\"\(number(point.x - origin.x))\" \(y)=\"\(number(point.y - origin.y))\""
        }
        func xy(_ point: SketchPoint) -> String { "\(number(point.x - origin.x)),\(number(point.y - origin.y))" }
        func color(_ kind: SymbolKind) -> String { colors.first { $0.0 == kind }!.1 }

        var svg: [String] = [
            #"<svg xmlns="http://www.w3.org/2000/svg" width="\#(number(size.x))" height="\#(number(size.y))" font-family="sans-serif">"#,
            #"<rect width="100%" height="100%" fill="white"/>"#,
            #"<defs><marker id="tip" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="black"/></marker></defs>"#,
        ]
        var legendX = 8.0
        for (kind, value) in colors {
            svg.append(#"<rect x="\#(number(legendX))" y="6" width="12" height="12" fill="\#(value)"/><text x="\#(number(legendX + 16))" y="17" font-size="12">\#(kind.rawValue)</text>"#)
            legendX += 22 + Double(kind.rawValue.count) * 7
        }
        // The ink.
        for (index, stroke) in ink.enumerated() where !stroke.stroke.points.isEmpty {
            let symbol = reading.symbols[reading.symbolOfStroke[index]]
            let isHead = symbol.group.heads.contains(index)
            let dash = symbol.outcome.kind == .rejected ? #" stroke-dasharray="4,3""# : ""
            let path = stroke.stroke.sketchPoints.map(xy).joined(separator: " ")
            svg.append(#"<polyline points="\#(path)" fill="none" stroke="\#(color(symbol.outcome.kind))" stroke-width="\#(isHead ? 3.5 : 2)" stroke-linecap="round" stroke-linejoin="round"\#(dash)/>"#)
            svg.append(#"<text \#(at(stroke.stroke.sketchPoints[0])) font-size="9" fill="\#(color(symbol.outcome.kind))">\#(lineNumbers[index])</text>"#)
        }
        // The structure on top.
        let sketch = reading.sketch
        for state in sketch.states {
            for radius in state.isFinal ? [state.radius, state.radius * 0.8] : [state.radius] {
                svg.append(#"<circle \#(at(state.center, "cx", "cy")) r="\#(number(radius))" fill="none" stroke="black" stroke-width="0.8" stroke-dasharray="2,2"/>"#)
            }
            let marker = sketch.isInitial(state.id) ? "→" : ""
            svg.append(#"<text \#(at(state.center)) font-size="13" font-weight="bold" text-anchor="middle" dominant-baseline="middle">\#(marker)\#(escape(state.name))</text>"#)
        }
        for transition in sketch.transitions {
            let label = transition.symbols.joined(separator: ",") + (transition.isEpsilon ? (transition.symbols.isEmpty ? "ε" : ",ε") : "")
            let from = sketch.state(transition.from ?? -1), to = sketch.state(transition.to ?? -1)
            if transition.kind == .selfLoop, let state = to {
                let apex = transition.geometry.tip
                let away = apex - state.center
                let position = state.center + away * 1.15
                svg.append(#"<text \#(at(position)) font-size="12" text-anchor="middle">⟲\#(escape(label))</text>"#)
                continue
            }
            let start = from?.center ?? transition.geometry.start
            let end = to?.center ?? transition.geometry.tip
            let length = Geometry.distance(start, end)
            guard length > 0 else { continue }
            let direction = (end - start) / length
            let a = start + direction * (from.map { $0.radius } ?? 0)
            let b = end - direction * (to.map { $0.radius } ?? 0)
            svg.append(#"<line \#(at(a, "x1", "y1")) \#(at(b, "x2", "y2")) stroke="black" stroke-width="1" marker-end="url(#tip)"/>"#)
            if !label.isEmpty {
                let middle = (a + b) / 2 + SketchPoint(-direction.y, direction.x) * 9
                svg.append(#"<text \#(at(middle)) font-size="12" text-anchor="middle">\#(escape(label))</text>"#)
            }
        }
        // The handwritten labels: a box round each, the text read above it, and a dotted line
        // to what it belongs to (a transition's middle, a state's centre).
        for label in reading.labels {
            let box = label.box
            svg.append(#"<rect \#(at(SketchPoint(box.minX - 2, box.minY - 2))) width="\#(number(box.width + 4))" height="\#(number(box.height + 4))" fill="none" stroke="\#(color(.text))" stroke-width="0.8"/>"#)
            let percent = Int((label.confidence * 100).rounded())
            svg.append(#"<text \#(at(SketchPoint(box.minX, box.minY - 5))) font-size="11" fill="\#(color(.text))">“\#(escape(label.text))” \#(percent)%</text>"#)
            let target: SketchPoint?
            switch label.owner {
            case let .transition(id):
                target = sketch.transition(id).map { transition in
                    let points = transition.geometry.points
                    return points.isEmpty ? transition.geometry.tip : points[points.count / 2]
                }
            case let .state(id):
                target = sketch.state(id)?.center
            case .nothing:
                target = nil
            }
            if let target {
                svg.append(#"<line \#(at(box.center, "x1", "y1")) \#(at(target, "x2", "y2")) stroke="\#(color(.text))" stroke-width="0.8" stroke-dasharray="1,2"/>"#)
            }
        }
        svg.append("</svg>")
        return svg.joined(separator: "\n") + "\n"
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
