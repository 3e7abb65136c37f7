import Foundation
import StrokeImage
import StrokeKit
import StrokeModelFile
import Testing

/// The bundled label model (scripts/train-label-model.sh): what it promises the editor.
@Suite struct LabelModelTests {
    static let expectedClasses = (0...9).map(String.init)
        + (UInt8(ascii: "a")...UInt8(ascii: "z")).map { String(UnicodeScalar($0)) }
        + (UInt8(ascii: "A")...UInt8(ascii: "Z")).map { String(UnicodeScalar($0)) } + [",", "+", ".", "{", "}"]

    @Test func bundledLabelModelHasTheCharacterClassesAndCreditsUnipen() throws {
        let classifier = try ShapeClassifier.bundledLabels()
        #expect(classifier.classes == Self.expectedClasses)
        let extra = classifier.metadata.extra
        #expect(extra[ModelMetadata.Key.dataLicense] == "CC BY 4.0")
        #expect(extra[ModelMetadata.Key.dataSource]?.contains("UNIPEN") == true)
        #expect(extra[ModelMetadata.Key.dataSource]?.contains("doi:10.1109/ICPR.1994.576870") == true)
    }

    @Test func bundledLabelModelIsTheShippedFileAndSmall() throws {
        let bundled = try Data(contentsOf: ShapeClassifier.bundledModelURL(named: ShapeClassifier.bundledLabelModelName))
        let projectRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let shipped = try Data(contentsOf: projectRoot.appendingPathComponent("models/unipen-labels.safetensors"))
        #expect(bundled == shipped, "Sources/StrokeKit/Resources and models/ hold different label models")
        #expect(bundled.count <= 200_000, "the label model is \(bundled.count) bytes, over 200 KB")
    }

    /// A closed loop `2 * rx` wide and `2 * ry` tall, drawn from the top, counter-clockwise.
    static func ring(_ rx: Double, _ ry: Double) -> Stroke {
        Stroke((0...40).map { index in
            let angle = -Double.pi / 2 - 2 * Double.pi * Double(index) / 40
            return (rx * cos(angle), ry * sin(angle))
        })
    }

    @Test func withinItsLineACharactersSizeTellsDotsAndCase() throws {
        let classifier = try ShapeClassifier.bundledLabels()
        #expect(classifier.framing == .referenceHeightShapeAndPenOrder(pixels: 18))
        #expect(classifier.framing == .characterDefault, "InputFraming.characterDefault (which FuzzUnipen draws) is not the bundled model's framing")
        let line = CharacterFrame(height: 20)
        // A small scribble in a line 20 units tall is a dot; alone, aspect-fit blows it up into something else.
        let scribble = [Stroke([(0, 0), (0.8, 0.3), (0.5, 1), (0, 0.6)])]
        #expect(try classifier.classify(scribble, frame: line).label == ".")
        #expect(try classifier.classify(scribble).label != ".")
        // A ring half the line's height is an o; one nearly as tall as the line is not.
        #expect(try classifier.classify([Self.ring(5, 5.5)], frame: line).label == "o")
        #expect(try ["O", "0"].contains(classifier.classify([Self.ring(8, 10)], frame: CharacterFrame(height: 21)).label))
        // The same c, small and large in its line.
        let c = [(5.0, 1.0), (2, 0), (0, 3), (0.2, 8), (2, 11), (5.2, 10)]
        #expect(try classifier.classify([Stroke(c)], frame: line).label == "c")
        #expect(try classifier.classify([Stroke(c.map { ($0.0 * 1.8, $0.1 * 1.8) })], frame: line).label == "C")
    }

    @Test func drawnCharactersReadAsTheirClass() throws {
        let classifier = try ShapeClassifier.bundledLabels()
        // A plus: two crossing strokes in their line (a separator is never a label of its own, and
        // is trained framed only); a closed wide loop alone: o, O or 0 (its size is unknown).
        let plus = [Stroke([(0, 5), (10, 5)]), Stroke([(5, 0), (5, 10)])]
        #expect(try classifier.classify(plus, frame: CharacterFrame(height: 14)).label == "+")
        let loop = Stroke((0...40).map { index in
            let angle = -Double.pi / 2 - 2 * Double.pi * Double(index) / 40
            return (8 * cos(angle), 10 * sin(angle))
        })
        let ring = try classifier.classify([loop])
        #expect(["o", "O", "0"].contains(ring.label))
        #expect(ring.mostProbable(among: (0...9).map(String.init))?.label == "0", "among the digits a ring is 0")
    }
}

@Suite struct MostProbableAmongTests {
    @Test func picksTheMostProbableOfTheGivenLabelsOnly() {
        let classification = Classification(
            label: "o", confidence: 0.5, probabilities: ["o": 0.5, "0": 0.3, "O": 0.15, "1": 0.05], isRejected: false)
        #expect(classification.mostProbable(among: ["0", "1"])?.label == "0")
        #expect(classification.mostProbable(among: ["0", "1"])?.probability == 0.3)
        #expect(classification.mostProbable(among: ["x", "y"]) == nil)
        let tie = Classification(label: "a", confidence: 0.5, probabilities: ["b": 0.5, "a": 0.5], isRejected: false)
        #expect(tie.mostProbable(among: ["b", "a"])?.label == "a", "ties go to the label that sorts first")
    }
}
