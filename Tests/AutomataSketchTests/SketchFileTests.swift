import AutomataSketch
import Foundation
import Testing

/// Sketch files (ndjson) and the report `strokekit recognize` prints.
@Suite struct SketchFileTests {
    @Test func parsesQuickDrawLinesWithLabels() throws {
        let text = """
            {"drawing": [[[0, 10, 20], [5, 6, 7]]], "name": "start", "word": "circle"}

            {"drawing": [[[0, 1], [2, 3], [100, 200]], [[4], [5]]], "symbols": ["0", "1"], "epsilon": true}
            {"drawing": [[[0, 1], [2, 3]]], "symbols": "a,b"}
            """
        let lines = try SketchFile.parse(text, source: "s.ndjson")
        #expect(lines.map(\.lineNumber) == [1, 3, 4])
        #expect(lines[0].name == "start")
        #expect(lines[0].strokes[0].points.map(\.x) == [0, 10, 20])
        #expect(lines[1].strokes.count == 2)
        #expect(lines[1].strokes[0].points[1].time == 200)
        #expect(lines[1].symbols == ["0", "1"] && lines[1].isEpsilon)
        #expect(lines[2].symbols == ["a", "b"])
    }

    @Test func badLinesNameFileLineAndProblem() {
        let cases: [(String, String)] = [
            ("{\"drawing\": [[[0, 1], [2]]]}", "s.ndjson:1: stroke 1 has coordinate lists of different lengths 2, 1"),
            ("{\"strokes\": []}", "s.ndjson:1: no \"drawing\" key"),
            ("{\"drawing\": []}", "s.ndjson:1: \"drawing\" has no strokes"),
            ("{\"drawing\": [[[0], [1]]], \"symbols\": [1]}", "s.ndjson:1: \"symbols\" has the wrong type"),
            ("{\"drawing\": [[[0], [1]]], \"epsilon\": \"yes\"}", "s.ndjson:1: \"epsilon\" has the wrong type"),
            ("{\"drawing\": [[[0], [1]]], \"name\": 3}", "s.ndjson:1: \"name\" has the wrong type"),
            ("not json", "s.ndjson:1: not valid JSON"),
            ("{\"drawing\": [[[0]]]}", "s.ndjson:1: stroke 1 is not [xs, ys] or [xs, ys, ts]"),
            ("{\"drawing\": [[[], []]]}", "s.ndjson:1: stroke 1 has no points"),
            ("\n\n", "s.ndjson: the sketch has no strokes"),
        ]
        for (text, expected) in cases {
            do {
                _ = try SketchFile.parse(text, source: "s.ndjson")
                Issue.record("accepted \(text)")
            } catch {
                #expect("\(error)".hasPrefix(expected), "for \(text): \(error)")
            }
        }
    }

    @Test func readsLFCRLFAndAMissingFinalNewlineAlike() throws {
        let lines = [
            "{\"drawing\": [[[0, 10, 20], [5, 6, 7]]], \"name\": \"start\"}",
            "{\"drawing\": [[[0, 1], [2, 3]]], \"symbols\": [\"a\"]}",
        ]
        let lf = try SketchFile.parse(lines.joined(separator: "\n") + "\n", source: "lf.ndjson")
        let crlf = try SketchFile.parse(lines.joined(separator: "\r\n") + "\r\n", source: "crlf.ndjson")
        let bare = try SketchFile.parse(lines.joined(separator: "\n"), source: "bare.ndjson")
        #expect(lf.count == 2)
        #expect(crlf == lf, "CRLF line ends read like LF")
        #expect(bare == lf, "a missing final newline reads like one")
        #expect(crlf[1].symbols == ["a"] && crlf[0].name == "start")
    }

    /// The scripted sketch for "words over {0,1} with an odd number of 1s".
    func oddOnes() -> ScriptedSketch {
        var script = ScriptedSketch()
        let even = SketchPoint(100, 100), odd = SketchPoint(300, 100)
        script.draw(Pen.circle(even, 40), as: "circle")
        script.draw(Pen.circle(odd, 40), as: "circle")
        script.draw(Pen.circle(odd, 52), as: "circle")
        script.draw(Pen.arrow(even - SketchPoint(120, 0), even - SketchPoint(44, 0)), as: "arrow")
        script.draw(Pen.arc(even + SketchPoint(30, -30), odd + SketchPoint(-30, -30), bulge: 40), as: "arrow", symbols: ["1"])
        script.draw(Pen.arc(odd + SketchPoint(-30, 30), even + SketchPoint(30, 30), bulge: 40), as: "arrow", symbols: ["1"])
        script.draw(Pen.loop(even, 40), as: "cycle", symbols: ["0"])
        script.draw(Pen.loop(odd, 40), as: "cycle", symbols: ["0"])
        return script
    }

