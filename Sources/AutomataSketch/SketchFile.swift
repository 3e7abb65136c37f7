import Foundation
import InkML
import StrokeImage

/// One line of a sketch file: a drawing (usually one stroke) and the labels the student gave it.
public struct SketchLine: Hashable, Sendable {
    /// 1-based line number in the file.
    public var lineNumber: Int
    public var strokes: [Stroke]
    /// Symbols for the transition or self-loop this drawing creates.
    public var symbols: [String]
    /// Whether that transition is an ε-move.
    public var isEpsilon: Bool
    /// Name for the state this drawing creates.
    public var name: String?

    public init(lineNumber: Int, strokes: [Stroke], symbols: [String] = [], isEpsilon: Bool = false, name: String? = nil) {
        self.lineNumber = lineNumber
        self.strokes = strokes
        self.symbols = symbols
        self.isEpsilon = isEpsilon
        self.name = name
    }
}

/// Why a sketch file could not be read.
public enum SketchFileError: Error, Hashable, Sendable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    /// A line is not a drawing (the QuickDraw reader's error names file, line and problem).
    case badDrawing(QuickDrawError)
    case badLine(source: String, line: Int, problem: String)
    case noStrokes(source: String)

    public var description: String {
        switch self {
        case let .unreadable(path, reason):
            return "\(path): cannot read the sketch (\(reason))"
        case let .badDrawing(error):
            return error.description
        case let .badLine(source, line, problem):
            return "\(source):\(line): \(problem)"
        case let .noStrokes(source):
            return "\(source): the sketch has no strokes; it should hold one JSON object per line with \"drawing\": [[xs, ys]]"
        }
    }
}

/// Sketch files: ndjson, one drawing per line in drawing order, in the QuickDraw form
/// `{"drawing": [[xs, ys]], "symbols": ["0", "1"], "epsilon": true, "name": "q0"}`
/// (screen coordinates, y down; a third array of times is allowed; other keys are ignored).
/// Lines are read by StrokeImage's QuickDraw reader (LF or CRLF line ends, a final newline
/// or none); this adds the sketch's own keys.
public enum SketchFile {
    /// Reads a sketch file (see `parse`).
    /// An InkML file (one whose first character is `<`) is read by `InkML` instead, one line
    /// per trace (see `lines(inkML:)`).
    public static func read(contentsOf url: URL, limits: QuickDraw.Limits = QuickDraw.Limits()) throws -> [SketchLine] {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw SketchFileError.unreadable(path: url.path, reason: error.localizedDescription)
        }
        return try parse(data, source: url.path, limits: limits)
    }

    /// Parses a sketch file's bytes, ndjson or InkML (told apart by the first character).
    public static func parse(_ data: Data, source: String, limits: QuickDraw.Limits = QuickDraw.Limits()) throws -> [SketchLine] {
        if InkML.looksLikeXML(data) {
            return lines(inkML: try InkML.parse(data, source: source))
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw SketchFileError.unreadable(path: source, reason: "not UTF-8 text")
        }
        return try parse(text, source: source, limits: limits)
    }

    /// Parses ndjson text; `source` names the file in errors. Blank lines are skipped; a
    /// line over `limits` is an error naming the limit.
    public static func parse(_ text: String, source: String, limits: QuickDraw.Limits = QuickDraw.Limits()) throws -> [SketchLine] {
        let drawings: [QuickDrawDrawing]
        do {
            drawings = try QuickDraw.parse(text, source: source, limits: limits).drawings
        } catch let error as QuickDrawError {
            throw SketchFileError.badDrawing(error)
        }
        guard !drawings.isEmpty else { throw SketchFileError.noStrokes(source: source) }
        return try drawings.map { try line(from: $0, source: source) }
    }

    /// The sketch keys of one drawing: `symbols` (a list of strings, or one string such as
    /// `"a"` or `"0,1"`), `epsilon` (a boolean) and `name` (a string).
    private static func line(from drawing: QuickDrawDrawing, source: String) throws -> SketchLine {
        func bad(_ key: String, _ expected: String) -> SketchFileError {
            .badLine(source: source, line: drawing.lineNumber, problem: "\"\(key)\" has the wrong type: expected \(expected)")
        }
        var symbols: [String] = []
        switch drawing.properties["symbols"] {
        case nil, .null?:
            break
        case .string(let text)?:
            symbols = text.split(separator: ",").map(String.init)
        case .array(let values)?:
            symbols = try values.map { value in
                guard case .string(let symbol) = value else { throw bad("symbols", "a list of strings like [\"0\", \"1\"]") }
                return symbol
            }
        default:
            throw bad("symbols", "a list of strings like [\"0\", \"1\"]")
        }
        var isEpsilon = false
        switch drawing.properties["epsilon"] {
        case nil, .null?: break
        case .bool(let value)?: isEpsilon = value
        default: throw bad("epsilon", "true or false")
        }
        var name: String?
        switch drawing.properties["name"] {
        case nil, .null?: break
        case .string(let text)?: name = text
        default: throw bad("name", "a string")
        }
        return SketchLine(lineNumber: drawing.lineNumber, strokes: drawing.strokes, symbols: symbols,
                          isEpsilon: isEpsilon, name: name)
    }
}
