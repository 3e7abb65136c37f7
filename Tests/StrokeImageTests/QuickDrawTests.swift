import Foundation
import StrokeImage
import Testing

@Suite struct QuickDrawTests {
    // A simplified-format line (string key_id) and a raw-format line (times, numeric key_id).
    let simplified = #"{"word":"circle","countrycode":"US","timestamp":"2017-03-09 00:28:55.63 UTC","recognized":true,"key_id":"5152802093400064","drawing":[[[0,10,20],[5,6,7]],[[1,2],[3,4]]]}"#
    let raw = #"{"key_id":4930130722373632,"word":"line","drawing":[[[0.5,100.25],[1,2],[0,16]]],"symbols":["a",null,{"b":1.5}]}"#

    @Test func parsesStrokesWithAndWithoutTimestamps() throws {
        let (drawings, warnings) = try QuickDraw.parse(simplified + "\n" + raw + "\n", source: "t.ndjson")
        #expect(warnings.isEmpty)
        try #require(drawings.count == 2)
        #expect(drawings[0].strokes == [Stroke([(0, 5), (10, 6), (20, 7)]), Stroke([(1, 3), (2, 4)])])
        #expect(drawings[1].strokes == [Stroke(points: [StrokePoint(x: 0.5, y: 1, time: 0),
                                                         StrokePoint(x: 100.25, y: 2, time: 16)])])
        #expect(drawings.map(\.lineNumber) == [1, 2])
    }

    @Test func keepsWordKeyIDAndEveryOtherKey() throws {
        let drawings = try QuickDraw.parse(simplified + "\n" + raw, source: "t.ndjson").drawings
        #expect(drawings[0].word == "circle")
        #expect(drawings[0].keyID == "5152802093400064")
        #expect(drawings[0].properties == [
            "countrycode": .string("US"), "timestamp": .string("2017-03-09 00:28:55.63 UTC"), "recognized": .bool(true),
        ])
        #expect(drawings[1].keyID == "4930130722373632", "a numeric key_id becomes its digits")
        #expect(drawings[1].properties == [
            "symbols": .array([.string("a"), .null, .object(["b": .number(1.5)])]),
        ])
    }

    @Test func blankLinesAreIgnoredAndLineNumbersCountThem() throws {
        let text = "\n  \n" + simplified + "\r\n\n" + raw + "\n\n"
        let drawings = try QuickDraw.parse(text, source: "t.ndjson").drawings
        #expect(drawings.map(\.lineNumber) == [3, 5])
    }

    /// Each malformed line, the error it must give, and a fragment of its message.
    static let malformed: [(line: String, expected: QuickDrawError, message: String)] = [
        ("{not json", .notJSON(source: "bad.ndjson", line: 2), "not valid JSON"),
        ("[1, 2]", .notAnObject(source: "bad.ndjson", line: 2), "JSON object"),
        (#"{"word":"x"}"#, .missingDrawing(source: "bad.ndjson", line: 2), "no \"drawing\""),
        (#"{"drawing":"abc"}"#, .drawingNotAList(source: "bad.ndjson", line: 2), "not a list"),
        (#"{"drawing":[]}"#, .emptyDrawing(source: "bad.ndjson", line: 2), "no strokes"),
        (#"{"drawing":[[[1,2]]]}"#, .malformedStroke(source: "bad.ndjson", line: 2, stroke: 1), "stroke 1"),
        (#"{"drawing":[[[1],[2]],[[1],[2],[3],[4]]]}"#,
         .malformedStroke(source: "bad.ndjson", line: 2, stroke: 2), "[xs, ys]"),
        (#"{"drawing":[[[1,2],3]]}"#, .malformedStroke(source: "bad.ndjson", line: 2, stroke: 1), "stroke 1"),
        (#"{"drawing":[[[1,2],[3]]]}"#,
         .lengthMismatch(source: "bad.ndjson", line: 2, stroke: 1, lengths: [2, 1]), "different lengths 2, 1"),
        (#"{"drawing":[[[1,2],[3,4],[5]]]}"#,
         .lengthMismatch(source: "bad.ndjson", line: 2, stroke: 1, lengths: [2, 2, 1]), "different lengths"),
        (#"{"drawing":[[[1,"2"],[3,4]]]}"#,
         .nonNumericValue(source: "bad.ndjson", line: 2, stroke: 1, array: "xs", index: 1), "xs[1] is not a number"),
        (#"{"drawing":[[[1],[2]],[[1],[null]]]}"#,
         .nonNumericValue(source: "bad.ndjson", line: 2, stroke: 2, array: "ys", index: 0), "stroke 2: ys[0]"),
        (#"{"drawing":[[[],[]]]}"#, .emptyStroke(source: "bad.ndjson", line: 2, stroke: 1), "no points"),
    ]

    @Test(arguments: 0..<malformed.count)
    func malformedLineThrowsNamingSourceAndLine(_ index: Int) {
        let (line, expected, message) = Self.malformed[index]
        let text = simplified + "\n" + line + "\n" + raw
        #expect(throws: expected) { try QuickDraw.parse(text, source: "bad.ndjson") }
        #expect(expected.line == 2)
        #expect(expected.description.hasPrefix("bad.ndjson:2: "), "message: \(expected.description)")
        #expect(expected.description.contains(message), "message: \(expected.description)")
    }

    @Test func skipBadWarnsPerBadLineAndKeepsTheRest() throws {
        let text = [simplified, "{oops", raw, #"{"drawing":[]}"#, simplified].joined(separator: "\n")
        let (drawings, warnings) = try QuickDraw.parse(text, source: "mixed.ndjson", skipBad: true)
        #expect(drawings.map(\.lineNumber) == [1, 3, 5])
        #expect(warnings.count == 2)
        #expect(warnings.first?.hasPrefix("mixed.ndjson:2: ") == true, "\(warnings)")
        #expect(warnings.last?.hasPrefix("mixed.ndjson:4: ") == true, "\(warnings)")
    }

    @Test func encodeThenParseGivesTheSameDrawings() throws {
        var original = try QuickDraw.parse(simplified + "\n" + raw, source: "t.ndjson").drawings
        original.append(QuickDrawDrawing(
            strokes: [Stroke([(0.1, -2.5e-7), (1e20, 3)])], word: "quote \" and \\ and\nnewline", keyID: nil,
            properties: ["nested": .object(["list": .array([.bool(false), .number(-0.25)])])]))
        let text = QuickDraw.encode(original)
        #expect(text.split(separator: "\n").count == 3)
        var parsed = try QuickDraw.parse(text, source: "encoded").drawings
        for index in parsed.indices { parsed[index].lineNumber = original[index].lineNumber }
        #expect(parsed == original)
    }

    @Test func readNamesTheFileInErrors() throws {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("quickdraw-\(UUID().uuidString).ndjson")
        try (simplified + "\n" + #"{"drawing":[[[1],[2,3]]]}"# + "\n").write(to: url, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(throws: QuickDrawError.lengthMismatch(source: url.path, line: 2, stroke: 1, lengths: [1, 2])) {
            try QuickDraw.read(contentsOf: url)
        }
        let (drawings, warnings) = try QuickDraw.read(contentsOf: url, skipBad: true)
        #expect(drawings.count == 1)
        #expect(warnings == ["\(url.path):2: stroke 1 has coordinate lists of different lengths 1, 2"])
        let missing = url.appendingPathExtension("missing")
        #expect(throws: QuickDrawError.self) { try QuickDraw.read(contentsOf: missing) }
    }
}
