/// Why a word was rejected, in words a student can act on.
public enum RejectionReason: Hashable, Sendable, Codable, CustomStringConvertible {
    /// No state is initial, so no word can be accepted.
    case noInitialState
    /// The symbol at `position` (1-based) is not used by any transition.
    case symbolOutsideAlphabet(symbol: String, position: Int, alphabet: [String])
    /// No transition leaves the active states on the symbol at `position` (1-based).
    case noMove(symbol: String, position: Int, from: [String])
    /// The whole word was read but none of the active states is final.
    case endedInNoFinalState(states: [String])

    public var description: String {
        switch self {
        case .noInitialState:
            return "no initial state: draw an arrow from empty space into the start state"
        case let .symbolOutsideAlphabet(symbol, position, alphabet):
            let known = alphabet.isEmpty ? "no transition has a symbol yet" : "the alphabet is {\(alphabet.joined(separator: ", "))}"
            return "symbol \"\(symbol)\" at position \(position) is not in the alphabet (\(known))"
        case let .noMove(symbol, position, from):
            return "no move on \"\(symbol)\" at position \(position) from {\(from.joined(separator: ", "))}"
        case let .endedInNoFinalState(states):
            return "the word ended in {\(states.joined(separator: ", "))}, and none of these states is final"
        }
    }
}

/// One line of a simulation trace: the active states after reading `symbol` (ε-closures
/// included). The first step has no symbol: the closure of the initial states.
public struct TraceStep: Hashable, Sendable, Codable {
    public var symbol: String?
    public var states: [String]

    public init(symbol: String?, states: [String]) {
        self.symbol = symbol
        self.states = states
    }

    private enum CodingKeys: String, CodingKey { case symbol, states }

    /// Writes `"symbol": null` for the initial step, so every step has both keys.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(symbol, forKey: .symbol)
        try container.encode(states, forKey: .states)
    }
}

/// The result of running a word on an automaton.
public struct SimulationResult: Hashable, Sendable {
    /// The word as given.
    public var input: String
    /// The word split into symbols.
    public var symbols: [String]
    public var isAccepted: Bool
    /// Why the word was rejected (nil when accepted).
    public var reason: RejectionReason?
    /// The active state sets, one per symbol read, after the initial closure.
    public var trace: [TraceStep]

    /// `q0 –a→ {q0, q1} –b→ {q2}` style one-line trace.
    public var traceDescription: String {
        trace.map { step in
            let set = "{\(step.states.joined(separator: ", "))}"
            return step.symbol.map { "–\($0)→ \(set)" } ?? set
        }.joined(separator: " ")
    }
}

extension NFA {
    /// Runs `word` (split with `symbols(of:)`) with NFA semantics: the automaton is in a set of
    /// states at once and accepts when a final state is active after the last symbol.
    public func simulate(_ word: String) -> SimulationResult {
        simulate(symbols: symbols(of: word), input: word)
    }

    /// Runs a word given as symbols.
    public func simulate(symbols word: [String], input: String? = nil) -> SimulationResult {
        var result = SimulationResult(
            input: input ?? word.joined(), symbols: word, isAccepted: false, reason: nil, trace: [])
        guard !initialStates.isEmpty else {
            result.reason = .noInitialState
            return result
        }
        // A symbol outside the alphabet is the more useful reason even when the run dies earlier.
        let unknown = word.firstIndex { !alphabet.contains($0) }
        let unknownReason = unknown.map {
            RejectionReason.symbolOutsideAlphabet(symbol: word[$0], position: $0 + 1, alphabet: alphabet)
        }
        var active = epsilonClosure(initialStates)
        result.trace.append(TraceStep(symbol: nil, states: names(active)))
        for (offset, symbol) in word.enumerated() {
            if offset == unknown {
                result.reason = unknownReason
                return result
            }
            let next = step(active, on: symbol)
            guard !next.isEmpty else {
                result.reason = unknownReason ?? .noMove(symbol: symbol, position: offset + 1, from: names(active))
                return result
            }
            active = next
            result.trace.append(TraceStep(symbol: symbol, states: names(active)))
        }
        result.isAccepted = !active.isDisjoint(with: finalStates)
        if !result.isAccepted { result.reason = .endedInNoFinalState(states: names(active)) }
        return result
    }
}
