import Foundation
import StrokeImage

/// What one `.SEGMENT` line of a UNIPEN file delineates: its label and the pen-down strokes
/// of its components, in millimetres when the file declares its resolution, y pointing down.
public struct UnipenSegment: Sendable, Equatable {
    /// The hierarchy level: `CHARACTER`, `WORD`, ...
    public var kind: String
    /// The text between the quotes, as written (`"a"` gives `a`).
    public var label: String
    /// The quality field (`?`, `OK`, `BAD`, ...); empty when the line has none.
    public var quality: String
    /// The component range as written: `3`, `3-4`, `12:0-12:42`, `61,64-65`.
    public var delineation: String
    /// The pen-down parts of the delineated components, in order. Pen-up trajectories, which
    /// some sites record, are counted as components but not drawn.
    public var strokes: [Stroke]
    /// The `.WRITER_ID` in force when the segment's first component was recorded.
    public var writer: String?
    /// The 1-based line of the `.SEGMENT` in the file that holds it.
    public var line: Int
    /// The file that holds the `.SEGMENT` line (the data file, or an included file).
    public var file: String
}

/// A UNIPEN file read with its includes: its segments, and what the reader set aside.
public struct UnipenDocument: Sendable {
    public var segments: [UnipenSegment]
    /// Components (pen-down blocks, and pen-up blocks with samples) read, includes included.
    public var componentCount: Int
    /// One line per segment skipped (empty, or bad with `skipBadSegments`), as `file:line: problem`.
    public var warnings: [String]
}

/// The UNIPEN format (Guyon, Schomaker, Plamondon, Liberman and Janet, 1994): plain text of
/// `.KEYWORD argument` lines. A data file `.INCLUDE`s the pen data (and its documentation)
/// and names characters with `.SEGMENT CHARACTER <components> <quality> "<label>"`.
///
/// What this reader takes from a file:
/// - `.INCLUDE path`, relative to the include folder, nested up to `Limits.maximumIncludeDepth`;
///   the included text is read in place, so declarations carry across files.
/// - Components, numbered from 0 in file order: every `.PEN_DOWN` block, and every `.PEN_UP`
///   block that holds samples (cea, ceb, pri and tos record the pen's path in the air and
///   count it; the other sites write `.PEN_UP` only as a marker, which is not a component).
/// - `.COORD` (which columns are X and Y), `.X_POINTS_PER_INCH`/`_MM` and `.Y_...` (the
///   resolution: coordinates become millimetres; without one they stay device units),
///   `.WRITER_ID`, and `.SEGMENT` lines with delineations `i`, `i-j`, `i:p-j:q` (component
///   `i`, point `p`, both ends included) and comma-separated lists of those.
/// Keywords start their line; every other keyword, and the (indented) text that continues
/// it, is skipped.
public enum Unipen {
    /// Sizes the reader accepts, so that a file from outside cannot exhaust memory or time.
    /// The defaults are far above the UNIPEN CD's largest files (about 2 MB, 60,000 samples).
    public struct Limits: Sendable, Equatable {
        /// Bytes of one file (data or included).
        public var maximumFileBytes: Int
        /// Nesting of `.INCLUDE`s (imp nests two deep).
        public var maximumIncludeDepth: Int
        /// `.INCLUDE`s read for one data file, nested ones included.
        public var maximumIncludes: Int
        /// Pen samples read for one data file.
        public var maximumPoints: Int
        /// Components read for one data file.
        public var maximumComponents: Int
        /// `.SEGMENT` lines of one data file.
        public var maximumSegments: Int
        /// Pen samples one segment may delineate.
        public var maximumPointsPerSegment: Int
        /// Largest absolute coordinate, in device units.
        public var maximumCoordinate: Double

        public init(maximumFileBytes: Int = 64 << 20, maximumIncludeDepth: Int = 8, maximumIncludes: Int = 1_000,
                    maximumPoints: Int = 20_000_000, maximumComponents: Int = 1_000_000,
                    maximumSegments: Int = 1_000_000, maximumPointsPerSegment: Int = 100_000,
                    maximumCoordinate: Double = 1e9) {
            self.maximumFileBytes = maximumFileBytes
            self.maximumIncludeDepth = maximumIncludeDepth
            self.maximumIncludes = maximumIncludes
            self.maximumPoints = maximumPoints
            self.maximumComponents = maximumComponents
            self.maximumSegments = maximumSegments
            self.maximumPointsPerSegment = maximumPointsPerSegment
            self.maximumCoordinate = maximumCoordinate
        }
    }

