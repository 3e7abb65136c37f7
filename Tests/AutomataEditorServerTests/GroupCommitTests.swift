@testable import AutomataEditorServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// Group commit: appends that arrive while the store commits are committed together, one edit
/// per session per batch, each waiter answered with its own outcome only after its batch; a
/// failed batch fails all its waiters and nothing else; with several batches committing at
/// once, a session's second edit still waits for its first. The backends' batched append agrees
/// with the in-memory backend (the plain reference) edit by edit. An edit made on a cached
/// editor that another server has overtaken is made again, never lost.
@Suite(.serialized) struct GroupCommitTests {
    typealias Stores = SessionStoreTests
    typealias Shared = EditorServerTests

    /// Records the batches it is asked to commit; the first one waits until `open` is called.
    final class GatedCommit: @unchecked Sendable {
        private let lock = NSLock()
        private var gate: CheckedContinuation<Void, Never>?
        private var opened = false
        private(set) var batches: [[AppendRequest]] = []
        /// Requests whose batch fails instead of committing.
        var failing: Set<String> = []

        func commit(_ requests: [AppendRequest]) async throws -> [AppendOutcome] {
            let first = lock.withLock {
                batches.append(requests)
                return batches.count == 1
            }
            if first {
                await withCheckedContinuation { continuation in
                    let openNow = lock.withLock {
                        if opened { return true }
                        gate = continuation
                        return false
                    }
                    if openNow { continuation.resume() }
                }
            }
            if requests.contains(where: { failing.contains($0.id) }) {
                throw SessionStoreError.unavailable("disk full (test)")
            }
            // Even expected versions append, odd ones conflict: each waiter must get its own.
            return requests.map { $0.expected % 2 == 0 ? .appended : .conflict }
        }

        func open() {
            let continuation = lock.withLock {
                opened = true
                defer { gate = nil }
                return gate
            }
            continuation?.resume()
        }

        var batchCount: Int { lock.withLock { batches.count } }
    }

