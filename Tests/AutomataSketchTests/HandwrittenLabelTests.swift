@testable import AutomataSketch
import Foundation
import StrokeImage
import StrokeKit
import Testing
import TestSupport

/// Handwritten labels in the ink: decided text in context (never a state, an arrow or a loop),
/// grouped, attached to the transition beside them or the state they are written in, and read
/// with the bundled character model (`CharacterReading`).
@Suite struct HandwrittenLabelTests {
    let a = SketchPoint(100, 100), b = SketchPoint(300, 100)
    let radius = 30.0

    /// A `0`: an oval `height` tall round `center`.
    static func zero(_ center: SketchPoint, height: Double = 16) -> Stroke {
        Stroke((0...24).map { index in
            let angle = -Double.pi / 2 - 2 * Double.pi * Double(index) / 24
            return (center.x + 0.32 * height * cos(angle), center.y + 0.5 * height * sin(angle))
        })
    }

    /// A `1`: a short flag, then straight down, `height` tall round `center`.
    static func one(_ center: SketchPoint, height: Double = 16) -> Stroke {
        let top = center - SketchPoint(0, height / 2)
        return Stroke([(top.x - 0.2 * height, top.y + 0.2 * height)] + (0...10).map { index in
            (top.x, top.y + height * Double(index) / 10)
        })
    }

    /// A `,` at the bottom of a line `height` tall round `center`.
    static func comma(_ center: SketchPoint, height: Double = 16) -> Stroke {
        let start = center + SketchPoint(0, 0.3 * height)
        return Stroke((0...4).map { index in (start.x - 0.05 * height * Double(index), start.y + 0.08 * height * Double(index)) })
    }

    /// The label `0,1` written with its line centred on `center`.
    static func zeroCommaOne(_ center: SketchPoint) -> [Stroke] {
        [zero(center - SketchPoint(10, 0)), comma(center), one(center + SketchPoint(9, 0))]
    }

    /// Reads `strokes` (one drawing each) with a classifier that calls the first `shapes`
    /// strokes what the list says, and everything else a circle (the worst case for text).
    func read(_ strokes: [Stroke], shapes: [String], symbols: [Int: [String]] = [:]) throws -> SketchReading {
        var classifier = ScriptedClassifier()
        for (index, stroke) in strokes.enumerated() {
            classifier.remember([stroke], as: index < shapes.count ? shapes[index] : "circle")
        }
        let ink = strokes.enumerated().map { InkStroke(stroke: $1, drawing: $0, symbols: symbols[$0] ?? []) }
        var cache = ClassificationCache()
        return try SketchReader.read(ink, classifier: classifier, cache: &cache)
    }

    /// Two states, an arrow from a to b and an initial arrow into a.
    var structure: [Stroke] {
        [
            Pen.circle(a, radius), Pen.circle(b, radius), Pen.arrow(a + SketchPoint(radius, 0), b - SketchPoint(radius, 0)),
            Pen.arrow(a - SketchPoint(110, 0), a - SketchPoint(radius, 0)),
        ]
    }
    let shapes = ["circle", "circle", "arrow", "arrow"]

    @Test func labelBesideAnArrowGivesItsSymbolsAndTextInsideAStateNamesIt() throws {
        // `0,1` above the arrow's middle; a `0` written inside state b (its name); the scripted
        // classifier calls every text stroke a circle: none may become a state.
        let strokes = structure + Self.zeroCommaOne(SketchPoint(200, 80)) + [Self.zero(b, height: 20)]
        let reading = try read(strokes, shapes: shapes)
        #expect(reading.sketch.states.count == 2, "\(reading.sketch.states.map(\.name))")
        #expect(reading.sketch.transitions.count == 2)
        #expect((4..<8).allSatisfy { reading.isText(stroke: $0) })
        #expect((0..<4).allSatisfy { !reading.isText(stroke: $0) })
        #expect(reading.labels.map(\.strokes) == [[4, 5, 6], [7]])
        let arrow = try #require(reading.sketch.transitions.first { $0.isConnected })
        let stateB = try #require(reading.sketch.states.first { Geometry.distance($0.center, b) < 5 })
        #expect(reading.labels[0].owner == .transition(arrow.id))
        #expect(reading.labels[1].owner == .state(stateB.id))
        #expect(reading.labels[0].symbols == ["0", "1"], "read \(reading.labels[0].text)")
        #expect(arrow.symbols == ["0", "1"])
        #expect(stateB.name == reading.labels[1].text && !stateB.name.isEmpty)
    }