    /// Which way the device's y axis points. Most UNIPEN tablets count y upwards; drawn with
    /// y down (as `Stroke` is), their characters would be upside down.
    public enum VerticalAxis: String, Sendable {
        case up, down
    }

    /// Parses the UNIPEN text `bytes`, named `source` in errors. `include` returns the bytes
    /// of an `.INCLUDE`d path (already checked to stay inside the include folder); it may
    /// throw (`UnipenError.unreadable` for a missing file). With `skipBadSegments`, a
    /// `.SEGMENT` that cannot be parsed or points outside the components becomes a warning;
    /// otherwise it throws. Segments with no pen-down sample are always skipped with a warning.
    public static func parse(
        _ bytes: [UInt8], source: String, verticalAxis: VerticalAxis = .up, limits: Limits = Limits(),
        skipBadSegments: Bool = false, include: (String) throws -> [UInt8]
    ) throws -> UnipenDocument {
        try withoutActuallyEscaping(include) { include in
            var reader = UnipenReader(verticalAxis: verticalAxis, limits: limits, include: include)
            try reader.read(bytes, source: source, depth: 0)
            return try reader.document(skipBadSegments: skipBadSegments)
        }
    }

    /// Reads the data file at `url`, named `name` in errors (default: its path); `.INCLUDE`
    /// paths are resolved under `includeRoot` and named as written.
    public static func read(
        contentsOf url: URL, name: String? = nil, includeRoot: URL, verticalAxis: VerticalAxis = .up,
        limits: Limits = Limits(), skipBadSegments: Bool = false
    ) throws -> UnipenDocument {
        let source = name ?? url.path
        let bytes = try readFile(url, name: source, limits: limits)
        return try parse(bytes, source: source, verticalAxis: verticalAxis, limits: limits,
                         skipBadSegments: skipBadSegments) { path in
            try readFile(includeRoot.appendingPathComponent(path), name: path, limits: limits)
        }
    }

    /// The bytes of `url`, refusing files over `limits.maximumFileBytes`.
    static func readFile(_ url: URL, name: String, limits: Limits) throws -> [UInt8] {
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
        if let size = attributes?[.size] as? Int, size > limits.maximumFileBytes {
            throw UnipenError.unreadable(file: name, reason: "\(size) bytes, over Unipen.Limits.maximumFileBytes "
                                         + "(\(limits.maximumFileBytes))")
        }
        do {
            return Array(try Data(contentsOf: url))
        } catch {
            throw UnipenError.unreadable(file: name, reason: (error as NSError).localizedDescription)
        }
    }
}

/// The reader's state while a data file and its includes are read in order.
private struct UnipenReader {
    struct Component {
        var points: [StrokePoint] = []
        var penDown: Bool
        var writer: Int?
    }

    struct PendingSegment {
        var file: String
        var line: Int
        var text: [UInt8]   // the argument of `.SEGMENT`
    }

    let verticalAxis: Unipen.VerticalAxis
    let limits: Unipen.Limits
    let include: (String) throws -> [UInt8]

    var components: [Component] = []
    /// The block samples go to: a component's index, `pendingPenUp` for a `.PEN_UP` block
    /// that has no sample yet, nil outside pen blocks.
    var block: Int?
    static let pendingPenUp = -1
    var pointCount = 0
    var includeCount = 0
    var writers: [String] = []
    var writer: Int?
    var xColumn = 0, yColumn = 1, columnCount = 2
    var xPerMillimetre: Double?, yPerMillimetre: Double?
    var xScale = 1.0, yScale = 1.0
    var segments: [PendingSegment] = []
    var openFiles: [String] = []

    init(verticalAxis: Unipen.VerticalAxis, limits: Unipen.Limits, include: @escaping (String) throws -> [UInt8]) {
        self.verticalAxis = verticalAxis
        self.limits = limits
        self.include = include
        updateScale()
    }

