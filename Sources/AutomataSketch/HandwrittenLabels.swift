import StrokeImage
import StrokeSupport

/// The strokes of one handwritten label of a diagram and what it labels: the input of
/// `HandwrittenLabels.read`, for labels already grouped and attached (by a person, or by
/// another program).
public struct LabelStrokes: Hashable, Sendable {
    /// The label's strokes, in drawing order.
    public var strokes: [Stroke]
    /// What it labels: a transition (its symbols), a state (its name), or nothing.
    public var owner: LabelOwner

    public init(strokes: [Stroke], owner: LabelOwner) {
        self.strokes = strokes
        self.owner = owner
    }
}

/// Reading a diagram's handwritten labels: the one way the reader reads them, once its text
/// stage has grouped the text strokes into labels and attached each to a state or a
/// transition. Each label's characters are read with the diagram's context, the votes over
/// all its labels (`CharacterReading`: its transitions' alphabet, its names' form), so the
/// same strokes read the same here and in `SketchReader`.
public enum HandwrittenLabels {
    /// Reads the labels of one diagram, given as the writer grouped them and with what each
    /// labels, as `SketchReader` reads the labels it found in the ink: a label of a
    /// transition gives its symbols (the reader gives none for an initial arrow's, which a
    /// `LabelOwner` does not tell apart), a state's label is its name. Owners' ids are not
    /// read. Uses the bundled character model; throws when it cannot be loaded.
    public static func read(_ labels: [LabelStrokes]) throws -> [HandwrittenLabel] {
        guard CharacterReading.model != nil else { throw CharacterReadingError.noModel }
        var ink: [InkStroke] = []
        var groups: [[Int]] = []
        for label in labels {
            var group: [Int] = []
            for stroke in label.strokes {
                group.append(ink.count)
                ink.append(InkStroke(stroke: stroke, drawing: ink.count))
            }
            groups.append(group)
        }
        let takesSymbols = labels.map { if case .transition = $0.owner { true } else { false } }
        var cache = ClassificationCache()
        return read(groups, owners: labels.map(\.owner), takesSymbols: takesSymbols, ink: ink, cache: &cache)
    }

    /// The labels `groups` (indices into `ink`) read with the diagram's context: the text
    /// stage's reading once its labels are grouped and attached (`owners`); a label gives
    /// symbols only where `takesSymbols` says so (an initial arrow takes none).
    static func read(
        _ groups: [[Int]], owners: [LabelOwner], takesSymbols: [Bool], ink: [InkStroke], cache: inout ClassificationCache
    ) -> [HandwrittenLabel] {
        let isName = owners.map { if case .state = $0 { true } else { false } }
        let readings = CharacterReading.read(labels: groups, isName: isName, ink: ink, cache: &cache)
        return groups.indices.map { index in
            let read = readings[index]
            return HandwrittenLabel(
                strokes: groups[index], box: LabelBox(groups[index].flatMap { ink[$0].stroke.sketchPoints }),
                text: read.text, symbols: takesSymbols[index] ? read.symbols : [], confidence: read.confidence,
                alternatives: read.alternatives, owner: owners[index])
        }
    }

    /// The property of a QuickDraw drawing that names the diagram a label belongs to.
    public static let diagramProperty = "diagram"
    /// The property of a QuickDraw drawing that says what the label labels: `transition`,
    /// `state` or `nothing`.
    public static let ownerProperty = "of"

    /// One diagram's labels read from QuickDraw drawings (one drawing a label).
    public struct Diagram: Sendable {
        public var name: String
        public var labels: [LabelStrokes]
        /// The drawings the labels came from, in the same order.
        public var drawings: [QuickDrawDrawing]
    }

    /// The diagrams of QuickDraw ndjson drawings, one drawing a label with the properties
    /// `diagram` (its diagram's name) and `of` (`transition`, `state` or `nothing`), in order
    /// of their first label. A drawing without them throws, naming `source` and its line.
    public static func diagrams(from drawings: [QuickDrawDrawing], source: String) throws -> [Diagram] {
        var diagrams: [Diagram] = []
        var index: [String: Int] = [:]
        for drawing in drawings {
            guard case .string(let name)? = drawing.properties[diagramProperty] else {
                throw HandwrittenLabelsError.missing(source: source, line: drawing.lineNumber, property: diagramProperty)
            }
            let owner: LabelOwner
            switch drawing.properties[ownerProperty] {
            case .string("transition")?: owner = .transition(0)
            case .string("state")?: owner = .state(0)
            case .string("nothing")?: owner = .nothing
            default: throw HandwrittenLabelsError.missing(source: source, line: drawing.lineNumber, property: ownerProperty)
            }
            if index[name] == nil {
                index[name] = diagrams.count
                diagrams.append(Diagram(name: name, labels: [], drawings: []))
            }
            diagrams[index[name]!].labels.append(LabelStrokes(strokes: drawing.strokes, owner: owner))
            diagrams[index[name]!].drawings.append(drawing)
        }
        return diagrams
    }
}

/// Labels that cannot be read from a file: the message names the file and the line.
public enum HandwrittenLabelsError: Error, CustomStringConvertible, Hashable, Sendable {
    case missing(source: String, line: Int, property: String)

    public var description: String {
        switch self {
        case let .missing(source, line, property):
            let expected = property == HandwrittenLabels.ownerProperty ? "\"transition\", \"state\" or \"nothing\"" : "a string"
            return "\(source):\(line): a label needs the key \"\(property)\" (\(expected))"
        }
    }
}
