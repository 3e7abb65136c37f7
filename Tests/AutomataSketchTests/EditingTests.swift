import AutomataSketch
import StrokeImage
import Testing

/// Editing (issue 4, part 3): symbols, ε, renaming, erasing, clearing, undo and redo.
@Suite struct EditingTests {
    let left = SketchPoint(100, 100)
    let right = SketchPoint(300, 100)
    let radius = 40.0

    /// q0 → q1 on "a", an initial arrow into q0, q1 final.
    func smallAutomaton() -> SketchEditor {
        var editor = SketchEditor()
        _ = editor.add(Pen.circle(left, radius), as: .circle)
        _ = editor.add(Pen.circle(right, radius), as: .circle)
        _ = editor.add(Pen.circle(right, radius * 1.25), as: .circle)
        _ = editor.add(Pen.arrow(left + SketchPoint(45, 0), right - SketchPoint(45, 0)), as: .arrow, symbols: ["a"])
        _ = editor.add(Pen.arrow(left - SketchPoint(120, 0), left - SketchPoint(45, 0)), as: .arrow)
        return editor
    }

    @Test func setSymbolsAllowsSeveralAndEpsilon() throws {
        var editor = smallAutomaton()
        let id = editor.sketch.transitions[0].id
        try editor.setSymbols(["a", "b", "a"], isEpsilon: true, forTransition: id)
        let transition = try #require(editor.sketch.transition(id))
        #expect(transition.symbols == ["a", "b"])
        #expect(transition.isEpsilon)
        let nfa = editor.sketch.automaton()
        #expect(nfa.alphabet == ["a", "b"])
        #expect(nfa.epsilonMoves[0] == [1])
        #expect(nfa.simulate("").isAccepted, "ε-move from the initial state reaches the final one")
    }

    @Test func setSymbolsRejectsBadSymbolsAndUnknownTransitions() {
        var editor = smallAutomaton()
        let id = editor.sketch.transitions[0].id
        #expect(throws: SketchEditError.self) { try editor.setSymbols(["ε"], isEpsilon: false, forTransition: id) }
        #expect(throws: SketchEditError.unknownTransition(99)) { try editor.setSymbols(["a"], isEpsilon: false, forTransition: 99) }
        let marker = editor.sketch.transitions[1].id
        #expect(throws: SketchEditError.self) { try editor.setSymbols(["a"], isEpsilon: false, forTransition: marker) }
    }

    @Test func renameChangesNameEverywhere() throws {
        var editor = smallAutomaton()
        let id = try #require(editor.sketch.state(named: "q1")).id
        try editor.rename(state: id, to: "accept")
        #expect(editor.sketch.automaton().stateNames == ["q0", "accept"])
        #expect(editor.sketch.automaton().simulate("a").trace.last?.states == ["accept"])
    }

    @Test func renameRejectsDuplicateAndEmptyNames() throws {
        var editor = smallAutomaton()
        let id = try #require(editor.sketch.state(named: "q1")).id
        #expect(throws: SketchEditError.self) { try editor.rename(state: id, to: "q0") }
        #expect(throws: SketchEditError.self) { try editor.rename(state: id, to: "") }
        #expect(throws: SketchEditError.unknownState(42)) { try editor.rename(state: 42, to: "x") }
        try editor.rename(state: id, to: "q1")  // keeping one's own name is fine
    }

    @Test func eraserAcrossTransitionRemovesOnlyIt() {
        var editor = smallAutomaton()
        let outcome = editor.erase(Pen.through([SketchPoint(200, 60), SketchPoint(200, 140)]))
        #expect(outcome.removedTransitions == ["transition q0 → q1"])
        #expect(outcome.removedStates.isEmpty && outcome.madeNonFinal.isEmpty)
        #expect(editor.sketch.transitions.count == 1)
        #expect(editor.sketch.states.count == 2)
    }

    @Test func erasingFinalStateFirstMakesItNonFinalThenRemovesIt() throws {
        var editor = smallAutomaton()
        let scribble = Pen.through([right + SketchPoint(-20, -20), right + SketchPoint(20, 20)])
        let first = editor.erase(scribble)
        #expect(first.madeNonFinal == ["q1"])
        #expect(try #require(editor.sketch.state(named: "q1")).isFinal == false)
        let second = editor.erase(scribble)
        #expect(second.removedStates == ["q1"])
        #expect(second.removedTransitions == ["transition q0 → q1"])
        #expect(editor.sketch.states.map(\.name) == ["q0"])
    }

    @Test func erasingStateRemovesAttachedTransitionsIncludingInitialArrow() {
        var editor = smallAutomaton()
        let outcome = editor.erase(Pen.through([left + SketchPoint(-10, -10), left + SketchPoint(10, 10)]))
        #expect(outcome.removedStates == ["q0"])
        #expect(Set(outcome.removedTransitions) == ["transition q0 → q1", "transition ? → q0"])
        #expect(editor.sketch.transitions.isEmpty)
    }

    @Test func eraserCrossingNothingChangesNothingAndSaysSo() {
        var editor = smallAutomaton()
        let before = editor.sketch
        let outcome = editor.erase(Pen.through([SketchPoint(500, 500), SketchPoint(520, 520)]))
        #expect(outcome.isEmpty)
        #expect(outcome.description.contains("nothing erased"))
        #expect(editor.sketch == before)
    }

    @Test func clearEmptiesAndUndoRestores() {
        var editor = smallAutomaton()
        let before = editor.sketch
        editor.clear()
        #expect(editor.sketch.states.isEmpty && editor.sketch.transitions.isEmpty)
        let undone = editor.undo()
        #expect(undone)
        #expect(editor.sketch == before)
    }

    @Test func everyChangeUndoesAndRedoesInOrder() throws {
        var editor = SketchEditor()
        var history = [editor.sketch]
        func record() { history.append(editor.sketch) }
        _ = editor.add(Pen.circle(left, radius), as: .circle); record()
        _ = editor.add(Pen.circle(right, radius), as: .circle); record()
        _ = editor.add(Pen.arrow(left + SketchPoint(45, 0), right - SketchPoint(45, 0)), as: .arrow); record()
        _ = editor.add(Pen.circle(right, radius * 1.25), as: .circle); record()
        try editor.setSymbols(["0"], isEpsilon: false, forTransition: editor.sketch.transitions[0].id); record()
        try editor.rename(state: editor.sketch.states[0].id, to: "s"); record()
        editor.erase(Pen.through([SketchPoint(200, 60), SketchPoint(200, 140)])); record()
        editor.clear(); record()
        for expected in history.reversed().dropFirst() {
            let undone = editor.undo()
            #expect(undone)
            #expect(editor.sketch == expected)
        }
        let extraUndo = editor.undo()
        #expect(!extraUndo, "nothing left to undo")
        for expected in history.dropFirst() {
            let redone = editor.redo()
            #expect(redone)
            #expect(editor.sketch == expected)
        }
        let extraRedo = editor.redo()
        #expect(!extraRedo, "nothing left to redo")
    }

    @Test func newChangeAfterUndoDropsRedo() {
        var editor = SketchEditor()
        _ = editor.add(Pen.circle(left, radius), as: .circle)
        _ = editor.add(Pen.circle(right, radius), as: .circle)
        editor.undo()
        _ = editor.add(Pen.circle(SketchPoint(100, 300), radius), as: .circle)
        #expect(!editor.canRedo)
        #expect(editor.sketch.states.map(\.name) == ["q0", "q1"])
    }
}
