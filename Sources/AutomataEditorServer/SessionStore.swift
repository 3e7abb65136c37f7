import AutomataSketch
import Foundation
import StrokeKit

/// A session as one request sees it: the editor rebuilt from the session's edits, and the
/// version (how many edits the store holds) it was built from.
struct SessionSnapshot: Sendable {
    let id: String
    var adapter: EditorAdapter
    var version: Int
    var strokesReceived: Int

    /// The automaton as the page draws it.
    var view: AutomatonView {
        AutomatonView(
            sketch: adapter.sketch, labels: adapter.labels, canUndo: adapter.canUndo, canRedo: adapter.canRedo,
            strokesReceived: strokesReceived)
    }
}

/// Where an edit's time went, for the `Server-Timing` header: loading the session from the
/// store (only when the cached copy was not the stored one), reading the ink (the classifier),
/// and storing (waiting for the batch, then its commit).
struct EditTiming: Sendable {
    var load: Duration = .zero
    var read: Duration = .zero
    var store: Duration = .zero
    /// The part of `store` spent committing the batch (the rest is waiting for an earlier batch).
    var commit: Duration = .zero
    /// Edits committed in the same batch as this one.
    var batchSize = 0
    /// 1, or more when other requests changed the session meanwhile.
    var attempts = 0
}

/// An edit made and committed: what it did, in words, the verdict of a drawing, the session
/// after it, and where its time went.
struct EditResult: Sendable {
    var message: String
    var verdict: DrawingOutcome?
    var snapshot: SessionSnapshot
    var timing: EditTiming
}

/// Why a session request was refused (the routes turn these into 404 and 409).
enum SessionAccessError: Error, Equatable {
    case unknown(String)
    case modelMismatch(session: String, stored: String, served: String)
    case conflict(String)
}

/// The sessions of a server, kept in a `SessionBackend` as their edits in order, with the
/// editors of recently used sessions cached in memory.
///
/// An edit is made on the session as the store holds it (edits appended elsewhere since the
/// cached version are replayed first), then appended as the next version; when another
/// request or another server appended first, the edit is made again on the newer session.
/// The answer is sent only once the store has committed the edit. Sessions idle longer than
/// the time to live are expired; the cap counts live sessions only.
final class SessionStore: @unchecked Sendable {
    let backend: any SessionBackend
    let classifier: any StrokeClassifying
    /// The checksum of the model every session of this server is read with.
    let model: String
    let maximumSessions: Int
    let timeToLive: Duration
    /// Cached editors kept at most (least recently used ones are dropped, and rebuilt from the
    /// store when asked for again).
    let cacheCapacity: Int
    /// Attempts at appending an edit while other requests append to the same session.
    static let maximumAttempts = 8

    private struct Entry {
        var snapshot: SessionSnapshot
        var lastAccess: Int64
    }

    private let lock = NSLock()
    private var cache: [String: Entry] = [:]
    /// Appends waiting for the store, committed in batches.
    private let appends: AppendQueue

    init(
        backend: any SessionBackend, classifier: any StrokeClassifying, model: String, maximumSessions: Int,
        timeToLive: Duration, cacheCapacity: Int? = nil
    ) {
        self.backend = backend
        self.classifier = classifier
        self.model = model
        self.maximumSessions = maximumSessions
        self.timeToLive = timeToLive
        self.cacheCapacity = cacheCapacity ?? maximumSessions
        let timeToLive = Self.milliseconds(timeToLive)
        appends = AppendQueue(maximumInFlight: backend.concurrentCommits) { [backend] requests in
            let now = Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
            return try await backend.append(requests, now: now, cutoff: now - timeToLive)
        }
    }

    // MARK: - Time