    mutating func read(_ bytes: [UInt8], source: String, depth: Int) throws {
        guard bytes.count <= limits.maximumFileBytes else {
            throw UnipenError.overLimit(file: source, line: 0, what: "the file's \(bytes.count) bytes",
                                        limit: "maximumFileBytes", maximum: limits.maximumFileBytes)
        }
        openFiles.append(source)
        defer { openFiles.removeLast() }
        var lineNumber = 0
        var start = 0
        while start <= bytes.count {
            var end = start
            while end < bytes.count && bytes[end] != 0x0A { end += 1 }
            lineNumber += 1
            try readLine(bytes[start..<end], source: source, line: lineNumber, depth: depth)
            start = end + 1
        }
    }

    private mutating func readLine(_ raw: ArraySlice<UInt8>, source: String, line: Int, depth: Int) throws {
        var text = raw
        while let last = text.last, isSpace(last) { text.removeLast() }
        // A keyword starts the line; indented text continues the previous keyword (lou's
        // documentation has an indented ".PEN_DOWN and .PEN_UP." in its prose).
        let isKeyword = text.first == UInt8(ascii: ".")
            && text.dropFirst().first.map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) } == true
        guard isKeyword else {
            while let first = text.first, isSpace(first) { text.removeFirst() }
            if block != nil && !text.isEmpty { try readSample(text, source: source, line: line) }
            return   // or text continuing a keyword we skip
        }
        var nameEnd = text.startIndex
        while nameEnd < text.endIndex && !isSpace(text[nameEnd]) { nameEnd += 1 }
        let name = String(decoding: text[text.startIndex..<nameEnd], as: UTF8.self)
        var argument = text[nameEnd...]
        while let first = argument.first, isSpace(first) { argument.removeFirst() }
        block = nil
        switch name {
        case ".PEN_DOWN":
            try startComponent(penDown: true, source: source, line: line)
        case ".PEN_UP":
            block = Self.pendingPenUp
        case ".INCLUDE":
            try readInclude(argument, source: source, line: line, depth: depth)
        case ".COORD":
            let columns = words(argument)
            guard let x = columns.firstIndex(of: "X"), let y = columns.firstIndex(of: "Y") else {
                throw UnipenError.badCoordinates(file: source, line: line, columns: columns.joined(separator: " "))
            }
            (xColumn, yColumn, columnCount) = (x, y, columns.count)
        case ".X_POINTS_PER_INCH", ".Y_POINTS_PER_INCH", ".X_POINTS_PER_MM", ".Y_POINTS_PER_MM":
            // A resolution we cannot read keeps the previous one (device units by default).
            guard let value = words(argument).first.flatMap(Double.init), value.isFinite, value > 0 else { return }
            let perMillimetre = name.hasSuffix("INCH") ? value / 25.4 : value
            if name.hasPrefix(".X") { xPerMillimetre = perMillimetre } else { yPerMillimetre = perMillimetre }
            updateScale()
        case ".WRITER_ID":
            let id = words(argument).joined(separator: " ")
            if let index = writers.firstIndex(of: id) {
                writer = index
            } else {
                writers.append(id)
                writer = writers.count - 1
            }
        case ".SEGMENT":
            guard segments.count < limits.maximumSegments else {
                throw UnipenError.overLimit(file: source, line: line, what: "the number of .SEGMENT lines",
                                            limit: "maximumSegments", maximum: limits.maximumSegments)
            }
            segments.append(PendingSegment(file: source, line: line, text: Array(argument)))
        default:
            break
        }
    }

    /// Millimetres per device unit; a file that gives only the X resolution has square pixels.
    private mutating func updateScale() {
        let x = xPerMillimetre ?? yPerMillimetre, y = yPerMillimetre ?? xPerMillimetre
        xScale = x.map { 1 / $0 } ?? 1
        yScale = (y.map { 1 / $0 } ?? 1) * (verticalAxis == .up ? -1 : 1)
    }

    private mutating func startComponent(penDown: Bool, source: String, line: Int) throws {
        guard components.count < limits.maximumComponents else {
            throw UnipenError.overLimit(file: source, line: line, what: "the number of components",
                                        limit: "maximumComponents", maximum: limits.maximumComponents)
        }
        components.append(Component(penDown: penDown, writer: writer))
        block = components.count - 1
    }

    private mutating func readInclude(_ argument: ArraySlice<UInt8>, source: String, line: Int, depth: Int) throws {
        let path = words(argument).first ?? ""
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard !path.isEmpty, !path.hasPrefix("/"), !path.contains("\\"), !parts.contains("..") else {
            throw UnipenError.unsafeInclude(file: source, line: line, path: path)
        }
        guard depth < limits.maximumIncludeDepth, !openFiles.contains(path) else {
            throw UnipenError.includeLoop(file: source, line: line, path: path)
        }
        includeCount += 1
        guard includeCount <= limits.maximumIncludes else {
            throw UnipenError.overLimit(file: source, line: line, what: "the number of .INCLUDEs",
                                        limit: "maximumIncludes", maximum: limits.maximumIncludes)
        }
        let bytes: [UInt8]
        do {
            bytes = try include(path)
        } catch UnipenError.unreadable(_, let reason) {
            throw UnipenError.unreadableInclude(file: source, line: line, path: path, reason: reason)
        }
        try read(bytes, source: path, depth: depth + 1)
        block = nil
    }

    private mutating func readSample(_ text: ArraySlice<UInt8>, source: String, line: Int) throws {
        var values: (x: Double?, y: Double?) = (nil, nil)
        var column = 0
        var index = text.startIndex
        let needed = max(xColumn, yColumn)
        while index < text.endIndex && column <= needed {
            while index < text.endIndex && isSpace(text[index]) { index += 1 }
            var end = index
            while end < text.endIndex && !isSpace(text[end]) { end += 1 }
            if index == end { break }
            if column == xColumn || column == yColumn {
                guard let value = parseNumber(text[index..<end]), abs(value) <= limits.maximumCoordinate else {
                    throw UnipenError.badSample(
                        file: source, line: line,
                        problem: "'\(String(decoding: text[index..<end], as: UTF8.self))' in column \(column + 1) is not "
                            + "a number within ±\(limits.maximumCoordinate)")
                }
                if column == xColumn { values.x = value } else { values.y = value }
            }
            column += 1
            index = end
        }
        guard let x = values.x, let y = values.y else {
            throw UnipenError.badSample(
                file: source, line: line,
                problem: "expected \(columnCount) columns (.COORD), X in column \(xColumn + 1) and Y in column \(yColumn + 1)")
        }
        pointCount += 1
        guard pointCount <= limits.maximumPoints else {
            throw UnipenError.overLimit(file: source, line: line, what: "the number of pen samples",
                                        limit: "maximumPoints", maximum: limits.maximumPoints)
        }
        if block == Self.pendingPenUp { try startComponent(penDown: false, source: source, line: line) }
        components[block!].points.append(StrokePoint(x: x * xScale, y: y * yScale))
    }

    // MARK: - Segments

    /// One end of a range: component `component`, point `point` (nil: the first or last).
    struct Reference {
        var component: Int
        var point: Int?
    }

    func document(skipBadSegments: Bool) throws -> UnipenDocument {
        var result: [UnipenSegment] = []
        var warnings: [String] = []
        for pending in segments {
            do {
                let segment = try resolve(pending)
                if segment.strokes.isEmpty {
                    warnings.append("\(pending.file):\(pending.line): .SEGMENT \(segment.delineation) \"\(segment.label)\" "
                                    + "has no pen-down sample; skipped")
                } else {
                    result.append(segment)
                }
            } catch let error as UnipenError where skipBadSegments {
                warnings.append("\(error); skipped")
            }
        }
        return UnipenDocument(segments: result, componentCount: components.count, warnings: warnings)
    }

    private func resolve(_ pending: PendingSegment) throws -> UnipenSegment {
        let file = pending.file, line = pending.line
        func fail(_ problem: String) -> UnipenError { .badSegment(file: file, line: line, problem: problem) }
        // <kind> <delineation> [<quality>] "<label>"
        guard let open = pending.text.firstIndex(of: UInt8(ascii: "\"")),
              let close = pending.text.lastIndex(of: UInt8(ascii: "\"")), close > open else {
            throw fail("no quoted label (expected .SEGMENT CHARACTER <components> <quality> \"<label>\")")
        }
        let label = String(decoding: pending.text[(open + 1)..<close], as: UTF8.self)
        let fields = words(pending.text[..<open])
        guard fields.count == 2 || fields.count == 3 else {
            throw fail("expected <kind> <components> [<quality>] before the label, found \(fields.count) field(s)")
        }
        let delineation = fields[1]
        var strokes: [Stroke] = []
        var points = 0
        var firstComponent: Int?
        for item in delineation.split(separator: ",", omittingEmptySubsequences: false) {
            let ends = item.split(separator: "-", omittingEmptySubsequences: false)
            guard ends.count == 1 || ends.count == 2,
                  let from = reference(ends[0]), let to = ends.count == 2 ? reference(ends[1]) : from else {
                throw fail("cannot read the delineation '\(delineation)' (expected i, i-j, i:p-j:q, or a comma list)")
            }
            guard from.component <= to.component, to.component < components.count else {
                throw UnipenError.segmentOutOfRange(file: file, line: line, delineation: delineation,
                                                    components: components.count)
            }
            firstComponent = firstComponent ?? from.component
            for index in from.component...to.component {
                let component = components[index]
                let last = component.points.count - 1
                let first = index == from.component ? (from.point ?? 0) : 0
                let end = index == to.component ? min(to.point ?? last, last) : last
                // A point range past the component's end: the delineation does not fit the data.
                guard first <= last || component.points.isEmpty else {
                    throw UnipenError.segmentOutOfRange(file: file, line: line, delineation: delineation,
                                                        components: components.count)
                }
                guard component.penDown, first <= end else { continue }
                points += end - first + 1
                guard points <= limits.maximumPointsPerSegment else {
                    throw UnipenError.overLimit(file: file, line: line, what: "the segment's pen samples",
                                                limit: "maximumPointsPerSegment", maximum: limits.maximumPointsPerSegment)
                }
                strokes.append(Stroke(points: Array(component.points[first...end])))
            }
        }
        let writerIndex = firstComponent.flatMap { components[$0].writer }
        return UnipenSegment(
            kind: fields[0], label: label, quality: fields.count == 3 ? fields[2] : "", delineation: delineation,
            strokes: strokes, writer: writerIndex.map { writers[$0] }, line: line, file: file)
    }

    /// `i` or `i:p`, both non-negative integers.
    private func reference(_ text: Substring) -> Reference? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2, let component = Int(parts[0]), component >= 0 else { return nil }
        if parts.count == 1 { return Reference(component: component, point: nil) }
        guard let point = Int(parts[1]), point >= 0 else { return nil }
        return Reference(component: component, point: point)
    }
}