    @Test func aLongNameWiderThanItsStateNamesIt() throws {
        // `01010` written across state b, wider than its circle (like `{q2,f}`), on one line:
        // its strokes are written inside the state, so the label is its name, not the arrow's.
        let name = (-2...2).map { step in
            let center = b + SketchPoint(12 * Double(step), 0)
            return step % 2 == 0 ? Self.zero(center) : Self.one(center)
        }
        let reading = try read(structure + name, shapes: shapes)
        let stateB = try #require(reading.sketch.states.first { Geometry.distance($0.center, b) < 5 })
        #expect(reading.labels.map(\.strokes) == [Array(4..<9)])
        #expect(reading.labels.first?.owner == .state(stateB.id))
    }

    @Test func typedSymbolsTakePrecedenceOverWrittenOnes() throws {
        let strokes = structure + Self.zeroCommaOne(SketchPoint(200, 80))
        let reading = try read(strokes, shapes: shapes, symbols: [2: ["a"]])
        let arrow = try #require(reading.sketch.transitions.first { $0.isConnected })
        #expect(arrow.symbols == ["a"])
        #expect(reading.labels.count == 1 && reading.labels[0].owner == .transition(arrow.id))
    }

    @Test func strayTextBelongsToNothing() throws {
        let strokes = structure + Self.zeroCommaOne(SketchPoint(200, 330))
        let reading = try read(strokes, shapes: shapes)
        #expect(reading.sketch.states.count == 2 && reading.sketch.transitions.count == 2)
        #expect(reading.labels.count == 1 && reading.labels[0].owner == .nothing)
        #expect(reading.sketch.transitions.allSatisfy { $0.symbols.isEmpty })
    }

    @Test func aLabelBetweenTwoArrowsGoesToTheOneWithoutALabel() throws {
        // a → b straight, b → a curving 60 below. One label just above a → b; another between
        // the two, a little nearer a → b, which already has its label: it goes to b → a.
        let back = Pen.arc(b - SketchPoint(radius * 0.7, -radius * 0.7), a + SketchPoint(radius * 0.7, radius * 0.7), bulge: -60)
        let strokes = structure + [back] + [Self.one(SketchPoint(200, 82))] + [Self.zero(SketchPoint(200, 135))]
        let reading = try read(strokes, shapes: shapes + ["arrow"])
        let forth = try #require(reading.sketch.transitions.first { $0.isConnected && $0.from.flatMap(reading.sketch.state).map { Geometry.distance($0.center, a) < 5 } == true })
        let backward = try #require(reading.sketch.transitions.first { $0.isConnected && $0.id != forth.id })
        #expect(reading.labels.map(\.owner) == [.transition(forth.id), .transition(backward.id)])
    }

    @Test func twoLabelsWrittenOneAfterTheOtherEachByItsArrowAreTwo() throws {
        // Two arrows converging on c; a `1` by the left one and a `0` by the right one, written
        // one after the other and near enough to be one label: each goes to its own arrow.
        let left = SketchPoint(150, 100), right = SketchPoint(250, 100), bottom = SketchPoint(200, 400)
        func arrow(_ from: SketchPoint, _ to: SketchPoint) -> Stroke {
            let direction = (to - from) / Geometry.distance(from, to)
            return Pen.arrow(from + radius * direction, to - radius * direction)
        }
        let strokes = [Pen.circle(left, radius), Pen.circle(right, radius), Pen.circle(bottom, radius),
                       arrow(left, bottom), arrow(right, bottom), Self.one(SketchPoint(190, 250)), Self.zero(SketchPoint(210, 250))]
        let reading = try read(strokes, shapes: ["circle", "circle", "circle", "arrow", "arrow"])
        #expect(reading.sketch.transitions.count == 2)
        let fromLeft = try #require(reading.sketch.transitions.first { $0.from.flatMap(reading.sketch.state).map { Geometry.distance($0.center, left) < 5 } == true })
        let fromRight = try #require(reading.sketch.transitions.first { $0.id != fromLeft.id })
        #expect(reading.labels.map(\.strokes) == [[5], [6]])
        #expect(reading.labels.map(\.owner) == [.transition(fromLeft.id), .transition(fromRight.id)])
        // Together (the plain grouping) they were one label, and one arrow had none.
        let ink = strokes.enumerated().map { InkStroke(stroke: $1, drawing: $0) }
        #expect(LabelGrouping.group([5, 6], ink: ink, circles: TextFinder.Circles(circles: [], scale: radius)) == [[5, 6]])
    }

