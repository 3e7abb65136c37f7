import Foundation
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
    case badLine(source: String, line: Int, problem: String)
    case noStrokes(source: String)

    public var description: String {
        switch self {
        case let .unreadable(path, reason):
            return "\(path): cannot read the sketch (\(reason))"
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
public enum SketchFile {
    private struct Line: Decodable {
        var drawing: [[[Double]]]
        var symbols: Symbols?
        var epsilon: Bool?
        var name: String?
    }

    /// `"symbols"` as a list, or for convenience one string (`"a"`, or `"0,1"` for two symbols).
    private struct Symbols: Decodable {
        var values: [String]
        init(from decoder: Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let list = try? container.decode([String].self) {
                values = list
            } else {
                values = try container.decode(String.self).split(separator: ",").map(String.init)
            }
        }
    }

    /// Reads a sketch file.
    public static func read(contentsOf url: URL) throws -> [SketchLine] {
        let text: String
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw SketchFileError.unreadable(path: url.path, reason: error.localizedDescription)
        }
        return try parse(text, source: url.path)
    }

    /// Parses ndjson text; `source` names the file in errors. Blank lines are skipped.
    public static func parse(_ text: String, source: String) throws -> [SketchLine] {
        var result: [SketchLine] = []
        let decoder = JSONDecoder()
        for (offset, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let lineNumber = offset + 1
            let trimmed = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty { continue }
            func bad(_ problem: String) -> SketchFileError {
                .badLine(source: source, line: lineNumber, problem: problem)
            }
            let line: Line
            do {
                line = try decoder.decode(Line.self, from: Data(trimmed.utf8))
            } catch let DecodingError.keyNotFound(key, _) {
                throw bad("missing \"\(key.stringValue)\"; each line needs \"drawing\": [[xs, ys]]")
            } catch DecodingError.typeMismatch(_, let context) {
                let key = context.codingPath.first?.stringValue ?? "line"
                let hint = key == "drawing" ? "expected [[xs, ys], …] with numbers" :
                    key == "symbols" ? "expected a list of strings like [\"0\", \"1\"]" :
                    key == "epsilon" ? "expected true or false" : key == "name" ? "expected a string" : "expected a JSON object"
                throw bad("\"\(key)\" has the wrong type: \(hint)")
            } catch {
                throw bad("not a JSON object (\(error.localizedDescription)); each line must be one JSON object")
            }
            var strokes: [Stroke] = []
            for (number, arrays) in line.drawing.enumerated() {
                guard arrays.count == 2 || arrays.count == 3 else {
                    throw bad("stroke \(number + 1) has \(arrays.count) arrays; expected [xs, ys] or [xs, ys, times]")
                }
                guard arrays[0].count == arrays[1].count, arrays.count == 2 || arrays[2].count == arrays[0].count else {
                    throw bad("stroke \(number + 1) has \(arrays[0].count) x values but \(arrays[1].count) y values\(arrays.count == 3 ? " and \(arrays[2].count) times" : ""); they must match")
                }
                guard !arrays[0].isEmpty else { throw bad("stroke \(number + 1) has no points") }
                let points = arrays[0].indices.map { index in
                    StrokePoint(x: arrays[0][index], y: arrays[1][index], time: arrays.count == 3 ? arrays[2][index] : nil)
                }
                strokes.append(Stroke(points: points))
            }
            guard !strokes.isEmpty else { throw bad("\"drawing\" is empty; draw at least one stroke") }
            result.append(SketchLine(
                lineNumber: lineNumber, strokes: strokes, symbols: line.symbols?.values ?? [],
                isEpsilon: line.epsilon ?? false, name: line.name))
        }
        guard !result.isEmpty else { throw SketchFileError.noStrokes(source: source) }
        return result
    }
}
