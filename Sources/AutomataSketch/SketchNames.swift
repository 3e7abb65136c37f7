/// The rules for state names and transition symbols, shared by drawing and editing.
enum SketchNames {
    /// Why `name` cannot name a state of `sketch` (nil when it can). `excluding` is the state
    /// being renamed, which may keep its own name.
    static func problem(withStateName name: String, in sketch: Sketch, excluding: Int?) -> String? {
        if name.isEmpty || name.allSatisfy(\.isWhitespace) {
            return "a state name cannot be empty"
        }
        if name.first!.isWhitespace || name.last!.isWhitespace {
            return "the state name \"\(name)\" starts or ends with a space; remove it"
        }
        if let bad = name.first(where: { "{},\"".contains($0) || $0.isNewline }) {
            return "the state name \"\(name)\" contains \"\(bad)\", which the transition table uses; choose another name"
        }
        if let other = sketch.state(named: name), other.id != excluding {
            return "a state named \(name) already exists; choose another name"
        }
        return nil
    }

    /// Why `symbols` cannot label a transition (nil when they can).
    static func problem(withSymbols symbols: [String]) -> String? {
        for symbol in symbols {
            if symbol.isEmpty {
                return "a symbol cannot be empty; for a move without input mark the transition ε instead"
            }
            if symbol == "ε" || symbol.lowercased() == "eps" || symbol.lowercased() == "epsilon" {
                return "\"\(symbol)\" is not an input symbol; mark the transition ε (epsilon) instead"
            }
            if let bad = symbol.first(where: { $0.isWhitespace || ",{}\"".contains($0) }) {
                return "the symbol \"\(symbol)\" contains \"\(bad)\"; give several symbols as separate entries (e.g. [\"0\", \"1\"])"
            }
        }
        return nil
    }

    /// The symbols without repeats, in the order given.
    static func normalized(_ symbols: [String]) -> [String] {
        var seen = Set<String>()
        return symbols.filter { seen.insert($0).inserted }
    }
}
