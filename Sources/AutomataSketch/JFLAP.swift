import Foundation
import InkML

/// Why a sketch could not be written as, or read from, a JFLAP file.
public struct JFLAPError: Error, Hashable, Sendable, CustomStringConvertible {
    public var source: String
    public var problem: String

    public init(source: String, problem: String) {
        self.source = source
        self.problem = problem
    }

    public var description: String { "\(source): \(problem)" }
}

/// JFLAP's `.jff` files for finite automata (JFLAP 6 and 7; JFLAP 4's files, without the
/// `<automaton>` element, are read too):
///
///     <structure><type>fa</type><automaton>
///       <state id="0" name="q0"><x>80.0</x><y>120.0</y><initial/></state>
///       <state id="1" name="q1"><x>200.0</x><y>120.0</y><final/></state>
///       <transition><from>0</from><to>1</to><read>a</read></transition>
///     </automaton></structure>
///
/// JFLAP has one symbol per transition, and an empty `<read/>` is a λ (ε) move; a read of
/// several characters is a string the automaton reads one character after the other. So a
/// transition on symbols `a, b` and ε becomes three JFLAP transitions, and reading a file joins
/// the transitions between the same two states back into one. State positions are the
/// sketch's centres (screen points, y down, as JFLAP's pixels are).
public enum JFLAP {
    /// Largest `.jff` file read, and most states and transitions in it.
    public struct Limits: Sendable, Equatable {
        public var maximumBytes: Int
        public var maximumStates: Int
        public var maximumTransitions: Int

        public init(maximumBytes: Int = 16 << 20, maximumStates: Int = 10_000, maximumTransitions: Int = 100_000) {
            self.maximumBytes = maximumBytes
            self.maximumStates = maximumStates
            self.maximumTransitions = maximumTransitions
        }
    }

    /// The radius states get when read from JFLAP, which draws every state 20 pixels round.
    public static let stateRadius = 20.0

    // MARK: - Writing

