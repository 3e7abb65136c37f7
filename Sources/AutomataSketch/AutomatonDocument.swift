import Foundation

/// Why a `.automaton` document could not be read or written.
public enum AutomatonDocumentError: Error, Hashable, Sendable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    case unwritable(path: String, reason: String)
    case notJSON(path: String, detail: String)
    case notAnAutomaton(path: String)
    case futureVersion(path: String, version: Int)
    case malformed(path: String, detail: String)
    case inconsistent(path: String, problem: String)

    public var description: String {
        switch self {
        case let .unreadable(path, reason):
            return "\(path): cannot read the file (\(reason))"
        case let .unwritable(path, reason):
            return "\(path): cannot write the file (\(reason)); check the folder exists and is writable"
        case let .notJSON(path, detail):
            return "\(path): not a JSON document (\(detail)); is this a .automaton file saved by strokekit?"
        case let .notAnAutomaton(path):
            return "\(path): JSON, but not an automaton document (expected \"format\": \"\(AutomatonDocument.format)\"); save sketches with `strokekit recognize --save FILE.automaton`"
        case let .futureVersion(path, version):
            return "\(path): document version \(version) is newer than this strokekit reads (up to \(AutomatonDocument.currentVersion)); update strokekit"
        case let .malformed(path, detail):
            return "\(path): damaged automaton document: \(detail)"
        case let .inconsistent(path, problem):
            return "\(path): damaged automaton document: \(problem)"
        }
    }
}

/// The `.automaton` document: a sketch as versioned JSON.
///
///     { "format": "strokekit.automaton", "version": 1, "sketch": { "states": [...], "transitions": [...], ... } }
///
/// `version` only grows for changes an older reader would misread; a reader refuses versions
/// newer than its own.
public enum AutomatonDocument {
    public static let format = "strokekit.automaton"
    public static let currentVersion = 1
    /// The file name extension documents use.
    public static let fileExtension = "automaton"

    private struct Header: Codable {
        var format: String?
        var version: Int?
    }

    private struct Document: Codable {
        var format: String
        var version: Int
        var sketch: Sketch
    }

    /// The document's bytes (pretty-printed, keys sorted, so diffs stay readable).
    public static func encode(_ sketch: Sketch) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(Document(format: format, version: currentVersion, sketch: sketch))
    }

    /// Largest document read, in bytes (a sketch of a hundred states with their strokes is
    /// a few MB), so that a file from outside cannot exhaust memory.
    public static let maximumBytes = 64 << 20

    /// Reads a document's bytes; `source` names the file in errors.
    public static func decode(_ data: Data, source: String) throws -> Sketch {
        guard data.count <= maximumBytes else {
            throw AutomatonDocumentError.malformed(
                path: source, detail: "the document is \(data.count) bytes, over the limit of \(maximumBytes) (AutomatonDocument.maximumBytes)")
        }
        let decoder = JSONDecoder()
        let header: Header
        do {
            header = try decoder.decode(Header.self, from: data)
        } catch let error as DecodingError {
            if case .dataCorrupted = error {
                throw AutomatonDocumentError.notJSON(path: source, detail: describe(error))
            }
            throw AutomatonDocumentError.notAnAutomaton(path: source)
        }
        guard header.format == format else { throw AutomatonDocumentError.notAnAutomaton(path: source) }
        guard let version = header.version, version >= 1 else {
            throw AutomatonDocumentError.malformed(path: source, detail: "\"version\" is missing or not a positive whole number")
        }
        guard version <= currentVersion else {
            throw AutomatonDocumentError.futureVersion(path: source, version: version)
        }
        let document: Document
        do {
            document = try decoder.decode(Document.self, from: data)
        } catch let error as DecodingError {
            throw AutomatonDocumentError.malformed(path: source, detail: describe(error))
        }
        if let problem = problem(in: document.sketch) {
            throw AutomatonDocumentError.inconsistent(path: source, problem: problem)
        }
        return document.sketch
    }

    /// Saves atomically: `Data.write(to:options: .atomic)` writes a temporary file beside the
    /// target and renames it over, so a crash never leaves a half-written document.
    public static func save(_ sketch: Sketch, to url: URL) throws {
        let data = try encode(sketch)
        do {
            try data.write(to: url, options: .atomic)
        } catch {
            throw AutomatonDocumentError.unwritable(path: url.path, reason: error.localizedDescription)
        }
    }

    /// Loads and checks a document.
    public static func load(from url: URL) throws -> Sketch {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw AutomatonDocumentError.unreadable(path: url.path, reason: error.localizedDescription)
        }
        return try decode(data, source: url.path)
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return keys.isEmpty ? "at the top level" : "at \(keys.hasPrefix(".") ? String(keys.dropFirst()) : keys)"
        }
        switch error {
        case let .keyNotFound(key, context):
            return "missing \"\(key.stringValue)\" \(path(context))"
        case let .typeMismatch(_, context), let .valueNotFound(_, context), let .dataCorrupted(context):
            return "\(context.debugDescription) (\(path(context)))"
        @unknown default:
            return "\(error)"
        }
    }

    /// What makes a decoded sketch unusable (nil when it is consistent).
    static func problem(in sketch: Sketch) -> String? {
        var stateIDs = Set<Int>()
        var names = Set<String>()
        for state in sketch.states {
            guard stateIDs.insert(state.id).inserted else { return "two states have id \(state.id)" }
            guard names.insert(state.name).inserted else { return "two states are named \(state.name)" }
            guard !state.name.isEmpty else { return "state \(state.id) has an empty name" }
            guard state.radius.isFinite, state.radius > 0, state.center.x.isFinite, state.center.y.isFinite else {
                return "state \(state.name) has an invalid centre or radius"
            }
            guard state.id < sketch.nextStateID else { return "state id \(state.id) is not below nextStateID" }
        }
        var transitionIDs = Set<Int>()
        for transition in sketch.transitions {
            guard transitionIDs.insert(transition.id).inserted else { return "two transitions have id \(transition.id)" }
            guard transition.id < sketch.nextTransitionID else {
                return "transition id \(transition.id) is not below nextTransitionID"
            }
            for end in [transition.from, transition.to].compactMap({ $0 }) where !stateIDs.contains(end) {
                return "transition \(transition.id) refers to state \(end), which does not exist"
            }
            if transition.kind == .selfLoop && (transition.from == nil || transition.from != transition.to) {
                return "self-loop \(transition.id) does not start and end on one state"
            }
            if let problem = SketchNames.problem(withSymbols: transition.symbols) {
                return "transition \(transition.id): \(problem)"
            }
        }
        return nil
    }
}
