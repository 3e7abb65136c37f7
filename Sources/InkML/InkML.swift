import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import StrokeImage

/// One sampled point of an InkML trace, in the file's own units (see `InkTrace.pointsPerUnit`).
public struct InkPoint: Hashable, Sendable {
    public var x: Double
    public var y: Double
    /// Milliseconds (channel `T`, converted from seconds when its units say `s`), plus the
    /// trace's `timeOffset`.
    public var time: Double?
    /// Pen force or pressure (channel `F`, or `P` as some datasets name it), unchanged.
    public var force: Double?

    public init(x: Double, y: Double, time: Double? = nil, force: Double? = nil) {
        self.x = x
        self.y = y
        self.time = time
        self.force = force
    }
}

/// One `<trace>`: a pen-down to pen-up stroke.
public struct InkTrace: Hashable, Sendable {
    /// The trace's `xml:id` (or `id`), when it has one.
    public var id: String?
    public var points: [InkPoint]
    /// The outermost `<traceGroup>` the trace sits in (0-based, in document order), nil for
    /// a trace outside every group.
    public var group: Int?
    /// Screen points (CSS pixels, 1/96 inch) per unit of X and of Y, when the trace format
    /// or its ink source declares a length unit or resolution; nil for device units.
    public var pointsPerUnit: (x: Double, y: Double)? {
        guard let x = pointsPerUnitX, let y = pointsPerUnitY else { return nil }
        return (x, y)
    }
    var pointsPerUnitX: Double?
    var pointsPerUnitY: Double?
    /// The 1-based line of the file where the trace ends.
    public var line: Int
}

/// Why an InkML file could not be read. Messages read `source:line: problem`.
public struct InkMLError: Error, Hashable, Sendable, CustomStringConvertible {
    public var source: String
    /// The 1-based line of the problem (nil for the whole file).
    public var line: Int?
    public var problem: String

    public init(source: String, line: Int?, problem: String) {
        self.source = source
        self.line = line
        self.problem = problem
    }

    public var description: String {
        "\(source)\(line.map { ":\($0)" } ?? ""): \(problem)"
    }
}

/// W3C Ink Markup Language (InkML 1.0, 2011): the traces of an `<ink>` document.
///
/// Read: `<traceFormat>` with regular and intermittent `<channel>`s (X and Y required; T and
/// F or P kept when present; `orientation="-ve"` flips a channel), given at the top level,
/// in a `<context>` (current for the traces after it, or named by `contextRef` on a trace or
/// trace group), in an `<inkSource>` or by `traceFormatRef`; channel `units` and
/// `<channelProperty name="resolution">`; trace values explicit or as first (`'`) and second
/// (`"`) differences (see `TraceDecoder`); `<traceGroup>`s, nested; traces kept in
/// `<definitions>` and drawn by a `<traceView traceDataRef>`. Everything else (annotations,
/// brushes, other vocabularies) is skipped. A DOCTYPE is refused: InkML needs none, and
/// entity declarations are how XML files exhaust memory.
public enum InkML {
    /// Sizes the reader accepts, so that a file from outside cannot exhaust memory or time.
    /// The FA database's largest diagram has 95 traces of at most a few hundred points.
    public struct Limits: Sendable, Equatable {
        public var maximumBytes: Int
        public var maximumTraces: Int
        public var maximumPointsPerTrace: Int
        public var maximumTotalPoints: Int
        public var maximumChannels: Int
        public var maximumDepth: Int
        /// Largest magnitude of any value, after differences are added up.
        public var maximumMagnitude: Double

        public init(
            maximumBytes: Int = 32 << 20, maximumTraces: Int = 20_000, maximumPointsPerTrace: Int = 100_000,
            maximumTotalPoints: Int = 4_000_000, maximumChannels: Int = 32, maximumDepth: Int = 64,
            maximumMagnitude: Double = 1e12
        ) {
            self.maximumBytes = maximumBytes
            self.maximumTraces = maximumTraces
            self.maximumPointsPerTrace = maximumPointsPerTrace
            self.maximumTotalPoints = maximumTotalPoints
            self.maximumChannels = maximumChannels
            self.maximumDepth = maximumDepth
            self.maximumMagnitude = maximumMagnitude
        }
    }

