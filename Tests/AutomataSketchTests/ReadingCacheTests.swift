@testable import AutomataSketch
import Foundation
import StrokeImage
import StrokeKit
import Testing
import TestSupport

/// The editor re-reads the whole ink on every stroke and keeps the drawings' measures of the
/// reading before (`MeasuresCache`): every reading it makes must be the one the plain reader,
/// measuring everything afresh, makes of the same ink.
@Suite struct ReadingCacheTests {
    /// The reading of `ink` with every drawing measured now (no `MeasuresCache` bound) and every
    /// stage worked out again (no shape stage or label readings kept from the reading before;
    /// only the classifications of strokes are kept).
    static func plainReading(_ ink: [InkStroke], classifier: any StrokeClassifying, cache: inout ClassificationCache) throws -> SketchReading {
        #expect(MeasuresCache.current == nil)
        cache.forgetReadings()
        return try SketchReader.readMeasured(ink, on: Sketch(), classifier: classifier, cache: &cache)
    }

    static func expectSame(_ cached: SketchReading, _ plain: SketchReading, _ context: String) {
        #expect(cached.sketch == plain.sketch, "\(context): sketch")
        #expect(cached.symbols == plain.symbols, "\(context): symbols")
        #expect(cached.symbolOfStroke == plain.symbolOfStroke, "\(context): symbols of strokes")
        #expect(cached.labels == plain.labels, "\(context): labels")
    }

    /// Every diagram of `fa-diagrams/ink` (the whole ink, nothing typed) drawn stroke by stroke
    /// into the editor: after every third stroke and the last its reading equals the plain reading of its ink, and
    /// so do its readings after undo and after erasing the first state drawn.
    @Test func editorReadingsOfRealInkEqualThePlainReader() throws {
        guard let inks = try SharedDataset.faDiagramsInk() else { return }
        let classifier = try ShapeClassifier.bundledDefault()
        var readings = 0
        for url in inks {
            let file = url.lastPathComponent
            let lines = try SketchFile.read(contentsOf: url)
            var editor = SketchEditor(classifier: classifier)
            var plainCache = ClassificationCache()
            for (index, line) in lines.enumerated() {
                _ = try editor.add(line.strokes)
                // Every stroke goes through the cache; every third reading and the last are
                // checked against the plain reader (measuring everything is slow in a debug build).
                guard index % 3 == 2 || index == lines.count - 1 else { continue }
                Self.expectSame(
                    editor.reading, try Self.plainReading(editor.ink, classifier: classifier, cache: &plainCache),
                    "\(file) after line \(index + 1)")
                readings += 1
            }
            editor.undo()
            Self.expectSame(editor.reading, try Self.plainReading(editor.ink, classifier: classifier, cache: &plainCache), "\(file) undone")
            if let state = editor.sketch.states.first {
                editor.erase(Stroke([(state.center.x - 2 * state.radius, state.center.y), (state.center.x + 2 * state.radius, state.center.y)]))
                Self.expectSame(editor.reading, try Self.plainReading(editor.ink, classifier: classifier, cache: &plainCache), "\(file) erased")
            }
        }
        #expect(readings > 0)
    }

    /// Synthesized ink (no shared data needed): the same, stroke by stroke.
    @Test func editorReadingsOfSynthesizedInkEqualThePlainReader() throws {
        let a = SketchPoint(100, 100), b = SketchPoint(300, 100)
        let strokes = [
            Pen.circle(a, 30), Pen.circle(b, 30), Pen.circle(b, 36),
            Pen.arrow(a + SketchPoint(30, 0), b - SketchPoint(36, 0)), Pen.arrow(a - SketchPoint(110, 0), a - SketchPoint(30, 0)),
            HandwrittenLabelTests.zero(SketchPoint(200, 80)), HandwrittenLabelTests.one(SketchPoint(100, 100)),
        ]
        let classifier = ClosedOrOpenClassifier()
        var editor = SketchEditor(classifier: classifier)
        var plainCache = ClassificationCache()
        for (index, stroke) in strokes.enumerated() {
            _ = try editor.add(stroke)
            Self.expectSame(editor.reading, try Self.plainReading(editor.ink, classifier: classifier, cache: &plainCache), "stroke \(index + 1)")
        }
        #expect(editor.sketch.states.count == 2)
    }

