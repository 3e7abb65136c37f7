import AutomataSketch
import Foundation
import Testing

/// `.automaton` documents and Graphviz export.
@Suite struct DocumentTests {
    func sampleSketch() throws -> Sketch {
        var editor = SketchEditor()
        _ = editor.add(Pen.circle(SketchPoint(100, 100), 40), as: .circle)
        _ = editor.add(Pen.circle(SketchPoint(300, 100), 40), as: .circle, name: "end x")
        _ = editor.add(Pen.circle(SketchPoint(300, 100), 50), as: .circle)
        _ = editor.add(Pen.arrow(SketchPoint(145, 100), SketchPoint(255, 100)), as: .arrow, symbols: ["0", "1"])
        _ = editor.add(Pen.loop(SketchPoint(100, 100), 40), as: .cycle, isEpsilon: true)
        _ = editor.add(Pen.arrow(SketchPoint(-20, 100), SketchPoint(55, 100)), as: .arrow)
        return editor.sketch
    }

    func temporaryURL(_ name: String) -> URL {
        FileManager.default.temporaryDirectory
            .appendingPathComponent("automata-\(UUID().uuidString)-\(name)")
    }

    @Test func saveThenLoadGivesTheSameSketch() throws {
        let sketch = try sampleSketch()
        let url = temporaryURL("round.automaton")
        defer { try? FileManager.default.removeItem(at: url) }
        try AutomatonDocument.save(sketch, to: url)
        let loaded = try AutomatonDocument.load(from: url)
        #expect(loaded == sketch)
        #expect(loaded.automaton() == sketch.automaton())
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(text.contains("\"format\" : \"strokekit.automaton\""))
        #expect(text.contains("\"version\" : 1"))
    }

    @Test func futureVersionIsAClearError() throws {
        var text = String(decoding: try AutomatonDocument.encode(try sampleSketch()), as: UTF8.self)
        text = text.replacingOccurrences(of: "\"version\" : 1", with: "\"version\" : 7")
        let error = #expect(throws: AutomatonDocumentError.self) {
            try AutomatonDocument.decode(Data(text.utf8), source: "new.automaton")
        }
        #expect(error == .futureVersion(path: "new.automaton", version: 7))
        #expect(error?.description.contains("update strokekit") == true)
    }

    @Test func malformedDocumentsAreClearErrors() throws {
        let cases: [(String, String)] = [
            ("{ not json", "not a JSON document"),
            ("[1, 2]", "not an automaton document"),
            ("{\"format\": \"other\", \"version\": 1}", "not an automaton document"),
            ("{\"format\": \"strokekit.automaton\"}", "\"version\" is missing"),
            ("{\"format\": \"strokekit.automaton\", \"version\": 1}", "missing \"sketch\""),
            ("{\"format\": \"strokekit.automaton\", \"version\": 1, \"sketch\": {\"states\": 3}}", "damaged"),
        ]
        for (text, expected) in cases {
            do {
                _ = try AutomatonDocument.decode(Data(text.utf8), source: "bad.automaton")
                Issue.record("accepted \(text)")
            } catch {
                let message = "\(error)"
                #expect(message.hasPrefix("bad.automaton: "), "\(message)")
                #expect(message.contains(expected), "for \(text): \(message)")
            }
        }
    }

    @Test func inconsistentReferencesAreRejected() throws {
        var text = String(decoding: try AutomatonDocument.encode(try sampleSketch()), as: UTF8.self)
        text = text.replacingOccurrences(of: "\"to\" : 1", with: "\"to\" : 9")
        #expect(throws: AutomatonDocumentError.self) { try AutomatonDocument.decode(Data(text.utf8), source: "x") }
    }

    @Test func missingFileAndUnwritableFolderAreErrors() throws {
        #expect(throws: AutomatonDocumentError.self) { try AutomatonDocument.load(from: temporaryURL("absent")) }
        let url = URL(fileURLWithPath: "/nonexistent-folder-\(UUID().uuidString)/x.automaton")
        #expect(throws: AutomatonDocumentError.self) { try AutomatonDocument.save(try sampleSketch(), to: url) }
    }

    @Test func dotExportDrawsStatesFinalsInitialsAndLabels() throws {
        let dot = GraphvizExport.dot(try sampleSketch())
        #expect(dot.hasPrefix("digraph automaton {"))
        #expect(dot.contains("\"end x\" [shape=doublecircle];"), "\(dot)")
        #expect(dot.contains("__start0 -> \"q0\";"))
        #expect(dot.contains("\"q0\" -> \"end x\" [label=\"0, 1\"];"))
        #expect(dot.contains("\"q0\" -> \"q0\" [label=\"ε\"];"))
    }
}

@Suite struct DocumentLimitTests {
    @Test func documentJustOverTheSizeLimitIsRefused() {
        let data = Data(repeating: 0x20, count: AutomatonDocument.maximumBytes + 1)
        do {
            _ = try AutomatonDocument.decode(data, source: "big.automaton")
            Issue.record("accepted a document over the limit")
        } catch {
            #expect("\(error)".contains("AutomatonDocument.maximumBytes"), "\(error)")
        }
    }
}
