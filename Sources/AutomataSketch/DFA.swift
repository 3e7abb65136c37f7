/// A deterministic automaton from the subset construction: each state is an ε-closed set of
/// NFA states. Moves to the empty set are left out (the implicit dead state).
public struct DFA: Codable, Hashable, Sendable {
    /// The NFA states each DFA state stands for, sorted.
    public var stateSets: [[Int]]
    /// `{q0, q1}` style names.
    public var stateNames: [String]
    public var alphabet: [String]
    /// The start state (nil when the NFA has no initial state: every word is rejected).
    public var initialState: Int?
    public var finalStates: Set<Int>
    /// `moves[state][symbol]` = the next state; missing means the dead state.
    public var moves: [[String: Int]]

    /// True when the word (as symbols) ends in a final state.
    public func accepts(symbols word: [String]) -> Bool {
        guard var state = initialState else { return false }
        for symbol in word {
            guard let next = moves[state][symbol] else { return false }
            state = next
        }
        return finalStates.contains(state)
    }
}

extension NFA {
    /// The subset construction: DFA states are the ε-closed state sets reachable from the
    /// initial closure, in the order they are discovered (breadth first, symbols sorted).
    public func determinized() -> DFA {
        var dfa = DFA(stateSets: [], stateNames: [], alphabet: alphabet, initialState: nil, finalStates: [], moves: [])
        guard !initialStates.isEmpty else { return dfa }
        var indexOfSet: [Set<Int>: Int] = [:]
        var queue: [Set<Int>] = []
        func index(of set: Set<Int>) -> Int {
            if let existing = indexOfSet[set] { return existing }
            let index = dfa.stateSets.count
            indexOfSet[set] = index
            dfa.stateSets.append(set.sorted())
            dfa.stateNames.append("{" + names(set).joined(separator: ", ") + "}")
            dfa.moves.append([:])
            if !set.isDisjoint(with: finalStates) { dfa.finalStates.insert(index) }
            queue.append(set)
            return index
        }
        dfa.initialState = index(of: epsilonClosure(initialStates))
        var head = 0
        while head < queue.count {
            let set = queue[head]
            let source = indexOfSet[set]!
            head += 1
            for symbol in alphabet {
                let next = step(set, on: symbol)
                if !next.isEmpty { dfa.moves[source][symbol] = index(of: next) }
            }
        }
        return dfa
    }
}
