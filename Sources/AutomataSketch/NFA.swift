/// A nondeterministic finite automaton with ε-moves. States are numbered `0..<stateNames.count`.
/// Several initial states are allowed (the NFA starts in all of them).
public struct NFA: Codable, Hashable, Sendable {
    public var stateNames: [String]
    /// The input symbols in use, sorted.
    public var alphabet: [String]
    public var initialStates: Set<Int>
    public var finalStates: Set<Int>
    /// `moves[state][symbol]` = the states reachable on `symbol`.
    public var moves: [[String: Set<Int>]]
    /// `epsilonMoves[state]` = the states reachable without reading input, in one step.
    public var epsilonMoves: [Set<Int>]

    /// An automaton with `stateNames.count` states and no moves; add them with `addMove`.
    public init(stateNames: [String], initialStates: Set<Int> = [], finalStates: Set<Int> = []) {
        self.stateNames = stateNames
        self.alphabet = []
        self.initialStates = initialStates
        self.finalStates = finalStates
        self.moves = Array(repeating: [:], count: stateNames.count)
        self.epsilonMoves = Array(repeating: [], count: stateNames.count)
    }

    /// Adds a move from `source` to `target` on `symbol`, or an ε-move when `symbol` is nil.
    public mutating func addMove(from source: Int, to target: Int, on symbol: String?) {
        precondition(stateNames.indices.contains(source) && stateNames.indices.contains(target), "state out of range")
        guard let symbol else {
            epsilonMoves[source].insert(target)
            return
        }
        precondition(symbol != "ε", "ε is not an input symbol: pass nil for an ε-move")
        moves[source][symbol, default: []].insert(target)
        if !alphabet.contains(symbol) {
            alphabet.append(symbol)
            alphabet.sort()
        }
    }

    /// True when some ε-move exists.
    public var hasEpsilonMoves: Bool { epsilonMoves.contains { !$0.isEmpty } }

    /// The states reachable from `states` by ε-moves alone (including `states`).
    public func epsilonClosure(_ states: Set<Int>) -> Set<Int> {
        var closure = states
        var pending = Array(states)
        while let state = pending.popLast() {
            for next in epsilonMoves[state] where closure.insert(next).inserted {
                pending.append(next)
            }
        }
        return closure
    }

    /// The ε-closed set of states after reading `symbol` in `states`.
    public func step(_ states: Set<Int>, on symbol: String) -> Set<Int> {
        var reached = Set<Int>()
        for state in states { reached.formUnion(moves[state][symbol] ?? []) }
        return epsilonClosure(reached)
    }

    /// Splits a word into symbols of this alphabet. Words written with spaces or commas
    /// (`"a b a"`, `"10,11"`) split there; otherwise the longest symbol of the alphabet that
    /// matches is taken at each position, and a character matching none is one (unknown) symbol.
    /// The empty word has no symbols.
    public func symbols(of word: String) -> [String] {
        if word.contains(where: { $0.isWhitespace || $0 == "," }) {
            return word.split(whereSeparator: { $0.isWhitespace || $0 == "," }).map(String.init)
        }
        let byLength = alphabet.sorted { $0.count > $1.count }
        var result: [String] = []
        var rest = Substring(word)
        while !rest.isEmpty {
            let match = byLength.first { rest.hasPrefix($0) } ?? String(rest.first!)
            result.append(match)
            rest = rest.dropFirst(match.count)
        }
        return result
    }

    /// The names of `states`, in state order.
    public func names(_ states: Set<Int>) -> [String] {
        states.sorted().map { stateNames[$0] }
    }
}

extension Sketch {
    /// The automaton the sketch draws: one NFA state per sketch state (in sketch order), a move
    /// per symbol of every connected transition, an ε-move for every ε transition; states with
    /// an arrow from empty space are initial. Unconnected arrows are ignored (see `warnings`).
    public func automaton() -> NFA {
        let indexOfState = Dictionary(uniqueKeysWithValues: states.enumerated().map { ($1.id, $0) })
        var nfa = NFA(
            stateNames: states.map(\.name),
            initialStates: Set(states.indices.filter { isInitial(states[$0].id) }),
            finalStates: Set(states.indices.filter { states[$0].isFinal }))
        for transition in transitions {
            guard let from = transition.from.flatMap({ indexOfState[$0] }),
                let to = transition.to.flatMap({ indexOfState[$0] })
            else { continue }
            for symbol in transition.symbols { nfa.addMove(from: from, to: to, on: symbol) }
            if transition.isEpsilon { nfa.addMove(from: from, to: to, on: nil) }
        }
        return nfa
    }
}
