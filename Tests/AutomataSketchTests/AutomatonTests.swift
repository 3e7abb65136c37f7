import AutomataSketch
import StrokeTensor
import Testing
import StrokeSupport

/// NFA with ε-moves, simulation with reasons and trace, subset construction, transition table.
@Suite struct AutomatonTests {
    /// Words over {0,1} ending in "01": q0 -0,1-> q0, q0 -0-> q1, q1 -1-> q2 (final).
    func endsIn01() -> NFA {
        var nfa = NFA(stateNames: ["q0", "q1", "q2"], initialStates: [0], finalStates: [2])
        nfa.addMove(from: 0, to: 0, on: "0")
        nfa.addMove(from: 0, to: 0, on: "1")
        nfa.addMove(from: 0, to: 1, on: "0")
        nfa.addMove(from: 1, to: 2, on: "1")
        return nfa
    }

    @Test func simulationFollowsNFASemantics() {
        let nfa = endsIn01()
        for word in ["01", "1101", "0001", "101"] { #expect(nfa.simulate(word).isAccepted, "\(word)") }
        for word in ["", "0", "10", "011", "0110"] { #expect(!nfa.simulate(word).isAccepted, "\(word)") }
    }

    @Test func traceListsActiveSetAfterEachSymbol() {
        let result = endsIn01().simulate("001")
        #expect(result.trace == [
            TraceStep(symbol: nil, states: ["q0"]),
            TraceStep(symbol: "0", states: ["q0", "q1"]),
            TraceStep(symbol: "0", states: ["q0", "q1"]),
            TraceStep(symbol: "1", states: ["q0", "q2"]),
        ])
        #expect(result.traceDescription == "{q0} –0→ {q0, q1} –0→ {q0, q1} –1→ {q0, q2}")
    }

    @Test func traceIncludesEpsilonClosures() {
        var nfa = NFA(stateNames: ["a", "b", "c"], initialStates: [0], finalStates: [2])
        nfa.addMove(from: 0, to: 1, on: nil)
        nfa.addMove(from: 1, to: 2, on: "x")
        nfa.addMove(from: 2, to: 0, on: nil)
        let result = nfa.simulate("x")
        #expect(result.trace.map(\.states) == [["a", "b"], ["a", "b", "c"]])
        #expect(result.isAccepted)
    }

