@testable import AutomataSketch
import Foundation
import StrokeImage
import StrokeKit
import Testing
import TestSupport

/// `HandwrittenLabels.read`: labels given grouped and attached read exactly as the sketch
/// reader reads the labels it finds in the ink (one way to read labels).
@Suite struct HandwrittenLabelsTests {
    typealias Pens = HandwrittenLabelTests

    /// The labels of `reading` given back as strokes and owners, and read again.
    static func readAgain(_ reading: SketchReading, ink: [InkStroke]) throws -> [HandwrittenLabel] {
        try HandwrittenLabels.read(reading.labels.map { label in
            LabelStrokes(strokes: label.strokes.map { ink[$0].stroke }, owner: label.owner)
        })
    }

    @Test func labelsGivenGroupedAndAttachedReadAsTheSketchReaderReadsThem() throws {
        // Two states, a → b labelled `0,1`, b → a labelled `1`, a `0` written inside b, and a
        // stray `0` far below (belonging to nothing): the same texts, confidences and
        // alternatives from the strokes and owners alone.
        let a = SketchPoint(100, 100), b = SketchPoint(300, 100), radius = 30.0
        let back = Pen.arc(b - SketchPoint(radius * 0.7, -radius * 0.7), a + SketchPoint(radius * 0.7, radius * 0.7), bulge: -60)
        let structure = [
            Pen.circle(a, radius), Pen.circle(b, radius), Pen.arrow(a + SketchPoint(radius, 0), b - SketchPoint(radius, 0)),
            Pen.arrow(a - SketchPoint(110, 0), a - SketchPoint(radius, 0)), back,
        ]
        let strokes = structure + Pens.zeroCommaOne(SketchPoint(200, 80)) + [Pens.one(SketchPoint(200, 140))]
            + [Pens.zero(b, height: 20), Pens.zero(SketchPoint(200, 330))]
        var classifier = ScriptedClassifier()
        for (index, stroke) in strokes.enumerated() {
            classifier.remember([stroke], as: index < structure.count ? (index < 2 ? "circle" : "arrow") : "circle")
        }
        let ink = strokes.enumerated().map { InkStroke(stroke: $1, drawing: $0) }
        var cache = ClassificationCache()
        let reading = try SketchReader.read(ink, classifier: classifier, cache: &cache)
        #expect(reading.labels.count == 4, "\(reading.labels.map(\.strokes))")
        #expect(Set(reading.labels.map(\.owner.kind)) == ["transition", "state", "nothing"])
        let again = try Self.readAgain(reading, ink: ink)
        #expect(again.map(\.text) == reading.labels.map(\.text))
        #expect(again.map(\.symbols) == reading.labels.map(\.symbols))
        #expect(again.map(\.confidence) == reading.labels.map(\.confidence))
        #expect(again.map(\.alternatives) == reading.labels.map(\.alternatives))
        #expect(again.map(\.owner) == reading.labels.map(\.owner))
    }

    @Test func whatALabelLabelsDecidesHowItReads() throws {
        // Three ovals and a `1` as transition labels: the diagram's alphabet is digits, and an
        // oval reads `0`. One oval alone as a state's name reads a letter, never a digit.
        let labels = [Pens.zero(SketchPoint(0, 0)), Pens.one(SketchPoint(50, 0)), Pens.zero(SketchPoint(100, 0)), Pens.zero(SketchPoint(150, 0))]
            .map { LabelStrokes(strokes: [$0], owner: .transition(0)) }
        let read = try HandwrittenLabels.read(labels)
        #expect(read.map(\.text) == ["0", "1", "0", "0"])
        #expect(read.map(\.symbols) == [["0"], ["1"], ["0"], ["0"]])
        let name = try HandwrittenLabels.read([LabelStrokes(strokes: [Pens.zero(SketchPoint(0, 0))], owner: .state(0))])
        #expect(name.count == 1 && name[0].text.count == 1 && name[0].text.first!.isLetter, "read \(name.map(\.text))")
        #expect(name[0].symbols.isEmpty)
        #expect(try HandwrittenLabels.read([]).isEmpty)
    }

    @Test func diagramsComeFromQuickDrawLinesNamingTheirDiagramAndOwner() throws {
        let text = """
            {"key_id": "x", "diagram": "d1", "of": "transition", "drawing": [[[0, 1], [0, 1]]]}
            {"diagram": "d2", "of": "state", "drawing": [[[0, 1], [0, 1]]]}
            {"diagram": "d1", "of": "nothing", "drawing": [[[0, 1], [0, 1]], [[2, 3], [2, 3]]]}
            """
        let diagrams = try HandwrittenLabels.diagrams(from: QuickDraw.parse(text, source: "labels.ndjson").drawings, source: "labels.ndjson")
        #expect(diagrams.map(\.name) == ["d1", "d2"])
        #expect(diagrams[0].labels.map(\.owner.kind) == ["transition", "nothing"])
        #expect(diagrams[0].labels.map(\.strokes.count) == [1, 2])
        #expect(diagrams[0].drawings.map(\.lineNumber) == [1, 3])
        #expect(diagrams[1].labels.map(\.owner.kind) == ["state"])
        for (line, problem) in [
            (#"{"of": "state", "drawing": [[[0, 1], [0, 1]]]}"#, "\"diagram\""),
            (#"{"diagram": "d", "of": "arrow", "drawing": [[[0, 1], [0, 1]]]}"#, "\"of\""),
        ] {
            let drawings = try QuickDraw.parse("\n" + line, source: "bad.ndjson").drawings
            let error = #expect(throws: HandwrittenLabelsError.self) { try HandwrittenLabels.diagrams(from: drawings, source: "bad.ndjson") }
            let message = error.map(String.init(describing:)) ?? ""
            #expect(message.hasPrefix("bad.ndjson:2: ") && message.contains(problem), "\(message)")
        }
    }

    /// The whole ink of real diagrams (every third of fa-diagrams', to keep the suite quick):
    /// every label the reader found, given back as its strokes and owner, reads the same.
    @Test func realDiagramsLabelsReadTheSameGivenGroupedAndAttached() throws {
        guard let inks = try SharedDataset.faDiagramsInk() else { return }
        let classifier = try ShapeClassifier.bundledDefault()
        var labels = 0
        for url in inks.enumerated().filter({ $0.offset % 3 == 0 }).map(\.element) {
            let ink = try SketchFile.read(contentsOf: url).enumerated().map { InkStroke(stroke: $1.strokes[0], drawing: $0) }
            var cache = ClassificationCache()
            let reading = try SketchReader.read(ink, classifier: classifier, cache: &cache)
            let again = try Self.readAgain(reading, ink: ink)
            labels += again.count
            #expect(again.map(\.text) == reading.labels.map(\.text), "\(url.lastPathComponent)")
            #expect(again.map(\.confidence) == reading.labels.map(\.confidence), "\(url.lastPathComponent)")
        }
        #expect(labels > 50)
    }
}