    static func milliseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
    }

    var now: Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }
    private func cutoff(_ now: Int64) -> Int64 { now - Self.milliseconds(timeToLive) }

    /// Cached editors (for tests of memory use).
    var cachedCount: Int { lock.withLock { cache.count } }

    // MARK: - Sessions

    /// A new empty session, or nil when `maximumSessions` live sessions exist.
    func create() async throws -> SessionSnapshot? {
        var generator = SystemRandomNumberGenerator()
        let id = (0..<2).map { _ in String(generator.next() as UInt64, radix: 16) }.joined(separator: "-")
        let now = now
        var created = try await backend.create(
            id: id, model: model, now: now, cutoff: cutoff(now), cap: maximumSessions)
        if !created {
            // Expired sessions may still hold rows: drop them and try once more.
            _ = try await sweep()
            created = try await backend.create(
                id: id, model: model, now: now, cutoff: cutoff(now), cap: maximumSessions)
        }
        guard created else { return nil }
        let snapshot = SessionSnapshot(id: id, adapter: EditorAdapter(classifier: classifier), version: 0, strokesReceived: 0)
        install(snapshot, now: now)
        return snapshot
    }

    /// The session as the store holds it now (its idle time restarts with `touch`).
    func current(_ id: String, touch: Bool = true) async throws -> SessionSnapshot {
        let cached = lock.withLock { cache[id]?.snapshot }
        let now = now
        guard let stored = try await backend.load(
            id: id, after: cached?.version ?? 0, cutoff: cutoff(now), touch: touch ? now : nil)
        else {
            lock.withLock { _ = cache.removeValue(forKey: id) }
            throw SessionAccessError.unknown(id)
        }
        guard stored.model == model else {
            throw SessionAccessError.modelMismatch(session: id, stored: stored.model, served: model)
        }
        if let cached, stored.version < cached.version {
            // The store went back (restored from a backup): rebuild from what it holds.
            lock.withLock { _ = cache.removeValue(forKey: id) }
            return try await current(id, touch: touch)
        }
        var snapshot = cached
            ?? SessionSnapshot(id: id, adapter: EditorAdapter(classifier: classifier), version: 0, strokesReceived: 0)
        try replay(stored.edits, onto: &snapshot)
        install(snapshot, now: now)
        return snapshot
    }

    /// Applies stored edits that follow the snapshot's version, in order.
    private func replay(_ edits: [(version: Int, edit: String)], onto snapshot: inout SessionSnapshot) throws {
        for (version, text) in edits where version > snapshot.version {
            // A gap means the read saw part of a newer state: stop; the next append catches up.
            guard version == snapshot.version + 1 else { break }
            let edit = try SessionEdit.decode(text, session: snapshot.id, version: version)
            do {
                _ = try edit.apply(to: &snapshot.adapter)
            } catch is SketchEditError {
                // Kept edits succeeded when made; one that no longer applies changes nothing.
            }
            snapshot.version = version
            if edit.countsStroke { snapshot.strokesReceived += 1 }
        }
    }

    /// Makes `edit` on the session and commits it to the store. `base` is the version the
    /// sender saw: when the session has moved on since, drawings and erasures are made on the
    /// newer session (they merge); other edits are refused with a conflict.
    ///
    /// The edit is made on the cached editor when there is one, without asking the store first:
    /// the append is conditional on the session still being at the cached version, so a session
    /// edited meanwhile (by another server) is a conflict, and the edit is made again on the
    /// session as the store holds it. The ink is read before the append is queued, never while
    /// the store commits; concurrent appends are committed together (`AppendQueue`).
    func edit(_ id: String, _ edit: SessionEdit, base: Int? = nil) async throws -> EditResult {
        let text = try edit.encoded()
        let clock = ContinuousClock()
        var timing = EditTiming()
        var reload = false
        for _ in 0..<Self.maximumAttempts {
            timing.attempts += 1
            var snapshot: SessionSnapshot
            if !reload, let cached = lock.withLock({ cache[id]?.snapshot }),
                base == nil || base == cached.version || edit.mergesWithConcurrentEdits
            {
                // A sender that saw another version than the cached one is checked against the store.
                snapshot = cached
            } else {
                let started = clock.now
                snapshot = try await current(id, touch: false)
                timing.load += clock.now - started
            }
            if let base, base != snapshot.version, !edit.mergesWithConcurrentEdits {
                throw SessionAccessError.conflict(
                    "the session changed since version \(base) (it is at version \(snapshot.version), edited elsewhere); "
                        + "nothing was done: reload it (GET /api/sessions/\(id)) and try again")
            }
            let reading = clock.now
            let (message, verdict) = try edit.apply(to: &snapshot.adapter)
            timing.read += clock.now - reading
            let storing = clock.now
            let appended = try await appends.append(AppendRequest(id: id, expected: snapshot.version, edit: text))
            timing.store += clock.now - storing
            timing.commit += appended.commit
            timing.batchSize = appended.batchSize
            switch appended.outcome {
            case .appended:
                snapshot.version += 1
                if edit.countsStroke { snapshot.strokesReceived += 1 }
                install(snapshot, now: now)
                return EditResult(message: message, verdict: verdict, snapshot: snapshot, timing: timing)
            case .conflict:
                reload = true
                continue
            case .missing:
                lock.withLock { _ = cache.removeValue(forKey: id) }
                throw SessionAccessError.unknown(id)
            }
        }
        throw SessionAccessError.conflict(
            "session \(id) was changed \(Self.maximumAttempts) times by other requests while this edit was being saved; "
                + "nothing was done: try again")
    }

    func remove(_ id: String) async throws -> Bool {
        let removed = try await backend.delete(id: id)
        lock.withLock { _ = cache.removeValue(forKey: id) }
        return removed
    }

    /// Deletes expired sessions from the store and drops cached editors idle as long.
    func sweep() async throws -> Int {
        let cutoff = cutoff(now)
        lock.withLock { cache = cache.filter { $0.value.lastAccess >= cutoff } }
        return try await backend.expire(before: cutoff)
    }

    /// Caches the newest snapshot of a session, dropping the least recently used over capacity.
    private func install(_ snapshot: SessionSnapshot, now: Int64) {
        lock.withLock {
            if let existing = cache[snapshot.id], existing.snapshot.version > snapshot.version {
                cache[snapshot.id]!.lastAccess = now
                return
            }
            cache[snapshot.id] = Entry(snapshot: snapshot, lastAccess: now)
            if cache.count > cacheCapacity, let oldest = cache.min(by: { $0.value.lastAccess < $1.value.lastAccess }) {
                cache.removeValue(forKey: oldest.key)
            }
        }
    }
}