    @Test func rejectionReasonsAreSpecific() {
        let nfa = endsIn01()
        #expect(nfa.simulate("0").reason == .endedInNoFinalState(states: ["q0", "q1"]))
        #expect(nfa.simulate("0a1").reason == .symbolOutsideAlphabet(symbol: "a", position: 2, alphabet: ["0", "1"]))
        #expect(nfa.simulate("0a1").trace.count == 2, "the trace runs up to the unknown symbol")
        var partial = NFA(stateNames: ["p", "q"], initialStates: [0], finalStates: [1])
        partial.addMove(from: 0, to: 1, on: "a")
        partial.addMove(from: 0, to: 0, on: "b")
        #expect(partial.simulate("aa").reason == .noMove(symbol: "a", position: 2, from: ["q"]))
        #expect(partial.simulate("aa").trace.count == 2, "the trace stops at the last active set")
        #expect(
            partial.simulate("aac").reason == .symbolOutsideAlphabet(symbol: "c", position: 3, alphabet: ["a", "b"]),
            "an unknown symbol is reported even when the run dies before it")
        let noStart = NFA(stateNames: ["p"], initialStates: [], finalStates: [0])
        #expect(noStart.simulate("").reason == .noInitialState)
        #expect(RejectionReason.noInitialState.description.contains("draw an arrow from empty space"))
    }

    @Test func severalInitialStatesRunTogether() {
        var nfa = NFA(stateNames: ["a", "b"], initialStates: [0, 1], finalStates: [1])
        nfa.addMove(from: 0, to: 0, on: "x")
        #expect(nfa.simulate("").isAccepted)
        #expect(nfa.simulate("x").reason == .endedInNoFinalState(states: ["a"]))
    }

    @Test func emptyWordIsAcceptedExactlyWhenAnInitialClosureStateIsFinal() {
        var nfa = NFA(stateNames: ["s", "f"], initialStates: [0], finalStates: [1])
        nfa.addMove(from: 0, to: 1, on: "a")
        #expect(!nfa.simulate("").isAccepted)
        nfa.addMove(from: 0, to: 1, on: nil)
        #expect(nfa.simulate("").isAccepted)
        #expect(nfa.simulate("").trace == [TraceStep(symbol: nil, states: ["s", "f"])])
    }

    @Test func wordsSplitIntoMultiCharacterSymbols() {
        var nfa = NFA(stateNames: ["s"], initialStates: [0], finalStates: [0])
        nfa.addMove(from: 0, to: 0, on: "ab")
        nfa.addMove(from: 0, to: 0, on: "a")
        #expect(nfa.symbols(of: "aba") == ["ab", "a"])
        #expect(nfa.symbols(of: "a ab") == ["a", "ab"])
        #expect(nfa.symbols(of: "a,ab") == ["a", "ab"])
        #expect(nfa.symbols(of: "") == [])
    }

    @Test func subsetConstructionBuildsReachableSets() {
        let dfa = endsIn01().determinized()
        #expect(dfa.stateNames == ["{q0}", "{q0, q1}", "{q0, q2}"])
        #expect(dfa.initialState == 0)
        #expect(dfa.finalStates == [2])
        #expect(dfa.moves[1]["1"] == 2 && dfa.moves[2]["0"] == 1 && dfa.moves[2]["1"] == 0)
    }

    @Test func transitionTableUsesCourseNotation() {
        var nfa = endsIn01()
        nfa.addMove(from: 2, to: 0, on: nil)
        let table = nfa.transitionTable().description
        let expected = """
              δ   0         1     ε
            → q0  {q0, q1}  {q0}  ∅
              q1  ∅         {q2}  ∅
            ← q2  ∅         ∅     {q0}
            """
        #expect(table == expected, "\n\(table)")
        let dfaTable = endsIn01().determinized().transitionTable().description
        #expect(dfaTable.contains("→ {q0}"), "\n\(dfaTable)")
        #expect(dfaTable.contains("← {q0, q2}"), "\n\(dfaTable)")
    }

    @Test func initialAndFinalStateIsMarkedBothWays() {
        let nfa = NFA(stateNames: ["q0"], initialStates: [0], finalStates: [0])
        #expect(nfa.transitionTable().rows[0].marker == "→←")
    }

    /// Property: on random NFAs with ε-moves and random words, the NFA simulation and the
    /// subset-construction DFA give the same verdict.
    @Test func simulationAgreesWithDFAOnRandomAutomata() {
        var random = SeededGenerator(seed: 2024)
        let alphabet = ["a", "b", "c"]
        var disagreements: [String] = []
        for automatonNumber in 0..<200 {
            let stateCount = 1 + Int(random.next() % 6)
            var nfa = NFA(
                stateNames: (0..<stateCount).map { "s\($0)" },
                initialStates: Set((0..<stateCount).filter { _ in random.nextUnit() < 0.3 }),
                finalStates: Set((0..<stateCount).filter { _ in random.nextUnit() < 0.4 }))
            for source in 0..<stateCount {
                for target in 0..<stateCount {
                    for symbol in alphabet where random.nextUnit() < 0.2 { nfa.addMove(from: source, to: target, on: symbol) }
                    if random.nextUnit() < 0.12 { nfa.addMove(from: source, to: target, on: nil) }
                }
            }
            let dfa = nfa.determinized()
            for _ in 0..<40 {
                let length = Int(random.next() % 7)
                let word = (0..<length).map { _ in alphabet[Int(random.next() % 3)] }
                let simulated = nfa.simulate(symbols: word).isAccepted
                if simulated != dfa.accepts(symbols: word) {
                    disagreements.append("automaton \(automatonNumber), word \(word): NFA \(simulated)")
                }
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
    }
}
