import AutomataSketch
import Foundation
import TestSupport
import Testing

/// JFLAP (.jff) in and out, TikZ out, and InkML sketches: what other tools read and write.
@Suite struct InterchangeTests {
    /// q0 initial with an ε self-loop, q1 final, q0 -> q1 on 0 and 1, q1 -> q0 on 1 (so an edge
    /// runs each way between them).
    func sampleSketch() -> Sketch {
        var editor = SketchEditor()
        _ = editor.add(Pen.circle(SketchPoint(100, 100), 40), as: .circle)
        _ = editor.add(Pen.circle(SketchPoint(300, 100), 40), as: .circle, name: "end x")
        _ = editor.add(Pen.circle(SketchPoint(300, 100), 50), as: .circle)
        _ = editor.add(Pen.arc(SketchPoint(145, 90), SketchPoint(255, 90), bulge: -20), as: .arrow, symbols: ["0", "1"])
        _ = editor.add(Pen.arc(SketchPoint(255, 115), SketchPoint(145, 115), bulge: -20), as: .arrow, symbols: ["1"])
        _ = editor.add(Pen.loop(SketchPoint(100, 100), 40), as: .cycle, isEpsilon: true)
        _ = editor.add(Pen.arrow(SketchPoint(-20, 100), SketchPoint(55, 100)), as: .arrow)
        return editor.sketch
    }

    @Test func sampleHasWhatTheExportsMustCarry() {
        let sketch = sampleSketch()
        #expect(sketch.states.count == 2)
        #expect(sketch.transitions.filter(\.isConnected).count == 3, "\(sketch.transitions.map { sketch.describe($0) })")
    }

    @Test func automatonToJFLAPToAutomatonGivesTheSameAutomaton() throws {
        let original = sampleSketch()
        // .automaton -> .jff -> .automaton, through files as a user would.
        let folder = try TemporaryDirectory()
        let documentURL = folder.url.appendingPathComponent("a.automaton")
        try AutomatonDocument.save(original, to: documentURL)
        let jffURL = folder.url.appendingPathComponent("a.jff")
        try JFLAP.jff(try AutomatonDocument.load(from: documentURL)).write(to: jffURL, atomically: true, encoding: .utf8)
        let back = try AutomatonDocument.open(jffURL)
        try AutomatonDocument.save(back, to: documentURL)
        let reloaded = try AutomatonDocument.load(from: documentURL)
        #expect(reloaded.automaton() == original.automaton(), "\(reloaded.automaton()) against \(original.automaton())")
        for (a, b) in zip(reloaded.states, original.states) {
            #expect(a.name == b.name && a.center == b.center && a.isFinal == b.isFinal)
        }
        #expect(reloaded.states.count == original.states.count)
        // Words agree too (ε-loop, both directions).
        for word in ["", "0", "1", "01", "011", "0101", "10"] {
            #expect(reloaded.automaton().simulate(word).isAccepted == original.automaton().simulate(word).isAccepted, "\(word)")
        }
    }

    @Test func severalSymbolsBecomeOneJFLAPTransitionEachAndEpsilonAnEmptyRead() throws {
        let jff = try JFLAP.jff(sampleSketch())
        let reads = jff.components(separatedBy: "\n").filter { $0.contains("<read") }.map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(reads == ["<read>0</read>", "<read>1</read>", "<read>1</read>", "<read/>"])
        #expect(jff.contains("<initial/>") && jff.contains("<final/>") && jff.contains("<type>fa</type>"))
        #expect(jff.contains(#"name="end x""#))
    }

    @Test func multiCharacterReadIsAPathOfOneCharacterMoves() throws {
        let jff = """
            <structure><type>fa</type><automaton>
            <state id="0" name="p"><x>0</x><y>0</y><initial/></state>
            <state id="1" name="q"><x>300</x><y>0</y><final/></state>
            <transition><from>0</from><to>1</to><read>abc</read></transition>
            <transition><from>1</from><to>1</to><read>a</read></transition>
            </automaton></structure>
            """
        let sketch = try JFLAP.parse(Data(jff.utf8), source: "test.jff")
        #expect(sketch.states.map(\.name) == ["p", "q", "p_a", "p_ab"])
        let nfa = sketch.automaton()
        // JFLAP's meaning: "abc" then any number of a.
        for (word, accepted) in [("abc", true), ("abca", true), ("ab", false), ("a", false), ("abcb", false)] {
            #expect(nfa.simulate(word).isAccepted == accepted, "\(word)")
        }
    }

