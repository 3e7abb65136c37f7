import StrokeSupport

/// The automaton as a standalone SVG picture, drawn from the same layout as the page.
enum SVGExport {
    static func svg(_ view: AutomatonView) -> String {
        var xs: [Double] = [], ys: [Double] = []
        for state in view.states {
            xs += [state.x - state.radius, state.x + state.radius]
            ys += [state.y - state.radius, state.y + state.radius]
        }
        for edge in view.edges {
            xs += edge.head.map { $0[0] } + [edge.labelX]
            ys += edge.head.map { $0[1] } + [edge.labelY]
            // Path coordinates are the numbers after the command letters, in x y pairs.
            let numbers = edge.path.split(separator: " ").compactMap { Double($0) }
            for pair in stride(from: 0, to: numbers.count - 1, by: 2) {
                xs.append(numbers[pair])
                ys.append(numbers[pair + 1])
            }
        }
        let margin = 30.0
        let minX = (xs.min() ?? 0) - margin, minY = (ys.min() ?? 0) - margin
        let width = max((xs.max() ?? 100) + margin - minX, 60), height = max((ys.max() ?? 100) + margin - minY, 60)
        var lines = [
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"\(minX) \(minY) \(width) \(height)\" "
                + "width=\"\(Int(width))\" height=\"\(Int(height))\" font-family=\"sans-serif\" font-size=\"14\">",
            "<rect x=\"\(minX)\" y=\"\(minY)\" width=\"\(width)\" height=\"\(height)\" fill=\"white\"/>",
        ]
        for edge in view.edges {
            let dash = edge.dangling ? " stroke-dasharray=\"6 4\"" : ""
            lines.append("<path d=\"\(edge.path)\" fill=\"none\" stroke=\"black\" stroke-width=\"1.6\"\(dash)/>")
            let head = edge.head.map { "\($0[0]),\($0[1])" }.joined(separator: " ")
            lines.append("<polygon points=\"\(head)\" fill=\"black\"/>")
            if edge.kind != "initial" && !edge.label.isEmpty {
                lines.append(
                    "<text x=\"\(edge.labelX)\" y=\"\(edge.labelY)\" text-anchor=\"middle\" dominant-baseline=\"middle\">"
                        + "\(markupEscaped(edge.label))</text>")
            }
        }
        for state in view.states {
            lines.append(
                "<circle cx=\"\(state.x)\" cy=\"\(state.y)\" r=\"\(state.radius)\" fill=\"white\" stroke=\"black\" stroke-width=\"1.6\"/>")
            if state.final {
                lines.append(
                    "<circle cx=\"\(state.x)\" cy=\"\(state.y)\" r=\"\(state.radius * 0.82)\" fill=\"none\" stroke=\"black\" stroke-width=\"1.6\"/>")
            }
            lines.append(
                "<text x=\"\(state.x)\" y=\"\(state.y)\" text-anchor=\"middle\" dominant-baseline=\"middle\">"
                    + "\(markupEscaped(state.name))</text>")
        }
        lines.append("</svg>")
        return lines.joined(separator: "\n") + "\n"
    }
}