    @Test func symbolsSplitAtSeparators() {
        #expect(CharacterReading.symbols(of: "0,1") == ["0", "1"])
        #expect(CharacterReading.symbols(of: "0+1") == ["0", "1"])
        #expect(CharacterReading.symbols(of: "a.b;c") == ["a", "b", "c"])
        #expect(CharacterReading.symbols(of: "a,a") == ["a"])
        #expect(CharacterReading.symbols(of: "b") == ["b"])
    }

    @Test func overlappingStrokesAreOneCharacter() {
        // A `+` of two crossing strokes, then a `1` beside it.
        let plus = [Stroke([(0, 8), (16, 8)]), Stroke([(8, 0), (8, 16)])]
        let ink = (plus + [Self.one(SketchPoint(30, 8))]).enumerated().map { InkStroke(stroke: $1, drawing: $0) }
        #expect(CharacterReading.segment([0, 1, 2], ink: ink) == [[0, 1], [2]])
    }

    @Test func theDiagramsAlphabetDecidesDigitsOrLetters() throws {
        // Three transition labels `0` `1` `0`: the vote is digits (no letter read unambiguously),
        // so an oval reads `0`, never `o` or `O`.
        var cache = ClassificationCache()
        let ink = [Self.zero(SketchPoint(0, 0)), Self.one(SketchPoint(50, 0)), Self.zero(SketchPoint(100, 0))]
            .enumerated().map { InkStroke(stroke: $1, drawing: $0) }
        let labels = (0..<3).map { CharacterReading.characters(of: [$0], ink: ink, cache: &cache) }
        let context = CharacterReading.context(transitionLabels: labels)
        #expect(context.transitionCharacters == CharacterReading.digits)
        #expect(labels.map { CharacterReading.read($0, context: context).text } == ["0", "1", "0"])
    }

    /// A `b` `height` tall: a stem from the top down, then its bowl, one stroke, round `center`.
    static func b(_ center: SketchPoint, height: Double) -> Stroke {
        let top = center - SketchPoint(0.2 * height, height / 2)
        let stem = (0...10).map { SketchPoint(top.x, top.y + height * Double($0) / 10) }
        let bowlCenter = SketchPoint(top.x + 0.2 * height, top.y + 0.8 * height)
        let bowl = (1...16).map { index -> SketchPoint in
            let angle = Double.pi - Double.pi * 2 * Double(index) / 16
            return bowlCenter + SketchPoint(0.2 * height * cos(angle), -0.2 * height * sin(angle))
        }
        return Pen.through(stem + bowl)
    }

    @Test func aLargeLetterWrittenApartIsText() throws {
        // A `b` 1.8 R tall above the arrow's middle, its ends far from both rims: text that
        // gives the arrow its symbol, never a shape. With the exception turned off (free text
        // no larger than `shapeMinimumSize`) it is a shape, as every drawing that big used to be.
        let strokes = structure + [Self.b(SketchPoint(200, 50), height: 1.8 * radius)]
        let reading = try read(strokes, shapes: shapes)
        #expect(reading.isText(stroke: 4))
        let arrow = try #require(reading.sketch.transitions.first { $0.isConnected })
        #expect(reading.labels.count == 1 && reading.labels[0].owner == .transition(arrow.id))
        var off = ReaderParameters()
        off.text.freeTextMaximumSize = off.text.shapeMinimumSize
        let before = try ReaderParameters.$current.withValue(off) { try read(strokes, shapes: shapes) }
        #expect(!before.isText(stroke: 4))
    }

