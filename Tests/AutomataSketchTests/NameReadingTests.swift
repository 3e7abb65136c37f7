@testable import AutomataSketch
import Foundation
import StrokeImage
import StrokeKit
import Testing

/// State names read by recognition (`NameReading`): every segmentation of a name's strokes
/// read by the model, the reading chosen under the name grammar the diagram's names share.
@Suite struct NameReadingTests {
    /// A character the model reads with `probabilities`, in a box at `x`.
    static func character(_ probabilities: [String: Float], x: Double, strokes: [Int]) -> CharacterReading.Character {
        let best = probabilities.max { ($0.value, $1.key) < ($1.value, $0.key) }!
        return CharacterReading.Character(
            strokes: strokes, box: LabelBox(minX: x, minY: 0, maxX: x + 10, maxY: 16),
            classification: Classification(label: best.key, confidence: best.value, probabilities: probabilities, isRejected: false),
            separator: nil)
    }

    /// A hurried `q` the model finds more a `9`, then a digit: one segmentation, two characters.
    static func qName(_ digit: String) -> [[CharacterReading.Character]] {
        [[character(["9": 0.7, "q": 0.2, "g": 0.1], x: 0, strokes: [0]), character([digit: 0.9, "7": 0.1], x: 12, strokes: [1])]]
    }

    @Test func aNameIsCutWhereTheDiagramsFormSaysSo() {
        // Five names q0…q4, and one whose two strokes read together as an `a` (the tail of its
        // `q` under the `5`): cut in two, it is q5, the form every other name takes. With every
        // form alike whatever the diagram says (smoothing overwhelming the counts), it is `a`.
        let merged = Self.character(["a": 0.6, "d": 0.2, "q": 0.1, "5": 0.1], x: 0, strokes: [0, 1])
        let split = Self.qName("5")[0]
        let names = (0..<5).map { Self.qName(String($0)) } + [[[merged], split]]
        #expect(NameReading.read(names).map(\.text) == ["q0", "q1", "q2", "q3", "q4", "q5"])
        var off = ReaderParameters()
        off.text.formSmoothing = 1e9
        #expect(ReaderParameters.$current.withValue(off) { NameReading.read(names).last?.text } == "a")
    }

    @Test func aNamesCaseIsTheDiagrams() {
        // `F1` whose `F` the model finds more an `f`: among single capitals it is F1; among
        // f0, f2 written small, f1.
        func f(_ digit: String, small: Float) -> [[CharacterReading.Character]] {
            [[Self.character(["f": small, "F": 1 - small], x: 0, strokes: [0]), Self.character([digit: 0.9, "l": 0.1], x: 12, strokes: [1])]]
        }
        let capitals = ["A", "B", "D", "G"].map { [[Self.character([$0: 0.9, $0.lowercased(): 0.1], x: 0, strokes: [0])]] }
        #expect(NameReading.read(capitals + [f("1", small: 0.7)]).map(\.text) == ["A", "B", "D", "G", "F1"])
        #expect(NameReading.read([f("0", small: 0.9), f("2", small: 0.9), f("1", small: 0.7)]).map(\.text) == ["f0", "f2", "f1"])
    }

    @Test func namesInBracesAreSetsOfNames() {
        // `{q2,f}` whose comma the model finds more a `1`: within braces a name follows a comma,
        // so it is `{q2,f}`; and `{q1}` beside it.
        let q2f = [
            Self.character(["{": 0.8, "(": 0.2], x: 0, strokes: [0]), Self.character(["q": 0.6, "9": 0.4], x: 10, strokes: [1]),
            Self.character(["2": 0.9, "z": 0.1], x: 20, strokes: [2]), Self.character(["1": 0.5, ",": 0.3, ".": 0.2], x: 30, strokes: [3]),
            Self.character(["f": 0.9, "t": 0.1], x: 40, strokes: [4]), Self.character(["}": 0.7, "3": 0.3], x: 50, strokes: [5]),
        ]
        let q1 = [
            Self.character(["{": 0.8, "(": 0.2], x: 0, strokes: [0]), Self.character(["q": 0.6, "9": 0.4], x: 10, strokes: [1]),
            Self.character(["1": 0.9], x: 20, strokes: [2]), Self.character(["}": 0.7, "3": 0.3], x: 30, strokes: [3]),
        ]
        #expect(NameReading.read([[q2f], [q1]]).map(\.text) == ["{q2,f}", "{q1}"])
    }

