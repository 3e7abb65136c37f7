import Foundation

/// Graphviz DOT export: `dot -Tsvg automaton.dot > automaton.svg`.
public enum GraphvizExport {
    /// The sketch's automaton as a DOT digraph, left to right: final states as double
    /// circles, an arrow from an invisible point into each initial state, one edge per
    /// connected transition labelled with its symbols (and ε).
    public static func dot(_ sketch: Sketch) -> String {
        var lines = ["digraph automaton {", "    rankdir=LR;", "    node [shape=circle];"]
        for state in sketch.states {
            let shape = state.isFinal ? " [shape=doublecircle]" : ""
            lines.append("    \(quoted(state.name))\(shape);")
        }
        for (number, state) in sketch.states.filter({ sketch.isInitial($0.id) }).enumerated() {
            lines.append("    __start\(number) [shape=point, style=invis];")
            lines.append("    __start\(number) -> \(quoted(state.name));")
        }
        for transition in sketch.transitions {
            guard let from = sketch.name(of: transition.from), let to = sketch.name(of: transition.to) else { continue }
            let label = (transition.symbols + (transition.isEpsilon ? ["ε"] : [])).joined(separator: ", ")
            lines.append("    \(quoted(from)) -> \(quoted(to)) [label=\(quoted(label))];")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// A DOT string literal (backslashes and quotes escaped).
    static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