    @Test func aCurlyLetterAboveAStateIsNoInitialArrow() throws {
        // A `c` written just above state b, its end heading for b's centre: text. A straight
        // stroke from the same place into b is a short initial arrow (a shape).
        let top = b - SketchPoint(0, radius + 26)
        let c = Pen.through((0...16).map { index -> SketchPoint in
            let angle = Double.pi / 3 + 4 * Double.pi / 3 * Double(index) / 16
            return top + SketchPoint(5 * cos(angle), -7 * sin(angle))
        })
        let straight = Pen.arrow(top - SketchPoint(0, 6), b - SketchPoint(0, radius + 4), head: false)
        #expect(try read(structure + [c], shapes: shapes).isText(stroke: 4))
        #expect(try !read(structure + [straight], shapes: shapes).isText(stroke: 4))
    }

    @Test func labelsWrittenApartInTimeJoinOnlyOnOneLine() {
        // Strokes 0 and 2 with a shape (stroke 1) drawn between, boxes 5 apart (R 30): on one
        // line they are one label; one under the other, two.
        func groups(_ second: SketchPoint) -> [[Int]] {
            let ink = [Self.one(SketchPoint(0, 0)), Self.one(SketchPoint(500, 500)), Self.one(second)]
                .enumerated().map { InkStroke(stroke: $1, drawing: $0) }
            return LabelGrouping.group([0, 2], ink: ink, circles: TextFinder.Circles(circles: [], scale: 30))
        }
        #expect(groups(SketchPoint(8, 0)) == [[0, 2]])
        #expect(groups(SketchPoint(4, 21)) == [[0], [2]])
    }

    /// A character the model reads with `probabilities`, in a box at `x`.
    static func character(_ probabilities: [String: Float], x: Double) -> CharacterReading.Character {
        let best = probabilities.max { $0.value < $1.value }!
        return CharacterReading.Character(
            strokes: [Int(x)], box: LabelBox(minX: x, minY: 0, maxX: x + 10, maxY: 16),
            classification: Classification(label: best.key, confidence: best.value, probabilities: probabilities, isRejected: false),
            separator: nil)
    }

    @Test func theDiagramsAlphabetWeighsEachCharacter() {
        // Four labels read `b` without doubt, one the model finds a shade more `s` than `b`: in
        // this diagram it is a `b`; with the alphabet's weight turned off, an `s`.
        let sure = (0..<4).map { [Self.character(["b": 0.95, "s": 0.03, "a": 0.02], x: Double($0) * 50)] }
        let doubtful = [Self.character(["s": 0.5, "b": 0.48, "a": 0.02], x: 300)]
        let context = CharacterReading.context(transitionLabels: sure + [doubtful])
        #expect(CharacterReading.read(doubtful, context: context).text == "b")
        var off = ReaderParameters()
        off.text.alphabetPrior = 0
        #expect(ReaderParameters.$current.withValue(off) { CharacterReading.read(doubtful, context: context).text } == "s")
    }

    @Test func inAnAlphabetOfSingleCharactersEveryOtherCharacterIsASeparator() {
        // `a,c` whose comma the geometry missed (it reads `l`), among labels of one character:
        // symbols `a` and `c`. In a diagram whose labels hold `ab`, `ba`, it stays `alc`.
        let aLc = [Self.character(["a": 0.9, "l": 0.1], x: 0), Self.character(["l": 0.8, "a": 0.1, "c": 0.1], x: 12),
                   Self.character(["c": 0.9, "a": 0.1], x: 24)]
        let single = (0..<4).map { [Self.character(["a": 0.9, "c": 0.1], x: Double($0) * 50)] }
        let context = CharacterReading.context(transitionLabels: single + [aLc])
        #expect(context.singleCharacterSymbols)
        #expect(CharacterReading.read(aLc, context: context).symbols == ["a", "c"])
        let pairs = (0..<4).map { [Self.character(["a": 0.9, "c": 0.1], x: Double($0) * 50), Self.character(["c": 0.9, "a": 0.1], x: Double($0) * 50 + 12)] }
        let multi = CharacterReading.context(transitionLabels: pairs + [aLc])
        #expect(!multi.singleCharacterSymbols)
        #expect(CharacterReading.read(aLc, context: multi).symbols == ["alc"])
    }

