import Foundation

/// What one request may carry and how many sessions one server keeps. A request over a
/// limit gets a 4xx answer that names the limit, and changes nothing.
public struct EditorLimits: Sendable {
    /// Largest request body. A 30-stroke diagram's longest stroke is a few hundred points,
    /// about 10 KB of JSON; 1 MiB leaves room for a long `.automaton` document.
    public var maximumBodyBytes: Int
    /// Most points in one stroke (a minute of pen input at 120 Hz is 7,200).
    public var maximumPointsPerStroke: Int
    /// Most strokes drawn as one symbol (an arrow in several pieces, a double circle).
    public var maximumStrokesPerDrawing: Int
    /// Most sessions kept at once; creating one more is refused until one is deleted.
    public var maximumSessions: Int
    /// Most strokes in an opened ink file (InkML), each drawn as one request would be.
    public var maximumOpenedStrokes: Int = 2_000
    /// Coordinates beyond this magnitude are refused (a canvas is a few thousand units wide).
    public var maximumCoordinate: Double

    public init(
        maximumBodyBytes: Int = 1 << 20, maximumPointsPerStroke: Int = 10_000, maximumStrokesPerDrawing: Int = 16,
        maximumSessions: Int = 1_000, maximumCoordinate: Double = 1e6
    ) {
        self.maximumBodyBytes = maximumBodyBytes
        self.maximumPointsPerStroke = maximumPointsPerStroke
        self.maximumStrokesPerDrawing = maximumStrokesPerDrawing
        self.maximumSessions = maximumSessions
        self.maximumCoordinate = maximumCoordinate
    }
}

/// Reads a duration as `strokekit serve --session-ttl` takes it: a number with a unit, `7d`,
/// `12h`, `30m`, `90s`, `500ms` (a bare number is seconds). Throws a message naming the text.
public func parseEditorDuration(_ text: String) throws -> Duration {
    let units: [(suffix: String, milliseconds: Double)] = [
        ("ms", 1), ("s", 1_000), ("m", 60_000), ("h", 3_600_000), ("d", 86_400_000),
    ]
    let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
    let unit = units.first { trimmed.hasSuffix($0.suffix) && Double(trimmed.dropLast($0.suffix.count)) != nil }
    let number = Double(unit.map { String(trimmed.dropLast($0.suffix.count)) } ?? trimmed)
    guard let number, number.isFinite, number > 0 else {
        throw EditorOptionError(
            "\"\(text)\" is not a duration: expected a positive number with a unit, e.g. 7d, 12h, 30m, 90s, 500ms")
    }
    return .milliseconds(Int64((number * (unit?.milliseconds ?? 1_000)).rounded()))
}

/// An option value the server cannot use, with the words to show.
public struct EditorOptionError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