    /// True when `data` looks like XML rather than ndjson (its first non-blank byte is `<`).
    public static func looksLikeXML(_ data: some Collection<UInt8>) -> Bool {
        var bytes = data.makeIterator()
        // A UTF-8 byte order mark may come first.
        while let byte = bytes.next() {
            if [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains(byte) { continue }
            return byte == UInt8(ascii: "<")
        }
        return false
    }

    /// Reads an InkML file.
    public static func read(contentsOf url: URL, limits: Limits = Limits()) throws -> [InkTrace] {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw InkMLError(source: url.path, line: nil, problem: "cannot read the file (\(error.localizedDescription))")
        }
        return try parse(data, source: url.path, limits: limits)
    }

    /// Parses InkML bytes; `source` names the file in errors. Traces without points are
    /// skipped; a document without any point is an error.
    public static func parse(_ data: Data, source: String, limits: Limits = Limits()) throws -> [InkTrace] {
        let reader = Reader(source: source, limits: limits)
        let lastLine: Int
        do {
            lastLine = try XMLInput.parse(
                data, maximumBytes: limits.maximumBytes, limitName: "InkML.Limits.maximumBytes", delegate: reader,
                attach: { reader.parser = $0 },
                delegateFailure: { reader.error.map { XMLInput.Failure(line: $0.line, problem: $0.problem) } })
        } catch {
            throw InkMLError(source: source, line: error.line, problem: error.problem)
        }
        guard reader.sawRoot else {
            throw InkMLError(source: source, line: nil, problem: "no <ink> element: not an InkML document")
        }
        guard reader.closedRoot else {
            throw InkMLError(source: source, line: lastLine, problem: "not well-formed XML (the document ends before </ink>)")
        }
        guard !reader.traces.isEmpty else {
            throw InkMLError(source: source, line: nil, problem: "the document has no trace with a point: nothing was drawn")
        }
        return reader.traces
    }
}

// MARK: - Implementation

/// A channel of a trace format.
struct InkChannel: Hashable {
    var name: String
    var units: String?
    var inverted: Bool
}

struct InkTraceFormat: Hashable {
    var regular: [InkChannel] = []
    var intermittent: [InkChannel] = []

    /// X and Y only, the format a trace has when none is given.
    static let standard = InkTraceFormat(regular: [
        InkChannel(name: "X", units: nil, inverted: false), InkChannel(name: "Y", units: nil, inverted: false),
    ])
}

/// What a trace needs from its context: the format and the ink source's resolutions.
struct InkContext {
    var format: InkTraceFormat?
    /// Screen points per unit by channel name, from `<channelProperty name="resolution">`.
    var resolution: [String: Double] = [:]
}

/// Screen points (CSS pixels, 96 per inch) per one of `unit`; nil for device or unknown units.
func pointsPer(unit: String) -> Double? {
    switch unit.trimmingCharacters(in: .whitespaces).lowercased() {
    case "m": 96 / 0.0254
    case "cm": 96 / 2.54
    case "mm": 96 / 25.4
    case "himetric": 96 / 2540
    case "in": 96
    case "pt": 96.0 / 72
    case "pc": 16
    case "px": 1
    default: nil
    }
}

/// The XMLParser delegate: builds formats and contexts as they are declared and decodes each
/// trace when it closes.
private final class Reader: NSObject, XMLParserDelegate {
    let source: String
    let limits: InkML.Limits
    weak var parser: XMLParser?
    var error: InkMLError?
    var sawRoot = false
    var closedRoot = false
    var traces: [InkTrace] = []
    private var totalPoints = 0

    /// Open elements, local names, outermost first.
    private var stack: [String] = []
    private var formats: [String: InkTraceFormat] = [:]
    private var contexts: [String: InkContext] = [:]
    private var sources: [String: InkContext] = [:]
    /// The context in force for traces outside a `contextRef` (a top-level `<context>` or
    /// `<traceFormat>` changes it).
    private var current = InkContext(format: nil)
    // Elements being built.
    private var format: (id: String?, value: InkTraceFormat)?
    private var inkSource: (id: String?, value: InkContext)?
    private var context: (id: String?, value: InkContext)?
    /// Open trace groups: the context each sets (nil: inherited).
    private var groups: [InkContext?] = []
    private var topLevelGroups = 0
    private var trace: (id: String?, context: InkContext?, timeOffset: Double, text: [UInt8])?
    /// Traces inside `<definitions>`, by id, for `<traceView>`.
    private var defined: [String: InkTrace] = [:]

    init(source: String, limits: InkML.Limits) {
        self.source = source
        self.limits = limits
    }

