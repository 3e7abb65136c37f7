/// What one eraser stroke did.
public struct EraseOutcome: Hashable, Sendable, CustomStringConvertible {
    /// Final states whose outer circle was erased: they are now ordinary states.
    public var madeNonFinal: [String] = []
    /// States removed, with the transitions attached to them.
    public var removedStates: [String] = []
    /// Transitions removed (crossed, or attached to a removed state).
    public var removedTransitions: [String] = []
    /// Handwritten labels removed (crossed, or belonging to a removed state or transition), as read.
    public var removedLabels: [String] = []

    /// True when the eraser crossed nothing.
    public var isEmpty: Bool {
        madeNonFinal.isEmpty && removedStates.isEmpty && removedTransitions.isEmpty && removedLabels.isEmpty
    }

    public var description: String {
        if isEmpty { return "nothing erased: the eraser stroke crossed no state, transition or label" }
        var parts: [String] = []
        if !madeNonFinal.isEmpty { parts.append("made non-final: " + madeNonFinal.joined(separator: ", ")) }
        if !removedStates.isEmpty { parts.append("removed states: " + removedStates.joined(separator: ", ")) }
        if !removedTransitions.isEmpty {
            parts.append("removed transitions: " + removedTransitions.joined(separator: ", "))
        }
        if !removedLabels.isEmpty { parts.append("removed labels: " + removedLabels.joined(separator: ", ")) }
        return parts.joined(separator: "; ")
    }
}

extension Sketch {
    /// How close (in median state radii) an eraser must pass to a transition's line to
    /// cross it: pens are imprecise, and a transition is a thin target.
    static let eraserTransitionTolerance = 0.15

    /// Erases what the eraser stroke crosses. A final state first loses its final mark (its
    /// outer circle); an ordinary state is removed with every transition attached to it.
    mutating func erase(_ strokes: [[SketchPoint]]) -> EraseOutcome {
        let eraser = strokes.filter { !$0.isEmpty }
        var outcome = EraseOutcome()
        guard !eraser.isEmpty else { return outcome }

        let hitStates = states.filter { state in
            eraser.contains { Geometry.distance(state.center, toPolyline: $0) <= state.outerRadius }
        }
        // A transition counts as crossed only outside the states hit, since arrows start and
        // end inside circles and a scribble over a state would otherwise take them too.
        let tolerance = Self.eraserTransitionTolerance * (typicalRadius ?? 0)
        let hitTransitionIDs = Set(transitions.filter { transition in
            let outside = transition.geometry.points.filter { point in
                !hitStates.contains { Geometry.distance(point, $0.center) <= $0.outerRadius }
            }
            return eraser.contains { Geometry.distance(betweenPolylines: $0, outside) <= tolerance }
        }.map(\.id))

        var removedStateIDs = Set<Int>()
        for state in hitStates {
            let index = states.firstIndex { $0.id == state.id }!
            if state.isFinal {
                states[index].isFinal = false
                states[index].finalCircle = nil
                outcome.madeNonFinal.append(state.name)
            } else {
                removedStateIDs.insert(state.id)
                outcome.removedStates.append(state.name)
            }
        }
        let removedTransitions = transitions.filter { transition in
            hitTransitionIDs.contains(transition.id)
                || transition.from.map(removedStateIDs.contains) == true
                || transition.to.map(removedStateIDs.contains) == true
        }
        outcome.removedTransitions = removedTransitions.map(describe)
        let removedTransitionIDs = Set(removedTransitions.map(\.id))
        transitions.removeAll { removedTransitionIDs.contains($0.id) }
        states.removeAll { removedStateIDs.contains($0.id) }
        return outcome
    }
}
