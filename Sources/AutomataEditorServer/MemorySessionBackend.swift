import Foundation

/// Sessions in this process's memory only: for tests and throwaway demos (`--store memory:`).
/// Same contract as the database backends; nothing survives the process.
final class MemorySessionBackend: SessionBackend, @unchecked Sendable {
    private struct Row {
        var model: String
        var lastUsed: Int64
        var edits: [String]
    }

    private let lock = NSLock()
    private var rows: [String: Row] = [:]

    let concurrentCommits = 1

    func run() async {}
    func open() async throws {}

    func create(id: String, model: String, now: Int64, cutoff: Int64, cap: Int) async throws -> Bool {
        lock.withLock {
            guard rows.values.filter({ $0.lastUsed >= cutoff }).count < cap, rows[id] == nil else { return false }
            rows[id] = Row(model: model, lastUsed: now, edits: [])
            return true
        }
    }

    func load(id: String, after version: Int, cutoff: Int64, touch now: Int64?) async throws -> StoredSession? {
        lock.withLock {
            guard var row = rows[id], row.lastUsed >= cutoff else { return nil }
            if let now {
                row.lastUsed = now
                rows[id] = row
            }
            let first = min(max(version, 0), row.edits.count)
            return StoredSession(
                model: row.model, version: row.edits.count,
                edits: row.edits[first...].enumerated().map { (first + $0.offset + 1, $0.element) })
        }
    }

    func append(_ requests: [AppendRequest], now: Int64, cutoff: Int64) async throws -> [AppendOutcome] {
        lock.withLock {
            requests.map { request in
                guard var row = rows[request.id], row.lastUsed >= cutoff else { return .missing }
                guard row.edits.count == request.expected else { return .conflict }
                row.edits.append(request.edit)
                row.lastUsed = now
                rows[request.id] = row
                return .appended
            }
        }
    }

    func delete(id: String) async throws -> Bool {
        lock.withLock { rows.removeValue(forKey: id) != nil }
    }

    func expire(before cutoff: Int64) async throws -> Int {
        lock.withLock {
            let expired = rows.filter { $0.value.lastUsed < cutoff }.map(\.key)
            for id in expired { rows.removeValue(forKey: id) }
            return expired.count
        }
    }

    func liveCount(cutoff: Int64) async throws -> Int {
        lock.withLock { rows.values.filter { $0.lastUsed >= cutoff }.count }
    }
}