    private func fail(_ problem: String) {
        guard error == nil else { return }
        error = InkMLError(source: source, line: parser?.lineNumber, problem: problem)
        parser?.abortParsing()
    }

    private static func local(_ name: String) -> String {
        name.split(separator: ":").last.map(String.init) ?? name
    }

    private static func identifier(_ attributes: [String: String]) -> String? {
        attributes["xml:id"] ?? attributes["id"]
    }

    /// A reference: `#id`, `id`, or a URI ending in `#id`.
    private static func reference(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        if let hash = text.lastIndex(of: "#") { return String(text[text.index(after: hash)...]) }
        return text
    }

    private func context(named reference: String?) -> InkContext? {
        guard let name = Self.reference(reference) else { return nil }
        if let found = contexts[name] { return found }
        fail("contextRef \"\(name)\" names no <context> declared before it")
        return nil
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        guard error == nil else { return }
        let name = Self.local(elementName)
        let parent = stack.last
        stack.append(name)
        guard stack.count <= limits.maximumDepth else {
            return fail("elements nested over \(limits.maximumDepth) deep (InkML.Limits.maximumDepth)")
        }
        if stack.count == 1 {
            guard name == "ink" else { return fail("the root element is <\(name)>, not <ink>: not an InkML document") }
            sawRoot = true
            return
        }
        guard trace == nil else { return fail("<\(name)> inside a <trace>: a trace holds only its points") }
        switch name {
        case "traceFormat":
            format = (Self.identifier(attributes), InkTraceFormat())
        case "channel":
            guard format != nil, let channelName = attributes["name"], !channelName.isEmpty else {
                if format == nil { return }  // a channel elsewhere (e.g. in a brush) says nothing about traces
                return fail("a <channel> without a name")
            }
            guard format!.value.regular.count + format!.value.intermittent.count < limits.maximumChannels else {
                return fail("over \(limits.maximumChannels) channels in one trace format (InkML.Limits.maximumChannels)")
            }
            let channel = InkChannel(name: channelName, units: attributes["units"], inverted: attributes["orientation"] == "-ve")
            if stack.dropLast().contains("intermittentChannels") {
                format!.value.intermittent.append(channel)
            } else {
                format!.value.regular.append(channel)
            }
        case "inkSource":
            inkSource = (Self.identifier(attributes), InkContext())
        case "channelProperty":
            guard inkSource != nil, attributes["name"] == "resolution", let channel = attributes["channel"] else { return }
            guard let value = attributes["value"].flatMap(Double.init), value.isFinite, value > 0 else {
                return fail("channelProperty resolution of \(channel): value is not a positive number")
            }
            // Resolution is units per length, e.g. units="1/cm" value="1000": 1000 per cm.
            if let units = attributes["units"], units.hasPrefix("1/"), let length = pointsPer(unit: String(units.dropFirst(2))) {
                inkSource!.value.resolution[channel] = length / value
            }
        case "context":
            var value = context(named: attributes["contextRef"]) ?? (parent == "ink" ? current : InkContext())
            if let ref = Self.reference(attributes["traceFormatRef"]) {
                guard let found = formats[ref] else { return fail("traceFormatRef \"\(ref)\" names no <traceFormat> declared before it") }
                value.format = found
            }
            if let ref = Self.reference(attributes["inkSourceRef"]) {
                guard let found = sources[ref] else { return fail("inkSourceRef \"\(ref)\" names no <inkSource> declared before it") }
                if let format = found.format { value.format = format }
                value.resolution.merge(found.resolution) { _, new in new }
            }
            context = (Self.identifier(attributes), value)
        case "traceGroup":
            if groups.isEmpty && !stack.contains("definitions") { topLevelGroups += 1 }
            groups.append(attributes["contextRef"] == nil ? nil : context(named: attributes["contextRef"]))
        case "trace":
            let offset = attributes["timeOffset"].flatMap(Double.init).flatMap { $0.isFinite ? $0 : nil } ?? 0
            trace = (Self.identifier(attributes), attributes["contextRef"] == nil ? nil : context(named: attributes["contextRef"]), offset, [])
        case "traceView":
            guard let ref = Self.reference(attributes["traceDataRef"]), var viewed = defined[ref] else { return }
            viewed.group = groups.isEmpty ? nil : topLevelGroups - 1
            viewed.line = parser.lineNumber
            append(viewed)
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard error == nil, trace != nil else { return }
        trace!.text.append(contentsOf: string.utf8)
        if trace!.text.count > limits.maximumBytes { fail("a trace's text is over the file limit") }
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        guard error == nil else { return }
        let name = stack.popLast() ?? Self.local(elementName)
        let parent = stack.last
        if stack.isEmpty { closedRoot = true }
        switch name {
        case "traceFormat":
            guard let (id, value) = format else { return }
            format = nil
            if let id { formats[id] = value }
            switch parent {
            case "ink": current.format = value
            case "context": context?.value.format = value
            case "inkSource": inkSource?.value.format = value
            default: break
            }
        case "inkSource":
            guard let (id, value) = inkSource else { return }
            inkSource = nil
            if let id { sources[id] = value }
            if parent == "context" {
                // Not `context?.value.format = value.format ?? context?.value.format`: the
                // autoclosure of ?? reads `context` during the write (an exclusivity trap).
                if let format = value.format { context?.value.format = format }
                context?.value.resolution.merge(value.resolution) { _, new in new }
            }
        case "context":
            guard let (id, value) = context else { return }
            context = nil
            if let id { contexts[id] = value }
            if parent == "ink" { current = value }
        case "traceGroup":
            _ = groups.popLast()
        case "trace":
            guard let built = trace else { return }
            trace = nil
            finish(built, inDefinitions: stack.contains("definitions"))
        default:
            break
        }
    }

    private func finish(_ built: (id: String?, context: InkContext?, timeOffset: Double, text: [UInt8]), inDefinitions: Bool) {
        let context = built.context ?? groups.last(where: { $0 != nil }).flatMap { $0 } ?? current
        let format = context.format ?? .standard
        guard let xIndex = format.regular.firstIndex(where: { $0.name == "X" }),
            let yIndex = format.regular.firstIndex(where: { $0.name == "Y" })
        else {
            return fail("the trace's format has no regular X and Y channels (it has \(format.regular.map(\.name).joined(separator: ", ")))")
        }
        let tIndex = format.regular.firstIndex { $0.name == "T" }
        let forceIndex = format.regular.firstIndex { $0.name == "F" } ?? format.regular.firstIndex { $0.name == "P" }
        let decoder = TraceDecoder(
            regularChannels: format.regular.count, intermittentChannels: format.intermittent.count,
            maximumPoints: limits.maximumPointsPerTrace, maximumMagnitude: limits.maximumMagnitude)
        let rows: [[Double?]]
        do {
            rows = try decoder.decode(built.text)
        } catch {
            return fail("trace \(built.id.map { "\"\($0)\"" } ?? "without id"): \(error.problem)")
        }
        func sign(_ index: Int) -> Double { format.regular[index].inverted ? -1 : 1 }
        let timeScale = format.regular[tIndex ?? 0].units?.lowercased() == "s" ? 1000.0 : 1.0
        var points: [InkPoint] = []
        points.reserveCapacity(rows.count)
        for row in rows {
            guard let x = row[xIndex], let y = row[yIndex] else { continue }  // a point with unknown position
            points.append(InkPoint(
                x: sign(xIndex) * x, y: sign(yIndex) * y,
                time: tIndex.flatMap { row[$0] }.map { $0 * timeScale + built.timeOffset },
                force: forceIndex.flatMap { row[$0] }))
        }
        func scale(_ index: Int) -> Double? {
            format.regular[index].units.flatMap(pointsPer(unit:)) ?? context.resolution[format.regular[index].name]
        }
        var trace = InkTrace(
            id: built.id, points: points, group: groups.isEmpty ? nil : topLevelGroups - 1, line: parser?.lineNumber ?? 0)
        trace.pointsPerUnitX = scale(xIndex)
        trace.pointsPerUnitY = scale(yIndex)
        if inDefinitions {
            if let id = built.id { defined[id] = trace }
            return
        }
        append(trace)
    }

    private func append(_ trace: InkTrace) {
        guard !trace.points.isEmpty else { return }
        totalPoints += trace.points.count
        guard traces.count < limits.maximumTraces else {
            return fail("over \(limits.maximumTraces) traces (InkML.Limits.maximumTraces)")
        }
        guard totalPoints <= limits.maximumTotalPoints else {
            return fail("over \(limits.maximumTotalPoints) points in all (InkML.Limits.maximumTotalPoints)")
        }
        traces.append(trace)
    }
}