    @Test func aTransitionsLabelIsReadOnItsBestCut() {
        // `0+1` whose bar lies low: cut by geometry, the bar is a comma and the upright a `1`
        // (`0,11`, two symbols side by side where the diagram's symbols are single characters);
        // read on every cut, the `+` of both strokes wins.
        let zero = Self.character(["0": 0.8, "o": 0.2], x: 0, strokes: [0]), one = Self.character(["1": 0.9, "l": 0.1], x: 36, strokes: [3])
        let bar = Self.character([",": 0.4, "1": 0.3, ".": 0.3], x: 12, strokes: [1])
        let upright = Self.character(["1": 0.8, "l": 0.1, "+": 0.1], x: 14, strokes: [2])
        let plus = Self.character(["+": 0.9, "t": 0.1], x: 13, strokes: [1, 2])
        var context = CharacterReading.Context()
        context.singleCharacterSymbols = true
        context.alphabet = Dictionary(uniqueKeysWithValues: CharacterReading.digits.map { ($0, 0.1) })
        let reading = CharacterReading.readSymbols([[zero, bar, upright, one], [zero, plus, one]], context: context)
        #expect(reading?.text == "0+1" && reading?.symbols == ["0", "1"])
        #expect(CharacterReading.readSymbols([[zero, bar, upright, one]], context: context)?.text != "0+1")
    }

    @Test func strokesSideBySideAreNeverOneCharacter() {
        // Two strokes side by side are cut apart in every segmentation; two crossing strokes (a
        // `+`, an `X`) are read both together and apart.
        func ink(_ strokes: [Stroke]) -> [InkStroke] { strokes.enumerated().map { InkStroke(stroke: $1, drawing: $0) } }
        var cache = ClassificationCache()
        let apart = ink([HandwrittenLabelTests.zero(SketchPoint(0, 0)), HandwrittenLabelTests.one(SketchPoint(20, 0))])
        #expect(CharacterReading.segmentations(of: [0, 1], ink: apart, cache: &cache).map { $0.map(\.strokes) } == [[[0], [1]]])
        let crossing = ink([Stroke([(0, 8), (16, 8)]), Stroke([(8, 0), (8, 16)])])
        let cuts = Set(CharacterReading.segmentations(of: [0, 1], ink: crossing, cache: &cache).map { $0.map(\.strokes) })
        #expect(cuts == [[[0, 1]], [[0], [1]]])
    }
    /// A name of a `q` and one digit the model reads with `probabilities`.
    static func qName(_ probabilities: [String: Float]) -> [[CharacterReading.Character]] {
        [[character(["q": 0.9, "9": 0.1], x: 0, strokes: [0]), character(probabilities, x: 12, strokes: [1])]]
    }

    @Test func namesAreDistinctAndInSequence() {
        // Four names q0, q2, q3 and one whose `1` the model finds more a `9`: q9 lies beyond the
        // diagram's four names, so its next reading, q1, is taken.
        let names = ["0", "2", "3"].map { Self.qName([$0: 0.9, "8": 0.1]) } + [Self.qName(["9": 0.6, "1": 0.3, "7": 0.1])]
        #expect(NameReading.read(names).map(\.text) == ["q0", "q2", "q3", "q1"])
        // Two names the model reads q2, the second less surely: it takes its next reading, q1.
        let twice = [Self.qName(["0": 0.9, "8": 0.1]), Self.qName(["2": 0.9, "1": 0.1]), Self.qName(["2": 0.6, "1": 0.4])]
        #expect(NameReading.read(twice).map(\.text) == ["q0", "q2", "q1"])
    }