    @Test func jflapFilesJFLAPCannotMeanAreRefusedClearly() throws {
        var sketch = sampleSketch()
        let loop = sketch.transitions.first { $0.kind == .selfLoop }!
        var editor = SketchEditor(sketch: sketch)
        try editor.setSymbols(["ab"], isEpsilon: false, forTransition: loop.id)
        sketch = editor.sketch
        #expect(throws: JFLAPError.self) { try JFLAP.jff(sketch) }
        do { _ = try JFLAP.jff(sketch) } catch { #expect("\(error)".contains("\"ab\"")) }

        let cases: [(String, String)] = [
            ("<structure><type>pda</type></structure>", "not a finite automaton"),
            ("<automaton/>", "not <structure>"),
            ("<structure><type>fa</type><state id=\"0\"><x>1</x></state></structure>", "no <y>"),
            ("<structure><type>fa</type><state id=\"0\"><x>1</x><y>a</y></state></structure>", "not a number"),
            ("<structure><type>fa</type><transition><from>0</from><to>0</to></transition></structure>", "names no state"),
            ("<structure><type>fa</type><state id=\"0\"><x>1</x><y>1</y></state><state id=\"0\"><x>1</x><y>1</y></state></structure>", "two states have id 0"),
            ("<!DOCTYPE x [<!ENTITY a \"b\">]><structure/>", "DOCTYPE"),
            ("<structure>", "not well-formed"),
        ]
        for (text, expected) in cases {
            do {
                _ = try JFLAP.parse(Data(text.utf8), source: "t.jff")
                Issue.record("\(text): no error")
            } catch {
                #expect("\(error)".hasPrefix("t.jff: ") && "\(error)".contains(expected), "\(text): \(error)")
            }
        }
    }

    @Test func tikzHasStatesInitialAcceptingLoopsBendsAndLabels() {
        let tikz = TikZExport.picture(sampleSketch())
        #expect(tikz.contains("\\begin{tikzpicture}") && tikz.contains("\\end{tikzpicture}"))
        #expect(tikz.contains("\\node[state, initial left] (s0) at ("), "\(tikz)")
        #expect(tikz.contains("{$q_{0}$};") && tikz.contains("{end x};"), "\(tikz)")
        #expect(tikz.contains("\\node[state, accepting] (s1) at (5.0"), "200 points right of q0 is 5 cm: \(tikz)")
        #expect(tikz.contains("(s0) edge[loop above] node {$\\varepsilon$} (s0)"), "\(tikz)")
        #expect(tikz.contains("(s0) edge[bend left] node {0, 1} (s1)"), "\(tikz)")
        #expect(tikz.contains("(s1) edge[bend left] node {1} (s0)"), "\(tikz)")
        #expect(TikZExport.document(sampleSketch()).contains("\\usetikzlibrary{automata"))
    }

    @Test func tikzDocumentCompilesWithPdflatex() throws {
        let pdflatex = ["/usr/bin/pdflatex", "/usr/local/bin/pdflatex"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let pdflatex else {
            print("skipped: pdflatex is not installed (apt-get install texlive-latex-base texlive-pictures)")
            return
        }
        let folder = try TemporaryDirectory()
        try TikZExport.document(sampleSketch()).write(to: folder.url.appendingPathComponent("automaton.tex"), atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: pdflatex)
        process.arguments = ["-interaction=nonstopmode", "-halt-on-error", "automaton.tex"]
        process.currentDirectoryURL = folder.url
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let log = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "pdflatex failed:\n\(log.suffix(2000))")
        let pdf = try Data(contentsOf: folder.url.appendingPathComponent("automaton.pdf"))
        #expect(pdf.starts(with: Data("%PDF".utf8)))
    }

    @Test func inkMLSketchIsOneLinePerTraceInScreenPoints() throws {
        let text = """
            <?xml version="1.0"?>
            <ink><traceFormat><channel name="X"/><channel name="Y"/><channel name="T"/></traceFormat>
            <trace>4000 4000 0, 8000 4000 10</trace><trace>4000 4400 20, 4000 6000 30</trace>
            <traceGroup><annotation type="truth">arrow</annotation><traceView traceDataRef="0"/></traceGroup></ink>
            """
        let lines = try SketchFile.parse(Data(text.utf8), source: "t.inkml")
        #expect(lines.map(\.lineNumber) == [1, 2])
        #expect(lines.map { $0.strokes.count } == [1, 1])
        // 4000 wide -> 600 points; starts at (20, 20); times kept.
        #expect(lines[0].strokes[0].points.map { [$0.x, $0.y, $0.time!] } == [[20, 20, 0], [620, 20, 10]])
        // And ndjson still reads as before through the same entry point.
        let ndjson = try SketchFile.parse(Data(#"{"drawing": [[[1, 2], [3, 4]]]}"#.utf8), source: "t.ndjson")
        #expect(ndjson.count == 1)
        guard case .ink(let strokes) = try OpenedFile.read(Data(text.utf8), source: "t") else {
            Issue.record("InkML not opened as ink")
            return
        }
        #expect(strokes.count == 2)
        guard case .sketch(let sketch) = try OpenedFile.read(Data(try JFLAP.jff(sampleSketch()).utf8), source: "t") else {
            Issue.record("JFLAP not opened as a sketch")
            return
        }
        #expect(sketch.automaton() == sampleSketch().automaton())
    }
}
