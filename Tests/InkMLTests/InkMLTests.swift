import Foundation
import InkML
import StrokeImage
import Testing

/// The InkML reader: channels, the spec's difference encodings, contexts, units, groups,
/// limits and errors. Expected values are worked out by hand in the comments.
@Suite struct InkMLTests {
    func parse(_ text: String, limits: InkML.Limits = InkML.Limits()) throws -> [InkTrace] {
        try InkML.parse(Data(text.utf8), source: "test.inkml", limits: limits)
    }

    func error(_ text: String, limits: InkML.Limits = InkML.Limits()) -> InkMLError? {
        do {
            _ = try parse(text, limits: limits)
            return nil
        } catch let error as InkMLError {
            return error
        } catch {
            Issue.record("expected an InkMLError, got \(error)")
            return nil
        }
    }

    @Test func decodesExplicitFirstAndSecondDifferences() throws {
        // After the spec's example: (1125, 18432); then first differences 23, 43 -> (1148, 18475);
        // then second differences 7, -8 on velocity (23, 43) -> (1148+30, 18475+35) = (1178, 18510);
        // "3-5": still second differences, velocity (30, 35) -> (1211, 18540); "!10 10": the
        // prefix is per channel, so x is 10 and y stays a second difference: 18540 + 30 + 10.
        let traces = try parse(#"<ink><trace>1125 18432,'23'43,"7"-8, 3-5, !10 10</trace></ink>"#)
        let points = traces[0].points.map { [$0.x, $0.y] }
        #expect(points == [[1125, 18432], [1148, 18475], [1178, 18510], [1211, 18540], [10, 18580]])
    }

    @Test func starRepeatsAndQuestionMarkDropsThePoint() throws {
        // "* *" repeats (5, 6); "? 7" has no x: the point is dropped; '#1F' is 31, 'T' is 1.
        let traces = try parse("<ink><trace>5 6, * *, ? 7, #1F T</trace></ink>")
        #expect(traces[0].points.map { [$0.x, $0.y] } == [[5, 6], [5, 6], [31, 1]])
    }

    @Test func readsTimeAndPressureChannelsInTheirOrder() throws {
        let traces = try parse("""
            <ink><traceFormat><channel name="T"/><channel name="X"/><channel name="P"/><channel name="Y"/></traceFormat>
            <trace timeOffset="100">0 1 9 2, 15 3 8 4</trace></ink>
            """)
        #expect(traces[0].points == [InkPoint(x: 1, y: 2, time: 100, force: 9), InkPoint(x: 3, y: 4, time: 115, force: 8)])
        #expect(traces[0].pointsPerUnit == nil)
    }

    @Test func contextsUnitsOrientationGroupsAndDefinitions() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fuzz/Corpus/FuzzInkML/context-units.inkml")
        let traces = try InkML.read(contentsOf: url)
        #expect(traces.count == 3)
        // Format "xyt": Y is -ve (flipped), T in seconds (x 1000), F intermittent (dropped).
        #expect(traces[0].points.map { [$0.x, $0.y, $0.time!] } == [[10, -20, 1000], [11, -21, 1100], [12, -22, 1200]])
        #expect(traces[0].points.allSatisfy { $0.force == nil })
        let millimetre = 96 / 25.4
        #expect(abs(traces[0].pointsPerUnit!.x - millimetre) < 1e-12)
        // The ink source's resolution, 1000 per cm: one unit is 0.01 mm.
        #expect(abs(traces[1].pointsPerUnit!.y - 96 / 2.54 / 1000) < 1e-12)
        #expect(traces[0].group == 0 && traces[1].group == 0)
        // The trace kept in <definitions> is drawn where the traceView names it, outside any group.
        #expect(traces[2].id == "kept" && traces[2].group == nil)
    }

    @Test func deviceUnitsAreScaledSoTheLongerSideIsTheStandardExtent() throws {
        // Tablet units: 4000 wide, 1000 high -> factor 600/4000 = 0.15, moved to start at 20.
        let traces = try parse("<ink><trace>1000 2000, 5000 2000</trace><trace>3000 3000</trace></ink>")
        let strokes = InkML.strokes(traces)
        #expect(strokes.map { $0.points.map { [$0.x, $0.y] } } == [[[20, 20], [620, 20]], [[320, 170]]])
    }