    /// The sketch's automaton as a `.jff` document. Arrows with a free end are left out
    /// (they are no transitions, see `Sketch.warnings`). Throws when JFLAP cannot say what the
    /// sketch means: several initial states (JFLAP has one), or a symbol of several characters
    /// (JFLAP would read it as that many symbols).
    public static func jff(_ sketch: Sketch, source: String = "the automaton") throws -> String {
        let initial = sketch.states.filter { sketch.isInitial($0.id) }
        guard initial.count <= 1 else {
            throw JFLAPError(source: source, problem: "JFLAP allows one initial state; this automaton has \(initial.count) (\(initial.map(\.name).joined(separator: ", "))). Keep one initial arrow, or add a start state with ε-moves to each")
        }
        let number = Dictionary(uniqueKeysWithValues: sketch.states.enumerated().map { ($1.id, $0) })
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8" standalone="no"?><!--Created with strokekit.-->"#,
            "<structure>", "\t<type>fa</type>", "\t<automaton>", "\t\t<!--The list of states.-->",
        ]
        for state in sketch.states {
            lines.append("\t\t<state id=\"\(number[state.id]!)\" name=\"\(escaped(state.name))\">")
            lines.append("\t\t\t<x>\(coordinate(state.center.x))</x>")
            lines.append("\t\t\t<y>\(coordinate(state.center.y))</y>")
            if sketch.isInitial(state.id) { lines.append("\t\t\t<initial/>") }
            if state.isFinal { lines.append("\t\t\t<final/>") }
            lines.append("\t\t</state>")
        }
        lines.append("\t\t<!--The list of transitions.-->")
        for transition in sketch.transitions {
            guard let from = transition.from.flatMap({ number[$0] }), let to = transition.to.flatMap({ number[$0] }) else { continue }
            if let long = transition.symbols.first(where: { $0.count != 1 }) {
                throw JFLAPError(source: source, problem: "\(sketch.describe(transition)) reads the symbol \"\(long)\"; JFLAP reads a transition's text one character at a time, so only one-character symbols can be written")
            }
            for read in transition.symbols.map(Optional.some) + (transition.isEpsilon ? [nil] : []) {
                lines.append("\t\t<transition>")
                lines.append("\t\t\t<from>\(from)</from>")
                lines.append("\t\t\t<to>\(to)</to>")
                lines.append(read.map { "\t\t\t<read>\(escaped($0))</read>" } ?? "\t\t\t<read/>")
                lines.append("\t\t</transition>")
            }
        }
        lines += ["\t</automaton>", "</structure>"]
        return lines.joined(separator: "\n") + "\n"
    }

    /// Swift's shortest form that reads back to the same Double, so positions survive a round trip.
    private static func coordinate(_ value: Double) -> String {
        "\(value)"
    }

    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    // MARK: - Reading

    /// Reads a `.jff` file.
    public static func read(contentsOf url: URL, limits: Limits = Limits()) throws -> Sketch {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw JFLAPError(source: url.path, problem: "cannot read the file (\(error.localizedDescription))")
        }
        return try parse(data, source: url.path, limits: limits)
    }

    /// A finite automaton from `.jff` bytes: its states at their positions (named as in the
    /// file, or `q` and the id), initial and final; its transitions, those between the same two
    /// states joined (an empty read is ε). A read of several characters is a path through new
    /// states, one character each, as JFLAP means it. Anything but a finite automaton is refused.
    public static func parse(_ data: Data, source: String, limits: Limits = Limits()) throws -> Sketch {
        func fail(_ problem: String) -> JFLAPError { JFLAPError(source: source, problem: problem) }
        let root: XMLElementNode
        do {
            root = try XMLInput.elementTree(data, maximumBytes: limits.maximumBytes, limitName: "JFLAP.Limits.maximumBytes")
        } catch {
            throw fail((error.line.map { "line \($0): " } ?? "") + error.problem)
        }
        guard root.name == "structure" else {
            throw fail("the root element is <\(root.name)>, not <structure>: not a JFLAP file")
        }
        let type = root.text(of: "type")?.trimmingCharacters(in: .whitespacesAndNewlines)
        guard type == "fa" else {
            throw fail("a JFLAP \(type.map { "\"\($0)\"" } ?? "file without <type>"), not a finite automaton (<type>fa</type>); only finite automata can be read")
        }
        let automaton = root.elements(named: "automaton").first ?? root
        guard automaton.elements(named: "block").isEmpty else {
            throw fail("the automaton uses JFLAP building blocks (<block>); expand them in JFLAP first")
        }
        let stateElements = automaton.elements(named: "state")
        let transitionElements = automaton.elements(named: "transition")
        guard stateElements.count <= limits.maximumStates else {
            throw fail("\(stateElements.count) states, over the limit of \(limits.maximumStates) (JFLAP.Limits.maximumStates)")
        }
        guard transitionElements.count <= limits.maximumTransitions else {
            throw fail("\(transitionElements.count) transitions, over the limit of \(limits.maximumTransitions) (JFLAP.Limits.maximumTransitions)")
        }

        var sketch = Sketch()
        var stateOfID: [String: Int] = [:]
        for element in stateElements {
            guard let id = element.attributes["id"], !id.isEmpty else { throw fail("a <state> without an id") }
            guard stateOfID[id] == nil else { throw fail("two states have id \(id)") }
            func number(_ name: String) throws -> Double {
                guard let text = element.text(of: name) else {
                    throw fail("state \(id) has no <\(name)> position")
                }
                guard let value = Double(text.trimmingCharacters(in: .whitespacesAndNewlines)), value.isFinite, abs(value) <= 1e7 else {
                    throw fail("state \(id): <\(name)> \"\(text.prefix(40))\" is not a number within ±1e7")
                }
                return value
            }
            let name = element.attributes["name"] ?? "q\(id)"
            if let problem = SketchNames.problem(withStateName: name, in: sketch, excluding: nil) {
                throw fail("state \(id): \(problem)")
            }
            let state = SketchState(
                id: sketch.nextStateID, name: name, center: SketchPoint(try number("x"), try number("y")), radius: stateRadius,
                isFinal: !element.elements(named: "final").isEmpty)
            stateOfID[id] = state.id
            sketch.states.append(state)
            sketch.nextStateID += 1
            if !element.elements(named: "initial").isEmpty {
                sketch.add(initialArrowTo: state)
            }
        }

        // Joined by (from, to) in file order: the symbols, and whether any read is empty.
        var joined: [(from: Int, to: Int, symbols: [String], isEpsilon: Bool)] = []
        func add(from: Int, to: Int, read: String?) {
            if let index = joined.firstIndex(where: { $0.from == from && $0.to == to }) {
                if let read { joined[index].symbols = SketchNames.normalized(joined[index].symbols + [read]) } else { joined[index].isEpsilon = true }
            } else {
                joined.append((from, to, read.map { [$0] } ?? [], read == nil))
            }
        }
        for (index, element) in transitionElements.enumerated() {
            func end(_ name: String) throws -> Int {
                guard let text = element.text(of: name)?.trimmingCharacters(in: .whitespacesAndNewlines) else {
                    throw fail("transition \(index + 1) has no <\(name)>")
                }
                guard let state = stateOfID[text] else { throw fail("transition \(index + 1): <\(name)>\(text.prefix(40))</\(name)> names no state") }
                return state
            }
            let from = try end("from"), to = try end("to")
            let read = element.text(of: "read") ?? ""
            let characters = read.map(String.init)
            if let problem = SketchNames.problem(withSymbols: characters) {
                throw fail("transition \(index + 1) reads \"\(read.prefix(40))\": \(problem)")
            }
            guard characters.count > 1 else {
                add(from: from, to: to, read: characters.first)
                continue
            }
            // "abc" from p to q: p -a-> p·1 -b-> p·2 -c-> q, the new states evenly between.
            let start = sketch.state(from)!.center, goal = sketch.state(to)!.center
            var previous = from
            for (step, character) in characters.enumerated() {
                let next: Int
                if step == characters.count - 1 {
                    next = to
                } else {
                    guard sketch.states.count < limits.maximumStates else {
                        throw fail("the states added for multi-character reads pass the limit of \(limits.maximumStates) (JFLAP.Limits.maximumStates)")
                    }
                    let fraction = Double(step + 1) / Double(characters.count)
                    var name = "\(sketch.state(from)!.name)_\(characters[...step].joined())"
                    while sketch.state(named: name) != nil { name += "'" }
                    let center = SketchPoint(start.x + (goal.x - start.x) * fraction, start.y + (goal.y - start.y) * fraction + 2 * stateRadius)
                    let state = SketchState(id: sketch.nextStateID, name: name, center: center, radius: stateRadius)
                    sketch.states.append(state)
                    sketch.nextStateID += 1
                    next = state.id
                }
                add(from: previous, to: next, read: character)
                previous = next
            }
        }
        for transition in joined {
            sketch.add(transitionFrom: transition.from, to: transition.to, symbols: transition.symbols, isEpsilon: transition.isEpsilon)
        }
        return sketch
    }
}

