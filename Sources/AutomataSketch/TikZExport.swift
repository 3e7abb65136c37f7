import Foundation

/// LaTeX export: a `tikzpicture` drawn with TikZ's `automata` library, states where they were
/// drawn (40 screen points to the centimetre, so a state drawn 20 points round is about the
/// library's default 1 cm state), initial and accepting states marked, self-loops on the side
/// they were drawn on, an edge per pair of states labelled with its symbols, and bent edges
/// where transitions run both ways between two states.
///
///     \usetikzlibrary{automata, positioning, arrows.meta}
///     \begin{tikzpicture}[...]
///       \node[state, initial] (s0) at (0.50, 0.50) {$q_{0}$};
///       \path[->] (s0) edge[bend left] node {a} (s1) ...;
///     \end{tikzpicture}
public enum TikZExport {
    /// Screen points per centimetre of the picture.
    public static let pointsPerCentimetre = 40.0

    /// The picture alone, to paste into a document that loads TikZ and the libraries named in
    /// its first comment.
    public static func picture(_ sketch: Sketch) -> String {
        let origin = SketchPoint(
            sketch.states.map { $0.center.x }.min() ?? 0, sketch.states.map { $0.center.y }.min() ?? 0)
        var lines = [
            "% needs \\usepackage{tikz} and \\usetikzlibrary{automata, arrows.meta}",
            "\\begin{tikzpicture}[y=-1cm, >={Stealth[round]}, shorten >=1pt, auto, initial text=, every state/.style={minimum size=8mm}]",
        ]
        for state in sketch.states {
            var options = ["state"]
            if let side = initialSide(of: state, in: sketch) { options.append("initial \(side)") }
            if state.isFinal { options.append("accepting") }
            let x = (state.center.x - origin.x) / pointsPerCentimetre, y = (state.center.y - origin.y) / pointsPerCentimetre
            lines.append("  \\node[\(options.joined(separator: ", "))] (s\(state.id)) at (\(number(x)), \(number(y))) {\(label(ofState: state.name))};")
        }
        // One edge per ordered pair of states, labelled with every symbol of the transitions
        // between them, in drawing order.
        var pairs: [(from: Int, to: Int, transitions: [SketchTransition])] = []
        for transition in sketch.transitions {
            guard let from = transition.from, let to = transition.to else { continue }
            if let index = pairs.firstIndex(where: { $0.from == from && $0.to == to }) {
                pairs[index].transitions.append(transition)
            } else {
                pairs.append((from, to, [transition]))
            }
        }
        if !pairs.isEmpty {
            lines.append("  \\path[->]")
            for pair in pairs {
                let symbols = SketchNames.normalized(pair.transitions.flatMap(\.symbols)).map(escaped)
                    + (pair.transitions.contains(where: \.isEpsilon) ? ["$\\varepsilon$"] : [])
                let edge: String
                if pair.from == pair.to {
                    let side = pair.transitions.first.flatMap { loopSide($0, on: sketch.state(pair.to)) } ?? "above"
                    edge = "edge[loop \(side)]"
                } else if pairs.contains(where: { $0.from == pair.to && $0.to == pair.from }) {
                    edge = "edge[bend left]"
                } else {
                    edge = "edge"
                }
                lines.append("    (s\(pair.from)) \(edge) node {\(symbols.joined(separator: ", "))} (s\(pair.to))")
            }
            lines.append("  ;")
        }
        lines.append("\\end{tikzpicture}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// A whole LaTeX document holding the picture: `pdflatex` turns it into a one-page PDF
    /// whose page is the drawing's size and some room for loops and labels.
    public static func document(_ sketch: Sketch) -> String {
        let xs = sketch.states.map { $0.center.x }, ys = sketch.states.map { $0.center.y }
        let width = ((xs.max() ?? 0) - (xs.min() ?? 0)) / pointsPerCentimetre + 4
        let height = ((ys.max() ?? 0) - (ys.min() ?? 0)) / pointsPerCentimetre + 3.5
        return """
        \\documentclass{article}
        \\usepackage[paperwidth=\(number(max(width, 6)))cm, paperheight=\(number(max(height, 4)))cm, margin=0.5cm]{geometry}
        \\usepackage{tikz}
        \\usetikzlibrary{automata, arrows.meta}
        \\pagestyle{empty}
        \\begin{document}
        \\centering
        \\vspace*{\\fill}

        """ + picture(sketch) + "\n\\vspace*{\\fill}\n\\end{document}\n"
    }

    /// Where the initial arrow comes from: the side of the state its start lies on.
    private static func initialSide(of state: SketchState, in sketch: Sketch) -> String? {
        guard let arrow = sketch.transitions.first(where: { $0.isInitialMarker && $0.to == state.id }) else { return nil }
        return side(of: arrow.geometry.start, from: state.center)
    }

    /// The side of the state a self-loop was drawn on (its apex, the geometry's tip).
    private static func loopSide(_ loop: SketchTransition, on state: SketchState?) -> String? {
        guard let state else { return nil }
        return side(of: loop.geometry.tip, from: state.center)
    }

    /// `above`, `below`, `left` or `right`: the direction from `center` to `point` (y down).
    static func side(of point: SketchPoint, from center: SketchPoint) -> String {
        let dx = point.x - center.x, dy = point.y - center.y
        if abs(dx) > abs(dy) { return dx < 0 ? "left" : "right" }
        return dy < 0 ? "above" : "below"
    }

    private static func number(_ value: Double) -> String {
        String(format: "%.2f", value)
    }

    /// `q0` as $q_{0}$ (a name of letters then digits); other names as escaped text.
    static func label(ofState name: String) -> String {
        let letters = name.prefix { $0.isASCII && $0.isLetter }
        let digits = name.dropFirst(letters.count)
        if !letters.isEmpty, !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) {
            return "$\(letters)_{\(digits)}$"
        }
        return escaped(name)
    }

    /// Text with LaTeX's special characters escaped.
    static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "\\": result += "\\textbackslash{}"
            case "{", "}", "#", "$", "%", "&", "_": result += "\\\(character)"
            case "~": result += "\\textasciitilde{}"
            case "^": result += "\\textasciicircum{}"
            case "ε": result += "$\\varepsilon$"
            default: result.append(character)
            }
        }
        return result
    }
}