    @Test func aRomanNameIsANumeral() {
        #expect(["I", "II", "IV", "VIII", "IX", "XIV", "XXXIX"].map(NameReading.romanValue) == [1, 2, 4, 8, 9, 14, 39])
        #expect(["", "IIXI", "IXX", "IIII", "VV", "XXXX", "VX", "IVI"].allSatisfy { NameReading.romanValue($0) == nil })
        // Names I, II, III and one whose strokes the model reads I, I, X, I: `IIXI` is no numeral.
        func roman(_ digits: [String]) -> [[CharacterReading.Character]] {
            [digits.enumerated().map { index, digit in
                Self.character([digit: 0.8, digit == "I" ? "V" : "I": 0.2], x: Double(12 * index), strokes: [index])
            }]
        }
        let names = [["I"], ["I", "I"], ["I", "I", "I"], ["I", "I", "X", "I"]].map(roman)
        let read = NameReading.read(names).map(\.text)
        #expect(read.prefix(3) == ["I", "II", "III"] && read[3] != "IIXI")
    }

    @Test func aNameOutsideTheSequenceFillsItsGap() {
        // Names q0, q1, q3, and two strokes read together as an `n` far likelier than as q2: the
        // sequence's one gap, 2, and its one name outside it make it q2.
        let gap = [
            [Self.character(["n": 0.9, "h": 0.1], x: 0, strokes: [0, 1])],
            [Self.character(["q": 0.5, "9": 0.5], x: 0, strokes: [0]), Self.character(["2": 0.5, "z": 0.5], x: 12, strokes: [1])],
        ]
        let names = ["0", "1", "3"].map { Self.qName([$0: 0.9, "8": 0.1]) } + [gap]
        #expect(NameReading.read(names).map(\.text) == ["q0", "q1", "q3", "q2"])
        // With no gap (q0, q1, q2 and the `n`), it stays `n`.
        let full = ["0", "1", "2"].map { Self.qName([$0: 0.9, "8": 0.1]) } + [gap]
        #expect(NameReading.read(full).last?.text == "n")
    }

    @Test func namesInBracesStartWithTheSharedInitial() {
        // `{q2,f}` whose `q` the model finds more a `U`, among `{q1}` and `{q3}`: a name of a
        // letter and digits starts with the letter the diagram's such names share.
        func braced(_ inner: [[String: Float]]) -> [[CharacterReading.Character]] {
            let characters = [["{": 0.9, "(": 0.1]] + inner + [["}": 0.9, ")": 0.1]]
            return [characters.enumerated().map { Self.character($1, x: Double(10 * $0), strokes: [$0]) }]
        }
        let names = [
            braced([["q": 0.8, "g": 0.2], ["1": 0.9, "l": 0.1]]), braced([["q": 0.8, "g": 0.2], ["3": 0.9, "z": 0.1]]),
            braced([["U": 0.75, "q": 0.2, "u": 0.05], ["2": 0.9, "z": 0.1], [",": 0.9, "1": 0.1], ["f": 0.9, "t": 0.1]]),
        ]
        #expect(NameReading.read(names).map(\.text) == ["{q1}", "{q3}", "{q2,f}"])
    }
    @Test func aCharactersStrokesLieTogetherInPlace() {
        // An `F`'s upright, a `1` beside it, then the `F`'s bar: the bar and the upright are one
        // character though the `1` was drawn between them.
        let ink = [Stroke([(0, 0), (0, 16)]), Stroke([(14, 0), (14, 16)]), Stroke([(0, 0), (8, 0)])].enumerated().map {
            InkStroke(stroke: $1, drawing: $0)
        }
        var cache = ClassificationCache()
        let cuts = Set(CharacterReading.segmentations(of: [0, 1, 2], ink: ink, cache: &cache).map { $0.map(\.strokes) })
        #expect(cuts.contains([[0, 2], [1]]) && cuts.contains([[0], [2], [1]]))
    }
}