extension Sketch {
    /// Adds an arrow from empty space into `state` (left of it): the state becomes initial.
    mutating func add(initialArrowTo state: SketchState) {
        let tip = SketchPoint(state.center.x - state.radius, state.center.y)
        let start = SketchPoint(tip.x - 2 * state.radius, tip.y)
        transitions.append(SketchTransition(
            id: nextTransitionID, from: nil, to: state.id, kind: .regular,
            geometry: TransitionGeometry(points: [start, tip], start: start, tip: tip)))
        nextTransitionID += 1
    }

    /// Adds a transition drawn as a straight arrow between the states' rims, or a loop above
    /// the state when `from == to`.
    mutating func add(transitionFrom from: Int, to: Int, symbols: [String], isEpsilon: Bool) {
        guard let source = state(from), let target = state(to) else { return }
        let geometry: TransitionGeometry
        if from == to {
            let r = source.radius, c = source.center
            let points = (0...16).map { step -> SketchPoint in
                let angle = Double.pi * (1.25 - 1.5 * Double(step) / 16)  // round the top, left to right
                return SketchPoint(c.x + 0.6 * r * cos(angle), c.y - 1.3 * r - 0.6 * r * sin(angle))
            }
            geometry = TransitionGeometry(points: points, start: points[0], tip: points[8])
        } else {
            let dx = target.center.x - source.center.x, dy = target.center.y - source.center.y
            let length = max((dx * dx + dy * dy).squareRoot(), 1e-9)
            let start = SketchPoint(source.center.x + dx / length * source.radius, source.center.y + dy / length * source.radius)
            let tip = SketchPoint(target.center.x - dx / length * target.radius, target.center.y - dy / length * target.radius)
            geometry = TransitionGeometry(points: [start, tip], start: start, tip: tip)
        }
        transitions.append(SketchTransition(
            id: nextTransitionID, from: from, to: to, symbols: symbols, isEpsilon: isEpsilon,
            kind: from == to ? .selfLoop : .regular, geometry: geometry))
        nextTransitionID += 1
    }
}

extension AutomatonDocument {
    /// Opens an automaton file by its kind: a JFLAP `.jff` file (`JFLAP.read`), otherwise a
    /// `.automaton` document (`load(from:)`).
    public static func open(_ url: URL) throws -> Sketch {
        url.pathExtension.lowercased() == "jff" ? try JFLAP.read(contentsOf: url) : try load(from: url)
    }
}