    @Test func appendsArrivingDuringACommitAreCommittedTogether() async throws {
        let gated = GatedCommit()
        gated.failing = ["failing"]
        let queue = AppendQueue(maximumBatch: 4) { try await gated.commit($0) }
        // The first append starts a commit that waits; the others queue behind it.
        let requests = [
            AppendRequest(id: "a", expected: 0, edit: "a0"),
            AppendRequest(id: "b", expected: 2, edit: "b2"), AppendRequest(id: "c", expected: 3, edit: "c3"),
            AppendRequest(id: "b", expected: 3, edit: "b3"), AppendRequest(id: "d", expected: 4, edit: "d4"),
            AppendRequest(id: "e", expected: 6, edit: "e6"), AppendRequest(id: "f", expected: 8, edit: "f8"),
        ]
        try await withThrowingTaskGroup(of: (AppendRequest, AppendQueue.Result).self) { group in
            group.addTask { (requests[0], try await queue.append(requests[0])) }
            while gated.batchCount == 0 { await Task.yield() }
            // Queued one after the other, in the order listed.
            for (index, request) in requests.enumerated().dropFirst() {
                group.addTask { (request, try await queue.append(request)) }
                while queue.waitingCount < index { await Task.yield() }
            }
            gated.open()
            var answered = 0
            for try await (request, result) in group {
                answered += 1
                #expect(result.outcome == (request.expected % 2 == 0 ? .appended : .conflict), "\(request)")
                let batch = try #require(gated.batches.first { $0.contains(request) })
                #expect(result.batchSize == batch.count, "\(request)")
            }
            #expect(answered == requests.count)
        }
        // The six queued appends, in arrival order: at most 4 per batch, and b's second edit
        // (which may depend on its first) left for the batch after.
        let batches = gated.batches
        #expect(batches == [[requests[0]], [requests[1], requests[2], requests[4], requests[5]], [requests[3], requests[6]]])

        // A batch that fails fails its waiters only; the queue goes on committing.
        await #expect(throws: SessionStoreError.self) {
            try await queue.append(AppendRequest(id: "failing", expected: 0, edit: "x"))
        }
        #expect(try await queue.append(AppendRequest(id: "g", expected: 0, edit: "g0")).outcome == .appended)
    }

    @Test func batchesCommitAtOnceButNeverTwoEditsOfOneSession() async throws {
        let gated = GatedCommit()
        let queue = AppendQueue(maximumBatch: 8, maximumInFlight: 2) { try await gated.commit($0) }
        let a0 = AppendRequest(id: "a", expected: 0, edit: "a0")
        let a1 = AppendRequest(id: "a", expected: 2, edit: "a1")
        let b0 = AppendRequest(id: "b", expected: 4, edit: "b0")
        try await withThrowingTaskGroup(of: AppendQueue.Result.self) { group in
            // a0's commit hangs; a1 must wait for it, b0 need not.
            group.addTask { try await queue.append(a0) }
            while gated.batchCount == 0 { await Task.yield() }
            group.addTask { try await queue.append(a1) }
            while queue.waitingCount == 0 { await Task.yield() }
            #expect(try await queue.append(b0).outcome == .appended)
            #expect(gated.batches == [[a0], [b0]])
            #expect(queue.waitingCount == 1, "a1 waits for a0's batch")
            gated.open()
            for try await result in group { #expect(result.outcome == .appended) }
        }
        #expect(gated.batches == [[a0], [b0], [a1]])
    }

    /// A backend with its pool running while `body` runs.
    static func withBackend(_ backend: any SessionBackend, _ body: () async throws -> Void) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await backend.run() }
            defer { group.cancelAll() }
            try await backend.open()
            try await body()
        }
    }

    @Test(arguments: ["sqlite", "postgres"])
    func batchedAppendsAgreeWithTheReference(kind: String) async throws {
        try await Stores.withLocation(kind) { location in
            let backend: any SessionBackend =
                switch location {
                case let .sqlite(path, _): SQLiteSessionBackend(path: path)
                case let .postgres(postgres): PostgresSessionBackend(location: postgres)
                case .memory: MemorySessionBackend()
                }
            let reference = MemorySessionBackend()
            let tag = UUID().uuidString.prefix(8)
            let (live, stale, expired, gone) = ("live-\(tag)", "stale-\(tag)", "expired-\(tag)", "gone-\(tag)")
            try await Self.withBackend(backend) {
                for store in [backend, reference as any SessionBackend] {
                    for id in [live, stale] {
                        #expect(try await store.create(id: id, model: "m", now: 10_000, cutoff: 0, cap: 1_000_000))
                    }
                    #expect(try await store.create(id: expired, model: "m", now: 1_000, cutoff: 0, cap: 1_000_000))
                }
                let batches: [[AppendRequest]] = [
                    [
                        AppendRequest(id: live, expected: 0, edit: "live 1"),
                        AppendRequest(id: stale, expected: 3, edit: "stale, refused"),
                        AppendRequest(id: gone, expected: 0, edit: "no such session"),
                        AppendRequest(id: expired, expected: 0, edit: "expired"),
                    ],
                    [AppendRequest(id: stale, expected: 0, edit: "stale 1"), AppendRequest(id: live, expected: 1, edit: "live 2")],
                    [AppendRequest(id: live, expected: 1, edit: "live 2 again, refused")],
                ]
                for batch in batches {
                    let outcomes = try await backend.append(batch, now: 20_000, cutoff: 5_000)
                    let expected = try await reference.append(batch, now: 20_000, cutoff: 5_000)
                    #expect(outcomes == expected, "\(kind): \(batch.map(\.edit))")
                }
                #expect(try await reference.append(batches[0], now: 20_000, cutoff: 5_000).contains(.missing))
                for id in [live, stale] {
                    let stored = try #require(try await backend.load(id: id, after: 0, cutoff: 5_000, touch: nil))
                    let wanted = try #require(try await reference.load(id: id, after: 0, cutoff: 5_000, touch: nil))
                    #expect(stored.version == wanted.version)
                    #expect(stored.edits.map(\.version) == wanted.edits.map(\.version))
                    #expect(stored.edits.map(\.edit) == wanted.edits.map(\.edit))
                }
                #expect(try await backend.load(id: live, after: 0, cutoff: 5_000, touch: nil)?.edits.map(\.edit) == ["live 1", "live 2"])
                for id in [live, stale, expired] { _ = try await backend.delete(id: id) }
            }
        }
    }

    /// Two servers on one store: the first caches the session, the second edits it, then the
    /// first draws (its cached copy is behind: the append is refused and the drawing made again
    /// on the stored session) and takes an undo sent with the newest version it has not seen.
    @Test(.enabled(if: Shared.enabled, "the bundled model is missing from this build"), arguments: ["sqlite", "postgres"])
    func aServerWhoseCacheIsBehindLosesNothing(kind: String) async throws {
        try await Stores.withLocation(kind) { location in
            try await Stores.withTwoServers(location) { a, b in
                let session = try await Stores.newSession(a)
                let api = "/api/sessions/\(session)"
                #expect(try await Stores.post(a, "\(api)/strokes", Stores.strokeBody(Shared.circle(100, 100, 30))).0 == .ok)
                let (status, seen) = try await Stores.post(
                    b, "\(api)/strokes", Stores.strokeBody(Shared.circle(260, 100, 30)))
                #expect(status == .ok)
                #expect(seen["version"] as? Int == 2)
                let (drawn, answer) = try await Stores.post(
                    a, "\(api)/strokes", Stores.strokeBody(Shared.circle(420, 100, 30)))
                #expect(drawn == .ok)
                #expect(answer["version"] as? Int == 3)
                let automaton = answer["automaton"] as? [String: Any] ?? [:]
                #expect(automaton["strokesReceived"] as? Int == 3, "\(answer)")
                // b has not seen version 3; a stale cache on b must not refuse it.
                let (_, third) = try await Stores.post(
                    a, "\(api)/strokes", Stores.strokeBody(Shared.circle(580, 100, 30)))
                let version = try #require(third["version"] as? Int)
                let (undone, _) = try await Stores.post(b, "\(api)/undo", headers: [.ifMatch: "\"\(version)\""])
                #expect(undone == .ok)
                #expect(try await Stores.state(a, session) == Stores.state(b, session))
            }
        }
    }
}