    @Test func sameInkInAnyUnitGivesTheSameStrokesUpToTheScale() throws {
        // One drawing in tablet units and the same one a fortieth the size: identical strokes.
        let xy: [[(Double, Double)]] = [[(0, 0), (410, 33), (600, 250)], [(100, 400), (90, 120)]]
        func document(_ scale: Double, _ offset: Double, units: String? = nil) -> String {
            let format = units.map { #"<traceFormat><channel name="X" units="\#($0)"/><channel name="Y" units="\#($0)"/></traceFormat>"# } ?? ""
            return "<ink>\(format)" + xy.map { stroke in
                "<trace>" + stroke.map { "\($0.0 * scale + offset) \($0.1 * scale + offset)" }.joined(separator: ", ") + "</trace>"
            }.joined() + "</ink>"
        }
        let tablet = InkML.strokes(try parse(document(40, 1234)))
        let screen = InkML.strokes(try parse(document(1, 7)))
        for (a, b) in zip(tablet.flatMap(\.points), screen.flatMap(\.points)) {
            #expect(abs(a.x - b.x) < 1e-9 && abs(a.y - b.y) < 1e-9, "tablet \(a) against screen \(b)")
        }
        // Declared pixels keep their true size (only moved to the margin).
        let pixels = InkML.strokes(try parse(document(1, 0, units: "px")))
        #expect(pixels[0].points[1].x == 410 + InkML.margin && pixels[1].points[1].y == 120 + InkML.margin)
    }

    @Test func drawingsAreOutermostGroupsAndLoneTraces() throws {
        let traces = try parse("""
            <ink><trace>0 0, 1 1</trace>
            <traceGroup><traceGroup><trace>2 2, 3 3</trace></traceGroup><trace>4 4, 5 5</trace></traceGroup>
            <trace>6 6, 7 7</trace></ink>
            """)
        #expect(InkML.drawings(traces).map(\.strokes.count) == [1, 2, 1])
    }

    @Test func badInputIsAClearErrorNamingFileAndLine() throws {
        let cases: [(String, String)] = [
            ("<ink><trace>'1 2</trace></ink>", "a difference with no earlier value"),
            ("<ink><trace>1 2 3</trace></ink>", "more than the 2 values"),
            ("<ink><trace>1</trace></ink>", "has 1 values"),
            ("<ink><trace>1 2,</trace></ink>", "ends with a comma"),
            ("<ink><trace>1 x</trace></ink>", "expected a number"),
            ("<ink><trace>1e999 2</trace></ink>", "beyond"),
            (#"<ink><traceFormat><channel name="X"/></traceFormat><trace>1</trace></ink>"#, "no regular X and Y"),
            (##"<ink><trace contextRef="#nowhere">1 2</trace></ink>"##, "names no <context>"),
            ("<svg><trace>1 2</trace></svg>", "not <ink>"),
            ("<ink><trace>1 2</trace>", "not well-formed"),
            ("<ink></ink>", "no trace with a point"),
            ("<?xml version=\"1.0\"?>\n<!DOCTYPE ink [<!ENTITY a \"aaaa\">]><ink/>", "DOCTYPE"),
        ]
        for (text, expected) in cases {
            let message = error(text)?.description ?? "no error"
            #expect(message.hasPrefix("test.inkml"), "\(text): \(message)")
            #expect(message.contains(expected), "\(text): expected \"\(expected)\" in \(message)")
        }
        #expect(error("<ink>\n\n<trace>'1 2</trace></ink>")?.line == 3)
        // Found by fuzzing: bytes that are not UTF-8 in an element name trapped inside FoundationXML.
        var bad = Data("<ink><trac".utf8)
        bad.append(contentsOf: [0xFF, 0xFE, 0xFF])
        bad.append(contentsOf: Data("e>1 2</trace></ink>".utf8))
        #expect(throws: InkMLError.self) { try InkML.parse(bad, source: "bad.inkml") }
        // Found by fuzzing: an ink source without a trace format inside a context trapped
        // (overlapping access); the context keeps the format it had.
        #expect(try parse(##"<ink><context xml:id="c"><inkSource xml:id="s"/></context><trace contextRef="#c">1 2</trace></ink>"##).count == 1)
        // Also found by fuzzing: an instruction without data crashed FoundationXML; they are blanked.
        #expect(try parse("<?xml version=\"1.0\"?><ink><?x?><trace>1 2</trace></ink>").count == 1)
        #expect(try parse("<?xml0m?>\n<ink><trace>1 2</trace></ink>").count == 1)
    }

    @Test func limitsAreEnforcedWithTheirNames() {
        var limits = InkML.Limits()
        limits.maximumTraces = 2
        #expect(error("<ink><trace>1 2</trace><trace>1 2</trace><trace>1 2</trace></ink>", limits: limits)?.problem.contains("maximumTraces") == true)
        limits = InkML.Limits()
        limits.maximumPointsPerTrace = 2
        #expect(error("<ink><trace>1 2, 3 4, 5 6</trace></ink>", limits: limits)?.problem.contains("maximumPointsPerTrace") == true)
        limits = InkML.Limits()
        limits.maximumBytes = 10
        #expect(error("<ink><trace>1 2</trace></ink>", limits: limits)?.problem.contains("maximumBytes") == true)
        limits = InkML.Limits()
        limits.maximumDepth = 3
        #expect(error("<ink><a><b><c/></b></a><trace>1 2</trace></ink>", limits: limits)?.problem.contains("maximumDepth") == true)
    }
}
