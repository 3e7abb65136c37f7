import Foundation
import StrokeKit

/// One person's editor: their sketch, its history, and how many drawings they sent. Requests
/// of one session run one at a time (the lock); sessions never share state.
final class EditorSession: @unchecked Sendable {
    let id: String
    private let lock = NSLock()
    private var adapter: EditorAdapter
    private var strokesReceived = 0

    init(id: String, classifier: any StrokeClassifying) {
        self.id = id
        adapter = EditorAdapter(classifier: classifier)
    }

    /// Runs `body` on the session's editor alone; `countsStroke` counts one drawing received.
    func edit<Result>(countsStroke: Bool = false, _ body: (inout EditorAdapter) throws -> Result) rethrows
        -> (Result, AutomatonView)
    {
        lock.lock()
        defer { lock.unlock() }
        if countsStroke { strokesReceived += 1 }
        let result = try body(&adapter)
        return (result, view)
    }

    /// The automaton as the page draws it (callers hold the lock).
    private var view: AutomatonView {
        AutomatonView(
            sketch: adapter.sketch, canUndo: adapter.canUndo, canRedo: adapter.canRedo,
            strokesReceived: strokesReceived)
    }
}

/// The sessions of one server, by id.
final class SessionStore: @unchecked Sendable {
    private let lock = NSLock()
    private var sessions: [String: EditorSession] = [:]
    private let classifier: any StrokeClassifying
    private let maximumSessions: Int

    init(classifier: any StrokeClassifying, maximumSessions: Int) {
        self.classifier = classifier
        self.maximumSessions = maximumSessions
    }

    /// A new empty session, or nil when the server already keeps `maximumSessions`.
    func create() -> EditorSession? {
        var generator = SystemRandomNumberGenerator()
        let id = (0..<2).map { _ in String(generator.next() as UInt64, radix: 16) }.joined(separator: "-")
        let session = EditorSession(id: id, classifier: classifier)
        lock.lock()
        defer { lock.unlock() }
        guard sessions.count < maximumSessions else { return nil }
        sessions[id] = session
        return session
    }

    func session(_ id: String) -> EditorSession? {
        lock.lock()
        defer { lock.unlock() }
        return sessions[id]
    }

    func remove(_ id: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return sessions.removeValue(forKey: id) != nil
    }
}
