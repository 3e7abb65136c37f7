import Foundation
import StrokeSupport

/// One drawing of a QuickDraw ndjson file: its strokes and the keys around them.
public struct QuickDrawDrawing: Sendable, Equatable {
    public var strokes: [Stroke]
    /// The `word` key (the drawing's category in Google's files), when it is a string.
    public var word: String?
    /// The `key_id` key, which real files hold as a string or as a number.
    public var keyID: String?
    /// Every other key of the line (`countrycode`, `recognized`, `timestamp`, ...), unchanged.
    public var properties: [String: JSONValue]
    /// The 1-based line of the file the drawing came from (0 when built in code).
    public var lineNumber: Int

    public init(strokes: [Stroke], word: String? = nil, keyID: String? = nil,
                properties: [String: JSONValue] = [:], lineNumber: Int = 0) {
        self.strokes = strokes
        self.word = word
        self.keyID = keyID
        self.properties = properties
        self.lineNumber = lineNumber
    }
}

/// A QuickDraw ndjson line or file that cannot be read. The message names the source and the
/// 1-based line, as `source:line: problem`.
public enum QuickDrawError: Error, CustomStringConvertible, Hashable, Sendable {
    case unreadable(source: String, reason: String)
    case notJSON(source: String, line: Int)
    case notAnObject(source: String, line: Int)
    case missingDrawing(source: String, line: Int)
    case drawingNotAList(source: String, line: Int)
    case emptyDrawing(source: String, line: Int)
    /// Stroke `stroke` (1-based) is not `[xs, ys]` or `[xs, ys, ts]`.
    case malformedStroke(source: String, line: Int, stroke: Int)
    /// The coordinate arrays of stroke `stroke` have different lengths.
    case lengthMismatch(source: String, line: Int, stroke: Int, lengths: [Int])
    /// Element `index` (0-based) of array `array` (`xs`, `ys` or `ts`) of stroke `stroke` is not a number.
    case nonNumericValue(source: String, line: Int, stroke: Int, array: String, index: Int)
    case emptyStroke(source: String, line: Int, stroke: Int)
    /// The line is over one of `QuickDraw.Limits` (`limit` names it).
    case overLimit(source: String, line: Int, what: String, count: Int, limit: String, maximum: Int)

    /// The 1-based line the problem is on (nil when the whole source is unreadable).
    public var line: Int? {
        switch self {
        case .unreadable: nil
        case .notJSON(_, let line), .notAnObject(_, let line), .missingDrawing(_, let line),
             .drawingNotAList(_, let line), .emptyDrawing(_, let line),
             .malformedStroke(_, let line, _), .lengthMismatch(_, let line, _, _),
             .nonNumericValue(_, let line, _, _, _), .emptyStroke(_, let line, _), .overLimit(_, let line, _, _, _, _):
            line
        }
    }

    public var description: String {
        switch self {
        case .unreadable(let source, let reason):
            "\(source): cannot read QuickDraw ndjson: \(reason)"
        case .notJSON(let source, let line):
            "\(source):\(line): not valid JSON (each line must be one JSON object)"
        case .notAnObject(let source, let line):
            "\(source):\(line): expected a JSON object like {\"drawing\": [...]}"
        case .missingDrawing(let source, let line):
            "\(source):\(line): no \"drawing\" key"
        case .drawingNotAList(let source, let line):
            "\(source):\(line): \"drawing\" is not a list of strokes"
        case .emptyDrawing(let source, let line):
            "\(source):\(line): \"drawing\" has no strokes"
        case .malformedStroke(let source, let line, let stroke):
            "\(source):\(line): stroke \(stroke) is not [xs, ys] or [xs, ys, ts] (lists of numbers)"
        case .lengthMismatch(let source, let line, let stroke, let lengths):
            "\(source):\(line): stroke \(stroke) has coordinate lists of different lengths "
                + lengths.map(String.init).joined(separator: ", ")
        case .nonNumericValue(let source, let line, let stroke, let array, let index):
            "\(source):\(line): stroke \(stroke): \(array)[\(index)] is not a number"
        case .emptyStroke(let source, let line, let stroke):
            "\(source):\(line): stroke \(stroke) has no points"
        case .overLimit(let source, let line, let what, let count, let limit, let maximum):
            "\(source):\(line): \(what) has \(count), over the limit of \(maximum) (QuickDraw.Limits.\(limit); "
                + "pass larger limits to the reader to accept it)"
        }
    }
}