// MARK: - Bytes

@inline(__always)
private func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0B || byte == 0x0C
}

/// Whitespace-separated words of a line's bytes.
private func words(_ bytes: ArraySlice<UInt8>) -> [String] {
    bytes.split(whereSeparator: isSpace).map { String(decoding: $0, as: UTF8.self) }
}

/// A decimal number (`-12`, `3.5`, `.5`, `1e3`) or nil. Pen samples are most of a UNIPEN
/// file, so this avoids making a String per value.
private func parseNumber(_ bytes: ArraySlice<UInt8>) -> Double? {
    var index = bytes.startIndex
    var negative = false
    if index < bytes.endIndex && (bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+")) {
        negative = bytes[index] == UInt8(ascii: "-")
        index += 1
    }
    var value = 0.0
    var digits = 0
    while index < bytes.endIndex, let digit = digitValue(bytes[index]) {
        value = value * 10 + Double(digit)
        digits += 1
        index += 1
    }
    if index < bytes.endIndex && bytes[index] == UInt8(ascii: ".") {
        index += 1
        var scale = 0.1
        while index < bytes.endIndex, let digit = digitValue(bytes[index]) {
            value += Double(digit) * scale
            scale /= 10
            digits += 1
            index += 1
        }
    }
    guard digits > 0 else { return nil }
    if index < bytes.endIndex && (bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")) {
        guard let exponent = Int(String(decoding: bytes[(index + 1)...], as: UTF8.self)), abs(exponent) < 400 else {
            return nil
        }
        value *= pow(10, Double(exponent))
        index = bytes.endIndex
    }
    guard index == bytes.endIndex, value.isFinite else { return nil }
    return negative ? -value : value
}

@inline(__always)
private func digitValue(_ byte: UInt8) -> Int? {
    byte >= 0x30 && byte <= 0x39 ? Int(byte - 0x30) : nil
}