    /// The whole ink of the real diagrams (`fa-diagrams/ink`, nothing typed), read once each:
    /// almost every stroke decided text or shape right, and most labels grouped, attached and
    /// read right (`scripts/fa-benchmark.sh` measures the same stroke by stroke, with verdicts).
    @Test func wholeInkOfRealDiagrams() throws {
        guard let inks = try SharedDataset.faDiagramsInk() else { return }
        let classifier = try ShapeClassifier.bundledDefault()
        var right = 0, total = 0, labels = 0, grouped = 0, attached = 0, transitionLabels = 0, symbolsRead = 0, names = 0, namesRead = 0
        var halves: [String: [Int]] = [:], before = Array(repeating: 0, count: 8)
        var verdicts: [String: [Int]] = [:]  // half -> diagrams right: ink, ink typed, sketches, per stroke; diagrams
        for url in inks {
            let file = url.lastPathComponent, folder = url.deletingLastPathComponent().deletingLastPathComponent()
            let lines = try SketchFile.read(contentsOf: url)
            let truthURL = folder.appendingPathComponent("ink_truth/" + file.replacingOccurrences(of: ".ndjson", with: ".json"))
            let truth = try JSONSerialization.jsonObject(with: Data(contentsOf: truthURL)) as! [String: Any]
            let strokes = truth["strokes"] as! [[String: Any]]
            let ink = lines.enumerated().map { InkStroke(stroke: $1.strokes[0], drawing: $0) }
            var cache = ClassificationCache()
            let reading = try SketchReader.read(ink, classifier: classifier, cache: &cache)
            var problems: [String] = []
            for (index, stroke) in strokes.enumerated() {
                total += 1
                let isText = stroke["role"] as! String == "label"
                if reading.isText(stroke: index) == isText { right += 1 } else { problems.append("line \(index + 1) \(isText ? "text" : "shape")") }
            }
            let read = Dictionary(reading.labels.map { ($0.strokes, $0) }, uniquingKeysWith: { first, _ in first })
            for label in truth["labels"] as! [[String: Any]] {
                labels += 1
                let owner = label["of"] as! [String: Int]
                let text = label["text"] as! String
                if owner["transition"] != nil { transitionLabels += 1 }
                if owner["state"] != nil { names += 1 }
                let truthLines = (label["lines"] as! [Int]).sorted()
                guard let got = read[truthLines] else {
                    let near = reading.labels.filter { !Set($0.strokes).isDisjoint(with: truthLines) }.map { $0.strokes.map { $0 + 1 } }
                    problems.append("\"\(text)\" \(truthLines.map { $0 + 1 }) grouped as \(near)")
                    continue
                }
                grouped += 1
                let ownerSymbols = reading.strokes(of: got.owner).compactMap { strokes[$0]["symbol"] as? Int }
                let gotOwner: [String: Int] = switch got.owner {
                case .transition: ownerSymbols.first.map { ["transition": $0] } ?? [:]
                case .state: ownerSymbols.first.map { ["state": $0] } ?? [:]
                case .nothing: [:]
                }
                guard gotOwner == owner else {
                    problems.append("\"\(text)\" attached to \(reading.describe(got.owner))")
                    continue
                }
                attached += 1
                if owner["transition"] != nil {
                    let symbols = (label["symbols"] as? [String] ?? []).sorted()
                    if got.symbols.sorted() == symbols { symbolsRead += 1 } else { problems.append("\"\(text)\" read \"\(got.text)\"") }
                } else if owner["state"] != nil {
                    if got.text == text { namesRead += 1 } else { problems.append("name \"\(text)\" read \"\(got.text)\"") }
                }
            }
            // Every word's verdict, as `strokekit recognize --simulate` gives it (the reading does
            // not depend on the order the ink arrived in): the ink with nothing typed and with the
            // symbols typed on each arrow's first stroke, and the two sketch folders.
            let expectedAll = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("expected.json"))) as! [String: [String: Bool]]
            let expected = expectedAll[file]!
            func allWordsRight(_ sketch: Sketch) -> Bool {
                let automaton = sketch.automaton()
                return expected.allSatisfy { automaton.simulate($0.key).isAccepted == $0.value }
            }
            var typed = ink
            var firstLine: [Int: Int] = [:]
            for (index, stroke) in strokes.enumerated() where stroke["role"] as! String == "arrow" {
                let symbol = stroke["symbol"] as! Int
                firstLine[symbol] = min(firstLine[symbol] ?? index, index)
            }
            for transition in truth["transitions"] as! [[String: Any]] {
                guard let line = firstLine[transition["arrow"] as! Int] else { continue }
                typed[line].symbols = transition["symbols"] as! [String]
                typed[line].isEpsilon = transition["epsilon"] as? Bool ?? false
            }
            var modes = [allWordsRight(reading.sketch), allWordsRight(try SketchReader.read(typed, classifier: classifier, cache: &cache).sketch)]
            for sketchFolder in ["sketches", "sketches_per_stroke"] {
                let sketchLines = try SketchFile.read(contentsOf: folder.appendingPathComponent(sketchFolder + "/" + file))
                let sketchInk = sketchLines.enumerated().flatMap { index, line in
                    line.strokes.enumerated().map { position, stroke in
                        InkStroke(stroke: stroke, drawing: index, symbols: position == 0 ? line.symbols : [],
                                  isEpsilon: position == 0 && line.isEpsilon, name: position == 0 ? line.name : nil)
                    }
                }
                modes.append(allWordsRight(try SketchReader.read(sketchInk, classifier: classifier, cache: &cache).sketch))
            }
            print("\(file): verdicts ink \(modes[0] ? "RIGHT" : "WRONG"), ink typed \(modes[1] ? "RIGHT" : "WRONG"), "
                + "sketches \(modes[2] ? "RIGHT" : "WRONG"), per stroke \(modes[3] ? "RIGHT" : "WRONG")")
            let halfName = Int(file.dropFirst(6).prefix(3))! % 2 == 0 ? "tuning" : "check"
            verdicts[halfName, default: [0, 0, 0, 0, 0]] = zip(verdicts[halfName, default: [0, 0, 0, 0, 0]], modes.map { $0 ? 1 : 0 } + [1] as [Int]).map { $0 + $1 }
            print("\(file): \(problems.isEmpty ? "all right" : problems.joined(separator: "; "))")
            let half = Int(file.dropFirst(6).prefix(3))! % 2 == 0 ? "tuning" : "check"
            let now = [right, total, grouped, labels, symbolsRead, transitionLabels, namesRead, names]
            halves[half, default: Array(repeating: 0, count: 8)] = zip(halves[half, default: Array(repeating: 0, count: 8)], zip(now, before)).map { $0 + $1.0 - $1.1 }
            before = now
        }
        print("strokes text/shape \(right)/\(total); labels grouped \(grouped)/\(labels), attached \(attached); "
            + "transition labels' symbols \(symbolsRead)/\(transitionLabels); names \(namesRead)/\(names)")
        for (half, n) in halves.sorted(by: { $0.key > $1.key }) {
            let v = verdicts[half]!
            print("\(half) half: diagrams with every word right: ink \(v[0])/\(v[4]), ink typed \(v[1])/\(v[4]), sketches \(v[2])/\(v[4]), per stroke \(v[3])/\(v[4])")
            print("\(half) half: strokes text/shape \(n[0])/\(n[1]); labels grouped \(n[2])/\(n[3]); transition labels' symbols \(n[4])/\(n[5]); names \(n[6])/\(n[7])")
        }
        #expect(total == 1114 && labels == 290)
        // Floors a little under the figures reached (text/shape 0.981, transition labels 0.945,
        // names 0.81): a change that loses more fails here.
        #expect(Double(right) >= 0.97 * Double(total), "strokes decided text or shape right: \(right)/\(total)")
        #expect(Double(symbolsRead) >= 0.92 * Double(transitionLabels), "transition labels read: \(symbolsRead)/\(transitionLabels)")
        #expect(Double(namesRead) >= 0.78 * Double(names), "state names read: \(namesRead)/\(names)")
    }
}
