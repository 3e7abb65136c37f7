/// A transition table in the course notation: one row per state, `→` before initial states,
/// `←` before final ones (`→←` for both), one column per symbol and an `ε` column when
/// ε-moves exist. NFA cells are sets (`{q0, q1}`, `∅`); DFA cells are the next state or `–`.
public struct TransitionTable: Hashable, Sendable, CustomStringConvertible {
    public struct Row: Hashable, Sendable {
        /// `→`, `←`, `→←` or empty.
        public var marker: String
        public var state: String
        /// One cell per column.
        public var cells: [String]
    }

    public var columns: [String]
    public var rows: [Row]

    static func marker(initial: Bool, final: Bool) -> String {
        (initial ? "→" : "") + (final ? "←" : "")
    }

    /// The table as aligned text, header first: markers, then the state, then the cells.
    public var description: String {
        let markerWidth = rows.map(\.marker.count).max() ?? 0
        func padded(_ text: String, _ width: Int) -> String {
            text + String(repeating: " ", count: max(0, width - text.count))
        }
        let header = [padded("", markerWidth) + " δ"] + columns
        let lines = [header] + rows.map { [padded($0.marker, markerWidth) + " " + $0.state] + $0.cells }
        let widths = header.indices.map { column in lines.map { $0[column].count }.max() ?? 0 }
        return lines.map { line in
            line.enumerated().map { padded($1, widths[$0]) }.joined(separator: "  ").trimmingTrailingSpaces()
        }.joined(separator: "\n")
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}

extension NFA {
    /// This automaton's transition table.
    public func transitionTable() -> TransitionTable {
        let columns = alphabet + (hasEpsilonMoves ? ["ε"] : [])
        let rows = stateNames.indices.map { state in
            let cells = columns.map { column -> String in
                // Symbols never spell "ε" (SketchNames refuses it), so the ε column is unambiguous.
                let targets = column == "ε" ? epsilonMoves[state] : (moves[state][column] ?? [])
                return targets.isEmpty ? "∅" : "{" + names(targets).joined(separator: ", ") + "}"
            }
            return TransitionTable.Row(
                marker: TransitionTable.marker(initial: initialStates.contains(state), final: finalStates.contains(state)),
                state: stateNames[state], cells: cells)
        }
        return TransitionTable(columns: columns, rows: rows)
    }
}

extension DFA {
    /// This automaton's transition table.
    public func transitionTable() -> TransitionTable {
        let rows = stateNames.indices.map { state in
            TransitionTable.Row(
                marker: TransitionTable.marker(initial: initialState == state, final: finalStates.contains(state)),
                state: stateNames[state],
                cells: alphabet.map { moves[state][$0].map { stateNames[$0] } ?? "–" })
        }
        return TransitionTable(columns: alphabet, rows: rows)
    }
}