    @Test func reportHasTheDocumentedJSONKeys() throws {
        let script = oddOnes()
        let lines = try SketchFile.parse(script.ndjson, source: "odd.ndjson")
        let recognition = try SketchRecognizer.recognize(lines, classifier: script.classifier, source: "odd.ndjson")
        let report = RecognitionReport(sketch: recognition.sketch, strokes: recognition.strokes, words: ["", "1", "0110", "0111"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(try report.json().utf8)) as? [String: Any])
        #expect(Set(object.keys).isSuperset(of: ["strokes", "states", "transitions", "simulations"]))
        let strokes = try #require(object["strokes"] as? [[String: Any]])
        #expect(strokes.count == 8)
        #expect(strokes[0]["index"] as? Int == 0 && strokes[0]["label"] as? String == "circle")
        #expect(strokes[0]["outcome"] as? String == "state q0 added")
        let states = try #require(object["states"] as? [[String: Any]])
        #expect(states.map { $0["name"] as? String } == ["q0", "q1"])
        #expect(states.map { $0["initial"] as? Bool } == [true, false])
        #expect(states.map { $0["final"] as? Bool } == [false, true])
        let transitions = try #require(object["transitions"] as? [[String: Any]])
        #expect(transitions.count == 4)
        #expect(transitions[0]["from"] as? String == "q0" && transitions[0]["to"] as? String == "q1")
        #expect(transitions[0]["symbols"] as? [String] == ["1"] && transitions[0]["epsilon"] as? Bool == false)
        let simulations = try #require(object["simulations"] as? [[String: Any]])
        #expect(simulations.map { $0["input"] as? String } == ["", "1", "0110", "0111"])
        #expect(simulations.map { $0["accepted"] as? Bool } == [false, true, false, true])
        let emptyTrace = try #require(simulations[0]["trace"] as? [[String: Any]])
        #expect(emptyTrace.count == 1 && emptyTrace[0]["states"] as? [String] == ["q0"])
        #expect(emptyTrace[0]["symbol"] is NSNull, "the initial step has \"symbol\": null")
        #expect((simulations[0]["reason"] as? String)?.contains("none of these states is final") == true)
    }

    @Test func textReportShowsStrokesTableWordsAndTraces() throws {
        let recognition = try oddOnes().recognize()
        let text = RecognitionReport(sketch: recognition.sketch, strokes: recognition.strokes, words: ["", "10"]).text
        // Lines 2 and 3 are the two circles of one final state (one symbol).
        #expect(text.contains("#2 (line 3, symbol 1: final state)"), "\(text)")
        #expect(text.contains("final state q1 added"), "\(text)")
        #expect(text.contains("→ q0"), "\(text)")
        #expect(text.contains("\"\" rejected: the word ended in {q0}"), "\(text)")
        #expect(text.contains("\"10\" accepted"), "\(text)")
        #expect(text.contains("trace: {q0} -1-> {q1} -0-> {q1}"), "\(text)")
    }

    @Test func labelsThatDidNotApplyBecomeWarnings() throws {
        var script = ScriptedSketch()
        script.draw(Pen.circle(SketchPoint(100, 100), 40), as: "circle", symbols: ["a"])
        script.draw(Pen.arrow(SketchPoint(145, 100), SketchPoint(255, 100)), as: "arrow", name: "x")
        let recognition = try script.recognize()
        let report = RecognitionReport(sketch: recognition.sketch, strokes: recognition.strokes, words: [])
        #expect(report.warnings.contains("symbols on line 1 ignored: the stroke did not create a transition"))
        #expect(report.warnings.contains("name \"x\" on line 2 ignored: the stroke did not create a state"))
        #expect(report.warnings.contains { $0.contains("no initial state") })
        #expect(report.warnings.contains { $0.contains("ends in empty space") })
    }

    @Test func savedDocumentSimulatesLikeTheSketch() throws {
        let recognition = try oddOnes().recognize()
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("odd-\(UUID().uuidString).automaton")
        defer { try? FileManager.default.removeItem(at: url) }
        try AutomatonDocument.save(recognition.sketch, to: url)
        let report = RecognitionReport(sketch: try AutomatonDocument.load(from: url), words: ["111", ""])
        #expect(report.simulations.map(\.accepted) == [true, false])
        #expect(report.strokes.isEmpty)
    }
}