/// Google Quick, Draw! ndjson: one JSON object per line, whose `drawing` is a list of strokes,
/// each `[xs, ys]` (the simplified files) or `[xs, ys, ts]` (the raw files, times in ms).
public enum QuickDraw {
    /// Sizes a reader accepts, so that a file or request from outside cannot exhaust memory
    /// or time. The defaults are far above any hand-drawn sketch (a stroke drawn for a
    /// minute at 240 Hz has about 15,000 points).
    public struct Limits: Sendable, Equatable {
        /// Bytes in one line (one drawing).
        public var maximumLineBytes: Int
        /// Strokes in one drawing.
        public var maximumStrokesPerDrawing: Int
        /// Points in one stroke.
        public var maximumPointsPerStroke: Int

        public init(maximumLineBytes: Int = 8 << 20, maximumStrokesPerDrawing: Int = 1_000,
                    maximumPointsPerStroke: Int = 100_000) {
            self.maximumLineBytes = maximumLineBytes
            self.maximumStrokesPerDrawing = maximumStrokesPerDrawing
            self.maximumPointsPerStroke = maximumPointsPerStroke
        }
    }

    /// Parses ndjson text. Blank lines are ignored. With `skipBad`, each bad line becomes a
    /// warning (`source:line: problem`) and the others are still read; otherwise the first bad
    /// line throws a `QuickDrawError`.
    public static func parse(_ text: String, source: String, skipBad: Bool = false, limits: Limits = Limits()) throws
        -> (drawings: [QuickDrawDrawing], warnings: [String])
    {
        var drawings: [QuickDrawDrawing] = []
        var warnings: [String] = []
        let decoder = JSONDecoder()
        var lineNumber = 0
        // Split the UTF-8 bytes at "\n" (a "\r" before it is JSON whitespace): faster than
        // Characters, and "\r\n" is a single Character that a Character split would miss.
        for line in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
            do {
                guard line.count <= limits.maximumLineBytes else {
                    throw QuickDrawError.overLimit(source: source, line: lineNumber, what: "the line's bytes", count: line.count,
                                                   limit: "maximumLineBytes", maximum: limits.maximumLineBytes)
                }
                drawings.append(try parseLine(line, source: source, lineNumber: lineNumber, decoder: decoder, limits: limits))
            } catch let error as QuickDrawError where skipBad {
                warnings.append(error.description)
            }
        }
        return (drawings, warnings)
    }

    /// Reads an ndjson file (see `parse`); the file's path names it in errors and warnings.
    public static func read(contentsOf url: URL, skipBad: Bool = false, limits: Limits = Limits()) throws
        -> (drawings: [QuickDrawDrawing], warnings: [String])
    {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw QuickDrawError.unreadable(source: url.path, reason: error.localizedDescription)
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw QuickDrawError.unreadable(source: url.path, reason: "not UTF-8 text")
        }
        return try parse(text, source: url.path, skipBad: skipBad, limits: limits)
    }

    /// ndjson text, one line per drawing: `word`, `key_id` (a string), the other properties
    /// (sorted by key), then `drawing` with `[xs, ys]` or, when every point of a stroke has a
    /// time, `[xs, ys, ts]`. Parsing the result gives the same drawings (line numbers aside).
    public static func encode(_ drawings: [QuickDrawDrawing]) -> String {
        var text = ""
        for drawing in drawings {
            text += "{"
            var first = true
            func key(_ name: String) {
                if !first { text += "," }
                first = false
                JSONValue.writeString(name, to: &text)
                text += ":"
            }
            if let word = drawing.word {
                key("word"); JSONValue.writeString(word, to: &text)
            }
            if let keyID = drawing.keyID {
                key("key_id"); JSONValue.writeString(keyID, to: &text)
            }
            for name in drawing.properties.keys.sorted() where !reservedKeys.contains(name) {
                key(name); drawing.properties[name]!.write(to: &text)
            }
            key("drawing")
            text += "["
            for (index, stroke) in drawing.strokes.enumerated() {
                if index > 0 { text += "," }
                writeStroke(stroke, to: &text)
            }
            text += "]}\n"
        }
        return text
    }

    // MARK: - Reading one line

    private static let reservedKeys: Set<String> = ["drawing", "word", "key_id"]

    private static func parseLine(_ line: Substring.UTF8View, source: String, lineNumber: Int,
                                  decoder: JSONDecoder, limits: Limits) throws -> QuickDrawDrawing {
        guard let value = try? decoder.decode(JSONValue.self, from: Data(line)) else {
            throw QuickDrawError.notJSON(source: source, line: lineNumber)
        }
        guard case .object(var members) = value else {
            throw QuickDrawError.notAnObject(source: source, line: lineNumber)
        }
        guard let drawingValue = members.removeValue(forKey: "drawing") else {
            throw QuickDrawError.missingDrawing(source: source, line: lineNumber)
        }
        guard case .array(let strokeValues) = drawingValue else {
            throw QuickDrawError.drawingNotAList(source: source, line: lineNumber)
        }
        guard !strokeValues.isEmpty else {
            throw QuickDrawError.emptyDrawing(source: source, line: lineNumber)
        }
        guard strokeValues.count <= limits.maximumStrokesPerDrawing else {
            throw QuickDrawError.overLimit(source: source, line: lineNumber, what: "the drawing's strokes", count: strokeValues.count,
                                           limit: "maximumStrokesPerDrawing", maximum: limits.maximumStrokesPerDrawing)
        }
        var strokes: [Stroke] = []
        strokes.reserveCapacity(strokeValues.count)
        for (index, strokeValue) in strokeValues.enumerated() {
            let stroke = try parseStroke(strokeValue, number: index + 1, source: source, lineNumber: lineNumber)
            guard stroke.points.count <= limits.maximumPointsPerStroke else {
                throw QuickDrawError.overLimit(source: source, line: lineNumber, what: "stroke \(index + 1)'s points",
                                               count: stroke.points.count, limit: "maximumPointsPerStroke",
                                               maximum: limits.maximumPointsPerStroke)
            }
            strokes.append(stroke)
        }
        var word: String?
        if case .string(let text) = members["word"] {
            word = text
            members["word"] = nil
        }
        var keyID: String?
        switch members["key_id"] {
        case .string(let text):
            keyID = text
            members["key_id"] = nil
        case .number(let number):
            keyID = JSONValue.numberText(number)
            members["key_id"] = nil
        default:
            break   // absent, or of another type: kept as a property
        }
        return QuickDrawDrawing(strokes: strokes, word: word, keyID: keyID,
                                properties: members, lineNumber: lineNumber)
    }

    private static func parseStroke(_ value: JSONValue, number strokeNumber: Int, source: String,
                                    lineNumber: Int) throws -> Stroke {
        guard case .array(let lists) = value, lists.count == 2 || lists.count == 3 else {
            throw QuickDrawError.malformedStroke(source: source, line: lineNumber, stroke: strokeNumber)
        }
        let names = ["xs", "ys", "ts"]
        var columns: [[Double]] = []
        for (listIndex, list) in lists.enumerated() {
            guard case .array(let elements) = list else {
                throw QuickDrawError.malformedStroke(source: source, line: lineNumber, stroke: strokeNumber)
            }
            var column: [Double] = []
            column.reserveCapacity(elements.count)
            for (elementIndex, element) in elements.enumerated() {
                guard case .number(let number) = element else {
                    throw QuickDrawError.nonNumericValue(source: source, line: lineNumber, stroke: strokeNumber,
                                                         array: names[listIndex], index: elementIndex)
                }
                column.append(number)
            }
            columns.append(column)
        }
        let lengths = columns.map(\.count)
        guard Set(lengths).count == 1 else {
            throw QuickDrawError.lengthMismatch(source: source, line: lineNumber, stroke: strokeNumber, lengths: lengths)
        }
        guard lengths[0] > 0 else {
            throw QuickDrawError.emptyStroke(source: source, line: lineNumber, stroke: strokeNumber)
        }
        let times = columns.count == 3 ? columns[2] : nil
        return Stroke(points: (0..<lengths[0]).map { index in
            StrokePoint(x: columns[0][index], y: columns[1][index], time: times?[index])
        })
    }

    // MARK: - Writing

    private static func writeStroke(_ stroke: Stroke, to text: inout String) {
        func list(_ values: some Sequence<Double>) {
            text += "["
            for (index, value) in values.enumerated() {
                if index > 0 { text += "," }
                text += JSONValue.numberText(value)
            }
            text += "]"
        }
        text += "["
        list(stroke.points.lazy.map(\.x))
        text += ","
        list(stroke.points.lazy.map(\.y))
        if !stroke.points.isEmpty, stroke.points.allSatisfy({ $0.time != nil }) {
            text += ","
            list(stroke.points.lazy.map { $0.time! })
        }
        text += "]"
    }
}