    /// An editor whose cache keeps only three classifications of each kind (so it drops and
    /// classifies again all the time) reads every stroke as the plain reader does, and a stroke
    /// that is text leaves the shape stage kept from the reading before.
    @Test func editorWithATinyClassificationCacheReadsTheSame() throws {
        let a = SketchPoint(100, 100), b = SketchPoint(300, 100)
        let strokes = [
            Pen.circle(a, 30), Pen.circle(b, 30), Pen.arrow(a + SketchPoint(30, 0), b - SketchPoint(30, 0)),
            HandwrittenLabelTests.zero(SketchPoint(200, 80)), HandwrittenLabelTests.one(SketchPoint(215, 80)),
            Pen.circle(b, 36), HandwrittenLabelTests.one(SketchPoint(100, 100)),
        ]
        let classifier = ClosedOrOpenClassifier()
        var editor = SketchEditor(classifier: classifier)
        editor.cache = ClassificationCache(capacity: 3)
        var plainCache = ClassificationCache()
        for (index, stroke) in strokes.enumerated() {
            let shapesBefore = editor.cache.shapeStage?.key
            _ = try editor.add(stroke)
            Self.expectSame(editor.reading, try Self.plainReading(editor.ink, classifier: classifier, cache: &plainCache), "stroke \(index + 1)")
            #expect(editor.cache.entriesCount <= 3 && editor.cache.characters.count <= 3, "stroke \(index + 1)")
            if editor.reading.isText(stroke: index) {
                #expect(shapesBefore != nil && editor.cache.shapeStage?.key == shapesBefore, "stroke \(index + 1): shape stage kept")
            }
        }
        #expect(editor.reading.labels.count >= 1)
    }

    /// The least recently used half goes once the capacity is passed; a value looked up counts
    /// as used.
    @Test func recentlyUsedDropsTheLeastRecentlyUsedHalf() {
        var memo = RecentlyUsed<Int, String>(capacity: 4)
        for key in 0..<4 { memo.insert("v\(key)", for: key) }
        #expect(memo.value(for: 0) == "v0")  // 0 is now the most recently used
        memo.insert("v4", for: 4)
        #expect(memo.count <= 4)
        #expect(memo.value(for: 0) == "v0" && memo.value(for: 4) == "v4")
        #expect(memo.value(for: 1) == nil && memo.value(for: 2) == nil)
        memo.insert("w4", for: 4)
        #expect(memo.value(for: 4) == "w4")
    }

    /// The roundness of drawings from the cache is the one measured now, for one stroke and for
    /// several (never joined to be looked up: each stroke is a key of its own), and a run of
    /// strokes differing in one stroke is another entry.
    @Test func roundnessFromTheCacheIsMeasuredRoundness() {
        let arcs = (0..<3).map { part in
            (0...10).map { step in
                let angle = 2 * Double.pi * (Double(part) + Double(step) / 10) / 3
                return SketchPoint(50 + 20 * cos(angle), 50 + 20 * sin(angle))
            }
        }
        let cache = MeasuresCache()
        cache.startReading(with: tuned)
        for strokes in [Array(arcs[0...1]), arcs, [arcs[0], [], arcs[2]], [arcs[0], arcs[1], arcs[1]]] {
            let measured = MeasuresCache.$current.withValue(nil) { DrawingMeasures.roundness(strokes: strokes) }
            for _ in 0..<2 {
                let cached = MeasuresCache.$current.withValue(cache) { DrawingMeasures.roundness(strokes: strokes) }
                #expect(cached.centroid == measured.centroid && cached.meanRadius == measured.meanRadius
                    && cached.radialSpread == measured.radialSpread)
            }
        }
        let one = MeasuresCache.$current.withValue(cache) { DrawingMeasures.roundness(arcs[1]) }
        #expect(one.meanRadius == DrawingMeasures.roundness(arcs[1]).meanRadius)
        #expect(cache.count == 5)
        cache.finishReading()
    }

    /// Measures from the cache are the ones measured now; points whose bytes differ (0 and -0)
    /// are two entries; entries a reading did not use are dropped at its end; other parameters
    /// drop everything.
    @Test func measuresCacheKeysAndLifetime() {
        let circle = Pen.circle(SketchPoint(50, 50), 20).sketchPoints
        let line = [SketchPoint(0, 0), SketchPoint(10, 0), SketchPoint(20, 1)]
        let negativeZero = [SketchPoint(-0.0, 0), SketchPoint(10, 0), SketchPoint(20, 1)]
        let cache = MeasuresCache()
        cache.startReading(with: tuned)
        let fromCache = MeasuresCache.$current.withValue(cache) { DrawingMeasures(circle) }
        let measured = DrawingMeasures(measuring: circle)
        #expect(fromCache.winding == measured.winding && fromCache.tip == measured.tip && fromCache.pathLength == measured.pathLength)
        #expect(fromCache.extent == Geometry.extent(circle))
        MeasuresCache.$current.withValue(cache) {
            _ = DrawingMeasures(line)
            _ = DrawingMeasures(negativeZero)
            _ = DrawingMeasures(line)
        }
        #expect(cache.count == 3)
        cache.finishReading()
        cache.startReading(with: tuned)
        _ = cache.measures(of: line)
        // A reading that kept the shape stage keeps what it did not use for the next reading.
        cache.finishReading(partial: true)
        #expect(cache.count == 4)  // `line` in this reading's and the last one's entries
        cache.startReading(with: tuned)
        _ = cache.measures(of: line)
        cache.finishReading()
        #expect(cache.count == 1)
        var other = tuned
        other.shapes.tipNearFarthest -= 0.1
        cache.startReading(with: other)
        #expect(cache.count == 0)
        #expect(MeasuresCache.Key(points: line) != MeasuresCache.Key(points: negativeZero))
        #expect(MeasuresCache.Key(points: line) == MeasuresCache.Key(points: Array(line)))
    }
}
